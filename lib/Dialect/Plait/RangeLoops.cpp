//===- RangeLoops.cpp - arithmetic of Python's range ----------------------===//
#include "plait/Dialect/Plait/RangeLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace plait::dialect {

using namespace mlir;

Value tripCount(OpBuilder &b, Location l, Value start, Value stop, Value step) {
  using P = arith::CmpIPredicate;
  auto i64 = [&](int64_t v) { return b.create<arith::ConstantIntOp>(l, v, 64).getResult(); };
  Value positive = b.create<arith::CmpIOp>(l, P::sgt, step, i64(0));
  Value low = b.create<arith::SelectOp>(l, positive, start, stop);
  Value high = b.create<arith::SelectOp>(l, positive, stop, start);
  Value nonEmpty = b.create<arith::CmpIOp>(l, P::slt, low, high);
  Value span = b.create<arith::SubIOp>(l, b.create<arith::SubIOp>(l, high, low), i64(1));
  Value magnitude = b.create<arith::SelectOp>(l, positive, step, b.create<arith::SubIOp>(l, i64(0), step));
  Value trips = b.create<arith::AddIOp>(l, b.create<arith::DivUIOp>(l, span, magnitude), i64(1));
  return b.create<arith::SelectOp>(l, nonEmpty, trips, i64(0));
}

Value lastElement(OpBuilder &b, Location l, Value start, Value step, Value trips) {
  Value one = b.create<arith::ConstantIntOp>(l, 1, 64);
  return b.create<arith::AddIOp>(
      l, start, b.create<arith::MulIOp>(l, b.create<arith::SubIOp>(l, trips, one), step));
}

} // namespace plait::dialect
