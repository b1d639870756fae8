//===- EmitNumPyScalars.cpp - NumPy scalars and complex numbers -----------===//
//
// NumPy's scalar semantics (NEP 50 promotion, wrapping ints, IEEE floats,
// casts) and complex arithmetic with CPython's and NumPy's algorithms.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "plait/Support/HostCPU.h"

namespace plait::frontend::detail {

Val FunctionEmitter::castNumPy(const Val &value, DType to) {
  Location l = here();
  Type target = Type::numpy(to);
  if (value.type == target)
    return value;
  if (to == DType::Bool)
    return {target, {truth(value)}};
  if (isComplexDType(to)) { // each part to the parts' dtype
    DType part = complexPartDType(to);
    if (!value.type.isComplex())
      return {target, {castNumPy(value, part).leaves[0], zeroOf(Type::numpy(part)).leaves[0]}};
    Type from =
        Type::numpy(value.type.isNumPy() ? complexPartDType(value.type.dtype) : DType::Float64);
    return {target,
            {castNumPy(Val{from, {value.leaves[0]}}, part).leaves[0],
             castNumPy(Val{from, {value.leaves[1]}}, part).leaves[0]}};
  }
  if (value.type.isComplex()) // NumPy keeps the real part (and warns)
    return castNumPy(
        Val{Type::numpy(value.type.isNumPy() ? complexPartDType(value.type.dtype) : DType::Float64),
            {value.leaves[0]}},
        to);
  // NumPy casts integers to float16 through float32 (exact up to float16's
  // largest finite value).
  if (to == DType::Float16 && !value.type.isFloating())
    return castNumPy(castNumPy(value, DType::Float32), to);
  mlir::Type toType = module.scalarType(to);
  Value v = value.leaves[0];
  const Type &from = value.type;
  bool fromFloat = from.isFloating();
  bool fromUnsigned = from.kind == Type::Kind::Bool ||
                      (from.isNumPy() && (from.dtype == DType::Bool || isUnsignedDType(from.dtype)));
  unsigned width = v.getType().getIntOrFloatBitWidth();
  unsigned toWidth = toType.getIntOrFloatBitWidth();
  if (isFloatDType(to)) {
    if (!fromFloat)
      return {target, {fromUnsigned ? builder.create<arith::UIToFPOp>(l, toType, v).getResult()
                                    : builder.create<arith::SIToFPOp>(l, toType, v).getResult()}};
    if (width == toWidth)
      return {target, {v}};
    return {target, {width < toWidth ? builder.create<arith::ExtFOp>(l, toType, v).getResult()
                                     : builder.create<arith::TruncFOp>(l, toType, v).getResult()}};
  }
  if (fromFloat) {
    // fptosi of NaN or of values out of range is poison in LLVM: clamp
    // first (NaN to 0). NumPy calls such casts undefined and warns.
    Value f = width == 64 ? v : builder.create<arith::ExtFOp>(l, builder.getF64Type(), v).getResult();
    auto select = [&](arith::CmpFPredicate p, double bound, double replacement, Value x) {
      Value c = builder.create<arith::CmpFOp>(l, p, x, constFloat(bound));
      return builder.create<arith::SelectOp>(l, c, constFloat(replacement), x).getResult();
    };
    Value isNan = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, f, f);
    f = builder.create<arith::SelectOp>(l, isNan, constFloat(0.0), f);
    Value low = select(arith::CmpFPredicate::OLT, -9223372036854775808.0, -9223372036854775808.0, f);
    Value asSigned = builder.create<arith::FPToSIOp>(
        l, builder.getI64Type(), select(arith::CmpFPredicate::OGE, 9223372036854775808.0, 9223372036854774784.0, low));
    Value i = asSigned;
    if (to == DType::UInt64) {
      Value nonNegative = select(arith::CmpFPredicate::OLT, 0.0, 0.0, f);
      Value asUnsigned = builder.create<arith::FPToUIOp>(
          l, builder.getI64Type(), select(arith::CmpFPredicate::OGE, 18446744073709551616.0, 18446744073709549568.0, nonNegative));
      Value negative = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, f, constFloat(0.0));
      i = builder.create<arith::SelectOp>(l, negative, asSigned, asUnsigned);
    }
    if (toWidth < 64)
      i = builder.create<arith::TruncIOp>(l, toType, i);
    return {target, {i}};
  }
  if (width == toWidth)
    return {target, {v}};
  if (width > toWidth)
    return {target, {builder.create<arith::TruncIOp>(l, toType, v)}};
  return {target, {fromUnsigned ? builder.create<arith::ExtUIOp>(l, toType, v).getResult()
                                : builder.create<arith::ExtSIOp>(l, toType, v).getResult()}};
}

