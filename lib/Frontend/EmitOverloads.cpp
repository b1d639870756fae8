//===- EmitOverloads.cpp - ufunc loops and libm intrinsics ----------------===//
//
// The code of plait.overload's native forms: a ufunc is NumPy's broadcast
// loop over its operands calling the scalar kernel on each element, in the
// loop's dtypes; the libm intrinsics the kernels use are the C library's
// functions with IEEE results (NumPy raises no Python exceptions there);
// raise_if raises an implementation's error with NumPy's message.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

Val FunctionEmitter::emitUfuncCall(const SExpr &node) {
  const Specialization::UfuncCall &ufunc = spec.ufuncCalls.at(&node);
  Location l = loc(node);
  Type type = spec.typeOf(node);
  // An operand in its loop dtype. Python numbers are weak (NEP 50): an int
  // must fit the loop's type (np.where casts it as C does).
  auto toLoop = [&](const Val &value, size_t i) {
    return ufunc.checkPythonInts ? weakToNumPy(value, ufunc.inputs[i])
                                 : castNumPy(value, ufunc.inputs[i]);
  };
  auto apply = [&](llvm::ArrayRef<Val> elements) {
    std::vector<Val> arguments;
    for (size_t i = 0; i < elements.size(); ++i)
      arguments.push_back(toLoop(elements[i], i));
    return castNumPy(callSpecialization(*ufunc.kernel, arguments, l), ufunc.output);
  };
  std::vector<Val> operands;
  bool anyArray = false;
  for (size_t i = 0; i < ufunc.operands.size(); ++i) {
    operands.push_back(emitExpr(*ufunc.operands[i]));
    anyArray |= operands.back().type.kind == Type::Kind::Array;
  }
  // Scalars convert once, before the loop (NumPy checks a Python int's
  // range then, before the shapes, and for empty arrays too). With out=,
  // scalar operands run the array loop as well.
  bool arrayLoop = anyArray || ufunc.out;
  for (size_t i = 0; i < operands.size(); ++i)
    if (arrayLoop && operands[i].type.kind != Type::Kind::Array)
      operands[i] = toLoop(operands[i], i);
  if (!ufunc.out) {
    if (!anyArray)
      return apply(operands);
    return arrayElementwise(node, operands, type.dtype, type.ndim, apply);
  }
  // out=: the loop's result (its shape must be out's: NumPy does not
  // broadcast out), cast into out where `where` holds (every element
  // without it).
  Val out = emitExpr(*ufunc.out);
  Val where = ufunc.where ? emitExpr(*ufunc.where) : Val();
  // A where= array broadcasts with the operands, as NumPy's does.
  int ndim = 0; // the operands' broadcast (out must have its shape)
  for (const Val &operand : operands)
    if (operand.type.kind == Type::Kind::Array)
      ndim = std::max(ndim, operand.type.ndim);
  if (ufunc.where && where.type.kind == Type::Kind::Array)
    ndim = std::max(ndim, where.type.ndim);
  Val computed = arrayElementwise(node, operands, ufunc.output, ndim, apply, &out, nullptr,
                                  ufunc.where ? &where : nullptr);
  if (ndim > out.type.ndim) {
    // (The loop has raised NumPy's error: out lacks axes of the result.)
  } else if (!ufunc.where) {
    copyElements(computed, out, l);
  } else {
    Value mask = where.type.kind == Type::Kind::Array
                     ? broadcastTo(where, out.leaves[0], out.type.ndim, l)
                     : Value();
    forEachElement(out.leaves[0], out.type.ndim, [&](llvm::ArrayRef<Value> at) {
      Value chosen = mask ? truth(fromStorage(builder.create<mlir::memref::LoadOp>(l, mask, at),
                                              where.type.dtype, l))
                          : truth(where);
      Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, computed.leaves[0], at),
                                computed.type.dtype, l);
      Value fresh = storageOf(castNumPy(element, out.type.dtype), l);
      Value kept = builder.create<mlir::memref::LoadOp>(l, out.leaves[0], at);
      builder.create<mlir::memref::StoreOp>(
          l, builder.create<arith::SelectOp>(l, chosen, fresh, kept), out.leaves[0], at);
    });
    freeIfTemporary(where);
  }
  freeIfTemporary(computed);
  return out;
}

