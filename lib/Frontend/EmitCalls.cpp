//===- EmitCalls.cpp - calls ----------------------------------------------===//
//
// Calls: math, builtins, NumPy's constructors, and other jitted functions.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "llvm/ADT/StringSet.h"

namespace plait::frontend::detail {

Val FunctionEmitter::emitCall(const SExpr &node) {
  auto unpacked = spec.unpackedCalls.find(&node);
  if (unpacked != spec.unpackedCalls.end()) // f(*t): f(t[0], t[1], ...)
    return emitExpr(*unpacked->second);
  const SExpr &callee = ast::func(node);
  // Calls typing resolved to jitted code: plait.overload implementations
  // and ufunc loops first (they may stand for NumPy functions or methods).
  if (spec.ufuncCalls.count(&node))
    return emitUfuncCall(node);
  if (spec.jitCalls.count(&node))
    return emitJitCall(node);
  if (spec.dictMethods.count(&node)) // d.get(k, default)
    return emitDictGet(node);
  auto listMethod = spec.listMethods.find(&node);
  if (listMethod != spec.listMethods.end())
    return emitListMethod(node, listMethod->second);
  auto method = spec.arrayMethods.find(&node);
  if (method != spec.arrayMethods.end())
    return emitNumpy(node, method->second);
  std::string numpyName = typer.numpyFunction(spec, callee);
  if (!numpyName.empty())
    return emitNumpy(node, numpyName);
  if (ast::is(callee, ast::NodeKind::Attribute) && ast::attr(callee) == "conjugate" &&
      spec.typeOf(ast::value(callee)).isComplex()) {
    Val z = emitExpr(ast::value(callee));
    return {z.type, {z.leaves[0], builder.create<arith::NegFOp>(loc(node), z.leaves[1])}};
  }
  std::string mathName;
  if (ast::is(callee, ast::NodeKind::Attribute))
    mathName = ast::attr(callee);
  NameBinding binding;
  if (ast::is(callee, ast::NodeKind::Name)) {
    binding = typer.resolve(spec, ast::id(callee));
    if (binding.kind == NameBinding::Kind::MathFunction)
      mathName = binding.name;
    if (binding.kind == NameBinding::Kind::Intrinsic)
      return emitIntrinsicCall(node, binding.name);
    if (binding.kind == NameBinding::Kind::Rendezvous) {
      std::vector<Value> args;
      const Type kinds[] = {Type::integer(), Type::integer(), Type::floating()};
      size_t i = 0;
      for (const SExpr *arg : ast::args(node).rest())
        args.push_back(convert(emitExpr(*arg), kinds[i++]).leaves[0]);
      module.declare("plait_test_rendezvous",
                     builder.getFunctionType({builder.getI64Type(), builder.getI64Type(),
                                              builder.getF64Type()},
                                             {builder.getI32Type()}));
      Value met = builder
                      .create<mlir::func::CallOp>(loc(node), "plait_test_rendezvous",
                                                  mlir::TypeRange{builder.getI32Type()}, args)
                      .getResult(0);
      return {Type::boolean(), {builder.create<arith::CmpIOp>(
                                   loc(node), arith::CmpIPredicate::ne, met, constInt(0, 32))}};
    }
  }
  if (!mathName.empty()) {
    std::vector<Val> args;
    for (const SExpr *arg : ast::args(node).rest())
      args.push_back(emitExpr(*arg));
    return emitMath(node, mathName, std::move(args));
  }
  return emitBuiltin(node, ast::id(callee));
}

Value FunctionEmitter::quietArgument(const MathFunctionInfo &info, Value x, Location l) {
  if (info.arity != 1 || std::isnan(info.quietLow))
    return nullptr;
  auto compare = [&](arith::CmpFPredicate predicate, double bound) {
    return builder.create<arith::CmpFOp>(l, predicate, x, constFloat(bound)).getResult();
  };
  // (Ordered comparisons: a NaN argument is never quiet.)
  if (info.quietLow == -HUGE_VAL && info.quietHigh == HUGE_VAL)
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::ORD, x, x);
  if (info.quietLow == -HUGE_VAL)
    return compare(arith::CmpFPredicate::OLE, info.quietHigh);
  if (info.quietHigh == HUGE_VAL)
    return compare(arith::CmpFPredicate::OGE, info.quietLow);
  return builder.create<arith::AndIOp>(l, compare(arith::CmpFPredicate::OGE, info.quietLow),
                                       compare(arith::CmpFPredicate::OLE, info.quietHigh));
}