void FunctionEmitter::checkPythonIntFits(Value i, DType dtype) {
  Location l = here();
  Value outside;
  if (dtype == DType::UInt64) {
    outside = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(0));
  } else {
    int bits = dtypeBits(dtype);
    if (bits >= 64 || isFloatDType(dtype) || dtype == DType::Bool)
      return;
    int64_t low = isUnsignedDType(dtype) ? 0 : -(int64_t(1) << (bits - 1));
    int64_t high = isUnsignedDType(dtype) ? (int64_t(1) << bits) - 1 : (int64_t(1) << (bits - 1)) - 1;
    Value below = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, constInt(low));
    Value above = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, i, constInt(high));
    outside = builder.create<arith::OrIOp>(l, below, above);
  }
  std::string message = module.options.message("integer_out_of_bounds");
  size_t at = message.find("{dtype}");
  if (at != std::string::npos)
    message.replace(at, 7, dtypeName(dtype));
  checkWithArgs(outside, PyError("OverflowError", message), {i});
}

Val FunctionEmitter::weakToNumPy(const Val &value, DType to) {
  if (value.type.kind == Type::Kind::Int)
    checkPythonIntFits(value.leaves[0], to);
  return castNumPy(value, to);
}

Value FunctionEmitter::numpyIntDivMod(ast::Operator op, Value a, Value b, bool isUnsigned) {
  // NumPy does not raise: x // 0 and x % 0 are 0 (with a warning), and
  // INT_MIN // -1 wraps to INT_MIN.
  Location l = here();
  mlir::Type type = a.getType();
  using P = arith::CmpIPredicate;
  Value zero = constOf(type, 0), one = constOf(type, 1);
  Value byZero = builder.create<arith::CmpIOp>(l, P::eq, b, zero);
  if (isUnsigned) {
    Value safe = builder.create<arith::SelectOp>(l, byZero, one, b);
    Value r = op == ast::Operator::Mod ? builder.create<arith::RemUIOp>(l, a, safe).getResult()
                          : builder.create<arith::DivUIOp>(l, a, safe).getResult();
    return builder.create<arith::SelectOp>(l, byZero, zero, r);
  }
  Value minusOne = builder.create<arith::CmpIOp>(l, P::eq, b, constOf(type, -1));
  Value safe = builder.create<arith::SelectOp>(l, builder.create<arith::OrIOp>(l, byZero, minusOne), one, b);
  Value q = builder.create<arith::DivSIOp>(l, a, safe);
  Value r = builder.create<arith::RemSIOp>(l, a, safe);
  Value rNonZero = builder.create<arith::CmpIOp>(l, P::ne, r, zero);
  Value signsDiffer = builder.create<arith::CmpIOp>(l, P::slt, builder.create<arith::XOrIOp>(l, r, b), zero);
  Value adjust = builder.create<arith::AndIOp>(l, rNonZero, signsDiffer);
  Value result;
  if (op == ast::Operator::Mod) {
    result = builder.create<arith::SelectOp>(l, adjust, builder.create<arith::AddIOp>(l, r, b), r);
    result = builder.create<arith::SelectOp>(l, minusOne, zero, result);
  } else {
    result = builder.create<arith::SubIOp>(l, q, builder.create<arith::ExtUIOp>(l, type, adjust));
    result = builder.create<arith::SelectOp>(l, minusOne, builder.create<arith::SubIOp>(l, zero, a), result);
  }
  return builder.create<arith::SelectOp>(l, byZero, zero, result);
}

