//===- EmitReductions.cpp - reductions and elementwise functions ----------===//
//
// np.sum/prod/min/max/mean (NumPy's pairwise summation where NumPy uses
// it), along an axis too; np.sqrt and the other elementwise functions.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

Val FunctionEmitter::emitReduction(const SExpr &node, const std::string &name) {
  Val array = emitExpr(*typer.positionalArguments(spec, node).at(0));
  const Specialization::Reduction &plan = spec.reductionOf(node);
  Type result = spec.typeOf(node);
  Val reduced = name == "cumsum" || name == "cumprod" ? accumulate(node, name, array, plan, result)
                : name == "std" || name == "var"      ? variance(node, name, array, plan, result)
                                                 : reduceAlong(node, name, array, plan, result);
  freeIfTemporary(array);
  return reduced;
}

Val FunctionEmitter::castArray(const Val &array, const Type &type, Location l) {
  // Elementwise C casts (NumPy's unsafe casting): an operation that fuses
  // with what computes the array, and with what reads the copy.
  llvm::SmallVector<Value> sizes;
  appendDimensions(array.leaves[0], array.type.ndim, sizes);
  return elementwiseOperation(
      {array}, type, sizes, [&](llvm::ArrayRef<Val> x) { return castNumPy(x[0], type.dtype); }, l);
}

