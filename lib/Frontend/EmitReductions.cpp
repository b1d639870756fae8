//===- EmitReductions.cpp - reductions, np.dot and elementwise functions --===//
//
// np.sum/prod/min/max/mean (NumPy's pairwise summation where NumPy uses
// it), along an axis too; np.dot; np.sqrt and the other elementwise
// functions.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

Val FunctionEmitter::emitReduction(const SExpr &node, const std::string &name) {
  Val array = emitExpr(*typer.positionalArguments(spec, node).at(0));
  Val reduced = reduceExpression(node, name, array);
  freeIfTemporary(array);
  return reduced;
}

Val FunctionEmitter::reduceExpression(const SExpr &node, const std::string &name, const Val &array) {
  Location l = loc(node);
  Type result = spec.typeOf(node);
  int axis = spec.axisOf(node);
  if (axis < 0 || array.type.ndim == 1)
    return reduceArray(node, name, array, result, /*sequential=*/false);
  // Along an axis: one reduction per element of the result, over a 1-D
  // view. NumPy sums pairwise when the axis is innermost in memory (the
  // last of a C-contiguous array, the first of a Fortran one), else in order.
  const Type &t = array.type;
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  llvm::SmallVector<Value> sizes;
  for (int d = 0; d < t.ndim; ++d)
    if (d != axis)
      sizes.push_back(dimension(array.leaves[0], d));
  Value out = allocateArray(result, sizes, nullptr, l);
  bool innermost = (axis == t.ndim - 1 && !t.fortran) || (axis == 0 && t.fortran);
  Type lineType = Type::array(t.dtype, 1, innermost && (t.contiguous || t.fortran));
  Type element = Type::numpy(result.dtype);
  forEachElement(out, t.ndim - 1, [&](llvm::ArrayRef<Value> indices) {
    Value offset = metadata.getOffset();
    for (int d = 0, k = 0; d < t.ndim; ++d) {
      if (d == axis)
        continue;
      offset = builder.create<arith::AddIOp>(
          l, offset, builder.create<arith::MulIOp>(l, indices[k++], metadata.getStrides()[d]));
    }
    Value line = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(lineType), metadata.getBaseBuffer(), mlir::OpFoldResult(offset),
        llvm::ArrayRef<mlir::OpFoldResult>{metadata.getSizes()[axis]},
        llvm::ArrayRef<mlir::OpFoldResult>{metadata.getStrides()[axis]});
    Val reduced = reduceArray(node, name, Val{lineType, {line}}, element, !innermost);
    builder.create<mlir::memref::StoreOp>(l, toStorage(reduced, result.dtype, l), out, indices);
  });
  return {result, {out}};
}

