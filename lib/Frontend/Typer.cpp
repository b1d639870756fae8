//===- Typer.cpp - type inference for snapshots ---------------------------===//
//
// One static type per variable, widened flow-insensitively (bool < int <
// float; None and tuples only unify with themselves) until nothing changes.
// Calls to jitted functions specialise the callee for the argument types; a
// callee still being typed (recursion) contributes Bottom until the fixed
// point is reached.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace plait::frontend {

//===----------------------------------------------------------------------===//
// Typer
//===----------------------------------------------------------------------===//

Typer::Typer(const Program &program, const CompileOptions &options,
             uint64_t uniqueId)
    : program(program), options(options), uniqueId(uniqueId) {}

std::string Typer::where(const FunctionSource &fn, SourceLocation loc) const {
  return fn.filename + ":" + std::to_string(loc.line) + ":" +
         std::to_string(loc.column + 1);
}

void Typer::failAt(CompileError::Kind kind, const FunctionSource &fn,
                   SourceLocation loc, const std::string &message) const {
  std::string text = where(fn, loc) + ": " + message;
  auto line = fn.lines.find(loc.line);
  if (line != fn.lines.end()) {
    text += "\n    " + line->second + "\n    " + std::string(loc.column, ' ');
    int end = loc.endLine == loc.line ? loc.endColumn
                                      : static_cast<int>(line->second.size());
    text += std::string(std::max(1, end - loc.column), '^');
  }
  throw CompileError(kind, text);
}

void Typer::fail(CompileError::Kind kind, const FunctionSource &fn,
                 const SExpr &node, const std::string &message) const {
  failAt(kind, fn, node.location(), message);
}

namespace {
/// `a` and `b` as one type where one is not known yet (Bottom) or both are
/// the same: the items of lists and the keys and values of dicts.
/// Types that meet only where one is not known yet: Bottom, or a list of
/// items not typed yet (at any depth: `[]` as a dict's value).
bool unifyUnknown(const Type &a, const Type &b, Type &result) {
  if (a == b || b.kind == Type::Kind::Bottom) {
    result = a;
    return true;
  }
  if (a.kind == Type::Kind::Bottom) {
    result = b;
    return true;
  }
  Type item;
  if (a.kind != Type::Kind::List || b.kind != Type::Kind::List ||
      !unifyUnknown(a.itemType(), b.itemType(), item))
    return false;
  result = Type::list(item);
  return true;
}
} // namespace

bool Typer::unify(const Type &a, const Type &b, Type &result) {
  if (a.kind == Type::Kind::Bottom) {
    result = b;
    return true;
  }
  if (b.kind == Type::Kind::Bottom || a == b) {
    result = a;
    return true;
  }
  if (a.kind == Type::Kind::Array && b.kind == Type::Kind::Array && a.dtype == b.dtype &&
      a.ndim == b.ndim) {
    // Different layouts: the layout both have, else any strides.
    result = Type::array(a.dtype, a.ndim, a.contiguous && b.contiguous, a.fortran && b.fortran);
    return true;
  }
  if (a.isNumber() && b.isNumber() && (a.isNumPy() || b.isNumPy())) {
    // A variable that holds a Python number and a NumPy scalar takes the
    // type NumPy computes their mix in (s = 0.0; s += a[i]: the type of a).
    result = numpyCommonType(a, b);
    return true;
  }
  if (a.isComplex() || b.isComplex()) {
    if (!a.isNumber() || !b.isNumber())
      return false;
    result = Type::complex();
    return true;
  }
  if (a.isNumeric() && b.isNumeric()) {
    result = Type{std::max(a.kind, b.kind), {}};
    return true;
  }
  if (a.isStr() && b.isStr()) {
    // Two strs known when compiling, or one computed when the code runs: a
    // str of the run time (`s = "a" if c else "b"`, `s += "x"` in a loop).
    result = Type::runtimeStr();
    return true;
  }
  if (a.kind == Type::Kind::List && b.kind == Type::Kind::List) {
    // Only `[]` (items not typed yet) meets another list, also as an item
    // (`[[] for ...]`): items keep their type in CPython, so list[int] and
    // list[float] do not mix.
    return unifyUnknown(a, b, result);
  }
  if (a.kind == Type::Kind::Dict && b.kind == Type::Kind::Dict) {
    // As lists: `{}` (nothing typed) meets another dict.
    Type key, value;
    if (!unifyUnknown(a.keyType(), b.keyType(), key) ||
        !unifyUnknown(a.valueType(), b.valueType(), value))
      return false;
    result = Type::dict(key, value);
    return true;
  }
  if (a.kind == Type::Kind::Tuple && b.kind == Type::Kind::Tuple &&
      a.elements.size() == b.elements.size()) {
    std::vector<Type> elements(a.elements.size());
    for (size_t i = 0; i < elements.size(); ++i)
      if (!unify(a.elements[i], b.elements[i], elements[i]))
        return false;
    result = Type::tuple(std::move(elements));
    return true;
  }
  return false;
}