Val FunctionEmitter::reduceAlong(const SExpr &node, const std::string &name, const Val &array,
                                 const Specialization::Reduction &plan, const Type &result) {
  Location l = loc(node);
  const Type &t = array.type;
  // float16 summed as float32 (mean's default) goes through the runtime.
  bool halfAsFloat = t.dtype == DType::Float16 && (name == "mean" || name == "sum") &&
                     (plan.dtype ? *plan.dtype == DType::Float32 : name == "mean");
  if (plan.dtype && *plan.dtype != t.dtype && !halfAsFloat) {
    // dtype=: the elements are cast first (NumPy casts as it reduces, in
    // memory order: a Fortran array stays one).
    Val cast = castArray(array, Type::array(*plan.dtype, t.ndim, !t.fortran, t.fortran), l);
    Specialization::Reduction castPlan = plan;
    castPlan.dtype.reset();
    Val reduced = reduceAlong(node, name, cast, castPlan, result);
    freeIfTemporary(cast);
    return reduced;
  }
  // Float sums and products of anything but a whole contiguous array go in
  // the order NumPy's reduction iterator does, which the runtime works out
  // from the layout (see plait_rt_reduction_sum_f64).
  bool floatSum = (name == "sum" || name == "mean" || name == "prod") && isFloatDType(t.dtype);
  Value dims, strides;
  if (floatSum)
    std::tie(dims, strides) = shapeBuffers(array.leaves[0], t.ndim, l);
  int64_t reducedMask = 0;
  for (int axis : plan.axes)
    reducedMask |= int64_t(1) << axis;
  auto sumInNumPyOrder = [&](const Val &part) -> Val {
    bool f32 = t.dtype == DType::Float32, f16 = t.dtype == DType::Float16;
    const char *runtime = halfAsFloat      ? "plait_rt_reduction_sum_f16_as_f32"
                          : name == "prod" ? (f16   ? "plait_rt_reduction_prod_f16"
                                              : f32 ? "plait_rt_reduction_prod_f32"
                                                    : "plait_rt_reduction_prod_f64")
                                           : (f16   ? "plait_rt_reduction_sum_f16"
                                              : f32 ? "plait_rt_reduction_sum_f32"
                                                    : "plait_rt_reduction_sum_f64");
    mlir::Type i64 = builder.getI64Type();
    module.declare(runtime,
                   builder.getFunctionType({i64, i64, i64, i64, i64}, {builder.getF64Type()}));
    Value sum = builder
                    .create<mlir::func::CallOp>(
                        l, runtime, mlir::TypeRange{builder.getF64Type()},
                        mlir::ValueRange{dataAddress(part.leaves[0], part.type, l),
                                         constInt(t.ndim), dims, strides, constInt(reducedMask)})
                    .getResult(0);
    // float16's mean divides its float32 sum in float32, then rounds.
    DType divideIn = halfAsFloat ? DType::Float32 : result.dtype;
    Val total = castNumPy(Val{Type::floating(), {sum}}, divideIn);
    if (name != "mean")
      return castNumPy(total, result.dtype);
    // The mean divides in the result's type (float32 for float32 arrays).
    Val count = castNumPy(Val{Type::integer(), {elementCount(part, l)}}, divideIn);
    return castNumPy(Val{Type::numpy(divideIn),
                         {builder.create<arith::DivFOp>(l, total.leaves[0], count.leaves[0])}},
                     result.dtype);
  };
  auto reducePart = [&](const Val &part, bool sequential, bool whole) -> Val {
    if (name == "any" || name == "all")
      return anyOrAll(part, name == "any", l);
    if (name == "argmin" || name == "argmax")
      return argExtreme(part, name == "argmax", name, l);
    bool pairwiseWhole =
        whole && name != "prod" && !halfAsFloat && (t.contiguous || t.fortran || t.ndim == 1);
    // One axis innermost in memory (the last of a C-contiguous array): each
    // line is NumPy's inner loop, summed pairwise (the runtime's common
    // case), so a float64 line is a pairwise sum operation, inline.
    bool pairwiseLine = name != "prod" && t.dtype == DType::Float64 && t.contiguous &&
                        plan.axes.size() == 1 && plan.axes.front() == t.ndim - 1;
    if (floatSum && !pairwiseWhole && !pairwiseLine)
      return sumInNumPyOrder(part);
    return reduceArray(node, name, part, Type::numpy(result.dtype), sequential, t.fortran, !whole);
  };
  if (result.kind != Type::Kind::Array)
    return reducePart(array, /*sequential=*/false, /*whole=*/true);
  // An array of results: one reduction per element, over a view of the
  // reduced axes (kept axes of size 1 with keepdims). NumPy follows memory
  // order: when the innermost axis is reduced, each line along it is summed
  // pairwise; otherwise the elements are added in order.
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  llvm::SmallVector<Value> sizes;
  for (int d = 0; d < t.ndim; ++d)
    if (!plan.reduces(d))
      sizes.push_back(dimension(array.leaves[0], d));
    else if (plan.keepdims)
      sizes.push_back(constInt(1));
  Value out = allocateArray(result, sizes, nullptr, l);
  int reduced = static_cast<int>(plan.axes.size());
  bool trailing = plan.axes.front() == t.ndim - reduced;
  bool leading = plan.axes.back() == reduced - 1;
  Type partType = Type::array(t.dtype, reduced, t.contiguous && trailing, t.fortran && leading);
  bool innerReduced = plan.reduces(t.fortran ? 0 : t.ndim - 1);
  llvm::SmallVector<mlir::OpFoldResult> partSizes, partStrides;
  for (int axis : plan.axes) {
    partSizes.push_back(metadata.getSizes()[axis]);
    partStrides.push_back(metadata.getStrides()[axis]);
  }
  forEachElement(out, result.ndim, [&](llvm::ArrayRef<Value> indices) {
    Value offset = metadata.getOffset();
    for (int d = 0, k = 0; d < t.ndim; ++d) {
      if (plan.reduces(d)) {
        k += plan.keepdims;
        continue;
      }
      offset = builder.create<arith::AddIOp>(
          l, offset, builder.create<arith::MulIOp>(l, indices[k++], metadata.getStrides()[d]));
    }
    Value part = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(partType), metadata.getBaseBuffer(), mlir::OpFoldResult(offset),
        partSizes, partStrides);
    Val value = reducePart(Val{partType, {part}}, !innerReduced,
                           static_cast<int>(plan.axes.size()) == t.ndim);
    builder.create<mlir::memref::StoreOp>(l, toStorage(value, result.dtype, l), out, indices);
  });
  return {result, {out}};
}