Value FunctionEmitter::numpyShift(ast::Operator op, Value a, Value b, bool isUnsigned) {
  // NumPy: shifting by the width or more (or by a negative amount, seen as
  // unsigned) gives 0, or -1 for a negative value shifted right.
  Location l = here();
  mlir::Type type = a.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  using P = arith::CmpIPredicate;
  Value zero = constOf(type, 0);
  Value big = builder.create<arith::CmpIOp>(l, P::uge, b, constOf(type, width));
  Value amount = builder.create<arith::SelectOp>(l, big, zero, b);
  if (op == ast::Operator::LShift)
    return builder.create<arith::SelectOp>(l, big, zero, builder.create<arith::ShLIOp>(l, a, amount));
  if (isUnsigned)
    return builder.create<arith::SelectOp>(l, big, zero, builder.create<arith::ShRUIOp>(l, a, amount));
  Value negative = builder.create<arith::CmpIOp>(l, P::slt, a, zero);
  Value saturated = builder.create<arith::SelectOp>(l, negative, constOf(type, -1), zero);
  return builder.create<arith::SelectOp>(l, big, saturated, builder.create<arith::ShRSIOp>(l, a, amount));
}

DType FunctionEmitter::numpyArithDType(ast::Operator op, const Type &left, const Type &right) {
  DType common = numpyCommonType(left, right).dtype;
  if (op == ast::Operator::Div && !isFloatDType(common) && !isComplexDType(common))
    return DType::Float64; // true division of integers is float64
  return common;
}

