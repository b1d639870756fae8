//===- EmitScalars.cpp - Python scalar expressions ------------------------===//
//
// Expressions over Python's ints, floats and bools: operators (plait's
// checked int operations), comparisons (exact between ints and floats),
// short-circuits, conditional expressions.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

#include "mlir/IR/Matchers.h"

namespace plait::frontend::detail {

Val FunctionEmitter::emitExpr(const SExpr &expr) {
  if (!pinned.empty())
    if (auto found = pinned.find(&expr); found != pinned.end())
      return found->second;
  ast::NodeKind kind = ast::kindOf(expr);
  Type type = spec.typeOf(expr);
  // Known when compiling: no leaves (a call still runs, for its effects).
  if ((type.kind == Type::Kind::DType || type.kind == Type::Kind::String) &&
      kind != ast::NodeKind::Call && kind != ast::NodeKind::IfExp)
    return {type, {}};
  if (kind == ast::NodeKind::Const)
    return constant(ast::value(expr), type);
  if (kind == ast::NodeKind::Name) {
    const std::string &name = ast::id(expr);
    NameBinding binding = typer.resolve(spec, name);
    if (type.kind == Type::Kind::Function && !type.takesClosure)
      return {type, {}}; // a jitted function: nothing to pass
    if (type.kind == Type::Kind::Function)
      if (const SExpr *closure = closureNode(type.function))
        // A lambda or inner def of this function: what it captures is read
        // now, as Python reads a closure's variables when it runs.
        return emitExpr(*closure);
    if (binding.kind == NameBinding::Kind::Local)
      return loadVariable(name, expr);
    return constant(*binding.value, type);
  }
  if (kind == ast::NodeKind::Attribute &&
      (ast::attr(expr) == "real" || ast::attr(expr) == "imag") &&
      spec.typeOf(ast::value(expr)).isComplex()) {
    Val z = emitExpr(ast::value(expr));
    return {type, {z.leaves[ast::attr(expr) == "real" ? 0 : 1]}};
  }
  if (kind == ast::NodeKind::Attribute &&
      (ast::attr(expr) == "real" || ast::attr(expr) == "imag") && type.kind == Type::Kind::Array) {
    Val base = emitExpr(ast::value(expr));
    Location l = loc(expr);
    bool imaginary = ast::attr(expr) == "imag";
    if (isComplexDType(base.type.dtype)) { // a view of the parts
      Value view = builder.create<dialect::ComplexPartOp>(
          l, module.memrefType(type), base.leaves[0], builder.getBoolAttr(imaginary));
      if (temporaries.erase(base.leaves[0]))
        temporaries.insert(view);
      return {type, {view}};
    }
    if (!imaginary)
      return base; // a real array's .real is the array
    llvm::SmallVector<Value> sizes;
    appendDimensions(base.leaves[0], base.type.ndim, sizes);
    Val zero = castNumPy(Val{Type::integer(), {constInt(0)}}, type.dtype);
    Value zeros = allocateArray(type, sizes, &zero, l);
    freeIfTemporary(base);
    return {type, {zeros}};
  }
  auto typed =
      kind == ast::NodeKind::Attribute ? spec.types.find(&ast::value(expr)) : spec.types.end();
  if (typed != spec.types.end() && typed->second.named) { // a named tuple's field
    const std::vector<std::string> &fields = typed->second.named->fields;
    size_t field = std::find(fields.begin(), fields.end(), ast::attr(expr)) - fields.begin();
    return tupleElement(emitExpr(ast::value(expr)), field);
  }
  if (kind == ast::NodeKind::Attribute && ast::attr(expr) == "T" && type.kind == Type::Kind::Array)
    return transposed(emitExpr(ast::value(expr)), type, loc(expr));
  if (kind == ast::NodeKind::Attribute && type.kind != Type::Kind::Float) {
    // shape, ndim, size of an array
    Val base = emitExpr(ast::value(expr));
    Value memref = base.leaves[0];
    const std::string &attr = ast::attr(expr);
    int ndim = base.type.ndim;
    int64_t itemsize = module.storageBytes(base.type.dtype);
    if (attr == "ndim")
      return {type, {constInt(ndim)}};
    if (attr == "itemsize")
      return {type, {constInt(itemsize)}};
    Val result{type, {}};
    if (attr == "strides") { // NumPy's are in bytes
      auto metadata = builder.create<mlir::memref::ExtractStridedMetadataOp>(loc(expr), memref);
      for (int axis = 0; axis < ndim; ++axis)
        result.leaves.push_back(builder.create<arith::MulIOp>(
            loc(expr),
            builder.create<arith::IndexCastOp>(loc(expr), builder.getI64Type(),
                                               metadata.getStrides()[axis]),
            constInt(itemsize)));
      return result;
    }
    Value size = constInt(1);
    for (int axis = 0; axis < ndim; ++axis) {
      Value d = dimension(memref, axis);
      result.leaves.push_back(d);
      size = builder.create<arith::MulIOp>(loc(expr), size, d);
    }
    if (attr == "size")
      return {type, {size}};
    if (attr == "nbytes")
      return {type, {builder.create<arith::MulIOp>(loc(expr), size, constInt(itemsize))}};
    return result;
  }
  if (kind == ast::NodeKind::Attribute) {
    const std::string &attr = ast::attr(expr);
    double value = attr == "pi"            ? M_PI
                   : attr == "e"           ? M_E
                   : attr == "tau"         ? 2 * M_PI
                   : attr == "inf"         ? HUGE_VAL
                   : attr == "euler_gamma" ? 0.5772156649015329
                                           : std::nan("");
    return {type, {constFloat(value)}};
  }
  if (kind == ast::NodeKind::BinOp && spec.ufuncCalls.count(&expr))
    return emitUfuncCall(expr); // NumPy's complex a ** b: np.power's loop
  if (kind == ast::NodeKind::BinOp) {
    // Left before right, as CPython evaluates them (C++ leaves the order of
    // function arguments unspecified).
    Val left = emitExpr(ast::left(expr));
    Val right = emitExpr(ast::right(expr));
    return emitBinary(expr, ast::op(expr), left, right);
  }
  if (kind == ast::NodeKind::UnaryOp)
    return emitUnary(expr);
  if (kind == ast::NodeKind::BoolOp)
    return emitBoolOp(expr);
  if (kind == ast::NodeKind::Compare)
    return emitCompare(expr);
  if (kind == ast::NodeKind::IfExp)
    return emitIfExp(expr);
  if (kind == ast::NodeKind::Call)
    return emitCall(expr);
  if (kind == ast::NodeKind::Closure) { // its captured values, read now
    Val result{type, {}};
    for (const SExpr *name : ast::captures(expr).rest()) {
      Val part = emitExpr(*name);
      result.leaves.append(part.leaves.begin(), part.leaves.end());
    }
    return result;
  }
  if (kind == ast::NodeKind::List && type.kind == Type::Kind::List)
    return emitListDisplay(expr);
  if (kind == ast::NodeKind::JoinedStr)
    return emitFormattedString(expr);
  if (kind == ast::NodeKind::Dict)
    return emitDictDisplay(expr);
  if (kind == ast::NodeKind::Tuple || kind == ast::NodeKind::List) {
    Val result{type, {}};
    for (const SExpr *element : ast::elts(expr)) {
      // (*t: the tuple's leaves in place.)
      Val part = emitExpr(ast::is(*element, ast::NodeKind::Starred) ? ast::value(*element) : *element);
      result.leaves.append(part.leaves.begin(), part.leaves.end());
    }
    return result;
  }
  if (kind == ast::NodeKind::Subscript && spec.jitCalls.count(&expr))
    return emitJitCall(expr); // np.mgrid[...]: a plait.overload implementation
  if (kind == ast::NodeKind::Subscript && spec.typeOf(ast::value(expr)).kind == Type::Kind::Array) {
    if (spec.gathers.count(&expr))
      return gather(expr);
    if (indexesWithArray(spec, expr))
      return maskRead(expr);
    return type.kind == Type::Kind::Array ? emitView(expr) : loadElement(expr);
  }
  if (kind == ast::NodeKind::Subscript && (spec.typeOf(ast::value(expr)).kind == Type::Kind::List ||
                                           spec.typeOf(ast::value(expr)).isStr()))
    return emitListSubscript(expr); // (a str's slice: its code points')
  if (kind == ast::NodeKind::Subscript && spec.typeOf(ast::value(expr)).kind == Type::Kind::Dict)
    return emitDictSubscript(expr);
  if (kind == ast::NodeKind::Subscript) {
    Val base = emitExpr(ast::value(expr));
    const SExpr &index = ast::slice(expr);
    bool negative = ast::is(index, ast::NodeKind::UnaryOp);
    const SExpr &constant = negative ? ast::operand(index) : index;
    if (!ast::is(constant, ast::NodeKind::Const))
      return tupleElementAt(base, convert(emitExpr(index), Type::integer()).leaves[0], loc(expr));
    long long i = std::strtoll(ast::value(constant).text.c_str(), nullptr, 10);
    long long n = static_cast<long long>(base.type.elements.size());
    if (negative)
      i = n - i;
    return tupleElement(base, static_cast<size_t>(i));
  }
  throw std::logic_error(std::string("internal: the typer let a ") + ast::kindName(kind) +
                         " expression through");
}

const SExpr *FunctionEmitter::closureNode(int id) {
  if (!closureNodesFound) {
    closureNodesFound = true;
    std::function<void(const SExpr &)> walk = [&](const SExpr &node) {
      if (ast::is(node, ast::NodeKind::Closure))
        closureNodes[ast::closureFunction(node)] = &node;
      for (const SExpr &item : node.items)
        if (item.isList())
          walk(item);
    };
    walk(spec.source->definition);
  }
  auto found = closureNodes.find(id);
  return found == closureNodes.end() ? nullptr : found->second;
}

Val FunctionEmitter::tupleElementAt(const Val &tuple, Value index, Location l) {
  // CPython's tuple[index]: negative indices count from the end.
  Value n = constInt(static_cast<int64_t>(tuple.leaves.size()));
  Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, index, constInt(0));
  Value position = builder.create<arith::SelectOp>(
      l, negative, builder.create<arith::AddIOp>(l, index, n), index);
  check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::uge, position, n),
        PyError("IndexError", "tuple index out of range"));
  Value element = tuple.leaves[0];
  for (size_t k = 1; k < tuple.leaves.size(); ++k) {
    Value here = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, position,
                                               constInt(static_cast<int64_t>(k)));
    element = builder.create<arith::SelectOp>(l, here, tuple.leaves[k], element);
  }
  return {tuple.type.elements[0], {element}};
}

