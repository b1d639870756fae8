//===- AST.h - reading snapshot nodes by kind and field name ----*- C++ -*-===//
//
// The snapshot is an S-expression (SExpr.h); its AST nodes and their fields
// are defined once, in ASTNodes.def. The frontend reads them through this
// header: a node's kind is an enum, each field has an accessor named as in
// Python's ast module (ast::body(loop), ast::test(branch)), and operators
// are an enum rather than strings. An accessor applied to a node kind that
// has no such field is an internal error (std::logic_error).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_FRONTEND_AST_H
#define PLAIT_FRONTEND_AST_H

#include "plait/Frontend/SExpr.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace plait::frontend::ast {

enum class NodeKind : uint8_t {
#define PLAIT_AST_NODE(Kind, Fields) Kind,
#define PLAIT_AST_FIELD(name, arity)
#include "plait/Frontend/ASTNodes.def"
  /// (Keyword name value), inside a Call's keywords: no location.
  Keyword,
  /// Anything else: lists such as (Body ...), atoms.
  Other,
};

/// The kind of `node`, from its head.
NodeKind kindOf(const SExpr &node);
inline bool is(const SExpr &node, NodeKind kind) { return kindOf(node) == kind; }
/// The Python class name of a kind ("For").
const char *kindName(NodeKind kind);

/// Every field name of ASTNodes.def.
enum class Field : uint8_t {
  targets,
  value,
  target,
  op,
  test,
  body,
  orelse,
  iter,
  id,
  left,
  right,
  operand,
  values,
  ops,
  comparators,
  func,
  args,
  keywords,
  attr,
  elts,
  slice,
  lower,
  upper,
  step,
  what,
  function,
  captures,
  exc,
  cause,
  msg,
  conversion,
  format_spec,
  handlers,
  finalbody,
  type,
  name,
  keys,
};

/// The field `field` of `node`; a logic_error if its kind has none.
const SExpr &fieldOf(const SExpr &node, Field field);
/// The items of a Spread field (BoolOp's values, Tuple's elts).
std::vector<const SExpr *> spreadOf(const SExpr &node, Field field);

// One accessor per field name. A List field is its list node: iterate its
// rest(). An Optional field is the #none atom when absent (isNone).
#define PLAIT_AST_ACCESSOR(name)                                                                   \
  inline const SExpr &name(const SExpr &node) { return fieldOf(node, Field::name); }
PLAIT_AST_ACCESSOR(targets)
PLAIT_AST_ACCESSOR(value)
PLAIT_AST_ACCESSOR(target)
PLAIT_AST_ACCESSOR(test)
PLAIT_AST_ACCESSOR(body)
PLAIT_AST_ACCESSOR(orelse)
PLAIT_AST_ACCESSOR(iter)
PLAIT_AST_ACCESSOR(left)
PLAIT_AST_ACCESSOR(right)
PLAIT_AST_ACCESSOR(operand)
PLAIT_AST_ACCESSOR(ops)
PLAIT_AST_ACCESSOR(comparators)
PLAIT_AST_ACCESSOR(func)
PLAIT_AST_ACCESSOR(args)
PLAIT_AST_ACCESSOR(keywords)
PLAIT_AST_ACCESSOR(slice)
PLAIT_AST_ACCESSOR(lower)
PLAIT_AST_ACCESSOR(upper)
PLAIT_AST_ACCESSOR(step)
PLAIT_AST_ACCESSOR(captures)
PLAIT_AST_ACCESSOR(exc)
PLAIT_AST_ACCESSOR(cause)
PLAIT_AST_ACCESSOR(msg)
PLAIT_AST_ACCESSOR(conversion)
PLAIT_AST_ACCESSOR(format_spec)
PLAIT_AST_ACCESSOR(handlers)
PLAIT_AST_ACCESSOR(finalbody)
PLAIT_AST_ACCESSOR(type)
#undef PLAIT_AST_ACCESSOR
/// A Closure's function id.
inline int closureFunction(const SExpr &node) {
  return std::atoi(fieldOf(node, Field::function).text.c_str());
}
inline std::vector<const SExpr *> values(const SExpr &node) { return spreadOf(node, Field::values); }
inline std::vector<const SExpr *> elts(const SExpr &node) { return spreadOf(node, Field::elts); }
/// A Dict display's keys and values (lists of the same length).
inline std::vector<const SExpr *> dictKeys(const SExpr &node) {
  return fieldOf(node, Field::keys).rest();
}
inline std::vector<const SExpr *> dictValues(const SExpr &node) {
  return fieldOf(node, Field::values).rest();
}
/// A Name's identifier.
inline const std::string &id(const SExpr &node) { return fieldOf(node, Field::id).text; }
/// A str written in the code ("wrap").
inline bool isStringConstant(const SExpr &node) {
  return is(node, NodeKind::Const) && fieldOf(node, Field::value).kind == SExpr::Kind::String;
}
/// An ExceptHandler's name (`except E as name`), or #none.
inline const SExpr &handlerName(const SExpr &node) { return fieldOf(node, Field::name); }
/// An Attribute's attribute name.
inline const std::string &attr(const SExpr &node) { return fieldOf(node, Field::attr).text; }
/// The Python class name of unsupported syntax.
inline const std::string &what(const SExpr &node) { return fieldOf(node, Field::what).text; }
/// A keyword argument's name and value.
const std::string &keywordName(const SExpr &keyword);
const SExpr &keywordValue(const SExpr &keyword);
inline bool isNone(const SExpr &field) { return field.kind == SExpr::Kind::None; }

/// Python's operators, named as its ast classes are.
enum class Operator : uint8_t {
  // Binary.
  Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd,
  // Unary.
  Invert, Not, UAdd, USub,
  // Boolean.
  And, Or,
  // Comparison.
  Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn,
};
/// The operator of a BinOp, UnaryOp, BoolOp or AugAssign.
Operator op(const SExpr &node);
/// The operator an operator symbol (an item of a Compare's ops) names.
Operator operatorOf(const SExpr &symbol);
/// How Python spells it: "+", "//", "not", "is not".
const char *spelling(Operator op);
/// `a op b` as `b op' a`: Lt for Gt, LtE for GtE (others unchanged).
Operator swapped(Operator op);

/// Field names and arities of the nodes the snapshot writes from the table:
/// (kind, ["targets*", "value"]), with '*' a List, '+' a Spread and '?' an
/// Optional field (the spelling of python/plait/_snapshot.py).
std::vector<std::pair<std::string, std::vector<std::string>>> snapshotFields();

} // namespace plait::frontend::ast

#endif // PLAIT_FRONTEND_AST_H
