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
  // range then, for empty arrays too).
  for (size_t i = 0; i < operands.size(); ++i)
    if (anyArray && operands[i].type.kind != Type::Kind::Array)
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

Val FunctionEmitter::emitIntrinsicCall(const SExpr &node, const std::string &name) {
  Type type = spec.typeOf(node);
  if (name == "raise_if") { // (condition, "Class", "message {0}", ints...)
    std::vector<const SExpr *> args = ast::args(node).rest();
    Value failed = truth(emitExpr(*args[0]));
    llvm::SmallVector<Value> values;
    for (size_t i = 3; i < args.size(); ++i) {
      // Floats travel as their bits (the message shows them with {k!f}).
      Val value = emitExpr(*args[i]);
      if (value.type.isFloating()) {
        Value bits = castNumPy(value, DType::Float64).leaves[0];
        values.push_back(builder.create<arith::BitcastOp>(loc(node), builder.getI64Type(), bits));
      } else {
        values.push_back(convert(value, Type::integer()).leaves[0]);
      }
    }
    checkWithArgs(failed, PyError(ast::value(*args[1]).text, ast::value(*args[2]).text), values);
    return {type, {}};
  }
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
  // Computed in double, or in float by a "<name>f" function.
  bool single = false;
  libmArity(name, single);
  DType computes = single ? DType::Float32 : DType::Float64;
  std::vector<Value> arguments;
  for (const SExpr *arg : ast::args(node).rest()) {
    Val value = emitExpr(*arg);
    arguments.push_back(value.type.isNumPy() || computes == DType::Float32
                            ? castNumPy(value, computes).leaves[0]
                            : convert(value, Type::floating()).leaves[0]);
  }
  // sqrt is exactly rounded everywhere: LLVM's intrinsic (it vectorises).
  Value result = name == "sqrt"
                     ? builder.create<mlir::math::SqrtOp>(loc(node), arguments[0]).getResult()
                     : callLibm(name.c_str(), arguments);
  Val computed{Type::numpy(computes), {result}};
  if (!type.isNumPy())
    return {type, computed.leaves};
  // float16 rounds through float32, as NumPy's half loops compute.
  if (type.dtype == DType::Float16)
    computed = castNumPy(computed, DType::Float32);
  return castNumPy(computed, type.dtype);
}

} // namespace plait::frontend::detail
