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
#include "plait/Dialect/Plait/Messages.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>

namespace plait::frontend {

//===----------------------------------------------------------------------===//
// Types, program and options
//===----------------------------------------------------------------------===//

bool complexUsesNumPy(const Type &left, const Type &right) {
  if (left.kind == Type::Kind::Complex && right.isNumPy() && right.dtype == DType::Float64)
    return false;
  return left.isNumPy() || right.isNumPy();
}

Type numpyCommonType(const Type &a, const Type &b) {
  if (a.isNumPy() && b.isNumPy())
    return Type::numpy(promoteDTypes(a.dtype, b.dtype));
  DType np = a.isNumPy() ? a.dtype : b.dtype;
  Type::Kind python = a.isNumPy() ? b.kind : a.kind;
  if (python == Type::Kind::Complex)
    return Type::numpy(DType::Complex128); // (NumPy: complex64 with float32)
  if (python == Type::Kind::Int && np == DType::Bool)
    return Type::numpy(DType::Int64);
  if (python == Type::Kind::Float && !isFloatDType(np))
    return Type::numpy(DType::Float64);
  return Type::numpy(np);
}

std::string Type::str() const {
  switch (kind) {
  case Kind::Array: {
    // The signature spelling: float64[:, :], float64[:, ::1] if C-contiguous,
    // float64[::1, :] if Fortran-contiguous.
    std::string axes;
    for (int axis = 0; axis < ndim; ++axis)
      axes += std::string(axis ? ", " : "") +
              ((contiguous && axis + 1 == ndim) || (fortran && axis == 0) ? "::1" : ":");
    return std::string(dtypeName(dtype)) + "[" + axes + "]";
  }
  case Kind::Bottom:
    return "<unknown>";
  case Kind::None:
    return "None";
  case Kind::Bool:
    return "bool";
  case Kind::Int:
    return "int";
  case Kind::Float:
    return "float";
  case Kind::Complex:
    return "complex";
  case Kind::NumPy:
    return std::string("numpy.") + dtypeName(dtype);
  case Kind::Tuple: {
    std::string s = "tuple[";
    for (size_t i = 0; i < elements.size(); ++i)
      s += (i ? ", " : "") + elements[i].str();
    return s + "]";
  }
  }
  return "?";
}

size_t Type::numLeaves() const {
  if (kind == Kind::None || kind == Kind::Bottom)
    return 0; // an array is one leaf: its memref
  if (isComplex())
    return 2; // real and imaginary parts
  if (kind != Kind::Tuple)
    return 1;
  size_t n = 0;
  for (const Type &element : elements)
    n += element.numLeaves();
  return n;
}

Program parseProgram(const std::string &snapshot) {
  SExpr root = parseSExpr(snapshot);
  if (root.head() != "Program")
    throw std::invalid_argument("snapshot is not a (Program ...)");
  Program program;
  for (const SExpr *item : root.rest()) {
    if (item->head() != "Function" || item->items.size() < 9)
      throw std::invalid_argument("malformed (Function ...) in snapshot");
    FunctionSource fn;
    fn.id = std::stoi(item->items[1].text);
    fn.name = item->items[2].text;
    fn.filename = item->items[3].text;
    for (const SExpr *p : item->items[4].rest())
      fn.params.push_back(p->text);
    for (const SExpr *d : item->items[5].rest())
      fn.defaults.push_back(*d);
    for (const SExpr *g : item->items[6].rest())
      fn.globals[g->items.at(1).text] = g->items.at(2);
    for (const SExpr *l : item->items[7].rest())
      fn.lines[std::stoi(l->items.at(1).text)] = l->items.at(2).text;
    fn.definition = item->items[8];
    program.functions[fn.id] = std::move(fn);
  }
  return program;
}

std::string CompileOptions::message(const std::string &key) const {
  auto it = messages.find(key);
  if (it != messages.end())
    return it->second;
  return dialect::defaultMessage(key).str();
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

const MathFunctionInfo *lookupMathFunction(const std::string &name) {
  using K = Type::Kind;
  static const MathFunctionInfo table[] = {
      {"sqrt", nullptr, 1, K::Float, false},
      {"fabs", nullptr, 1, K::Float, false},
      {"floor", nullptr, 1, K::Int, false},
      {"ceil", nullptr, 1, K::Int, false},
      {"trunc", nullptr, 1, K::Int, false},
      {"copysign", nullptr, 2, K::Float, false},
      {"isnan", nullptr, 1, K::Bool, false},
      {"isinf", nullptr, 1, K::Bool, false},
      {"isfinite", nullptr, 1, K::Bool, false},
      {"degrees", nullptr, 1, K::Float, false},
      {"radians", nullptr, 1, K::Float, false},
      {"pow", nullptr, 2, K::Float, false},
      {"log", nullptr, 1, K::Float, false}, // 1 or 2 arguments
      {"log2", nullptr, 1, K::Float, false},
      {"log10", nullptr, 1, K::Float, false},
      {"log1p", nullptr, 1, K::Float, false},
      {"exp", "exp", 1, K::Float, true},
      {"exp2", "exp2", 1, K::Float, true},
      {"expm1", "expm1", 1, K::Float, true},
      {"sin", "sin", 1, K::Float, false},
      {"cos", "cos", 1, K::Float, false},
      {"tan", "tan", 1, K::Float, false},
      {"asin", "asin", 1, K::Float, false},
      {"acos", "acos", 1, K::Float, false},
      {"atan", "atan", 1, K::Float, false},
      {"sinh", "sinh", 1, K::Float, true},
      {"cosh", "cosh", 1, K::Float, true},
      {"tanh", "tanh", 1, K::Float, false},
      {"asinh", "asinh", 1, K::Float, false},
      {"acosh", "acosh", 1, K::Float, false},
      {"atanh", "atanh", 1, K::Float, false},
      {"erf", "erf", 1, K::Float, false},
      {"erfc", "erfc", 1, K::Float, false},
      {"atan2", "atan2", 2, K::Float, false},
      {"fmod", "fmod", 2, K::Float, false},
  };
  for (const MathFunctionInfo &info : table)
    if (name == info.python)
      return &info;
  return nullptr;
}

bool isSupportedBuiltin(const std::string &name) {
  static const char *names[] = {"abs",   "min",  "max",    "round", "int",
                                "float", "bool", "divmod", "pow",   "range",
                                "len",   "complex"};
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

bool writesParameter(const Specialization &spec, const std::string &name) {
  std::vector<std::pair<const Specialization *, std::string>> stack = {{&spec, name}};
  std::set<std::pair<const Specialization *, std::string>> seen;
  while (!stack.empty()) {
    auto [current, param] = stack.back();
    stack.pop_back();
    if (!seen.insert({current, param}).second)
      continue;
    if (current->writes.count(param))
      return true;
    for (const auto &[passed, callee, index] : current->arraysPassed)
      if (passed == param)
        stack.push_back({callee, callee->source->params[index]});
  }
  return false;
}

std::vector<const SExpr *> subscriptIndices(const SExpr &subscript) {
  const SExpr &index = subscript.field(1);
  std::vector<const SExpr *> indices;
  if (index.head() == "Tuple")
    for (size_t i = 0; i < index.numFields(); ++i)
      indices.push_back(&index.field(i));
  else
    indices.push_back(&index);
  return indices;
}

bool alwaysReturns(const SExpr &body) {
  for (const SExpr *stmt : body.rest()) {
    const std::string &head = stmt->head();
    if (head == "Return")
      return true;
    if (head == "If" && alwaysReturns(stmt->field(1)) &&
        alwaysReturns(stmt->field(2)))
      return true;
    if (head == "While") {
      // `while True:` without a break only leaves through return.
      const SExpr &test = stmt->field(0);
      bool infinite = test.head() == "Const" && test.field(0).kind == SExpr::Kind::True;
      if (infinite) {
        bool hasBreak = false;
        std::vector<const SExpr *> stack = {&stmt->field(1)};
        while (!stack.empty()) {
          const SExpr *node = stack.back();
          stack.pop_back();
          if (node->head() == "Break")
            hasBreak = true;
          // Breaks inside nested loops belong to those loops.
          if (node->head() == "While" || node->head() == "For")
            continue;
          for (const SExpr &item : node->items)
            if (item.isList())
              stack.push_back(&item);
        }
        if (!hasBreak)
          return true;
      }
    }
  }
  return false;
}

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

bool negatedIntConstant(const SExpr &unary, int64_t &value) {
  if (unary.head() != "UnaryOp" || unary.field(0).text != "USub" ||
      unary.field(1).head() != "Const" || unary.field(1).field(0).kind != SExpr::Kind::Integer)
    return false;
  const std::string &digits = unary.field(1).field(0).text;
  errno = 0;
  unsigned long long magnitude = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE || magnitude > (1ULL << 63))
    return false;
  value = static_cast<int64_t>(0 - magnitude);
  return true;
}

bool bigUnsignedConstant(const SExpr &node, uint64_t &value) {
  if (node.head() != "Const" || node.field(0).kind != SExpr::Kind::Integer ||
      node.field(0).text[0] == '-')
    return false;
  errno = 0;
  unsigned long long parsed = std::strtoull(node.field(0).text.c_str(), nullptr, 10);
  if (errno == ERANGE || parsed <= static_cast<unsigned long long>(INT64_MAX))
    return false;
  value = parsed;
  return true;
}

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
  case SExpr::Kind::List:
    if (value.head() == "Complex")
      return Type::complex();
    if (value.head() == "Tuple") {
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
  const std::string &head = node.head();
  auto addTargets = [&](const SExpr &target, auto &self) -> void {
    if (target.head() == "Name")
      out.insert(target.field(0).text);
    else if (target.head() == "Tuple")
      for (size_t i = 0; i < target.numFields(); ++i)
        self(target.field(i), self);
  };
  if (head == "Assign") {
    for (const SExpr *t : node.field(0).rest())
      addTargets(*t, addTargets);
  } else if (head == "AugAssign" || head == "For" || head == "AnnAssign") {
    addTargets(node.field(0), addTargets);
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
  } else if (head == "NumPyFunction") {
    binding.kind = NameBinding::Kind::NumPyFunction;
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
  auto fn = program.functions.find(functionId);
  if (fn == program.functions.end())
    throw std::invalid_argument("snapshot lacks function " +
                                std::to_string(functionId));
  Specialization spec;
  spec.source = &fn->second;
  spec.arguments = arguments;
  spec.index = static_cast<int>(specs.size());
  spec.symbol = "plait_" + std::to_string(uniqueId) + "_" + fn->second.name +
                "_" + std::to_string(spec.index);
  if (arguments.size() != spec.source->params.size()) {
    std::string message = fn->second.name + "() takes " +
                          std::to_string(spec.source->params.size()) +
                          " arguments but " + std::to_string(arguments.size()) +
                          " were given";
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
  {
    // Count every binding of each name; keep those bound once, at top level.
    std::map<std::string, int> bindings;
    std::function<void(const SExpr &)> countTargets = [&](const SExpr &target) {
      if (target.head() == "Name")
        ++bindings[target.field(0).text];
      else if (target.head() == "Tuple")
        for (size_t i = 0; i < target.numFields(); ++i)
          countTargets(target.field(i));
    };
    std::function<void(const SExpr &)> walk = [&](const SExpr &node) {
      const std::string &h = node.head();
      // (a += b does not re-bind an array: it works in place.)
      if (h == "Assign")
        for (const SExpr *t : node.field(0).rest())
          countTargets(*t);
      else if (h == "For" || h == "AnnAssign")
        countTargets(node.field(0));
      for (const SExpr &item : node.items)
        if (item.isList())
          walk(item);
    };
    walk(spec.source->definition);
    std::function<void(const SExpr &)> findLoops = [&](const SExpr &node) {
      if (node.head() == "For" && node.field(0).head() == "Name") {
        const std::string &name = node.field(0).field(0).text;
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
    for (const SExpr *stmt : spec.source->definition.field(0).rest())
      if (stmt->head() == "Assign" && stmt->field(0).items.size() == 2 &&
          stmt->field(0).items[1].head() == "Name") {
        const std::string &name = stmt->field(0).items[1].field(0).text;
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
      typeBody(specs[i], specs[i].source->definition.field(0));
    if (!changed)
      break;
  }
  for (Specialization &spec : specs) {
    if (!alwaysReturns(spec.source->definition.field(0))) {
      Type unified;
      if (!unify(spec.result, Type::none(), unified))
        failAt(CompileError::Kind::Typing, *spec.source, spec.resultOrigin,
               spec.source->name + "() returns " + spec.result.str() +
                   " here but may also end without a return (None)");
      spec.result = unified;
    }
    if (spec.result.kind == Type::Kind::Bottom)
      // Only reachable through endless recursion: nothing ever returns.
      spec.result = Type::none();
  }
  return entry;
}

void Typer::typeLoopBody(Specialization &spec, const SExpr &body) {
  ++loopDepth;
  typeBody(spec, body);
  --loopDepth;
}

void Typer::typeBody(Specialization &spec, const SExpr &body) {
  for (const SExpr *stmt : body.rest())
    typeStatement(spec, *stmt);
}

void Typer::widenVariable(Specialization &spec, const std::string &name,
                          const Type &type, const SExpr &origin) {
  if (type.kind == Type::Kind::Array || spec.variables[name].kind == Type::Kind::Array) {
    Type &current = spec.variables[name];
    if (type.kind == Type::Kind::Array &&
        (spec.singleAssignment.count(name) || spec.loopTargets.count(name)) &&
        (current.kind == Type::Kind::Bottom || current == type)) {
      if (current != type) {
        current = type;
        spec.variableOrigins[name] = origin.location();
        changed = true;
      }
      return;
    }
    fail(CompileError::Kind::Unsupported, *spec.source, origin,
         "an array can be bound to the variable '" + name +
             "' only by one assignment at the top level of the function "
             "(re-binding array variables is not supported yet)");
  }
  Type &current = spec.variables[name];
  Type unified;
  if (!unify(current, type, unified)) {
    SourceLocation first = spec.variableOrigins[name];
    fail(CompileError::Kind::Typing, *spec.source, origin,
         "variable '" + name + "' is " + type.str() + " here but " +
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

void Typer::assign(Specialization &spec, const SExpr &target, const Type &type,
                   const SExpr &origin) {
  if (target.head() == "Name") {
    widenVariable(spec, target.field(0).text, type, origin);
    return;
  }
  if (target.head() == "Tuple") {
    size_t n = target.numFields();
    if (type.kind == Type::Kind::Bottom) {
      for (size_t i = 0; i < n; ++i)
        assign(spec, target.field(i), Type::bottom(), origin);
      return;
    }
    if (type.kind != Type::Kind::Tuple)
      fail(CompileError::Kind::Typing, *spec.source, origin,
           "cannot unpack a value of type " + type.str());
    if (type.elements.size() != n)
      fail(CompileError::Kind::Typing, *spec.source, origin,
           "cannot unpack " + type.str() + " into " + std::to_string(n) +
               " names");
    for (size_t i = 0; i < n; ++i)
      assign(spec, target.field(i), type.elements[i], origin);
    return;
  }
  if (target.head() == "Subscript") {
    Type element = subscriptType(spec, target);
    spec.types[&target] = element;
    if (element.kind == Type::Kind::Bottom) {
      // checked in a later round
    } else if (element.kind == Type::Kind::Array) {
      // a[1:] = 0 (fill) or a[1:] = b (copy, broadcasting b's trailing axes;
      // extra leading axes of b must have size 1, checked at run time)
      if (type.kind != Type::Kind::Bottom && type.kind != Type::Kind::Array && !type.isNumber())
        fail(CompileError::Kind::Typing, *spec.source, origin,
             "cannot store a " + type.str() + " into an array slice");
      bool complexSource = type.isComplex() ||
                           (type.kind == Type::Kind::Array && type.dtype == DType::Complex128);
      if (complexSource && element.dtype != DType::Complex128)
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
    std::set<std::string> roots = aliasRoots(spec, target);
    spec.writes.insert(roots.begin(), roots.end());
    return;
  }
  fail(CompileError::Kind::Unsupported, *spec.source, target,
       "assignment to " + target.head() + " is not supported");
}

std::string Typer::numpyFunction(const Specialization &spec, const SExpr &callee) const {
  if (callee.head() == "Attribute" && callee.field(0).head() == "Name" &&
      resolve(spec, callee.field(0).field(0).text).kind == NameBinding::Kind::NumPy)
    return callee.field(1).text;
  if (callee.head() == "Name") {
    NameBinding binding = resolve(spec, callee.field(0).text);
    // A NumPy scalar type bound to a global (from numpy import float32)
    // is called as a constructor, like np.float32(x).
    if (binding.kind == NameBinding::Kind::NumPyFunction ||
        binding.kind == NameBinding::Kind::DTypeValue)
      return binding.name;
  }
  return "";
}

DType Typer::dtypeOf(Specialization &spec, const SExpr &node) {
  DType dtype;
  const FunctionSource &fn = *spec.source;
  if (node.head() == "Attribute" && node.field(0).head() == "Name" &&
      resolve(spec, node.field(0).field(0).text).kind == NameBinding::Kind::NumPy &&
      dtypeFromName(node.field(1).text, dtype))
    return dtype;
  if (node.head() == "Const" && node.field(0).kind == SExpr::Kind::String &&
      dtypeFromName(node.field(0).text, dtype))
    return dtype;
  if (node.head() == "Name") {
    NameBinding binding = resolve(spec, node.field(0).text);
    if (binding.kind == NameBinding::Kind::Builtin) {
      if (binding.name == "float")
        return DType::Float64;
      if (binding.name == "int")
        return DType::Int64;
      if (binding.name == "bool")
        return DType::Bool;
      if (binding.name == "complex")
        return DType::Complex128;
    }
    if (binding.kind == NameBinding::Kind::DTypeValue && dtypeFromName(binding.name, dtype))
      return dtype;
  }
  fail(CompileError::Kind::Unsupported, fn, node,
       "unsupported dtype: use float64, float32, int64, int32, int16, int8, "
       "uint8, uint64, complex128 or bool (as np.float64, float, int, bool, "
       "complex or a string)");
}

/// An integer index or size: Python's int or bool, or a NumPy integer.
static bool isIntegral(const Type &t) {
  return t.kind == Type::Kind::Int || t.kind == Type::Kind::Bool ||
         (t.isNumPy() && !isFloatDType(t.dtype) && t.dtype != DType::Bool &&
          t.dtype != DType::Complex128);
}

int Typer::reductionAxis(Specialization &spec, const SExpr &call, int ndim) {
  const FunctionSource &fn = *spec.source;
  const SExpr *axis = nullptr;
  std::vector<const SExpr *> args = call.field(1).rest();
  if (args.size() > 1)
    axis = args[1];
  for (const SExpr *keyword : call.field(2).rest()) {
    if (keyword->items.at(1).text != "axis" || axis)
      fail(CompileError::Kind::Unsupported, fn, call,
           "reductions take an array and an axis (other arguments are not supported)");
    axis = &keyword->items.at(2);
  }
  if (!axis || axis->kind == SExpr::Kind::None ||
      (axis->head() == "Const" && axis->field(0).kind == SExpr::Kind::None))
    return -1;
  bool negative = axis->head() == "UnaryOp" && axis->field(0).text == "USub";
  const SExpr &constant = negative ? axis->field(1) : *axis;
  if (constant.head() != "Const" || constant.field(0).kind != SExpr::Kind::Integer)
    fail(CompileError::Kind::Unsupported, fn, *axis, "axis must be an integer constant");
  long long value = std::strtoll(constant.field(0).text.c_str(), nullptr, 10);
  if (negative)
    value = -value;
  if (value < -ndim || value >= ndim)
    fail(CompileError::Kind::Typing, fn, *axis,
         "axis " + std::to_string(value) + " is out of bounds for array of dimension " +
             std::to_string(ndim));
  return static_cast<int>(value < 0 ? value + ndim : value);
}

int Typer::shapeRank(Specialization &spec, const SExpr &node) {
  Type t = exprType(spec, node);
  if (isIntegral(t))
    return 1;
  if (t.kind == Type::Kind::Tuple && !t.elements.empty() && t.elements.size() <= 8) {
    for (const Type &e : t.elements)
      if (!isIntegral(e))
        fail(CompileError::Kind::Typing, *spec.source, node,
             "array shapes are ints or tuples of ints, not " + t.str());
    return static_cast<int>(t.elements.size());
  }
  fail(CompileError::Kind::Typing, *spec.source, node,
       "array shapes are ints or tuples of 1 to 8 ints, not " + t.str());
}

Type Typer::numpyCallType(Specialization &spec, const SExpr &call, const std::string &name) {
  const FunctionSource &fn = *spec.source;
  std::vector<const SExpr *> args = call.field(1).rest();
  const SExpr *dtypeNode = nullptr;
  bool isReduction = name == "sum" || name == "prod" || name == "min" || name == "max" ||
                     name == "amin" || name == "amax" || name == "mean";
  for (const SExpr *keyword : call.field(2).rest()) {
    if (isReduction && keyword->items.at(1).text == "axis")
      continue; // see reductionAxis
    if (keyword->items.at(1).text != "dtype")
      fail(CompileError::Kind::Unsupported, fn, call,
           "np." + name + "() keyword '" + keyword->items.at(1).text + "' is not supported");
    dtypeNode = &keyword->items.at(2);
  }
  auto takeDtype = [&](size_t position) {
    if (args.size() > position) {
      if (dtypeNode)
        fail(CompileError::Kind::Typing, fn, call, "np." + name + "() got dtype twice");
      dtypeNode = args[position];
      args.resize(position);
    }
  };
  auto arity = [&](size_t low, size_t high) {
    if (args.size() < low || args.size() > high)
      fail(CompileError::Kind::Typing, fn, call,
           "np." + name + "() takes " + std::to_string(low) + " to " +
               std::to_string(high) + " positional arguments");
  };
  DType scalar;
  if (dtypeFromName(name, scalar)) {
    // np.float32(x): a NumPy scalar, converted as NumPy converts.
    if (call.field(2).items.size() > 1)
      fail(CompileError::Kind::Unsupported, fn, call, "np." + name + "() takes no keywords here");
    arity(0, 1);
    uint64_t bits;
    if (!args.empty() && !(scalar == DType::UInt64 && bigUnsignedConstant(*args[0], bits))) {
      Type t = exprType(spec, *args[0]);
      if (t.kind != Type::Kind::Bottom && !t.isNumeric() &&
          !(t.isComplex() && scalar == DType::Complex128))
        fail(CompileError::Kind::Typing, fn, *args[0],
             "np." + name + "() of " + t.str() + " is not supported");
    }
    return Type::numpy(scalar);
  }
  if (name == "empty" || name == "zeros" || name == "ones") {
    takeDtype(1);
    arity(1, 1);
    int rank = shapeRank(spec, *args[0]);
    return Type::array(dtypeNode ? dtypeOf(spec, *dtypeNode) : DType::Float64, rank, true);
  }
  if (name == "full") {
    takeDtype(2);
    arity(2, 2);
    int rank = shapeRank(spec, *args[0]);
    Type fill = exprType(spec, *args[1]);
    if (fill.kind != Type::Kind::Bottom && !fill.isNumber())
      fail(CompileError::Kind::Typing, fn, *args[1], "np.full() needs a number to fill with");
    DType dtype = fill.isNumPy()                   ? fill.dtype
                  : fill.kind == Type::Kind::Complex ? DType::Complex128
                  : fill.kind == Type::Kind::Float ? DType::Float64
                  : fill.kind == Type::Kind::Bool  ? DType::Bool
                                                   : DType::Int64;
    return Type::array(dtypeNode ? dtypeOf(spec, *dtypeNode) : dtype, rank, true);
  }
  if (name == "empty_like" || name == "zeros_like" || name == "ones_like") {
    takeDtype(1);
    arity(1, 1);
    Type like = exprType(spec, *args[0]);
    if (like.kind != Type::Kind::Array)
      fail(CompileError::Kind::Typing, fn, *args[0],
           "np." + name + "() needs an array, not " + like.str());
    return Type::newArray(dtypeNode ? dtypeOf(spec, *dtypeNode) : like.dtype, like.ndim, {like});
  }
  if (name == "arange") {
    arity(1, 3);
    bool anyFloat = false;
    for (const SExpr *arg : args) {
      Type t = exprType(spec, *arg);
      if (t.kind != Type::Kind::Bottom && !t.isNumeric())
        fail(CompileError::Kind::Typing, fn, *arg, "np.arange() takes numbers");
      anyFloat |= t.isFloating();
    }
    spec.loops = true;
    return Type::array(dtypeNode ? dtypeOf(spec, *dtypeNode)
                                 : anyFloat ? DType::Float64 : DType::Int64,
                       1, true);
  }
  if (name == "sum" || name == "prod" || name == "min" || name == "max" ||
      name == "amin" || name == "amax" || name == "mean") {
    arity(1, 2);
    Type array = exprType(spec, *args[0]);
    if (array.kind == Type::Kind::Bottom)
      return array;
    if (array.kind != Type::Kind::Array)
      fail(CompileError::Kind::Typing, fn, *args[0],
           "np." + name + "() needs an array here, not " + array.str());
    spec.loops = true;
    // Along one axis: an array of the other axes' shape (of the same dtype
    // as the whole-array reduction).
    int axis = reductionAxis(spec, call, array.ndim);
    spec.axes[&call] = axis;
    auto alongAxis = [&](Type whole) {
      return axis >= 0 && array.ndim > 1 ? Type::array(whole.dtype, array.ndim - 1, true) : whole;
    };
    if (array.dtype == DType::Complex128) {
      if (name != "sum" && name != "prod" && name != "mean")
        fail(CompileError::Kind::Unsupported, fn, call,
             "np." + name + "() of complex arrays is not supported");
      return alongAxis(array.elementType());
    }
    // NumPy's result types: float32 stays float32; integer sums widen to
    // the platform's (u)int64; the mean of integers is float64.
    if (name == "mean")
      return alongAxis(Type::numpy(array.dtype == DType::Float32 ? DType::Float32 : DType::Float64));
    if (name == "sum" || name == "prod") {
      if (isFloatDType(array.dtype))
        return alongAxis(Type::numpy(array.dtype));
      return alongAxis(Type::numpy(isUnsignedDType(array.dtype) ? DType::UInt64 : DType::Int64));
    }
    return alongAxis(array.elementType());
  }
  if (name == "dot") {
    arity(2, 2);
    Type a = exprType(spec, *args[0]);
    Type b = exprType(spec, *args[1]);
    if (a.kind == Type::Kind::Bottom || b.kind == Type::Kind::Bottom)
      return Type::bottom();
    if (a.kind != Type::Kind::Array || b.kind != Type::Kind::Array || a.ndim > 2 ||
        b.ndim > 2 || (a.ndim == 1 && b.ndim == 2))
      fail(CompileError::Kind::Unsupported, fn, call,
           "np.dot() is supported for 1-D.1-D, 2-D.2-D and 2-D.1-D arrays");
    spec.loops = true;
    DType dtype = promoteDTypes(a.dtype, b.dtype);
    if (a.ndim == 1)
      return Type::numpy(dtype);
    if (dtype == DType::Complex128)
      fail(CompileError::Kind::Unsupported, fn, call,
           "np.dot() of complex matrices is not supported (1-D vectors are)");
    return Type::array(dtype, b.ndim == 2 ? 2 : 1, true);
  }
  if (name == "sqrt" || name == "exp" || name == "log" || name == "sin" ||
      name == "cos" || name == "tan" || name == "arctan" || name == "abs" ||
      name == "absolute") {
    arity(1, 1);
    Type t = exprType(spec, *args[0]);
    if (t.kind == Type::Kind::Bottom)
      return t;
    bool isAbs = name == "abs" || name == "absolute";
    // NumPy computes sqrt(int8) etc. in float16, which plait does not have.
    auto elementwiseFloat = [&](DType dtype) {
      if (dtype == DType::Complex128)
        fail(CompileError::Kind::Unsupported, fn, call,
             "np." + name + "() of complex numbers is not supported (np.abs is)");
      if (dtype == DType::Float32 || dtype == DType::Int16)
        return DType::Float32;
      if (dtypeBits(dtype) <= 8)
        fail(CompileError::Kind::Unsupported, fn, call,
             "np." + name + "() of " + std::string(dtypeName(dtype)) +
                 " computes in float16, which is not supported: convert first");
      return DType::Float64;
    };
    if (t.kind == Type::Kind::Array) {
      spec.loops = true;
      if (isAbs) // |z| of complex128 is float64
        return Type::newArray(t.dtype == DType::Complex128 ? DType::Float64 : t.dtype, t.ndim, {t});
      return Type::newArray(elementwiseFloat(t.dtype), t.ndim, {t});
    }
    if (!t.isNumber())
      fail(CompileError::Kind::Typing, fn, *args[0], "np." + name + "() of " + t.str());
    // Python numbers become NumPy scalars: int as int64, float as float64.
    DType dtype = t.isNumPy()                   ? t.dtype
                  : t.kind == Type::Kind::Complex ? DType::Complex128
                  : t.kind == Type::Kind::Float ? DType::Float64
                  : t.kind == Type::Kind::Bool  ? DType::Bool
                                                : DType::Int64;
    if (isAbs)
      return Type::numpy(dtype == DType::Complex128 ? DType::Float64 : dtype);
    return Type::numpy(elementwiseFloat(dtype));
  }
  fail(CompileError::Kind::Unsupported, fn, call.field(0),
       "np." + name + "() is not supported yet (supported: empty, zeros, ones, "
       "full, empty_like, zeros_like, ones_like, arange, sum, prod, min, max, "
       "mean, dot, sqrt, exp, log, sin, cos, tan, arctan, abs)");
}

Type Typer::subscriptType(Specialization &spec, const SExpr &subscript) {
  const SExpr &base = subscript.field(0);
  const SExpr &index = subscript.field(1);
  Type array = exprType(spec, base);
  if (array.kind == Type::Kind::Bottom)
    return array; // typed in a later round (a jitted callee's result)
  if (array.kind != Type::Kind::Array)
    fail(CompileError::Kind::Unsupported, *spec.source, base,
         "indexing a " + array.str() + " is not supported");
  std::vector<const SExpr *> indices = subscriptIndices(subscript);
  if (static_cast<int>(indices.size()) > array.ndim)
    fail(CompileError::Kind::Typing, *spec.source, index,
         "too many indices for array: array is " + std::to_string(array.ndim) +
             "-dimensional, but " + std::to_string(indices.size()) + " were indexed");
  int kept = array.ndim - static_cast<int>(indices.size()); // trailing axes
  for (const SExpr *i : indices) {
    if (i->head() == "Slice") {
      ++kept;
      for (size_t part = 0; part < 3; ++part) {
        const SExpr &bound = i->field(part);
        if (bound.kind == SExpr::Kind::None)
          continue;
        Type t = exprType(spec, bound);
        if (t.kind != Type::Kind::Bottom && !isIntegral(t))
          fail(CompileError::Kind::Typing, *spec.source, bound,
               "slice indices must be integers or None, not " + t.str());
      }
      continue;
    }
    if (i->head() == "Unsupported")
      fail(CompileError::Kind::Unsupported, *spec.source, *i,
           "this kind of array index is not supported");
    Type t = exprType(spec, *i);
    if (t.kind != Type::Kind::Bottom && !isIntegral(t))
      fail(CompileError::Kind::Typing, *spec.source, *i,
           "array indices must be integers or slices, not " + t.str());
  }
  if (kept == 0)
    return array.elementType();
  return Type::array(array.dtype, kept, /*contiguous=*/false);
}

std::string Typer::viewRoot(const Specialization &spec, const SExpr &expr) const {
  const SExpr *node = &expr;
  while (node->head() == "Subscript")
    node = &node->field(0);
  if (node->head() != "Name")
    return "";
  return node->field(0).text;
}

std::set<std::string> Typer::aliasRoots(const Specialization &spec, const SExpr &expr) const {
  const std::string &head = expr.head();
  if (head == "Name") {
    const std::string &name = expr.field(0).text;
    std::set<std::string> roots = {name};
    auto found = spec.aliases.find(name);
    if (found != spec.aliases.end())
      roots.insert(found->second.begin(), found->second.end());
    return roots;
  }
  if (head == "Subscript")
    return aliasRoots(spec, expr.field(0));
  std::set<std::string> roots;
  if (head == "IfExp") {
    roots = aliasRoots(spec, expr.field(1));
    std::set<std::string> other = aliasRoots(spec, expr.field(2));
    roots.insert(other.begin(), other.end());
  } else if (head == "Call" && expr.field(0).head() == "Name" &&
             resolve(spec, expr.field(0).field(0).text).kind == NameBinding::Kind::Jit) {
    // A jitted callee may return (a view of) any array passed to it.
    for (const SExpr *arg : expr.field(1).rest()) {
      std::set<std::string> more = aliasRoots(spec, *arg);
      roots.insert(more.begin(), more.end());
    }
    for (const SExpr *keyword : expr.field(2).rest()) {
      std::set<std::string> more = aliasRoots(spec, keyword->items.at(2));
      roots.insert(more.begin(), more.end());
    }
  }
  return roots;
}

void Typer::addAliases(Specialization &spec, const std::string &name,
                       const std::set<std::string> &roots) {
  std::set<std::string> &known = spec.aliases[name];
  for (const std::string &root : roots)
    if (root != name && known.insert(root).second)
      changed = true;
}

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
      if (t.kind != Type::Kind::Bottom && !isIntegral(t))
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

Type Typer::binaryType(Specialization &spec, const SExpr &node,
                       const std::string &op, const Type &left,
                       const Type &right) {
  if (left.kind == Type::Kind::Bottom || right.kind == Type::Kind::Bottom)
    return Type::bottom();
  static const std::map<std::string, const char *> symbols = {
      {"Add", "+"},     {"Sub", "-"},    {"Mult", "*"},   {"Div", "/"},
      {"FloorDiv", "//"}, {"Mod", "%"},  {"Pow", "**"},   {"LShift", "<<"},
      {"RShift", ">>"}, {"BitOr", "|"},  {"BitXor", "^"}, {"BitAnd", "&"},
      {"MatMult", "@"}};
  auto symbol = symbols.find(op);
  if (symbol == symbols.end() || op == "MatMult")
    fail(CompileError::Kind::Unsupported, *spec.source, node,
         "operator " + (symbol == symbols.end() ? op : symbol->second) +
             " is not supported");
  auto typeError = [&]() {
    fail(CompileError::Kind::Typing, *spec.source, node,
         std::string("unsupported operand type(s) for ") + symbol->second +
             ": '" + left.str() + "' and '" + right.str() + "'");
  };
  // A Python complex is weak: with float32 NumPy computes in complex64,
  // which plait does not have (numpy.complex128 with float32 is complex128).
  auto isFloat32 = [](const Type &t) {
    return (t.isNumPy() || t.kind == Type::Kind::Array) && t.dtype == DType::Float32;
  };
  if ((left.kind == Type::Kind::Complex && isFloat32(right)) ||
      (right.kind == Type::Kind::Complex && isFloat32(left)))
    fail(CompileError::Kind::Unsupported, *spec.source, node,
         "float32 with a Python complex number computes in complex64, which is not supported");
  if (left.kind == Type::Kind::Array || right.kind == Type::Kind::Array) {
    // Elementwise, as NumPy's ufuncs: each element computes as the scalars
    // would (NumPy scalars are strong, Python numbers weak); shapes broadcast.
    // (A Python complex meets array elements as NumPy's complex: weak.)
    auto element = [](const Type &t) {
      return t.kind == Type::Kind::Array     ? t.elementType()
             : t.kind == Type::Kind::Complex ? Type::numpy(DType::Complex128)
                                             : t;
    };
    if ((left.kind != Type::Kind::Array && !left.isNumber()) ||
        (right.kind != Type::Kind::Array && !right.isNumber()))
      typeError();
    Type result = binaryType(spec, node, op, element(left), element(right));
    if (result.kind == Type::Kind::Bottom)
      return result;
    spec.loops = true;
    return Type::newArray(result.dtype,
                          std::max(left.kind == Type::Kind::Array ? left.ndim : 0,
                                   right.kind == Type::Kind::Array ? right.ndim : 0),
                          {left, right});
  }
  if (!left.isNumber() || !right.isNumber())
    typeError();
  if (left.isComplex() || right.isComplex()) {
    // + - * / only; NumPy's rules when a NumPy scalar is involved.
    if (op == "Pow")
      fail(CompileError::Kind::Unsupported, *spec.source, node,
           "** of complex numbers is not supported");
    if (op != "Add" && op != "Sub" && op != "Mult" && op != "Div")
      typeError();
    return complexUsesNumPy(left, right) ? Type::numpy(DType::Complex128) : Type::complex();
  }
  if (left.isNumPy() || right.isNumPy()) {
    DType common = numpyCommonType(left, right).dtype;
    bool bitwise = op == "BitOr" || op == "BitXor" || op == "BitAnd" ||
                   op == "LShift" || op == "RShift";
    if (op == "Div")
      return Type::numpy(isFloatDType(common) ? common : DType::Float64);
    if (bitwise && isFloatDType(common))
      typeError();
    if (common == DType::Bool) {
      if (op == "Sub")
        fail(CompileError::Kind::Typing, *spec.source, node,
             "numpy boolean subtract, the `-` operator, is not supported, use "
             "the bitwise_xor, the `^` operator, or the logical_xor function instead.");
      // + is logical or, * logical and; the others compute in int8.
      if (op != "Add" && op != "Mult" && op != "BitOr" && op != "BitXor" && op != "BitAnd")
        return Type::numpy(DType::Int8);
    }
    return Type::numpy(common);
  }
  bool anyFloat = left.kind == Type::Kind::Float || right.kind == Type::Kind::Float;
  bool bothBool = left.kind == Type::Kind::Bool && right.kind == Type::Kind::Bool;
  if (op == "Div")
    return Type::floating();
  if (op == "BitOr" || op == "BitXor" || op == "BitAnd") {
    if (anyFloat)
      typeError();
    return bothBool ? Type::boolean() : Type::integer();
  }
  if (op == "LShift" || op == "RShift") {
    if (anyFloat)
      typeError();
    return Type::integer();
  }
  return anyFloat ? Type::floating() : Type::integer();
}

std::vector<const SExpr *> Typer::callArguments(Specialization &caller,
                                                const SExpr &call,
                                                const FunctionSource &callee) {
  size_t n = callee.params.size();
  std::vector<const SExpr *> args(n, nullptr);
  std::vector<const SExpr *> positional = call.field(1).rest();
  if (positional.size() > n)
    fail(CompileError::Kind::Typing, *caller.source, call,
         callee.name + "() takes " + std::to_string(n) +
             " positional arguments but " + std::to_string(positional.size()) +
             " were given");
  for (size_t i = 0; i < positional.size(); ++i) {
    if (positional[i]->head() == "Starred")
      fail(CompileError::Kind::Unsupported, *caller.source, *positional[i],
           "*args in calls is not supported");
    args[i] = positional[i];
  }
  for (const SExpr *keyword : call.field(2).rest()) {
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
  return args;
}

Type Typer::callType(Specialization &spec, const SExpr &call) {
  const FunctionSource &fn = *spec.source;
  const SExpr &callee = call.field(0);
  std::vector<const SExpr *> args = call.field(1).rest();
  bool hasKeywords = call.field(2).items.size() > 1;
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

  // math.<name>(...) and functions imported from math.
  std::string mathName;
  if (callee.head() == "Attribute" && callee.field(0).head() == "Name" &&
      resolve(spec, callee.field(0).field(0).text).kind == NameBinding::Kind::Math)
    mathName = callee.field(1).text;
  NameBinding binding;
  if (callee.head() == "Name") {
    binding = resolve(spec, callee.field(0).text);
    if (binding.kind == NameBinding::Kind::MathFunction)
      mathName = binding.name;
  }
  if (!mathName.empty()) {
    const MathFunctionInfo *info = lookupMathFunction(mathName);
    if (!info && (mathName == "gamma" || mathName == "lgamma" || mathName == "hypot"))
      fail(CompileError::Kind::Unsupported, fn, callee,
           "math." + mathName + "() is not supported: CPython computes it with "
           "its own algorithm, which the C library's does not match bit for bit");
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

  std::string numpyName = numpyFunction(spec, callee);
  if (!numpyName.empty())
    return numpyCallType(spec, call, numpyName);
  if (callee.head() == "Attribute" && callee.field(1).text == "conjugate") {
    Type t = exprType(spec, callee.field(0));
    if (t.kind == Type::Kind::Bottom || t.isComplex()) {
      needArgs("conjugate", 0, 0);
      return t;
    }
  }
  if (callee.head() != "Name")
    fail(CompileError::Kind::Unsupported, fn, callee,
         "calling this expression is not supported");
  const std::string &name = callee.field(0).text;
  switch (binding.kind) {
  case NameBinding::Kind::Jit: {
    spec.callsJit = true;
    const FunctionSource &target = program.functions.at(binding.functionId);
    std::vector<const SExpr *> actual = callArguments(spec, call, target);
    std::vector<Type> types;
    for (const SExpr *arg : actual) {
      // Defaults are constants of the callee, typed without an environment.
      bool isDefault = false;
      for (const SExpr &d : target.defaults)
        isDefault |= &d == arg;
      Type t = isDefault ? constantType(*arg) : exprType(spec, *arg);
      if (t.kind == Type::Kind::Bottom)
        return Type::bottom();
      if (t.kind == Type::Kind::Bool)
        t = Type::boolean();
      types.push_back(t);
    }
    Specialization &callee = specialize(binding.functionId, types, &call, &spec);
    spec.jitCalls[&call] = {&callee, actual};
    // A callee that may fall off its end returns None there (a conflict
    // with its other returns is reported once typing is done).
    Type result = callee.result;
    if (!alwaysReturns(callee.source->definition.field(0)))
      unify(callee.result, Type::none(), result);
    for (size_t i = 0; i < actual.size(); ++i)
      if (types[i].kind == Type::Kind::Array)
        for (const std::string &root : aliasRoots(spec, *actual[i]))
          spec.arraysPassed.emplace(root, &callee, i);
    return result;
  }
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
         "calling the local variable '" + name + "' is not supported");
  case NameBinding::Kind::Undefined:
    fail(CompileError::Kind::Typing, fn, callee,
         "name '" + name + "' is not defined");
  default:
    fail(CompileError::Kind::Unsupported, fn, callee,
         "calling '" + name + "' (" + binding.name +
             ") is not supported: only @plait.jit functions, math and "
             "numeric builtins can be called");
  }

  if (name == "abs") {
    needArgs(name, 1, 1);
    Type t = argType(0);
    if (t.isComplex())
      return t.isNumPy() ? Type::numpy(DType::Float64) : Type::floating();
    needNumeric(name, t, 0);
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (name == "min" || name == "max") {
    if (hasKeywords)
      fail(CompileError::Kind::Unsupported, fn, call,
           name + "() with keyword arguments is not supported");
    if (args.empty())
      fail(CompileError::Kind::Typing, fn, call,
           name + " expected at least 1 argument, got 0");
    std::vector<Type> types;
    if (args.size() == 1) {
      Type t = argType(0);
      if (t.kind == Type::Kind::Bottom)
        return t;
      if (t.kind != Type::Kind::Tuple || t.elements.empty())
        fail(CompileError::Kind::Typing, fn, *args[0],
             name + "() of one argument needs a non-empty tuple, not " + t.str());
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
    if (ndigits.kind != Type::Kind::Bottom && !isIntegral(ndigits))
      fail(CompileError::Kind::Typing, fn, *args[1],
           "'" + ndigits.str() + "' object cannot be interpreted as an integer");
    // With ndigits the value keeps its type (bool rounds as int).
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (name == "int" || name == "float" || name == "bool") {
    needArgs(name, 0, 1);
    if (!args.empty() && !(name == "bool" && argType(0).isComplex()))
      needNumeric(name, argType(0), 0);
    return name == "int" ? Type::integer()
                         : name == "float" ? Type::floating() : Type::boolean();
  }
  if (name == "divmod") {
    needArgs(name, 2, 2);
    Type t = binaryType(spec, call, "FloorDiv", argType(0), argType(1));
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
    return binaryType(spec, call, "Pow", argType(0), argType(1));
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
        t.kind != Type::Kind::Array)
      fail(CompileError::Kind::Typing, fn, *args[0],
           "object of type '" + t.str() + "' has no len()");
    return Type::integer();
  }
  // range() outside a for loop.
  fail(CompileError::Kind::Unsupported, fn, call,
       name + "() is supported only as the iterable of a for loop");
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

int Specialization::axisOf(const SExpr &call) const {
  auto found = axes.find(&call);
  return found == axes.end() ? -1 : found->second;
}

Type Typer::exprType(Specialization &spec, const SExpr &expr) {
  Type type = computeType(spec, expr);
  spec.types[&expr] = type;
  return type;
}

Type Typer::computeType(Specialization &spec, const SExpr &expr) {
  const FunctionSource &fn = *spec.source;
  const std::string &head = expr.head();
  if (head == "Const") {
    const SExpr &value = expr.field(0);
    if (value.kind == SExpr::Kind::String)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "string constants are not supported");
    if (value.kind == SExpr::Kind::Integer) {
      errno = 0;
      char *end = nullptr;
      std::strtoll(value.text.c_str(), &end, 10);
      if (errno == ERANGE)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "integer constant " + value.text + " does not fit in int64");
    }
    Type t = constantType(value);
    if (t.kind == Type::Kind::Bottom)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "this constant is not supported");
    return t;
  }
  if (head == "Name") {
    const std::string &name = expr.field(0).text;
    NameBinding binding = resolve(spec, name);
    switch (binding.kind) {
    case NameBinding::Kind::Local:
      if (spec.loopTargets.count(name) && spec.variables[name].kind == Type::Kind::Array &&
          !rowsInScope.count(name))
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the row variable '" + name + "' can be used only inside its loop");
      return spec.variables[name];
    case NameBinding::Kind::Constant: {
      Type t = constantType(*binding.value);
      if (t.kind == Type::Kind::Bottom)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "global '" + name + "' has a value compiled code cannot use");
      if (binding.value->kind == SExpr::Kind::Integer) {
        errno = 0;
        std::strtoll(binding.value->text.c_str(), nullptr, 10);
        if (errno == ERANGE)
          fail(CompileError::Kind::Unsupported, fn, expr,
               "global '" + name + "' = " + binding.value->text +
                   " does not fit in int64");
      }
      return t;
    }
    case NameBinding::Kind::Undefined:
      fail(CompileError::Kind::Typing, fn, expr,
           "name '" + name + "' is not defined");
    case NameBinding::Kind::Unsupported:
      fail(CompileError::Kind::Unsupported, fn, expr,
           "global '" + name + "' is a " + binding.name +
               ", which compiled code cannot use");
    default:
      fail(CompileError::Kind::Unsupported, fn, expr,
           "'" + name + "' can only be called here");
    }
  }
  if (head == "Attribute") {
    const SExpr &base = expr.field(0);
    bool local = base.head() == "Name" &&
                 resolve(spec, base.field(0).text).kind == NameBinding::Kind::Local;
    if (local)
      exprType(spec, base); // (recorded: the emitter loads it)
    if (local && spec.variables[base.field(0).text].kind == Type::Kind::Bottom)
      return Type::bottom(); // typed in a later round (a jitted callee's result)
    if (local && spec.variables[base.field(0).text].kind == Type::Kind::Array) {
      const Type &array = spec.variables[base.field(0).text];
      const std::string &attr = expr.field(1).text;
      if (attr == "shape")
        return Type::tuple(std::vector<Type>(array.ndim, Type::integer()));
      if (attr == "ndim" || attr == "size")
        return Type::integer();
      fail(CompileError::Kind::Unsupported, fn, expr,
           "the array attribute '" + attr + "' is not supported");
    }
    if (base.head() == "Name" &&
        resolve(spec, base.field(0).text).kind == NameBinding::Kind::Math) {
      const std::string &attr = expr.field(1).text;
      if (attr == "pi" || attr == "e" || attr == "tau" || attr == "inf" ||
          attr == "nan")
        return Type::floating();
      fail(CompileError::Kind::Unsupported, fn, expr,
           "math." + attr + " is not supported here");
    }
    const std::string &attr = expr.field(1).text;
    if (attr == "real" || attr == "imag") {
      Type t = exprType(spec, base);
      if (t.kind == Type::Kind::Bottom)
        return t;
      if (t.isComplex()) // z.real of numpy.complex128 is a numpy.float64
        return t.isNumPy() ? Type::numpy(DType::Float64) : Type::floating();
    }
    fail(CompileError::Kind::Unsupported, fn, expr,
         "attribute access is not supported (except .real and .imag of complex numbers)");
  }
  if (head == "BinOp")
    return binaryType(spec, expr, expr.field(0).text, exprType(spec, expr.field(1)),
                      exprType(spec, expr.field(2)));
  if (head == "UnaryOp") {
    const std::string &op = expr.field(0).text;
    int64_t negated;
    if (negatedIntConstant(expr, negated))
      return Type::integer(); // -9223372036854775808 fits though its operand does not
    Type operand = exprType(spec, expr.field(1));
    if (op == "Not") {
      if (operand.kind == Type::Kind::Array)
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the truth value of an array is ambiguous (test its elements)");
      return Type::boolean();
    }
    if (operand.kind == Type::Kind::Bottom)
      return operand;
    // Arrays: elementwise, with the element type's rules.
    Type t = operand.kind == Type::Kind::Array ? operand.elementType() : operand;
    const char *symbol = op == "USub" ? "-" : op == "UAdd" ? "+" : "~";
    if (!t.isNumber() || (op == "Invert" && (t.isFloating() || t.isComplex())) ||
        (op == "UAdd" && t.isNumPy() && t.dtype == DType::Bool))
      fail(CompileError::Kind::Typing, fn, expr,
           std::string("bad operand type for unary ") + symbol + ": '" +
               operand.str() + "'");
    if (t.isNumPy() && t.dtype == DType::Bool && op == "USub")
      fail(CompileError::Kind::Typing, fn, expr,
           "The numpy boolean negative, the `-` operator, is not supported, use "
           "the `~` operator or the logical_not function instead.");
    if (operand.kind == Type::Kind::Array) {
      spec.loops = true;
      return Type::newArray(operand.dtype, operand.ndim, {operand});
    }
    return t.kind == Type::Kind::Bool ? Type::integer() : t;
  }
  if (head == "BoolOp") {
    Type result;
    for (size_t i = 1; i < expr.numFields(); ++i) {
      Type t = exprType(spec, expr.field(i));
      Type next;
      if (!unify(result, t, next))
        fail(CompileError::Kind::Typing, fn, expr.field(i),
             "operands of " + std::string(expr.field(0).text == "And" ? "and" : "or") +
                 " have conflicting types " + result.str() + " and " + t.str());
      result = next;
    }
    return result;
  }
  if (head == "Compare") {
    std::vector<const SExpr *> operands = {&expr.field(0)};
    for (const SExpr *c : expr.field(2).rest())
      operands.push_back(c);
    std::vector<const SExpr *> ops = expr.field(1).rest();
    {
      // Arrays compare elementwise into a bool array (one comparison).
      Type a = exprType(spec, *operands[0]);
      Type b = exprType(spec, *operands.back());
      if (a.kind == Type::Kind::Array || b.kind == Type::Kind::Array) {
        const std::string &o = ops[0]->text;
        if (ops.size() != 1 || o == "Is" || o == "IsNot" || o == "In" || o == "NotIn")
          fail(CompileError::Kind::Unsupported, fn, expr,
               "arrays support one comparison at a time (<, <=, ==, !=, >, >=)");
        for (const Type &t : {a, b})
          if (t.kind != Type::Kind::Array && !t.isNumber() && t.kind != Type::Kind::Bottom)
            fail(CompileError::Kind::Typing, fn, expr, "cannot compare an array with " + t.str());
        bool complexOperand = (a.kind == Type::Kind::Array ? a.elementType() : a).isComplex() ||
                              (b.kind == Type::Kind::Array ? b.elementType() : b).isComplex();
        if (complexOperand && o != "Eq" && o != "NotEq")
          fail(CompileError::Kind::Typing, fn, expr,
               "ordering comparisons are not supported between complex numbers");
        spec.loops = true;
        return Type::newArray(DType::Bool,
                              std::max(a.kind == Type::Kind::Array ? a.ndim : 0,
                                       b.kind == Type::Kind::Array ? b.ndim : 0),
                              {a, b});
      }
    }
    // NumPy comparisons give numpy.bool; a chain gives its last
    // comparison's result, so numpy.bool when every link involves NumPy.
    bool allNumPy = true;
    Type previous;
    for (size_t i = 0; i < operands.size(); ++i) {
      Type t = exprType(spec, *operands[i]);
      if (i > 0)
        allNumPy &= previous.isComplex() || t.isComplex() ? complexUsesNumPy(previous, t)
                                                          : previous.isNumPy() || t.isNumPy();
      previous = t;
      if (t.isComplex()) {
        // Complex numbers are not ordered: only == and != compare them.
        const std::string &next = ops[std::min(i, ops.size() - 1)]->text;
        const std::string &previous = ops[i == 0 ? 0 : i - 1]->text;
        for (const std::string *o : {&next, &previous})
          if (*o != "Eq" && *o != "NotEq")
            fail(CompileError::Kind::Typing, fn, expr,
                 "ordering comparisons are not supported between complex numbers");
        continue;
      }
      if (t.kind == Type::Kind::Bottom || t.isNumeric())
        continue;
      fail(CompileError::Kind::Unsupported, fn, *operands[i],
           "comparing values of type " + t.str() + " is not supported");
    }
    for (const SExpr *op : ops)
      if (op->text == "Is" || op->text == "IsNot" || op->text == "In" ||
          op->text == "NotIn")
        fail(CompileError::Kind::Unsupported, fn, expr,
             "the comparison operator " + op->text + " is not supported");
    if (allNumPy)
      return Type::numpy(DType::Bool);
    return Type::boolean();
  }
  if (head == "IfExp") {
    exprType(spec, expr.field(0));
    Type a = exprType(spec, expr.field(1));
    Type b = exprType(spec, expr.field(2));
    Type result;
    if (!unify(a, b, result))
      fail(CompileError::Kind::Typing, fn, expr,
           "the branches of this conditional expression have conflicting "
           "types " + a.str() + " and " + b.str());
    return result;
  }
  if (head == "Call")
    return callType(spec, expr);
  if (head == "Tuple") {
    std::vector<Type> elements;
    for (size_t i = 0; i < expr.numFields(); ++i) {
      if (expr.field(i).head() == "Starred")
        fail(CompileError::Kind::Unsupported, fn, expr.field(i),
             "starred expressions are not supported");
      elements.push_back(exprType(spec, expr.field(i)));
    }
    for (const Type &t : elements)
      if (t.kind == Type::Kind::Bottom)
        return Type::bottom();
    return Type::tuple(std::move(elements));
  }
  if (head == "Subscript") {
    Type base = exprType(spec, expr.field(0));
    const SExpr &index = expr.field(1);
    if (base.kind == Type::Kind::Bottom)
      return base;
    if (base.kind == Type::Kind::Array)
      return subscriptType(spec, expr);
    if (base.kind != Type::Kind::Tuple)
      fail(CompileError::Kind::Unsupported, fn, expr,
           "indexing a " + base.str() + " is not supported");
    bool negative = index.head() == "UnaryOp" && index.field(0).text == "USub" &&
                    index.field(1).head() == "Const";
    const SExpr &constant = negative ? index.field(1) : index;
    if (constant.head() != "Const" ||
        constant.field(0).kind != SExpr::Kind::Integer)
      fail(CompileError::Kind::Unsupported, fn, index,
           "tuples can only be indexed by integer constants");
    long long i = std::strtoll(constant.field(0).text.c_str(), nullptr, 10);
    if (negative)
      i = -i;
    long long n = static_cast<long long>(base.elements.size());
    if (i < -n || i >= n)
      fail(CompileError::Kind::Typing, fn, index, "tuple index out of range");
    return base.elements[i < 0 ? i + n : i];
  }
  if (head == "Unsupported")
    fail(CompileError::Kind::Unsupported, fn, expr,
         expr.field(0).text + " expressions are not supported");
  fail(CompileError::Kind::Unsupported, fn, expr,
       head + " expressions are not supported");
}

} // namespace plait::frontend