Val FunctionEmitter::tupleElement(const Val &tuple, size_t i) {
  size_t offset = 0;
  for (size_t k = 0; k < i; ++k)
    offset += tuple.type.elements[k].numLeaves();
  size_t count = tuple.type.elements[i].numLeaves();
  return {tuple.type.elements[i],
          llvm::SmallVector<Value, 2>(tuple.leaves.begin() + offset,
                                      tuple.leaves.begin() + offset + count)};
}

Val FunctionEmitter::intArith(ast::Operator op, Value a, Value b) {
  // Python's int semantics are plait's operations: passes decide which
  // checks a loop needs, the lowering how they are done.
  Location l = here();
  bool checked = checksOverflow();
  auto mode = checked ? dialect::OverflowMode::check : dialect::OverflowMode::wrap;
  if (op == ast::Operator::Add)
    return {Type::integer(), {builder.create<dialect::AddOp>(l, a, b, mode)}};
  if (op == ast::Operator::Sub)
    return {Type::integer(), {builder.create<dialect::SubOp>(l, a, b, mode)}};
  if (op == ast::Operator::Mult)
    return {Type::integer(), {builder.create<dialect::MulOp>(l, a, b, mode)}};
  if (op == ast::Operator::FloorDiv)
    return {Type::integer(), {builder.create<dialect::FloorDivOp>(l, a, b, mode)}};
  if (op == ast::Operator::Mod)
    return {Type::integer(), {builder.create<dialect::ModOp>(l, a, b, mode)}};
  if (op == ast::Operator::Div)
    return callRuntimeFloat("plait_rt_int_truediv", {a, b},
                            {{PLAIT_NUMERIC_INT_DIV_BY_ZERO,
                              errorCode("ZeroDivisionError", "int_truediv_by_zero")}});
  if (op == ast::Operator::Pow) {
    if (auto constant = b.getDefiningOp<arith::ConstantIntOp>()) {
      int64_t e = constant.value();
      if (e >= 0 && e <= 4) { // small powers inline, still overflow-checked
        if (e == 0)
          return {Type::integer(), {constInt(1)}};
        Value r = a;
        for (int64_t k = 1; k < e; ++k)
          r = intArith(ast::Operator::Mult, r, a).leaves[0];
        return {Type::integer(), {r}};
      }
    }
    return callRuntimeInt(
        "plait_rt_int_pow", {a, b, constInt(checked ? 1 : 0, 32)},
        {{PLAIT_NUMERIC_INT_OVERFLOW, errorCode("OverflowError", "int_overflow")},
         {PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT,
          errorCode("ValueError", "negative_int_exponent")}});
  }
  if (Value r = bitwise(op, a, b, l))
    return {Type::integer(), {r}};
  if (op == ast::Operator::LShift || op == ast::Operator::RShift) {
    check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, b, constInt(0)),
          errorCode("ValueError", "negative_shift"));
    Value big = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, b, constInt(64));
    // Shifts by >= 64 are poison in LLVM: shift by a clamped amount, select.
    Value amount = builder.create<arith::SelectOp>(l, big, constInt(0), b);
    if (op == ast::Operator::RShift) {
      Value shifted = builder.create<arith::ShRSIOp>(l, a, amount);
      Value negative = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, a, constInt(0));
      Value saturated = builder.create<arith::SelectOp>(l, negative, constInt(-1), constInt(0));
      return {Type::integer(), {builder.create<arith::SelectOp>(l, big, saturated, shifted)}};
    }
    Value shifted = builder.create<arith::ShLIOp>(l, a, amount);
    if (checked) {
      Value back = builder.create<arith::ShRSIOp>(l, shifted, amount);
      Value lost = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, back, a);
      Value nonZero = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, a, constInt(0));
      Value bigLost = builder.create<arith::AndIOp>(l, big, nonZero);
      check(builder.create<arith::OrIOp>(l, lost, bigLost),
            errorCode("OverflowError", "int_overflow"));
    }
    return {Type::integer(), {builder.create<arith::SelectOp>(l, big, constInt(0), shifted)}};
  }
  throw CompileError(CompileError::Kind::Unsupported, std::string("internal: int op ") + ast::spelling(op));
}

