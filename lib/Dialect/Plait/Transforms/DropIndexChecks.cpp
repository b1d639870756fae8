//===- DropIndexChecks.cpp - plait-drop-index-checks ----------------------===//
//
// `for i in range(a.shape[0]): a[i]` cannot index out of bounds: the loop
// runs i from 0 to below the axis's size. Such an index needs neither the
// bounds check nor the wrap of negative indices, in every loop, nested or
// not, and with no guard (plait-version-loops would otherwise copy the loop
// to drop the check at run time).
//
// The proof is symbolic: an index x into an axis of size n is in range when
//   x >= 0: x is a constant, a size, a loop variable counting up from a
//           start (or down to a stop) that is itself >= 0, or such a value
//           plus or minus a constant; and
//   x < n:  x is a loop variable counting up to n (or down from below n),
//           again through constant offsets, the bounds of enclosing loops
//           (`for j in range(i)` inside `for i in range(n)`), and ints read
//           from a slot stored once (`n = a.shape[0]`).
// Only checked int arithmetic is followed: it raises rather than wraps, so
// its exact value is the one the proof reasons about.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace plait::dialect {
#define GEN_PASS_DEF_DROPINDEXCHECKS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

/// Offsets stay far from int64's limits, so the proof's own sums are exact.
constexpr int64_t kLargestOffset = int64_t(1) << 32;
/// How many definitions a proof may follow.
constexpr int kDeepestProof = 16;

class IndexProver {
public:
  explicit IndexProver(func::FuncOp function) : dominance(function) {}

  /// Whether 0 <= x < size wherever `index` runs.
  bool inRange(IndexOp index) {
    return atLeast(index.getIndex(), /*offset=*/0, /*depth=*/0) &&
           below(index.getIndex(), index.getSize(), /*offset=*/0, /*depth=*/0);
  }

private:
  DominanceInfo dominance;

  static std::optional<int64_t> constant(Value value) {
    APInt c;
    if (!matchPattern(value, m_ConstantInt(&c)) || c.getBitWidth() != 64)
      return std::nullopt;
    int64_t v = c.getSExtValue();
    if (v < -kLargestOffset || v > kLargestOffset)
      return std::nullopt;
    return v;
  }

  /// `x + c` (c > 0 or not) for a checked plait.add or plait.sub of a
  /// constant: the x and c, or nothing.
  static std::optional<std::pair<Value, int64_t>> plusConstant(Value value) {
    Operation *def = value.getDefiningOp();
    if (!isa_and_nonnull<AddOp, SubOp>(def) || !checksOverflow(def))
      return std::nullopt;
    Value lhs = def->getOperand(0), rhs = def->getOperand(1);
    if (std::optional<int64_t> c = constant(rhs))
      return std::make_pair(lhs, isa<AddOp>(def) ? *c : -*c);
    if (std::optional<int64_t> c = constant(lhs); c && isa<AddOp>(def))
      return std::make_pair(rhs, *c);
    return std::nullopt;
  }

  /// The value a load of a rank-0 stack slot reads when the slot is only
  /// loaded and stored, and its only store dominates the load.
  Value storedOnce(Value value) {
    auto load = value.getDefiningOp<memref::LoadOp>();
    if (!load || !load.getMemRef().getDefiningOp<memref::AllocaOp>())
      return nullptr;
    memref::StoreOp only;
    for (Operation *user : load.getMemRef().getUsers()) {
      if (isa<memref::LoadOp>(user))
        continue;
      auto store = dyn_cast<memref::StoreOp>(user);
      if (!store || store.getValue() == load.getMemRef() || only)
        return nullptr;
      only = store;
    }
    return only && dominance.properlyDominates(only.getOperation(), load.getOperation())
               ? only.getValue()
               : nullptr;
  }

  /// The same int: one value, a slot's single store of it, or casts of the
  /// same array's size along the same axis.
  bool same(Value a, Value b, int depth) {
    if (a == b)
      return true;
    if (++depth > kDeepestProof)
      return false;
    if (Value stored = storedOnce(a))
      return same(stored, b, depth);
    if (Value stored = storedOnce(b))
      return same(a, stored, depth);
    auto castA = a.getDefiningOp<arith::IndexCastOp>(),
         castB = b.getDefiningOp<arith::IndexCastOp>();
    if (castA && castB)
      return same(castA.getIn(), castB.getIn(), depth);
    auto dimA = a.getDefiningOp<memref::DimOp>(), dimB = b.getDefiningOp<memref::DimOp>();
    if (!dimA || !dimB || dimA.getSource() != dimB.getSource())
      return false;
    std::optional<int64_t> axisA = dimA.getConstantIndex(), axisB = dimB.getConstantIndex();
    return axisA && axisA == axisB;
  }

