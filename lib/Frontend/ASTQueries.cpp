//===- ASTQueries.cpp - questions about snapshot syntax ---------------------===//
#include "Typer.h"

#include <cerrno>
#include <cstdlib>

namespace plait::frontend {

bool writesParameter(const Specialization &spec, const std::string &name) {
  std::vector<std::pair<const Specialization *, std::string>> stack = {{&spec, name}};
  std::set<std::pair<const Specialization *, std::string>> seen;
  while (!stack.empty()) {
    auto [current, param] = stack.back();
    stack.pop_back();
    if (!seen.insert({current, param}).second)
      continue;
    if (current->writes.count(param))
      return true;
    for (const auto &[passed, callee, index] : current->arraysPassed)
      if (passed == param)
        stack.push_back({callee, callee->source->params[index]});
  }
  return false;
}

std::vector<const SExpr *> subscriptIndices(const SExpr &subscript) {
  const SExpr &index = ast::slice(subscript);
  std::vector<const SExpr *> indices;
  if (ast::is(index, ast::NodeKind::Tuple))
    return ast::elts(index);
  indices.push_back(&index);
  return indices;
}

const SExpr *findReturn(const SExpr &node, const std::function<bool(const SExpr &ret)> &accept) {
  if (ast::is(node, ast::NodeKind::Return) && (!accept || accept(node)))
    return &node;
  for (const SExpr &item : node.items)
    if (item.isList())
      if (const SExpr *found = findReturn(item, accept))
        return found;
  return nullptr;
}

SExpr madeNode(const char *head, const SExpr &at) {
  SExpr node;
  node.items.push_back(SExpr{SExpr::Kind::Symbol, head, 0, {}});
  for (size_t k = 1; k <= 4; ++k) // the location
    node.items.push_back(at.items.at(k));
  return node;
}

bool alwaysReturns(const SExpr &body, const Specialization *spec) {
  for (const SExpr *stmt : body.rest()) {
    ast::NodeKind kind = ast::kindOf(*stmt);
    if (kind == ast::NodeKind::Return || kind == ast::NodeKind::Raise)
      return true; // (a raise leaves too: no None to return after it)
    if (kind == ast::NodeKind::If) {
      // An if known when compiling is its live branch.
      std::optional<bool> known = spec ? spec->knownCondition(&ast::test(*stmt)) : std::nullopt;
      if (known ? alwaysReturns(*known ? ast::body(*stmt) : ast::orelse(*stmt), spec)
                : alwaysReturns(ast::body(*stmt), spec) && alwaysReturns(ast::orelse(*stmt), spec))
        return true;
    }
    if (kind == ast::NodeKind::Try) {
      // Its finally leaves, or its body (or else) and every handler do.
      if (alwaysReturns(ast::finalbody(*stmt), spec))
        return true;
      bool handlersLeave = true;
      for (const SExpr *handler : ast::handlers(*stmt).rest())
        handlersLeave = handlersLeave && alwaysReturns(ast::body(*handler), spec);
      if (handlersLeave &&
          (alwaysReturns(ast::body(*stmt), spec) || alwaysReturns(ast::orelse(*stmt), spec)))
        return true;
    }
    if (kind == ast::NodeKind::While) {
      // `while True:` without a break only leaves through return.
      const SExpr &test = ast::test(*stmt);
      bool infinite = ast::is(test, ast::NodeKind::Const) && ast::value(test).kind == SExpr::Kind::True;
      if (infinite) {
        bool hasBreak = false;
        std::vector<const SExpr *> stack = {&ast::body(*stmt)};
        while (!stack.empty()) {
          const SExpr *node = stack.back();
          stack.pop_back();
          if (ast::is(*node, ast::NodeKind::Break))
            hasBreak = true;
          // Breaks inside nested loops belong to those loops.
          if (ast::is(*node, ast::NodeKind::While) || ast::is(*node, ast::NodeKind::For))
            continue;
          for (const SExpr &item : node->items)
            if (item.isList())
              stack.push_back(&item);
        }
        if (!hasBreak)
          return true;
      }
    }
  }
  return false;
}

bool negatedIntConstant(const SExpr &unary, int64_t &value) {
  if (!ast::is(unary, ast::NodeKind::UnaryOp) || ast::op(unary) != ast::Operator::USub ||
      !ast::is(ast::operand(unary), ast::NodeKind::Const) ||
      ast::value(ast::operand(unary)).kind != SExpr::Kind::Integer)
    return false;
  const std::string &digits = ast::value(ast::operand(unary)).text;
  errno = 0;
  unsigned long long magnitude = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE || magnitude > (1ULL << 63))
    return false;
  value = static_cast<int64_t>(0 - magnitude);
  return true;
}

bool bigUnsignedConstant(const SExpr &node, uint64_t &value) {
  if (!ast::is(node, ast::NodeKind::Const) || ast::value(node).kind != SExpr::Kind::Integer ||
      ast::value(node).text[0] == '-')
    return false;
  errno = 0;
  unsigned long long parsed = std::strtoull(ast::value(node).text.c_str(), nullptr, 10);
  if (errno == ERANGE || parsed <= static_cast<unsigned long long>(INT64_MAX))
    return false;
  value = parsed;
  return true;
}

} // namespace plait::frontend