Val FunctionEmitter::emitMath(const SExpr &node, const std::string &name,
                              std::vector<Val> args) {
  Location l = loc(node);
  const MathFunctionInfo *info = lookupMathFunction(name);
  PyError domain = errorCode("ValueError", "math_domain");
  // Integer-valued functions keep int arguments exact.
  // (NumPy's integers have no __floor__: math.floor converts them to float.)
  if ((name == "floor" || name == "ceil" || name == "trunc") &&
      !args[0].type.isFloating() && !args[0].type.isNumPy())
    return convert(args[0], Type::integer());
  std::vector<Value> x;
  for (Val &arg : args)
    x.push_back(convert(arg, Type::floating()).leaves[0]);
  auto isNan = [&](Value v) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, v, v).getResult();
  };
  auto isInf = [&](Value v) {
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ,
                                         builder.create<mlir::math::AbsFOp>(l, v),
                                         constFloat(HUGE_VAL)).getResult();
  };
  // A domain error of argument k: CPython 3.14's message names the function's
  // domain and shows the argument (as a float: {0!f}), but a Python int's
  // for the log functions; earlier versions say "math domain error".
  auto domainError = [&](Value failed, size_t k) {
    bool intLog = (name == "log" || name == "log2" || name == "log10") &&
                  !args[k].type.isFloating() && !args[k].type.isNumPy();
    PyError error = errorCode("ValueError", intLog ? "math_domain_log_int" : "math_domain_" + name);
    Value bits = builder.create<arith::BitcastOp>(l, builder.getI64Type(), x[k]);
    checkWithArgs(failed, error, {bits});
  };
  auto logDomain = [&](size_t k, double bound) {
    // CPython's loghelper: non-positive arguments are a domain error.
    domainError(
        builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLE, x[k], constFloat(bound)), k);
  };
  if (name == "sqrt") {
    domainError(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, x[0], constFloat(0.0)),
                0);
    return {Type::floating(), {builder.create<mlir::math::SqrtOp>(l, x[0])}};
  }
  if (name == "fabs")
    return {Type::floating(), {builder.create<mlir::math::AbsFOp>(l, x[0])}};
  if (name == "floor")
    return floatToInt(x[0], "plait_rt_float_floor_to_int");
  if (name == "ceil")
    return floatToInt(x[0], "plait_rt_float_ceil_to_int");
  if (name == "trunc")
    return floatToInt(x[0], "plait_rt_float_to_int");
  if (name == "copysign")
    return {Type::floating(), {builder.create<mlir::math::CopySignOp>(l, x[0], x[1])}};
  if (name == "isnan")
    return {Type::boolean(), {isNan(x[0])}};
  if (name == "isinf")
    return {Type::boolean(), {isInf(x[0])}};
  if (name == "isfinite")
    return {Type::boolean(),
            {builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::ONE,
                                           builder.create<mlir::math::AbsFOp>(l, x[0]),
                                           constFloat(HUGE_VAL))}};
  if (name == "degrees")
    // CPython: radToDeg * x with radToDeg = 180 / pi (not x / degToRad).
    return {Type::floating(), {builder.create<arith::MulFOp>(l, constFloat(180.0 / M_PI), x[0])}};
  if (name == "radians")
    return {Type::floating(), {builder.create<arith::MulFOp>(l, constFloat(M_PI / 180.0), x[0])}};
  if (name == "pow") {
    // math.pow reports what ** raises as ValueError/OverflowError.
    PyError range = errorCode("OverflowError", "math_range");
    return callRuntimeFloat("plait_rt_float_pow", {x[0], x[1]},
                            {{PLAIT_NUMERIC_ZERO_POW_NEGATIVE, domain},
                             {PLAIT_NUMERIC_POW_COMPLEX, domain},
                             {PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW, domain},
                             {PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, range}});
  }
  if (name == "log" || name == "log2" || name == "log10") {
    logDomain(0, 0.0);
    Value r = callLibm(name.c_str(), {x[0]});
    if (x.size() == 2) {
      logDomain(1, 0.0);
      Value base = callLibm("log", {x[1]});
      check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, base, constFloat(0.0)),
            errorCode("ZeroDivisionError", "float_truediv_by_zero"));
      r = builder.create<arith::DivFOp>(l, r, base);
    }
    return {Type::floating(), {r}};
  }
  if (name == "log1p") {
    logDomain(0, -1.0);
    return {Type::floating(), {callLibm("log1p", {x[0]})}};
  }
  // The generic rule of CPython's math_1/math_2: NaN from non-NaN input is a
  // domain error; infinity from finite input overflows (or is a domain error).
  // One test on the common path. Where a range of quiet arguments is known
  // it tests the argument, before the call: each branch then makes its own
  // call, and only the checked one keeps the argument past it (in a loop,
  // the argument of a call tested after it is spilled to the stack and
  // reloaded every iteration). The checked branch classifies the arguments
  // before its call, so the two calls stay apart. Without such a range the
  // test is of the result: errors need a NaN or an infinity.
  Block *done = newBlock();
  done->addArgument(builder.getF64Type(), l);
  Value quiet = quietArgument(*info, x[0], l);
  Value inputNan, inputInf;
  auto classifyArguments = [&] {
    inputNan = isNan(x[0]);
    inputInf = isInf(x[0]);
    for (size_t k = 1; k < x.size(); ++k) {
      inputNan = builder.create<arith::OrIOp>(l, inputNan, isNan(x[k]));
      inputInf = builder.create<arith::OrIOp>(l, inputInf, isInf(x[k]));
    }
  };
  Value r;
  if (quiet) {
    Block *unchecked = newBlock(), *checked = newBlock();
    builder.create<mlir::cf::CondBranchOp>(l, quiet, unchecked, checked);
    startBlock(unchecked);
    branch(done, callLibm(info->libm, x));
    startBlock(checked);
    classifyArguments();
    r = callLibm(info->libm, x);
  } else {
    r = callLibm(info->libm, x);
    Block *checks = newBlock();
    Value special = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UGE,
                                                  builder.create<mlir::math::AbsFOp>(l, r),
                                                  constFloat(HUGE_VAL));
    builder.create<mlir::cf::CondBranchOp>(l, special, checks, mlir::ValueRange{}, done,
                                           mlir::ValueRange{r});
    startBlock(checks);
    classifyArguments();
  }
  Value one = constInt(1, 1);
  Value nanFromNumbers =
      builder.create<arith::AndIOp>(l, isNan(r), builder.create<arith::XOrIOp>(l, inputNan, one));
  static const llvm::StringSet<> namedDomains = {"acos", "asin", "acosh", "atanh",
                                                 "sin",  "cos",  "tan"};
  if (namedDomains.contains(name))
    domainError(nanFromNumbers, 0);
  else
    check(nanFromNumbers, domain);
  Value finiteInput = builder.create<arith::XOrIOp>(
      l, builder.create<arith::OrIOp>(l, inputNan, inputInf), one);
  Value infFromFinite = builder.create<arith::AndIOp>(l, isInf(r), finiteInput);
  if (info->canOverflow)
    check(infFromFinite, errorCode("OverflowError", "math_range"));
  else if (namedDomains.contains(name)) // atanh(1.0)
    domainError(infFromFinite, 0);
  else
    check(infFromFinite, domain);
  branch(done, r);
  startBlock(done);
  return {Type::floating(), {done->getArgument(0)}};
}

