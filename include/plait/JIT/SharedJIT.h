//===- SharedJIT.h - the process-wide ORC JIT of plait.jit ------*- C++ -*-===//
//
// One LLJIT for every plait.jit executor in the process. Modules are added and
// looked up concurrently from any thread (each compilation brings its own
// LLVMContext; code generation uses a TargetMachine per compiling thread).
// Each module gets its own ResourceTracker so that its code can be removed on
// its own.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_JIT_SHAREDJIT_H
#define PLAIT_JIT_SHAREDJIT_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class MemoryBuffer;
class Module;
class TargetMachine;
namespace orc {
class JITDylib;
} // namespace orc
} // namespace llvm

namespace plait {

class SharedJIT {
public:
  /// The process's JIT, created on first use (thread-safe).
  static SharedJIT &get();

  /// Owns a module's code in the JIT; removes it when destroyed.
  class Code {
  public:
    ~Code();
    void *lookup(const std::string &symbol) const;
    size_t codeBytes() const { return bytes; }

  private:
    friend class SharedJIT;
    struct Impl;
    std::unique_ptr<Impl> impl;
    size_t bytes = 0;
  };

  /// Adds an optimised module; compiles it and returns the loaded code.
  /// `generated` runs between code generation and linking (to time them);
  /// `objectCopy`, if given, receives the relocatable object.
  /// Throws std::runtime_error with LLVM's message on failure.
  std::shared_ptr<Code> add(std::unique_ptr<llvm::Module> module,
                            std::unique_ptr<llvm::LLVMContext> context,
                            const std::string &entrySymbol,
                            const std::function<void()> &generated = {},
                            std::string *objectCopy = nullptr);

  /// Links a relocatable object made by add() (in this or another process)
  /// into a JITDylib of its own, so that its symbols never clash with the
  /// process's other code; returns it once `entrySymbol` resolves.
  std::shared_ptr<Code> load(const std::string &object, const std::string &entrySymbol);

  /// A TargetMachine for the host owned by the calling thread (cached).
  static llvm::TargetMachine &threadTargetMachine();

private:
  SharedJIT();
  /// Links `object` into `dylib` as one Code (removing the dylib with it when
  /// it is the code's own); throws unless `entrySymbol` resolves.
  std::shared_ptr<Code> link(std::unique_ptr<llvm::MemoryBuffer> object, llvm::orc::JITDylib &dylib,
                             bool ownDylib, const std::string &entrySymbol);
  struct Impl;
  std::unique_ptr<Impl> impl;
};

} // namespace plait

#endif // PLAIT_JIT_SHAREDJIT_H