Val FunctionEmitter::stridedView(const SExpr &node) {
  // A view of the array's memory: its base buffer at its offset plus
  // `offset`, with the given sizes and strides (in elements).
  Type type = spec.typeOf(node);
  Location l = loc(node);
  std::vector<const SExpr *> args = ast::args(node).rest();
  Val array = emitExpr(*args[0]);
  Value offset = convert(emitExpr(*args[1]), Type::integer()).leaves[0];
  auto index = [&](Value i64) {
    return builder.create<arith::IndexCastOp>(l, builder.getIndexType(), i64).getResult();
  };
  auto components = [&](const SExpr &arg) {
    Val value = emitExpr(arg);
    llvm::SmallVector<mlir::OpFoldResult> out;
    for (int axis = 0; axis < type.ndim; ++axis) {
      if (value.type.kind == Type::Kind::Tuple) {
        Val element{value.type.elements[axis], {value.leaves[axis]}};
        out.push_back(index(convert(element, Type::integer()).leaves[0]));
        continue;
      }
      Value raw = builder.create<mlir::memref::LoadOp>(
          l, value.leaves[0], mlir::ValueRange{builder.create<arith::ConstantIndexOp>(l, axis)});
      out.push_back(
          index(convert(fromStorage(raw, value.type.dtype, l), Type::integer()).leaves[0]));
    }
    freeIfTemporary(value);
    return out;
  };
  llvm::SmallVector<mlir::OpFoldResult> sizes = components(*args[2]);
  llvm::SmallVector<mlir::OpFoldResult> strides = components(*args[3]);
  auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(l, array.leaves[0]);
  Value start = builder.create<arith::AddIOp>(l, metadata.getOffset(), index(offset));
  Value view = builder.create<mlir::memref::ReinterpretCastOp>(
      l, module.memrefType(type), metadata.getBaseBuffer(), mlir::OpFoldResult(start), sizes,
      strides);
  if (temporaries.erase(array.leaves[0])) // the view holds the reference now
    temporaries.insert(view);
  return {type, {view}};
}

Val FunctionEmitter::emitIntrinsicCall(const SExpr &node, const std::string &name) {
  Type type = spec.typeOf(node);
  if (name == "raise_if") { // (condition, "Class", "message {0}", ints...)
    std::vector<const SExpr *> args = ast::args(node).rest();
    Value failed = truth(emitExpr(*args[0]));
    llvm::SmallVector<Value> values;
    auto show = [&](const Val &value) {
      // Floats travel as their bits (the message shows them with {k!f}).
      if (value.type.isFloating()) {
        Value bits = castNumPy(value, DType::Float64).leaves[0];
        values.push_back(builder.create<arith::BitcastOp>(loc(node), builder.getI64Type(), bits));
      } else {
        values.push_back(convert(value, Type::integer()).leaves[0]);
      }
    };
    for (size_t i = 3; i < args.size(); ++i) {
      Val value = emitExpr(*args[i]);
      if (value.type.kind != Type::Kind::Tuple) {
        show(value);
        continue;
      }
      for (size_t k = 0; k < value.type.elements.size(); ++k)
        show(tupleElement(value, k));
    }
    checkWithArgs(
        failed,
        PyError(typer.constantAtom(spec, *args[1])->text, typer.constantAtom(spec, *args[2])->text),
        values);
    return {type, {}};
  }
  if (std::optional<Val> primitive = emitStrIntrinsic(node, name))
    return *primitive;
  if (name == "strided_view")
    return stridedView(node);
  if (name == "array_from_sequence")
    return arrayFromSequence(node);
  if (name.rfind("random_", 0) == 0) { // the runtime's per-thread legacy streams
    std::vector<Value> arguments;
    for (const SExpr *arg : ast::args(node).rest())
      arguments.push_back(convert(emitExpr(*arg), Type::integer()).leaves[0]);
    std::string runtime = "plait_rt_" + name;
    if (name == "random_seed") {
      callRuntime(runtime.c_str(), arguments, Type::integer(),
                  {{1, PyError("ValueError", "Seed must be between 0 and 2**32 - 1")}});
      return {type, {}};
    }
    return callRuntime(runtime.c_str(), arguments, type,
                       {{1, PyError("ValueError", "low >= high")}});
  }
  bool single = false;
  if (isComplexLibm(name, single)) {
    // The runtime's wrapper of the C function writes the result's parts.
    Val z = castNumPy(emitExpr(*ast::args(node).rest()[0]), DType::Complex128);
    Value out = stackBuffer(2);
    std::string runtime = "plait_rt_" + name;
    module.declare(runtime, builder.getFunctionType({builder.getF64Type(), builder.getF64Type(),
                                                     builder.getIndexType()},
                                                    {builder.getI32Type()}));
    builder.create<mlir::func::CallOp>(loc(node), runtime, mlir::TypeRange{builder.getI32Type()},
                                       mlir::ValueRange{z.leaves[0], z.leaves[1], outPointer(out)});
    llvm::SmallVector<Value, 2> parts;
    for (int64_t k = 0; k < 2; ++k) {
      Value bits = builder.create<mlir::memref::LoadOp>(loc(node), out,
                                                        mlir::ValueRange{constIndexValue(k)});
      parts.push_back(builder.create<arith::BitcastOp>(loc(node), builder.getF64Type(), bits));
    }
    Val computed{Type::numpy(DType::Complex128), parts};
    if (!type.isNumPy())
      return {type, parts};
    return castNumPy(computed, type.dtype);
  }
  // Computed in double, or in float by a "<name>f" function.
  libmArity(name, single);
  DType computes = single ? DType::Float32 : DType::Float64;
  std::vector<Value> arguments;
  for (const SExpr *arg : ast::args(node).rest()) {
    Val value = emitExpr(*arg);
    arguments.push_back(value.type.isNumPy() || computes == DType::Float32
                            ? castNumPy(value, computes).leaves[0]
                            : convert(value, Type::floating()).leaves[0]);
  }
  Value result = exactLibm(name, arguments, loc(node));
  if (!result)
    result = callLibm(name.c_str(), arguments);
  Val computed{Type::numpy(computes), {result}};
  if (!type.isNumPy())
    return {type, computed.leaves};
  // float16 rounds through float32, as NumPy's half loops compute.
  if (type.dtype == DType::Float16)
    computed = castNumPy(computed, DType::Float32);
  return castNumPy(computed, type.dtype);
}