Val FunctionEmitter::emitBuiltin(const SExpr &node, const std::string &name) {
  Location l = loc(node);
  Type type = spec.typeOf(node);
  if (name == "print")
    return emitPrint(node);
  if (name == "abs" && type.kind == Type::Kind::Array) // ndarray.__abs__ is np.abs
    return emitAbsolute(node);
  std::vector<Val> args;
  for (const SExpr *arg : ast::args(node).rest())
    args.push_back(emitExpr(*arg));
  if (name == "abs" && args[0].type.isComplex() && !args[0].type.isNumPy())
    return {type, {complexAbs(args[0], /*checkOverflow=*/true)}};
  if (name == "abs" && args[0].type.isComplex()) // numpy.complex128.__abs__: hypot, no error
    return {type,
            {callLibm(args[0].type.dtype == DType::Complex64 ? "hypotf" : "hypot",
                      {args[0].leaves[0], args[0].leaves[1]})}};
  if (name == "abs" && args[0].type.isNumPy())
    return absoluteOf(args[0], l);
  if (name == "complex") {
    if (args.empty())
      return {type, {constFloat(0.0), constFloat(0.0)}};
    if (args.size() == 1)
      return convert(args[0], type);
    return {type, {convert(args[0], Type::floating()).leaves[0], convert(args[1], Type::floating()).leaves[0]}};
  }
  if (name == "abs") {
    if (args[0].type.kind == Type::Kind::Float)
      return {type, {builder.create<mlir::math::AbsFOp>(l, args[0].leaves[0])}};
    Value v = convert(args[0], Type::integer()).leaves[0];
    Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, v, constInt(0));
    Value negated = intArith(ast::Operator::Sub, constInt(0), v).leaves[0];
    return {type, {builder.create<arith::SelectOp>(l, negative, negated, v)}};
  }
  if (name == "min" || name == "max") {
    std::vector<Val> values;
    if (args.size() == 1) {
      size_t offset = 0;
      for (const Type &t : args[0].type.elements) {
        values.push_back(Val{t, {args[0].leaves[offset]}});
        offset += t.numLeaves();
      }
    } else {
      values = args;
    }
    return minMax(node, name == "min", values, type);
  }
  if (name == "round" && args.size() == 2 && args[1].type.kind != Type::Kind::None)
    return roundTo(args[0], convert(args[1], Type::integer()).leaves[0], l);
  if (name == "round") {
    if (!args[0].type.isFloating())
      return convert(args[0], Type::integer());
    args[0] = convert(args[0], Type::floating());
    module.declare("plait_rt_round_half_even",
                   builder.getFunctionType({builder.getF64Type()}, {builder.getF64Type()}));
    Value rounded = builder
                        .create<mlir::func::CallOp>(l, "plait_rt_round_half_even",
                                                    mlir::TypeRange{builder.getF64Type()},
                                                    mlir::ValueRange{args[0].leaves[0]})
                        .getResult(0);
    return floatToInt(rounded, "plait_rt_float_to_int");
  }
  if (name == "int") {
    if (args.empty())
      return {type, {constInt(0)}};
    if (args[0].type.isFloating())
      return floatToInt(convert(args[0], Type::floating()).leaves[0], "plait_rt_float_to_int");
    return convert(args[0], Type::integer());
  }
  if (name == "float") {
    if (args.empty())
      return {type, {constFloat(0.0)}};
    return convert(args[0], Type::floating());
  }
  if (name == "bool") {
    if (args.empty())
      return {type, {constInt(0, 1)}};
    return {type, {truth(args[0])}};
  }
  if (name == "str") // str() and str(s) of a str: the typer's (others are plait.overload's)
    return args.empty() ? Val{type, {}} : args[0];
  if (name == "divmod") {
    if (type.elements[0].isNumPy()) // NumPy's rules: no ZeroDivisionError
      return {type, {numpyArith(node, ast::Operator::FloorDiv, args[0], args[1]).leaves[0],
                     numpyArith(node, ast::Operator::Mod, args[0], args[1]).leaves[0]}};
    if (type.elements[0].kind == Type::Kind::Float) {
      Value a = convert(args[0], Type::floating()).leaves[0];
      Value b = convert(args[1], Type::floating()).leaves[0];
      if (!f64Out)
        f64Out = alloca(builder.getF64Type());
      Value second = alloca(builder.getF64Type());
      module.declare("plait_rt_float_divmod",
                     builder.getFunctionType({builder.getF64Type(), builder.getF64Type(),
                                              builder.getIndexType(), builder.getIndexType()},
                                             {builder.getI32Type()}));
      Value status = builder
                         .create<mlir::func::CallOp>(
                             l, "plait_rt_float_divmod", mlir::TypeRange{builder.getI32Type()},
                             mlir::ValueRange{a, b, outPointer(f64Out), outPointer(second)})
                         .getResult(0);
      checkRuntime(status, {{PLAIT_NUMERIC_FLOAT_DIVMOD_BY_ZERO,
                             errorCode("ZeroDivisionError", "float_divmod_by_zero")}});
      return {type, {builder.create<mlir::memref::LoadOp>(l, f64Out),
                     builder.create<mlir::memref::LoadOp>(l, second)}};
    }
    Value a = convert(args[0], Type::integer()).leaves[0];
    Value b = convert(args[1], Type::integer()).leaves[0];
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, b, constInt(0)),
          errorCode("ZeroDivisionError", "int_divmod_by_zero"));
    Val q = intArith(ast::Operator::FloorDiv, a, b);
    Val r = intArith(ast::Operator::Mod, a, b);
    return {type, {q.leaves[0], r.leaves[0]}};
  }
  if (name == "pow") {
    if (args.size() == 3) {
      std::vector<Value> ints;
      for (Val &arg : args)
        ints.push_back(convert(arg, Type::integer()).leaves[0]);
      return callRuntimeInt(
          "plait_rt_int_powmod", ints,
          {{PLAIT_NUMERIC_POWMOD_ZERO_MODULUS, errorCode("ValueError", "powmod_zero")},
           {PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT,
            errorCode("ValueError", "negative_int_exponent")}});
    }
    return emitBinary(node, ast::Operator::Pow, args[0], args[1]);
  }
  if (name == "len") {
    if (args[0].type.kind == Type::Kind::Array)
      return {type, {dimension(args[0].leaves[0], 0)}};
    if (args[0].type.isListBox() || args[0].type.kind == Type::Kind::Dict) {
      Value length = listLength(args[0], loc(node)); // (all keep it in word 0)
      freeIfTemporary(args[0]);
      return {type, {length}};
    }
    if (args[0].type.kind == Type::Kind::String) { // its code points
      const std::string &text = args[0].type.text;
      int64_t points = std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80; // (not a continuation byte)
      });
      return {type, {constInt(points)}};
    }
    return {type, {constInt(static_cast<int64_t>(args[0].type.elements.size()))}};
  }
  throw std::logic_error("internal: the typer let " + name + "() through");
}