Type Typer::constantType(const SExpr &value) {
  switch (value.kind) {
  case SExpr::Kind::Integer:
    return Type::integer();
  case SExpr::Kind::Float:
    return Type::floating();
  case SExpr::Kind::True:
  case SExpr::Kind::False:
    return Type::boolean();
  case SExpr::Kind::None:
    return Type::none();
  case SExpr::Kind::String: // a default of a plait.overload implementation
    return Type::stringConstant(value.text);
  case SExpr::Kind::List:
    if (value.head() == "Complex")
      return Type::complex();
    if (value.head() == "DType") { // a dtype default (dtype=float)
      DType dtype;
      if (value.items.size() == 2 && dtypeFromName(value.items[1].text, dtype))
        return Type::dtypeValue(dtype);
      break;
    }
    if (ast::is(value, ast::NodeKind::Tuple)) {
      std::vector<Type> elements;
      for (const SExpr *e : value.rest())
        elements.push_back(constantType(*e));
      return Type::tuple(std::move(elements));
    }
    break;
  default:
    break;
  }
  return Type::bottom();
}

void Typer::collectLocals(const SExpr &node, std::set<std::string> &out) const {
  ast::NodeKind kind = ast::kindOf(node);
  auto addTargets = [&](const SExpr &target, auto &self) -> void {
    if (ast::is(target, ast::NodeKind::Name))
      out.insert(ast::id(target));
    else if (ast::is(target, ast::NodeKind::Tuple))
      for (const SExpr *element : ast::elts(target))
        self(*element, self);
  };
  if (kind == ast::NodeKind::Assign) {
    for (const SExpr *t : ast::targets(node).rest())
      addTargets(*t, addTargets);
  } else if (kind == ast::NodeKind::AugAssign || kind == ast::NodeKind::For ||
             kind == ast::NodeKind::AnnAssign) {
    addTargets(ast::target(node), addTargets);
  }
  for (const SExpr &item : node.items)
    if (item.isList())
      collectLocals(item, out);
}