Value FunctionEmitter::exactLibm(const std::string &name, llvm::ArrayRef<Value> x, Location l) {
  // Exactly rounded everywhere, so LLVM's operations give the C library's
  // results, and they vectorise where a call would not.
  // ("<name>f": the float version, of float32 arguments.)
  std::string base =
      x[0].getType().isF32() && name.back() == 'f' ? name.substr(0, name.size() - 1) : name;
  if (base == "sqrt")
    return builder.create<mlir::math::SqrtOp>(l, x[0]);
  if (base == "floor")
    return builder.create<mlir::math::FloorOp>(l, x[0]);
  if (base == "ceil")
    return builder.create<mlir::math::CeilOp>(l, x[0]);
  if (base == "trunc")
    return builder.create<mlir::math::TruncOp>(l, x[0]);
  if (base == "rint") // in the default rounding mode, to even
    return builder.create<mlir::math::RoundEvenOp>(l, x[0]);
  if (base == "round") // halves away from zero
    return builder.create<mlir::math::RoundOp>(l, x[0]);
  if (base == "fabs")
    return builder.create<mlir::math::AbsFOp>(l, x[0]);
  if (base == "copysign")
    return builder.create<mlir::math::CopySignOp>(l, x[0], x[1]);
  if (base == "ldexp")
    return scaleByPowerOfTwo(x[0], x[1], l);
  return nullptr;
}

Value FunctionEmitter::scaleByPowerOfTwo(Value x, Value k, Location l) {
  // ldexp(x, k) for a whole k held as a float: x * 2**k rounded once, as
  // C's: the first factors are exact (a power of two that keeps the value
  // normal, or overflows to inf), only the last one rounds, also to a
  // subnormal. Selects, no branches: it vectorises.
  mlir::FloatType type = x.getType().cast<mlir::FloatType>();
  bool single = type.isF32();
  int64_t maxExponent = single ? 127 : 1023, minExponent = single ? -126 : -1022;
  int64_t mantissa = single ? 23 : 52;
  // Down by 2**(minExponent + mantissa + 1): far from the subnormals still.
  int64_t downStep = minExponent + mantissa + 1;
  mlir::IntegerType bits = builder.getIntegerType(single ? 32 : 64);
  auto real = [&](double v) { return constFloatOf(type, v); };
  auto integer = [&](int64_t v) {
    return builder.create<arith::ConstantIntOp>(l, v, bits).getResult();
  };
  auto select = [&](Value c, Value a, Value b) {
    return builder.create<arith::SelectOp>(l, c, a, b).getResult();
  };
  auto cmp = [&](arith::CmpIPredicate p, Value a, Value b) {
    return builder.create<arith::CmpIOp>(l, p, a, b).getResult();
  };
  // A NaN k (and beyond +-3 * the exponent range, the same result) is
  // clamped before the conversion, which would be poison otherwise.
  double limit = 3.0 * double(maxExponent + mantissa);
  Value inRange = builder.create<arith::AndIOp>(
      l, builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGE, k, real(-limit)),
      builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLE, k, real(limit)));
  Value clamped =
      select(inRange, k,
             select(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, k, real(0.0)),
                    real(limit), real(-limit)));
  Value n = builder.create<arith::FPToSIOp>(l, bits, clamped);
  Value y = x;
  for (int step = 0; step < 2; ++step) {
    Value up = cmp(arith::CmpIPredicate::sgt, n, integer(maxExponent));
    y = builder.create<arith::MulFOp>(l, y,
                                      select(up, real(std::ldexp(1.0, maxExponent)), real(1.0)));
    n = builder.create<arith::SubIOp>(l, n, select(up, integer(maxExponent), integer(0)));
  }
  for (int step = 0; step < 2; ++step) {
    Value down = cmp(arith::CmpIPredicate::slt, n, integer(minExponent));
    y = builder.create<arith::MulFOp>(l, y,
                                      select(down, real(std::ldexp(1.0, downStep)), real(1.0)));
    n = builder.create<arith::SubIOp>(l, n, select(down, integer(downStep), integer(0)));
  }
  n = select(cmp(arith::CmpIPredicate::sgt, n, integer(maxExponent)), integer(maxExponent), n);
  n = select(cmp(arith::CmpIPredicate::slt, n, integer(minExponent)), integer(minExponent), n);
  Value biased = builder.create<arith::AddIOp>(l, n, integer(maxExponent));
  Value scale = builder.create<arith::BitcastOp>(
      l, type, builder.create<arith::ShLIOp>(l, biased, integer(mantissa)));
  return builder.create<arith::MulFOp>(l, y, scale);
}

} // namespace plait::frontend::detail
