//===- EmitLinearAlgebra.cpp - a @ b, np.dot, np.matmul, np.outer ---------===//
//
// Products check shapes here, with NumPy's messages, and are computed by
// the runtime (plait_rt_matmul), which calls the BLAS NumPy calls as NumPy
// does. Integer and bool products compute in int64 (wrapping, as NumPy's
// loops do modulo the width) and are cast to the result's dtype.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "plait/Runtime/LinearAlgebra.h"

namespace plait::frontend::detail {

namespace {
/// The dtype the runtime computes a product of `result` in.
DType productDType(DType result) {
  return isFloatDType(result) || isComplexDType(result) ? result : DType::Int64;
}

int64_t linalgKind(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return PLAIT_LINALG_F64;
  case DType::Float32:
    return PLAIT_LINALG_F32;
  case DType::Complex128:
    return PLAIT_LINALG_C128;
  case DType::Complex64:
    return PLAIT_LINALG_C64;
  case DType::Float16:
    return PLAIT_LINALG_F16;
  default:
    return PLAIT_LINALG_I64;
  }
}
} // namespace

llvm::SmallVector<Value> FunctionEmitter::broadcastStacks(const Val &a, int aBatch, const Val &b,
                                                          int bBatch, llvm::ArrayRef<Value> core,
                                                          Location l) {
  int an = a.type.ndim, bn = b.type.ndim;
  int batch = std::max(aBatch, bBatch);
  llvm::SmallVector<Value> sizes;
  if (aBatch == 0 || bBatch == 0) {
    const Val &stacked = aBatch > 0 ? a : b;
    for (int axis = 0; axis < batch; ++axis)
      sizes.push_back(dimension(stacked.leaves[0], axis));
    return sizes;
  }
  // NumPy's gufunc message: each shape, its core axes "newaxis", and the
  // core of the result.
  llvm::SmallVector<Value> shapes;
  appendDimensions(a.leaves[0], an, shapes);
  appendDimensions(b.leaves[0], bn, shapes);
  int first = static_cast<int>(shapes.size());
  shapes.append(core.begin(), core.end());
  auto remapped = [](int ndim, int first) {
    std::string text = "(";
    for (int axis = 0; axis + 2 < ndim; ++axis)
      text += "{" + std::to_string(first + axis) + "},";
    return text + "newaxis,newaxis)";
  };
  std::string requested = "(";
  for (size_t k = 0; k < core.size(); ++k)
    requested += (k ? ",{" : "{") + std::to_string(first + k) + "}";
  PyError mismatch("ValueError",
                   formatMessage("matmul_broadcast", {{"a", shapePlaceholders(an, 0)},
                                                      {"aRemapped", remapped(an, 0)},
                                                      {"b", shapePlaceholders(bn, an)},
                                                      {"bRemapped", remapped(bn, an)},
                                                      {"core", requested + ")"}}));
  using P = arith::CmpIPredicate;
  for (int k = 0; k < batch; ++k) {
    int ka = k - (batch - aBatch), kb = k - (batch - bBatch);
    Value aSize = ka >= 0 ? dimension(a.leaves[0], ka) : constInt(1);
    Value bSize = kb >= 0 ? dimension(b.leaves[0], kb) : constInt(1);
    Value aIsOne = builder.create<arith::CmpIOp>(l, P::eq, aSize, constInt(1));
    Value bIsOne = builder.create<arith::CmpIOp>(l, P::eq, bSize, constInt(1));
    Value differ = builder.create<arith::CmpIOp>(l, P::ne, aSize, bSize);
    Value bad = builder.create<arith::AndIOp>(
        l, differ,
        builder.create<arith::XOrIOp>(l, builder.create<arith::OrIOp>(l, aIsOne, bIsOne),
                                      constInt(1, 1)));
    checkWithArgs(bad, mismatch, shapes);
    sizes.push_back(builder.create<arith::SelectOp>(l, aIsOne, bSize, aSize));
  }
  return sizes;
}