Val FunctionEmitter::floatArith(const SExpr &node, ast::Operator op,
                                Value a, Value b) {
  Location l = loc(node);
  auto fast = [&](mlir::Operation *op) {
    if (fastmath())
      op->setAttr("fastmath", arith::FastMathFlagsAttr::get(
                                  builder.getContext(), arith::FastMathFlags::fast));
    return op->getResult(0);
  };
  if (op == ast::Operator::Add)
    return {Type::floating(), {fast(builder.create<arith::AddFOp>(l, a, b))}};
  if (op == ast::Operator::Sub)
    return {Type::floating(), {fast(builder.create<arith::SubFOp>(l, a, b))}};
  if (op == ast::Operator::Mult)
    return {Type::floating(), {fast(builder.create<arith::MulFOp>(l, a, b))}};
  if (op == ast::Operator::Div) {
    check(builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, b, constFloat(0.0)),
          errorCode("ZeroDivisionError", "float_truediv_by_zero"));
    return {Type::floating(), {fast(builder.create<arith::DivFOp>(l, a, b))}};
  }
  if (op == ast::Operator::FloorDiv)
    return callRuntimeFloat("plait_rt_float_floordiv", {a, b},
                            {{PLAIT_NUMERIC_FLOAT_FLOORDIV_BY_ZERO,
                              errorCode("ZeroDivisionError", "float_floordiv_by_zero")}});
  if (op == ast::Operator::Mod)
    return callRuntimeFloat("plait_rt_float_mod", {a, b},
                            {{PLAIT_NUMERIC_FLOAT_MOD_BY_ZERO,
                              errorCode("ZeroDivisionError", "float_mod_by_zero")}});
  if (op == ast::Operator::Pow)
    return callRuntimeFloat(
        "plait_rt_float_pow", {a, b},
        {{PLAIT_NUMERIC_ZERO_POW_NEGATIVE,
          errorCode("ZeroDivisionError", "zero_pow_negative")},
         {PLAIT_NUMERIC_POW_COMPLEX, errorCode("ValueError", "pow_complex")},
         {PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW,
          errorCode("OverflowError", "complex_pow_overflow")},
         {PLAIT_NUMERIC_FLOAT_POW_OVERFLOW,
          errorCode("OverflowError", "float_pow_overflow")}});
  throw CompileError(CompileError::Kind::Unsupported, std::string("internal: float op ") + ast::spelling(op));
}