Val FunctionEmitter::numpyArith(const SExpr &node, ast::Operator op, const Val &left,
                                const Val &right) {
  Location l = loc(node);
  DType common = numpyArithDType(op, left.type, right.type);
  if (common == DType::Bool) {
    Value a = weakToNumPy(left, common).leaves[0], b = weakToNumPy(right, common).leaves[0];
    // + is logical or and * logical and; //, %, ** and shifts compute in int8.
    if (Value r = bitwise(op == ast::Operator::Add ? ast::Operator::BitOr : op == ast::Operator::Mult ? ast::Operator::BitAnd : op, a, b, l))
      return {Type::numpy(common), {r}};
    common = DType::Int8;
  }
  Type type = Type::numpy(common);
  Value a = weakToNumPy(left, common).leaves[0];
  Value b = weakToNumPy(right, common).leaves[0];
  if (isFloatDType(common)) {
    bool f32 = common == DType::Float32;
    bool viaFloat32 =
        common == DType::Float16 &&
        (op == ast::Operator::FloorDiv || op == ast::Operator::Mod || op == ast::Operator::Pow);
    if (viaFloat32) { // NumPy's float16 loops call the float32 functions
      Val wide = numpyArith(node, op, castNumPy(Val{type, {a}}, DType::Float32),
                            castNumPy(Val{type, {b}}, DType::Float32));
      return castNumPy(wide, common);
    }
    auto fast = [&](mlir::Operation *operation) {
      if (fastmath())
        operation->setAttr("fastmath", arith::FastMathFlagsAttr::get(
                                           builder.getContext(), arith::FastMathFlags::fast));
      return Val{type, {operation->getResult(0)}};
    };
    // IEEE throughout: no ZeroDivisionError, x / 0.0 is inf or nan.
    if (op == ast::Operator::Add)
      return fast(builder.create<arith::AddFOp>(l, a, b));
    if (op == ast::Operator::Sub)
      return fast(builder.create<arith::SubFOp>(l, a, b));
    if (op == ast::Operator::Mult)
      return fast(builder.create<arith::MulFOp>(l, a, b));
    if (op == ast::Operator::Div)
      return fast(builder.create<arith::DivFOp>(l, a, b));
    if (op == ast::Operator::FloorDiv)
      return {type, {callLibm(f32 ? "plait_rt_np_floordiv_f32" : "plait_rt_np_floordiv_f64", {a, b})}};
    if (op == ast::Operator::Mod)
      return {type, {callLibm(f32 ? "plait_rt_np_remainder_f32" : "plait_rt_np_remainder_f64", {a, b})}};
    if (op == ast::Operator::Pow)
      return {type, {callLibm(f32 ? "powf" : "pow", {a, b})}};
    throw CompileError(CompileError::Kind::Unsupported, std::string("internal: NumPy float op ") + ast::spelling(op));
  }
  bool isUnsigned = isUnsignedDType(common);
  // Integers wrap at their width, as NumPy's do (it only warns).
  if (op == ast::Operator::Add)
    return {type, {builder.create<arith::AddIOp>(l, a, b)}};
  if (op == ast::Operator::Sub)
    return {type, {builder.create<arith::SubIOp>(l, a, b)}};
  if (op == ast::Operator::Mult)
    return {type, {builder.create<arith::MulIOp>(l, a, b)}};
  if (op == ast::Operator::FloorDiv || op == ast::Operator::Mod)
    return {type, {numpyIntDivMod(op, a, b, isUnsigned)}};
  if (Value r = bitwise(op, a, b, l))
    return {type, {r}};
  if (op == ast::Operator::LShift || op == ast::Operator::RShift)
    return {type, {numpyShift(op, a, b, isUnsigned)}};
  if (op == ast::Operator::Pow) {
    if (!isUnsigned)
      check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, b, constOf(b.getType(), 0)),
            PyError("ValueError", "Integers to negative integer powers are not allowed."));
    Val wideA = castNumPy(Val{type, {a}}, isUnsigned ? DType::UInt64 : DType::Int64);
    Val wideB = castNumPy(Val{type, {b}}, isUnsigned ? DType::UInt64 : DType::Int64);
    module.declare("plait_rt_np_int_pow",
                   builder.getFunctionType({builder.getI64Type(), builder.getI64Type()},
                                           {builder.getI64Type()}));
    Value r = builder
                  .create<mlir::func::CallOp>(l, "plait_rt_np_int_pow",
                                              mlir::TypeRange{builder.getI64Type()},
                                              mlir::ValueRange{wideA.leaves[0], wideB.leaves[0]})
                  .getResult(0);
    return castNumPy(Val{Type::numpy(isUnsigned ? DType::UInt64 : DType::Int64), {r}}, common);
  }
  throw CompileError(CompileError::Kind::Unsupported, std::string("internal: NumPy int op ") + ast::spelling(op));
}

Value FunctionEmitter::numpyCompare(ast::Operator op, const Val &left, const Val &right,
                                    Location l) {
  using P = arith::CmpIPredicate;
  if (left.type.isFloating() || right.type.isFloating()) {
    // With a float involved NumPy compares in the promoted float type (a
    // Python float against float32 in float32).
    DType common = numpyCommonType(left.type, right.type).dtype;
    if (!isFloatDType(common))
      common = DType::Float64;
    Value a = castNumPy(left, common).leaves[0], b = castNumPy(right, common).leaves[0];
    return builder.create<arith::CmpFOp>(l, floatPredicate(op), a, b);
  }
  // Integers (and bools) compare exactly, whatever their types: widen to 64
  // bits; only uint64 against a signed value needs care.
  auto isU64 = [](const Type &t) { return t.isNumPy() && t.dtype == DType::UInt64; };
  auto wide = [&](const Val &v) {
    if (isU64(v.type))
      return v.leaves[0];
    if (v.type.isNumPy())
      return castNumPy(v, DType::Int64).leaves[0];
    return convert(v, Type::integer()).leaves[0];
  };
  Value a = wide(left), b = wide(right);
  bool ua = isU64(left.type), ub = isU64(right.type);
  P signedP = intPredicate(op, /*isUnsigned=*/false);
  if (!ua && !ub)
    return builder.create<arith::CmpIOp>(l, signedP, a, b);
  P unsignedP = intPredicate(op, /*isUnsigned=*/true);
  if (ua && ub)
    return builder.create<arith::CmpIOp>(l, unsignedP, a, b);
  // One side may be negative: it is below every uint64; otherwise compare
  // the bits unsigned.
  Value zero = constInt(0);
  Value aNegative = ua ? constInt(0, 1) : builder.create<arith::CmpIOp>(l, P::slt, a, zero).getResult();
  Value bNegative = ub ? constInt(0, 1) : builder.create<arith::CmpIOp>(l, P::slt, b, zero).getResult();
  Value bitsResult = builder.create<arith::CmpIOp>(l, unsignedP, a, b);
  // Exactly one of them can be negative (the other is uint64).
  bool trueWhenLeftNegative = op == ast::Operator::NotEq || op == ast::Operator::Lt || op == ast::Operator::LtE;
  bool trueWhenRightNegative = op == ast::Operator::NotEq || op == ast::Operator::Gt || op == ast::Operator::GtE;
  Value r = builder.create<arith::SelectOp>(l, aNegative, constInt(trueWhenLeftNegative ? 1 : 0, 1), bitsResult);
  return builder.create<arith::SelectOp>(l, bNegative, constInt(trueWhenRightNegative ? 1 : 0, 1), r);
}

