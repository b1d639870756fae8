//===- TyperCalls.cpp - typing calls ----------------------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace plait::frontend {

std::optional<Type> Typer::methodOverloadType(Specialization &spec, const SExpr &call,
                                              const std::string &family) {
  const SExpr &callee = ast::func(call);
  std::string target = family + "." + ast::attr(callee);
  if (!options.overloaded.count(target))
    return std::nullopt;
  std::vector<const SExpr *> positional = {&ast::value(callee)};
  for (const SExpr *arg : ast::args(call).rest())
    positional.push_back(arg);
  return overloadCallType(spec, call, target, positional);
}

std::vector<const SExpr *> Typer::callArguments(Specialization &caller,
                                                const SExpr &call,
                                                const FunctionSource &callee) {
  return callArguments(caller, call, ast::args(call).rest(), callee);
}

std::vector<const SExpr *> Typer::callArguments(Specialization &caller, const SExpr &call,
                                                const std::vector<const SExpr *> &positional,
                                                const FunctionSource &callee) {
  // Named parameters; a *args parameter (the last) takes the rest.
  size_t n = callee.params.size() - (callee.varargs ? 1 : 0);
  std::vector<const SExpr *> args(n, nullptr);
  if (positional.size() > n && !callee.varargs)
    fail(CompileError::Kind::Typing, *caller.source, call,
         callee.name + "() takes " + std::to_string(n) +
             " positional arguments but " + std::to_string(positional.size()) +
             " were given");
  for (size_t i = 0; i < positional.size(); ++i) {
    if (ast::is(*positional[i], ast::NodeKind::Starred))
      fail(CompileError::Kind::Unsupported, *caller.source, *positional[i],
           "*args in calls is not supported");
    if (i < n)
      args[i] = positional[i];
  }
  std::vector<const SExpr *> keywords;
  if (ast::is(call, ast::NodeKind::Call)) // (or a subscript standing for one)
    keywords = ast::keywords(call).rest();
  for (const SExpr *keyword : keywords) {
    const std::string &name = keyword->items.at(1).text;
    size_t index = 0;
    while (index < n && callee.params[index] != name)
      ++index;
    if (index == n)
      fail(CompileError::Kind::Typing, *caller.source, call,
           callee.name + "() got an unexpected keyword argument '" + name + "'");
    if (args[index])
      fail(CompileError::Kind::Typing, *caller.source, call,
           callee.name + "() got multiple values for argument '" + name + "'");
    args[index] = &keyword->items.at(2);
  }
  size_t firstDefault = n - callee.defaults.size();
  for (size_t i = 0; i < n; ++i) {
    if (args[i])
      continue;
    if (i < firstDefault)
      fail(CompileError::Kind::Typing, *caller.source, call,
           callee.name + "() missing required argument: '" + callee.params[i] +
               "'");
    args[i] = &callee.defaults[i - firstDefault];
  }
  if (callee.varargs)
    args.push_back(&varargsTuple(call, callee, positional));
  return args;
}

const SExpr &Typer::varargsTuple(const SExpr &call, const FunctionSource &callee,
                                 const std::vector<const SExpr *> &positional) {
  // Made once per call and callee: typing runs to a fixed point, and the
  // emitter emits the node the typer typed.
  auto key = std::make_pair(&call, callee.id);
  auto found = varargsTuples.find(key);
  if (found != varargsTuples.end())
    return *found->second;
  SExpr tuple = madeNode("Tuple", call);
  size_t named = callee.params.size() - 1;
  for (size_t i = named; i < positional.size(); ++i)
    tuple.items.push_back(*positional[i]);
  synthesizedNodes.push_back(std::move(tuple));
  return *varargsTuples.emplace(key, &synthesizedNodes.back()).first->second;
}

