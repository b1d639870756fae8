//===- TyperStatements.cpp - typing statements ------------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace plait::frontend {

void Typer::typeStatement(Specialization &spec, const SExpr &stmt) {
  const std::string &head = stmt.head();
  const FunctionSource &fn = *spec.source;
  if (head == "Assign") {
    Type value = exprType(spec, stmt.field(1));
    if (value.kind == Type::Kind::Array) {
      std::set<std::string> roots = aliasRoots(spec, stmt.field(1));
      for (const SExpr *target : stmt.field(0).rest())
        if (target->head() == "Name")
          addAliases(spec, target->field(0).text, roots);
    }
    for (const SExpr *target : stmt.field(0).rest())
      assign(spec, *target, value, stmt);
  } else if (head == "AnnAssign") {
    if (stmt.field(1).kind == SExpr::Kind::None)
      return;
    assign(spec, stmt.field(0), exprType(spec, stmt.field(1)), stmt);
  } else if (head == "AugAssign") {
    const SExpr &target = stmt.field(0);
    if (target.head() != "Name" && target.head() != "Subscript")
      fail(CompileError::Kind::Unsupported, fn, target,
           "augmented assignment to " + target.head() + " is not supported");
    Type current = exprType(spec, target);
    Type value = exprType(spec, stmt.field(2));
    Type result = binaryType(spec, stmt, stmt.field(1).text, current, value);
    spec.types[&stmt] = result;
    if (current.kind == Type::Kind::Array) {
      // a += b and a[1:] += b work in place: the result must cast to a's
      // dtype within its kind (NumPy's same_kind rule), and a keeps its shape.
      auto rank = [](DType d) {
        return d == DType::Bool ? 0 : d == DType::Complex128 ? 3 : isFloatDType(d) ? 2 : 1;
      };
      if (result.kind == Type::Kind::Array &&
          (rank(result.dtype) > rank(current.dtype) || result.ndim > current.ndim))
        fail(CompileError::Kind::Typing, fn, stmt,
             "Cannot cast ufunc output from " + std::string(dtypeName(result.dtype)) + " to " +
                 dtypeName(current.dtype) + " with casting rule 'same_kind'" +
                 (result.ndim > current.ndim ? " (or broadcast it into a smaller array)" : ""));
      std::set<std::string> roots = aliasRoots(spec, target);
      spec.writes.insert(roots.begin(), roots.end());
      return;
    }
    assign(spec, target, result, stmt);
  } else if (head == "If") {
    exprType(spec, stmt.field(0));
    typeBody(spec, stmt.field(1));
    typeBody(spec, stmt.field(2));
  } else if (head == "While") {
    spec.loops = true;
    exprType(spec, stmt.field(0));
    typeLoopBody(spec, stmt.field(1));
    typeBody(spec, stmt.field(2)); // else: in the enclosing loop
  } else if (head == "For") {
    spec.loops = true;
    const SExpr &iter = stmt.field(1);
    bool isRange = iter.head() == "Call" && iter.field(0).head() == "Name" &&
                   resolve(spec, iter.field(0).field(0).text).kind ==
                       NameBinding::Kind::Builtin &&
                   iter.field(0).field(0).text == "range";
    if (!isRange) {
      Type iterated = iter.head() == "Name" ? exprType(spec, iter) : Type::bottom();
      if (iterated.kind == Type::Kind::Array) {
        // Over the first axis: elements of a 1-D array, rows (views) of N-D.
        if (iterated.ndim == 1) {
          assign(spec, stmt.field(0), iterated.elementType(), stmt);
        } else {
          const SExpr &target = stmt.field(0);
          if (target.head() != "Name" || !spec.loopTargets.count(target.field(0).text))
            fail(CompileError::Kind::Unsupported, fn, target,
                 "the rows of an array can be bound only to a variable that "
                 "nothing else assigns");
          addAliases(spec, target.field(0).text, aliasRoots(spec, iter)); // rows are views
          assign(spec, target, Type::array(iterated.dtype, iterated.ndim - 1), stmt);
          rowsInScope.insert(target.field(0).text);
        }
        typeLoopBody(spec, stmt.field(2));
        if (stmt.field(0).head() == "Name")
          rowsInScope.erase(stmt.field(0).field(0).text);
        typeBody(spec, stmt.field(3));
        return;
      }
      fail(CompileError::Kind::Unsupported, fn, iter,
           "for loops are supported over range(...) and array variables only");
    }
    const SExpr &args = iter.field(1);
    if (args.items.size() < 2 || args.items.size() > 4 ||
        iter.field(2).items.size() > 1)
      fail(CompileError::Kind::Typing, fn, iter,
           "range() takes 1 to 3 positional arguments");
    for (const SExpr *arg : args.rest()) {
      Type t = exprType(spec, *arg);
      if (t.kind != Type::Kind::Bottom && !t.isIntegral())
        fail(CompileError::Kind::Typing, fn, *arg,
             "'" + t.str() + "' object cannot be interpreted as an integer");
    }
    assign(spec, stmt.field(0), Type::integer(), stmt);
    typeLoopBody(spec, stmt.field(2));
    typeBody(spec, stmt.field(3));
  } else if (head == "Return") {
    Type value = stmt.field(0).kind == SExpr::Kind::None
                     ? Type::none()
                     : exprType(spec, stmt.field(0));
    Type unified;
    if (!unify(spec.result, value, unified))
      fail(CompileError::Kind::Typing, fn, stmt,
           fn.name + "() returns " + value.str() + " here but " +
               spec.result.str() + " at " + where(fn, spec.resultOrigin));
    if (spec.result.kind == Type::Kind::Bottom && value.kind != Type::Kind::Bottom)
      spec.resultOrigin = stmt.location();
    if (unified != spec.result) {
      spec.result = unified;
      changed = true;
    }
  } else if (head == "Expr") {
    const SExpr &value = stmt.field(0);
    // Docstrings and other bare constants are no-ops.
    if (value.head() != "Const")
      exprType(spec, value);
  } else if (head == "Break" || head == "Continue") {
    if (loopDepth == 0)
      fail(CompileError::Kind::Unsupported, fn, stmt,
           "'" + std::string(head == "Break" ? "break" : "continue") + "' outside loop");
  } else if (head == "Pass") {
    // nothing to type
  } else if (head == "Unsupported") {
    fail(CompileError::Kind::Unsupported, fn, stmt,
         stmt.field(0).text + " statements are not supported");
  } else {
    fail(CompileError::Kind::Unsupported, fn, stmt,
         head + " statements are not supported");
  }
}

} // namespace plait::frontend