Val FunctionEmitter::variance(const SExpr &node, const std::string &name, const Val &array,
                              const Specialization::Reduction &plan, const Type &result) {
  // NumPy's _var: the mean (summed with keepdims, divided by the count),
  // the squared deviations (|x - mean|^2 for complex numbers), their sum
  // divided by max(count - ddof, 0); std is its square root.
  Location l = loc(node);
  const Type &t = array.type;
  DType sumDType = plan.dtype                                         ? *plan.dtype
                   : isFloatDType(t.dtype) || isComplexDType(t.dtype) ? t.dtype
                                                                      : DType::Float64;
  Value count = constInt(1);
  for (int axis : plan.axes)
    count = builder.create<arith::MulIOp>(l, count, dimension(array.leaves[0], axis));
  Specialization::Reduction meanPlan = plan;
  meanPlan.keepdims = true;
  meanPlan.dtype = sumDType;
  Val total = reduceAlong(node, "sum", array, meanPlan, Type::array(sumDType, t.ndim, true));
  Val counted{Type::numpy(DType::Int64), {count}};
  // Divisions by the count are NumPy's true_divide by an intp: in float64
  // for float32 (rounded back), complex division for complex numbers.
  auto divide = [&](const Val &x, const Val &by) -> Val {
    if (isComplexDType(x.type.dtype))
      return castNumPy(complexArith(node, ast::Operator::Div, x, by), x.type.dtype);
    Val quotient = numpyArith(node, ast::Operator::Div, castNumPy(x, DType::Float64),
                              castNumPy(by, DType::Float64));
    return castNumPy(quotient, x.type.dtype);
  };
  Val mean = arrayElementwise(node, {total}, sumDType, t.ndim,
                              [&](llvm::ArrayRef<Val> e) { return divide(e[0], counted); });
  DType deviationDType = promoteDTypes(t.dtype, sumDType);
  DType squareDType = complexPartDType(deviationDType);
  Val squares = arrayElementwise(
      node, {array, mean}, squareDType, t.ndim,
      [&](llvm::ArrayRef<Val> e) -> Val {
        Val x = castNumPy(e[0], deviationDType), mean = castNumPy(e[1], deviationDType);
        if (!isComplexDType(deviationDType)) {
          Val deviation = numpyArith(node, ast::Operator::Sub, x, mean);
          return numpyArith(node, ast::Operator::Mult, deviation, deviation);
        }
        Val deviation = complexArith(node, ast::Operator::Sub, x, mean);
        Val re{Type::numpy(squareDType), {deviation.leaves[0]}};
        Val im{Type::numpy(squareDType), {deviation.leaves[1]}};
        return numpyArith(node, ast::Operator::Add, numpyArith(node, ast::Operator::Mult, re, re),
                          numpyArith(node, ast::Operator::Mult, im, im));
      },
      nullptr, &t); // in the array's order (NumPy's K order: the mean broadcasts)
  Specialization::Reduction sumPlan = plan;
  if (!plan.dtype || isComplexDType(*plan.dtype))
    sumPlan.dtype.reset();
  Type sumType = result.kind == Type::Kind::Array ? Type::array(squareDType, result.ndim, true)
                                                  : Type::numpy(squareDType);
  Val sum = reduceAlong(node, "sum", squares, sumPlan, sumType);
  freeIfTemporary(squares);
  Value ddof = plan.ddof ? convert(emitExpr(*plan.ddof), Type::integer()).leaves[0] : constInt(0);
  Value dof = builder.create<arith::SubIOp>(l, count, ddof);
  dof = builder.create<arith::MaxSIOp>(l, dof, constInt(0));
  Val dofs{Type::numpy(DType::Int64), {dof}};
  auto finish = [&](const Val &x) -> Val {
    Val v = castNumPy(divide(x, dofs), result.dtype);
    if (name == "var")
      return v;
    return {v.type, {builder.create<mlir::math::SqrtOp>(l, v.leaves[0])}};
  };
  if (sum.type.kind != Type::Kind::Array)
    return finish(sum);
  Val finished = arrayElementwise(node, {sum}, result.dtype, result.ndim,
                                  [&](llvm::ArrayRef<Val> e) { return finish(e[0]); });
  return finished;
}

