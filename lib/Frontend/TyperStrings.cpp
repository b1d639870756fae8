//===- TyperStrings.cpp - typing strs computed at run time ----------------===//
//
// A str the code computes (`a + b`, `str(x)`, an f-string, a method's
// result, one of two strs a run-time condition chooses) is a run-time str
// (Type::Kind::Str). Its operators, indexing and methods are Python on
// plait.overload (python/plait/_strings.py, keys "str.<method>"); the
// typer only routes them there and gives CPython's TypeErrors for operands
// that are not strs. Comparisons of strs known when compiling stay constants
// (TyperConstants.cpp).
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include "plait/Frontend/AST.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace plait::frontend {

namespace {

/// The name CPython's messages give a value of type `t`.
std::string pythonTypeName(const Type &t) {
  switch (t.kind) {
  case Type::Kind::String:
  case Type::Kind::Str:
    return "str";
  case Type::Kind::List:
    return "list";
  case Type::Kind::Dict:
    return "dict";
  case Type::Kind::Tuple:
    return "tuple";
  case Type::Kind::Array:
    return "numpy.ndarray";
  case Type::Kind::None:
    return "NoneType";
  default:
    return t.str();
  }
}

} // namespace

std::optional<Type> Typer::strImplementation(Specialization &spec, const SExpr &node,
                                             const std::string &target,
                                             std::vector<const SExpr *> operands) {
  if (!options.overloaded.count(target))
    return std::nullopt;
  return overloadCallType(spec, node, target, operands);
}

Type Typer::strOperatorType(Specialization &spec, const SExpr &node, ast::Operator op,
                            const Type &left, const Type &right) {
  const FunctionSource &fn = *spec.source;
  bool inPlace = ast::is(node, ast::NodeKind::AugAssign);
  const SExpr &a = inPlace ? ast::target(node) : ast::left(node);
  const SExpr &b = inPlace ? ast::value(node) : ast::right(node);
  std::string target;
  if (op == ast::Operator::Add && left.isStr() && right.isStr())
    target = "str.__add__";
  else if (op == ast::Operator::Mult && left.isStr() && right.isIntegral())
    target = "str.__mul__";
  else if (op == ast::Operator::Mult && left.isIntegral() && right.isStr())
    target = "str.__rmul__";
  if (!target.empty())
    if (std::optional<Type> result = strImplementation(spec, node, target, {&a, &b}))
      return *result;
  if (op == ast::Operator::Mod && left.isStr())
    fail(CompileError::Kind::Unsupported, fn, node,
         "'%' formatting of strs is not supported (write an f-string)");
  if (op == ast::Operator::Add && left.isStr())
    fail(CompileError::Kind::Typing, fn, node,
         "can only concatenate str (not \"" + pythonTypeName(right) + "\") to str");
  if (op == ast::Operator::Mult && (left.isStr() || right.isStr()))
    fail(CompileError::Kind::Typing, fn, node,
         "can't multiply sequence by non-int of type '" +
             pythonTypeName(left.isStr() ? right : left) + "'");
  fail(CompileError::Kind::Typing, fn, node,
       std::string("unsupported operand type(s) for ") + ast::spelling(op) + (inPlace ? "=" : "") +
           ": '" + pythonTypeName(left) + "' and '" + pythonTypeName(right) + "'");
}

