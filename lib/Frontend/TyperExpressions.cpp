//===- TyperExpressions.cpp - typing expressions ----------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace plait::frontend {

Type Typer::binaryType(Specialization &spec, const SExpr &node,
                       const std::string &op, const Type &left,
                       const Type &right) {
  if (left.kind == Type::Kind::Bottom || right.kind == Type::Kind::Bottom)
    return Type::bottom();
  static const std::map<std::string, const char *> symbols = {
      {"Add", "+"},     {"Sub", "-"},    {"Mult", "*"},   {"Div", "/"},
      {"FloorDiv", "//"}, {"Mod", "%"},  {"Pow", "**"},   {"LShift", "<<"},
      {"RShift", ">>"}, {"BitOr", "|"},  {"BitXor", "^"}, {"BitAnd", "&"},
      {"MatMult", "@"}};
  auto symbol = symbols.find(op);
  if (symbol == symbols.end() || op == "MatMult")
    fail(CompileError::Kind::Unsupported, *spec.source, node,
         "operator " + (symbol == symbols.end() ? op : symbol->second) +
             " is not supported");
  auto typeError = [&]() {
    fail(CompileError::Kind::Typing, *spec.source, node,
         std::string("unsupported operand type(s) for ") + symbol->second +
             ": '" + left.str() + "' and '" + right.str() + "'");
  };
  // A Python complex is weak: with float32 NumPy computes in complex64,
  // which plait does not have (numpy.complex128 with float32 is complex128).
  auto isFloat32 = [](const Type &t) {
    return (t.isNumPy() || t.kind == Type::Kind::Array) && t.dtype == DType::Float32;
  };
  if ((left.kind == Type::Kind::Complex && isFloat32(right)) ||
      (right.kind == Type::Kind::Complex && isFloat32(left)))
    fail(CompileError::Kind::Unsupported, *spec.source, node,
         "float32 with a Python complex number computes in complex64, which is not supported");
  if (left.kind == Type::Kind::Array || right.kind == Type::Kind::Array) {
    // Elementwise, as NumPy's ufuncs: each element computes as the scalars
    // would (NumPy scalars are strong, Python numbers weak); shapes broadcast.
    // (A Python complex meets array elements as NumPy's complex: weak.)
    auto element = [](const Type &t) {
      return t.kind == Type::Kind::Array     ? t.elementType()
             : t.kind == Type::Kind::Complex ? Type::numpy(DType::Complex128)
                                             : t;
    };
    if ((left.kind != Type::Kind::Array && !left.isNumber()) ||
        (right.kind != Type::Kind::Array && !right.isNumber()))
      typeError();
    Type result = binaryType(spec, node, op, element(left), element(right));
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
    if (op == "Pow")
      fail(CompileError::Kind::Unsupported, *spec.source, node,
           "** of complex numbers is not supported");
    if (op != "Add" && op != "Sub" && op != "Mult" && op != "Div")
      typeError();
    return complexUsesNumPy(left, right) ? Type::numpy(DType::Complex128) : Type::complex();
  }
  if (left.isNumPy() || right.isNumPy()) {
    DType common = numpyCommonType(left, right).dtype;
    bool bitwise = op == "BitOr" || op == "BitXor" || op == "BitAnd" ||
                   op == "LShift" || op == "RShift";
    if (op == "Div")
      return Type::numpy(isFloatDType(common) ? common : DType::Float64);
    if (bitwise && isFloatDType(common))
      typeError();
    if (common == DType::Bool) {
      if (op == "Sub")
        fail(CompileError::Kind::Typing, *spec.source, node,
             "numpy boolean subtract, the `-` operator, is not supported, use "
             "the bitwise_xor, the `^` operator, or the logical_xor function instead.");
      // + is logical or, * logical and; the others compute in int8.
      if (op != "Add" && op != "Mult" && op != "BitOr" && op != "BitXor" && op != "BitAnd")
        return Type::numpy(DType::Int8);
    }
    return Type::numpy(common);
  }
  bool anyFloat = left.kind == Type::Kind::Float || right.kind == Type::Kind::Float;
  bool bothBool = left.kind == Type::Kind::Bool && right.kind == Type::Kind::Bool;
  if (op == "Div")
    return Type::floating();
  if (op == "BitOr" || op == "BitXor" || op == "BitAnd") {
    if (anyFloat)
      typeError();
    return bothBool ? Type::boolean() : Type::integer();
  }
  if (op == "LShift" || op == "RShift") {
    if (anyFloat)
      typeError();
    return Type::integer();
  }
  return anyFloat ? Type::floating() : Type::integer();
}


