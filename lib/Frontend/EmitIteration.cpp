//===- EmitIteration.cpp - the items of `for` loops -----------------------===//
//
// Every iterable but a top-level range() becomes a count and an item per
// position k (TyperIteration.cpp types them): the loop is a plait.for over
// range(count). The iterable's operands are evaluated once, before the
// loop, as CPython evaluates the iterable once.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

FunctionEmitter::Iteration FunctionEmitter::iterate(const Iterable &iterable,
                                                    std::vector<Val> &operands) {
  const SExpr &node = *iterable.node;
  Location l = loc(node);
  auto index = [this, l](Value i64) { // (the items outlive this call)
    return builder.create<arith::IndexCastOp>(l, builder.getIndexType(), i64).getResult();
  };
  switch (iterable.kind) {
  case Iterable::Kind::Range: {
    auto [start, stop, step] = rangeBounds(node);
    // CPython's range length: ceil((stop - start) / step), at least 0.
    Value positive = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, step, constInt(0));
    Value span =
        builder.create<arith::SelectOp>(l, positive, builder.create<arith::SubIOp>(l, stop, start),
                                        builder.create<arith::SubIOp>(l, start, stop));
    Value stride = builder.create<arith::SelectOp>(
        l, positive, step, builder.create<arith::SubIOp>(l, constInt(0), step));
    Value rounded = builder.create<arith::AddIOp>(
        l, span, builder.create<arith::SubIOp>(l, stride, constInt(1)));
    Value count = builder.create<arith::DivSIOp>(l, rounded, stride);
    count = builder.create<arith::MaxSIOp>(l, count, constInt(0));
    return {count, [=](Value k) {
              Value at = builder.create<arith::AddIOp>(l, start,
                                                       builder.create<arith::MulIOp>(l, k, step));
              return Val{Type::integer(), {at}};
            }};
  }
  case Iterable::Kind::Array: {
    Val array = emitExpr(node);
    operands.push_back(array);
    Type rowType = Type::array(array.type.dtype, array.type.ndim - 1);
    return {dimension(array.leaves[0], 0), [=](Value k) {
              if (array.type.ndim > 1)
                return Val{rowType, {rowView(array.leaves[0], rowType, index(k), l)}};
              Value raw = builder.create<mlir::memref::LoadOp>(l, array.leaves[0],
                                                               mlir::ValueRange{index(k)});
              return fromStorage(raw, array.type.dtype, l);
            }};
  }
  case Iterable::Kind::List: {
    // Inside enumerate(), zip() and reversed() (a loop over the list itself
    // is emitListLoop's): the length is read once; each item is read where
    // it stands, after an append moved the items.
    Val list = holdForLoop(runtimeStrIfStr(emitExpr(node), l));
    operands.push_back(list);
    return {listLength(list, l), [=](Value k) { return loadSequenceItem(list, k, l); }};
  }
  case Iterable::Kind::Tuple: {
    Val tuple = emitExpr(node);
    return {constInt(static_cast<int64_t>(tuple.type.elements.size())),
            [=](Value k) { return tupleElementAt(tuple, k, l); }};
  }
  case Iterable::Kind::Enumerate: {
    Value start = constInt(0);
    if (iterable.start)
      start = convert(emitExpr(*iterable.start), Type::integer()).leaves[0];
    Iteration inner = iterate(iterable.parts[0], operands);
    Type type = iterable.element;
    return {inner.count, [=](Value k) {
              Val item = inner.item(k);
              Val pair{type, {builder.create<arith::AddIOp>(l, start, k)}};
              pair.leaves.append(item.leaves.begin(), item.leaves.end());
              return pair;
            }};
  }
  case Iterable::Kind::Reversed: { // the iterable's items, last first
    Iteration inner = iterate(iterable.parts[0], operands);
    Value last = builder.create<arith::SubIOp>(l, inner.count, constInt(1));
    return {inner.count,
            [=](Value k) { return inner.item(builder.create<arith::SubIOp>(l, last, k)); }};
  }
  case Iterable::Kind::Zip: {
    std::vector<Iteration> parts;
    for (const Iterable &part : iterable.parts)
      parts.push_back(iterate(part, operands));
    Value count = parts[0].count; // the shortest
    for (size_t i = 1; i < parts.size(); ++i)
      count = builder.create<arith::MinSIOp>(l, count, parts[i].count);
    Type type = iterable.element;
    return {count, [=](Value k) {
              Val items{type, {}};
              for (const Iteration &part : parts) {
                Val item = part.item(k);
                items.leaves.append(item.leaves.begin(), item.leaves.end());
              }
              return items;
            }};
  }
  case Iterable::Kind::NdIndex: {
    // np.ndindex(2, 3) or np.ndindex((2, 3)): C order, the last index fastest.
    llvm::SmallVector<Value> sizes;
    for (const SExpr *arg : ast::args(node).rest()) {
      Val value = emitExpr(*arg);
      if (value.type.kind != Type::Kind::Tuple) {
        sizes.push_back(convert(value, Type::integer()).leaves[0]);
        continue;
      }
      for (size_t k = 0; k < value.type.elements.size(); ++k)
        sizes.push_back(convert(tupleElement(value, k), Type::integer()).leaves[0]);
    }
    Value count = constInt(1);
    for (Value size : sizes) {
      check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, size, constInt(0)),
            PyError("ValueError", "negative dimensions are not allowed"));
      count = builder.create<arith::MulIOp>(l, count, size);
    }
    Type type = iterable.element;
    return {count, [=](Value k) {
              Val position{type, {}};
              llvm::SmallVector<Value> indices = unravel(k, sizes, l);
              position.leaves.append(indices.begin(), indices.end());
              return position;
            }};
  }
  case Iterable::Kind::NdEnumerate: {
    Val array = emitExpr(*ast::args(node).rest()[0]);
    operands.push_back(array);
    llvm::SmallVector<Value> sizes;
    for (int axis = 0; axis < array.type.ndim; ++axis)
      sizes.push_back(dimension(array.leaves[0], axis));
    Value count = constInt(1);
    for (Value size : sizes)
      count = builder.create<arith::MulIOp>(l, count, size);
    Type type = iterable.element;
    return {count, [=](Value k) {
              llvm::SmallVector<Value> position = unravel(k, sizes, l);
              llvm::SmallVector<Value> indices;
              for (Value i : position)
                indices.push_back(index(i));
              Value raw = builder.create<mlir::memref::LoadOp>(l, array.leaves[0], indices);
              Val pair{type, {}};
              pair.leaves.append(position.begin(), position.end());
              Val element = fromStorage(raw, array.type.dtype, l);
              pair.leaves.append(element.leaves.begin(), element.leaves.end());
              return pair;
            }};
  }
  case Iterable::Kind::Dict:
    break; // emitDictLoop's (enumerate() and zip() of a dict do not type)
  }
  throw std::logic_error("internal: an iterable of no kind");
}