Val FunctionEmitter::reduceArray(const SExpr &node, const std::string &name, const Val &array,
                                 const Type &result, bool sequential) {
  Location l = loc(node);
  const Type &t = array.type;
  Value memref = array.leaves[0];
  bool isFloat = isFloatDType(t.dtype);
  Value size = constInt(1);
  for (int axis = 0; axis < t.ndim; ++axis)
    size = builder.create<arith::MulIOp>(l, size, dimension(memref, axis));
  if (t.dtype == DType::Complex128)
    return complexReduction(node, name, array, size, sequential, l);
  auto pairwise = [&]() -> Value {
    // NumPy's pairwise summation over contiguous (or 1-D strided) data.
    bool f32 = t.dtype == DType::Float32;
    const char *runtime = f32 ? "plait_rt_pairwise_sum_f32" : "plait_rt_pairwise_sum_f64";
    module.declare(runtime, builder.getFunctionType({builder.getI64Type(), builder.getI64Type(),
                                                     builder.getI64Type()},
                                                    {builder.getF64Type()}));
    Value stride = constInt(1);
    if (!t.contiguous && !t.fortran) {
      auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
      stride = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[0]);
    }
    return builder
        .create<mlir::func::CallOp>(l, runtime, mlir::TypeRange{builder.getF64Type()},
                                    mlir::ValueRange{dataAddress(memref, t, l), size, stride})
        .getResult(0);
  };
  // Contiguous data in either order is summed in memory order, as NumPy does.
  bool canPairwise = isFloat && !sequential && (t.contiguous || t.fortran || t.ndim == 1);
  if ((name == "sum" || name == "mean") && canPairwise) {
    Val total = fromIdentity(castNumPy(Val{Type::floating(), {pairwise()}}, result.dtype));
    if (name == "sum")
      return total;
    // The mean divides in the result's type (float32 for float32 arrays).
    Val count = castNumPy(Val{Type::integer(), {size}}, result.dtype);
    return {result, {builder.create<arith::DivFOp>(l, total.leaves[0], count.leaves[0])}};
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
    Value slot = alloca(leafType(domain.kind));
    builder.create<mlir::memref::StoreOp>(l, toDomain(initial), slot);
    forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
      Value x = toDomain(fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l));
      Value r = builder.create<mlir::memref::LoadOp>(l, slot);
      Value better;
      if (domain.kind == Type::Kind::Float) {
        // np.minimum/np.maximum: NaN wins from either side.
        Value keep = builder.create<arith::CmpFOp>(
            l, isMin ? arith::CmpFPredicate::OLT : arith::CmpFPredicate::OGT, r, x);
        Value rNan = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, r, r);
        better = builder.create<arith::SelectOp>(l, builder.create<arith::OrIOp>(l, keep, rNan), r, x);
      } else {
        Value keep = builder.create<arith::CmpIOp>(
            l, isMin ? (isU64 ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt)
                     : (isU64 ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt),
            r, x);
        better = builder.create<arith::SelectOp>(l, keep, r, x);
      }
      builder.create<mlir::memref::StoreOp>(l, better, slot);
    }, t.fortran);
    Value best = builder.create<mlir::memref::LoadOp>(l, slot);
    return castNumPy(Val{domain, {best}}, t.dtype);
  }
  // Sequential sum / product (ints wrap, as NumPy's int64 arithmetic does),
  // and sums over non-contiguous N-D float arrays.
  bool product = name == "prod";
  if (t.dtype == DType::Float32) {
    // NumPy accumulates float32 arrays in float32 (the mean too).
    Value slot32 = alloca(builder.getF32Type());
    builder.create<mlir::memref::StoreOp>(
        l, builder.create<arith::ConstantFloatOp>(l, llvm::APFloat(product ? 1.0f : -0.0f),
                                                  builder.getF32Type()),
        slot32);
    forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
      Value x = builder.create<mlir::memref::LoadOp>(l, memref, indices);
      Value r = builder.create<mlir::memref::LoadOp>(l, slot32);
      Value next = product ? builder.create<arith::MulFOp>(l, r, x).getResult()
                           : builder.create<arith::AddFOp>(l, r, x).getResult();
      builder.create<mlir::memref::StoreOp>(l, next, slot32);
    }, t.fortran);
    Val total{Type::numpy(DType::Float32), {builder.create<mlir::memref::LoadOp>(l, slot32)}};
    if (!product)
      total = fromIdentity(total);
    if (name == "mean")
      return {result, {builder.create<arith::DivFOp>(
                          l, total.leaves[0], castNumPy(Val{Type::integer(), {size}}, DType::Float32).leaves[0])}};
    return total;
  }
  Type domain = isFloat || name == "mean" ? Type::floating() : Type::integer();
  Value slot = alloca(leafType(domain.kind));
  builder.create<mlir::memref::StoreOp>(
      l, domain.kind == Type::Kind::Float ? constFloat(product ? 1.0 : -0.0) : constInt(product ? 1 : 0), slot);
  forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
    // Integers wrap in 64 bits (uint64 by the same bits).
    Value x = castNumPy(fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l),
                        domain.kind == Type::Kind::Float ? DType::Float64 : DType::Int64).leaves[0];
    Value r = builder.create<mlir::memref::LoadOp>(l, slot);
    Value next = domain.kind == Type::Kind::Float
                     ? (product ? builder.create<arith::MulFOp>(l, r, x).getResult()
                                : builder.create<arith::AddFOp>(l, r, x).getResult())
                     : (product ? builder.create<arith::MulIOp>(l, r, x).getResult()
                                : builder.create<arith::AddIOp>(l, r, x).getResult());
    builder.create<mlir::memref::StoreOp>(l, next, slot);
  }, t.fortran);
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
  Location l = builder.getUnknownLoc();
  Val result = sum;
  for (Value &leaf : result.leaves) {
    auto type = leaf.getType().cast<mlir::FloatType>();
    Value zero = builder.create<arith::ConstantFloatOp>(l, llvm::APFloat::getZero(type.getFloatSemantics()), type);
    leaf = builder.create<arith::AddFOp>(l, zero, leaf);
  }
  return result;
}

