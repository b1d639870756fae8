//===- TyperStatements.cpp - typing statements ------------------------------===//
#include "Typer.h"

#include "plait/Runtime/RuntimeSymbols.h"

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
    // b = a and a = b = [] of a list or dict: one object under several
    // names, so the types its items get through any (b.append(1) after
    // a = []) are all the names'.
    std::vector<std::string> names;
    bool container = value.kind == Type::Kind::List || value.kind == Type::Kind::Dict;
    if (container && ast::is(ast::value(stmt), ast::NodeKind::Name))
      names.push_back(ast::id(ast::value(stmt)));
    for (const SExpr *target : ast::targets(stmt).rest()) {
      assign(spec, *target, value, stmt);
      if (container && ast::is(*target, ast::NodeKind::Name))
        names.push_back(ast::id(*target));
    }
    for (const std::string &name : names)
      for (const std::string &other : names)
        if (name != other)
          widenVariable(spec, name, spec.variables[other], stmt);
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
    if (ast::is(target, ast::NodeKind::Subscript))
      refuseWritesThroughIndexArrays(spec, target);
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
  } else if (kind == ast::NodeKind::Delete) {
    typeDelete(spec, stmt);
  } else if (kind == ast::NodeKind::If) {
    std::optional<bool> known = knownTest(spec, ast::test(stmt));
    if (!known || *known)
      typeBody(spec, ast::body(stmt));
    if (!known || !*known) // (a branch never taken is not typed)
      typeBody(spec, ast::orelse(stmt));
  } else if (kind == ast::NodeKind::While) {
    spec.loops = true;
    markTruthTest(spec, ast::test(stmt));
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
  } else if (kind == ast::NodeKind::Try) {
    typeTry(spec, stmt);
  } else if (kind == ast::NodeKind::Raise) {
    raisedClass(spec, stmt);
  } else if (kind == ast::NodeKind::Assert) {
    markTruthTest(spec, ast::test(stmt));
    Type test = exprType(spec, ast::test(stmt));
    if (test.kind == Type::Kind::Array)
      fail(CompileError::Kind::Typing, fn, ast::test(stmt),
           "the truth value of an array with more than one element is ambiguous: assert "
           "a.all() or a.any()");
    if (!ast::isNone(ast::msg(stmt)))
      typeMessage(spec, ast::msg(stmt));
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

void Typer::typeTry(Specialization &spec, const SExpr &stmt) {
  typeBody(spec, ast::body(stmt));
  for (const SExpr *handler : ast::handlers(stmt).rest()) {
    handledClasses(spec, *handler);
    const SExpr &name = ast::handlerName(*handler);
    if (!ast::isNone(name) && spec.locals.count(name.text))
      fail(CompileError::Kind::Unsupported, *spec.source, *handler,
           "'" + name.text +
               "' names both a variable and a caught exception; compiled code keeps them apart "
               "(rename one)");
    typeBody(spec, ast::body(*handler));
  }
  typeBody(spec, ast::orelse(stmt));
  typeBody(spec, ast::finalbody(stmt));
}

std::vector<std::pair<std::string, std::vector<std::string>>>
Typer::handledClasses(const Specialization &spec, const SExpr &handler) const {
  const SExpr &type = ast::type(handler);
  if (ast::isNone(type))
    return {{"BaseException", {}}};
  std::vector<const SExpr *> named =
      ast::is(type, ast::NodeKind::Tuple) ? ast::elts(type) : std::vector<const SExpr *>{&type};
  std::vector<std::pair<std::string, std::vector<std::string>>> classes;
  for (const SExpr *cls : named) {
    NameBinding binding =
        ast::is(*cls, ast::NodeKind::Name) ? resolve(spec, ast::id(*cls)) : NameBinding();
    if (binding.kind != NameBinding::Kind::ExceptionClass)
      fail(CompileError::Kind::Unsupported, *spec.source, *cls,
           "except takes exception classes (built-in ones, or classes defined at module "
           "level), or a tuple of them");
    classes.emplace_back(binding.name, exceptionBases(spec, ast::id(*cls)));
  }
  return classes;
}

std::vector<std::string> Typer::exceptionBases(const Specialization &spec,
                                               const std::string &name) const {
  std::vector<std::string> bases;
  auto found = spec.source->globals.find(name);
  if (found == spec.source->globals.end() || found->second.items.size() < 3)
    return bases;
  for (const SExpr *base : found->second.items[2].rest())
    bases.push_back(base->text);
  return bases;
}

std::string Typer::raisedClass(Specialization &spec, const SExpr &stmt) {
  const FunctionSource &fn = *spec.source;
  const SExpr &exc = ast::exc(stmt);
  if (ast::isNone(exc))
    return ""; // a bare raise: the exception being handled
  const SExpr &cause = ast::cause(stmt);
  if (!ast::isNone(cause) &&
      !(ast::is(cause, ast::NodeKind::Const) && ast::value(cause).kind == SExpr::Kind::None))
    fail(CompileError::Kind::Unsupported, fn, cause,
         "raise ... from <exception> is not supported (compiled code does not chain "
         "exceptions); raise ... from None is");
  if (ast::is(exc, ast::NodeKind::Name) && spec.caughtNames.count(ast::id(exc)))
    return ""; // raise e: re-raises the exception caught as e
  bool called = ast::is(exc, ast::NodeKind::Call);
  const SExpr &cls = called ? ast::func(exc) : exc;
  NameBinding binding =
      ast::is(cls, ast::NodeKind::Name) ? resolve(spec, ast::id(cls)) : NameBinding();
  if (binding.kind != NameBinding::Kind::ExceptionClass)
    fail(CompileError::Kind::Unsupported, fn, cls,
         "raise takes an exception class (a built-in one, or a class defined at module "
         "level), called with at most a message");
  if (called) {
    std::vector<const SExpr *> args = ast::args(exc).rest();
    if (args.size() > 1 || ast::keywords(exc).items.size() > 1)
      fail(CompileError::Kind::Unsupported, fn, exc,
           "an exception raised by compiled code takes one message at most");
    if (!args.empty())
      typeMessage(spec, *args[0]);
  }
  return binding.name;
}

void Typer::typeMessage(Specialization &spec, const SExpr &message) {
  const FunctionSource &fn = *spec.source;
  auto number = [&](const SExpr &value) {
    Type t = exprType(spec, value);
    if (t.kind != Type::Kind::Bottom && !t.isNumber() && !t.isStr())
      fail(CompileError::Kind::Unsupported, fn, value,
           "messages of exceptions raised by compiled code show numbers, bools and strs "
           "(and NumPy's numbers), not " +
               t.str());
  };
  if (ast::isStringConstant(message))
    return;
  // A tuple of these is shown as CPython's repr shows it (f"{t!r}"), or is
  // the exception's argument itself (raise KeyError((i, j))).
  // In an f-string, lists too (formatted when raised).
  bool listsShown = false;
  std::function<bool(const Type &)> shown = [&](const Type &t) {
    if (t.kind == Type::Kind::List) { // (copied when raised: lists of numbers, at any depth)
      const Type *item = &t.itemType();
      while (item->kind == Type::Kind::List)
        item = &item->itemType();
      return listsShown && (item->kind == Type::Kind::Bottom || listItemLayout(*item).owned == 0);
    }
    if (t.kind != Type::Kind::Tuple)
      return t.kind == Type::Kind::Bottom || t.isNumber() || t.isStr();
    return std::all_of(t.elements.begin(), t.elements.end(), shown);
  };
  std::function<size_t(const Type &)> words = [&](const Type &t) -> size_t {
    if (t.kind == Type::Kind::List)
      return 1; // (its box)
    size_t n = t.kind == Type::Kind::Tuple ? 0 : t.isComplex() ? 2 : 1;
    for (const Type &element : t.elements)
      n += words(element);
    return n;
  };
  if (!ast::is(message, ast::NodeKind::JoinedStr)) {
    Type t = exprType(spec, message); // raise ValueError(x): str(x)
    if (t.kind != Type::Kind::Tuple || !shown(t))
      number(message);
    if (words(t) > kMaxErrorArguments)
      fail(CompileError::Kind::Unsupported, fn, message, "this message holds too many values");
    return;
  }
  size_t recorded = 0;
  listsShown = true;
  typeFormattedString(spec, message, [&](const SExpr &value) {
    Type t = exprType(spec, value);
    recorded += words(t);
    if ((t.kind != Type::Kind::Tuple && t.kind != Type::Kind::List) || !shown(t))
      number(value);
  });
  for (const SExpr *part : ast::values(message))
    if (ast::is(*part, ast::NodeKind::FormattedValue) &&
        exprType(spec, ast::value(*part)).kind == Type::Kind::Tuple &&
        !ast::isNone(ast::format_spec(*part)))
      fail(CompileError::Kind::Typing, fn, *part,
           "unsupported format string passed to tuple.__format__");
  if (recorded > kMaxErrorArguments)
    fail(CompileError::Kind::Unsupported, fn, message, "this message formats too many values");
}

void Typer::typeFormattedString(Specialization &spec, const SExpr &joined,
                                const std::function<void(const SExpr &)> &value) {
  for (const SExpr *part : ast::values(joined)) {
    if (!ast::is(*part, ast::NodeKind::FormattedValue))
      continue; // a constant part
    value(ast::value(*part));
    const SExpr &format = ast::format_spec(*part);
    if (ast::isNone(format))
      continue;
    for (const SExpr *piece : ast::values(format))
      if (!ast::is(*piece, ast::NodeKind::Const))
        fail(CompileError::Kind::Unsupported, *spec.source, *piece,
             "format specs computed when the code runs are not supported (write them out)");
  }
}

} // namespace plait::frontend