std::pair<Value, Value> FunctionEmitter::complexParts(const Val &value, const Type &as) {
  Val c = as.isNumPy() ? castNumPy(value, as.dtype) : convert(value, Type::complex());
  return {c.leaves[0], c.leaves[1]};
}

std::pair<Value, Value>
FunctionEmitter::callComplexRuntime(const char *name, std::vector<Value> args, mlir::Type part,
                                    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  // The two parts come back through a stack pair.
  Location l = here();
  Value &complexOut = part.isF32() ? complexOutF32 : complexOutF64;
  if (!complexOut) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(entry);
    complexOut = builder.create<mlir::memref::AllocaOp>(l, mlir::MemRefType::get({2}, part));
  }
  llvm::SmallVector<mlir::Type> inputs;
  for (Value a : args)
    inputs.push_back(a.getType());
  inputs.push_back(builder.getIndexType());
  module.declare(name, builder.getFunctionType(inputs, {builder.getI32Type()}));
  args.push_back(outPointer(complexOut));
  Value status = builder.create<mlir::func::CallOp>(l, name, mlir::TypeRange{builder.getI32Type()}, args)
                     .getResult(0);
  if (codes.size())
    checkRuntime(status, codes);
  return {builder.create<mlir::memref::LoadOp>(l, complexOut, mlir::ValueRange{constIndexValue(0)}),
          builder.create<mlir::memref::LoadOp>(l, complexOut, mlir::ValueRange{constIndexValue(1)})};
}