NameBinding Typer::resolve(const Specialization &spec,
                           const std::string &name) const {
  NameBinding binding;
  binding.name = name;
  if (spec.locals.count(name)) {
    binding.kind = NameBinding::Kind::Local;
    return binding;
  }
  auto it = spec.source->globals.find(name);
  if (it == spec.source->globals.end())
    return binding; // Undefined
  const SExpr &value = it->second;
  const std::string &head = value.head();
  if (!value.isList() || head == "Tuple") {
    binding.kind = NameBinding::Kind::Constant;
    binding.value = &value;
  } else if (head == "Jit") {
    binding.kind = NameBinding::Kind::Jit;
    binding.functionId = std::stoi(value.items.at(1).text);
  } else if (head == "Module" && value.items.at(1).text == "math") {
    binding.kind = NameBinding::Kind::Math;
  } else if (head == "MathFunction") {
    binding.kind = NameBinding::Kind::MathFunction;
    binding.name = value.items.at(1).text;
  } else if (head == "Rendezvous") {
    binding.kind = NameBinding::Kind::Rendezvous;
  } else if (head == "Module" && value.items.at(1).text == "numpy") {
    binding.kind = NameBinding::Kind::NumPy;
  } else if (head == "Module" && value.items.at(1).text == "numpy_linalg") {
    binding.kind = NameBinding::Kind::NumPyLinalg;
  } else if (head == "NumPyFunction") {
    binding.kind = NameBinding::Kind::NumPyFunction;
    binding.name = value.items.at(1).text;
  } else if (head == "Overload") {
    binding.kind = NameBinding::Kind::Overload;
    binding.name = value.items.at(1).text;
  } else if (head == "Intrinsic") {
    binding.kind = NameBinding::Kind::Intrinsic;
    binding.name = value.items.at(1).text;
  } else if (head == "ExceptionClass") {
    binding.kind = NameBinding::Kind::ExceptionClass;
    binding.name = value.items.at(1).text;
  } else if (head == "DType") {
    binding.kind = NameBinding::Kind::DTypeValue;
    binding.name = value.items.at(1).text;
  } else if (head == "Builtin" && isSupportedBuiltin(value.items.at(1).text)) {
    binding.kind = NameBinding::Kind::Builtin;
    binding.name = value.items.at(1).text;
  } else {
    binding.kind = NameBinding::Kind::Unsupported;
    binding.name = value.items.size() > 1 ? value.items[1].text : head;
  }
  return binding;
}

Specialization &Typer::specialize(int functionId,
                                  const std::vector<Type> &arguments,
                                  const SExpr *callSite,
                                  const Specialization *caller) {
  for (Specialization &spec : specs)
    if (spec.source->id == functionId && spec.arguments == arguments)
      return spec;
  Specialization spec;
  spec.source = &functionSource(functionId);
  spec.arguments = arguments;
  spec.index = static_cast<int>(specs.size());
  spec.symbol = "plait_" + std::to_string(uniqueId) + "_" + spec.source->name + "_" +
                std::to_string(spec.index);
  if (arguments.size() != spec.source->params.size()) {
    std::string message = spec.source->name + "() takes " +
                          std::to_string(spec.source->params.size()) + " arguments but " +
                          std::to_string(arguments.size()) + " were given";
    if (callSite && caller)
      fail(CompileError::Kind::Typing, *caller->source, *callSite, message);
    throw CompileError(CompileError::Kind::Typing, message);
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    spec.variables[spec.source->params[i]] = arguments[i];
    spec.variableOrigins[spec.source->params[i]] = spec.source->definition.location();
    spec.locals.insert(spec.source->params[i]);
  }
  collectLocals(spec.source->definition, spec.locals);
  std::function<void(const SExpr &)> findCaught = [&](const SExpr &node) {
    if (ast::is(node, ast::NodeKind::ExceptHandler) && !ast::isNone(ast::handlerName(node)))
      spec.caughtNames.insert(ast::handlerName(node).text);
    for (const SExpr &item : node.items)
      if (item.isList())
        findCaught(item);
  };
  findCaught(spec.source->definition);
  {
    // Count every binding of each name; keep those bound once, at top level.
    std::map<std::string, int> bindings;
    std::function<void(const SExpr &)> countTargets = [&](const SExpr &target) {
      if (ast::is(target, ast::NodeKind::Name))
        ++bindings[ast::id(target)];
      else if (ast::is(target, ast::NodeKind::Tuple))
        for (const SExpr *element : ast::elts(target))
          countTargets(*element);
    };
    std::function<void(const SExpr &)> walk = [&](const SExpr &node) {
      ast::NodeKind kind = ast::kindOf(node);
      // (a += b does not re-bind an array: it works in place.)
      if (kind == ast::NodeKind::Assign)
        for (const SExpr *t : ast::targets(node).rest())
          countTargets(*t);
      else if (kind == ast::NodeKind::For || kind == ast::NodeKind::AnnAssign)
        countTargets(ast::target(node));
      for (const SExpr &item : node.items)
        if (item.isList())
          walk(item);
    };
    walk(spec.source->definition);
    std::function<void(const SExpr &)> findLoops = [&](const SExpr &node) {
      if (ast::is(node, ast::NodeKind::For) && ast::is(ast::target(node), ast::NodeKind::Name)) {
        const std::string &name = ast::id(ast::target(node));
        bool isParam = std::find(spec.source->params.begin(), spec.source->params.end(),
                                 name) != spec.source->params.end();
        if (bindings[name] == 1 && !isParam)
          spec.loopTargets.insert(name);
      }
      for (const SExpr &item : node.items)
        if (item.isList())
          findLoops(item);
    };
    findLoops(spec.source->definition);
    for (const SExpr *stmt : ast::body(spec.source->definition).rest())
      if (ast::is(*stmt, ast::NodeKind::Assign) && ast::targets(*stmt).items.size() == 2 &&
          ast::is(ast::targets(*stmt).items[1], ast::NodeKind::Name)) {
        const std::string &name = ast::id(ast::targets(*stmt).items[1]);
        bool isParam = std::find(spec.source->params.begin(), spec.source->params.end(),
                                 name) != spec.source->params.end();
        if (bindings[name] == 1 && !isParam)
          spec.singleAssignment.insert(name);
      }
  }
  specs.push_back(std::move(spec));
  changed = true;
  return specs.back();
}