Value FunctionEmitter::bitwise(ast::Operator op, Value a, Value b, Location l) {
  if (op == ast::Operator::BitAnd)
    return builder.create<arith::AndIOp>(l, a, b);
  if (op == ast::Operator::BitOr)
    return builder.create<arith::OrIOp>(l, a, b);
  if (op == ast::Operator::BitXor)
    return builder.create<arith::XOrIOp>(l, a, b);
  return nullptr;
}

Val FunctionEmitter::powerByScalar(const SExpr &node, const Val &base, const Val &exponent,
                                   const Type &exponentType, DType dtype) {
  // NumPy's float32/float64 power loop, given one exponent for the whole
  // array, computes x ** -1, 0, 0.5, 1 and 2 as 1/x, 1, sqrt(x), x and x*x
  // (sqrt differs from pow at -0.0 and -inf). float16 has only `**`'s
  // fast_scalar_power: a Python int -1 or 2, a Python float 0.5, computed
  // in float32. A constant exponent takes its path alone (a pow call left
  // beside would stay: libm may set errno); others choose when they run.
  Location l = loc(node);
  bool half = dtype == DType::Float16;
  auto pow = [&] { return emitBinary(node, ast::Operator::Pow, base, exponent); };
  Value raw = exponent.leaves[0];
  std::optional<double> constant;
  mlir::APFloat floatConstant(0.0);
  llvm::APInt intConstant;
  if (exponentType.kind == Type::Kind::Float &&
      mlir::matchPattern(raw, mlir::m_ConstantFloat(&floatConstant)))
    constant = floatConstant.convertToDouble();
  else if (exponentType.kind == Type::Kind::Int &&
           mlir::matchPattern(raw, mlir::m_ConstantInt(&intConstant)))
    constant = static_cast<double>(intConstant.getSExtValue());
  if (half && exponentType.kind != Type::Kind::Int && exponentType.kind != Type::Kind::Float)
    return pow(); // (fast_scalar_power takes Python numbers only)
  // The exponents with a fast path; float16's by the exponent's Python type.
  llvm::SmallVector<double, 5> exponents = {-1, 0, 0.5, 1, 2};
  if (half && exponentType.kind == Type::Kind::Float)
    exponents = {0.5};
  else if (half)
    exponents = {2, -1};
  Val wide = castNumPy(base, half ? DType::Float32 : dtype);
  Value x = wide.leaves[0];
  auto result = [&](Value v) {
    Val value{wide.type, {v}};
    return half ? castNumPy(value, DType::Float16) : value;
  };
  auto special = [&](double e) -> Value {
    if (e == 0.5)
      return builder.create<mlir::math::SqrtOp>(l, x);
    if (e == 2)
      return builder.create<arith::MulFOp>(l, x, x);
    if (e == -1)
      return builder.create<arith::DivFOp>(l, constFloatOf(x.getType(), 1.0), x);
    if (e == 1)
      return x;
    return constFloatOf(x.getType(), 1.0); // e == 0
  };
  if (constant) {
    // Compared in the loop's dtype, as NumPy converts the exponent
    // (float16's is a Python number, compared as it is).
    double e = dtype == DType::Float32 ? static_cast<float>(*constant) : *constant;
    return llvm::is_contained(exponents, e) ? result(special(e)) : pow();
  }
  Val computed = pow();
  // (float16's exponent is a Python number: compared as a float64)
  Value e = castNumPy(exponent, half ? DType::Float64 : dtype).leaves[0],
        chosen = computed.leaves[0];
  for (double candidate : exponents) {
    Value is = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, e,
                                             constFloatOf(e.getType(), candidate));
    chosen = builder.create<arith::SelectOp>(l, is, result(special(candidate)).leaves[0], chosen);
  }
  return {computed.type, {chosen}};
}