Val FunctionEmitter::complexReduction(const SExpr &node, const std::string &name,
                                      const Val &array, Value size, bool sequential, Location l) {
  const Type &t = array.type;
  Value memref = array.leaves[0];
  Type type = Type::numpy(DType::Complex128);
  if (name == "prod" || sequential || !(t.contiguous || t.fortran || t.ndim == 1)) {
    // NumPy's reduce loop, in order (products; sums of scattered N-D data).
    bool product = name == "prod";
    Value re = alloca(builder.getF64Type()), im = alloca(builder.getF64Type());
    builder.create<mlir::memref::StoreOp>(l, constFloat(product ? 1.0 : -0.0), re);
    builder.create<mlir::memref::StoreOp>(l, constFloat(product ? 0.0 : -0.0), im);
    forEachElement(memref, t.ndim, [&](llvm::ArrayRef<Value> indices) {
      Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, memref, indices), t.dtype, l);
      Val r{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
      Val next = complexArith(node, product ? ast::Operator::Mult : ast::Operator::Add, r, x);
      builder.create<mlir::memref::StoreOp>(l, next.leaves[0], re);
      builder.create<mlir::memref::StoreOp>(l, next.leaves[1], im);
    }, t.fortran);
    Val total{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
    if (name == "prod")
      return total;
    total = fromIdentity(total);
    if (name == "sum")
      return total;
    return complexArith(node, ast::Operator::Div, total, Val{Type::numpy(DType::Int64), {size}});
  }
  Value stride = constInt(1);
  if (!t.contiguous && !t.fortran) {
    auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, memref);
    stride = builder.create<arith::IndexCastOp>(l, builder.getI64Type(), metadata.getStrides()[0]);
  }
  auto [re, im] = callComplexRuntime("plait_rt_pairwise_sum_c128", {dataAddress(memref, t, l), size, stride}, {});
  Val total = fromIdentity(Val{type, {re, im}});
  if (name != "mean")
    return total;
  // NumPy's mean divides by the count as a complex128 (NumPy's division).
  return complexArith(node, ast::Operator::Div, total, Val{Type::numpy(DType::Int64), {size}});
}

Val FunctionEmitter::emitDot(const SExpr &node) {
  Val a = emitExpr(ast::args(node).items.at(1));
  Val b = emitExpr(ast::args(node).items.at(2));
  Val product = dotOf(node, a, b);
  freeIfTemporary(a);
  freeIfTemporary(b);
  return product;
}