Specialization &Typer::run(int functionId, const std::vector<Type> &arguments) {
  Specialization &entry = specialize(functionId, arguments, nullptr, nullptr);
  for (int round = 0; round < 64; ++round) {
    changed = false;
    for (size_t i = 0; i < specs.size(); ++i) // specs may grow meanwhile
      typeBody(specs[i], ast::body(specs[i].source->definition));
    if (!changed)
      break;
  }
  // (Before the checks of results: such a read makes a result unknown.)
  for (Specialization *spec : reachable(entry))
    for (const SExpr *read : spec->untypedReads)
      if (spec->typeOf(*read).kind == Type::Kind::Bottom)
        fail(CompileError::Kind::Typing, *spec->source, *read,
             "this reads an item of a list or dict that nothing is ever put into (it is always "
             "empty): compiled code has no type for it");
  for (Specialization &spec : specs) {
    if (!alwaysReturns(ast::body(spec.source->definition), &spec)) {
      Type unified;
      if (!unify(spec.result, Type::none(), unified))
        failAt(CompileError::Kind::Typing, *spec.source, spec.resultOrigin,
               spec.source->name + "() returns " + spec.result.str() +
                   " here but may also end without a return (None)");
      spec.result = unified;
    }
    if (spec.result.kind == Type::Kind::Bottom) {
      // Nothing ever returns: every path raises, or returns what a call
      // that never returns gives (runaway recursion: it compiles, and
      // raises RecursionError as CPython does). A return that computes
      // with that value (f(n + 1) + 1) has nothing to compute with.
      // (Only returns typing reached: not those of branches never taken.)
      auto computesWithIt = [&spec](const SExpr &ret) {
        const SExpr &value = ast::value(ret);
        return value.kind != SExpr::Kind::None && !ast::is(value, ast::NodeKind::Call) &&
               spec.types.count(&value);
      };
      if (const SExpr *returned = findReturn(ast::body(spec.source->definition), computesWithIt))
        fail(CompileError::Kind::Typing, *spec.source, *returned,
             spec.source->name +
                 "() never returns a value: each of its returns needs the value of a call that "
                 "never returns (recursion without a base case; CPython raises RecursionError "
                 "when it runs it)");
      spec.result = Type::none(); // it only raises
    }
  }
  std::function<bool(const Type &)> holdsConstant = [&](const Type &t) {
    return t.kind == Type::Kind::DType || t.kind == Type::Kind::Function ||
           std::any_of(t.elements.begin(), t.elements.end(), holdsConstant);
  };
  if (holdsConstant(entry.result))
    failAt(CompileError::Kind::Unsupported, *entry.source, entry.resultOrigin,
           entry.source->name +
               "() returns a dtype or a function, which compiled code cannot return to Python "
               "(return an array or number made with it)");
  return entry;
}