std::array<Value, 3> FunctionEmitter::rangeBounds(const SExpr &call) {
  // range(stop), range(start, stop[, step]); a zero step is CPython's
  // ValueError before the loop.
  std::vector<Value> args;
  for (const SExpr *arg : ast::args(call).rest())
    args.push_back(convert(emitExpr(*arg), Type::integer()).leaves[0]);
  Value start = args.size() == 1 ? constInt(0) : args[0];
  Value stop = args.size() == 1 ? args[0] : args[1];
  Value step = args.size() == 3 ? args[2] : constInt(1);
  check(builder.create<arith::CmpIOp>(loc(call), arith::CmpIPredicate::eq, step, constInt(0)),
        errorCode("ValueError", "range_step_zero"));
  return {start, stop, step};
}

llvm::SmallVector<Value> FunctionEmitter::unravel(Value k, llvm::ArrayRef<Value> sizes,
                                                  Location l) {
  // Position k in C order: divide by the sizes from the last axis.
  llvm::SmallVector<Value> position(sizes.size());
  Value rest = k;
  for (size_t axis = sizes.size(); axis-- > 0;) {
    if (axis == 0) {
      position[axis] = rest;
      break;
    }
    position[axis] = builder.create<arith::RemSIOp>(l, rest, sizes[axis]);
    rest = builder.create<arith::DivSIOp>(l, rest, sizes[axis]);
  }
  return position;
}

} // namespace plait::frontend::detail