Type Typer::jitCallType(Specialization &spec, const SExpr &call, int functionId,
                        const std::vector<const SExpr *> &actual) {
  spec.callsJit = true;
  const FunctionSource &target = functionSource(functionId);
  std::vector<Type> types;
  for (const SExpr *arg : actual) {
    // Defaults are constants of the callee, typed without an environment.
    bool isDefault = false;
    for (const SExpr &d : target.defaults)
      isDefault |= &d == arg;
    Type t = isDefault ? constantType(*arg) : exprType(spec, *arg);
    if (isDefault && t.kind == Type::Kind::Bottom)
      fail(CompileError::Kind::Unsupported, *spec.source, call,
           target.name + "() is called with a default value that is not a constant compiled "
                         "code can hold (numbers, strings, None and tuples of them): pass "
                         "that argument");
    if (t.kind == Type::Kind::Bottom)
      return Type::bottom();
    if (t.kind == Type::Kind::Bool)
      t = Type::boolean();
    types.push_back(t);
  }
  Specialization &callee = specialize(functionId, types, &call, &spec);
  spec.jitCalls[&call] = {&callee, actual};
  // An empty list or dict the callee puts items into (helper(l) after l = []):
  // the caller's variable takes their type, so that it is compiled again
  // for a list of them.
  for (size_t i = 0; i < actual.size() && i < target.params.size(); ++i) {
    auto param = callee.variables.find(target.params[i]);
    bool container = types[i].kind == Type::Kind::List || types[i].kind == Type::Kind::Dict;
    if (container && param != callee.variables.end() && param->second.kind == types[i].kind &&
        param->second != types[i] && ast::is(*actual[i], ast::NodeKind::Name))
      widenVariable(spec, ast::id(*actual[i]), param->second, *actual[i]);
  }
  // A callee that may fall off its end returns None there (a conflict
  // with its other returns is reported once typing is done).
  Type result = callee.result;
  if (!alwaysReturns(ast::body(callee.source->definition), &callee))
    unify(callee.result, Type::none(), result);
  for (size_t i = 0; i < actual.size(); ++i)
    if (types[i].containsArray()) // arrays, and tuples and closures holding them
      for (const std::string &root : aliasRoots(spec, *actual[i]))
        spec.arraysPassed.emplace(root, &callee, i);
  return result;
}

void Typer::markSequenceLiterals(Specialization &spec, const SExpr &call) {
  // A list display passed to a call (but a jitted function's, which could
  // mutate it, and print's) is a sequence of fixed length, as a tuple is.
  // (print() shows a list as the list it is.)
  const SExpr &callee = ast::func(call);
  if (ast::is(callee, ast::NodeKind::Name)) {
    NameBinding binding = resolve(spec, ast::id(callee));
    if (binding.kind == NameBinding::Kind::Jit ||
        (binding.kind == NameBinding::Kind::Builtin && binding.name == "print"))
      return;
  }
  const SExpr *receiverNode =
      ast::is(callee, ast::NodeKind::Attribute) ? &ast::value(callee) : nullptr;
  if (receiverNode && (ast::is(*receiverNode, ast::NodeKind::Subscript) ||
                       (ast::is(*receiverNode, ast::NodeKind::Call) &&
                        ast::is(ast::func(*receiverNode), ast::NodeKind::Attribute)) ||
                       (ast::is(*receiverNode, ast::NodeKind::Name) &&
                        resolve(spec, ast::id(*receiverNode)).kind == NameBinding::Kind::Local))) {
    // A list's or a dict's method puts lists in as lists (rows.append([i, j])).
    Type::Kind receiver = exprType(spec, *receiverNode).kind;
    if (receiver == Type::Kind::List || receiver == Type::Kind::Dict ||
        receiver == Type::Kind::Bottom) // (typed in a later round)
      return;
  }
  std::function<void(const SExpr &)> mark = [&](const SExpr &node) {
    if (!ast::is(node, ast::NodeKind::List) && !ast::is(node, ast::NodeKind::Tuple))
      return;
    if (ast::is(node, ast::NodeKind::List))
      spec.sequenceLiterals.insert(&node);
    for (const SExpr *element : ast::elts(node))
      mark(*element);
  };
  for (const SExpr *arg : ast::args(call).rest())
    mark(*arg);
  for (const SExpr *keyword : ast::keywords(call).rest())
    mark(keyword->items.at(2));
}

