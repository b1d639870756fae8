//===- AnnotateSignatures.cpp - keep builtin signatures through lowering --===//
//
// Lowering func.func to llvm.func expands every memref argument into pointers
// and integers; the execution engine needs the original signature to marshal
// NumPy arrays, so this pass records it as an attribute that the lowering
// copies onto the llvm.func.
//
//===----------------------------------------------------------------------===//
#include "plait/Passes/Passes.h"
#include "plait/Dialect/Plait/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace plait {
namespace {

struct AnnotateSignaturesPass
    : public mlir::PassWrapper<AnnotateSignaturesPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AnnotateSignaturesPass)

  llvm::StringRef getArgument() const final {
    return "plait-annotate-signatures";
  }
  llvm::StringRef getDescription() const final {
    return "Record each func.func's signature for the execution engine";
  }

  void runOnOperation() override {
    getOperation().walk([](mlir::func::FuncOp func) {
      func->setAttr(kSignatureAttrName,
                    mlir::TypeAttr::get(func.getFunctionType()));
    });
  }
};

} // namespace

std::unique_ptr<mlir::Pass> createAnnotateSignaturesPass() {
  return std::make_unique<AnnotateSignaturesPass>();
}

void registerPlaitPasses() {
  dialect::registerPlaitDialectPasses();
  mlir::PassRegistration<AnnotateSignaturesPass>();
  mlir::PassPipelineRegistration<>(
      kLowerToLLVMPipelineName,
      "Lower func/arith/scf/cf/math/memref to the LLVM dialect",
      [](mlir::OpPassManager &pm) { buildLowerToLLVMPipeline(pm); });
}

} // namespace plait