Val FunctionEmitter::productOf(const SExpr &node, const Val &a, const Val &b, bool isDot) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  int an = a.type.ndim, bn = b.type.ndim;
  int bInner = bn == 1 ? 0 : bn - 2; // the axis of b summed over
  Value inner = dimension(a.leaves[0], an - 1);
  Value other = dimension(b.leaves[0], bInner);
  Value misaligned = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, inner, other);
  llvm::SmallVector<Value> sizes;
  if (isDot) {
    llvm::SmallVector<Value> shapes;
    appendDimensions(a.leaves[0], an, shapes);
    appendDimensions(b.leaves[0], bn, shapes);
    int first = static_cast<int>(shapes.size());
    shapes.append({inner, other});
    checkWithArgs(
        misaligned,
        PyError("ValueError",
                formatMessage("dot_not_aligned", {{"a", shapePlaceholders(an, 0)},
                                                  {"b", shapePlaceholders(bn, an)},
                                                  {"inner", "{" + std::to_string(first) + "}"},
                                                  {"axis", std::to_string(an - 1)},
                                                  {"other", "{" + std::to_string(first + 1) + "}"},
                                                  {"otherAxis", std::to_string(bInner)}})),
        shapes);
    for (int axis = 0; axis + 1 < an; ++axis)
      sizes.push_back(dimension(a.leaves[0], axis));
    for (int axis = 0; axis < bn; ++axis)
      if (axis != bInner)
        sizes.push_back(dimension(b.leaves[0], axis));
  } else {
    // The core dimensions first, then the stacks broadcast (NumPy's order).
    checkWithArgs(misaligned, errorCode("ValueError", "matmul_mismatch"), {other, inner});
    int aBatch = std::max(an - 2, 0), bBatch = std::max(bn - 2, 0);
    llvm::SmallVector<Value> core;
    if (aBatch > 0 && bBatch > 0) // (the message's only)
      core = {dimension(a.leaves[0], an - 2), dimension(b.leaves[0], bn - 1)};
    sizes = broadcastStacks(a, aBatch, b, bBatch, core, l);
    if (an > 1)
      sizes.push_back(dimension(a.leaves[0], an - 2));
    if (bn > 1)
      sizes.push_back(dimension(b.leaves[0], bn - 1));
  }
  // Operands of the dtype the runtime computes in (NumPy casts them too).
  DType result = type.dtype;
  DType compute = productDType(result);
  auto operand = [&](const Val &x) {
    return x.type.dtype == compute ? x : castArray(x, Type::array(compute, x.type.ndim, true), l);
  };
  Val x = operand(a), y = operand(b);
  bool castA = a.type.dtype != compute, castB = b.type.dtype != compute;
  bool scalar = type.kind != Type::Kind::Array;
  Type computed = Type::array(compute, std::max<int>(sizes.size(), 1), true);
  Value out = scalar ? alloca(module.storageType(compute)) // the one element
                     : allocateArray(computed, sizes, nullptr, l);
  auto [xDims, xStrides] = shapeBuffers(x.leaves[0], an, l);
  auto [yDims, yStrides] = shapeBuffers(y.leaves[0], bn, l);
  mlir::Type i64 = builder.getI64Type();
  module.declare("plait_rt_matmul",
                 builder.getFunctionType(llvm::SmallVector<mlir::Type>(11, i64), {}));
  builder.create<mlir::func::CallOp>(
      l, "plait_rt_matmul", mlir::TypeRange{},
      mlir::ValueRange{constInt(linalgKind(compute)), constInt(isDot ? 1 : 0),
                       dataAddress(x.leaves[0], x.type, l), constInt(an), xDims, xStrides,
                       dataAddress(y.leaves[0], y.type, l), constInt(bn), yDims, yStrides,
                       scalar ? bufferAddress(out, l) : dataAddress(out, computed, l)});
  if (castA)
    freeIfTemporary(x);
  if (castB)
    freeIfTemporary(y);
  if (scalar) {
    Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, out), compute, l);
    return castNumPy(element, result);
  }
  Val product{computed, {out}};
  if (compute == result)
    return {type, {out}};
  Val cast = castArray(product, type, l);
  freeIfTemporary(product);
  return cast;
}