Val FunctionEmitter::complexArith(const SExpr &node, ast::Operator op, const Val &left,
                                  const Val &right) {
  // Real operands become complex (x + 0j) first, as CPython (up to 3.13)
  // and NumPy do (CPython 3.14's rules below); NumPy's rules when a NumPy
  // scalar is involved.
  Location l = loc(node);
  Type type = complexResultType(left.type, right.type);
  bool numpy = type.isNumPy();
  auto add = [&](Value x, Value y) { return builder.create<arith::AddFOp>(l, x, y).getResult(); };
  auto sub = [&](Value x, Value y) { return builder.create<arith::SubFOp>(l, x, y).getResult(); };
  auto mul = [&](Value x, Value y) { return builder.create<arith::MulFOp>(l, x, y).getResult(); };
  // CPython 3.14 (C99 Annex G): a real operand stays real, _Py_cr_* and
  // _Py_rc_*, and a product or quotient that comes out nan+nanj recovers
  // its infinities and zeros. Sampled from the interpreter (_messages.py).
  bool annexG = !numpy && module.options.message("complex_real_operands") == "real";
  if (annexG && (!left.type.isComplex() || !right.type.isComplex())) {
    bool realLeft = !left.type.isComplex();
    auto [zr, zi] = complexParts(realLeft ? right : left, type);
    Value x = convert(realLeft ? left : right, Type::floating()).leaves[0];
    if (op == ast::Operator::Add)
      return {type, {add(zr, x), zi}};
    if (op == ast::Operator::Sub)
      return realLeft ? Val{type, {sub(x, zr), builder.create<arith::NegFOp>(l, zi).getResult()}}
                      : Val{type, {sub(zr, x), zi}};
    if (op == ast::Operator::Mult)
      return {type, {mul(zr, x), mul(zi, x)}};
    if (op == ast::Operator::Div) {
      PyError byZero = errorCode("ZeroDivisionError", "complex_division_by_zero");
      if (realLeft) {
        auto [re, im] = callComplexRuntime("plait_rt_py_real_complex_div", {x, zr, zi},
                                           zr.getType(), {{1, byZero}});
        return {type, {re, im}};
      }
      check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, x, constFloat(0.0)),
            byZero);
      return {type,
              {builder.create<arith::DivFOp>(l, zr, x), builder.create<arith::DivFOp>(l, zi, x)}};
    }
  }
  auto [ar, ai] = complexParts(left, type);
  auto [br, bi] = complexParts(right, type);
  if (annexG && op == ast::Operator::Mult) {
    auto [re, im] =
        callComplexRuntime("plait_rt_py_complex_mul_annex_g", {ar, ai, br, bi}, ar.getType(), {});
    return {type, {re, im}};
  }
  if (op == ast::Operator::Add)
    return {type, {add(ar, br), add(ai, bi)}};
  if (op == ast::Operator::Sub)
    return {type, {sub(ar, br), sub(ai, bi)}};
  if (op == ast::Operator::Mult) {
    Value re = sub(mul(ar, br), mul(ai, bi)), im = add(mul(ar, bi), mul(ai, br));
    if (!(numpy && inUfuncLoop && plait::hostHasFMA()))
      return {type, {re, im}};
    // NumPy's SIMD multiply loop (where the CPU has FMA): one product of
    // each part fused, fma(ar, br, -(ai * bi)) and fma(ar, bi, ai * br);
    // over one run walked backwards, some NumPy versions take its plain C
    // loop (complex64 in 2.3 and 2.4).
    auto fma = [&](Value x, Value y, Value z) {
      return builder.create<mlir::math::FmaOp>(l, x, y, z).getResult();
    };
    Value fusedRe = fma(ar, br, builder.create<arith::NegFOp>(l, mul(ai, bi)));
    Value fusedIm = fma(ar, bi, mul(ai, br));
    if (plait::numpyBackwardMultiplyAsForward(type.dtype == DType::Complex64) || !ufuncBackwards)
      return {type, {fusedRe, fusedIm}};
    return {type,
            {builder.create<arith::SelectOp>(l, ufuncBackwards, re, fusedRe),
             builder.create<arith::SelectOp>(l, ufuncBackwards, im, fusedIm)}};
  }
  if (op == ast::Operator::Div) {
    // CPython raises on a zero divisor; NumPy gives inf/nan. Their scaled
    // (Smith) algorithms also round differently: both are ported.
    auto [re, im] =
        numpy ? callComplexRuntime(type.dtype == DType::Complex64 ? "plait_rt_np_complex_div_f32"
                                                                  : "plait_rt_np_complex_div",
                                   {ar, ai, br, bi}, ar.getType(), {})
              : callComplexRuntime(
                    annexG ? "plait_rt_py_complex_div_annex_g" : "plait_rt_py_complex_div",
                    {ar, ai, br, bi}, ar.getType(),
                    {{1, errorCode("ZeroDivisionError", "complex_division_by_zero")}});
    return {type, {re, im}};
  }
  throw CompileError(CompileError::Kind::Unsupported, std::string("internal: complex op ") + ast::spelling(op));
}

