//===- LowerLoops.cpp - plait-lower-loops ---------------------------------===//
//
// plait.for to blocks: a header testing the iteration counter k against the
// trip count (unsigned: a span may exceed INT64_MAX), the body with the loop
// variable start + k * step, a latch, and an exit block that receives how
// the loop ended. Innermost loops first, so that each body is plain CFG.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"
#include "plait/Dialect/Plait/RangeLoops.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace plait::dialect {
#define GEN_PASS_DEF_LOWERLOOPS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

void lower(ForOp loop) {
  Location l = loop.getLoc();
  OpBuilder b(loop);
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Value trips = tripCount(b, l, loop.getStart(), loop.getStop(), loop.getStep());

  // Split: [before] loop [after]; `after` receives the exit kind.
  Block *before = loop->getBlock();
  Block *after = before->splitBlock(loop);
  BlockArgument exitKind = after->insertArgument(0u, i32, l);
  Region *parent = before->getParent();

  Block *header = b.createBlock(parent, Region::iterator(after), {i64}, {l});
  Block *latch = b.createBlock(parent, Region::iterator(after));
  Value k = header->getArgument(0);

  // The body's blocks move in between header and latch.
  Region &body = loop.getBody();
  Block *bodyEntry = &body.front();
  parent->getBlocks().splice(Region::iterator(latch), body.getBlocks());

  b.setInsertionPointToEnd(before);
  b.create<cf::BranchOp>(l, header, ValueRange{b.create<arith::ConstantIntOp>(l, 0, 64)});

  b.setInsertionPointToEnd(header);
  Value more = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult, k, trips);
  Value variable = b.create<arith::AddIOp>(l, loop.getStart(), b.create<arith::MulIOp>(l, k, loop.getStep()));
  Value completed = b.create<arith::ConstantIntOp>(l, ForOp::kCompleted, 32);
  b.create<cf::CondBranchOp>(l, more, bodyEntry, ValueRange{variable}, after, ValueRange{completed});

  b.setInsertionPointToEnd(latch);
  b.create<cf::BranchOp>(l, header,
                         ValueRange{b.create<arith::AddIOp>(l, k, b.create<arith::ConstantIntOp>(l, 1, 64))});

  // The body's own terminators become branches.
  for (Block *block = bodyEntry; block != latch; block = block->getNextNode()) {
    Operation *terminator = block->getTerminator();
    if (!isa<ContinueOp, BreakOp, LeaveOp>(terminator))
      continue;
    b.setInsertionPoint(terminator);
    Location at = terminator->getLoc();
    if (isa<ContinueOp>(terminator))
      b.create<cf::BranchOp>(at, latch);
    else
      b.create<cf::BranchOp>(
          at, after,
          ValueRange{b.create<arith::ConstantIntOp>(at, isa<BreakOp>(terminator) ? ForOp::kBroke : ForOp::kLeft, 32)});
    terminator->erase();
  }
  loop.getExit().replaceAllUsesWith(exitKind);
  loop.erase();
}

struct LowerLoopsPass : public plait::dialect::impl::LowerLoopsBase<LowerLoopsPass> {
  void runOnOperation() override {
    // Post-order: inner loops are lowered before the loops around them.
    SmallVector<ForOp> loops;
    getOperation()->walk([&](ForOp loop) { loops.push_back(loop); });
    for (ForOp loop : loops)
      lower(loop);
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerLoopsPass() { return std::make_unique<LowerLoopsPass>(); }
