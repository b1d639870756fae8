//===- TyperPrint.cpp - the types of print() ------------------------------===//
//
// print() in compiled code hands its values to the interpreter's print
// (EmitPrint.cpp): numbers, bools, None, NumPy scalars, arrays, tuples of
// these, string constants and f-strings of them; sep and end are constant
// strings (or None), flush a constant bool.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include "plait/Frontend/AST.h"

namespace plait::frontend {

namespace {

bool printable(const Type &t) {
  switch (t.kind) {
  case Type::Kind::Bottom:
  case Type::Kind::Int:
  case Type::Kind::Float:
  case Type::Kind::Bool:
  case Type::Kind::Complex:
  case Type::Kind::None:
  case Type::Kind::NumPy:
  case Type::Kind::Array:
  case Type::Kind::String:
  case Type::Kind::Str:
  case Type::Kind::List:
  case Type::Kind::Dict:
    return true;
  case Type::Kind::Tuple:
    for (const Type &element : t.elements)
      if (!printable(element))
        return false;
    return true;
  default:
    return false;
  }
}

} // namespace

std::optional<std::string> Typer::printStream(const Specialization &spec, const SExpr &file) const {
  // sys.stdout and sys.stderr are read when print runs (redirections too).
  if (ast::is(file, ast::NodeKind::Const) && ast::value(file).kind == SExpr::Kind::None)
    return std::string("stdout");
  if (!ast::is(file, ast::NodeKind::Attribute) || !ast::is(ast::value(file), ast::NodeKind::Name))
    return std::nullopt;
  NameBinding module = resolve(spec, ast::id(ast::value(file)));
  const std::string &stream = ast::attr(file);
  if (module.kind != NameBinding::Kind::Unsupported || module.name != "sys" ||
      (stream != "stdout" && stream != "stderr"))
    return std::nullopt;
  return stream;
}

Type Typer::printCallType(Specialization &spec, const SExpr &call) {
  const FunctionSource &fn = *spec.source;
  auto value = [&](const SExpr &node) {
    Type t = exprType(spec, node);
    if (!printable(t))
      fail(CompileError::Kind::Unsupported, fn, node,
           "print() in compiled code shows numbers, bools, None, strs, arrays and tuples of "
           "them, not " +
               t.str());
  };
  for (const SExpr *arg : ast::args(call).rest()) {
    if (ast::is(*arg, ast::NodeKind::Starred))
      fail(CompileError::Kind::Unsupported, fn, *arg, "*args in calls is not supported");
    if (!ast::is(*arg, ast::NodeKind::JoinedStr)) {
      value(*arg);
      continue;
    }
    typeFormattedString(spec, *arg, value);
  }
  for (const SExpr *keyword : ast::keywords(call).rest()) {
    const std::string &name = keyword->items.at(1).text;
    const SExpr &given = keyword->items.at(2);
    bool constant = ast::is(given, ast::NodeKind::Const);
    if (name == "sep" || name == "end") {
      if (!constant ||
          !(ast::isStringConstant(given) || ast::value(given).kind == SExpr::Kind::None))
        fail(CompileError::Kind::Unsupported, fn, given,
             "print()'s " + name + " is a string written in the code (or None) in compiled code");
    } else if (name == "flush") {
      SExpr::Kind kind = constant ? ast::value(given).kind : SExpr::Kind::List;
      if (kind != SExpr::Kind::True && kind != SExpr::Kind::False)
        fail(CompileError::Kind::Unsupported, fn, given,
             "print()'s flush is True or False written in the code in compiled code");
    } else if (name == "file") {
      if (!printStream(spec, given))
        fail(CompileError::Kind::Unsupported, fn, given,
             "print(file=...) in compiled code takes sys.stdout or sys.stderr (or None)");
    } else {
      fail(CompileError::Kind::Typing, fn, call,
           "'" + name + "' is an invalid keyword argument for print()");
    }
  }
  return Type::none();
}

} // namespace plait::frontend