std::optional<Type> Typer::strComparisonType(Specialization &spec, const SExpr &compare) {
  const FunctionSource &fn = *spec.source;
  std::vector<const SExpr *> ops = ast::ops(compare).rest();
  const SExpr &left = ast::left(compare);
  std::vector<const SExpr *> rights = ast::comparators(compare).rest();
  Type a = exprType(spec, left);
  bool anyRuntime = a.kind == Type::Kind::Str;
  for (const SExpr *right : rights)
    anyRuntime |= exprType(spec, *right).kind == Type::Kind::Str;
  if (!anyRuntime)
    return std::nullopt;
  if (ops.size() != 1)
    fail(CompileError::Kind::Unsupported, fn, compare,
         "chained comparisons of strs computed when the code runs are not supported (compare "
         "two at a time)");
  const SExpr &right = *rights[0];
  Type b = exprType(spec, right);
  if (a.kind == Type::Kind::Bottom || b.kind == Type::Kind::Bottom)
    return Type::bottom();
  ast::Operator op = ast::operatorOf(*ops[0]);
  switch (op) {
  case ast::Operator::Is:
  case ast::Operator::IsNot:
    return std::nullopt; // (only `is None` is known: TyperConstants.cpp)
  case ast::Operator::In:
  case ast::Operator::NotIn:
    if (b.kind == Type::Kind::Tuple && a.isStr() && !b.elements.empty() &&
        std::all_of(b.elements.begin(), b.elements.end(), [](const Type &t) { return t.isStr(); }))
      if (std::optional<Type> found =
              strImplementation(spec, compare, "str.__in_tuple__", {&left, &right}))
        return *found; // mode in ("clip", "edge")
    if (!b.isStr())
      return std::nullopt; // x in a list of strs: the container's
    if (!a.isStr())
      fail(CompileError::Kind::Typing, fn, compare,
           "'in <string>' requires string as left operand, not " + pythonTypeName(a));
    if (std::optional<Type> found =
            strImplementation(spec, compare, "str.__contains__", {&left, &right}))
      return *found;
    break;
  case ast::Operator::Eq:
  case ast::Operator::NotEq:
    if (!a.isStr() || !b.isStr()) { // a str equals no other value
      spec.knownConditions[&compare] = op == ast::Operator::NotEq;
      return Type::boolean();
    }
    if (std::optional<Type> equal = strImplementation(spec, compare, "str.__eq__", {&left, &right}))
      return *equal;
    break;
  default: {
    if (!a.isStr() || !b.isStr())
      fail(CompileError::Kind::Typing, fn, compare,
           std::string("'") + ast::spelling(op) + "' not supported between instances of '" +
               pythonTypeName(a) + "' and '" + pythonTypeName(b) + "'");
    const char *method = op == ast::Operator::Lt    ? "str.__lt__"
                         : op == ast::Operator::LtE ? "str.__le__"
                         : op == ast::Operator::Gt  ? "str.__gt__"
                                                    : "str.__ge__";
    if (std::optional<Type> ordered = strImplementation(spec, compare, method, {&left, &right}))
      return *ordered;
    break;
  }
  }
  fail(CompileError::Kind::Unsupported, fn, compare, "this comparison of strs is not supported");
}

Type Typer::strSubscriptType(Specialization &spec, const SExpr &subscript) {
  const FunctionSource &fn = *spec.source;
  const SExpr &index = ast::slice(subscript);
  if (ast::is(index, ast::NodeKind::Slice)) {
    // A slice is a list's slice of the code points (EmitLists.cpp).
    Type sliced = listSubscriptType(spec, subscript, Type::runtimeStr());
    return sliced.kind == Type::Kind::Bottom ? sliced : Type::runtimeStr();
  }
  Type position = exprType(spec, index);
  if (position.kind == Type::Kind::Bottom)
    return position;
  if (!position.isIntegral())
    fail(CompileError::Kind::Typing, fn, index,
         "string indices must be integers, not '" + pythonTypeName(position) + "'");
  if (std::optional<Type> item =
          strImplementation(spec, subscript, "str.__getitem__", {&ast::value(subscript), &index}))
    return *item;
  fail(CompileError::Kind::Unsupported, fn, subscript, "indexing a str is not supported");
}

Type Typer::strMethodType(Specialization &spec, const SExpr &call) {
  const SExpr &callee = ast::func(call);
  if (std::optional<Type> resolved = methodOverloadType(spec, call, "str"))
    return *resolved;
  fail(CompileError::Kind::Typing, *spec.source, callee,
       "'str' object has no attribute '" + ast::attr(callee) + "'");
}

Type Typer::strConversionType(Specialization &spec, const SExpr &call, const std::string &name) {
  const FunctionSource &fn = *spec.source;
  std::vector<const SExpr *> args = ast::args(call).rest();
  if (ast::keywords(call).items.size() > 1)
    fail(CompileError::Kind::Unsupported, fn, call, name + "() with keywords is not supported");
  if (name == "str" && args.empty())
    return Type::stringConstant("");
  if (args.size() != 1 && !(name == "int" && args.size() == 2))
    fail(CompileError::Kind::Typing, fn, call,
         name + "() takes at most " + (name == "int" ? "2" : "1") + " arguments (" +
             std::to_string(args.size()) + " given)");
  Type value = exprType(spec, *args[0]);
  if (value.kind == Type::Kind::Bottom)
    return value;
  if (name == "str" && value.isStr())
    return value;
  std::string target = name == "str"    ? "str.__str_of__"
                       : name == "repr" ? "str.__repr_of__"
                       : name == "int"  ? "str.__int__"
                                        : "str.__float__";
  if (std::optional<Type> converted = strImplementation(spec, call, target, args))
    return *converted;
  fail(CompileError::Kind::Unsupported, fn, call,
       name + "() of " + value.str() + " is not supported");
}

