//===- PassManager.cpp - pass pipelines over plait modules ----------------===//
#include "plait/Pass/PassManager.h"
#include "plait/Passes/Passes.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <shared_mutex>

namespace plait {

struct PassManager::Impl {
  Impl(mlir::MLIRContext *context, llvm::StringRef anchor)
      : pm(context, mlir::OpPassManager::Nesting::Implicit, anchor) {}
  mlir::PassManager pm;
  /// The module being transformed, while run() is in progress (under the
  /// context lock); callback passes make their handles into it.
  std::shared_ptr<Module> runningModule;
};

namespace {

/// A pass that hands the operation to a callback (a Python-defined pass).
class CallbackPass : public mlir::Pass {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CallbackPass)

  CallbackPass(std::string name, std::shared_ptr<CallbackPassFn> callback,
               PassManager::Impl *owner)
      : mlir::Pass(mlir::TypeID::get<CallbackPass>()), name(std::move(name)),
        callback(std::move(callback)), owner(owner) {}
  CallbackPass(const CallbackPass &other)
      : mlir::Pass(other), name(other.name), callback(other.callback),
        owner(other.owner) {}

  llvm::StringRef getName() const override { return name; }
  llvm::StringRef getArgument() const override { return name; }
  bool canScheduleOn(mlir::RegisteredOperationName) const override {
    return true;
  }
  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<CallbackPass>(*this);
  }

  void runOnOperation() override {
    mlir::Operation *op = getOperation();
    std::shared_ptr<Module> module = owner->runningModule;
    OperationRef handle = OperationRef::of(*module->getContext(), op);
    std::string errorMessage;
    bool succeeded;
    {
      // The run holding the context lock waits for this callback, which may
      // change only what lies inside `op` (other threads may be running
      // passes on its siblings).
      Context::CallbackScope scope(*module->getContext());
      CallbackRestrictions restrictions = CallbackRestrictions::pass(op);
      succeeded = (*callback)(handle, errorMessage);
    }
    // The callback may have kept handles; whatever runs next may erase IR.
    module->invalidateHandles();
    if (succeeded && module->isUsedFromOutside()) {
      succeeded = false;
      errorMessage = "it left operations outside the module using values defined in it "
                     "(insert or erase them before the pass returns)";
    }
    if (!succeeded) {
      op->emitError() << "Python pass '" << name << "' failed: " << errorMessage;
      signalPassFailure();
    }
  }

private:
  std::string name;
  std::shared_ptr<CallbackPassFn> callback;
  PassManager::Impl *owner;
};

} // namespace

PassManager::PassManager(std::shared_ptr<Context> context,
                         const std::string &anchor)
    : context(std::move(context)) {
  Context::Guard guard(*this->context);
  impl = std::make_unique<Impl>(&this->context->getMLIRContext(), anchor);
}

// No context lock: passes and instrumentation do not touch shared context
// state when destroyed, and callers may be dropping the last reference from a
// thread that holds the GIL.
PassManager::~PassManager() = default;

std::unique_ptr<PassManager>
PassManager::parse(std::shared_ptr<Context> context,
                   const std::string &pipeline) {
  std::string errors;
  llvm::raw_string_ostream os(errors);
  mlir::FailureOr<mlir::OpPassManager> parsed = mlir::failure();
  {
    std::shared_lock<std::shared_mutex> registryLock(passRegistryMutex());
    parsed = mlir::parsePassPipeline(pipeline, os);
  }
  if (mlir::failed(parsed))
    throw InvalidArgumentError("invalid pass pipeline '" + pipeline +
                               "': " + os.str());
  auto result = std::make_unique<PassManager>(std::move(context),
                                              parsed->getOpAnchorName().str());
  Context::Guard guard(*result->context);
  static_cast<mlir::OpPassManager &>(result->impl->pm) = std::move(*parsed);
  result->impl->pm.setNesting(mlir::OpPassManager::Nesting::Implicit);
  return result;
}

void PassManager::addPipeline(const std::string &pipeline) {
  Context::Guard guard(*context);
  std::string errors;
  llvm::raw_string_ostream os(errors);
  std::shared_lock<std::shared_mutex> registryLock(passRegistryMutex());
  if (mlir::failed(mlir::parsePassPipeline(pipeline, impl->pm, os)))
    throw InvalidArgumentError("invalid pass pipeline '" + pipeline +
                               "': " + os.str());
}

void PassManager::addCallbackPass(const std::string &name,
                                  CallbackPassFn callback) {
  Context::Guard guard(*context);
  impl->pm.addPass(std::make_unique<CallbackPass>(
      name, std::make_shared<CallbackPassFn>(std::move(callback)), impl.get()));
}

void PassManager::enableIRPrinting() {
  Context::Guard guard(*context);
  // Operation scope, not module scope: module scope needs single threading.
  impl->pm.enableIRPrinting(
      [](mlir::Pass *, mlir::Operation *) { return true; },
      [](mlir::Pass *, mlir::Operation *) { return true; },
      /*printModuleScope=*/false);
}

void PassManager::enableVerifier(bool enabled) {
  Context::Guard guard(*context);
  impl->pm.enableVerifier(enabled);
}

void PassManager::enableTiming() {
  Context::Guard guard(*context);
  impl->pm.enableTiming();
}

std::string PassManager::str() {
  Context::Guard guard(*context);
  std::string text;
  llvm::raw_string_ostream os(text);
  impl->pm.printAsTextualPipeline(os);
  return os.str();
}

void PassManager::run(const OperationRef &op) {
  if (op.getModule()->getContext() != context)
    throw InvalidArgumentError(
        "the operation belongs to a different Context than this PassManager");
  Context::Guard guard(*context);
  mlir::Operation &target = op.get();
  // From inside a callback (a Python pass, a model), only IR that callback
  // may change.
  CallbackRestrictions::checkMayChange(&target, /*anchorItself=*/true);
  std::shared_ptr<Module> module = op.getModule();
  if (module->usesOutsideValues())
    throw InvalidArgumentError(
        "operations in this module use values defined outside it (in operations in no block "
        "or in another module): a pipeline's threads would share them; insert those "
        "definitions into the module first");
  if (module->isUsedFromOutside())
    throw InvalidArgumentError(
        "operations outside this module use values defined in it (operations "
        "created from its values but not inserted into it): insert or erase "
        "them before running a pass pipeline, which may erase the values");
  Context::Capture capture(*context);
  impl->runningModule = module;
  // Handles made before must not reach the passes' callbacks either.
  module->invalidateHandles();
  uint64_t failuresBefore = context->getCallbackFailures();
  mlir::LogicalResult result = impl->pm.run(&target);
  impl->runningModule.reset();
  module->invalidateHandles();
  if (mlir::failed(result) || context->getCallbackFailures() != failuresBefore)
    capture.fail("Failure while executing pass pipeline");
}

} // namespace plait