Val FunctionEmitter::emitBinary(const SExpr &node, ast::Operator op,
                                const Val &left, const Val &right, const Val *out) {
  if (spec.jitCalls.count(&node)) {
    // A list operator: plait.overload's implementation, on the operands
    // evaluated already (l += x evaluates l once).
    Val result = callSpecialization(*spec.jitCallOf(node).callee, {left, right}, loc(node));
    freeIfTemporary(left);
    freeIfTemporary(right);
    return result;
  }
  if (op == ast::Operator::MatMult)
    return productOf(node, left, right, /*isDot=*/false);
  if (left.type.kind == Type::Kind::Array || right.type.kind == Type::Kind::Array) {
    Type type = spec.typeOf(node);
    // Elements follow NumPy's rules, a Python complex operand included.
    auto asElement = [&](const Val &v) {
      return v.type.kind == Type::Kind::Complex
                 ? castNumPy(v, isComplexDType(type.dtype) ? type.dtype : DType::Complex128)
                 : v;
    };
    auto elementType = [](const Type &t) { return t.kind == Type::Kind::Array ? t.elementType() : t; };
    // A Python int operand must fit the dtype it computes in whatever the
    // arrays' sizes (NumPy checks it once, before the loop: empty too).
    for (const Val *scalar : {&left, &right})
      if (scalar->type.kind == Type::Kind::Int && elementType(left.type).isNumPy() !=
                                                      elementType(right.type).isNumPy())
        checkPythonIntFits(scalar->leaves[0],
                           numpyArithDType(op, elementType(left.type), elementType(right.type)));
    // (an int or bool array computes in the float loop too; float16's rules
    // are for float16 arrays)
    bool scalarPower = op == ast::Operator::Pow && left.type.kind == Type::Kind::Array &&
                       right.type.kind != Type::Kind::Array && isFloatDType(type.dtype) &&
                       (type.dtype != DType::Float16 || left.type.dtype == DType::Float16);
    return arrayElementwise(
        node, {asElement(left), asElement(right)}, type.dtype, type.ndim,
        [&](llvm::ArrayRef<Val> x) {
          return scalarPower ? powerByScalar(node, x[0], x[1], right.type, type.dtype)
                             : emitBinary(node, op, x[0], x[1]);
        },
        out);
  }
  if (left.type.isComplex() || right.type.isComplex())
    return complexArith(node, op, left, right);
  if (left.type.isNumPy() || right.type.isNumPy())
    return numpyArith(node, op, left, right);
  bool anyFloat = left.type.kind == Type::Kind::Float ||
                  right.type.kind == Type::Kind::Float;
  bool bothBool = left.type.kind == Type::Kind::Bool &&
                  right.type.kind == Type::Kind::Bool;
  Location l = loc(node);
  Value logical = bothBool ? bitwise(op, left.leaves[0], right.leaves[0], l) : nullptr;
  if (logical)
    return {Type::boolean(), {logical}};
  if (anyFloat) {
    Val a = convert(left, Type::floating());
    Val b = convert(right, Type::floating());
    return floatArith(node, op, a.leaves[0], b.leaves[0]);
  }
  Val a = convert(left, Type::integer());
  Val b = convert(right, Type::integer());
  return intArith(op, a.leaves[0], b.leaves[0]);
}

Val FunctionEmitter::emitUnary(const SExpr &node) {
  ast::Operator op = ast::op(node);
  int64_t negated;
  if (negatedIntConstant(node, negated))
    return {Type::integer(), {constInt(negated)}};
  Val operand = emitExpr(ast::operand(node));
  if (operand.type.kind == Type::Kind::Array)
    return arrayElementwise(node, {operand}, operand.type.dtype, operand.type.ndim,
                            [&](llvm::ArrayRef<Val> x) { return unaryOf(node, op, x[0]); });
  return unaryOf(node, op, operand);
}

Val FunctionEmitter::unaryOf(const SExpr &node, ast::Operator op, const Val &operand) {
  Location l = loc(node);
  if (op == ast::Operator::Not)
    return {Type::boolean(),
            {builder.create<arith::XOrIOp>(l, truth(operand), constInt(1, 1))}};
  if (operand.type.isComplex()) {
    if (op == ast::Operator::UAdd)
      return operand;
    return {operand.type, {builder.create<arith::NegFOp>(l, operand.leaves[0]),
                           builder.create<arith::NegFOp>(l, operand.leaves[1])}};
  }
  if (operand.type.isNumPy()) {
    Value v = operand.leaves[0];
    if (op == ast::Operator::UAdd)
      return operand;
    if (isFloatDType(operand.type.dtype)) // USub (~ is a TypingError)
      return {operand.type, {builder.create<arith::NegFOp>(l, v)}};
    if (op == ast::Operator::Invert) // ~ of numpy.bool is logical not
      return {operand.type, {builder.create<arith::XOrIOp>(l, v, constOf(v.getType(), -1))}};
    return {operand.type, {builder.create<arith::SubIOp>(l, constOf(v.getType(), 0), v)}}; // wraps
  }
  if (operand.type.kind == Type::Kind::Float) {
    if (op == ast::Operator::USub)
      return {Type::floating(), {builder.create<arith::NegFOp>(l, operand.leaves[0])}};
    return operand; // UAdd
  }
  Val value = convert(operand, Type::integer());
  if (op == ast::Operator::UAdd)
    return value;
  if (op == ast::Operator::Invert)
    return {Type::integer(),
            {builder.create<arith::XOrIOp>(l, value.leaves[0], constInt(-1))}};
  return intArith(ast::Operator::Sub, constInt(0), value.leaves[0]);
}