std::vector<Specialization *> Typer::reachable(Specialization &entry) {
  std::vector<Specialization *> order = {&entry};
  std::set<Specialization *> seen = {&entry};
  for (size_t k = 0; k < order.size(); ++k) {
    std::vector<Specialization *> callees;
    for (auto &[node, call] : order[k]->jitCalls)
      callees.push_back(call.callee);
    for (auto &[node, call] : order[k]->ufuncCalls)
      callees.push_back(call.kernel);
    std::sort(callees.begin(), callees.end(),
              [](Specialization *a, Specialization *b) { return a->index < b->index; });
    for (Specialization *callee : callees)
      if (callee && seen.insert(callee).second)
        order.push_back(callee);
  }
  return order;
}

void Typer::typeLoopBody(Specialization &spec, const SExpr &body) {
  ++loopDepth;
  typeBody(spec, body);
  --loopDepth;
}

void Typer::typeBody(Specialization &spec, const SExpr &body) {
  for (const SExpr *stmt : body.rest()) {
    typeStatement(spec, *stmt);
    if (endsBody(spec, *stmt))
      break; // what follows never runs
  }
}

void Typer::widenVariable(Specialization &spec, const std::string &name, const Type &type,
                          const SExpr &origin) {
  Type &current = spec.variables[name];
  Type unified;
  if (!unify(current, type, unified)) {
    SourceLocation first = spec.variableOrigins[name];
    fail(CompileError::Kind::Typing, *spec.source, origin,
         "variable '" + sourceName(name) + "' is " + type.str() + " here but " +
             current.str() + " at " + where(*spec.source, first));
  }
  if (current.kind == Type::Kind::Bottom && unified.kind != Type::Kind::Bottom &&
      !spec.variableOrigins.count(name))
    spec.variableOrigins[name] = origin.location();
  if (unified != current) {
    current = unified;
    changed = true;
  }
}

void Typer::refuseWritesThroughIndexArrays(Specialization &spec, const SExpr &target) {
  if (!spec.gathers.count(&target))
    return;
  const SExpr &index = ast::slice(target);
  Type indexType = ast::is(index, ast::NodeKind::Tuple) ? Type() : exprType(spec, index);
  if (indexType.kind == Type::Kind::Array && indexType.ndim > 1 && indexType.dtype != DType::Bool)
    fail(CompileError::Kind::Unsupported, *spec.source, index,
         "writing through an index array of more than one axis is not supported (read "
         "through it, or index with 1-D arrays)");
}

