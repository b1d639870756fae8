//===- TyperExpressions.cpp - typing expressions ----------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace plait::frontend {

Type Typer::binaryType(Specialization &spec, const SExpr &node,
                       ast::Operator op, const Type &left,
                       const Type &right) {
  if (left.kind == Type::Kind::Bottom || right.kind == Type::Kind::Bottom)
    return Type::bottom();
  if (left.kind == Type::Kind::List || right.kind == Type::Kind::List)
    return listOperatorType(spec, node, op, left, right);
  if (left.isStr() || right.isStr())
    return strOperatorType(spec, node, op, left, right);
  const char *symbol = ast::spelling(op);
  auto typeError = [&]() {
    fail(CompileError::Kind::Typing, *spec.source, node,
         std::string("unsupported operand type(s) for ") + symbol + ": '" + left.str() + "' and '" +
             right.str() + "'");
  };
  if (op == ast::Operator::MatMult) {
    // NumPy's matmul of vectors and matrices: 1-D.1-D is a scalar, a 1-D
    // operand is a row (left) or a column (right) that the result drops.
    if (left.kind != Type::Kind::Array && right.kind != Type::Kind::Array)
      typeError();
    if (left.kind != Type::Kind::Array || right.kind != Type::Kind::Array)
      fail(CompileError::Kind::Unsupported, *spec.source, node,
           "operator @ needs two arrays (NumPy raises for a scalar operand)");
    DType dtype = promoteDTypes(left.dtype, right.dtype);
    spec.loops = true;
    // Stacks of matrices broadcast (NumPy's gufunc (n?,k),(k,m?)->(n?,m?)).
    int batch = std::max({left.ndim - 2, right.ndim - 2, 0});
    int ndim = batch + (left.ndim > 1) + (right.ndim > 1);
    return ndim == 0 ? Type::numpy(dtype) : Type::array(dtype, ndim, true);
  }
  if (left.kind == Type::Kind::Array || right.kind == Type::Kind::Array) {
    // Elementwise, as NumPy's ufuncs: each element computes as the scalars
    // would (NumPy scalars are strong, Python numbers weak); shapes broadcast.
    // (A Python complex meets array elements as NumPy's complex: weak.)
    auto element = [](const Type &t, const Type &other) {
      if (t.kind == Type::Kind::Array)
        return t.elementType();
      if (t.kind == Type::Kind::Complex)
        return numpyCommonType(other.kind == Type::Kind::Array ? other.elementType() : other, t);
      return t;
    };
    if ((left.kind != Type::Kind::Array && !left.isNumber()) ||
        (right.kind != Type::Kind::Array && !right.isNumber()))
      typeError();
    Type result = binaryType(spec, node, op, element(left, right), element(right, left));
    if (result.kind == Type::Kind::Bottom)
      return result;
    spec.loops = true;
    return Type::newArray(result.dtype,
                          std::max(left.kind == Type::Kind::Array ? left.ndim : 0,
                                   right.kind == Type::Kind::Array ? right.ndim : 0),
                          {left, right});
  }
  if (!left.isNumber() || !right.isNumber())
    typeError();
  if (left.isComplex() || right.isComplex()) {
    // + - * / only; NumPy's rules when a NumPy scalar is involved.
    if (op == ast::Operator::Pow)
      fail(CompileError::Kind::Unsupported, *spec.source, node,
           "** of complex numbers is not supported");
    if (op != ast::Operator::Add && op != ast::Operator::Sub && op != ast::Operator::Mult && op != ast::Operator::Div)
      typeError();
    return complexResultType(left, right);
  }
  if (left.isNumPy() || right.isNumPy()) {
    DType common = numpyCommonType(left, right).dtype;
    bool bitwise = op == ast::Operator::BitOr || op == ast::Operator::BitXor || op == ast::Operator::BitAnd ||
                   op == ast::Operator::LShift || op == ast::Operator::RShift;
    if (op == ast::Operator::Div)
      return Type::numpy(isFloatDType(common) ? common : DType::Float64);
    if (bitwise && isFloatDType(common))
      typeError();
    if (common == DType::Bool) {
      if (op == ast::Operator::Sub)
        fail(CompileError::Kind::Typing, *spec.source, node,
             "numpy boolean subtract, the `-` operator, is not supported, use "
             "the bitwise_xor, the `^` operator, or the logical_xor function instead.");
      // + is logical or, * logical and; the others compute in int8.
      if (op != ast::Operator::Add && op != ast::Operator::Mult && op != ast::Operator::BitOr && op != ast::Operator::BitXor && op != ast::Operator::BitAnd)
        return Type::numpy(DType::Int8);
    }
    return Type::numpy(common);
  }
  bool anyFloat = left.kind == Type::Kind::Float || right.kind == Type::Kind::Float;
  bool bothBool = left.kind == Type::Kind::Bool && right.kind == Type::Kind::Bool;
  if (op == ast::Operator::Div)
    return Type::floating();
  if (op == ast::Operator::BitOr || op == ast::Operator::BitXor || op == ast::Operator::BitAnd) {
    if (anyFloat)
      typeError();
    return bothBool ? Type::boolean() : Type::integer();
  }
  if (op == ast::Operator::LShift || op == ast::Operator::RShift) {
    if (anyFloat)
      typeError();
    return Type::integer();
  }
  return anyFloat ? Type::floating() : Type::integer();
}