Val FunctionEmitter::joinedValue(Block *done, const Type &type) {
  // The arguments of the block where the sides meet, each holding a
  // reference of its own (ownedAs): temporaries.
  startBlock(done);
  Val result{type, {}};
  for (mlir::BlockArgument leaf : done->getArguments()) {
    result.leaves.push_back(leaf);
    if (leaf.getType().isa<mlir::MemRefType>())
      temporaries.insert(leaf);
  }
  return result;
}

Val FunctionEmitter::ownedAs(const Val &value, const Type &type) {
  Val owned = convert(claim(value), type);
  for (Value leaf : owned.leaves) // (the reference moves to where it goes)
    temporaries.erase(leaf);
  return owned;
}

Val FunctionEmitter::emitOperandValue(const SExpr &node) {
  // `a or b` as a value: the operand that decided, in a block argument. A
  // str result owns a reference whichever operand gave it (as x if c else
  // y's); an operand that did not decide gives its reference back.
  Type type = spec.typeOf(node);
  bool isAnd = ast::op(node) == ast::Operator::And;
  Location l = loc(node);
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  Block *done = newBlock();
  for (mlir::Type t : types)
    done->addArgument(t, l);
  std::vector<const SExpr *> operands = ast::values(node);
  for (size_t i = 0; i < operands.size(); ++i) {
    Val value = emitExpr(*operands[i]);
    if (i + 1 == operands.size()) {
      branch(done, ownedAs(value, type).leaves);
      break;
    }
    // (A str's truth is its length: truth() would free a temporary.)
    Value decided = value.type.kind == Type::Kind::Str
                        ? builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                                        listLength(value, l), constInt(0))
                        : truth(value);
    Val result = ownedAs(value, type);
    Block *next = newBlock();
    if (isAnd)
      builder.create<mlir::cf::CondBranchOp>(l, decided, next, mlir::ValueRange{}, done,
                                             mlir::ValueRange(result.leaves));
    else
      builder.create<mlir::cf::CondBranchOp>(l, decided, done, mlir::ValueRange(result.leaves),
                                             next, mlir::ValueRange{});
    startBlock(next);
    releaseItem(result);
  }
  return joinedValue(done, type);
}

Val FunctionEmitter::emitBoolOp(const SExpr &node) {
  // A tested and/or (spec.truthTests) gives its operands' truths; another
  // gives the operand that decided, as the unified type.
  bool tested = spec.truthTests.count(&node);
  if (!tested && spec.typeOf(node).kind == Type::Kind::Str)
    return emitOperandValue(node);
  Type type = tested ? Type::boolean() : spec.typeOf(node);
  bool isAnd = ast::op(node) == ast::Operator::And;
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  llvm::SmallVector<Value> resultSlots;
  for (mlir::Type t : types)
    resultSlots.push_back(alloca(t));
  Block *done = newBlock();
  std::vector<const SExpr *> operands = ast::values(node);
  for (size_t i = 0; i < operands.size(); ++i) {
    Val value = emitExpr(*operands[i]);
    Value t = tested ? truth(value) : Value();
    Val stored = tested ? Val{type, {t}} : convert(value, type);
    for (size_t k = 0; k < resultSlots.size(); ++k)
      builder.create<mlir::memref::StoreOp>(loc(node), stored.leaves[k], resultSlots[k]);
    if (i + 1 == operands.size()) {
      branch(done);
      break;
    }
    // `a and b` stops at a falsy a; `a or b` at a truthy one.
    if (!tested)
      t = truth(value);
    Block *next = newBlock();
    if (isAnd)
      builder.create<mlir::cf::CondBranchOp>(loc(node), t, next, done);
    else
      builder.create<mlir::cf::CondBranchOp>(loc(node), t, done, next);
    startBlock(next);
  }
  startBlock(done);
  Val result{type, {}};
  for (Value slot : resultSlots)
    result.leaves.push_back(builder.create<mlir::memref::LoadOp>(loc(node), slot));
  return result;
}

