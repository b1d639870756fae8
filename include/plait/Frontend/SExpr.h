//===- SExpr.h - the snapshot format of Python functions --------*- C++ -*-===//
//
// plait.jit snapshots a Python function (its AST, the globals it reads, its
// defaults) into one S-expression string while holding the GIL; the C++
// frontend parses it detached. The format is plain text so that the frontend
// can be tested from C++ alone.
//
//   node    := '(' Head line col endLine endCol item* ')'   (AST nodes)
//            | '(' Head item* ')'                            (other lists)
//   atom    := symbol | integer | '#f' hexfloat | '#finf' | '#f-inf'
//            | '#fnan' | '#true' | '#false' | '#none' | '"' string '"'
//
// Which lists carry a location is decided by the reader's caller: AST node
// heads are capitalised Python ast class names.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_FRONTEND_SEXPR_H
#define PLAIT_FRONTEND_SEXPR_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plait::frontend {

struct SourceLocation {
  int line = 0;    // 1-based, in the file
  int column = 0;  // 0-based, in the original (not dedented) line
  int endLine = 0;
  int endColumn = 0;
};

struct SExpr {
  enum class Kind { List, Symbol, Integer, Float, String, True, False, None };
  Kind kind = Kind::List;
  std::string text;       // Symbol and String; Integer's digits (may be huge)
  double floating = 0;    // Float
  std::vector<SExpr> items; // List: items[0] is the head symbol

  bool isList() const { return kind == Kind::List; }
  bool isSymbol(const char *name) const {
    return kind == Kind::Symbol && text == name;
  }
  const std::string &head() const;
  /// For AST nodes: items 1-4 are the location.
  SourceLocation location() const;
  /// The i-th field of an AST node (after head and location).
  const SExpr &field(size_t i) const;
  size_t numFields() const;
  /// The list's items after its head (for non-node lists such as (Body ...)).
  std::vector<const SExpr *> rest() const;
};

/// Parses one S-expression; throws std::invalid_argument on malformed text.
SExpr parseSExpr(const std::string &text);

} // namespace plait::frontend

#endif // PLAIT_FRONTEND_SEXPR_H