Val FunctionEmitter::emitProduct(const SExpr &node, const std::string &name) {
  Location l = loc(node);
  auto args = typer.positionalArguments(spec, node);
  Val a = emitExpr(*args.at(0));
  Val b = emitExpr(*args.at(1));
  if (name != "outer") {
    Val product = productOf(node, a, b, /*isDot=*/name == "dot");
    freeIfTemporary(a);
    freeIfTemporary(b);
    return product;
  }
  // np.outer: a.ravel()[:, None] * b.ravel()[None, :].
  Type type = spec.typeOf(node);
  auto column = [&](const Val &x, bool row, Val &owned) -> Val {
    owned = x.type.ndim == 1 ? x : castArray(x, Type::array(x.type.dtype, x.type.ndim, true), l);
    auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, owned.leaves[0]);
    Value stride = owned.type.ndim == 1 ? metadata.getStrides()[0] : constIndexValue(1);
    Value count =
        builder.create<arith::IndexCastOp>(l, builder.getIndexType(), elementCount(owned, l));
    llvm::SmallVector<mlir::OpFoldResult> sizes = {count, constIndexValue(1)};
    llvm::SmallVector<mlir::OpFoldResult> strides = {stride, constIndexValue(0)};
    if (row) {
      std::swap(sizes[0], sizes[1]);
      std::swap(strides[0], strides[1]);
    }
    Type viewType = Type::array(x.type.dtype, 2);
    Value view = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(viewType), metadata.getBaseBuffer(),
        mlir::OpFoldResult(metadata.getOffset()), sizes, strides);
    return {viewType, {view}};
  };
  Val aOwned, bOwned;
  Val left = column(a, /*row=*/false, aOwned), right = column(b, /*row=*/true, bOwned);
  Val product = arrayElementwise(node, {left, right}, type.dtype, 2, [&](llvm::ArrayRef<Val> x) {
    return emitBinary(node, ast::Operator::Mult, x[0], x[1]);
  });
  for (const Val *owned : {&aOwned, &bOwned})
    if (owned->type.ndim != 1)
      freeIfTemporary(*owned);
  freeIfTemporary(a);
  freeIfTemporary(b);
  return product;
}

