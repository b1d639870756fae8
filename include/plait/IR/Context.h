//===- Context.h - an MLIR context with a lock and diagnostics --*- C++ -*-===//
//
// plait::Context owns one mlir::MLIRContext. Contexts are thread-compatible:
// all native work on a context's IR holds its lock (Context::Guard), so threads
// sharing a context serialise and independent contexts run in parallel.
//
// The lock is re-entrant for the logical operation that holds it: callbacks
// that an operation makes (Python passes, diagnostic handlers), possibly on an
// MLIR worker thread, run inside a CallbackScope and may use the context again
// without deadlocking. Callers must never wait for this lock while holding the
// GIL (threading rule 4); the bindings release it first.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_IR_CONTEXT_H
#define PLAIT_IR_CONTEXT_H

#include "plait/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace plait {

struct HandleTable;
struct InterfaceModelTable;

/// Called for every diagnostic not captured by a failing call; returns true
/// when it handled the diagnostic. Must not throw.
using DiagnosticCallback = std::function<bool(const DiagnosticInfo &)>;

class Context {
public:
  /// `internal` contexts (plait.jit's pool) are not counted by liveCount()
  /// and run their passes single-threaded (each serves one compilation).
  static std::shared_ptr<Context> create(bool internal = false);
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  mlir::MLIRContext &getMLIRContext() { return *mlirContext; }
  /// The handles into this context's IR (see Module.h).
  HandleTable &getHandleTable() { return *handleTable; }
  /// Interface models implemented outside the core (see Extensions.h).
  InterfaceModelTable &getInterfaceModels() { return *interfaceModels; }
  /// The plait Context owning `context` (every MLIRContext plait makes has
  /// one).
  static Context &fromMLIR(mlir::MLIRContext *context);

  /// Holds the context lock for the current scope, unless this thread already
  /// holds it on behalf of the same logical operation.
  class Guard {
  public:
    explicit Guard(Context &context);
    ~Guard();
    Guard(const Guard &) = delete;
    Guard &operator=(const Guard &) = delete;

  private:
    Context &context;
    bool owns;
  };

  /// Whether this thread holds the lock, or runs a callback for its holder.
  bool isHeldByThisThread();

  /// Marks the current thread as running a callback of the operation that holds
  /// this context's lock, so that Guards inside the callback do not block.
  class CallbackScope {
  public:
    explicit CallbackScope(Context &context);
    ~CallbackScope();
    CallbackScope(const CallbackScope &) = delete;
    CallbackScope &operator=(const CallbackScope &) = delete;

  private:
    Context &context;
  };

  /// Collects the error diagnostics emitted on this context while it lives
  /// (unless emitErrorDiagnostics is set). Construct it under the Guard.
  class Capture {
  public:
    explicit Capture(Context &context);
    ~Capture();
    Capture(const Capture &) = delete;
    Capture &operator=(const Capture &) = delete;

    std::vector<DiagnosticInfo> take();
    /// Throws MlirError(message, captured diagnostics).
    [[noreturn]] void fail(const std::string &message);

  private:
    friend class Context;
    Context &context;
    Capture *previous;
    std::vector<DiagnosticInfo> captured; // guarded by context.captureMutex
  };

  uint64_t attachDiagnosticHandler(DiagnosticCallback callback);
  /// Returns false when the id is unknown (already detached).
  bool detachDiagnosticHandler(uint64_t id);

  /// When true, error diagnostics go to the handlers even during a capturing
  /// call, and nothing is captured onto the resulting MlirError.
  void setEmitErrorDiagnostics(bool value) { emitErrorDiagnostics.store(value); }
  bool getEmitErrorDiagnostics() const { return emitErrorDiagnostics.load(); }

  /// Counts the failures of callbacks that cannot fail the MLIR call that made
  /// them (interface models): a pipeline that saw one fails.
  void noteCallbackFailure() { callbackFailures.fetch_add(1); }
  uint64_t getCallbackFailures() const { return callbackFailures.load(); }

  /// Number of live user-created contexts in the process (leak checks).
  static int64_t liveCount();

private:
  explicit Context(bool internal);
  bool handleDiagnostic(const DiagnosticInfo &diagnostic);
  /// Destroys the operations of Modules that died (under the context lock).
  void destroyBuried();

  std::unique_ptr<mlir::MLIRContext> mlirContext;
  std::unique_ptr<HandleTable> handleTable;
  std::unique_ptr<InterfaceModelTable> interfaceModels;

  // The context lock: held by the logical operation using the IR.
  std::mutex irMutex;

  // Leaf lock: guards `handlers`, `nextHandlerId` and `activeCapture`. Never
  // held while calling a handler.
  std::mutex captureMutex;
  struct HandlerEntry {
    uint64_t id;
    std::shared_ptr<DiagnosticCallback> callback;
  };
  std::vector<HandlerEntry> handlers;
  uint64_t nextHandlerId = 1;
  Capture *activeCapture = nullptr;

  std::atomic<bool> emitErrorDiagnostics{false};
  std::atomic<uint64_t> callbackFailures{0};
  bool internal;
};

} // namespace plait

#endif // PLAIT_IR_CONTEXT_H