Val FunctionEmitter::dotOf(const SExpr &node, const Val &a, const Val &b) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  // Computed in Python's float or (wrapping) int64, then cast to NumPy's
  // result type (a bool dot product: any product nonzero).
  DType resultDType = promoteDTypes(a.type.dtype, b.type.dtype);
  // NumPy: the last axis of a against the first of b.
  Value inner = dimension(a.leaves[0], a.type.ndim - 1);
  Value other = dimension(b.leaves[0], 0);
  llvm::SmallVector<Value> shapes;
  appendDimensions(a.leaves[0], a.type.ndim, shapes);
  appendDimensions(b.leaves[0], b.type.ndim, shapes);
  int first = static_cast<int>(shapes.size());
  shapes.append({inner, other});
  PyError notAligned = PyError(
      "ValueError", formatMessage("dot_not_aligned",
                                  {{"a", shapePlaceholders(a.type.ndim, 0)},
                                   {"b", shapePlaceholders(b.type.ndim, a.type.ndim)},
                                   {"inner", "{" + std::to_string(first) + "}"},
                                   {"axis", std::to_string(a.type.ndim - 1)},
                                   {"other", "{" + std::to_string(first + 1) + "}"}}));
  checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, inner, other), notAligned, shapes);
  if (resultDType == DType::Complex128) { // 1-D only: sum of products in order
    Value n = inner;
    Type type = Type::numpy(resultDType);
    Value re = alloca(builder.getF64Type()), im = alloca(builder.getF64Type());
    builder.create<mlir::memref::StoreOp>(l, constFloat(0.0), re);
    builder.create<mlir::memref::StoreOp>(l, constFloat(0.0), im);
    countedLoop(n, [&](Value k) {
      Value index = builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k);
      Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, a.leaves[0], mlir::ValueRange{index}),
                          a.type.dtype, l);
      Val y = fromStorage(builder.create<mlir::memref::LoadOp>(l, b.leaves[0], mlir::ValueRange{index}),
                          b.type.dtype, l);
      Val r{type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
      Val next = complexArith(node, ast::Operator::Add, r, complexArith(node, ast::Operator::Mult, x, y));
      builder.create<mlir::memref::StoreOp>(l, next.leaves[0], re);
      builder.create<mlir::memref::StoreOp>(l, next.leaves[1], im);
    });
    return {type, {builder.create<mlir::memref::LoadOp>(l, re), builder.create<mlir::memref::LoadOp>(l, im)}};
  }
  bool isFloat = isFloatDType(resultDType);
  Type domain = isFloat ? Type::floating() : Type::integer();
  auto element = [&](const Val &array, llvm::ArrayRef<Value> indices) {
    return castNumPy(fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], indices),
                                 array.type.dtype, l),
                     isFloat ? DType::Float64 : DType::Int64).leaves[0];
  };
  auto multiplyAdd = [&](Value acc, Value x, Value y) -> Value {
    if (isFloat)
      return builder.create<arith::AddFOp>(l, acc, builder.create<arith::MulFOp>(l, x, y));
    return builder.create<arith::AddIOp>(l, acc, builder.create<arith::MulIOp>(l, x, y));
  };
  Value acc = alloca(leafType(domain.kind));
  Value zero = isFloat ? constFloat(0.0) : constInt(0);
  auto index = [&](Value k) {
    return builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k).getResult();
  };
  if (a.type.ndim == 1 && b.type.ndim == 1) {
    builder.create<mlir::memref::StoreOp>(l, zero, acc);
    countedLoop(inner, [&](Value k) {
      Value r = builder.create<mlir::memref::LoadOp>(l, acc);
      builder.create<mlir::memref::StoreOp>(
          l, multiplyAdd(r, element(a, {index(k)}), element(b, {index(k)})), acc);
    });
    return castNumPy(Val{domain, {builder.create<mlir::memref::LoadOp>(l, acc)}}, resultDType);
  }
  // A 1-D a is one row, a 1-D b one column; the result has the others' axes.
  Value rows = a.type.ndim == 2 ? dimension(a.leaves[0], 0) : constInt(1);
  Value columns = b.type.ndim == 2 ? dimension(b.leaves[0], 1) : constInt(1);
  llvm::SmallVector<Value> sizes;
  if (a.type.ndim == 2)
    sizes.push_back(rows);
  if (b.type.ndim == 2)
    sizes.push_back(columns);
  if (a.type.ndim == 2 && b.type.ndim == 2 && resultDType == DType::Float64 &&
      a.type.dtype == DType::Float64 && b.type.dtype == DType::Float64) {
    // Row i of the result accumulates a[i, k] * row k of b, k in order: the
    // same sums as one accumulator per element, with the innermost loop
    // along rows of b and of the result (it vectorises).
    Val zeroFill{Type::floating(), {zero}};
    Value out = allocateArray(type, sizes, &zeroFill, l);
    countedLoop(rows, [&](Value i) {
      countedLoop(inner, [&](Value k) {
        Value x = element(a, {index(i), index(k)});
        countedLoop(columns, [&](Value j) {
          llvm::SmallVector<Value, 2> at = {index(i), index(j)};
          Value sum = builder.create<mlir::memref::LoadOp>(l, out, at);
          builder.create<mlir::memref::StoreOp>(
              l, multiplyAdd(sum, x, element(b, {index(k), index(j)})), out, at);
        });
      });
    });
    return {type, {out}};
  }
  Value out = allocateArray(type, sizes, nullptr, l);
  countedLoop(rows, [&](Value i) {
    countedLoop(columns, [&](Value j) {
      builder.create<mlir::memref::StoreOp>(l, zero, acc);
      countedLoop(inner, [&](Value k) {
        Value x = a.type.ndim == 2 ? element(a, {index(i), index(k)}) : element(a, {index(k)});
        Value y = b.type.ndim == 2 ? element(b, {index(k), index(j)}) : element(b, {index(k)});
        Value r = builder.create<mlir::memref::LoadOp>(l, acc);
        builder.create<mlir::memref::StoreOp>(l, multiplyAdd(r, x, y), acc);
      });
      Value r = toStorage(
          castNumPy(Val{domain, {builder.create<mlir::memref::LoadOp>(l, acc)}}, resultDType),
          resultDType, l);
      llvm::SmallVector<Value, 2> at;
      if (a.type.ndim == 2)
        at.push_back(index(i));
      if (b.type.ndim == 2)
        at.push_back(index(j));
      builder.create<mlir::memref::StoreOp>(l, r, out, at);
    });
  });
  return {type, {out}};
}

