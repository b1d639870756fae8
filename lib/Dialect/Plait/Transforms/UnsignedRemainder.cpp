//===- UnsignedRemainder.cpp - plait-unsigned-remainder -------------------===//
//
// Python's `x % k` and `x // k` round toward negative infinity, which costs
// a sign fix-up after the machine's remainder. When IntegerRangeAnalysis
// proves x >= 0 and k > 0 they are the unsigned remainder and quotient
// (MLIR 16's arith has no nsw flags that would let LLVM see it).
//
//===----------------------------------------------------------------------===//
#include "IntRanges.h"

#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace plait::dialect {
#define GEN_PASS_DEF_UNSIGNEDREMAINDER
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

struct UnsignedRemainderPass : public plait::dialect::impl::UnsignedRemainderBase<UnsignedRemainderPass> {
  void runOnOperation() override {
    // The range analysis costs more than the rest of the pass: only when
    // there is something to prove.
    auto candidate = [](Operation *op) {
      return isa<ModOp, FloorDivOp>(op) ? WalkResult::interrupt() : WalkResult::advance();
    };
    if (!getOperation().walk(candidate).wasInterrupted())
      return;
    IntRanges ranges;
    if (failed(ranges.run(getOperation())))
      return signalPassFailure();
    SmallVector<Operation *> proven;
    getOperation().walk([&](Operation *op) {
      if (isa<ModOp, FloorDivOp>(op) && ranges.within(op->getOperand(0), 0, INT64_MAX) &&
          ranges.within(op->getOperand(1), 1, INT64_MAX))
        proven.push_back(op);
    });
    for (Operation *op : proven) {
      OpBuilder b(op);
      Value x = op->getOperand(0), k = op->getOperand(1);
      Value result = isa<ModOp>(op) ? b.create<arith::RemUIOp>(op->getLoc(), x, k).getResult()
                                    : b.create<arith::DivUIOp>(op->getLoc(), x, k).getResult();
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createUnsignedRemainderPass() {
  return std::make_unique<UnsignedRemainderPass>();
}
