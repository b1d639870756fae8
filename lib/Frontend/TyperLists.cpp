//===- TyperLists.cpp - the types of typed lists --------------------------===//
//
// A list in compiled code holds items of one type (a number, a bool or a
// NumPy scalar), as Numba's typed lists do: CPython would keep a float
// appended to a list of ints as a float, so lists that would mix types are
// refused instead of converted. `[]` is a list of items not typed yet; the
// first item put into it (append, insert, extend, l[i] = v, a display's
// items) settles their type for the variable that holds it, for the names
// it was copied from (b = a), and for a caller's variable passed to the
// function that puts it in.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include "plait/Frontend/AST.h"

namespace plait::frontend {

namespace {

/// "an int", "a float".
std::string withArticle(const std::string &noun) {
  return (noun.find_first_of("aeiou") == 0 ? "an " : "a ") + noun;
}

/// The methods of CPython's list (compiled natively or by plait.overload).
const std::set<std::string> &listMethodNames() {
  static const std::set<std::string> names = {"append", "extend",  "pop",   "insert",
                                              "remove", "index",   "count", "clear",
                                              "copy",   "reverse", "sort"};
  return names;
}

} // namespace

Type Typer::listDisplayType(Specialization &spec, const SExpr &display) {
  Type list = Type::list(Type::bottom());
  for (const SExpr *element : ast::elts(display)) {
    std::vector<Type> items;
    if (ast::is(*element, ast::NodeKind::Starred)) {
      // [*t, x]: a tuple's elements in place.
      Type spliced = exprType(spec, ast::value(*element));
      if (spliced.kind == Type::Kind::Bottom)
        return spliced;
      if (spliced.kind != Type::Kind::Tuple)
        fail(CompileError::Kind::Unsupported, *spec.source, *element,
             "*x in a list display takes a tuple in compiled code, not " + spliced.str() +
                 " (use l + m for lists)");
      spec.types[element] = spliced;
      items = spliced.elements;
    } else {
      items.push_back(exprType(spec, *element));
    }
    for (const Type &item : items) {
      if (item.kind == Type::Kind::Bottom)
        return item; // typed in a later round
      settleListItems(spec, display, list, item, *element);
      // (What the items so far and this one meet as: [[x], []].)
      Type met;
      list = unify(list, Type::list(listItemOf(item)), met) ? met : Type::list(listItemOf(item));
    }
  }
  return list;
}

void Typer::settleListItems(Specialization &spec, const SExpr &node, const Type &list,
                            const Type &given, const SExpr &origin) {
  const FunctionSource &fn = *spec.source;
  if (given.kind == Type::Kind::Bottom)
    return; // typed in a later round
  if (!isListItem(given))
    fail(CompileError::Kind::Unsupported, fn, origin,
         "lists of " + given.str() +
             " are not supported (compiled lists hold numbers, bools, NumPy scalars, arrays, "
             "lists whose items have a type, and tuples of these)");
  Type item = listItemOf(given);
  const Type &current = list.itemType();
  if (current == item)
    return;
  // `[]` takes its items' type, also inside another list (`[[] for ...]`).
  Type met;
  if (current.kind != Type::Kind::Bottom && !unify(list, Type::list(item), met))
    fail(CompileError::Kind::Typing, fn, origin,
         "cannot put " + withArticle(item.str()) + " into a " + list.str() +
             ": a compiled list holds items of one type (CPython would keep this one as " +
             withArticle(item.str()) + "; convert it first)");
  Type widened = current.kind == Type::Kind::Bottom ? Type::list(item) : met;
  if (widened == list || ast::is(node, ast::NodeKind::List))
    return; // nothing new, or a display: its own items settle its type
  // (A parameter's too: the caller's variable then takes the type, see
  // jitCallType.)
  if (ast::is(node, ast::NodeKind::Subscript) && !ast::is(ast::slice(node), ast::NodeKind::Slice)) {
    // rows[i].append(x), groups[k].append(x): the list or dict that holds
    // it takes the type.
    const SExpr &outer = ast::value(node);
    Type holder = exprType(spec, outer);
    if (holder.kind == Type::Kind::List) {
      settleListItems(spec, outer, holder, widened, origin);
      return;
    }
    if (holder.kind == Type::Kind::Dict) {
      settleDictTypes(spec, outer, holder, Type::bottom(), widened, origin);
      return;
    }
  }
  if (ast::is(node, ast::NodeKind::Call) && ast::is(ast::func(node), ast::NodeKind::Attribute) &&
      (ast::attr(ast::func(node)) == "setdefault" || ast::attr(ast::func(node)) == "get")) {
    // groups.setdefault(k, []).append(x): the dict takes the type.
    const SExpr &outer = ast::value(ast::func(node));
    Type holder = exprType(spec, outer);
    if (holder.kind == Type::Kind::Dict) {
      settleDictTypes(spec, outer, holder, Type::bottom(), widened, origin);
      return;
    }
  }
  if (!ast::is(node, ast::NodeKind::Name))
    fail(CompileError::Kind::Unsupported, fn, origin,
         "the items of this list have no type yet (an empty list): put the first item into "
         "it through a variable that holds it, or make it with an item ([x])");
  widenVariable(spec, ast::id(node), widened, origin);
}

Type Typer::listMethodType(Specialization &spec, const SExpr &call, const Type &list) {
  const FunctionSource &fn = *spec.source;
  const SExpr &callee = ast::func(call);
  const SExpr &base = ast::value(callee);
  const std::string &method = ast::attr(callee);
  std::vector<const SExpr *> args = ast::args(call).rest();
  if (!listMethodNames().count(method))
    fail(CompileError::Kind::Typing, fn, callee, "'list' object has no attribute '" + method + "'");
  bool hasKeywords = ast::keywords(call).items.size() > 1;
  if (method == "append" || (method == "pop" && args.empty() && !hasKeywords)) {
    if (hasKeywords)
      fail(CompileError::Kind::Typing, fn, call, "list.append() takes no keyword arguments");
    if (method == "append" && args.size() != 1)
      fail(CompileError::Kind::Typing, fn, call,
           "list.append() takes exactly one argument (" + std::to_string(args.size()) + " given)");
    spec.listMethods[&call] = method;
    if (method == "pop") {
      if (list.itemType().kind == Type::Kind::Bottom)
        spec.untypedReads.insert(&call); // (unknown until something is appended)
      return list.itemType();
    }
    settleListItems(spec, base, list, exprType(spec, *args[0]), *args[0]);
    return Type::none();
  }
  if (method == "pop" && list.itemType().kind == Type::Kind::Bottom) {
    // pop(i) of a list whose items are not typed yet (they may be in a
    // later round: l.append(str(i))): typed then, or a read of a list
    // nothing is put into.
    spec.untypedReads.insert(&call);
    return Type::bottom();
  }
  // What extend and insert put in settles an empty list's items first: the
  // implementation receives the list with its items typed.
  if (method == "insert" && args.size() == 2)
    settleListItems(spec, base, list, exprType(spec, *args[1]), *args[1]);
  if (method == "extend" && args.size() == 1) {
    Type added = exprType(spec, *args[0]);
    Type item = added.kind == Type::Kind::List ? added.itemType()
                : added.kind == Type::Kind::Array
                    ? (added.ndim == 1 ? added.elementType() : Type::bottom())
                : added.kind == Type::Kind::Tuple && hasUniformScalars(added) ? added.elements[0]
                                                                              : Type::bottom();
    settleListItems(spec, base, list, item, *args[0]);
  }
  if (std::optional<Type> resolved = methodOverloadType(spec, call, "list"))
    return *resolved;
  fail(CompileError::Kind::Unsupported, fn, callee,
       "list." + method + "() of " + list.str() + " with these arguments is not supported");
}

Type Typer::listOperatorType(Specialization &spec, const SExpr &node, ast::Operator op,
                             const Type &left, const Type &right) {
  const FunctionSource &fn = *spec.source;
  bool inPlace = ast::is(node, ast::NodeKind::AugAssign);
  const SExpr &a = inPlace ? ast::target(node) : ast::left(node);
  const SExpr &b = inPlace ? ast::value(node) : ast::right(node);
  auto pythonName = [](const Type &t) {
    switch (t.kind) {
    case Type::Kind::List:
      return std::string("list");
    case Type::Kind::Tuple:
      return std::string("tuple");
    case Type::Kind::Array:
      return std::string("numpy.ndarray");
    default:
      return t.str();
    }
  };
  std::string method;
  if (op == ast::Operator::Add && left.kind == Type::Kind::List) {
    method = inPlace ? "__iadd__" : "__add__";
    if (inPlace) { // l += items: an empty list takes their type first
      Type item = right.kind == Type::Kind::List                                ? right.itemType()
                  : right.kind == Type::Kind::Tuple && hasUniformScalars(right) ? right.elements[0]
                  : right.kind == Type::Kind::Array && right.ndim == 1 ? right.elementType()
                                                                       : Type::bottom();
      settleListItems(spec, a, left, item, node);
    }
  } else if (op == ast::Operator::Mult) {
    method = left.kind == Type::Kind::List ? (inPlace ? "__imul__" : "__mul__") : "__rmul__";
  }
  if (!method.empty() && options.overloaded.count("list." + method))
    if (std::optional<Type> result = overloadCallType(spec, node, "list." + method, {&a, &b}))
      return *result;
  fail(CompileError::Kind::Typing, fn, node,
       std::string("unsupported operand type(s) for ") + ast::spelling(op) + (inPlace ? "=" : "") +
           ": '" + pythonName(left) + "' and '" + pythonName(right) + "'");
}

Type Typer::listEqualityType(Specialization &spec, const SExpr &compare) {
  const SExpr &left = ast::left(compare);
  const SExpr &right = *ast::comparators(compare).rest().at(0);
  if (exprType(spec, left).kind == Type::Kind::Bottom ||
      exprType(spec, right).kind == Type::Kind::Bottom)
    return Type::bottom();
  if (options.overloaded.count("list.__eq__"))
    if (std::optional<Type> equal = overloadCallType(spec, compare, "list.__eq__", {&left, &right}))
      return *equal;
  fail(CompileError::Kind::Unsupported, *spec.source, compare,
       "comparing these lists is not supported");
}

Type Typer::containsType(Specialization &spec, const SExpr &compare) {
  const SExpr &item = ast::left(compare);
  const SExpr &sequence = *ast::comparators(compare).rest().at(0);
  Type container = exprType(spec, sequence);
  if (container.kind == Type::Kind::Bottom || exprType(spec, item).kind == Type::Kind::Bottom)
    return Type::bottom();
  if (container.kind == Type::Kind::Dict) {
    if (dictKeyType(spec, container, item).kind == Type::Kind::Bottom)
      return Type::bottom();
    spec.dictContains.insert(&compare);
    return Type::boolean();
  }
  bool searchable = container.kind == Type::Kind::List ||
                    (container.kind == Type::Kind::Tuple && hasUniformScalars(container)) ||
                    (container.kind == Type::Kind::Array && container.ndim == 1);
  if (searchable && options.overloaded.count("builtins.in"))
    if (std::optional<Type> found =
            overloadCallType(spec, compare, "builtins.in", {&item, &sequence}))
      return *found;
  fail(CompileError::Kind::Unsupported, *spec.source, compare,
       "'in' of " + container.str() +
           " is not supported (lists, dicts, tuples of one scalar type and 1-D arrays are)");
}

Type Typer::listSubscriptType(Specialization &spec, const SExpr &subscript, const Type &list) {
  const FunctionSource &fn = *spec.source;
  const SExpr &index = ast::slice(subscript);
  if (ast::is(index, ast::NodeKind::Slice)) {
    for (const SExpr *part : {&ast::lower(index), &ast::upper(index), &ast::step(index)}) {
      if (ast::isNone(*part))
        continue;
      Type t = exprType(spec, *part);
      if (t.kind == Type::Kind::Bottom)
        return t;
      if (!t.isIntegral())
        fail(CompileError::Kind::Typing, fn, *part,
             "slice indices must be integers or None or have an __index__ method");
    }
    return list; // a new list
  }
  Type position = exprType(spec, index);
  if (position.kind == Type::Kind::Bottom)
    return position;
  if (!position.isIntegral())
    fail(CompileError::Kind::Typing, fn, index,
         "list indices must be integers or slices, not " + position.str());
  if (list.itemType().kind == Type::Kind::Bottom)
    spec.untypedReads.insert(&subscript);
  return list.itemType();
}

void Typer::assignListItem(Specialization &spec, const SExpr &target, const Type &list,
                           const Type &value, const SExpr &origin) {
  const FunctionSource &fn = *spec.source;
  const SExpr &index = ast::slice(target);
  if (ast::is(index, ast::NodeKind::Slice))
    fail(CompileError::Kind::Unsupported, fn, target,
         "assigning to a slice of a list is not supported (assign its items)");
  Type position = exprType(spec, index);
  if (position.kind != Type::Kind::Bottom && !position.isIntegral())
    fail(CompileError::Kind::Typing, fn, index,
         "list indices must be integers or slices, not " + position.str());
  settleListItems(spec, ast::value(target), list, value, origin);
  spec.types[&target] = value.kind == Type::Kind::Bottom ? list.itemType() : value;
}

} // namespace plait::frontend