Val FunctionEmitter::emitLinalg(const SExpr &node, const std::string &name) {
  Location l = loc(node);
  const Specialization::Linalg &plan = spec.linalgCalls.at(&node);
  Type type = spec.typeOf(node);
  llvm::SmallVector<Val> inputs;
  for (const SExpr *argument : plan.arrays)
    inputs.push_back(emitExpr(*argument));
  // NumPy computes in float64 or complex128 (norm: float32 stays float32).
  bool complex = llvm::any_of(inputs, [](const Val &x) { return isComplexDType(x.type.dtype); });
  DType compute = complex ? DType::Complex128 : DType::Float64;
  // (norm: float32 and complex64 stay, as NumPy's norm computes in them.)
  if (name == "norm" &&
      (inputs[0].type.dtype == DType::Float32 || inputs[0].type.dtype == DType::Complex64))
    compute = inputs[0].type.dtype;
  llvm::SmallVector<Val> operands;
  for (const Val &x : inputs)
    operands.push_back(
        x.type.dtype == compute ? x : castArray(x, Type::array(compute, x.type.ndim, true), l));
  const Val &a = operands[0];
  int an = a.type.ndim;
  mlir::Type i64 = builder.getI64Type(), f64 = builder.getF64Type();
  auto linAlgError = [](const std::string &message) {
    return PyError("numpy.linalg.LinAlgError", message);
  };
  PyError noLapack("RuntimeError", "np.linalg." + name +
                                       "() needs LAPACK, and no BLAS with LAPACK was found: set "
                                       "PLAIT_BLAS to one (see plait.blas_library())");
  auto call = [&](const std::string &function, llvm::ArrayRef<Value> args) {
    llvm::SmallVector<mlir::Type> types;
    for (Value v : args)
      types.push_back(v.getType());
    module.declare(function, builder.getFunctionType(types, {builder.getI32Type()}));
    return builder
        .create<mlir::func::CallOp>(l, function, mlir::TypeRange{builder.getI32Type()}, args)
        .getResult(0);
  };
  auto arrayArgs = [&](const Val &x) -> llvm::SmallVector<Value, 4> {
    auto [dims, strides] = shapeBuffers(x.leaves[0], x.type.ndim, l);
    return {dataAddress(x.leaves[0], x.type, l), constInt(x.type.ndim), dims, strides};
  };
  auto allocate = [&](DType dtype, llvm::ArrayRef<Value> sizes) -> Val {
    Type t = Type::array(dtype, static_cast<int>(sizes.size()), true);
    return {t, {allocateArray(t, sizes, nullptr, l)}};
  };
  // The result in NumPy's result dtype (float32 when every input was).
  auto finish = [&](const Val &computed, DType dtype) -> Val {
    if (computed.type.dtype == dtype)
      return computed;
    Val cast = castArray(computed, Type::array(dtype, computed.type.ndim, true), l);
    freeIfTemporary(computed);
    return cast;
  };
  auto release = [&]() {
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (operands[k].type.dtype != inputs[k].type.dtype)
        freeIfTemporary(operands[k]);
      freeIfTemporary(inputs[k]);
    }
  };
  Value kind = constInt(linalgKind(compute));
  llvm::SmallVector<Value> aDims;
  appendDimensions(a.leaves[0], an, aDims);
  if (name != "lstsq" && name != "norm")
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, aDims[an - 2], aDims[an - 1]),
          linAlgError("Last 2 dimensions of the array must be square"));
  DType result = type.kind == Type::Kind::Tuple
                     ? type.elements[type.elements.size() == 2 ? 1 : 0].dtype
                     : type.dtype;
  Val value;
  if (name == "solve") {
    const Val &b = operands[1];
    int bn = b.type.ndim;
    Value n = aDims[an - 1];
    bool vector = bn == 1;
    Value bRows = dimension(b.leaves[0], vector ? 0 : bn - 2);
    std::string signature = vector ? "solve1: Input operand 1 has a mismatch in its core dimension "
                                     "0, with gufunc signature (m,m),(m)->(m)"
                                   : "solve: Input operand 1 has a mismatch in its core dimension "
                                     "0, with gufunc signature (m,m),(m,n)->(m,n)";
    checkWithArgs(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, bRows, n),
                  PyError("ValueError", signature + " (size {0} is different from {1})"),
                  {bRows, n});
    llvm::SmallVector<Value> sizes;
    if (vector) {
      sizes.append(aDims.begin(), aDims.end() - 1);
    } else {
      Value nrhs = dimension(b.leaves[0], bn - 1);
      sizes = broadcastStacks(a, an - 2, b, bn - 2, {n, nrhs}, l);
      sizes.append({n, nrhs});
    }
    Val out = allocate(compute, sizes);
    llvm::SmallVector<Value> args = {kind};
    args.append(arrayArgs(a));
    args.append(arrayArgs(b));
    args.push_back(dataAddress(out.leaves[0], out.type, l));
    checkRuntime(call("plait_rt_linalg_solve", args),
                 {{1, linAlgError("Singular matrix")}, {4, noLapack}});
    value = finish(out, result);
  } else if (name == "inv" || name == "cholesky") {
    Val out = allocate(compute, aDims);
    llvm::SmallVector<Value> args = {kind};
    if (name == "cholesky")
      args.push_back(constInt(plan.upper));
    args.append(arrayArgs(a));
    args.push_back(dataAddress(out.leaves[0], out.type, l));
    checkRuntime(
        call(name == "inv" ? "plait_rt_linalg_inv" : "plait_rt_linalg_cholesky", args),
        {{1, linAlgError(name == "inv" ? "Singular matrix" : "Matrix is not positive definite")},
         {4, noLapack}});
    value = finish(out, result);
  } else if (name == "det") {
    llvm::SmallVector<Value> args = {kind};
    args.append(arrayArgs(a));
    if (an == 2) {
      Value slot = alloca(module.storageType(compute));
      args.push_back(bufferAddress(slot, l));
      checkRuntime(call("plait_rt_linalg_det", args), {{4, noLapack}});
      Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, slot), compute, l);
      value = castNumPy(element, result);
    } else {
      Val out = allocate(compute, llvm::ArrayRef<Value>(aDims).drop_back(2));
      args.push_back(dataAddress(out.leaves[0], out.type, l));
      checkRuntime(call("plait_rt_linalg_det", args), {{4, noLapack}});
      value = finish(out, result);
    }
  } else if (name == "eigh") {
    Val w = allocate(DType::Float64, llvm::ArrayRef<Value>(aDims).drop_back(1));
    Val v = allocate(compute, aDims);
    llvm::SmallVector<Value> args = {kind, constInt(plan.upper)};
    args.append(arrayArgs(a));
    args.push_back(dataAddress(w.leaves[0], w.type, l));
    args.push_back(dataAddress(v.leaves[0], v.type, l));
    checkRuntime(call("plait_rt_linalg_eigh", args),
                 {{1, linAlgError("Eigenvalues did not converge")}, {4, noLapack}});
    Val values = finish(w, type.elements[0].dtype), vectors = finish(v, result);
    value = {type, {values.leaves[0], vectors.leaves[0]}};
  } else if (name == "lstsq") {
    const Val &b = operands[1];
    int bn = b.type.ndim;
    Value m = aDims[0], n = aDims[1];
    Value bRows = dimension(b.leaves[0], 0);
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, bRows, m),
          linAlgError("Incompatible dimensions"));
    Value columns = bn == 1 ? constInt(1) : dimension(b.leaves[0], 1);
    Value rcond;
    if (plan.rcond) {
      rcond = convert(emitExpr(*plan.rcond), Type::floating()).leaves[0];
    } else { // NumPy: finfo(float64).eps * max(n, m)
      Value larger = builder.create<arith::MaxSIOp>(l, m, n);
      rcond = builder.create<arith::MulFOp>(l, constFloat(2.220446049250313e-16),
                                            builder.create<arith::SIToFPOp>(l, f64, larger));
    }
    llvm::SmallVector<Value> xSizes = {n};
    if (bn == 2)
      xSizes.push_back(columns);
    Val x = allocate(compute, xSizes);
    Val residuals = allocate(DType::Float64, {columns});
    Val singular = allocate(DType::Float64, {builder.create<arith::MinSIOp>(l, m, n)});
    Value rank = alloca(builder.getI32Type());
    auto [aDimsBuffer, aStrides] = shapeBuffers(a.leaves[0], 2, l);
    auto [bDims, bStrides] = shapeBuffers(b.leaves[0], bn, l);
    checkRuntime(call("plait_rt_linalg_lstsq",
                      {kind, dataAddress(a.leaves[0], a.type, l), aDimsBuffer, aStrides,
                       dataAddress(b.leaves[0], b.type, l), constInt(bn), bDims, bStrides, rcond,
                       dataAddress(x.leaves[0], x.type, l),
                       dataAddress(residuals.leaves[0], residuals.type, l), bufferAddress(rank, l),
                       dataAddress(singular.leaves[0], singular.type, l)}),
                 {{1, linAlgError("SVD did not converge in Linear Least Squares")}, {4, noLapack}});
    Value rankValue = builder.create<mlir::memref::LoadOp>(l, rank);
    // NumPy keeps the residuals only for a full-rank overdetermined system.
    using P = arith::CmpIPredicate;
    Value kept = builder.create<arith::AndIOp>(
        l,
        builder.create<arith::CmpIOp>(l, P::eq, builder.create<arith::ExtSIOp>(l, i64, rankValue),
                                      n),
        builder.create<arith::CmpIOp>(l, P::sgt, m, n));
    Value length = builder.create<arith::SelectOp>(l, kept, columns, constInt(0));
    auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, residuals.leaves[0]);
    Value kept1d = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(residuals.type), metadata.getBaseBuffer(),
        mlir::OpFoldResult(metadata.getOffset()),
        llvm::SmallVector<mlir::OpFoldResult>{
            builder.create<arith::IndexCastOp>(l, builder.getIndexType(), length).getResult()},
        llvm::SmallVector<mlir::OpFoldResult>{constIndexValue(1)});
    if (temporaries.erase(residuals.leaves[0]))
      temporaries.insert(kept1d);
    residuals.leaves[0] = kept1d;
    DType real = type.elements[1].dtype;
    Val xs = finish(x, result), rs = finish(residuals, real), ss = finish(singular, real);
    value = {type, {xs.leaves[0], rs.leaves[0], rankValue, ss.leaves[0]}};
  } else { // norm
    DType real = complexPartDType(compute);
    std::initializer_list<std::pair<int32_t, PyError>> errors = {
        {2, linAlgError("SVD did not converge")},
        {3, PyError("ValueError",
                    "zero-size array to reduction operation minimum which has no identity")},
        {4, noLapack}};
    llvm::SmallVector<Value> args = {kind};
    args.append(arrayArgs(a));
    Val out;
    Value slot;
    bool whole = plan.axis < 0;                     // one norm (with keepdims: in an array of 1s)
    if (!whole && type.kind == Type::Kind::Array) { // norms along an axis (or two)
      llvm::SmallVector<Value> sizes;
      for (int axis = 0; axis < an; ++axis)
        if (axis != plan.axis && axis != plan.columnAxis)
          sizes.push_back(aDims[axis]);
        else if (plan.keepdims)
          sizes.push_back(constInt(1));
      out = allocate(real, sizes);
    } else {
      slot = alloca(module.storageType(real));
    }
    Value address = slot ? bufferAddress(slot, l) : dataAddress(out.leaves[0], out.type, l);
    if (plan.columnAxis >= 0) {
      args.append({constInt(plan.axis), constInt(plan.columnAxis), constInt(plan.norm), address});
      checkRuntime(call("plait_rt_linalg_norm_axes", args), errors);
    } else if (plan.axis >= 0) {
      args.append({constInt(plan.axis), constInt(plan.norm), constFloat(plan.p), address});
      checkRuntime(call("plait_rt_linalg_norm_axis", args), errors);
    } else {
      args.append({constInt(plan.norm), constFloat(plan.p), address});
      checkRuntime(call("plait_rt_linalg_norm", args), errors);
    }
    value = slot ? fromStorage(builder.create<mlir::memref::LoadOp>(l, slot), real, l) : out;
    if (whole && type.kind == Type::Kind::Array) {
      llvm::SmallVector<Value> ones(an, constInt(1));
      value = {type, {allocateArray(type, ones, &value, l)}};
    }
  }
  release();
  return value;
}

} // namespace plait::frontend::detail
