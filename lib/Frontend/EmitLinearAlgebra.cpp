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
  return result == DType::Float64 || result == DType::Float32 || result == DType::Complex128
             ? result
             : DType::Int64;
}

int64_t linalgKind(DType dtype) {
  switch (dtype) {
  case DType::Float64:
    return PLAIT_LINALG_F64;
  case DType::Float32:
    return PLAIT_LINALG_F32;
  case DType::Complex128:
    return PLAIT_LINALG_C128;
  default:
    return PLAIT_LINALG_I64;
  }
}
} // namespace

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
    int batch = std::max(aBatch, bBatch);
    if (aBatch > 0 && bBatch > 0) {
      llvm::SmallVector<Value> shapes;
      appendDimensions(a.leaves[0], an, shapes);
      appendDimensions(b.leaves[0], bn, shapes);
      int m = static_cast<int>(shapes.size());
      shapes.push_back(dimension(a.leaves[0], an - 2));
      shapes.push_back(dimension(b.leaves[0], bn - 1));
      auto remapped = [](int ndim, int first) {
        std::string text = "(";
        for (int axis = 0; axis + 2 < ndim; ++axis)
          text += "{" + std::to_string(first + axis) + "},";
        return text + "newaxis,newaxis)";
      };
      PyError mismatch("ValueError", formatMessage("matmul_broadcast",
                                                   {{"a", shapePlaceholders(an, 0)},
                                                    {"aRemapped", remapped(an, 0)},
                                                    {"b", shapePlaceholders(bn, an)},
                                                    {"bRemapped", remapped(bn, an)},
                                                    {"core", "({" + std::to_string(m) + "},{" +
                                                                 std::to_string(m + 1) + "})"}}));
      for (int k = 0; k < batch; ++k) {
        int ka = k - (batch - aBatch), kb = k - (batch - bBatch);
        Value aSize = ka >= 0 ? dimension(a.leaves[0], ka) : constInt(1);
        Value bSize = kb >= 0 ? dimension(b.leaves[0], kb) : constInt(1);
        using P = arith::CmpIPredicate;
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
    } else {
      const Val &stacked = aBatch > 0 ? a : b;
      for (int axis = 0; axis < batch; ++axis)
        sizes.push_back(dimension(stacked.leaves[0], axis));
    }
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
  Value out;
  if (scalar) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(entry);
    out = builder.create<mlir::memref::AllocaOp>(
        builder.getUnknownLoc(), mlir::MemRefType::get({1}, module.storageType(compute)));
  } else {
    out = allocateArray(computed, sizes, nullptr, l);
  }
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
    Val element = fromStorage(
        builder.create<mlir::memref::LoadOp>(l, out, mlir::ValueRange{constIndexValue(0)}), compute,
        l);
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

} // namespace plait::frontend::detail