Type Typer::formattedStringType(Specialization &spec, const SExpr &joined) {
  // f"...": each field formatted by format() (after str() or repr() for
  // !s, !r and !a), the parts joined when the code runs. All constants: a
  // constant (a format spec is one).
  std::string text;
  bool constant = true;
  bool anyBottom = false;
  for (const SExpr *part : ast::values(joined)) {
    if (!ast::is(*part, ast::NodeKind::FormattedValue)) {
      text += ast::value(*part).text;
      continue;
    }
    constant = false;
    const SExpr &value = ast::value(*part);
    const SExpr &format = ast::format_spec(*part);
    int conversion = std::atoi(ast::conversion(*part).text.c_str());
    std::string target = conversion == 'r'   ? "str.__format_repr__"
                         : conversion == 'a' ? "str.__format_ascii__"
                         : conversion == 's' ? "str.__format_str__"
                                             : "str.__format__";
    std::vector<const SExpr *> operands = {&value};
    if (!ast::isNone(format)) {
      Type spec_ = formattedStringType(spec, format);
      if (spec_.kind != Type::Kind::String)
        fail(CompileError::Kind::Unsupported, *spec.source, format,
             "format specs computed when the code runs are not supported (write them out)");
      operands.push_back(&format);
    }
    Type t = exprType(spec, value);
    if (t.kind == Type::Kind::Bottom) {
      anyBottom = true;
      continue;
    }
    std::optional<Type> field = strImplementation(spec, *part, target, operands);
    if (!field)
      fail(CompileError::Kind::Unsupported, *spec.source, value,
           "formatting " + t.str() + " in an f-string is not supported");
    anyBottom |= field->kind == Type::Kind::Bottom;
  }
  if (constant)
    return Type::stringConstant(text);
  return anyBottom ? Type::bottom() : Type::runtimeStr();
}

std::optional<Type> Typer::strIntrinsicType(Specialization &spec, const SExpr &call,
                                            const std::string &name) {
  // The primitives python/plait/_strings.py writes str methods with.
  static const std::map<std::string, size_t> arity = {
      {"str_codes", 1},      {"str_of_codes", 1},   {"str_of_int", 1},
      {"str_of_float", 1},   {"str_format_int", 8}, {"str_format_float", 10},
      {"str_format_str", 5}, {"str_to_float", 1},   {"str_number_text", 1}};
  auto known = arity.find(name);
  if (known == arity.end())
    return std::nullopt;
  const FunctionSource &fn = *spec.source;
  std::vector<const SExpr *> args = ast::args(call).rest();
  if (args.size() != known->second)
    fail(CompileError::Kind::Typing, fn, call,
         name + "() takes " + std::to_string(known->second) + " arguments");
  std::vector<Type> types;
  for (const SExpr *arg : args) {
    types.push_back(exprType(spec, *arg));
    if (types.back().kind == Type::Kind::Bottom)
      return Type::bottom();
  }
  auto need = [&](size_t i, bool ok, const char *what) {
    if (!ok)
      fail(CompileError::Kind::Typing, fn, *args[i], name + "() takes " + what);
  };
  if (name == "str_of_codes") {
    need(0, types[0].kind == Type::Kind::List && types[0].itemType().kind == Type::Kind::Int,
         "a list of ints");
    return Type::runtimeStr();
  }
  bool textFirst = name == "str_codes" || name == "str_format_str" || name == "str_to_float" ||
                   name == "str_number_text";
  bool floatFirst = name == "str_of_float" || name == "str_format_float";
  bool numpyBool = types[0].isNumPy() && types[0].dtype == DType::Bool;
  need(0,
       textFirst    ? types[0].isStr()
       : floatFirst ? types[0].isNumeric()
                    : types[0].isIntegral() || numpyBool,
       textFirst ? "a str" : "a number");
  for (size_t i = 1; i < args.size(); ++i)
    need(i, types[i].isIntegral(), "ints after its first argument");
  if (name == "str_codes")
    return Type::list(Type::integer());
  if (name == "str_to_float")
    return Type::tuple({Type::integer(), Type::floating()});
  return Type::runtimeStr();
}

} // namespace plait::frontend