Val FunctionEmitter::accumulate(const SExpr &node, const std::string &name, const Val &array,
                                const Specialization::Reduction &plan, const Type &result) {
  // np.cumsum / np.cumprod: running sums or products in the result's dtype,
  // in order along the axis (or over the elements in C order for axis=None).
  Location l = loc(node);
  const Type &t = array.type;
  ast::Operator op = name == "cumsum" ? ast::Operator::Add : ast::Operator::Mult;
  auto combine = [&](const Val &a, const Val &b) {
    return isComplexDType(result.dtype) ? complexArith(node, op, a, b) : numpyArith(node, op, a, b);
  };
  if (plan.axisNone && t.ndim > 1) {
    Value out = allocateArray(result, {elementCount(array, l)}, nullptr, l);
    Value counter = alloca(builder.getI64Type());
    builder.create<mlir::memref::StoreOp>(l, constInt(0), counter);
    forEachElement(array.leaves[0], t.ndim, [&](llvm::ArrayRef<Value> at) {
      Value k = builder.create<mlir::memref::LoadOp>(l, counter);
      Value position = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k);
      Val x = castNumPy(
          fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], at), t.dtype, l),
          result.dtype);
      Value first = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, k, constInt(0));
      Value previousAt = builder.create<arith::IndexCastOp>(
          l, builder.getIndexType(),
          builder.create<arith::SelectOp>(l, first, k,
                                          builder.create<arith::SubIOp>(l, k, constInt(1))));
      Val previous =
          fromStorage(builder.create<mlir::memref::LoadOp>(l, out, mlir::ValueRange{previousAt}),
                      result.dtype, l);
      Value combined = toStorage(combine(previous, x), result.dtype, l);
      builder.create<mlir::memref::StoreOp>(
          l, builder.create<arith::SelectOp>(l, first, toStorage(x, result.dtype, l), combined),
          out, mlir::ValueRange{position});
      builder.create<mlir::memref::StoreOp>(l, builder.create<arith::AddIOp>(l, k, constInt(1)),
                                            counter);
    });
    return {result, {out}};
  }
  int axis = plan.axisNone ? 0 : plan.axes.front();
  llvm::SmallVector<Value> sizes;
  appendDimensions(array.leaves[0], t.ndim, sizes);
  Value out = allocateArray(result, sizes, nullptr, l);
  forEachElement(array.leaves[0], t.ndim, [&](llvm::ArrayRef<Value> at) {
    Val x = castNumPy(
        fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], at), t.dtype, l),
        result.dtype);
    Value first =
        builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, at[axis], constIndexValue(0));
    llvm::SmallVector<Value> before(at.begin(), at.end());
    before[axis] = builder.create<arith::SelectOp>(
        l, first, at[axis], builder.create<arith::SubIOp>(l, at[axis], constIndexValue(1)));
    Val previous =
        fromStorage(builder.create<mlir::memref::LoadOp>(l, out, before), result.dtype, l);
    Value combined = toStorage(combine(previous, x), result.dtype, l);
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<arith::SelectOp>(l, first, toStorage(x, result.dtype, l), combined), out,
        at);
  });
  return {result, {out}};
}

Value FunctionEmitter::pairwiseSumOperation(Value array, Value size, Location l, bool parallel) {
  auto op = builder.create<dialect::PairwiseSumOp>(l, builder.getF64Type(), mlir::ValueRange{array},
                                                   mlir::ValueRange{size}, parallel);
  Block *body = new Block();
  op.getBody().push_back(body);
  Value element = body->addArgument(builder.getF64Type(), l);
  OpBuilder::InsertionGuard guard(builder);
  startBlock(body);
  builder.create<dialect::YieldOp>(l, element);
  return op.getResult();
}

Value FunctionEmitter::lineExtreme(Value line, Value size, DType dtype, bool isMin, Location l) {
  constexpr int64_t kLanes = 8;
  auto extreme = [&](Value a, Value b) -> Value {
    if (isMin)
      return builder.create<arith::MinFOp>(l, a, b);
    return builder.create<arith::MaxFOp>(l, a, b);
  };
  auto element = [&](Value at) {
    Value index = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), at);
    Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, line, index), dtype, l);
    return castNumPy(x, DType::Float64).leaves[0];
  };
  // Every lane starts from the first element (size > 0).
  llvm::SmallVector<Value, kLanes> accumulators;
  Value first = element(constInt(0));
  for (int64_t k = 0; k < kLanes; ++k) {
    accumulators.push_back(alloca(builder.getF64Type()));
    builder.create<mlir::memref::StoreOp>(l, first, accumulators.back());
  }
  Value blocks = builder.create<arith::DivSIOp>(l, size, constInt(kLanes));
  countedLoop(blocks, [&](Value block) {
    Value base = builder.create<arith::MulIOp>(l, block, constInt(kLanes));
    for (int64_t k = 0; k < kLanes; ++k) {
      Value x = element(builder.create<arith::AddIOp>(l, base, constInt(k)));
      Value r = builder.create<mlir::memref::LoadOp>(l, accumulators[k]);
      builder.create<mlir::memref::StoreOp>(l, extreme(r, x), accumulators[k]);
    }
  });
  Value tailStart = builder.create<arith::MulIOp>(l, blocks, constInt(kLanes));
  countedLoop(builder.create<arith::SubIOp>(l, size, tailStart), [&](Value k) {
    Value x = element(builder.create<arith::AddIOp>(l, tailStart, k));
    Value r = builder.create<mlir::memref::LoadOp>(l, accumulators[0]);
    builder.create<mlir::memref::StoreOp>(l, extreme(r, x), accumulators[0]);
  });
  Value best = builder.create<mlir::memref::LoadOp>(l, accumulators[0]);
  for (int64_t k = 1; k < kLanes; ++k)
    best = extreme(best, builder.create<mlir::memref::LoadOp>(l, accumulators[k]));
  return best;
}