Val FunctionEmitter::roundTo(const Val &x, Value ndigits, Location l) {
  const Type &t = x.type;
  if (t.kind == Type::Kind::Float)
    return callRuntimeFloat("plait_rt_float_round", {x.leaves[0], ndigits},
                            {{PLAIT_NUMERIC_ROUND_OVERFLOW, errorCode("OverflowError", "round_overflow")}});
  if (!t.isNumPy())
    return callRuntimeInt("plait_rt_int_round", {convert(x, Type::integer()).leaves[0], ndigits},
                          {{PLAIT_NUMERIC_INT_OVERFLOW, errorCode("OverflowError", "int_overflow")}});
  // NumPy's rounding: scale, rint, unscale in the float's own precision;
  // integers round through float64 when ndigits < 0 and are kept otherwise.
  bool f32 = t.dtype == DType::Float32;
  Val wide = f32 ? x : castNumPy(x, DType::Float64);
  Val rounded{wide.type, {callLibm(f32 ? "plait_rt_np_round_f32" : "plait_rt_np_round_f64",
                                   {wide.leaves[0], ndigits})}};
  if (isFloatDType(t.dtype))
    return rounded;
  Value keep = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, ndigits, constInt(0));
  return {t, {builder.create<arith::SelectOp>(l, keep, x.leaves[0], castNumPy(rounded, t.dtype).leaves[0])}};
}