Val FunctionEmitter::applyElementwise(const std::string &name, const Val &x, Location l) {
  // Python numbers enter ufuncs as NumPy scalars: int64, float64, bool.
  DType dtype = x.type.isNumPy()                   ? x.type.dtype
                : x.type.kind == Type::Kind::Float ? DType::Float64
                : x.type.kind == Type::Kind::Bool  ? DType::Bool
                                                   : DType::Int64;
  if (x.type.isComplex()) // np.abs only (the typer refuses the others)
    return {Type::numpy(DType::Float64), {complexAbs(x, /*checkOverflow=*/false)}};
  Val v = castNumPy(x, dtype);
  if (name == "abs" || name == "absolute") {
    if (isFloatDType(dtype))
      return {v.type, {builder.create<mlir::math::AbsFOp>(l, v.leaves[0])}};
    if (dtype == DType::Bool || isUnsignedDType(dtype))
      return v;
    // NumPy's integer abs wraps (abs(INT64_MIN) stays negative).
    Value n = v.leaves[0];
    Value zero = constOf(n.getType(), 0);
    Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, n, zero);
    return {v.type, {builder.create<arith::SelectOp>(l, negative, builder.create<arith::SubIOp>(l, zero, n), n)}};
  }
  // float32 (and int16) results are computed in double and rounded once.
  DType result = dtype == DType::Float32 || dtype == DType::Int16 ? DType::Float32 : DType::Float64;
  Value f = castNumPy(v, DType::Float64).leaves[0];
  // NumPy's ufuncs follow IEEE: no exceptions (sqrt(-1) is nan, log(0) -inf).
  Value r = name == "sqrt" ? builder.create<mlir::math::SqrtOp>(l, f).getResult()
                           : callLibm(name == "arctan" ? "atan" : name.c_str(), {f});
  return castNumPy(Val{Type::numpy(DType::Float64), {r}}, result);
}

Val FunctionEmitter::emitElementwise(const SExpr &node, const std::string &name) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  Val input = emitExpr(*typer.positionalArguments(spec, node).at(0));
  if (input.type.kind != Type::Kind::Array)
    return applyElementwise(name, input, l);
  llvm::SmallVector<Value> sizes;
  for (int axis = 0; axis < input.type.ndim; ++axis)
    sizes.push_back(dimension(input.leaves[0], axis));
  Value out = allocateArray(type, sizes, nullptr, l);
  forEachElement(input.leaves[0], input.type.ndim, [&](llvm::ArrayRef<Value> indices) {
    Val x = fromStorage(builder.create<mlir::memref::LoadOp>(l, input.leaves[0], indices),
                        input.type.dtype, l);
    builder.create<mlir::memref::StoreOp>(l, toStorage(applyElementwise(name, x, l), type.dtype, l),
                                          out, indices);
  });
  freeIfTemporary(input);
  return {type, {out}};
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

Val FunctionEmitter::matmulOf(const SExpr &node, const Val &a, const Val &b) {
  // NumPy's gufunc check and message first; then the arithmetic of np.dot,
  // which takes a 1-D left operand as a row.
  Location l = loc(node);
  Value inner = dimension(a.leaves[0], a.type.ndim - 1);
  Value other = dimension(b.leaves[0], 0);
  checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, inner, other),
                errorCode("ValueError", "matmul_mismatch"), {other, inner});
  return dotOf(node, a, b);
}

} // namespace plait::frontend::detail