Value FunctionEmitter::compare(ast::Operator op, const Val &left,
                               const Val &right, const SExpr &node) {
  Location l = loc(node);
  if (left.type.kind == Type::Kind::Tuple || right.type.kind == Type::Kind::Tuple)
    return compareTuples(op, left, right, node);
  if (left.type.isComplex() || right.type.isComplex())
    return complexCompare(op, left, right, node);
  if (left.type.isNumPy() || right.type.isNumPy())
    return numpyCompare(op, left, right, l);
  bool leftFloat = left.type.kind == Type::Kind::Float;
  bool rightFloat = right.type.kind == Type::Kind::Float;
  if (!leftFloat && !rightFloat) {
    Value a = convert(left, Type::integer()).leaves[0];
    Value b = convert(right, Type::integer()).leaves[0];
    return builder.create<arith::CmpIOp>(l, intPredicate(op, /*isUnsigned=*/false), a, b);
  }
  arith::CmpFPredicate p = floatPredicate(op);
  if (leftFloat && rightFloat)
    return builder.create<arith::CmpFOp>(l, p, left.leaves[0], right.leaves[0]);

  // int against float: exact, as CPython compares them (no rounding of the
  // int). Ints within 2**53 convert exactly; others go through the runtime.
  const Val &intSide = leftFloat ? right : left;
  const Val &floatSide = leftFloat ? left : right;
  Value i = convert(intSide, Type::integer()).leaves[0];
  Value f = floatSide.leaves[0];
  Value biased = builder.create<arith::AddIOp>(l, i, constInt(1LL << 53));
  Value exact = builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ule, biased,
                                              constInt(1LL << 54));
  Block *fastPath = newBlock();
  Block *slowPath = newBlock();
  Block *merge = newBlock();
  merge->addArgument(builder.getI1Type(), l);
  builder.create<mlir::cf::CondBranchOp>(l, exact, fastPath, slowPath);
  startBlock(fastPath);
  Value asFloat = builder.create<arith::SIToFPOp>(l, builder.getF64Type(), i);
  Value fastResult = leftFloat ? builder.create<arith::CmpFOp>(l, p, f, asFloat)
                               : builder.create<arith::CmpFOp>(l, p, asFloat, f);
  builder.create<mlir::cf::BranchOp>(l, merge, mlir::ValueRange{fastResult});
  startBlock(slowPath);
  module.declare("plait_rt_cmp_int_float",
                 builder.getFunctionType({builder.getI64Type(), builder.getF64Type()},
                                         {builder.getI32Type()}));
  Value c = builder
                .create<mlir::func::CallOp>(l, "plait_rt_cmp_int_float",
                                            mlir::TypeRange{builder.getI32Type()},
                                            mlir::ValueRange{i, f})
                .getResult(0);
  // c compares int to float: -1, 0, 1, or 2 when unordered. Flip when the
  // float is on the left.
  ast::Operator o = leftFloat ? ast::swapped(op) : op;
  auto eq = [&](int32_t v) {
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, c, constInt(v, 32)).getResult();
  };
  Value slow;
  if (o == ast::Operator::Eq)
    slow = eq(0);
  else if (o == ast::Operator::NotEq)
    slow = builder.create<arith::XOrIOp>(l, eq(0), constInt(1, 1));
  else if (o == ast::Operator::Lt)
    slow = eq(-1);
  else if (o == ast::Operator::Gt)
    slow = eq(1);
  else if (o == ast::Operator::LtE)
    slow = builder.create<arith::OrIOp>(l, eq(-1), eq(0));
  else
    slow = builder.create<arith::OrIOp>(l, eq(1), eq(0));
  builder.create<mlir::cf::BranchOp>(l, merge, mlir::ValueRange{slow});
  startBlock(merge);
  return merge->getArgument(0);
}

Value FunctionEmitter::compareTuples(ast::Operator op, const Val &left, const Val &right,
                                     const SExpr &node) {
  Location l = loc(node);
  bool equality = op == ast::Operator::Eq || op == ast::Operator::NotEq;
  if (left.type.kind != Type::Kind::Tuple || right.type.kind != Type::Kind::Tuple)
    return constInt(op == ast::Operator::NotEq ? 1 : 0, 1); // (a tuple equals only a tuple)
  size_t n = left.type.elements.size(), m = right.type.elements.size();
  if (equality) {
    Value same = constInt(n == m ? 1 : 0, 1);
    for (size_t k = 0; k < n && n == m; ++k)
      same = builder.create<arith::AndIOp>(
          l, same, compare(ast::Operator::Eq, tupleElement(left, k), tupleElement(right, k), node));
    return op == ast::Operator::Eq ? same : builder.create<arith::XOrIOp>(l, same, constInt(1, 1));
  }
  // The first elements that differ decide; with none, the lengths do.
  bool byLength = op == ast::Operator::Lt    ? n < m
                  : op == ast::Operator::LtE ? n <= m
                  : op == ast::Operator::Gt  ? n > m
                                             : n >= m;
  Value result = constInt(byLength ? 1 : 0, 1);
  for (size_t k = std::min(n, m); k-- > 0;) {
    Val a = tupleElement(left, k), b = tupleElement(right, k);
    Value equal = compare(ast::Operator::Eq, a, b, node);
    result = builder.create<arith::SelectOp>(l, equal, result, compare(op, a, b, node));
  }
  return result;
}

