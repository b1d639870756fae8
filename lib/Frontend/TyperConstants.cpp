//===- TyperConstants.cpp - conditions known when compiling ---------------===//
//
// strs are constants of the code compiled for them (a str argument is part
// of the dispatch key), and None is a type of its own: comparisons of them,
// `x is None` and a str's truth are known when compiling. An `if` on such a
// condition is its live branch only, which is what makes mode="wrap"
// arguments useful (the other modes' code need not type for these
// arguments), as Numba prunes branches on literal values.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include "plait/Frontend/AST.h"

namespace plait::frontend {

namespace {

bool isConstant(const Type &t) {
  return t.kind == Type::Kind::String || t.kind == Type::Kind::None;
}

/// `a op b` of constants (strs, None) and other values, by CPython's rules;
/// nullopt when it needs a run-time value; an error message for a
/// comparison CPython refuses.
std::optional<bool> compareConstants(ast::Operator op, const Type &a, const Type &b,
                                     std::string &refused) {
  bool strings = a.kind == Type::Kind::String && b.kind == Type::Kind::String;
  switch (op) {
  case ast::Operator::Is:
  case ast::Operator::IsNot: {
    // Only None is known by identity: a value of another type is not it.
    if (a.kind != Type::Kind::None && b.kind != Type::Kind::None)
      return std::nullopt;
    bool same = a.kind == b.kind;
    return op == ast::Operator::Is ? same : !same;
  }
  case ast::Operator::Eq:
  case ast::Operator::NotEq: {
    if (!isConstant(a) && !isConstant(b))
      return std::nullopt;
    bool same = a.kind == b.kind && (!strings || a.text == b.text);
    return op == ast::Operator::Eq ? same : !same;
  }
  case ast::Operator::In:
  case ast::Operator::NotIn: {
    bool found = false;
    if (b.kind == Type::Kind::String && a.kind == Type::Kind::String) {
      found = b.text.find(a.text) != std::string::npos;
    } else if (b.kind == Type::Kind::Tuple && isConstant(a)) {
      for (const Type &element : b.elements) {
        if (!isConstant(element))
          return std::nullopt; // (a number's equality is a run-time value)
        found |= element.kind == a.kind && (a.kind != Type::Kind::String || element.text == a.text);
      }
    } else if (isConstant(a) || isConstant(b)) {
      refused = "'in <" + b.str() + ">' of " + a.str() + " is not supported";
      return std::nullopt;
    } else {
      return std::nullopt;
    }
    return op == ast::Operator::In ? found : !found;
  }
  default: { // < <= > >=
    if (!isConstant(a) && !isConstant(b))
      return std::nullopt;
    if (!strings) {
      refused = std::string("'") + ast::spelling(op) + "' not supported between instances of '" +
                (a.kind == Type::Kind::String ? "str" : a.str()) + "' and '" +
                (b.kind == Type::Kind::String ? "str" : b.str()) + "'";
      return std::nullopt;
    }
    int order = a.text.compare(b.text); // UTF-8 bytes order as code points do
    switch (op) {
    case ast::Operator::Lt:
      return order < 0;
    case ast::Operator::LtE:
      return order <= 0;
    case ast::Operator::Gt:
      return order > 0;
    default:
      return order >= 0;
    }
  }
  }
}

} // namespace

std::optional<Type> Typer::constantComparisonType(Specialization &spec, const SExpr &compare) {
  std::vector<const SExpr *> operands = {&ast::left(compare)};
  for (const SExpr *c : ast::comparators(compare).rest())
    operands.push_back(c);
  std::vector<const SExpr *> ops = ast::ops(compare).rest();
  std::vector<Type> types;
  bool involvesConstants = false, anyBottom = false;
  for (const SExpr *operand : operands) {
    types.push_back(exprType(spec, *operand));
    involvesConstants |= isConstant(types.back());
    anyBottom |= types.back().kind == Type::Kind::Bottom;
  }
  for (const SExpr *symbol : ops) {
    ast::Operator op = ast::operatorOf(*symbol);
    involvesConstants |= op == ast::Operator::Is || op == ast::Operator::IsNot;
  }
  if (!involvesConstants)
    return std::nullopt;
  if (ops.size() == 1 && (types[1].kind == Type::Kind::List || types[1].kind == Type::Kind::Dict) &&
      (ast::operatorOf(*ops[0]) == ast::Operator::In ||
       ast::operatorOf(*ops[0]) == ast::Operator::NotIn))
    return std::nullopt; // "a" in words: the container's search
  if (anyBottom)
    return Type::bottom(); // (typed once its operands are)
  // A chain is the conjunction of its links (each operand evaluated once).
  bool value = true;
  for (size_t i = 0; i < ops.size(); ++i) {
    std::string refused;
    ast::Operator op = ast::operatorOf(*ops[i]);
    std::optional<bool> link = compareConstants(op, types[i], types[i + 1], refused);
    if (!refused.empty())
      fail(CompileError::Kind::Typing, *spec.source, compare, refused);
    if (!link) {
      if (op == ast::Operator::Is || op == ast::Operator::IsNot)
        fail(CompileError::Kind::Unsupported, *spec.source, compare,
             "'is' compares with None in compiled code (use == for values)");
      fail(CompileError::Kind::Unsupported, *spec.source, compare,
           "a comparison of " + types[i].str() + " and " + types[i + 1].str() +
               " mixed with run-time values is not supported");
    }
    value = value && *link;
  }
  spec.knownConditions[&compare] = value;
  return Type::boolean();
}

void Typer::markTruthTest(Specialization &spec, const SExpr &test) {
  if (!ast::is(test, ast::NodeKind::BoolOp))
    return;
  spec.truthTests.insert(&test);
  for (const SExpr *operand : ast::values(test)) // (a or b) and c
    markTruthTest(spec, *operand);
}

std::optional<bool> Typer::knownTest(Specialization &spec, const SExpr &test) {
  markTruthTest(spec, test);
  Type t = exprType(spec, test);
  std::optional<bool> known = spec.knownCondition(&test);
  if (!known && t.kind == Type::Kind::String)
    known = !t.text.empty();
  if (!known && t.kind == Type::Kind::None)
    known = false;
  if (!known && ast::is(test, ast::NodeKind::UnaryOp) && ast::op(test) == ast::Operator::Not)
    if (std::optional<bool> operand = knownTest(spec, ast::operand(test)))
      known = !*operand;
  if (!known && ast::is(test, ast::NodeKind::BoolOp)) {
    // Known when its operands' truths are (and and or then decide alike).
    bool isAnd = ast::op(test) == ast::Operator::And;
    bool all = true, value = isAnd;
    for (const SExpr *operand : ast::values(test)) {
      std::optional<bool> part = knownTest(spec, *operand);
      if (!part) {
        all = false;
        break;
      }
      value = isAnd ? value && *part : value || *part;
    }
    if (all)
      known = value;
  }
  if (known)
    spec.knownConditions[&test] = *known;
  return known;
}

bool endsBody(const Specialization &spec, const SExpr &stmt) {
  if (!ast::is(stmt, ast::NodeKind::If))
    return false;
  std::optional<bool> known = spec.knownCondition(&ast::test(stmt));
  return known && alwaysReturns(*known ? ast::body(stmt) : ast::orelse(stmt), &spec);
}

} // namespace plait::frontend