Val FunctionEmitter::reduceArray(const SExpr &node, const std::string &name, const Val &array,
                                 const Type &result, bool sequential, bool fortranOrder,
                                 bool line) {
  Location l = loc(node);
  const Type &t = array.type;
  Value memref = array.leaves[0];
  bool isFloat = isFloatDType(t.dtype);
  Value size = constInt(1);
  for (int axis = 0; axis < t.ndim; ++axis)
    size = builder.create<arith::MulIOp>(l, size, dimension(memref, axis));
  if (isComplexDType(t.dtype))
    return complexReduction(node, name, array, size, sequential, fortranOrder, l);
  auto pairwise = [&](Value data, Value count, Value stride) -> Value {
    // NumPy's pairwise summation over contiguous (or 1-D strided) data.
    const char *runtime = t.dtype == DType::Float32   ? "plait_rt_pairwise_sum_f32"
                          : t.dtype == DType::Float16 ? "plait_rt_pairwise_sum_f16"
                                                      : "plait_rt_pairwise_sum_f64";
    module.declare(runtime, builder.getFunctionType(
                                {builder.getI64Type(), builder.getI64Type(), builder.getI64Type()},
                                {builder.getF64Type()}));
    return builder
        .create<mlir::func::CallOp>(l, runtime, mlir::TypeRange{builder.getF64Type()},
                                    mlir::ValueRange{data, count, stride})
        .getResult(0);
  };
  auto mean = [&](const Val &total) -> Val {
    // The mean divides in the result's type (float32 for float32 arrays).
    Val count = castNumPy(Val{Type::integer(), {size}}, result.dtype);
    return {result, {builder.create<arith::DivFOp>(l, total.leaves[0], count.leaves[0])}};
  };
  // Contiguous data in either order is summed in memory order, as NumPy does.
  bool canPairwise = isFloat && !sequential && (t.contiguous || t.fortran || t.ndim == 1);
  if ((name == "sum" || name == "mean") && canPairwise) {
    Value stride = constInt(1);
    if (!t.contiguous && !t.fortran) {
      auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
      stride =
          builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[0]);
    }
    // A 1-D float64 array's sum is an operation: fused with the expression
    // that computes the array, no array is made.
    Value sum = t.ndim == 1 && t.dtype == DType::Float64
                    ? pairwiseSumOperation(memref, size, l, module.options.parallel && !line)
                    : pairwise(dataAddress(memref, t, l), size, stride);
    Val total = fromIdentity(castNumPy(Val{Type::floating(), {sum}}, result.dtype));
    return name == "sum" ? total : mean(total);
  }
  if (name == "min" || name == "max" || name == "amin" || name == "amax") {
    bool isMin = name == "min" || name == "amin";
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, size, constInt(0)),
          PyError("ValueError", module.options.message(isMin ? "empty_minimum" : "empty_maximum")));
    llvm::SmallVector<Value> first(t.ndim, constIndexValue(0));
    Val initial = fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, first), t.dtype, l);
    // Compared as Python ints or floats (uint64 by its bits, unsigned).
    Type domain = isFloat ? Type::floating() : Type::integer();
    bool isU64 = t.dtype == DType::UInt64;
    auto toDomain = [&](const Val &v) {
      return castNumPy(v, isFloat ? DType::Float64 : DType::Int64).leaves[0];
    };
    // A line of float64 or float32: eight lanes of NaN-propagating extremes,
    // which LLVM vectorises; the exact loop below runs only when that
    // result is NaN (whose payload is the first NaN's) or a zero (whose
    // sign is the last zero's): any other value has one representation.
    bool lanes = isFloat && t.ndim == 1 && (t.dtype == DType::Float64 || t.dtype == DType::Float32);
    Value laneResult;
    Block *done = nullptr;
    if (lanes) {
      laneResult = alloca(builder.getF64Type());
      Value best = lineExtreme(memref, size, t.dtype, isMin, l);
      builder.create<mlir::memref::StoreOp>(l, best, laneResult);
      Value special = builder.create<arith::OrIOp>(
          l, builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, best, best),
          builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, best, constFloat(0.0)));
      Block *exact = newBlock();
      done = newBlock();
      builder.create<mlir::cf::CondBranchOp>(l, special, exact, done);
      startBlock(exact);
    }
    Value slot = alloca(leafType(domain.kind));
    builder.create<mlir::memref::StoreOp>(l, toDomain(initial), slot);
    forEachElement(
        memref, t.ndim,
        [&](llvm::ArrayRef<Value> indices) {
          Value x = toDomain(
              fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l));
          Value r = builder.create<mlir::memref::LoadOp>(l, slot);
          Value better;
          if (domain.kind == Type::Kind::Float) {
            // np.minimum/np.maximum: NaN wins from either side. Of equal
            // values (0.0 and -0.0) NumPy's float16 loop keeps the first,
            // the others the last.
            bool keepFirst = t.dtype == DType::Float16;
            Value keep = builder.create<arith::CmpFOp>(
                l,
                isMin ? (keepFirst ? arith::CmpFPredicate::OLE : arith::CmpFPredicate::OLT)
                      : (keepFirst ? arith::CmpFPredicate::OGE : arith::CmpFPredicate::OGT),
                r, x);
            Value rNan = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, r, r);
            better = builder.create<arith::SelectOp>(l, builder.create<arith::OrIOp>(l, keep, rNan),
                                                     r, x);
          } else {
            Value keep = builder.create<arith::CmpIOp>(
                l,
                isMin ? (isU64 ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
                      : (isU64 ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt),
                r, x);
            better = builder.create<arith::SelectOp>(l, keep, r, x);
          }
          builder.create<mlir::memref::StoreOp>(l, better, slot);
        },
        t.fortran || fortranOrder);
    Value best = builder.create<mlir::memref::LoadOp>(l, slot);
    if (lanes) {
      builder.create<mlir::memref::StoreOp>(l, best, laneResult);
      branch(done);
      startBlock(done);
      best = builder.create<mlir::memref::LoadOp>(l, laneResult);
    }
    return castNumPy(Val{domain, {best}}, t.dtype);
  }
  // Integer sums and products (they wrap, as NumPy's int64 arithmetic
  // does) and means of integers (in float64). Float sums of scattered data
  // and float products go through the runtime, in NumPy's order (see
  // reduceAlong).
  bool product = name == "prod";
  Type domain = isFloat || name == "mean" ? Type::floating() : Type::integer();
  Value slot = alloca(leafType(domain.kind));
  builder.create<mlir::memref::StoreOp>(
      l, domain.kind == Type::Kind::Float ? constFloat(product ? 1.0 : -0.0) : constInt(product ? 1 : 0), slot);
  forEachElement(
      memref, t.ndim,
      [&](llvm::ArrayRef<Value> indices) {
        // Integers wrap in 64 bits (uint64 by the same bits).
        Value x = castNumPy(fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices),
                                        t.dtype, l),
                            domain.kind == Type::Kind::Float ? DType::Float64 : DType::Int64)
                      .leaves[0];
        Value r = builder.create<mlir::memref::LoadOp>(l, slot);
        Value next = domain.kind == Type::Kind::Float
                         ? (product ? builder.create<arith::MulFOp>(l, r, x).getResult()
                                    : builder.create<arith::AddFOp>(l, r, x).getResult())
                         : (product ? builder.create<arith::MulIOp>(l, r, x).getResult()
                                    : builder.create<arith::AddIOp>(l, r, x).getResult());
        builder.create<mlir::memref::StoreOp>(l, next, slot);
      },
      t.fortran || fortranOrder);
  Value total = builder.create<mlir::memref::LoadOp>(l, slot);
  if (!product && domain.kind == Type::Kind::Float)
    total = fromIdentity(Val{domain, {total}}).leaves[0];
  if (name == "mean")
    return castNumPy(Val{Type::floating(), {builder.create<arith::DivFOp>(
                         l, total, builder.create<arith::SIToFPOp>(l, builder.getF64Type(), size))}},
                     result.dtype);
  return castNumPy(Val{domain, {total}}, result.dtype);
}

