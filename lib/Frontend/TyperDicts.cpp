//===- TyperDicts.cpp - the types of typed dicts --------------------------===//
//
// A dict in compiled code has keys of one type (a number, a bool, a real
// NumPy scalar or a tuple of them: hashable values compiled code can
// compare) and values of
// one type (what a list holds), as Numba's typed dicts do. `{}` has neither
// until the first `d[k] = v` (or a display's items) settles them, for the
// variable that holds it, as for lists (TyperLists.cpp).
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include "plait/Frontend/AST.h"

namespace plait::frontend {

namespace {

/// Whether a key of `given` finds keys of `keys` without being one: an int
/// or a bool finds the float equal to it, a bool the int (CPython: equal
/// numbers are one key), element by element in tuples.
bool findsAsKey(const Type &keys, const Type &given) {
  if (keys == given || (keys.isStr() && given.isStr()))
    return true;
  if (keys.kind == Type::Kind::Tuple && given.kind == Type::Kind::Tuple)
    return keys.elements.size() == given.elements.size() &&
           std::equal(keys.elements.begin(), keys.elements.end(), given.elements.begin(),
                      findsAsKey);
  return (keys.kind == Type::Kind::Float &&
          (given.kind == Type::Kind::Int || given.kind == Type::Kind::Bool)) ||
         (keys.kind == Type::Kind::Int && given.kind == Type::Kind::Bool);
}

bool isDictValue(const Type &t) {
  // What a list holds (as a list holds it: dictValueLayout).
  return isListItem(t) || (t.kind == Type::Kind::List && t.itemType().kind == Type::Kind::Bottom);
}

} // namespace

void Typer::settleDictTypes(Specialization &spec, const SExpr &node, const Type &dict,
                            const Type &key, const Type &value, const SExpr &origin) {
  const FunctionSource &fn = *spec.source;
  if (key.kind != Type::Kind::Bottom && !isDictKey(key))
    fail(CompileError::Kind::Unsupported, fn, origin,
         "dicts with keys of " + key.str() +
             " are not supported (compiled dicts take numbers, bools, strs, real NumPy scalars "
             "and tuples of them as keys)");
  if (value.kind != Type::Kind::Bottom && !isDictValue(value))
    fail(CompileError::Kind::Unsupported, fn, origin,
         "dicts of " + value.str() +
             " values are not supported (compiled dicts hold numbers, bools, NumPy scalars, "
             "arrays, lists and tuples of these)");
  Type settled = dict;
  auto settle = [&](size_t part, const Type &typed, const char *what) {
    const Type &current = dict.elements[part];
    // (Arrays of any strides; strs known when compiling as run-time ones.)
    Type given = listItemOf(typed);
    if (given.kind == Type::Kind::Bottom || current == given)
      return;
    // `[]` meets a list value (d[k] = [] into a dict of lists, or the
    // reverse), as lists do.
    Type met;
    if (current.kind == Type::Kind::List && given.kind == Type::Kind::List &&
        unify(current, given, met)) {
      settled.elements[part] = met;
      return;
    }
    if (current.kind != Type::Kind::Bottom)
      fail(CompileError::Kind::Typing, fn, origin,
           std::string("cannot use ") + (given.str().find_first_of("aeiou") == 0 ? "an " : "a ") +
               given.str() + " as a " + what + " of a " + dict.str() + ": a compiled dict has " +
               what + "s of one type (convert it first)");
    settled.elements[part] = given;
  };
  settle(0, key, "key");
  settle(1, value, "value");
  if (settled == dict || ast::is(node, ast::NodeKind::Dict))
    return;
  if (!ast::is(node, ast::NodeKind::Name))
    fail(CompileError::Kind::Unsupported, fn, origin,
         "the keys and values of this dict have no type yet (an empty dict): put the first "
         "item into it through a variable that holds it");
  widenVariable(spec, ast::id(node), settled, origin);
}

Type Typer::dictDisplayType(Specialization &spec, const SExpr &display) {
  Type dict = Type::dict(Type::bottom(), Type::bottom());
  std::vector<const SExpr *> keys = ast::dictKeys(display), values = ast::dictValues(display);
  for (size_t k = 0; k < keys.size(); ++k) {
    Type key = exprType(spec, *keys[k]), value = exprType(spec, *values[k]);
    if (key.kind == Type::Kind::Bottom || value.kind == Type::Kind::Bottom)
      return Type::bottom(); // typed in a later round
    settleDictTypes(spec, display, dict, key, value, *keys[k]);
    // (What the items so far and this one meet as: {0: [x], 1: []}.)
    Type met, next = Type::dict(listItemOf(key), listItemOf(value));
    dict = unify(dict, next, met) ? met : next;
  }
  return dict;
}

Type Typer::dictKeyType(Specialization &spec, const Type &dict, const SExpr &key, bool storing) {
  Type given = exprType(spec, key);
  const Type &keys = dict.keyType();
  if (given.kind == Type::Kind::Bottom || keys.kind == Type::Kind::Bottom || given == keys)
    return given;
  // Stored, a key that only finds an equal one would be a key of its own
  // type (CPython keeps an int an int): refused, but a bool into ints.
  bool widens = findsAsKey(keys, given) &&
                (!storing || (keys.kind == Type::Kind::Int && given.kind == Type::Kind::Bool) ||
                 listItemOf(given) == keys);
  if (!widens)
    fail(CompileError::Kind::Typing, *spec.source, key,
         "a key of " + given.str() + " cannot be " + (storing ? "put into" : "looked up in") +
             " a " + dict.str() + " (a compiled dict's keys have one type)");
  return given;
}

Type Typer::dictMethodType(Specialization &spec, const SExpr &call, const Type &dict) {
  const FunctionSource &fn = *spec.source;
  const SExpr &callee = ast::func(call);
  const SExpr &base = ast::value(callee);
  const std::string &method = ast::attr(callee);
  std::vector<const SExpr *> args = ast::args(call).rest();
  bool hasKeywords = ast::keywords(call).items.size() > 1;
  static const std::set<std::string> methods = {"get",  "setdefault", "pop",    "update", "clear",
                                                "copy", "keys",       "values", "items"};
  if (!methods.count(method))
    fail(CompileError::Kind::Typing, fn, callee, "'dict' object has no attribute '" + method + "'");
  if (method == "keys" || method == "values" || method == "items")
    fail(CompileError::Kind::Unsupported, fn, call,
         "dict." + method +
             "() is supported as the iterable of a for loop (or of a "
             "comprehension, or list())");
  if (method == "get") {
    if (hasKeywords || args.empty() || args.size() > 2)
      fail(CompileError::Kind::Typing, fn, call, "dict.get() takes a key and a default");
    if (args.size() == 1)
      fail(CompileError::Kind::Unsupported, fn, call,
           "dict.get() without a default (None when the key is missing) is not supported: "
           "give a default of the values' type");
    Type key = dictKeyType(spec, dict, *args[0]);
    Type fallback = exprType(spec, *args[1]);
    if (key.kind == Type::Kind::Bottom || fallback.kind == Type::Kind::Bottom)
      return Type::bottom();
    const Type &values = dict.valueType();
    if (values.kind != Type::Kind::Bottom && listItemOf(fallback) == values) {
      spec.dictMethods[&call] = method;
      return values; // (an array of any strides, as the dict's)
    }
    if (values.kind != Type::Kind::Bottom && fallback != values)
      fail(CompileError::Kind::Typing, fn, *args[1],
           "the default of get() is " + fallback.str() + ", not the values' type " + values.str() +
               " (compiled code gives one type)");
    spec.dictMethods[&call] = method;
    return fallback;
  }
  // What setdefault and update put in settles an empty dict's types first.
  if (method == "setdefault" && args.size() == 2) {
    if (dict.keyType().kind != Type::Kind::Bottom)
      dictKeyType(spec, dict, *args[0], /*storing=*/true);
    settleDictTypes(spec, base, dict, exprType(spec, *args[0]), exprType(spec, *args[1]), call);
  }
  if (method == "update" && args.size() == 1) {
    Type other = exprType(spec, *args[0]);
    if (other.kind == Type::Kind::Dict)
      settleDictTypes(spec, base, dict, other.keyType(), other.valueType(), call);
  }
  if (std::optional<Type> resolved = methodOverloadType(spec, call, "dict"))
    return *resolved;
  fail(CompileError::Kind::Unsupported, fn, callee,
       "dict." + method + "() of " + dict.str() + " with these arguments is not supported");
}

void Typer::assignDictItem(Specialization &spec, const SExpr &target, const Type &dict,
                           const Type &value, const SExpr &origin) {
  const SExpr &key = ast::slice(target);
  Type keyType = exprType(spec, key);
  if (dict.keyType().kind != Type::Kind::Bottom)
    keyType = dictKeyType(spec, dict, key, /*storing=*/true);
  else
    settleDictTypes(spec, ast::value(target), dict, keyType, Type::bottom(), origin);
  settleDictTypes(spec, ast::value(target), dict, Type::bottom(), value, origin);
  spec.types[&target] = value.kind == Type::Kind::Bottom ? dict.valueType() : value;
}

void Typer::typeDelete(Specialization &spec, const SExpr &stmt) {
  const FunctionSource &fn = *spec.source;
  for (const SExpr *target : ast::targets(stmt).rest()) {
    if (!ast::is(*target, ast::NodeKind::Subscript))
      fail(CompileError::Kind::Unsupported, fn, *target,
           "del of " + target->head() + " is not supported (del d[k] and del l[i] are)");
    Type base = exprType(spec, ast::value(*target));
    if (base.kind == Type::Kind::Bottom)
      continue;
    if (base.kind == Type::Kind::Dict) {
      dictKeyType(spec, base, ast::slice(*target));
      continue;
    }
    if (base.kind == Type::Kind::List && !ast::is(ast::slice(*target), ast::NodeKind::Slice) &&
        options.overloaded.count("list.__delitem__")) {
      if (std::optional<Type> done = overloadCallType(spec, *target, "list.__delitem__",
                                                      {&ast::value(*target), &ast::slice(*target)}))
        continue;
    }
    fail(CompileError::Kind::Unsupported, fn, *target,
         "del of an item of " + base.str() + " is not supported (del d[k] and del l[i] are)");
  }
}

} // namespace plait::frontend