Val FunctionEmitter::emitCompare(const SExpr &node) {
  std::vector<const SExpr *> ops = ast::ops(node).rest();
  std::vector<const SExpr *> rights = ast::comparators(node).rest();
  if (std::optional<bool> known = spec.knownCondition(&node)) {
    // strs and None: known when compiling; the operands still run.
    freeIfTemporary(emitExpr(ast::left(node)));
    for (const SExpr *right : rights)
      freeIfTemporary(emitExpr(*right));
    return {Type::boolean(), {constInt(*known ? 1 : 0, 1)}};
  }
  if (spec.dictContains.count(&node)) { // k in d
    Value found = emitDictContains(node);
    if (ast::operatorOf(*ops[0]) == ast::Operator::NotIn)
      found = builder.create<arith::XOrIOp>(loc(node), found, constInt(1, 1));
    return {Type::boolean(), {found}};
  }
  if (spec.jitCalls.count(&node)) { // x in seq, l == m: plait.overload's implementation
    Val found = emitJitCall(node);
    ast::Operator op = ast::operatorOf(*ops[0]);
    if (op == ast::Operator::NotIn || op == ast::Operator::NotEq)
      found.leaves[0] = builder.create<arith::XOrIOp>(loc(node), found.leaves[0], constInt(1, 1));
    return found;
  }
  Val left = emitExpr(ast::left(node));
  if (ops.size() == 1) {
    Val right = emitExpr(*rights[0]);
    Type type = spec.typeOf(node);
    if (type.kind == Type::Kind::Array)
      return arrayElementwise(node, {left, right}, DType::Bool, type.ndim, [&](llvm::ArrayRef<Val> x) {
        return Val{Type::numpy(DType::Bool), {compare(ast::operatorOf(*ops[0]), x[0], x[1], node)}};
      });
    return {type, {compare(ast::operatorOf(*ops[0]), left, right, node)}};
  }
  // a < b < c: each operand evaluated once, stop at the first false.
  Value result = alloca(builder.getI1Type());
  Block *done = newBlock();
  for (size_t i = 0; i < ops.size(); ++i) {
    Val right = emitExpr(*rights[i]);
    Value c = compare(ast::operatorOf(*ops[i]), left, right, node);
    builder.create<mlir::memref::StoreOp>(loc(node), c, result);
    if (i + 1 == ops.size()) {
      branch(done);
      break;
    }
    Block *next = newBlock();
    builder.create<mlir::cf::CondBranchOp>(loc(node), c, next, done);
    startBlock(next);
    left = right;
  }
  startBlock(done);
  return {spec.typeOf(node), {builder.create<mlir::memref::LoadOp>(loc(node), result)}};
}

Val FunctionEmitter::emitIfExp(const SExpr &node) {
  // The two values meet as the arguments of the block after; an array
  // result owns a reference whichever side made it (a temporary's moves,
  // a named array is retained), so it is a temporary of its own.
  Type type = spec.typeOf(node);
  if (std::optional<bool> known = spec.knownCondition(&ast::test(node))) {
    freeIfTemporary(emitExpr(ast::test(node))); // (run for what it calls)
    return emitExpr(*known ? ast::body(node) : ast::orelse(node));
  }
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  Value condition = truth(emitExpr(ast::test(node)));
  Block *thenBlock = newBlock();
  Block *elseBlock = newBlock();
  Block *done = newBlock();
  for (mlir::Type t : types)
    done->addArgument(t, loc(node));
  builder.create<mlir::cf::CondBranchOp>(loc(node), condition, thenBlock, elseBlock);
  for (int side = 0; side < 2; ++side) {
    startBlock(side == 0 ? thenBlock : elseBlock);
    branch(done, ownedAs(emitExpr(side == 0 ? ast::body(node) : ast::orelse(node)), type).leaves);
  }
  return joinedValue(done, type);
}

Val FunctionEmitter::floatToInt(Value x, const char *runtime, const char *overflowKey) {
  // Converted here when the rounded value is in int64's range (NaN is
  // not); the runtime reports the errors, off the common path.
  Location l = here();
  llvm::StringRef rounding(runtime);
  Value integral = rounding == "plait_rt_float_floor_to_int"
                       ? builder.create<mlir::math::FloorOp>(l, x).getResult()
                   : rounding == "plait_rt_float_ceil_to_int"
                       ? builder.create<mlir::math::CeilOp>(l, x).getResult()
                       : builder.create<mlir::math::TruncOp>(l, x).getResult();
  constexpr double kTwoPow63 = 9223372036854775808.0;
  Value inRange = builder.create<arith::AndIOp>(
      l,
      builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGE, integral, constFloat(-kTwoPow63)),
      builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, integral, constFloat(kTwoPow63)));
  Value converted = builder.create<arith::FPToSIOp>(l, builder.getI64Type(), integral);
  Block *reported = newBlock(), *done = newBlock();
  done->addArgument(builder.getI64Type(), l);
  builder.create<mlir::cf::CondBranchOp>(l, inRange, done, mlir::ValueRange{converted}, reported,
                                         mlir::ValueRange{});
  startBlock(reported);
  Val fromRuntime = callRuntimeInt(
      runtime, {x},
      {{PLAIT_NUMERIC_FLOAT_TO_INT_INF, errorCode("OverflowError", "float_to_int_inf")},
       {PLAIT_NUMERIC_FLOAT_TO_INT_NAN, errorCode("ValueError", "float_to_int_nan")},
       {PLAIT_NUMERIC_INT_OVERFLOW, errorCode("OverflowError", overflowKey)}});
  if (!terminated())
    branch(done, fromRuntime.leaves);
  startBlock(done);
  return {Type::integer(), {done->getArgument(0)}};
}

Val FunctionEmitter::minMax(const SExpr &node, bool isMin, std::vector<Val> values,
                            const Type &type) {
  Val best = convert(values[0], type);
  Location l = loc(node);
  for (size_t i = 1; i < values.size(); ++i) {
    Val candidate = convert(values[i], type);
    // Python keeps the first of equal values and compares with < / >.
    Value better = compare(isMin ? ast::Operator::Lt : ast::Operator::Gt, candidate, best, node);
    best.leaves[0] = builder.create<arith::SelectOp>(l, better, candidate.leaves[0],
                                                     best.leaves[0]);
  }
  return best;
}

} // namespace plait::frontend::detail