Val FunctionEmitter::emitJitCall(const SExpr &node) {
  // The callee's specialisation and the arguments (defaults filled in) are
  // what typing resolved.
  const Specialization::JitCall &target = spec.jitCallOf(node);
  const Specialization &callee = *target.callee;
  std::vector<Val> values;
  for (const SExpr *arg : target.arguments) {
    bool isDefault = false;
    for (const SExpr &d : callee.source->defaults)
      isDefault |= &d == arg;
    Type defaultType = isDefault ? Typer::constantType(*arg) : Type();
    if (isDefault && defaultType.kind == Type::Kind::String)
      values.push_back({defaultType, {}}); // known when compiling: no leaves
    else
      values.push_back(isDefault ? constant(*arg, defaultType) : emitExpr(*arg));
  }
  Val result = callSpecialization(callee, values, loc(node));
  // The callee borrowed the arguments (it retains what it keeps).
  for (const Val &value : values)
    freeIfTemporary(value);
  return result;
}

Val FunctionEmitter::callSpecialization(const Specialization &callee, llvm::ArrayRef<Val> arguments,
                                        Location l) {
  llvm::SmallVector<Value> operands = {builder.create<arith::AddIOp>(l, depth, constInt(1))};
  for (size_t i = 0; i < arguments.size(); ++i) {
    Val passed = convert(arguments[i], callee.arguments[i]);
    operands.append(passed.leaves.begin(), passed.leaves.end());
  }
  llvm::SmallVector<mlir::Type> results = {builder.getI32Type()};
  leafTypes(callee.result, results);
  auto call = builder.create<mlir::func::CallOp>(l, callee.symbol, results, operands);
  // Propagate the callee's error: codes are shared by the whole module.
  builder.create<dialect::CheckStatusOp>(l, call.getResult(0));
  // The callee gives a reference to each array it returns.
  Val result{callee.result, {}};
  for (unsigned i = 1; i < call.getNumResults(); ++i) {
    result.leaves.push_back(call.getResult(i));
    if (call.getResult(i).getType().isa<mlir::MemRefType>())
      temporaries.insert(call.getResult(i));
  }
  return result;
}