const SExpr *Typer::unpackedCall(Specialization &spec, const SExpr &call) {
  std::vector<const SExpr *> args = ast::args(call).rest();
  // Read once per element: only what reading twice cannot tell apart.
  std::function<bool(const SExpr &)> plain = [&](const SExpr &node) {
    switch (ast::kindOf(node)) {
    case ast::NodeKind::Name:
    case ast::NodeKind::Const:
      return true;
    case ast::NodeKind::Attribute:
      return plain(ast::value(node));
    case ast::NodeKind::Subscript:
      return plain(ast::value(node)) && plain(ast::slice(node));
    case ast::NodeKind::Slice:
      for (const SExpr *part : {&ast::lower(node), &ast::upper(node), &ast::step(node)})
        if (!ast::isNone(*part) && !plain(*part))
          return false;
      return true;
    default:
      return false;
    }
  };
  // The tuples' lengths: the made call is this call's for those lengths
  // (another specialisation may pass tuples of other lengths).
  std::vector<size_t> lengths;
  std::string key;
  for (const SExpr *arg : args) {
    if (!ast::is(*arg, ast::NodeKind::Starred))
      continue;
    const SExpr &value = ast::value(*arg);
    if (!plain(value))
      fail(CompileError::Kind::Unsupported, *spec.source, *arg,
           "f(*t) takes a variable, its attribute or a part of it (*a.shape, *t[1:]) in "
           "compiled code");
    Type t = exprType(spec, value);
    if (t.kind == Type::Kind::Bottom)
      return nullptr; // (unpacked once it is typed)
    if (t.kind != Type::Kind::Tuple)
      fail(CompileError::Kind::Unsupported, *spec.source, *arg,
           "f(*t) unpacks tuples in compiled code, not " + t.str());
    lengths.push_back(t.elements.size());
    key += std::to_string(t.elements.size()) + ",";
  }
  auto made = unpackedCallNodes.find({&call, key});
  if (made != unpackedCallNodes.end())
    return made->second;
  SExpr unpacked = madeNode("Call", call);
  unpacked.items.push_back(ast::func(call));
  SExpr positional;
  positional.items.push_back(SExpr{SExpr::Kind::Symbol, "Args", 0, {}});
  size_t starred = 0;
  for (const SExpr *arg : args) {
    if (!ast::is(*arg, ast::NodeKind::Starred)) {
      positional.items.push_back(*arg);
      continue;
    }
    const SExpr &value = ast::value(*arg);
    for (size_t k = 0; k < lengths[starred]; ++k) {
      SExpr index = madeNode("Const", value);
      index.items.push_back(SExpr{SExpr::Kind::Integer, std::to_string(k), 0, {}});
      SExpr element = madeNode("Subscript", value);
      element.items.push_back(value);
      element.items.push_back(std::move(index));
      positional.items.push_back(std::move(element));
    }
    ++starred;
  }
  unpacked.items.push_back(std::move(positional));
  unpacked.items.push_back(ast::keywords(call));
  synthesizedNodes.push_back(std::move(unpacked));
  return unpackedCallNodes.emplace(std::make_pair(&call, key), &synthesizedNodes.back())
      .first->second;
}

