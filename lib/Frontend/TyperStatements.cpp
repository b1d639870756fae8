//===- TyperStatements.cpp - typing statements ------------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace plait::frontend {

void Typer::typeStatement(Specialization &spec, const SExpr &stmt) {
  ast::NodeKind kind = ast::kindOf(stmt);
  const FunctionSource &fn = *spec.source;
  if (kind == ast::NodeKind::Assign) {
    Type value = exprType(spec, ast::value(stmt));
    if (value.containsArray()) {
      // Each name bound to (a view of) an array, alone or in a tuple, may
      // alias what the value does: `a, b = b, a` element by element, other
      // tuples whole (writes through either are writes to both).
      std::function<void(const SExpr &, const SExpr &)> bind = [&](const SExpr &target,
                                                                   const SExpr &source) {
        if (ast::is(target, ast::NodeKind::Name)) {
          addAliases(spec, ast::id(target), aliasRoots(spec, source));
          return;
        }
        if (!ast::is(target, ast::NodeKind::Tuple))
          return;
        std::vector<const SExpr *> targets = ast::elts(target);
        bool pairwise =
            ast::is(source, ast::NodeKind::Tuple) && ast::elts(source).size() == targets.size();
        for (size_t i = 0; i < targets.size(); ++i)
          bind(*targets[i], pairwise ? *ast::elts(source)[i] : source);
      };
      for (const SExpr *target : ast::targets(stmt).rest())
        bind(*target, ast::value(stmt));
    }
    for (const SExpr *target : ast::targets(stmt).rest())
      assign(spec, *target, value, stmt);
  } else if (kind == ast::NodeKind::AnnAssign) {
    if (ast::value(stmt).kind == SExpr::Kind::None)
      return;
    assign(spec, ast::target(stmt), exprType(spec, ast::value(stmt)), stmt);
  } else if (kind == ast::NodeKind::AugAssign) {
    const SExpr &target = ast::target(stmt);
    if (!ast::is(target, ast::NodeKind::Name) && !ast::is(target, ast::NodeKind::Subscript))
      fail(CompileError::Kind::Unsupported, fn, target,
           "augmented assignment to " + target.head() + " is not supported");
    Type current = exprType(spec, target);
    Type value = exprType(spec, ast::value(stmt));
    Type result = binaryType(spec, stmt, ast::op(stmt), current, value);
    spec.types[&stmt] = result;
    if (current.kind == Type::Kind::Array) {
      // a += b and a[1:] += b work in place: the result must cast to a's
      // dtype within its kind (NumPy's same_kind rule), and a keeps its shape.
      auto rank = [](DType d) {
        return d == DType::Bool ? 0 : isComplexDType(d) ? 3 : isFloatDType(d) ? 2 : 1;
      };
      if (result.kind == Type::Kind::Array &&
          (rank(result.dtype) > rank(current.dtype) || result.ndim > current.ndim))
        fail(CompileError::Kind::Typing, fn, stmt,
             "Cannot cast ufunc output from " + std::string(dtypeName(result.dtype)) + " to " +
                 dtypeName(current.dtype) + " with casting rule 'same_kind'" +
                 (result.ndim > current.ndim ? " (or broadcast it into a smaller array)" : ""));
      std::set<std::string> roots = aliasRoots(spec, target);
      spec.writes.insert(roots.begin(), roots.end());
      if (writesRealImag(spec, target))
        spec.readOnlyWrites.insert(&target);
      return;
    }
    assign(spec, target, result, stmt);
  } else if (kind == ast::NodeKind::If) {
    exprType(spec, ast::test(stmt));
    typeBody(spec, ast::body(stmt));
    typeBody(spec, ast::orelse(stmt));
  } else if (kind == ast::NodeKind::While) {
    spec.loops = true;
    exprType(spec, ast::test(stmt));
    typeLoopBody(spec, ast::body(stmt));
    typeBody(spec, ast::orelse(stmt)); // else: in the enclosing loop
  } else if (kind == ast::NodeKind::For) {
    spec.loops = true;
    const SExpr &target = ast::target(stmt);
    if (std::optional<Iterable> iterable = iterableOf(spec, ast::iter(stmt))) {
      bindLoopTarget(spec, target, *iterable, stmt);
      spec.iterables[&stmt] = std::move(*iterable);
    }
    typeLoopBody(spec, ast::body(stmt));
    unbindLoopTarget(target);
    typeBody(spec, ast::orelse(stmt)); // else: in the enclosing loop
  } else if (kind == ast::NodeKind::Return) {
    Type value = ast::value(stmt).kind == SExpr::Kind::None
                     ? Type::none()
                     : exprType(spec, ast::value(stmt));
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
  } else if (kind == ast::NodeKind::Expr) {
    const SExpr &value = ast::value(stmt);
    // Docstrings and other bare constants are no-ops.
    if (!ast::is(value, ast::NodeKind::Const))
      exprType(spec, value);
  } else if (kind == ast::NodeKind::Break || kind == ast::NodeKind::Continue) {
    if (loopDepth == 0)
      fail(CompileError::Kind::Unsupported, fn, stmt,
           "'" + std::string(kind == ast::NodeKind::Break ? "break" : "continue") +
               "' outside loop");
  } else if (kind == ast::NodeKind::Pass) {
    // nothing to type
  } else if (kind == ast::NodeKind::Unsupported) {
    fail(CompileError::Kind::Unsupported, fn, stmt,
         ast::what(stmt) + " statements are not supported");
  } else {
    fail(CompileError::Kind::Unsupported, fn, stmt, stmt.head() + " statements are not supported");
  }
}

} // namespace plait::frontend