Val FunctionEmitter::fromIdentity(const Val &sum) {
  // NumPy's add.reduce starts from its identity, +0.0: a sum of -0.0s (or
  // of nothing) is +0.0. (The pairwise code starts from -0.0 as NumPy's.)
  Location l = here();
  Val result = sum;
  for (Value &leaf : result.leaves) {
    auto type = leaf.getType().cast<mlir::FloatType>();
    Value zero = builder.create<arith::ConstantFloatOp>(l, llvm::APFloat::getZero(type.getFloatSemantics()), type);
    leaf = builder.create<arith::AddFOp>(l, zero, leaf);
  }
  return result;
}

Val FunctionEmitter::complexReduction(const SExpr &node, const std::string &name, const Val &array,
                                      Value size, bool sequential, bool fortranOrder, Location l) {
  const Type &t = array.type;
  Value memref = array.leaves[0];
  Type type = Type::numpy(t.dtype);
  // NumPy's mean divides by the count as an intp: in complex128, rounded
  // back to complex64.
  auto mean = [&](const Val &total) {
    return castNumPy(
        complexArith(node, ast::Operator::Div, total, Val{Type::numpy(DType::Int64), {size}}),
        t.dtype);
  };
  if (name == "prod" || sequential || !(t.contiguous || t.fortran || t.ndim == 1)) {
    // NumPy's reduce loop, in order (products; sums of scattered N-D data).
    bool product = name == "prod";
    mlir::Type part = module.scalarType(complexPartDType(t.dtype));
    Value re = alloca(part), im = alloca(part);
    builder.create<mlir::memref::StoreOp>(l, constFloatOf(part, product ? 1.0 : -0.0), re);
    builder.create<mlir::memref::StoreOp>(l, constFloatOf(part, product ? 0.0 : -0.0), im);
    forEachElement(
        memref, t.ndim,
        [&](llvm::ArrayRef<Value> indices) {
          Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l);
          Val r{type,
                {builder.create<mlir::memref::LoadOp>(l, re),
                 builder.create<mlir::memref::LoadOp>(l, im)}};
          Val next = complexArith(node, product ? ast::Operator::Mult : ast::Operator::Add, r, x);
          builder.create<mlir::memref::StoreOp>(l, next.leaves[0], re);
          builder.create<mlir::memref::StoreOp>(l, next.leaves[1], im);
        },
        t.fortran || fortranOrder);
    Val total{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
    if (name == "prod")
      return total;
    total = fromIdentity(total);
    if (name == "sum")
      return total;
    return mean(total);
  }
  Value stride = constInt(1);
  if (!t.contiguous && !t.fortran) {
    auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
    stride = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[0]);
  }
  auto [re, im] = t.dtype == DType::Complex64
                      ? callComplexRuntime("plait_rt_pairwise_sum_c64",
                                           {dataAddress(memref, t, l), size, stride},
                                           module.scalarType(DType::Float32), {})
                      : callComplexRuntime("plait_rt_pairwise_sum_c128",
                                           {dataAddress(memref, t, l), size, stride},
                                           module.scalarType(DType::Float64), {});
  Val total = fromIdentity(Val{type, {re, im}});
  return name == "mean" ? mean(total) : total;
}

