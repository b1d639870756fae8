//===- HoistAllocas.cpp - plait-hoist-allocas -----------------------------===//
//
// Fixed-size memref.allocas (variable slots) that inlining left inside
// loops or other blocks move to the start of the function's entry block, so
// that a loop calling a jitted function does not take new stack space on
// each iteration (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace plait::dialect {
#define GEN_PASS_DEF_HOISTALLOCAS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;

namespace {

struct HoistAllocasPass : public plait::dialect::impl::HoistAllocasBase<HoistAllocasPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    Block &entry = function.getBody().front();
    SmallVector<memref::AllocaOp> misplaced;
    function.walk([&](memref::AllocaOp alloca) {
      // Dynamic sizes are computed where the alloca stands: those stay.
      if (alloca->getBlock() != &entry && alloca->getNumOperands() == 0)
        misplaced.push_back(alloca);
    });
    for (memref::AllocaOp alloca : misplaced)
      alloca->moveBefore(&entry, entry.begin());
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createHoistAllocasPass() {
  return std::make_unique<HoistAllocasPass>();
}