Val FunctionEmitter::emitNumpy(const SExpr &node, const std::string &name) {
  if (isReductionName(name))
    return emitReduction(node, name);
  if (name == "dot" || name == "matmul" || name == "outer")
    return emitProduct(node, name);
  if (name.rfind("linalg.", 0) == 0)
    return emitLinalg(node, name.substr(7));
  if (name == "conj" || name == "conjugate") {
    Val array = emitExpr(*typer.positionalArguments(spec, node).at(0));
    Type type = spec.typeOf(node);
    if (type == array.type && spec.arrayMethods.count(&node) && !isComplexDType(type.dtype))
      return array; // a real array's conj() is the array itself
    Val conjugated =
        arrayElementwise(node, {array}, type.dtype, type.ndim, [&](llvm::ArrayRef<Val> x) -> Val {
          if (!isComplexDType(x[0].type.dtype))
            return x[0];
          return {x[0].type,
                  {x[0].leaves[0], builder.create<arith::NegFOp>(loc(node), x[0].leaves[1])}};
        });
    freeIfTemporary(array);
    return conjugated;
  }
  if (name == "reshape" || name == "ravel")
    return reshaped(node);
  if (name == "item") {
    Val array = emitExpr(*typer.positionalArguments(spec, node).at(0));
    Location l = loc(node);
    Value size = elementCount(array, l);
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, size, constInt(1)),
          PyError("ValueError", "can only convert an array of size 1 to a Python scalar"));
    llvm::SmallVector<Value> origin(array.type.ndim, constIndexValue(0));
    Val element = fromStorage(builder.create<mlir::memref::LoadOp>(l, array.leaves[0], origin),
                              array.type.dtype, l);
    freeIfTemporary(array);
    return convert(element, spec.typeOf(node));
  }
  if (name == "flatten" || name == "fill") {
    Val array = emitExpr(*typer.positionalArguments(spec, node).at(0));
    Location l = loc(node);
    if (name == "fill" && spec.readOnlyWrites.count(&node)) {
      emitExpr(*typer.positionalArguments(spec, node).at(1));
      raiseReadOnly();
      freeIfTemporary(array);
      return {Type::none(), {}};
    }
    if (name == "fill") { // every element, as a[...] = v stores it
      Value stored =
          toStorage(emitExpr(*typer.positionalArguments(spec, node).at(1)), array.type.dtype, l);
      forEachElement(array.leaves[0], array.type.ndim, [&](llvm::ArrayRef<Value> at) {
        builder.create<mlir::memref::StoreOp>(l, stored, array.leaves[0], at);
      });
      freeIfTemporary(array);
      return {Type::none(), {}};
    }
    // A new 1-D array of the elements in C order.
    Type type = spec.typeOf(node);
    Value total = elementCount(array, l);
    Value flat = allocateArray(type, {total}, nullptr, l);
    Value counter = alloca(builder.getI64Type());
    builder.create<mlir::memref::StoreOp>(l, constInt(0), counter);
    forEachElement(array.leaves[0], array.type.ndim, [&](llvm::ArrayRef<Value> at) {
      Value k = builder.create<mlir::memref::LoadOp>(l, counter);
      builder.create<mlir::memref::StoreOp>(
          l, builder.create<mlir::memref::LoadOp>(l, array.leaves[0], at), flat,
          mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k)});
      builder.create<mlir::memref::StoreOp>(l, builder.create<arith::AddIOp>(l, k, constInt(1)),
                                            counter);
    });
    freeIfTemporary(array);
    return {type, {flat}};
  }
  if (name == "copy" || name == "astype" || name == "transpose") {
    Val array = emitExpr(*typer.positionalArguments(spec, node).at(0));
    if (name == "transpose")
      return transposed(array, spec.typeOf(node), loc(node));
    Val copy = castArray(array, spec.typeOf(node), loc(node));
    freeIfTemporary(array);
    return copy;
  }
  if (name == "abs" || name == "absolute")
    return emitAbsolute(node);
  Type type = spec.typeOf(node);
  Location l = loc(node);
  std::vector<const SExpr *> args = ast::args(node).rest();
  if (type.isNumPy()) { // np.float32(x), np.int8(x): NumPy's conversion
    if (args.empty())
      return zeroOf(type);
    uint64_t bits;
    if (bigUnsignedConstant(*args[0], bits))
      return {type, {constInt(static_cast<int64_t>(bits))}};
    Val value = emitExpr(*args[0]);
    if (value.type.kind == Type::Kind::Float && !isFloatDType(type.dtype) &&
        type.dtype != DType::Bool &&
        !isComplexDType(type.dtype)) // via a Python int: NaN and inf raise
      value = floatToInt(value.leaves[0], "plait_rt_float_to_int", "store_int_too_large");
    return weakToNumPy(value, type.dtype);
  }
  bool dtypeGiven = ast::keywords(node).items.size() > 1;
  size_t positional = args.size();
  // Drop a positional dtype (the typer validated it).
  if (!dtypeGiven && ((name == "empty" || name == "zeros" || name == "ones") && positional == 2))
    args.resize(1);
  if (!dtypeGiven && name == "full" && positional == 3)
    args.resize(2);
  if (!dtypeGiven && name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0 &&
      positional == 2)
    args.resize(1);

  llvm::SmallVector<Value> sizes;
  if (name == "arange") {
    std::vector<Val> values;
    for (const SExpr *arg : args)
      values.push_back(emitExpr(*arg));
    bool anyFloat = false;
    for (const Val &v : values)
      anyFloat |= v.type.isFloating();
    Type domain = anyFloat ? Type::floating() : Type::integer();
    Val start = values.size() == 1 ? Val{domain, {anyFloat ? constFloat(0.0) : constInt(0)}}
                                   : convert(values[0], domain);
    Val stop = convert(values.size() == 1 ? values[0] : values[1], domain);
    Val step = values.size() == 3 ? convert(values[2], domain)
                                  : Val{domain, {anyFloat ? constFloat(1.0) : constInt(1)}};
    Value length;
    if (anyFloat) {
      check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, step.leaves[0], constFloat(0.0)),
            errorCode("ZeroDivisionError", "int_truediv_by_zero"));
      Value count = builder.create<mlir::math::CeilOp>(
          l, builder.create<arith::DivFOp>(
                 l, builder.create<arith::SubFOp>(l, stop.leaves[0], start.leaves[0]), step.leaves[0]));
      Value positive = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, count, constFloat(0.0));
      Value clamped = builder.create<arith::SelectOp>(l, positive, count, constFloat(0.0));
      length = floatToInt(clamped, "plait_rt_float_to_int").leaves[0];
    } else {
      check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, step.leaves[0], constInt(0)),
            errorCode("ZeroDivisionError", "int_truediv_by_zero"));
      Value positive = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, step.leaves[0], constInt(0));
      Value lo = builder.create<arith::SelectOp>(l, positive, start.leaves[0], stop.leaves[0]);
      Value hi = builder.create<arith::SelectOp>(l, positive, stop.leaves[0], start.leaves[0]);
      Value nonEmpty = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, lo, hi);
      Value span = builder.create<arith::SubIOp>(l, builder.create<arith::SubIOp>(l, hi, lo), constInt(1));
      Value absStep = builder.create<arith::SelectOp>(
          l, positive, step.leaves[0], builder.create<arith::SubIOp>(l, constInt(0), step.leaves[0]));
      Value trips = builder.create<arith::AddIOp>(l, builder.create<arith::DivUIOp>(l, span, absStep), constInt(1));
      length = builder.create<arith::SelectOp>(l, nonEmpty, trips, constInt(0));
    }
    sizes.push_back(length);
    Value flat = builder.create<mlir::memref::AllocOp>(
        l, mlir::MemRefType::get({mlir::ShapedType::kDynamic}, module.storageType(type.dtype)),
        mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), length)});
    // NumPy fills float ranges as start + i * delta with delta computed as
    // (start + step) - start, which can differ from step in the last bit.
    Value delta = anyFloat ? builder.create<arith::SubFOp>(
                                 l, builder.create<arith::AddFOp>(l, start.leaves[0], step.leaves[0]),
                                 start.leaves[0]).getResult()
                           : step.leaves[0];
    countedLoop(length, [&](Value k) {
      Val element = anyFloat
          ? Val{domain, {builder.create<arith::AddFOp>(
                    l, start.leaves[0],
                    builder.create<arith::MulFOp>(
                        l, builder.create<arith::SIToFPOp>(l, builder.getF64Type(), k), delta))}}
          : Val{domain, {builder.create<arith::AddIOp>(
                    l, start.leaves[0], builder.create<arith::MulIOp>(l, k, step.leaves[0]))}};
      builder.create<mlir::memref::StoreOp>(
          l, toStorage(element, type.dtype, l), flat,
          mlir::ValueRange{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), k)});
    });
    auto cast = builder.create<mlir::memref::ReinterpretCastOp>(
        l, module.memrefType(type), flat, mlir::OpFoldResult(constIndexValue(0)),
        llvm::SmallVector<mlir::OpFoldResult>{builder.create<arith::IndexCastOp>(l, builder.getIndexType(), length).getResult()},
        llvm::SmallVector<mlir::OpFoldResult>{builder.getIndexAttr(1)});
    temporaries.insert(cast);
    return {type, {cast}};
  }

  if (name.size() > 5 && name.compare(name.size() - 5, 5, "_like") == 0) {
    Val like = emitExpr(*args[0]);
    for (int axis = 0; axis < like.type.ndim; ++axis)
      sizes.push_back(dimension(like.leaves[0], axis));
  } else {
    Val shape = emitExpr(*args[0]);
    Val asInts = shape.type.kind == Type::Kind::Tuple
                     ? shape
                     : Val{Type::tuple({shape.type}), shape.leaves};
    size_t offset = 0;
    for (const Type &t : asInts.type.elements) {
      Val part{t, {asInts.leaves[offset++]}};
      sizes.push_back(convert(part, Type::integer()).leaves[0]);
    }
  }
  std::optional<Val> fill;
  if (name == "zeros" || name == "zeros_like")
    fill = Val{Type::integer(), {constInt(0)}};
  else if (name == "ones" || name == "ones_like")
    fill = Val{Type::integer(), {constInt(1)}};
  else if (name == "full")
    fill = emitExpr(*args[1]);
  return {type, {allocateArray(type, sizes, fill ? &*fill : nullptr, l)}};
}

} // namespace plait::frontend::detail
