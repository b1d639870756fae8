//===- ExecutionEngine.h - JIT-compile a module and call it -----*- C++ -*-===//
//
// An ExecutionEngine compiles one LLVM-dialect module (optionally lowering a
// copy of it first) and calls its functions by their builtin signatures.
// Creation holds the module's context lock only while it reads the IR;
// code generation and every call are lock-free, so one engine may be invoked
// by many threads at once. Meant to be called detached from the interpreter.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_EXECUTIONENGINE_EXECUTIONENGINE_H
#define PLAIT_EXECUTIONENGINE_EXECUTIONENGINE_H

#include "plait/IR/Module.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace plait {

/// The type of one argument or result, as the caller sees it.
struct ValueType {
  enum class Kind {
    Integer,  // signless iN, N in {8, 16, 32, 64}
    Index,    // 64-bit
    Bool,     // i1
    Float32,
    Float64,
    Pointer,  // !llvm.ptr, passed as an address
    MemRef,   // ranked memref of the scalar kinds above
    Unsupported
  };
  Kind kind = Kind::Unsupported;
  unsigned bitWidth = 64;                // Integer
  Kind elementKind = Kind::Unsupported;  // MemRef
  unsigned elementBitWidth = 64;         // MemRef of Integer
  std::vector<int64_t> shape;            // MemRef; kDynamic for '?'
  /// MemRef layout strides in elements; kDynamic where the compiled code reads
  /// the stride from the descriptor. An identity layout has static unit
  /// innermost strides, so views must match them.
  std::vector<int64_t> strides;
  std::string text;                      // MLIR spelling, for messages

  static constexpr int64_t kDynamic = -1;
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  /// Bytes of one element of a memref / of the scalar itself.
  unsigned elementByteSize() const;
};

struct FunctionSignature {
  std::string name;
  std::vector<ValueType> arguments;
  std::vector<ValueType> results;
};

/// A memref descriptor: MLIR's strided layout, sizes and strides in elements.
struct MemRefValue {
  void *allocated = nullptr;
  void *aligned = nullptr;
  int64_t offset = 0;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
};

/// One argument or result; which member is meaningful follows its ValueType
/// (integers, indices, bools and pointers use `integer`).
struct Value {
  int64_t integer = 0;
  double floating = 0;
  MemRefValue memref;
};

class ExecutionEngine {
public:
  struct Options {
    unsigned optLevel = 2;
    std::vector<std::string> sharedLibs;
    /// When not empty, run on a copy of the module before translation: either
    /// "builtin.module(...)" or a bare list "pass,pass".
    std::string pipeline;
  };

  /// Throws MlirError (translation/compilation failures, with diagnostics),
  /// InvalidArgumentError (bad options or pipeline).
  static std::unique_ptr<ExecutionEngine> create(const std::shared_ptr<Module> &module,
                                                 const Options &options);
  ~ExecutionEngine();

  /// Throws NotFoundError naming the function.
  const FunctionSignature &getSignature(const std::string &name) const;
  std::vector<std::string> functionNames() const;

  /// Calls `name` with `args` laid out by its signature; thread-safe.
  /// Throws TypeMismatchError for a wrong count or an unsupported type,
  /// InvalidArgumentError for an array whose strides the layout cannot express.
  std::vector<Value> invoke(const std::string &name,
                            const std::vector<Value> &args) const;

  /// Address of the (unpacked) symbol `name`; NotFoundError when absent.
  uintptr_t lookup(const std::string &name) const;

  /// Writes the compiled object code; throws FileError on I/O errors.
  void dumpToObjectFile(const std::string &path) const;

private:
  ExecutionEngine();

  std::unique_ptr<mlir::ExecutionEngine> engine;
  struct Entry {
    FunctionSignature signature;
    void (*packed)(void **) = nullptr;
  };
  std::map<std::string, Entry> functions; // immutable after create()
};

} // namespace plait

#endif // PLAIT_EXECUTIONENGINE_EXECUTIONENGINE_H