void Typer::assign(Specialization &spec, const SExpr &target, const Type &type,
                   const SExpr &origin) {
  if (ast::is(target, ast::NodeKind::Name)) {
    widenVariable(spec, ast::id(target), type, origin);
    return;
  }
  if (ast::is(target, ast::NodeKind::Tuple)) {
    std::vector<const SExpr *> elements = ast::elts(target);
    size_t n = elements.size();
    if (type.kind == Type::Kind::Bottom) {
      for (const SExpr *element : elements)
        assign(spec, *element, Type::bottom(), origin);
      return;
    }
    if (type.kind == Type::Kind::Array) {
      // An array unpacks as a sequence: its elements (1-D) or its rows
      // (views); the length is checked at run time.
      Type part = type.ndim == 1 ? type.elementType() : Type::array(type.dtype, type.ndim - 1);
      for (const SExpr *element : elements)
        assign(spec, *element, part, origin);
      return;
    }
    // (A closure unpacks into the variables it captured: the prologue of
    // a lambda's or inner def's function.)
    if (type.kind != Type::Kind::Tuple && type.kind != Type::Kind::Function)
      fail(CompileError::Kind::Typing, *spec.source, origin,
           "cannot unpack a value of type " + type.str());
    if (type.elements.size() != n)
      fail(CompileError::Kind::Typing, *spec.source, origin,
           "cannot unpack " + type.str() + " into " + std::to_string(n) +
               " names");
    for (size_t i = 0; i < n; ++i)
      assign(spec, *elements[i], type.elements[i], origin);
    return;
  }
  if (ast::is(target, ast::NodeKind::Subscript)) {
    Type base = exprType(spec, ast::value(target));
    if (base.kind == Type::Kind::List) {
      assignListItem(spec, target, base, type, origin);
      return;
    }
    if (base.kind == Type::Kind::Dict) {
      assignDictItem(spec, target, base, type, origin);
      return;
    }
    if (base.isStr())
      fail(CompileError::Kind::Typing, *spec.source, target,
           "'str' object does not support item assignment");
    Type element = subscriptType(spec, target);
    spec.types[&target] = element;
    refuseWritesThroughIndexArrays(spec, target);
    // a[mask] = v, a[indices] = v, a[rows, cols] = v: v broadcasts to the
    // indexing result.
    // (Index arrays beside other indices accept extra leading axes of 1.)
    if (!spec.gathers.count(&target) && indexesWithArray(spec, target) &&
        type.kind == Type::Kind::Array && element.kind == Type::Kind::Array &&
        type.ndim > element.ndim)
      fail(CompileError::Kind::Unsupported, *spec.source, origin,
           "a value of more axes than the indexing result is not supported");
    if (element.kind == Type::Kind::Bottom) {
      // checked in a later round
    } else if (element.kind == Type::Kind::Array) {
      // a[1:] = 0 (fill) or a[1:] = b (copy, broadcasting b's trailing axes;
      // extra leading axes of b must have size 1, checked at run time)
      if (type.kind != Type::Kind::Bottom && type.kind != Type::Kind::Array && !type.isNumber())
        fail(CompileError::Kind::Typing, *spec.source, origin,
             "cannot store a " + type.str() + " into an array slice");
      bool complexSource =
          type.isComplex() || (type.kind == Type::Kind::Array && isComplexDType(type.dtype));
      if (complexSource && !isComplexDType(element.dtype))
        fail(CompileError::Kind::Typing, *spec.source, origin,
             "cannot store complex numbers into an array of " + std::string(dtypeName(element.dtype)));
    } else if (type.kind != Type::Kind::Bottom &&
               (!type.isNumber() || (type.isComplex() && !element.isComplex()))) {
      fail(CompileError::Kind::Typing, *spec.source, origin,
           "cannot store a " + type.str() + " into an array of " + element.str());
    }
    if (viewRoot(spec, target).empty())
      fail(CompileError::Kind::Unsupported, *spec.source, target,
           "element assignment is supported on array variables only");
    if (writesRealImag(spec, target))
      spec.readOnlyWrites.insert(&target);
    std::set<std::string> roots = aliasRoots(spec, target);
    spec.writes.insert(roots.begin(), roots.end());
    return;
  }
  fail(CompileError::Kind::Unsupported, *spec.source, target,
       "assignment to " + target.head() + " is not supported");
}

const Type &Specialization::typeOf(const SExpr &node) const {
  auto found = types.find(&node);
  if (found == types.end())
    throw std::logic_error("internal: the typer did not type " + node.head() + " at line " +
                           std::to_string(node.location().line));
  return found->second;
}

const Specialization::JitCall &Specialization::jitCallOf(const SExpr &call) const {
  auto found = jitCalls.find(&call);
  if (found == jitCalls.end())
    throw std::logic_error("internal: a call the typer did not resolve");
  return found->second;
}

const Specialization::Reduction &Specialization::reductionOf(const SExpr &call) const {
  auto found = reductions.find(&call);
  if (found == reductions.end())
    throw std::logic_error("internal: a reduction the typer did not resolve");
  return found->second;
}

Type Typer::exprType(Specialization &spec, const SExpr &expr) {
  Type type = computeType(spec, expr);
  spec.types[&expr] = type;
  return type;
}

} // namespace plait::frontend