Val FunctionEmitter::absoluteOf(const Val &x, Location l) {
  // Python numbers enter ufuncs as NumPy scalars: int64, float64, bool.
  DType dtype = x.type.isNumPy()                   ? x.type.dtype
                : x.type.kind == Type::Kind::Float ? DType::Float64
                : x.type.kind == Type::Kind::Bool  ? DType::Bool
                                                   : DType::Int64;
  if (x.type.isComplex()) {
    Type part = Type::numpy(x.type.isNumPy() ? complexPartDType(x.type.dtype) : DType::Float64);
    bool complex64 = x.type.isNumPy() && x.type.dtype == DType::Complex64;
    if (!inUfuncLoop || !ufuncBackwards || plait::numpyBackwardAbsAsForward(complex64))
      return {part, {complexAbs(x, /*checkOverflow=*/false)}};
    // Walked backwards, this NumPy's loop calls hypot (NumPyLoops.h).
    Block *backwards = newBlock(), *forwards = newBlock(), *done = newBlock();
    done->addArgument(x.leaves[0].getType(), l);
    builder.create<mlir::cf::CondBranchOp>(l, ufuncBackwards, backwards, forwards);
    startBlock(backwards);
    Value hypot = callLibm(complex64 ? "hypotf" : "hypot", {x.leaves[0], x.leaves[1]});
    builder.create<mlir::cf::BranchOp>(l, done, mlir::ValueRange{hypot});
    startBlock(forwards);
    builder.create<mlir::cf::BranchOp>(l, done,
                                       mlir::ValueRange{complexAbs(x, /*checkOverflow=*/false)});
    startBlock(done);
    return {part, {done->getArgument(0)}};
  }
  Val v = castNumPy(x, dtype);
  if (isFloatDType(dtype))
    return {v.type, {builder.create<mlir::math::AbsFOp>(l, v.leaves[0])}};
  if (dtype == DType::Bool || isUnsignedDType(dtype))
    return v;
  // NumPy's integer abs wraps (abs(INT64_MIN) stays negative).
  Value n = v.leaves[0];
  Value zero = constOf(n.getType(), 0);
  Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, n, zero);
  return {
      v.type,
      {builder.create<arith::SelectOp>(l, negative, builder.create<arith::SubIOp>(l, zero, n), n)}};
}

