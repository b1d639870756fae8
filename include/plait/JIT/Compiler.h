//===- Compiler.h - snapshot to executor, detached --------------*- C++ -*-===//
//
// The whole of a plait.jit compilation after the snapshot: typing and MLIR
// emission (on a pooled context), plait's and upstream passes, LLVM
// optimisation, code generation into the shared JIT. Touches no Python, so
// the bindings run it with the GIL released; different compilations run in
// parallel (no global compiler lock).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_JIT_COMPILER_H
#define PLAIT_JIT_COMPILER_H

#include "plait/Frontend/Frontend.h"
#include "plait/JIT/SharedJIT.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace plait::jit {

struct CompileRequest {
  std::string snapshot; // "(Program ...)"
  int entryFunction = 0;
  std::vector<frontend::Type> argumentTypes;
  frontend::CompileOptions options;
  unsigned optLevel = 2;
  /// Print each stage's IR into the executor (for inspect()); printing costs
  /// about a tenth of a small function's compile time, so it is on demand.
  bool keepStages = false;
  /// Keep a copy of the machine code (a relocatable object) in the executor,
  /// for the disk cache (cache=True; ExecutorRecord.h).
  bool keepObject = false;
};

/// Native code for one (function, argument types): immutable once built.
/// Freed when its last owner lets go: the dispatch snapshots that list it
/// (retired through the epoch domain, so never while a call may run it) and
/// any Python handle.
struct Executor {
  Executor();
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  /// void entry_packed(void **slots): slots[i] points at the i-th lowered
  /// argument of the entry (a scalar, or one field of a memref descriptor:
  /// allocated, aligned, offset, sizes..., strides...), then the 5 fields of
  /// the results memref, then an int32 for the status.
  void *entry = nullptr;
  /// The entry's slot count (arguments, results descriptor, status) and the
  /// words of its results buffer (EntryABI.h), fixed by the signature.
  size_t packedSlots = 0;
  size_t resultWords = 0;
  std::shared_ptr<SharedJIT::Code> code;
  frontend::EmittedModule info;
  // The stages' IR when the request kept them, otherwise empty.
  std::string plaitText;          // the plait dialect, as emitted
  std::string optimizedPlaitText; // after inlining and plait's optimisations
  std::string mlirText;           // lowered to standard dialects
  std::string optimizedMlirText;  // after MLIR's clean-up passes
  std::string llvmText;           // optimised LLVM IR
  std::string objectCode;         // the relocatable object, if kept
  double compileSeconds = 0;
  /// Where compileSeconds went, phase by phase in order (typing and
  /// emission, plait's passes, lowering, LLVM optimisation, code generation,
  /// linking, printing the stages).
  std::vector<std::pair<std::string, double>> phaseSeconds;

  /// Calls the packed entry (see `entry`).
  void call(void **slots) const;
  /// The same function for the same argument types compiled without
  /// speculation, run when this one returns info.speculationStatus; null
  /// until the first such call has it compiled. Set once, then owned with
  /// this executor (so it lives as long as any call that can reach it).
  const Executor *fallback() const { return fallbackCode.load(std::memory_order_acquire); }
  /// Sets the fallback unless one is set already; false then.
  bool setFallback(std::shared_ptr<const Executor> other) const;
  /// Machine code as assembly text, generated on demand from llvmText
  /// (empty unless the stages were kept).
  std::string assembly() const;

private:
  mutable std::mutex fallbackMutex;
  mutable std::shared_ptr<const Executor> fallbackOwner;
  mutable std::atomic<const Executor *> fallbackCode{nullptr};
};

/// Process-wide counters of plait.jit's native side.
struct CompilerStats {
  int64_t compilations = 0;      // attempts, failed ones included
  int64_t liveExecutors = 0;
  int64_t codeBytes = 0;         // machine code of live executors
  double compileSeconds = 0;     // total, failed attempts included
};
CompilerStats compilerStats();

/// The status of `errors`' speculation failure (its 1-based position), or 0.
int32_t speculationStatusOf(const std::vector<frontend::ErrorSite> &errors);

/// Test hook: make every compilation of this process meet at rendezvous
/// `barrierId` (participants, timeout) while detached, and also at
/// `exitBarrierId` (when not empty) just before it returns; a compilation
/// that does not meet fails. Cleared with participants == 0.
void setCompileRendezvous(const std::string &barrierId, unsigned participants,
                          double timeoutSeconds, const std::string &exitBarrierId = "");

/// Throws frontend::CompileError for user errors, MlirError or
/// std::runtime_error for internal failures.
std::shared_ptr<Executor> compile(const CompileRequest &request);

} // namespace plait::jit

#endif // PLAIT_JIT_COMPILER_H