Type Typer::computeType(Specialization &spec, const SExpr &expr) {
  const FunctionSource &fn = *spec.source;
  const std::string &head = expr.head();
  if (head == "Const") {
    const SExpr &value = expr.field(0);
    if (value.kind == SExpr::Kind::String)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "string constants are not supported");
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
  if (head == "Name") {
    const std::string &name = expr.field(0).text;
    NameBinding binding = resolve(spec, name);
    switch (binding.kind) {
    case NameBinding::Kind::Local:
      if (spec.loopTargets.count(name) && spec.variables[name].kind == Type::Kind::Array &&
          !rowsInScope.count(name))
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the row variable '" + name + "' can be used only inside its loop");
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
    case NameBinding::Kind::Undefined:
      fail(CompileError::Kind::Typing, fn, expr,
           "name '" + name + "' is not defined");
    case NameBinding::Kind::Unsupported:
      fail(CompileError::Kind::Unsupported, fn, expr,
           "global '" + name + "' is a " + binding.name +
               ", which compiled code cannot use");
    default:
      fail(CompileError::Kind::Unsupported, fn, expr,
           "'" + name + "' can only be called here");
    }
  }
  if (head == "Attribute") {
    const SExpr &base = expr.field(0);
    bool local = base.head() == "Name" &&
                 resolve(spec, base.field(0).text).kind == NameBinding::Kind::Local;
    if (local)
      exprType(spec, base); // (recorded: the emitter loads it)
    if (local && spec.variables[base.field(0).text].kind == Type::Kind::Bottom)
      return Type::bottom(); // typed in a later round (a jitted callee's result)
    if (local && spec.variables[base.field(0).text].kind == Type::Kind::Array) {
      const Type &array = spec.variables[base.field(0).text];
      const std::string &attr = expr.field(1).text;
      if (attr == "shape")
        return Type::tuple(std::vector<Type>(array.ndim, Type::integer()));
      if (attr == "ndim" || attr == "size")
        return Type::integer();
      fail(CompileError::Kind::Unsupported, fn, expr,
           "the array attribute '" + attr + "' is not supported");
    }
    if (base.head() == "Name" &&
        resolve(spec, base.field(0).text).kind == NameBinding::Kind::Math) {
      const std::string &attr = expr.field(1).text;
      if (attr == "pi" || attr == "e" || attr == "tau" || attr == "inf" ||
          attr == "nan")
        return Type::floating();
      fail(CompileError::Kind::Unsupported, fn, expr,
           "math." + attr + " is not supported here");
    }
    const std::string &attr = expr.field(1).text;
    if (attr == "real" || attr == "imag") {
      Type t = exprType(spec, base);
      if (t.kind == Type::Kind::Bottom)
        return t;
      if (t.isComplex()) // z.real of numpy.complex128 is a numpy.float64
        return t.isNumPy() ? Type::numpy(DType::Float64) : Type::floating();
    }
    fail(CompileError::Kind::Unsupported, fn, expr,
         "attribute access is not supported (except .real and .imag of complex numbers)");
  }
  if (head == "BinOp")
    return binaryType(spec, expr, expr.field(0).text, exprType(spec, expr.field(1)),
                      exprType(spec, expr.field(2)));
  if (head == "UnaryOp") {
    const std::string &op = expr.field(0).text;
    int64_t negated;
    if (negatedIntConstant(expr, negated))
      return Type::integer(); // -9223372036854775808 fits though its operand does not
    Type operand = exprType(spec, expr.field(1));
    if (op == "Not") {
      if (operand.kind == Type::Kind::Array)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the truth value of an array is ambiguous (test its elements)");
      return Type::boolean();
    }
    if (operand.kind == Type::Kind::Bottom)
      return operand;
    // Arrays: elementwise, with the element type's rules.
    Type t = operand.kind == Type::Kind::Array ? operand.elementType() : operand;
    const char *symbol = op == "USub" ? "-" : op == "UAdd" ? "+" : "~";
    if (!t.isNumber() || (op == "Invert" && (t.isFloating() || t.isComplex())) ||
        (op == "UAdd" && t.isNumPy() && t.dtype == DType::Bool))
      fail(CompileError::Kind::Typing, fn, expr,
           std::string("bad operand type for unary ") + symbol + ": '" +
               operand.str() + "'");
    if (t.isNumPy() && t.dtype == DType::Bool && op == "USub")
      fail(CompileError::Kind::Typing, fn, expr,
           "The numpy boolean negative, the `-` operator, is not supported, use "
           "the `~` operator or the logical_not function instead.");
    if (operand.kind == Type::Kind::Array) {
      spec.loops = true;
      return Type::newArray(operand.dtype, operand.ndim, {operand});
    }
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (head == "BoolOp") {
    Type result;
    for (size_t i = 1; i < expr.numFields(); ++i) {
      Type t = exprType(spec, expr.field(i));
      Type next;
      if (!unify(result, t, next))
        fail(CompileError::Kind::Typing, fn, expr.field(i),
             "operands of " + std::string(expr.field(0).text == "And" ? "and" : "or") +
                 " have conflicting types " + result.str() + " and " + t.str());
      result = next;
    }
    return result;
  }
  if (head == "Compare") {
    std::vector<const SExpr *> operands = {&expr.field(0)};
    for (const SExpr *c : expr.field(2).rest())
      operands.push_back(c);
    std::vector<const SExpr *> ops = expr.field(1).rest();
    {
      // Arrays compare elementwise into a bool array (one comparison).
      Type a = exprType(spec, *operands[0]);
      Type b = exprType(spec, *operands.back());
      if (a.kind == Type::Kind::Array || b.kind == Type::Kind::Array) {
        const std::string &o = ops[0]->text;
        if (ops.size() != 1 || o == "Is" || o == "IsNot" || o == "In" || o == "NotIn")
          fail(CompileError::Kind::Unsupported, fn, expr,
               "arrays support one comparison at a time (<, <=, ==, !=, >, >=)");
        for (const Type &t : {a, b})
          if (t.kind != Type::Kind::Array && !t.isNumber() && t.kind != Type::Kind::Bottom)
            fail(CompileError::Kind::Typing, fn, expr, "cannot compare an array with " + t.str());
        bool complexOperand = (a.kind == Type::Kind::Array ? a.elementType() : a).isComplex() ||
                              (b.kind == Type::Kind::Array ? b.elementType() : b).isComplex();
        if (complexOperand && o != "Eq" && o != "NotEq")
          fail(CompileError::Kind::Typing, fn, expr,
               "ordering comparisons are not supported between complex numbers");
        spec.loops = true;
        return Type::newArray(DType::Bool,
                              std::max(a.kind == Type::Kind::Array ? a.ndim : 0,
                                       b.kind == Type::Kind::Array ? b.ndim : 0),
                              {a, b});
      }
    }
    // NumPy comparisons give numpy.bool; a chain gives its last
    // comparison's result, so numpy.bool when every link involves NumPy.
    bool allNumPy = true;
    Type previous;
    for (size_t i = 0; i < operands.size(); ++i) {
      Type t = exprType(spec, *operands[i]);
      if (i > 0)
        allNumPy &= previous.isComplex() || t.isComplex() ? complexUsesNumPy(previous, t)
                                                          : previous.isNumPy() || t.isNumPy();
      previous = t;
      if (t.isComplex()) {
        // Complex numbers are not ordered: only == and != compare them.
        const std::string &next = ops[std::min(i, ops.size() - 1)]->text;
        const std::string &previous = ops[i == 0 ? 0 : i - 1]->text;
        for (const std::string *o : {&next, &previous})
          if (*o != "Eq" && *o != "NotEq")
            fail(CompileError::Kind::Typing, fn, expr,
                 "ordering comparisons are not supported between complex numbers");
        continue;
      }
      if (t.kind == Type::Kind::Bottom || t.isNumeric())
        continue;
      fail(CompileError::Kind::Unsupported, fn, *operands[i],
           "comparing values of type " + t.str() + " is not supported");
    }
    for (const SExpr *op : ops)
      if (op->text == "Is" || op->text == "IsNot" || op->text == "In" ||
          op->text == "NotIn")
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the comparison operator " + op->text + " is not supported");
    if (allNumPy)
      return Type::numpy(DType::Bool);
    return Type::boolean();
  }
  if (head == "IfExp") {
    exprType(spec, expr.field(0));
    Type a = exprType(spec, expr.field(1));
    Type b = exprType(spec, expr.field(2));
    Type result;
    if (!unify(a, b, result))
      fail(CompileError::Kind::Typing, fn, expr,
           "the branches of this conditional expression have conflicting "
           "types " + a.str() + " and " + b.str());
    return result;
  }
  if (head == "Call")
    return callType(spec, expr);
  if (head == "Tuple") {
    std::vector<Type> elements;
    for (size_t i = 0; i < expr.numFields(); ++i) {
      if (expr.field(i).head() == "Starred")
        fail(CompileError::Kind::Unsupported, fn, expr.field(i),
             "starred expressions are not supported");
      elements.push_back(exprType(spec, expr.field(i)));
    }
    for (const Type &t : elements)
      if (t.kind == Type::Kind::Bottom)
        return Type::bottom();
    return Type::tuple(std::move(elements));
  }
  if (head == "Subscript") {
    Type base = exprType(spec, expr.field(0));
    const SExpr &index = expr.field(1);
    if (base.kind == Type::Kind::Bottom)
      return base;
    if (base.kind == Type::Kind::Array)
      return subscriptType(spec, expr);
    if (base.kind != Type::Kind::Tuple)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "indexing a " + base.str() + " is not supported");
    bool negative = index.head() == "UnaryOp" && index.field(0).text == "USub" &&
                    index.field(1).head() == "Const";
    const SExpr &constant = negative ? index.field(1) : index;
    if (constant.head() != "Const" ||
        constant.field(0).kind != SExpr::Kind::Integer)
      fail(CompileError::Kind::Unsupported, fn, index,
           "tuples can only be indexed by integer constants");
    long long i = std::strtoll(constant.field(0).text.c_str(), nullptr, 10);
    if (negative)
      i = -i;
    long long n = static_cast<long long>(base.elements.size());
    if (i < -n || i >= n)
      fail(CompileError::Kind::Typing, fn, index, "tuple index out of range");
    return base.elements[i < 0 ? i + n : i];
  }
  if (head == "Unsupported")
    fail(CompileError::Kind::Unsupported, fn, expr,
         expr.field(0).text + " expressions are not supported");
  fail(CompileError::Kind::Unsupported, fn, expr,
       head + " expressions are not supported");
}

} // namespace plait::frontend