Type Typer::callType(Specialization &spec, const SExpr &call) {
  const FunctionSource &fn = *spec.source;
  std::vector<const SExpr *> arguments = ast::args(call).rest();
  if (std::any_of(arguments.begin(), arguments.end(),
                  [](const SExpr *a) { return ast::is(*a, ast::NodeKind::Starred); })) {
    const SExpr *unpacked = unpackedCall(spec, call);
    if (!unpacked)
      return Type::bottom(); // (unpacked once its tuples are typed)
    spec.unpackedCalls[&call] = unpacked;
    return exprType(spec, *unpacked);
  }
  const SExpr &callee = ast::func(call);
  markSequenceLiterals(spec, call);
  // str(e), repr(e), print(e) of a caught exception: said as such.
  for (const SExpr *argument : ast::args(call).rest())
    if (ast::is(*argument, ast::NodeKind::Name) && spec.caughtNames.count(ast::id(*argument)))
      exprType(spec, *argument);
  bool calleeIsValue = ast::is(callee, ast::NodeKind::Name)
                           ? resolve(spec, ast::id(callee)).kind == NameBinding::Kind::Local
                           : !ast::is(callee, ast::NodeKind::Attribute);
  if (calleeIsValue) {
    // A lambda or inner def (held by a variable, or made by the callee
    // expression): its function, the closure passed first (its parameter
    // that holds the captured values).
    Type function = exprType(spec, callee);
    if (function.kind == Type::Kind::Bottom)
      return function;
    if (function.kind != Type::Kind::Function)
      fail(CompileError::Kind::Typing, fn, callee,
           "'" + function.str() + "' object is not callable");
    std::vector<const SExpr *> positional;
    if (function.takesClosure)
      positional.push_back(&callee);
    for (const SExpr *arg : ast::args(call).rest())
      positional.push_back(arg);
    return jitCallType(spec, call, function.function,
                       callArguments(spec, call, positional, functionSource(function.function)));
  }
  std::vector<const SExpr *> args = ast::args(call).rest();
  bool hasKeywords = ast::keywords(call).items.size() > 1;
  auto argType = [&](size_t i) { return exprType(spec, *args.at(i)); };
  auto needArgs = [&](const std::string &name, size_t low, size_t high) {
    if (hasKeywords)
      fail(CompileError::Kind::Unsupported, fn, call,
           name + "() with keyword arguments is not supported");
    if (args.size() < low || args.size() > high)
      fail(CompileError::Kind::Typing, fn, call,
           name + "() takes " +
               (low == high ? std::to_string(low)
                            : std::to_string(low) + " to " + std::to_string(high)) +
               " arguments but " + std::to_string(args.size()) + " were given");
  };
  auto needNumeric = [&](const std::string &name, const Type &t, size_t i) {
    if (t.kind != Type::Kind::Bottom && !t.isNumeric())
      fail(CompileError::Kind::Typing, fn, *args[i],
           name + "() does not accept " + t.str());
  };

  std::string overloaded = overloadTarget(spec, call);
  if (!overloaded.empty())
    if (std::optional<Type> resolved = overloadCallType(spec, call, overloaded, args))
      return *resolved;

  // math.<name>(...) and functions imported from math.
  std::string mathName;
  if (ast::is(callee, ast::NodeKind::Attribute) &&
      ast::is(ast::value(callee), ast::NodeKind::Name) &&
      resolve(spec, ast::id(ast::value(callee))).kind == NameBinding::Kind::Math)
    mathName = ast::attr(callee);
  NameBinding binding;
  if (ast::is(callee, ast::NodeKind::Name)) {
    binding = resolve(spec, ast::id(callee));
    if (binding.kind == NameBinding::Kind::MathFunction)
      mathName = binding.name;
  }
  if (!mathName.empty()) {
    const MathFunctionInfo *info = lookupMathFunction(mathName);
    if (!info)
      fail(CompileError::Kind::Unsupported, fn, callee,
           "math." + mathName + "() is not supported");
    size_t high = mathName == "log" ? 2 : info->arity;
    needArgs("math." + mathName, info->arity, high);
    bool anyBottom = false;
    for (size_t i = 0; i < args.size(); ++i) {
      Type t = argType(i);
      needNumeric("math." + mathName, t, i);
      anyBottom |= t.kind == Type::Kind::Bottom;
    }
    return Type{info->result, {}};
  }

  if (ast::is(callee, ast::NodeKind::Attribute)) {
    const SExpr &base = ast::value(callee);
    bool moduleBase = namesModule(spec, base);
    Type receiver = moduleBase ? Type::bottom() : exprType(spec, base);
    if (!moduleBase && receiver.kind == Type::Kind::Bottom)
      return receiver; // typed in a later round
    if (receiver.kind == Type::Kind::List)
      return listMethodType(spec, call, receiver);
    if (receiver.kind == Type::Kind::Dict)
      return dictMethodType(spec, call, receiver);
    if (receiver.isStr())
      return strMethodType(spec, call);
    if (receiver.kind == Type::Kind::Array)
      if (std::optional<Type> resolved = methodOverloadType(spec, call, "ndarray"))
        return *resolved;
    if (receiver.kind == Type::Kind::Array) {
      const std::string &method = ast::attr(callee);
      if (!nativeArrayMethods().count(method))
        fail(CompileError::Kind::Unsupported, fn, callee,
             "the array method '" + method + "' is not supported");
      if (method == "transpose" && !args.empty())
        fail(CompileError::Kind::Unsupported, fn, call, "transpose() with axes is not supported");
      spec.arrayMethods[&call] = method;
      if (method == "fill") { // a.fill(v) writes every element of a
        std::set<std::string> roots = aliasRoots(spec, base);
        spec.writes.insert(roots.begin(), roots.end());
      }
      return numpyCallType(spec, call, method);
    }
  }
  std::string numpyName = numpyFunction(spec, callee);
  if (!numpyName.empty())
    return numpyCallType(spec, call, numpyName);
  if (ast::is(callee, ast::NodeKind::Attribute) && ast::attr(callee) == "conjugate") {
    Type t = exprType(spec, ast::value(callee));
    if (t.kind == Type::Kind::Bottom || t.isComplex()) {
      needArgs("conjugate", 0, 0);
      return t;
    }
  }
  if (!ast::is(callee, ast::NodeKind::Name))
    fail(CompileError::Kind::Unsupported, fn, callee,
         "calling this expression is not supported");
  const std::string &name = ast::id(callee);
  switch (binding.kind) {
  case NameBinding::Kind::Jit:
    return jitCallType(spec, call, binding.functionId,
                       callArguments(spec, call, functionSource(binding.functionId)));
  case NameBinding::Kind::Overload:
    if (std::optional<Type> resolved = overloadCallType(spec, call, binding.name, args))
      return *resolved;
    fail(CompileError::Kind::Unsupported, fn, call, "no plait.overload implementation applies");
  case NameBinding::Kind::Intrinsic:
    return intrinsicCallType(spec, call, binding.name);
  case NameBinding::Kind::Builtin:
    break;
  case NameBinding::Kind::Rendezvous: {
    needArgs(name, 3, 3);
    for (size_t i = 0; i < 3; ++i)
      needNumeric(name, argType(i), i);
    spec.loops = true; // it blocks: always run detached under nogil="auto"
    return Type::boolean();
  }
  case NameBinding::Kind::Local:
    fail(CompileError::Kind::Unsupported, fn, callee,
         "calling the local variable '" + sourceName(name) + "' is not supported");
  case NameBinding::Kind::Undefined:
    fail(CompileError::Kind::Typing, fn, callee,
         "name '" + sourceName(name) + "' is not defined");
  default:
    fail(CompileError::Kind::Unsupported, fn, callee,
         "calling '" + name + "' (" + binding.name +
             ") is not supported: compiled code calls functions defined with def "
             "(whose source plait can read), math and numeric builtins");
  }

  if (name == "print")
    return printCallType(spec, call);
  if (name == "abs") {
    needArgs(name, 1, 1);
    Type t = argType(0);
    if (t.kind == Type::Kind::Array) // ndarray.__abs__ is np.abs
      return numpyCallType(spec, call, "abs");
    if (t.isComplex())
      return t.isNumPy() ? Type::numpy(complexPartDType(t.dtype)) : Type::floating();
    needNumeric(name, t, 0);
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (name == "min" || name == "max") {
    for (const SExpr *keyword : ast::keywords(call).rest())
      if (keyword->items.at(1).text != "key" || args.size() != 1)
        fail(CompileError::Kind::Unsupported, fn, call,
             name + "() with keyword arguments is not supported (but key= of one list or 1-D "
                    "array)");
    if (args.empty())
      fail(CompileError::Kind::Typing, fn, call,
           name + " expected at least 1 argument, got 0");
    {
      // Strs: compared as CPython compares them (plait.overload's).
      bool anyBottom = false, strs = true;
      for (size_t i = 0; i < args.size(); ++i) {
        Type t = argType(i);
        anyBottom |= t.kind == Type::Kind::Bottom;
        strs &= t.isStr() || t.kind == Type::Kind::Bottom ||
                (args.size() == 1 && t.kind == Type::Kind::Tuple && !t.elements.empty() &&
                 std::all_of(t.elements.begin(), t.elements.end(),
                             [](const Type &e) { return e.isStr(); }));
      }
      if (strs && !hasKeywords && (args.size() > 1 || argType(0).kind == Type::Kind::Tuple)) {
        if (anyBottom)
          return Type::bottom();
        std::string target = "str.__" + name + (args.size() == 1 ? "_of__" : "__");
        if (std::optional<Type> found = strImplementation(spec, call, target, args))
          return *found;
      }
    }
    std::vector<Type> types;
    if (args.size() == 1) {
      Type t = argType(0);
      if (t.kind == Type::Kind::Bottom)
        return t;
      std::string target = "builtins." + name + "_of";
      if ((t.kind == Type::Kind::List || (t.kind == Type::Kind::Array && t.ndim == 1)) &&
          options.overloaded.count(target))
        if (std::optional<Type> found = overloadCallType(spec, call, target, {args[0]}))
          return *found;
      if (hasKeywords)
        fail(CompileError::Kind::Unsupported, fn, call,
             name + "() with key= takes a list or a 1-D array, not " + t.str());
      if (t.kind != Type::Kind::Tuple || t.elements.empty())
        fail(CompileError::Kind::Typing, fn, *args[0],
             name + "() of one argument needs a non-empty tuple, a list or a 1-D array, not " +
                 t.str());
      types = t.elements;
    } else {
      for (size_t i = 0; i < args.size(); ++i)
        types.push_back(argType(i));
    }
    Type result;
    for (size_t i = 0; i < types.size(); ++i) {
      if (types[i].kind != Type::Kind::Bottom && !types[i].isNumeric())
        fail(CompileError::Kind::Typing, fn, call,
             name + "() of " + types[i].str() + " is not supported");
      Type next;
      unify(result, types[i], next);
      result = next;
    }
    return result;
  }
  if (name == "round") {
    needArgs(name, 1, 2);
    Type t = argType(0);
    needNumeric(name, t, 0);
    if (t.isNumPy() && t.dtype == DType::Bool)
      fail(CompileError::Kind::Typing, fn, call, "type numpy.bool doesn't define __round__ method");
    if (args.size() == 1 || argType(1).kind == Type::Kind::None)
      return Type::integer();
    Type ndigits = argType(1);
    if (ndigits.kind != Type::Kind::Bottom && !ndigits.isIntegral())
      fail(CompileError::Kind::Typing, fn, *args[1],
           "'" + ndigits.str() + "' object cannot be interpreted as an integer");
    // With ndigits the value keeps its type (bool rounds as int).
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (name == "str" || name == "repr")
    return strConversionType(spec, call, name);
  if ((name == "int" || name == "float") && !args.empty() &&
      (argType(0).isStr() || (name == "int" && args.size() == 2)))
    return strConversionType(spec, call, name); // (int(x, base) takes only strs)
  if (name == "int" || name == "float" || name == "bool") {
    needArgs(name, 0, 1);
    if (!args.empty() &&
        !(name == "bool" && (argType(0).isComplex() || argType(0).kind == Type::Kind::List ||
                             argType(0).kind == Type::Kind::Dict || argType(0).isStr())))
      needNumeric(name, argType(0), 0);
    return name == "int" ? Type::integer()
                         : name == "float" ? Type::floating() : Type::boolean();
  }
  if (name == "divmod") {
    needArgs(name, 2, 2);
    Type t = binaryType(spec, call, ast::Operator::FloorDiv, argType(0), argType(1));
    if (t.kind == Type::Kind::Bottom)
      return t;
    return Type::tuple({t, t});
  }
  if (name == "pow") {
    needArgs(name, 2, 3);
    if (args.size() == 3) {
      for (size_t i = 0; i < 3; ++i) {
        Type t = argType(i);
        if (t.kind == Type::Kind::Float || t.isNumPy() ||
            !(t.isNumeric() || t.kind == Type::Kind::Bottom))
          fail(CompileError::Kind::Typing, fn, *args[i],
               "pow() 3rd argument not allowed unless all arguments are "
               "integers");
      }
      return Type::integer();
    }
    return binaryType(spec, call, ast::Operator::Pow, argType(0), argType(1));
  }
  if (name == "complex") {
    needArgs(name, 0, 2);
    for (size_t i = 0; i < args.size(); ++i) {
      Type t = argType(i);
      if (t.kind != Type::Kind::Bottom && !t.isNumeric() && !(args.size() == 1 && t.isComplex()))
        fail(CompileError::Kind::Typing, fn, *args[i],
             "complex() of " + t.str() + " is not supported (real numbers, or one complex)");
    }
    return Type::complex();
  }
  if (name == "len") {
    needArgs(name, 1, 1);
    Type t = argType(0);
    if (t.kind != Type::Kind::Bottom && t.kind != Type::Kind::Tuple &&
        t.kind != Type::Kind::Array && !t.isStr() && t.kind != Type::Kind::List &&
        t.kind != Type::Kind::Dict)
      fail(CompileError::Kind::Typing, fn, *args[0],
           "object of type '" + t.str() + "' has no len()");
    return Type::integer();
  }
  // range() outside a for loop.
  fail(CompileError::Kind::Unsupported, fn, call,
       name + "() is supported only as the iterable of a for loop");
}

} // namespace plait::frontend
