//===- DropOverflowChecks.cpp - plait-drop-overflow-checks ----------------===//
//
// A checked plait.add, sub or mul whose exact result fits int64 for every
// value its operands can have (by IntegerRangeAnalysis) cannot raise: it
// becomes a `proven` one (no check, and LLVM's nsw). `i + 1` for `i` in
// `range(n)` is the common case: i <= n - 1 <= 2**63 - 2. With the same
// ranges, an unchecked index (boundscheck=False) proved non-negative is
// marked so: it does not wrap from the end, which leaves `a[i - 1]` an
// affine access LLVM vectorises.
//
//===----------------------------------------------------------------------===//
#include "IntRanges.h"

#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace plait::dialect {
#define GEN_PASS_DEF_DROPOVERFLOWCHECKS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

/// Whether `a op b` fits int64 for all a, b in the ranges (the extremes of
/// sums and differences are at the ends, of products at the corners).
bool alwaysFits(char op, const ConstantIntRanges &a, const ConstantIntRanges &b) {
  bool overflow = false;
  auto check = [&](const APInt &x, const APInt &y) {
    bool o = false;
    (void)(op == '+' ? x.sadd_ov(y, o) : op == '-' ? x.ssub_ov(y, o) : x.smul_ov(y, o));
    overflow |= o;
  };
  if (op == '+') {
    check(a.smin(), b.smin());
    check(a.smax(), b.smax());
  } else if (op == '-') {
    check(a.smin(), b.smax());
    check(a.smax(), b.smin());
  } else {
    for (const APInt *x : {&a.smin(), &a.smax()})
      for (const APInt *y : {&b.smin(), &b.smax()})
        check(*x, *y);
  }
  return !overflow;
}

struct DropOverflowChecksPass : public plait::dialect::impl::DropOverflowChecksBase<DropOverflowChecksPass> {
  void runOnOperation() override {
    auto checked = [](Operation *op) -> char {
      char symbol = isa<AddOp>(op) ? '+' : isa<SubOp>(op) ? '-' : isa<MulOp>(op) ? '*' : 0;
      return symbol && checksOverflow(op) ? symbol : 0;
    };
    auto mayWrap = [](Operation *op) {
      auto index = dyn_cast<IndexOp>(op);
      return index && index.getUnchecked() && !index.getNonnegative();
    };
    // The range analysis costs more than the rest of the pass: only when
    // there is a check to drop.
    auto anyChecked = [&](Operation *op) {
      return checked(op) || mayWrap(op) ? WalkResult::interrupt() : WalkResult::advance();
    };
    if (!getOperation().walk(anyChecked).wasInterrupted())
      return;
    IntRanges ranges;
    if (failed(ranges.run(getOperation())))
      return signalPassFailure();
    SmallVector<std::pair<Operation *, char>> proven;
    SmallVector<IndexOp> nonNegative;
    getOperation().walk([&](Operation *op) {
      // (Checked indices too, once the ranges are known.)
      if (auto index = dyn_cast<IndexOp>(op)) {
        if (!index.getNonnegative() && ranges.within(index.getIndex(), 0, INT64_MAX))
          nonNegative.push_back(index);
        return;
      }
      char symbol = checked(op);
      if (!symbol)
        return;
      std::optional<ConstantIntRanges> a = ranges.of(op->getOperand(0)), b = ranges.of(op->getOperand(1));
      if (a && b && alwaysFits(symbol, *a, *b))
        proven.push_back({op, symbol});
    });
    for (auto [op, symbol] : proven)
      setCannotOverflow(op);
    for (IndexOp index : nonNegative)
      index.setNonnegative(true);
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createDropOverflowChecksPass() {
  return std::make_unique<DropOverflowChecksPass>();
}
