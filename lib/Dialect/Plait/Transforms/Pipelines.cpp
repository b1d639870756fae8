//===- Pipelines.cpp - plait's pass pipelines and their registration ------===//
#include "plait/Dialect/Plait/Passes.h"

#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>

namespace plait::dialect {

#define GEN_PASS_REGISTRATION
#include "plait/Dialect/Plait/Passes.h.inc"

void buildOptimizePipeline(mlir::OpPassManager &pm) {
  // Bound flags of variables assigned before their uses read as true:
  // their UnboundLocalError checks fold away before anything copies them.
  pm.addNestedPass<mlir::func::FuncOp>(createForwardConstantSlotsPass());
  // Whole-array operations fuse while they are still operations, then
  // become loops that the passes below treat as any other.
  pm.addNestedPass<mlir::func::FuncOp>(createFuseElementwisePass());
  pm.addPass(createLowerElementwisePass());
  // Indices that loops keep in range lose their checks while prange loops
  // still show their ranges; prange bodies then become functions before the
  // slots they use are hoisted.
  pm.addNestedPass<mlir::func::FuncOp>(createDropIndexChecksPass());
  pm.addPass(createOutlineParallelPass());
  // Inlined callees' slots first (before versioning copies loops); then
  // versioning: it sees the checks as emitted; range analysis then removes
  // what it can prove in both copies, and in loops not versioned.
  pm.addNestedPass<mlir::func::FuncOp>(createHoistAllocasPass());
  pm.addNestedPass<mlir::func::FuncOp>(createVersionLoopsPass());
  pm.addNestedPass<mlir::func::FuncOp>(createDropOverflowChecksPass());
  pm.addNestedPass<mlir::func::FuncOp>(createUnsignedRemainderPass());
  pm.addNestedPass<mlir::func::FuncOp>(createCancelRetainReleasePass());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
}

void buildLowerToStandardPipeline(mlir::OpPassManager &pm) {
  // Structured control flow goes before raising is lowered: raising
  // branches to the function's error return, which must be a block of the
  // function's own region.
  pm.addPass(createLowerArithmeticPass());
  pm.addPass(mlir::createConvertSCFToCFPass());
  pm.addNestedPass<mlir::func::FuncOp>(createLowerLoopsPass());
  pm.addPass(createLowerRaisePass());
}

void registerPlaitDialectPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerPlaitPasses();
    mlir::PassPipelineRegistration<>("plait-optimize", "plait's optimisations on the plait dialect",
                                     buildOptimizePipeline);
    mlir::PassPipelineRegistration<>("plait-lower-to-standard",
                                     "the plait dialect to func, arith, cf, memref and LLVM intrinsics",
                                     buildLowerToStandardPipeline);
  });
}

} // namespace plait::dialect
