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
  const SExpr &index = subscript.field(1);
  std::vector<const SExpr *> indices;
  if (index.head() == "Tuple")
    for (size_t i = 0; i < index.numFields(); ++i)
      indices.push_back(&index.field(i));
  else
    indices.push_back(&index);
  return indices;
}

bool alwaysReturns(const SExpr &body) {
  for (const SExpr *stmt : body.rest()) {
    const std::string &head = stmt->head();
    if (head == "Return")
      return true;
    if (head == "If" && alwaysReturns(stmt->field(1)) &&
        alwaysReturns(stmt->field(2)))
      return true;
    if (head == "While") {
      // `while True:` without a break only leaves through return.
      const SExpr &test = stmt->field(0);
      bool infinite = test.head() == "Const" && test.field(0).kind == SExpr::Kind::True;
      if (infinite) {
        bool hasBreak = false;
        std::vector<const SExpr *> stack = {&stmt->field(1)};
        while (!stack.empty()) {
          const SExpr *node = stack.back();
          stack.pop_back();
          if (node->head() == "Break")
            hasBreak = true;
          // Breaks inside nested loops belong to those loops.
          if (node->head() == "While" || node->head() == "For")
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
  if (unary.head() != "UnaryOp" || unary.field(0).text != "USub" ||
      unary.field(1).head() != "Const" || unary.field(1).field(0).kind != SExpr::Kind::Integer)
    return false;
  const std::string &digits = unary.field(1).field(0).text;
  errno = 0;
  unsigned long long magnitude = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE || magnitude > (1ULL << 63))
    return false;
  value = static_cast<int64_t>(0 - magnitude);
  return true;
}

bool bigUnsignedConstant(const SExpr &node, uint64_t &value) {
  if (node.head() != "Const" || node.field(0).kind != SExpr::Kind::Integer ||
      node.field(0).text[0] == '-')
    return false;
  errno = 0;
  unsigned long long parsed = std::strtoull(node.field(0).text.c_str(), nullptr, 10);
  if (errno == ERANGE || parsed <= static_cast<unsigned long long>(INT64_MAX))
    return false;
  value = parsed;
  return true;
}

} // namespace plait::frontend