Type Typer::computeType(Specialization &spec, const SExpr &expr) {
  const FunctionSource &fn = *spec.source;
  ast::NodeKind kind = ast::kindOf(expr);
  if (kind == ast::NodeKind::JoinedStr)
    return formattedStringType(spec, expr);
  if (kind == ast::NodeKind::Const) {
    const SExpr &value = ast::value(expr);
    if (value.kind == SExpr::Kind::String) // a constant of the code
      return Type::stringConstant(value.text);
    if (value.kind == SExpr::Kind::Integer) {
      errno = 0;
      char *end = nullptr;
      std::strtoll(value.text.c_str(), &end, 10);
      if (errno == ERANGE)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "integer constant " + value.text + " does not fit in int64");
    }
    Type t = constantType(value);
    if (t.kind == Type::Kind::Bottom)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "this constant is not supported");
    return t;
  }
  if (kind == ast::NodeKind::Name) {
    const std::string &name = ast::id(expr);
    if (spec.caughtNames.count(name))
      fail(CompileError::Kind::Unsupported, fn, expr,
           "compiled code can re-raise the caught exception '" + name + "' (raise " + name +
               ") but not use it as a value (str(" + name + "), " + name +
               ".args): catch it outside the compiled function for that");
    NameBinding binding = resolve(spec, name);
    switch (binding.kind) {
    case NameBinding::Kind::Local:
      if (spec.loopTargets.count(name) && spec.variables[name].kind == Type::Kind::Array &&
          !rowsInScope.count(name))
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the row variable '" + sourceName(name) + "' can be used only inside its loop");
      return spec.variables[name];
    case NameBinding::Kind::Constant: {
      Type t = constantType(*binding.value);
      if (t.kind == Type::Kind::Bottom)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "global '" + name + "' has a value compiled code cannot use");
      if (binding.value->kind == SExpr::Kind::Integer) {
        errno = 0;
        std::strtoll(binding.value->text.c_str(), nullptr, 10);
        if (errno == ERANGE)
          fail(CompileError::Kind::Unsupported, fn, expr,
               "global '" + name + "' = " + binding.value->text +
                   " does not fit in int64");
      }
      return t;
    }
    case NameBinding::Kind::Jit: // a jitted function as a value: f passed on
      return Type::globalFunction(binding.functionId);
    case NameBinding::Kind::Undefined:
      fail(CompileError::Kind::Typing, fn, expr,
           "name '" + sourceName(name) + "' is not defined");
    case NameBinding::Kind::DTypeValue: { // np.float32 imported by name
      DType dtype;
      if (dtypeFromName(binding.name, dtype))
        return Type::dtypeValue(dtype);
      break;
    }
    case NameBinding::Kind::Builtin: // dtype=float, dtype=int: NumPy's defaults
      if (binding.name == "float")
        return Type::dtypeValue(DType::Float64);
      if (binding.name == "int")
        return Type::dtypeValue(DType::Int64);
      if (binding.name == "bool")
        return Type::dtypeValue(DType::Bool);
      if (binding.name == "complex")
        return Type::dtypeValue(DType::Complex128);
      break;
    case NameBinding::Kind::Unsupported:
      fail(CompileError::Kind::Unsupported, fn, expr,
           "global '" + name + "' is a " + binding.name +
               ", which compiled code cannot use");
    default:
      break;
    }
    fail(CompileError::Kind::Unsupported, fn, expr, "'" + name + "' can only be called here");
  }
  if (kind == ast::NodeKind::Attribute) {
    const SExpr &base = ast::value(expr);
    bool local = ast::is(base, ast::NodeKind::Name) &&
                 resolve(spec, ast::id(base)).kind == NameBinding::Kind::Local;
    if (local)
      exprType(spec, base); // (recorded: the emitter loads it)
    if (local && spec.variables[ast::id(base)].kind == Type::Kind::Bottom)
      return Type::bottom(); // typed in a later round (a jitted callee's result)
    bool moduleBase = namesModule(spec, base);
    Type array = local        ? spec.variables[ast::id(base)]
                 : moduleBase ? Type::bottom()
                              : exprType(spec, base);
    if (!moduleBase && !local && array.kind == Type::Kind::Bottom)
      return array;
    if (array.kind == Type::Kind::Tuple && array.named) { // a named tuple's field
      const std::vector<std::string> &fields = array.named->fields;
      auto field = std::find(fields.begin(), fields.end(), ast::attr(expr));
      if (field == fields.end())
        fail(CompileError::Kind::Typing, fn, expr,
             "'" + std::string(array.named->name) + "' object has no attribute '" +
                 ast::attr(expr) + "'");
      return array.elements[field - fields.begin()];
    }
    DType named;
    if (moduleBase && ast::is(base, ast::NodeKind::Name) &&
        resolve(spec, ast::id(base)).kind == NameBinding::Kind::NumPy &&
        dtypeFromName(ast::attr(expr), named))
      return Type::dtypeValue(named); // np.float32 as a value
    if (array.kind == Type::Kind::Array) {
      const std::string &attr = ast::attr(expr);
      if (attr == "dtype")
        return Type::dtypeValue(array.dtype);
      if (attr == "shape")
        return Type::tuple(std::vector<Type>(array.ndim, Type::integer()));
      if (attr == "ndim" || attr == "size" || attr == "itemsize" || attr == "nbytes")
        return Type::integer();
      if (attr == "strides") // in bytes
        return Type::tuple(std::vector<Type>(array.ndim, Type::integer()));
      if (attr == "T") // a view with the axes reversed
        return array.ndim <= 1
                   ? array
                   : Type::array(array.dtype, array.ndim, array.fortran, array.contiguous);
      if (attr == "real" || attr == "imag") {
        // Of complex numbers: a float view of their parts. Of real ones:
        // .real is the array itself, .imag a new array of zeros.
        if (isComplexDType(array.dtype))
          return Type::array(complexPartDType(array.dtype), array.ndim);
        if (attr == "real")
          return array;
        spec.loops = true;
        return Type::array(array.dtype, array.ndim, true);
      }
      fail(CompileError::Kind::Unsupported, fn, expr,
           "the array attribute '" + attr + "' is not supported");
    }
    NameBinding::Kind module = ast::is(base, ast::NodeKind::Name)
                                   ? resolve(spec, ast::id(base)).kind
                                   : NameBinding::Kind::Local;
    if (module == NameBinding::Kind::Math || module == NameBinding::Kind::NumPy) {
      // math's and NumPy's constants: Python floats (np.pi is math.pi).
      bool isMath = module == NameBinding::Kind::Math;
      const std::string &attr = ast::attr(expr);
      if (attr == "pi" || attr == "e" || attr == "inf" || attr == "nan" ||
          (isMath && attr == "tau") || (!isMath && attr == "euler_gamma"))
        return Type::floating();
      if (isMath)
        fail(CompileError::Kind::Unsupported, fn, expr, "math." + attr + " is not supported here");
    }
    const std::string &attr = ast::attr(expr);
    if (attr == "real" || attr == "imag") {
      Type t = exprType(spec, base);
      if (t.kind == Type::Kind::Bottom)
        return t;
      if (t.isComplex()) // z.real of numpy.complex128 is a numpy.float64
        return t.isNumPy() ? Type::numpy(complexPartDType(t.dtype)) : Type::floating();
    }
    fail(CompileError::Kind::Unsupported, fn, expr,
         "attribute access is not supported (except .real and .imag of complex numbers)");
  }
  if (kind == ast::NodeKind::BinOp) {
    Type left = exprType(spec, ast::left(expr)), right = exprType(spec, ast::right(expr));
    // ** of NumPy's complex numbers is np.power's loop (plait.numpy's).
    auto numpyComplex = [](const Type &t) {
      return t.kind == Type::Kind::Array ? isComplexDType(t.dtype) : t.isComplex() && t.isNumPy();
    };
    bool numpyOperands = left.kind == Type::Kind::Array || right.kind == Type::Kind::Array ||
                         left.isNumPy() || right.isNumPy();
    bool complexPower =
        ast::op(expr) == ast::Operator::Pow && numpyOperands &&
        (numpyComplex(left) || numpyComplex(right) || left.isComplex() || right.isComplex());
    // An array ** 2 (the int literal) is np.square, as NumPy's
    // fast_scalar_power makes it.
    const SExpr &exponent = ast::right(expr);
    if (complexPower && left.kind == Type::Kind::Array && ast::is(exponent, ast::NodeKind::Const) &&
        ast::value(exponent).kind == SExpr::Kind::Integer && ast::value(exponent).text == "2" &&
        options.overloaded.count("numpy.square"))
      if (std::optional<Type> resolved =
              overloadCallType(spec, expr, "numpy.square", {&ast::left(expr)}))
        return *resolved;
    if (complexPower && options.overloaded.count("numpy.power"))
      if (std::optional<Type> resolved =
              overloadCallType(spec, expr, "numpy.power", {&ast::left(expr), &ast::right(expr)}))
        return *resolved;
    return binaryType(spec, expr, ast::op(expr), left, right);
  }
  if (kind == ast::NodeKind::UnaryOp) {
    ast::Operator op = ast::op(expr);
    int64_t negated;
    if (negatedIntConstant(expr, negated))
      return Type::integer(); // -9223372036854775808 fits though its operand does not
    if (op == ast::Operator::Not)
      markTruthTest(spec, ast::operand(expr));
    Type operand = exprType(spec, ast::operand(expr));
    if (op == ast::Operator::Not) {
      if (operand.kind == Type::Kind::Array)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the truth value of an array is ambiguous (test its elements)");
      return Type::boolean();
    }
    if (operand.kind == Type::Kind::Bottom)
      return operand;
    // Arrays: elementwise, with the element type's rules.
    Type t = operand.kind == Type::Kind::Array ? operand.elementType() : operand;
    const char *symbol = ast::spelling(op);
    if (!t.isNumber() || (op == ast::Operator::Invert && (t.isFloating() || t.isComplex())) ||
        (op == ast::Operator::UAdd && t.isNumPy() && t.dtype == DType::Bool))
      fail(CompileError::Kind::Typing, fn, expr,
           std::string("bad operand type for unary ") + symbol + ": '" +
               operand.str() + "'");
    if (t.isNumPy() && t.dtype == DType::Bool && op == ast::Operator::USub)
      fail(CompileError::Kind::Typing, fn, expr,
           "The numpy boolean negative, the `-` operator, is not supported, use "
           "the `~` operator or the logical_not function instead.");
    if (operand.kind == Type::Kind::Array) {
      spec.loops = true;
      return Type::newArray(operand.dtype, operand.ndim, {operand});
    }
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (kind == ast::NodeKind::BoolOp && spec.truthTests.count(&expr)) {
    // Only its truth is used: each operand's truth, whatever their types.
    bool anyBottom = false;
    for (const SExpr *operand : ast::values(expr)) {
      Type t = exprType(spec, *operand);
      if (t.kind == Type::Kind::Array)
        fail(CompileError::Kind::Unsupported, fn, *operand,
             "the truth value of an array is ambiguous (test its elements)");
      anyBottom |= t.kind == Type::Kind::Bottom;
    }
    return anyBottom ? Type::bottom() : Type::boolean();
  }
  if (kind == ast::NodeKind::BoolOp) {
    Type result;
    for (const SExpr *operand : ast::values(expr)) {
      Type t = exprType(spec, *operand);
      if (t.kind == Type::Kind::List || t.kind == Type::Kind::Dict)
        fail(CompileError::Kind::Unsupported, fn, *operand,
             std::string("'") + ast::spelling(ast::op(expr)) + "' of " +
                 (t.kind == Type::Kind::List ? "lists" : "dicts") +
                 " as a value is not supported (in an if, while or assert they are tested)");
      Type next;
      if (!unify(result, t, next))
        fail(CompileError::Kind::Typing, fn, *operand,
             std::string("operands of ") + ast::spelling(ast::op(expr)) +
                 " have conflicting types " + result.str() + " and " + t.str());
      result = next;
    }
    return result;
  }
  if (kind == ast::NodeKind::Compare) {
    if (std::optional<Type> strs = strComparisonType(spec, expr))
      return *strs; // a str computed when the code runs
    if (std::optional<Type> known = constantComparisonType(spec, expr))
      return *known; // strs, None: known when compiling
    std::vector<const SExpr *> operands = {&ast::left(expr)};
    for (const SExpr *c : ast::comparators(expr).rest())
      operands.push_back(c);
    std::vector<const SExpr *> ops = ast::ops(expr).rest();
    if (ops.size() == 1 && (ast::operatorOf(*ops[0]) == ast::Operator::In ||
                            ast::operatorOf(*ops[0]) == ast::Operator::NotIn))
      return containsType(spec, expr);
    if (ops.size() == 1 &&
        (ast::operatorOf(*ops[0]) == ast::Operator::Eq ||
         ast::operatorOf(*ops[0]) == ast::Operator::NotEq) &&
        (exprType(spec, *operands[0]).kind == Type::Kind::List ||
         exprType(spec, *operands[1]).kind == Type::Kind::List))
      return listEqualityType(spec, expr);
    {
      // Arrays compare elementwise into a bool array (one comparison).
      Type a = exprType(spec, *operands[0]);
      Type b = exprType(spec, *operands.back());
      if (a.kind == Type::Kind::Array || b.kind == Type::Kind::Array) {
        ast::Operator o = ast::operatorOf(*ops[0]);
        if (ops.size() != 1 || o == ast::Operator::Is || o == ast::Operator::IsNot || o == ast::Operator::In || o == ast::Operator::NotIn)
          fail(CompileError::Kind::Unsupported, fn, expr,
               "arrays support one comparison at a time (<, <=, ==, !=, >, >=)");
        for (const Type &t : {a, b})
          if (t.kind != Type::Kind::Array && !t.isNumber() && t.kind != Type::Kind::Bottom)
            fail(CompileError::Kind::Typing, fn, expr, "cannot compare an array with " + t.str());
        bool complexOperand = (a.kind == Type::Kind::Array ? a.elementType() : a).isComplex() ||
                              (b.kind == Type::Kind::Array ? b.elementType() : b).isComplex();
        if (complexOperand && o != ast::Operator::Eq && o != ast::Operator::NotEq)
          fail(CompileError::Kind::Typing, fn, expr,
               "ordering comparisons are not supported between complex numbers");
        spec.loops = true;
        return Type::newArray(DType::Bool,
                              std::max(a.kind == Type::Kind::Array ? a.ndim : 0,
                                       b.kind == Type::Kind::Array ? b.ndim : 0),
                              {a, b});
      }
    }
    if (std::optional<Type> tuples = tupleComparisonType(spec, expr, operands, ops))
      return *tuples;
    // NumPy comparisons give numpy.bool; a chain gives its last
    // comparison's result, so numpy.bool when every link involves NumPy.
    bool allNumPy = true, anyBottom = false;
    Type previous;
    for (size_t i = 0; i < operands.size(); ++i) {
      Type t = exprType(spec, *operands[i]);
      if (i > 0)
        allNumPy &= previous.isComplex() || t.isComplex() ? complexUsesNumPy(previous, t)
                                                          : previous.isNumPy() || t.isNumPy();
      previous = t;
      if (t.isComplex()) {
        // Complex numbers are not ordered: only == and != compare them.
        ast::Operator next = ast::operatorOf(*ops[std::min(i, ops.size() - 1)]);
        ast::Operator previous = ast::operatorOf(*ops[i == 0 ? 0 : i - 1]);
        for (ast::Operator o : {next, previous})
          if (o != ast::Operator::Eq && o != ast::Operator::NotEq)
            fail(CompileError::Kind::Typing, fn, expr,
                 "ordering comparisons are not supported between complex numbers");
        continue;
      }
      anyBottom |= t.kind == Type::Kind::Bottom;
      if (t.kind == Type::Kind::Bottom || t.isNumeric())
        continue;
      fail(CompileError::Kind::Unsupported, fn, *operands[i],
           "comparing values of type " + t.str() + " is not supported");
    }
    if (anyBottom)
      return Type::bottom(); // (an operand not typed yet may be an array)
    for (const SExpr *symbol : ops) {
      ast::Operator op = ast::operatorOf(*symbol);
      if (op == ast::Operator::Is || op == ast::Operator::IsNot || op == ast::Operator::In ||
          op == ast::Operator::NotIn)
        fail(CompileError::Kind::Unsupported, fn, expr,
             std::string("the comparison operator '") + ast::spelling(op) + "' is not supported");
    }
    if (allNumPy)
      return Type::numpy(DType::Bool);
    return Type::boolean();
  }
  if (kind == ast::NodeKind::IfExp) {
    if (std::optional<bool> known = knownTest(spec, ast::test(expr)))
      return exprType(spec, *known ? ast::body(expr) : ast::orelse(expr)); // the live side
    Type a = exprType(spec, ast::body(expr));
    Type b = exprType(spec, ast::orelse(expr));
    Type result;
    if (!unify(a, b, result))
      fail(CompileError::Kind::Typing, fn, expr,
           "the branches of this conditional expression have conflicting "
           "types " + a.str() + " and " + b.str());
    return result;
  }
  if (kind == ast::NodeKind::Call)
    return callType(spec, expr);
  if (kind == ast::NodeKind::Closure) {
    // A lambda or inner def: its function, with the captured values.
    std::vector<Type> captured;
    for (const SExpr *name : ast::captures(expr).rest()) {
      captured.push_back(exprType(spec, *name));
      if (captured.back().kind == Type::Kind::Bottom)
        return Type::bottom();
    }
    return Type::closure(ast::closureFunction(expr), std::move(captured));
  }
  if (kind == ast::NodeKind::List && !spec.sequenceLiterals.count(&expr))
    return listDisplayType(spec, expr);
  if (kind == ast::NodeKind::Dict)
    return dictDisplayType(spec, expr);
  if (kind == ast::NodeKind::Tuple || kind == ast::NodeKind::List) {
    std::vector<Type> elements;
    for (const SExpr *element : ast::elts(expr)) {
      if (ast::is(*element, ast::NodeKind::Starred)) {
        // (*a.shape, 3): a tuple's elements in place.
        Type spliced = exprType(spec, ast::value(*element));
        if (spliced.kind == Type::Kind::Bottom)
          return spliced;
        if (spliced.kind != Type::Kind::Tuple)
          fail(CompileError::Kind::Unsupported, fn, *element,
               "*x in a display takes a tuple in compiled code, not " + spliced.str());
        spec.types[element] = spliced;
        elements.insert(elements.end(), spliced.elements.begin(), spliced.elements.end());
        continue;
      }
      elements.push_back(exprType(spec, *element));
    }
    for (const Type &t : elements)
      if (t.kind == Type::Kind::Bottom)
        return Type::bottom();
    return Type::tuple(std::move(elements));
  }
  if (kind == ast::NodeKind::Subscript) {
    std::string object = numpyFunction(spec, ast::value(expr));
    if (!object.empty() && options.overloaded.count("numpy." + object + ".__getitem__"))
      return subscriptCallType(spec, expr, "numpy." + object + ".__getitem__");
    Type base = exprType(spec, ast::value(expr));
    const SExpr &index = ast::slice(expr);
    if (base.kind == Type::Kind::Bottom)
      return base;
    if (base.kind == Type::Kind::Array)
      return subscriptType(spec, expr);
    if (base.kind == Type::Kind::List)
      return listSubscriptType(spec, expr, base);
    if (base.isStr())
      return strSubscriptType(spec, expr);
    if (base.kind == Type::Kind::Dict) {
      if (dictKeyType(spec, base, index).kind == Type::Kind::Bottom)
        return Type::bottom();
      if (base.valueType().kind == Type::Kind::Bottom)
        spec.untypedReads.insert(&expr);
      return base.valueType();
    }
    if (base.kind != Type::Kind::Tuple)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "indexing a " + base.str() + " is not supported");
    bool negative = ast::is(index, ast::NodeKind::UnaryOp) &&
                    ast::op(index) == ast::Operator::USub &&
                    ast::is(ast::operand(index), ast::NodeKind::Const);
    const SExpr &constant = negative ? ast::operand(index) : index;
    if (!ast::is(constant, ast::NodeKind::Const) ||
        ast::value(constant).kind != SExpr::Kind::Integer) {
      // A variable index: the elements must have one type (shape[k]).
      Type position = exprType(spec, index);
      if (position.kind == Type::Kind::Bottom)
        return position;
      if (!position.isIntegral())
        fail(CompileError::Kind::Typing, fn, index,
             "tuple indices must be integers or slices, not " + position.str());
      if (!hasUniformScalars(base))
        fail(CompileError::Kind::Unsupported, fn, index,
             "a tuple of " + base.str() +
                 " can only be indexed by integer constants (a variable index needs elements "
                 "of one scalar type)");
      return base.elements[0];
    }
    long long i = std::strtoll(ast::value(constant).text.c_str(), nullptr, 10);
    if (negative)
      i = -i;
    long long n = static_cast<long long>(base.elements.size());
    if (i < -n || i >= n)
      fail(CompileError::Kind::Typing, fn, index, "tuple index out of range");
    return base.elements[i < 0 ? i + n : i];
  }
  if (expr.head() == "GeneratorExp" ||
      (kind == ast::NodeKind::Unsupported && ast::what(expr) == "GeneratorExp"))
    fail(CompileError::Kind::Unsupported, fn, expr,
         "a generator expression is compiled where sum(), min(), max(), any() or all() "
         "consumes it (without keyword arguments but default=); make a list for the others "
         "([x for x in ...])");
  if (kind == ast::NodeKind::Unsupported)
    fail(CompileError::Kind::Unsupported, fn, expr,
         ast::what(expr) + " expressions are not supported");
  fail(CompileError::Kind::Unsupported, fn, expr, expr.head() + " expressions are not supported");
}

