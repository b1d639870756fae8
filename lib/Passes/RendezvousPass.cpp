//===- RendezvousPass.cpp - a pass that waits at a test barrier -----------===//
//
// `test-rendezvous` only succeeds when `participants` pipelines run it at the
// same time, which proves those pipelines ran in parallel (detached from the
// interpreter, and not serialised behind any plait lock).
//
//===----------------------------------------------------------------------===//
#include "plait/Passes/Passes.h"
#include "plait/Support/Rendezvous.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <mutex>

namespace plait {
namespace {

struct RendezvousPass
    : public mlir::PassWrapper<RendezvousPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RendezvousPass)

  RendezvousPass() = default;
  RendezvousPass(const RendezvousPass &other) : PassWrapper(other) {}

  llvm::StringRef getArgument() const final { return "test-rendezvous"; }
  llvm::StringRef getDescription() const final {
    return "Wait until `participants` threads run this pass at once (tests)";
  }

  Option<std::string> barrierId{*this, "barrier-id",
                                llvm::cl::desc("Name of the barrier"),
                                llvm::cl::init("default")};
  Option<unsigned> participants{*this, "participants",
                                llvm::cl::desc("Threads that must meet"),
                                llvm::cl::init(2)};
  Option<double> timeoutSeconds{*this, "timeout-seconds",
                                llvm::cl::desc("Give up after this long"),
                                llvm::cl::init(10.0)};

  void runOnOperation() override {
    RendezvousOutcome outcome =
        rendezvous(barrierId, participants, timeoutSeconds);
    if (outcome.met)
      return;
    getOperation().emitError(outcome.error);
    signalPassFailure();
  }
};

} // namespace

std::shared_mutex &passRegistryMutex() {
  static std::shared_mutex mutex;
  return mutex;
}

void registerRendezvousPass() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::unique_lock<std::shared_mutex> lock(passRegistryMutex());
    mlir::PassRegistration<RendezvousPass>();
  });
}

} // namespace plait
