//===- AST.cpp - reading snapshot nodes by kind and field name ------------===//
#include "plait/Frontend/AST.h"

#include <array>
#include <iterator>
#include <stdexcept>
#include <unordered_map>

namespace plait::frontend::ast {

namespace {

enum class Arity { One, Optional, List, Spread };

struct FieldInfo {
  Field field;
  const char *name;
  Arity arity;
};

struct NodeInfo {
  NodeKind kind;
  const char *name;
  bool special; // written by the serializer itself, not from the table
  std::vector<FieldInfo> fields;
};

const std::vector<NodeInfo> &nodeTable() {
  static const std::vector<NodeInfo> table = {
#define PLAIT_AST_FIELD(name, arity) FieldInfo{Field::name, #name, Arity::arity},
#define PLAIT_AST_NODE(Kind, Fields) NodeInfo{NodeKind::Kind, #Kind, false, {Fields}},
#define PLAIT_AST_SPECIAL_NODE(Kind, Fields) NodeInfo{NodeKind::Kind, #Kind, true, {Fields}},
#include "plait/Frontend/ASTNodes.def"
  };
  return table;
}

constexpr size_t kNodeKinds = static_cast<size_t>(NodeKind::Other) + 1;
constexpr size_t kFields = static_cast<size_t>(Field::keys) + 1;

/// fieldIndex[kind][field]: the field's position after the location, or -1.
struct FieldIndex {
  std::array<std::array<int8_t, kFields>, kNodeKinds> index;
  FieldIndex() {
    for (auto &row : index)
      row.fill(-1);
    for (const NodeInfo &node : nodeTable())
      for (size_t k = 0; k < node.fields.size(); ++k)
        index[static_cast<size_t>(node.kind)][static_cast<size_t>(node.fields[k].field)] =
            static_cast<int8_t>(k);
  }
};

const FieldIndex &fieldIndex() {
  static const FieldIndex index;
  return index;
}

const char *fieldName(Field field) {
  static const char *const names[] = {
      "targets",     "value", "target",     "op",          "test",     "body",      "orelse",
      "iter",        "id",    "left",       "right",       "operand",  "values",    "ops",
      "comparators", "func",  "args",       "keywords",    "attr",     "elts",      "slice",
      "lower",       "upper", "step",       "what",        "function", "captures",  "exc",
      "cause",       "msg",   "conversion", "format_spec", "handlers", "finalbody", "type",
      "name",        "keys"};
  static_assert(std::size(names) == kFields, "one name per Field");
  return names[static_cast<size_t>(field)];
}

size_t indexOf(const SExpr &node, Field field) {
  NodeKind kind = kindOf(node);
  int8_t index = fieldIndex().index[static_cast<size_t>(kind)][static_cast<size_t>(field)];
  if (index < 0)
    throw std::logic_error(std::string("internal: a ") + kindName(kind) + " node has no field '" +
                           fieldName(field) + "'");
  return static_cast<size_t>(index);
}

struct OperatorInfo {
  Operator op;
  const char *name;
  const char *spelling;
};

const OperatorInfo operators[] = {
    {Operator::Add, "Add", "+"},         {Operator::Sub, "Sub", "-"},
    {Operator::Mult, "Mult", "*"},       {Operator::MatMult, "MatMult", "@"},
    {Operator::Div, "Div", "/"},         {Operator::FloorDiv, "FloorDiv", "//"},
    {Operator::Mod, "Mod", "%"},         {Operator::Pow, "Pow", "**"},
    {Operator::LShift, "LShift", "<<"},  {Operator::RShift, "RShift", ">>"},
    {Operator::BitOr, "BitOr", "|"},     {Operator::BitXor, "BitXor", "^"},
    {Operator::BitAnd, "BitAnd", "&"},   {Operator::Invert, "Invert", "~"},
    {Operator::Not, "Not", "not"},       {Operator::UAdd, "UAdd", "+"},
    {Operator::USub, "USub", "-"},       {Operator::And, "And", "and"},
    {Operator::Or, "Or", "or"},          {Operator::Eq, "Eq", "=="},
    {Operator::NotEq, "NotEq", "!="},    {Operator::Lt, "Lt", "<"},
    {Operator::LtE, "LtE", "<="},        {Operator::Gt, "Gt", ">"},
    {Operator::GtE, "GtE", ">="},        {Operator::Is, "Is", "is"},
    {Operator::IsNot, "IsNot", "is not"}, {Operator::In, "In", "in"},
    {Operator::NotIn, "NotIn", "not in"},
};

} // namespace

NodeKind kindOf(const SExpr &node) {
  static const std::unordered_map<std::string, NodeKind> kinds = [] {
    std::unordered_map<std::string, NodeKind> map;
    for (const NodeInfo &info : nodeTable())
      map.emplace(info.name, info.kind);
    map.emplace("Keyword", NodeKind::Keyword);
    return map;
  }();
  auto found = kinds.find(node.head());
  return found == kinds.end() ? NodeKind::Other : found->second;
}

const char *kindName(NodeKind kind) {
  if (kind == NodeKind::Keyword)
    return "Keyword";
  if (kind == NodeKind::Other)
    return "non-node";
  return nodeTable()[static_cast<size_t>(kind)].name;
}

const SExpr &fieldOf(const SExpr &node, Field field) { return node.field(indexOf(node, field)); }

std::vector<const SExpr *> spreadOf(const SExpr &node, Field field) {
  std::vector<const SExpr *> items;
  for (size_t k = indexOf(node, field); k < node.numFields(); ++k)
    items.push_back(&node.field(k));
  return items;
}

const std::string &keywordName(const SExpr &keyword) { return keyword.items.at(1).text; }
const SExpr &keywordValue(const SExpr &keyword) { return keyword.items.at(2); }

Operator operatorOf(const SExpr &symbol) {
  for (const OperatorInfo &info : operators)
    if (symbol.text == info.name)
      return info.op;
  throw std::invalid_argument("unknown operator '" + symbol.text + "' in snapshot");
}

Operator op(const SExpr &node) { return operatorOf(fieldOf(node, Field::op)); }

const char *spelling(Operator op) {
  for (const OperatorInfo &info : operators)
    if (info.op == op)
      return info.spelling;
  return "?";
}

Operator swapped(Operator op) {
  switch (op) {
  case Operator::Lt:
    return Operator::Gt;
  case Operator::Gt:
    return Operator::Lt;
  case Operator::LtE:
    return Operator::GtE;
  case Operator::GtE:
    return Operator::LtE;
  default:
    return op;
  }
}

std::vector<std::pair<std::string, std::vector<std::string>>> snapshotFields() {
  std::vector<std::pair<std::string, std::vector<std::string>>> result;
  for (const NodeInfo &node : nodeTable()) {
    if (node.special)
      continue;
    std::vector<std::string> fields;
    for (const FieldInfo &field : node.fields)
      fields.push_back(std::string(field.name) + (field.arity == Arity::List       ? "*"
                                                  : field.arity == Arity::Spread   ? "+"
                                                  : field.arity == Arity::Optional ? "?"
                                                                                   : ""));
    result.emplace_back(node.name, std::move(fields));
  }
  return result;
}

} // namespace plait::frontend::ast