std::optional<Type> Typer::tupleComparisonType(Specialization &spec, const SExpr &expr,
                                               const std::vector<const SExpr *> &operands,
                                               const std::vector<const SExpr *> &ops) {
  // (a, b) < (c, d): CPython compares the first elements that differ, or the
  // lengths when one tuple starts the other.
  std::vector<Type> types;
  bool anyTuple = false;
  for (const SExpr *operand : operands) {
    types.push_back(exprType(spec, *operand));
    anyTuple |= types.back().kind == Type::Kind::Tuple;
  }
  if (!anyTuple)
    return std::nullopt;
  const FunctionSource &fn = *spec.source;
  std::function<void(const Type &, const Type &, ast::Operator)> check =
      [&](const Type &a, const Type &b, ast::Operator op) {
        if (a.kind == Type::Kind::Bottom || b.kind == Type::Kind::Bottom)
          return;
        if (a.kind == Type::Kind::Tuple && b.kind == Type::Kind::Tuple) {
          for (size_t k = 0; k < std::min(a.elements.size(), b.elements.size()); ++k)
            check(a.elements[k], b.elements[k], op);
          return;
        }
        bool ordering = op != ast::Operator::Eq && op != ast::Operator::NotEq;
        if (!a.isNumeric() || !b.isNumeric() || a.kind == Type::Kind::Tuple ||
            b.kind == Type::Kind::Tuple)
          fail(CompileError::Kind::Unsupported, fn, expr,
               "comparing " + a.str() + " with " + b.str() + " in tuples is not supported");
        if (ordering && (a.isComplex() || b.isComplex()))
          fail(CompileError::Kind::Typing, fn, expr,
               "ordering comparisons are not supported between complex numbers");
      };
  for (size_t i = 0; i < ops.size(); ++i) {
    ast::Operator op = ast::operatorOf(*ops[i]);
    if (op != ast::Operator::Eq && op != ast::Operator::NotEq && op != ast::Operator::Lt &&
        op != ast::Operator::LtE && op != ast::Operator::Gt && op != ast::Operator::GtE)
      return std::nullopt; // (in, is: their own rules)
    const Type &a = types[i], &b = types[i + 1];
    if (a.kind == Type::Kind::Bottom || b.kind == Type::Kind::Bottom)
      return Type::bottom();
    bool equality = op == ast::Operator::Eq || op == ast::Operator::NotEq;
    if ((a.kind == Type::Kind::Tuple) != (b.kind == Type::Kind::Tuple)) {
      if (equality)
        continue; // a tuple equals only a tuple
      fail(CompileError::Kind::Typing, fn, expr,
           std::string("'") + ast::spelling(op) + "' not supported between instances of '" +
               (a.kind == Type::Kind::Tuple ? "tuple" : a.str()) + "' and '" +
               (b.kind == Type::Kind::Tuple ? "tuple" : b.str()) + "'");
    }
    check(a, b, op);
  }
  return Type::boolean();
}

} // namespace plait::frontend