Value FunctionEmitter::complexCompare(ast::Operator op, const Val &left, const Val &right,
                                      const SExpr &node) {
  Location l = loc(node);
  Value equal;
  Type common = complexResultType(left.type, right.type);
  if (!common.isNumPy() && !(left.type.isComplex() && right.type.isComplex())) {
    // CPython: z == x for a real x compares z.real with x (exactly, for
    // ints) and needs z.imag == 0.
    const Val &z = left.type.isComplex() ? left : right;
    const Val &x = left.type.isComplex() ? right : left;
    Value real = compare(ast::Operator::Eq, Val{Type::floating(), {z.leaves[0]}}, x, node);
    Value imagZero = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, z.leaves[1], constFloat(0.0));
    equal = builder.create<arith::AndIOp>(l, real, imagZero);
  } else {
    auto [ar, ai] = complexParts(left, common);
    auto [br, bi] = complexParts(right, common);
    equal = builder.create<arith::AndIOp>(
        l, builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, ar, br),
        builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, ai, bi));
  }
  if (op == ast::Operator::Eq)
    return equal;
  return builder.create<arith::XOrIOp>(l, equal, constInt(1, 1)); // NotEq (the typer allows no other)
}

Value FunctionEmitter::complexAbs(const Val &z, bool checkOverflow) {
  Location l = here();
  if (!checkOverflow)
    return numpyComplexAbs(z.leaves[0], z.leaves[1], l);
  // CPython: hypot (inf if either part is, nan if one is nan), and
  // OverflowError when a finite number's magnitude overflows.
  Value r = callLibm("hypot", {z.leaves[0], z.leaves[1]});
  auto finite = [&](Value v) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::ONE,
                                         builder.create<mlir::math::AbsFOp>(l, v), constFloat(HUGE_VAL))
        .getResult();
  };
  Value rInf = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, r, constFloat(HUGE_VAL));
  Value inputsFinite = builder.create<arith::AndIOp>(l, finite(z.leaves[0]), finite(z.leaves[1]));
  check(builder.create<arith::AndIOp>(l, rInf, inputsFinite),
        errorCode("OverflowError", "complex_abs_overflow"));
  return r;
}

Value FunctionEmitter::numpyComplexAbs(Value re, Value im, Location l) {
  // NumPy's absolute of complex128 (loops_unary_complex): the larger part
  // times sqrt(fma(r, r, 1)), r the ratio of the smaller part to it; an
  // infinite part makes inf, else a NaN part NaN. hypot differs in the
  // last bits.
  auto select = [&](Value condition, Value a, Value b) {
    return builder.create<arith::SelectOp>(l, condition, a, b).getResult();
  };
  auto equal = [&](Value a, Value b) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, a, b).getResult();
  };
  auto isNaN = [&](Value a) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, a, a).getResult();
  };
  mlir::Type part = re.getType();
  Value inf = constFloatOf(part, HUGE_VAL), nan = constFloatOf(part, NAN),
        zero = constFloatOf(part, 0.0);
  re = builder.create<mlir::math::AbsFOp>(l, re);
  im = builder.create<mlir::math::AbsFOp>(l, im);
  Value reInf = equal(re, inf), imInf = equal(im, inf);
  im = select(reInf, inf, im);
  re = select(imInf, inf, re);
  Value reNaN = isNaN(re), imNaN = isNaN(im);
  im = select(reNaN, nan, im);
  re = select(imNaN, nan, re);
  Value reLarger = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, re, im);
  Value larger = select(reLarger, re, im);
  Value smaller = select(reLarger, im, re);
  Value divide = builder.create<arith::AndIOp>(
      l, builder.create<arith::XOrIOp>(l, equal(larger, zero), constInt(1, 1)),
      builder.create<arith::XOrIOp>(l, equal(smaller, inf), constInt(1, 1)));
  Value ratio = select(divide, builder.create<arith::DivFOp>(l, smaller, larger), zero);
  Value scale = builder.create<mlir::math::SqrtOp>(
      l, builder.create<mlir::math::FmaOp>(l, ratio, ratio, constFloatOf(part, 1.0)));
  return builder.create<arith::MulFOp>(l, scale, larger);
}

} // namespace plait::frontend::detail