Val FunctionEmitter::emitAbsolute(const SExpr &node) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  Val input = emitExpr(*typer.positionalArguments(spec, node).at(0));
  if (input.type.kind != Type::Kind::Array)
    return absoluteOf(input, l);
  auto absolute = [&](llvm::ArrayRef<Val> x) { return absoluteOf(x[0], l); };
  if (roundsByWalkDirection(input.type.dtype))
    return arrayElementwise(node, {input}, type.dtype, type.ndim, absolute);
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < input.type.ndim; ++axis)
    sizes.push_back(dimension(input.leaves[0], axis));
  Val out = elementwiseOperation({input}, type, sizes, absolute, l);
  freeIfTemporary(input);
  return out;
}

Val FunctionEmitter::anyOrAll(const Val &array, bool any, Location l) {
  Value result = alloca(builder.getI1Type());
  builder.create<mlir::memref::StoreOp>(l, constInt(any ? 0 : 1, 1), result);
  forEachElement(array.leaves[0], array.type.ndim, [&](llvm::ArrayRef<Value> at) {
    Value nonzero = truth(fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], at),
                                      array.type.dtype, l));
    Value so = builder.create<mlir::memref::LoadOp>(l, result);
    builder.create<mlir::memref::StoreOp>(
        l,
        any ? builder.create<arith::OrIOp>(l, so, nonzero).getResult()
            : builder.create<arith::AndIOp>(l, so, nonzero).getResult(),
        result);
  });
  return {Type::numpy(DType::Bool), {builder.create<mlir::memref::LoadOp>(l, result)}};
}

Val FunctionEmitter::argExtreme(const Val &array, bool maximum, const std::string &name,
                                Location l) {
  Value size = elementCount(array, l);
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, size, constInt(0)),
        PyError("ValueError", "attempt to get " + name + " of an empty sequence"));
  bool isFloat = isFloatDType(array.type.dtype);
  auto element = [&](llvm::ArrayRef<Value> at) {
    return fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], at),
                       array.type.dtype, l);
  };
  auto isNaN = [&](const Val &x) -> Value {
    if (!isFloat)
      return constInt(0, 1);
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, x.leaves[0], x.leaves[0]);
  };
  // The best so far starts as the first element; a NaN, once seen, stays.
  llvm::SmallVector<Value> origin(array.type.ndim, constIndexValue(0));
  Val first = element(origin);
  Value best = alloca(first.leaves[0].getType()), position = alloca(builder.getI64Type());
  Value sawNaN = alloca(builder.getI1Type()), counter = alloca(builder.getI64Type());
  builder.create<mlir::memref::StoreOp>(l, first.leaves[0], best);
  builder.create<mlir::memref::StoreOp>(l, constInt(0), position);
  builder.create<mlir::memref::StoreOp>(l, isNaN(first), sawNaN);
  builder.create<mlir::memref::StoreOp>(l, constInt(0), counter);
  forEachElement(array.leaves[0], array.type.ndim, [&](llvm::ArrayRef<Value> at) {
    Val x = element(at);
    Val current{x.type, {builder.create<mlir::memref::LoadOp>(l, best)}};
    Value k = builder.create<mlir::memref::LoadOp>(l, counter);
    Value nan = builder.create<mlir::memref::LoadOp>(l, sawNaN);
    Value better = numpyCompare(maximum ? ast::Operator::Gt : ast::Operator::Lt, x, current, l);
    Value take =
        builder.create<arith::AndIOp>(l, builder.create<arith::XOrIOp>(l, nan, constInt(1, 1)),
                                      builder.create<arith::OrIOp>(l, isNaN(x), better));
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<arith::SelectOp>(l, take, x.leaves[0], current.leaves[0]), best);
    builder.create<mlir::memref::StoreOp>(
        l,
        builder.create<arith::SelectOp>(l, take, k,
                                        builder.create<mlir::memref::LoadOp>(l, position)),
        position);
    builder.create<mlir::memref::StoreOp>(l, builder.create<arith::OrIOp>(l, nan, isNaN(x)),
                                          sawNaN);
    builder.create<mlir::memref::StoreOp>(l, builder.create<arith::AddIOp>(l, k, constInt(1)),
                                          counter);
  });
  return {Type::numpy(DType::Int64), {builder.create<mlir::memref::LoadOp>(l, position)}};
}

} // namespace plait::frontend::detail
