//===- TyperIteration.cpp - what `for` loops iterate over -----------------===//
//
// A `for` loop runs over range(), an array (its elements, or the rows of an
// N-D one), a tuple whose elements have one type, enumerate(), zip(),
// np.ndindex() and np.ndenumerate(). Every iterable but range() is a count
// and an item per position; the emitter builds the loop from them.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include <functional>

namespace plait::frontend {

namespace {

/// The builtin or NumPy function `call` calls ("enumerate", "np.ndindex"),
/// or "".
std::string iterationFunction(const Typer &typer, const Specialization &spec, const SExpr &call) {
  if (!ast::is(call, ast::NodeKind::Call))
    return "";
  const SExpr &callee = ast::func(call);
  if (ast::is(callee, ast::NodeKind::Name)) {
    NameBinding binding = typer.resolve(spec, ast::id(callee));
    if (binding.kind == NameBinding::Kind::Builtin)
      return binding.name.empty() ? ast::id(callee) : binding.name;
  }
  // plait.prange and numba.prange, through their modules.
  if (ast::is(callee, ast::NodeKind::Attribute) && ast::attr(callee) == "prange" &&
      ast::is(ast::value(callee), ast::NodeKind::Name) &&
      typer.resolve(spec, ast::id(ast::value(callee))).kind != NameBinding::Kind::Local) {
    auto global = spec.source->globals.find(ast::id(ast::value(callee)));
    if (global != spec.source->globals.end() && global->second.head() == "Module" &&
        (global->second.items.at(1).text == "plait" || global->second.items.at(1).text == "numba"))
      return "prange";
  }
  std::string numpyName = typer.numpyFunction(spec, callee);
  return numpyName == "ndindex" || numpyName == "ndenumerate" ? "np." + numpyName : "";
}

} // namespace

std::optional<Iterable> Typer::iterableOf(Specialization &spec, const SExpr &node) {
  const FunctionSource &fn = *spec.source;
  std::string function = iterationFunction(*this, spec, node);
  std::vector<const SExpr *> args =
      ast::is(node, ast::NodeKind::Call) ? ast::args(node).rest() : std::vector<const SExpr *>();
  auto noKeywords = [&](const char *name) {
    if (ast::keywords(node).items.size() > 1 && function != "enumerate")
      fail(CompileError::Kind::Typing, fn, node,
           std::string(name) + "() takes no keyword arguments");
  };
  auto needInts = [&](const std::string &name, const SExpr &arg, const Type &t) {
    bool ints = t.isIntegral();
    if (t.kind == Type::Kind::Tuple) {
      ints = true;
      for (const Type &element : t.elements)
        ints &= element.isIntegral();
    }
    if (!ints)
      fail(CompileError::Kind::Typing, fn, arg,
           "'" + t.str() + "' object cannot be interpreted as an integer" +
               (name.empty() ? "" : " (" + name + "() takes ints)"));
  };
  Iterable iterable;
  iterable.node = &node;
  if (function == "range" || function == "prange") {
    noKeywords(function.c_str());
    if (args.empty() || args.size() > 3)
      fail(CompileError::Kind::Typing, fn, node, function + "() takes 1 to 3 positional arguments");
    for (const SExpr *arg : args) {
      // (An argument typed in a later round still makes ints: range(i)
      // before i is bound raises when it runs.)
      Type t = exprType(spec, *arg);
      if (t.kind != Type::Kind::Bottom && !t.isIntegral())
        fail(CompileError::Kind::Typing, fn, *arg,
             "'" + t.str() + "' object cannot be interpreted as an integer");
    }
    iterable.kind = Iterable::Kind::Range;
    iterable.parallel = function == "prange";
    iterable.element = Type::integer();
    return iterable;
  }
  if (function == "reversed") {
    noKeywords("reversed");
    if (args.size() != 1)
      fail(CompileError::Kind::Typing, fn, node,
           "reversed() takes exactly one argument (" + std::to_string(args.size()) + " given)");
    std::optional<Iterable> part = iterableOf(spec, *args[0]);
    if (!part)
      return std::nullopt;
    bool reversible =
        part->kind == Iterable::Kind::Range || part->kind == Iterable::Kind::List ||
        part->kind == Iterable::Kind::Tuple ||
        (part->kind == Iterable::Kind::Array && part->element.kind != Type::Kind::Array);
    if (!reversible)
      fail(CompileError::Kind::Unsupported, fn, *args[0],
           "reversed() of this is not supported (ranges, lists, tuples and 1-D arrays are)");
    iterable.kind = Iterable::Kind::Reversed;
    iterable.element = part->element;
    iterable.parts.push_back(std::move(*part));
    return iterable;
  }
  if (function == "enumerate" || function == "zip") {
    iterable.kind = function == "zip" ? Iterable::Kind::Zip : Iterable::Kind::Enumerate;
    const SExpr *start = nullptr;
    for (const SExpr *keyword : ast::keywords(node).rest()) {
      if (function == "zip" || keyword->items.at(1).text != "start")
        fail(CompileError::Kind::Typing, fn, node,
             function + "() got an unexpected keyword argument '" + keyword->items.at(1).text +
                 "'");
      start = &keyword->items.at(2);
    }
    if (function == "enumerate") {
      if (args.empty() || args.size() + (start ? 1 : 0) > 2)
        fail(CompileError::Kind::Typing, fn, node, "enumerate() takes an iterable and a start");
      if (args.size() == 2)
        start = args[1];
      args.resize(1);
      if (start) {
        Type t = exprType(spec, *start);
        if (t.kind == Type::Kind::Bottom)
          return std::nullopt;
        needInts("", *start, t);
      }
      iterable.start = start;
    }
    std::vector<Type> elements;
    if (function == "enumerate")
      elements.push_back(Type::integer());
    for (const SExpr *arg : args) {
      std::optional<Iterable> part = iterableOf(spec, *arg);
      if (!part)
        return std::nullopt;
      if (part->kind == Iterable::Kind::Dict)
        fail(CompileError::Kind::Unsupported, fn, *arg,
             function + "() of a dict is not supported (loop over the dict or its items())");
      if ((part->kind == Iterable::Kind::Tuple || part->kind == Iterable::Kind::List) &&
          part->element.kind == Type::Kind::Bottom)
        fail(CompileError::Kind::Unsupported, fn, *arg,
             function + "() of an empty " +
                 (part->kind == Iterable::Kind::List ? "list" : "tuple") +
                 " is not supported (loop over it itself)");
      elements.push_back(part->element);
      iterable.parts.push_back(std::move(*part));
    }
    if (function == "zip" && args.empty())
      fail(CompileError::Kind::Unsupported, fn, node, "zip() of nothing is not supported");
    iterable.element = Type::tuple(std::move(elements));
    return iterable;
  }
  if (function == "np.ndindex") {
    noKeywords("ndindex");
    std::vector<Type> indices;
    for (const SExpr *arg : args) {
      Type t = exprType(spec, *arg);
      if (t.kind == Type::Kind::Bottom)
        return std::nullopt;
      needInts("ndindex", *arg, t);
      if (t.kind == Type::Kind::Tuple && args.size() > 1)
        fail(CompileError::Kind::Typing, fn, *arg,
             "np.ndindex() takes a shape tuple or the sizes as separate ints");
      size_t count = t.kind == Type::Kind::Tuple ? t.elements.size() : 1;
      indices.insert(indices.end(), count, Type::integer());
    }
    iterable.kind = Iterable::Kind::NdIndex;
    iterable.element = Type::tuple(std::move(indices));
    return iterable;
  }
  if (function == "np.ndenumerate") {
    noKeywords("ndenumerate");
    if (args.size() != 1)
      fail(CompileError::Kind::Typing, fn, node, "np.ndenumerate() takes one array");
    Type array = exprType(spec, *args[0]);
    if (array.kind == Type::Kind::Bottom)
      return std::nullopt;
    if (array.kind != Type::Kind::Array)
      fail(CompileError::Kind::Unsupported, fn, *args[0],
           "np.ndenumerate() of " + array.str() + " is not supported (arrays are)");
    iterable.kind = Iterable::Kind::NdEnumerate;
    iterable.element = Type::tuple(
        {Type::tuple(std::vector<Type>(array.ndim, Type::integer())), array.elementType()});
    return iterable;
  }
  if (!function.empty())
    fail(CompileError::Kind::Unsupported, fn, node,
         "for loops over " + function +
             "() are not supported (range(), arrays, tuples, lists, "
             "enumerate(), zip(), reversed(), np.ndindex() and np.ndenumerate() are)");
  if (ast::is(node, ast::NodeKind::Call) && ast::is(ast::func(node), ast::NodeKind::Attribute) &&
      ast::args(node).rest().empty()) {
    // d.keys(), d.values(), d.items().
    const std::string &view = ast::attr(ast::func(node));
    if (view == "keys" || view == "values" || view == "items") {
      Type dict = exprType(spec, ast::value(ast::func(node)));
      if (dict.kind == Type::Kind::Bottom)
        return std::nullopt;
      if (dict.kind == Type::Kind::Dict) {
        iterable.kind = Iterable::Kind::Dict;
        iterable.dictView = view == "keys"     ? Iterable::DictView::Keys
                            : view == "values" ? Iterable::DictView::Values
                                               : Iterable::DictView::Items;
        iterable.element = view == "keys"     ? dict.keyType()
                           : view == "values" ? dict.valueType()
                                              : Type::tuple({dict.keyType(), dict.valueType()});
        if (iterable.element.kind == Type::Kind::Bottom ||
            (view == "items" && dict.keyType().kind == Type::Kind::Bottom))
          iterable.element = Type::bottom(); // (never filled: always empty)
        return iterable;
      }
    }
  }
  if (ast::is(node, ast::NodeKind::List)) // for x in [a, b]: a fixed sequence
    spec.sequenceLiterals.insert(&node);
  Type iterated = exprType(spec, node);
  if (iterated.kind == Type::Kind::Bottom)
    return std::nullopt;
  if (iterated.kind == Type::Kind::Array) {
    iterable.kind = Iterable::Kind::Array;
    iterable.element = iterated.ndim == 1 ? iterated.elementType()
                                          : Type::array(iterated.dtype, iterated.ndim - 1);
    return iterable;
  }
  if (iterated.kind == Type::Kind::Dict) { // its keys
    iterable.kind = Iterable::Kind::Dict;
    iterable.element = iterated.keyType();
    return iterable;
  }
  if (iterated.kind == Type::Kind::List) {
    // (A list whose items never get a type is always empty: as for an
    // empty tuple, the body is neither typed nor emitted.)
    iterable.kind = Iterable::Kind::List;
    iterable.element = iterated.itemType();
    return iterable;
  }
  if (iterated.isStr()) { // its code points, each a str of one character
    iterable.kind = Iterable::Kind::List;
    iterable.element = Type::runtimeStr();
    return iterable;
  }
  if (iterated.kind == Type::Kind::Tuple) {
    iterable.kind = Iterable::Kind::Tuple;
    if (iterated.elements.empty()) {
      // (an empty *args): the body never runs, so nothing it computes has
      // a type; the emitter leaves it out.
      iterable.element = Type::bottom();
      return iterable;
    }
    if (!hasUniformScalars(iterated))
      fail(CompileError::Kind::Unsupported, fn, node,
           "a for loop over a tuple of " + iterated.str() +
               " is not supported (its elements need one scalar type)");
    iterable.element = iterated.elements[0];
    return iterable;
  }
  fail(CompileError::Kind::Unsupported, fn, node,
       "for loops over " + iterated.str() +
           " are not supported (range(), arrays, tuples, lists, enumerate(), zip(), reversed(), "
           "np.ndindex() and np.ndenumerate() are)");
}

void Typer::bindLoopTarget(Specialization &spec, const SExpr &target, const Iterable &iterable,
                           const SExpr &stmt) {
  const FunctionSource &fn = *spec.source;
  // Rows of an N-D array are views: the names bound to them alias it.
  std::function<void(const SExpr &, const Iterable &)> alias = [&](const SExpr &name,
                                                                   const Iterable &part) {
    if (part.kind == Iterable::Kind::Array && part.element.kind == Type::Kind::Array &&
        ast::is(name, ast::NodeKind::Name))
      addAliases(spec, ast::id(name), aliasRoots(spec, *part.node));
  };
  if (iterable.kind == Iterable::Kind::Array && iterable.element.kind == Type::Kind::Array) {
    if (!ast::is(target, ast::NodeKind::Name) || !spec.loopTargets.count(ast::id(target)))
      fail(CompileError::Kind::Unsupported, fn, target,
           "the rows of an array can be bound only to a variable that nothing else assigns");
    alias(target, iterable);
    assign(spec, target, iterable.element, stmt);
    rowsInScope.insert(ast::id(target));
    return;
  }
  if ((iterable.kind == Iterable::Kind::Enumerate || iterable.kind == Iterable::Kind::Zip) &&
      ast::is(target, ast::NodeKind::Tuple)) {
    std::vector<const SExpr *> names = ast::elts(target);
    size_t first = iterable.kind == Iterable::Kind::Enumerate ? 1 : 0;
    if (names.size() == first + iterable.parts.size())
      for (size_t k = 0; k < iterable.parts.size(); ++k)
        alias(*names[first + k], iterable.parts[k]);
  }
  for (const Iterable &part : iterable.parts)
    if (part.element.kind == Type::Kind::Array && !ast::is(target, ast::NodeKind::Tuple))
      fail(CompileError::Kind::Unsupported, fn, target,
           "unpack the rows of an array from enumerate() or zip() into names "
           "(for i, row in enumerate(a))");
  if (ast::is(target, ast::NodeKind::Name) && iterable.element.containsArray())
    // A list's array is not borrowed as an array's rows are: the body may
    // take it out of the list (pop), so the variable holds a reference.
    spec.loopTargets.erase(ast::id(target));
  assign(spec, target, iterable.element, stmt);
}

const Iterable &Typer::loopIterable(const Specialization &spec, const SExpr &stmt) const {
  auto found = spec.iterables.find(&stmt);
  if (found == spec.iterables.end())
    fail(CompileError::Kind::Typing, *spec.source, ast::iter(stmt),
         "this loop's iterable has no type: does it read a variable before it is assigned?");
  return found->second;
}

void Typer::unbindLoopTarget(const SExpr &target) {
  if (ast::is(target, ast::NodeKind::Name))
    rowsInScope.erase(ast::id(target));
}

} // namespace plait::frontend
