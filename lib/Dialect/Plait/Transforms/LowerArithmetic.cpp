//===- LowerArithmetic.cpp - plait-lower-arithmetic -----------------------===//
//
// Python's int arithmetic and NumPy's indices as arith operations, LLVM's
// overflow intrinsics and plait.raise_if (lowered in turn by
// plait-lower-raise).
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Messages.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace plait::dialect {
#define GEN_PASS_DEF_LOWERARITHMETIC
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

using P = arith::CmpIPredicate;

/// Emits the lowering of one operation before it.
class Lowering {
public:
  Lowering(Operation *op) : b(op), l(op->getLoc()) {}

  Value i64(int64_t v) { return b.create<arith::ConstantIntOp>(l, v, 64); }
  Value add(Value x, Value y) { return b.create<arith::AddIOp>(l, x, y); }
  Value sub(Value x, Value y) { return b.create<arith::SubIOp>(l, x, y); }
  Value cmp(P p, Value x, Value y) { return b.create<arith::CmpIOp>(l, p, x, y); }
  Value select(Value c, Value x, Value y) { return b.create<arith::SelectOp>(l, c, x, y); }
  void raiseIf(Value condition, StringRef exception, const std::string &message, ValueRange values = {}) {
    b.create<RaiseIfOp>(l, condition, exception, message, values);
  }

  /// a + b, a - b, a * b: with `check`, LLVM's *.with.overflow (one
  /// instruction and a flag test); `proven` ones carry plait.nsw.
  Value arithmetic(Operation *op, char symbol, Value x, Value y, OverflowMode overflow) {
    if (overflow != OverflowMode::check) {
      Operation *result = symbol == '+'   ? b.create<arith::AddIOp>(l, x, y).getOperation()
                          : symbol == '-' ? b.create<arith::SubIOp>(l, x, y).getOperation()
                                          : b.create<arith::MulIOp>(l, x, y).getOperation();
      if (overflow == OverflowMode::proven)
        result->setAttr(kNoSignedWrapAttrName, b.getUnitAttr());
      return result->getResult(0);
    }
    auto pair = LLVM::LLVMStructType::getLiteral(b.getContext(), {b.getI64Type(), b.getI1Type()});
    Value both = symbol == '+'   ? b.create<LLVM::SAddWithOverflowOp>(l, pair, x, y).getResult()
                 : symbol == '-' ? b.create<LLVM::SSubWithOverflowOp>(l, pair, x, y).getResult()
                                 : b.create<LLVM::SMulWithOverflowOp>(l, pair, x, y).getResult();
    Value result = b.create<LLVM::ExtractValueOp>(l, both, ArrayRef<int64_t>{0});
    Value overflowed = b.create<LLVM::ExtractValueOp>(l, both, ArrayRef<int64_t>{1});
    raiseIf(overflowed, "OverflowError", messageFor(op, "int_overflow"));
    return result;
  }

  /// Whether every use of `op`'s result is `== 0` or `!= 0`.
  static bool onlyComparedWithZero(Operation *op) {
    return llvm::all_of(op->getResult(0).getUsers(), [&](Operation *user) {
      auto compare = dyn_cast<arith::CmpIOp>(user);
      if (!compare || (compare.getPredicate() != P::eq && compare.getPredicate() != P::ne))
        return false;
      Value other = compare.getLhs() == op->getResult(0) ? compare.getRhs() : compare.getLhs();
      return matchPattern(other, m_Zero());
    });
  }

  /// Python's a // b and a % b: ZeroDivisionError, rounding toward negative
  /// infinity, and INT64_MIN // -1 (OverflowError when checked).
  Value floorDivOrMod(Operation *op, bool isMod, Value x, Value y, OverflowMode overflow) {
    raiseIf(cmp(P::eq, y, i64(0)), "ZeroDivisionError",
            messageFor(op, isMod ? "int_mod_by_zero" : "int_division_by_zero"));
    Value minusOne = cmp(P::eq, y, i64(-1));
    if (!isMod && overflow == OverflowMode::check) {
      Value smallest = cmp(P::eq, x, i64(INT64_MIN));
      raiseIf(b.create<arith::AndIOp>(l, smallest, minusOne), "OverflowError", messageFor(op, "int_overflow"));
    }
    // Dividing by -1 is negation (and INT64_MIN / -1 would trap).
    Value safe = select(minusOne, i64(1), y);
    Value r = b.create<arith::RemSIOp>(l, x, safe);
    // Python's remainder is zero exactly when the machine's is.
    if (isMod && onlyComparedWithZero(op))
      return r;
    Value q = b.create<arith::DivSIOp>(l, x, safe);
    // Fix up when the remainder's sign differs from the divisor's.
    Value remainder = cmp(P::ne, r, i64(0));
    Value signsDiffer = cmp(P::slt, b.create<arith::XOrIOp>(l, r, safe), i64(0));
    Value adjust = b.create<arith::AndIOp>(l, remainder, signsDiffer);
    if (isMod)
      return select(minusOne, i64(0), select(adjust, b.create<arith::AddIOp>(l, r, safe), r));
    Value fixed = b.create<arith::SubIOp>(l, q, b.create<arith::ExtUIOp>(l, b.getI64Type(), adjust));
    return select(minusOne, b.create<arith::SubIOp>(l, i64(0), x), fixed);
  }

  /// NumPy's index: negative counts from the end; outside raises IndexError.
  Value index(IndexOp op) {
    Value i = op.getIndex(), size = op.getSize();
    Value wrapped = op.getNonnegative()
                        ? i
                        : select(cmp(P::slt, i, i64(0)), b.create<arith::AddIOp>(l, i, size), i);
    if (!op.getUnchecked()) // unsigned: catches negatives and >= size at once
      raiseIf(cmp(P::uge, wrapped, size), "IndexError", messageFor(op, "index_out_of_bounds"),
              {i, i64(static_cast<int64_t>(op.getAxis())), size});
    return b.create<arith::IndexCastOp>(l, b.getIndexType(), wrapped);
  }

  /// CPython's PySlice_Unpack and PySlice_AdjustIndices: the first
  /// position, the count and the step of a slice of an axis.
  SmallVector<Value, 3> slice(SliceOp op) {
    Value size = op.getSize();
    Value step = op.getStep() ? op.getStep() : i64(1);
    if (op.getStep())
      raiseIf(cmp(P::eq, step, i64(0)), "ValueError", messageFor(op, "slice_step_zero"));
    Value backwards = cmp(P::slt, step, i64(0));
    auto adjust = [&](Value given, bool isStart) -> Value {
      if (!given) // defaults: [0, size) forwards, [size - 1, -1) backwards
        return isStart ? select(backwards, sub(size, i64(1)), i64(0))
                       : select(backwards, i64(-1), size);
      Value fromEnd = add(given, size);
      Value low = select(backwards, i64(-1), i64(0));
      Value high = select(backwards, sub(size, i64(1)), size);
      Value clampedFromEnd = select(cmp(P::slt, fromEnd, i64(0)), low, fromEnd);
      Value clampedFromStart = select(cmp(P::sge, given, size), high, given);
      return select(cmp(P::slt, given, i64(0)), clampedFromEnd, clampedFromStart);
    };
    Value start = adjust(op.getLower(), /*isStart=*/true);
    Value stop = adjust(op.getUpper(), /*isStart=*/false);
    // (stop - start - 1) / step + 1 elements when the range is not empty.
    Value forwards = select(
        cmp(P::slt, start, stop),
        add(b.create<arith::DivSIOp>(l, sub(sub(stop, start), i64(1)), step), i64(1)), i64(0));
    Value backwardsCount = select(
        cmp(P::slt, stop, start),
        add(b.create<arith::DivSIOp>(l, sub(sub(start, stop), i64(1)), sub(i64(0), step)), i64(1)),
        i64(0));
    Value count = select(backwards, backwardsCount, forwards);
    Value first = select(cmp(P::sgt, count, i64(0)), start, i64(0));
    return {first, count, step};
  }

private:
  OpBuilder b;
  Location l;
};

struct LowerArithmeticPass : public plait::dialect::impl::LowerArithmeticBase<LowerArithmeticPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa<AddOp, SubOp, MulOp, FloorDivOp, ModOp, IndexOp, AssumeNonNegativeOp, SliceOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      Lowering lower(op);
      if (auto slice = dyn_cast<SliceOp>(op)) {
        op->replaceAllUsesWith(lower.slice(slice));
        op->erase();
        continue;
      }
      Value result;
      if (auto add = dyn_cast<AddOp>(op))
        result = lower.arithmetic(op, '+', add.getLhs(), add.getRhs(), add.getOverflow());
      else if (auto sub = dyn_cast<SubOp>(op))
        result = lower.arithmetic(op, '-', sub.getLhs(), sub.getRhs(), sub.getOverflow());
      else if (auto mul = dyn_cast<MulOp>(op))
        result = lower.arithmetic(op, '*', mul.getLhs(), mul.getRhs(), mul.getOverflow());
      else if (auto div = dyn_cast<FloorDivOp>(op))
        result = lower.floorDivOrMod(op, /*isMod=*/false, div.getLhs(), div.getRhs(), div.getOverflow());
      else if (auto mod = dyn_cast<ModOp>(op))
        result = lower.floorDivOrMod(op, /*isMod=*/true, mod.getLhs(), mod.getRhs(), mod.getOverflow());
      else if (auto index = dyn_cast<IndexOp>(op))
        result = lower.index(index);
      else
        result = cast<AssumeNonNegativeOp>(op).getInput();
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerArithmeticPass() {
  return std::make_unique<LowerArithmeticPass>();
}