  /// A loop variable's loop: its bounds, with a positive or negative
  /// constant step (prange loops: from `start` by 1, `count` times).
  struct Range {
    Value start, stop; // stop is exclusive
    bool ascending;
  };
  static std::optional<Range> rangeOf(Value value) {
    auto argument = value.dyn_cast<BlockArgument>();
    if (!argument || argument.getArgNumber() != 0 || !argument.getOwner()->isEntryBlock())
      return std::nullopt;
    Operation *owner = argument.getOwner()->getParentOp();
    if (auto loop = dyn_cast<ForOp>(owner)) {
      std::optional<int64_t> step = constant(loop.getStep());
      if (!step || *step == 0)
        return std::nullopt;
      return Range{loop.getStart(), loop.getStop(), *step > 0};
    }
    if (auto loop = dyn_cast<ParallelForOp>(owner)) {
      // The count of range(0, n) is max(n, 0): the loop variable is below n.
      std::optional<int64_t> start = constant(loop.getStart()), step = constant(loop.getStep());
      if (start != 0 || step != 1)
        return std::nullopt;
      Value count = loop.getCount();
      if (auto select = count.getDefiningOp<arith::SelectOp>()) {
        auto positive = select.getCondition().getDefiningOp<arith::CmpIOp>();
        if (positive && positive.getPredicate() == arith::CmpIPredicate::sgt &&
            positive.getLhs() == select.getTrueValue() && constant(positive.getRhs()) == 0 &&
            constant(select.getFalseValue()) == 0)
          count = select.getTrueValue();
      }
      return Range{loop.getStart(), count, true};
    }
    return std::nullopt;
  }

  /// Whether value + offset >= 0.
  bool atLeast(Value value, int64_t offset, int depth) {
    if (++depth > kDeepestProof)
      return false;
    if (std::optional<int64_t> c = constant(value))
      return *c + offset >= 0;
    if (auto cast = value.getDefiningOp<arith::IndexCastOp>())
      if (cast.getIn().getDefiningOp<memref::DimOp>())
        return offset >= 0; // a size
    if (auto sum = plusConstant(value))
      return atLeast(sum->first, offset + sum->second, depth);
    if (Value stored = storedOnce(value))
      return atLeast(stored, offset, depth);
    if (std::optional<Range> range = rangeOf(value)) {
      // Counting up: from start. Counting down: above stop.
      return range->ascending ? atLeast(range->start, offset, depth)
                              : atLeast(range->stop, offset + 1, depth);
    }
    return false;
  }

  /// Whether value + offset < bound.
  bool below(Value value, Value bound, int64_t offset, int depth) {
    if (offset < 0 && same(value, bound, depth))
      return true;
    if (++depth > kDeepestProof)
      return false;
    if (auto sum = plusConstant(value))
      return below(sum->first, bound, offset + sum->second, depth);
    if (Value stored = storedOnce(value))
      return below(stored, bound, offset, depth);
    if (std::optional<Range> range = rangeOf(value)) {
      // Counting up: at most stop - 1. Counting down: at most start.
      return range->ascending ? below(range->stop, bound, offset - 1, depth)
                              : below(range->start, bound, offset, depth);
    }
    return false;
  }
};

struct DropIndexChecksPass : public plait::dialect::impl::DropIndexChecksBase<DropIndexChecksPass> {
  void runOnOperation() override {
    SmallVector<IndexOp> checked;
    getOperation().walk([&](IndexOp index) {
      if (!index.getUnchecked() || !index.getNonnegative())
        checked.push_back(index);
    });
    if (checked.empty())
      return;
    IndexProver prover(getOperation());
    for (IndexOp index : checked) {
      if (prover.inRange(index)) {
        index.setUnchecked(true);
        index.setNonnegative(true);
      }
    }
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createDropIndexChecksPass() {
  return std::make_unique<DropIndexChecksPass>();
}
