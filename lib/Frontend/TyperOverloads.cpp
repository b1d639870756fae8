//===- TyperOverloads.cpp - calls of targets plait.overload implements ----===//
//
// A call of an overloaded target (np.clip, a.flip(), a user's function) is
// typed per argument types by asking the options' resolver, which runs the
// Python overload's type-level function: it answers with a jitted
// implementation (typed and emitted as any jitted callee, then inlined) or
// with a ufunc loop over a scalar kernel. Resolutions are asked once per
// compilation and argument types.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace plait::frontend {

size_t libmArity(const std::string &name, bool &single) {
  // The C functions of NumPy's float loops (npy_math), by arity.
  static const std::map<std::string, size_t> arities = {
      {"sin", 1},      {"cos", 1},       {"tan", 1},   {"asin", 1},  {"acos", 1},
      {"atan", 1},     {"sinh", 1},      {"cosh", 1},  {"tanh", 1},  {"asinh", 1},
      {"acosh", 1},    {"atanh", 1},     {"exp", 1},   {"exp2", 1},  {"expm1", 1},
      {"log", 1},      {"log2", 1},      {"log10", 1}, {"log1p", 1}, {"cbrt", 1},
      {"sqrt", 1},     {"floor", 1},     {"ceil", 1},  {"trunc", 1}, {"rint", 1},
      {"fabs", 1},     {"atan2", 2},     {"hypot", 2}, {"pow", 2},   {"fmod", 2},
      {"copysign", 2}, {"nextafter", 2}, {"round", 1}, {"logb", 1},  {"fma", 3},
      {"ldexp", 2}}; // ldexp's exponent: a whole float
  auto found = arities.find(name);
  single = false;
  if (found == arities.end() && name.size() > 1 && name.back() == 'f') {
    // "<name>f": the C library's float version, computing in float32.
    found = arities.find(name.substr(0, name.size() - 1));
    single = found != arities.end();
  }
  return found == arities.end() ? 0 : found->second;
}

bool isComplexLibm(const std::string &name, bool &single) {
  // The C library's complex functions NumPy's complex loops call.
  static const std::set<std::string> names = {"cexp",  "clog",  "csqrt",  "csin",   "ccos",
                                              "ctan",  "csinh", "ccosh",  "ctanh",  "casin",
                                              "cacos", "catan", "casinh", "cacosh", "catanh"};
  single = !names.count(name) && name.size() > 1 && name.back() == 'f' &&
           names.count(name.substr(0, name.size() - 1));
  return single || names.count(name);
}

const FunctionSource &Typer::functionSource(int id) const {
  auto fn = program.functions.find(id);
  if (fn != program.functions.end())
    return fn->second;
  auto added = overloadFunctions.find(id);
  if (added != overloadFunctions.end())
    return added->second;
  throw std::invalid_argument("snapshot lacks function " + std::to_string(id));
}

std::string Typer::overloadTarget(const Specialization &spec, const SExpr &call) const {
  if (options.overloaded.empty())
    return "";
  auto known = [&](const std::string &key) {
    return options.overloaded.count(key) ? key : std::string();
  };
  const SExpr &callee = ast::func(call);
  if (ast::is(callee, ast::NodeKind::Name)) {
    NameBinding binding = resolve(spec, ast::id(callee));
    if (binding.kind == NameBinding::Kind::MathFunction)
      return known("math." + binding.name);
  } else if (ast::is(callee, ast::NodeKind::Attribute) &&
             ast::is(ast::value(callee), ast::NodeKind::Name) &&
             resolve(spec, ast::id(ast::value(callee))).kind == NameBinding::Kind::Math) {
    return known("math." + ast::attr(callee));
  } else if (ast::is(callee, ast::NodeKind::Attribute) &&
             ast::is(ast::value(callee), ast::NodeKind::Attribute)) {
    // A ufunc's method: np.add.outer(a, b).
    std::string ufunc = numpyFunction(spec, ast::value(callee));
    if (!ufunc.empty())
      return known("numpy." + ufunc + "." + ast::attr(callee));
  }
  std::string numpyName = numpyFunction(spec, callee);
  return numpyName.empty() ? "" : known("numpy." + numpyName);
}

std::optional<Type> Typer::overloadCallType(Specialization &spec, const SExpr &call,
                                            const std::string &target,
                                            const std::vector<const SExpr *> &positional) {
  const FunctionSource &fn = *spec.source;
  OverloadRequest request;
  request.target = target;
  std::string key = target + "(";
  for (const SExpr *arg : positional) {
    if (ast::is(*arg, ast::NodeKind::Starred))
      fail(CompileError::Kind::Unsupported, fn, *arg, "*args in calls is not supported");
    Type t = exprType(spec, *arg);
    if (t.kind == Type::Kind::Bottom)
      return t; // typed in a later round
    request.positional.push_back(t);
    request.literals.push_back(literalOf(spec, *arg));
    key += t.str() + "=" + request.literals.back() + ", ";
  }
  // `call` is a call, or an operator NumPy computes with a ufunc (a ** b).
  bool isCall = ast::is(call, ast::NodeKind::Call);
  for (const SExpr *keyword : isCall ? ast::keywords(call).rest() : std::vector<const SExpr *>()) {
    const std::string &name = keyword->items.at(1).text;
    if (name == "**")
      fail(CompileError::Kind::Unsupported, fn, call, "**kwargs in calls is not supported");
    Type t = exprType(spec, keyword->items.at(2));
    if (t.kind == Type::Kind::Bottom)
      return t;
    request.keywords.emplace_back(name, t);
    request.literals.push_back(literalOf(spec, keyword->items.at(2)));
    key += name + ":" + t.str() + "=" + request.literals.back() + ", ";
  }
  auto found = resolutions.find(key);
  if (found == resolutions.end()) {
    if (!options.resolveOverload)
      fail(CompileError::Kind::Unsupported, fn, call,
           "this compilation cannot resolve plait.overload implementations");
    OverloadResolution resolution;
    try {
      resolution = options.resolveOverload(request);
    } catch (const CompileError &error) {
      fail(error.kind, fn, call, error.what());
    }
    if (!resolution.program.empty())
      for (auto &[id, source] : parseProgram(resolution.program).functions)
        if (!program.functions.count(id))
          overloadFunctions.emplace(id, std::move(source));
    found = resolutions.emplace(key, std::move(resolution)).first;
  }
  const OverloadResolution &resolution = found->second;
  if (resolution.kind == OverloadResolution::Kind::Native)
    return std::nullopt;
  // (x in seq and list operators: functions of their operands.)
  bool isOperator = !isCall && !ast::is(call, ast::NodeKind::Subscript) &&
                    !ast::is(call, ast::NodeKind::Compare) && target.rfind("list.", 0) != 0 &&
                    target.rfind("str.", 0) != 0;
  if (resolution.kind == OverloadResolution::Kind::Function && isOperator)
    fail(CompileError::Kind::Unsupported, fn, call,
         "this operator's implementation is not an elementwise loop");
  if (resolution.kind == OverloadResolution::Kind::Function)
    return jitCallType(
        spec, call, resolution.functionId,
        callArguments(spec, call, positional, functionSource(resolution.functionId)));

  // A ufunc: NumPy's broadcasting of the operands, the kernel per element;
  // out= (or one more positional argument) receives the result, where=
  // chooses the elements written.
  size_t inputs = resolution.loopInputs.size();
  const SExpr *out = nullptr, *where = nullptr;
  for (const SExpr *keyword : isCall ? ast::keywords(call).rest() : std::vector<const SExpr *>()) {
    const std::string &name = keyword->items.at(1).text;
    if (name != "out" && name != "where")
      fail(CompileError::Kind::Unsupported, fn, call,
           "the ufunc keyword " + name + "= is not supported yet (out= and where= are)");
    (name == "out" ? out : where) = &keyword->items.at(2);
  }
  std::vector<const SExpr *> operands = positional;
  std::vector<Type> operandTypes = request.positional;
  if (operands.size() == inputs + 1 && !out) {
    out = operands.back();
    operands.pop_back();
    operandTypes.pop_back();
  }
  if (operands.size() != inputs)
    fail(CompileError::Kind::Typing, fn, call,
         "this ufunc takes " + std::to_string(inputs) + " operands (and out=), not " +
             std::to_string(operands.size()));
  Type outType = out ? exprType(spec, *out) : Type::bottom();
  if (out && outType.kind == Type::Kind::Bottom)
    return outType; // typed in a later round
  if (out && outType.kind != Type::Kind::Array)
    fail(CompileError::Kind::Typing, fn, *out, "return arrays must be of ArrayType");
  std::vector<Type> kernelArguments;
  for (DType dtype : resolution.loopInputs)
    kernelArguments.push_back(Type::numpy(dtype));
  Specialization &kernel = specialize(resolution.functionId, kernelArguments, &call, &spec);
  kernel.ufuncKernel = resolution.simdProducts;
  spec.callsJit = true;
  spec.ufuncCalls[&call] = {&kernel,  resolution.loopInputs,      resolution.loopOutput,
                            operands, resolution.checkPythonInts, out,
                            where};
  if (out) { // the result is `out` itself, written here
    std::set<std::string> roots = aliasRoots(spec, *out);
    spec.writes.insert(roots.begin(), roots.end());
    spec.loops = true;
    return outType;
  }
  int ndim = 0;
  bool anyArray = false;
  for (const Type &t : operandTypes)
    if (t.kind == Type::Kind::Array) {
      anyArray = true;
      ndim = std::max(ndim, t.ndim);
    } else if (!t.isNumber()) {
      fail(CompileError::Kind::Typing, fn, call,
           "a ufunc's operands are arrays and numbers, not " + t.str());
    }
  if (!anyArray)
    return Type::numpy(resolution.loopOutput);
  spec.loops = true;
  return Type::newArray(resolution.loopOutput, ndim, operandTypes);
}

namespace {

/// A constant atom in Python's literal syntax ("" for one without any).
std::string literalOfAtom(const SExpr &atom) {
  switch (atom.kind) {
  case SExpr::Kind::Integer:
    return atom.text;
  case SExpr::Kind::Float: {
    if (std::isnan(atom.floating))
      return "";
    if (std::isinf(atom.floating))
      return atom.floating > 0 ? "1e999" : "-1e999";
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", atom.floating);
    std::string shown = text;
    // (A float always shows as one: 1.0, not 1.)
    if (shown.find_first_of(".e") == std::string::npos)
      shown += ".0";
    return shown;
  }
  case SExpr::Kind::True:
    return "True";
  case SExpr::Kind::False:
    return "False";
  case SExpr::Kind::None:
    return "None";
  case SExpr::Kind::String:
    return pythonStringLiteral(atom.text);
  case SExpr::Kind::List:
    if (ast::is(atom, ast::NodeKind::Tuple)) {
      std::string shown = "(";
      for (const SExpr *element : atom.rest()) {
        std::string item = literalOfAtom(*element);
        if (item.empty())
          return "";
        shown += item + ", ";
      }
      return shown + ")";
    }
    return "";
  default:
    return "";
  }
}

} // namespace

std::string Typer::literalOf(const Specialization &spec, const SExpr &node) const {
  if (const SExpr *atom = constantAtom(spec, node))
    return literalOfAtom(*atom);
  if (ast::is(node, ast::NodeKind::UnaryOp) && ast::op(node) == ast::Operator::USub &&
      ast::is(ast::operand(node), ast::NodeKind::Const)) { // -1, -2.5
    const SExpr &value = ast::value(ast::operand(node));
    std::string shown = value.kind == SExpr::Kind::Integer || value.kind == SExpr::Kind::Float
                            ? literalOfAtom(value)
                            : "";
    return shown.empty() ? "" : "-" + shown;
  }
  if (ast::is(node, ast::NodeKind::Tuple) || ast::is(node, ast::NodeKind::List)) {
    std::string shown = "(";
    for (const SExpr *element : ast::elts(node)) {
      std::string item = literalOf(spec, *element);
      if (item.empty())
        return "";
      shown += item + ", ";
    }
    return shown + ")";
  }
  return "";
}

SequenceLayout sequenceLayout(const Type &type) {
  SequenceLayout layout;
  if (type.kind == Type::Kind::Array) {
    layout.arrayRank = type.ndim;
    return layout;
  }
  if (type.kind != Type::Kind::Tuple)
    return layout; // a number
  layout.dims.push_back(static_cast<int64_t>(type.elements.size()));
  if (type.elements.empty())
    return layout;
  std::vector<SequenceLayout> children;
  for (const Type &element : type.elements)
    children.push_back(sequenceLayout(element));
  const SequenceLayout &first = children[0];
  bool anyArray = false, anyTuple = false;
  for (const SequenceLayout &child : children) {
    layout.mixesArrays |= child.mixesArrays;
    layout.agrees &= child.agrees && child.dims == first.dims && child.arrayRank == first.arrayRank;
    anyArray |= child.dims.empty() && child.arrayRank > 0;
    anyTuple |= !child.dims.empty();
  }
  layout.mixesArrays |= anyArray && anyTuple;
  if (layout.agrees) {
    layout.dims.insert(layout.dims.end(), first.dims.begin(), first.dims.end());
    layout.arrayRank = first.arrayRank;
    return layout;
  }
  // NumPy's "detected shape": the dimensions all children share.
  for (size_t k = 0;; ++k) {
    bool shared = true;
    for (const SequenceLayout &child : children)
      shared &= k < child.dims.size() && child.dims[k] == first.dims[k];
    if (!shared)
      break;
    layout.dims.push_back(first.dims[k]);
  }
  return layout;
}

Type Typer::arrayFromSequenceType(Specialization &spec, const SExpr &call,
                                  const std::vector<const SExpr *> &args) {
  // array_from_sequence(values, dtype): a new C-contiguous array of the
  // numbers and arrays in `values` (nested tuples), as np.array makes it.
  const FunctionSource &fn = *spec.source;
  if (args.size() != 2)
    fail(CompileError::Kind::Typing, fn, call,
         "array_from_sequence() takes the values and the dtype");
  Type values = exprType(spec, *args[0]);
  if (values.kind == Type::Kind::Bottom)
    return values;
  DType dtype = dtypeOf(spec, *args[1]);
  std::function<bool(const Type &)> valid = [&](const Type &t) {
    if (t.kind == Type::Kind::Tuple)
      return std::all_of(t.elements.begin(), t.elements.end(), valid);
    return t.kind == Type::Kind::Array || t.isNumber();
  };
  if (values.kind != Type::Kind::Tuple || !valid(values))
    fail(CompileError::Kind::Unsupported, fn, *args[0],
         "array_from_sequence() takes a tuple of numbers, arrays and tuples, not " + values.str());
  SequenceLayout layout = sequenceLayout(values);
  if (layout.mixesArrays)
    fail(CompileError::Kind::Unsupported, fn, *args[0],
         "an array made of arrays beside sequences at one level is not supported yet");
  int rank = static_cast<int>(layout.dims.size()) + layout.arrayRank;
  if (!layout.agrees) // NumPy raises when it runs: so does the code
    rank = static_cast<int>(layout.dims.size());
  if (rank > 8)
    fail(CompileError::Kind::Unsupported, fn, call,
         "arrays of more than 8 dimensions are not supported");
  return Type::array(dtype, rank, true);
}

Type Typer::subscriptCallType(Specialization &spec, const SExpr &subscript,
                              const std::string &target) {
  const FunctionSource &fn = *spec.source;
  auto found = subscriptArguments.find(&subscript);
  if (found == subscriptArguments.end()) {
    const SExpr &index = ast::slice(subscript);
    std::vector<const SExpr *> slices = ast::is(index, ast::NodeKind::Tuple)
                                            ? ast::elts(index)
                                            : std::vector<const SExpr *>{&index};
    auto constant = [&](const SExpr &at, const char *digits) {
      SExpr made = madeNode("Const", at);
      made.items.push_back(SExpr{SExpr::Kind::Integer, digits, 0, {}});
      return made;
    };
    SExpr starts = madeNode("Tuple", index), stops = madeNode("Tuple", index),
          steps = madeNode("Tuple", index);
    for (const SExpr *slice : slices) {
      if (!ast::is(*slice, ast::NodeKind::Slice) || ast::upper(*slice).kind == SExpr::Kind::None)
        fail(CompileError::Kind::Unsupported, fn, *slice,
             "this subscript takes slices with a stop (start:stop:step)");
      const SExpr &lower = ast::lower(*slice), &step = ast::step(*slice);
      starts.items.push_back(lower.kind == SExpr::Kind::None ? constant(*slice, "0") : lower);
      stops.items.push_back(ast::upper(*slice));
      steps.items.push_back(step.kind == SExpr::Kind::None ? constant(*slice, "1") : step);
    }
    // Whether the subscript was one slice (np.mgrid[0:5] is np.arange's).
    SExpr single = madeNode("Const", index);
    single.items.push_back(SExpr{
        ast::is(index, ast::NodeKind::Tuple) ? SExpr::Kind::False : SExpr::Kind::True, "", 0, {}});
    std::vector<const SExpr *> arguments;
    for (SExpr *made : {&starts, &stops, &steps, &single}) {
      synthesizedNodes.push_back(std::move(*made));
      arguments.push_back(&synthesizedNodes.back());
    }
    found = subscriptArguments.emplace(&subscript, std::move(arguments)).first;
  }
  std::optional<Type> resolved = overloadCallType(spec, subscript, target, found->second);
  if (!resolved)
    fail(CompileError::Kind::Unsupported, fn, subscript,
         "no plait.overload implementation applies");
  return *resolved;
}

Type Typer::stridedViewType(Specialization &spec, const SExpr &call,
                            const std::vector<const SExpr *> &args) {
  // strided_view(a, offset, shape, strides[, ndim]): shape and strides are
  // tuples of ints or 1-D integer arrays; the view's rank is a tuple's
  // length or the constant ndim.
  const FunctionSource &fn = *spec.source;
  if (args.size() != 4 && args.size() != 5)
    fail(CompileError::Kind::Typing, fn, call,
         "strided_view() takes an array, an offset, a shape, strides and optionally the rank");
  Type array = exprType(spec, *args[0]);
  Type offset = exprType(spec, *args[1]);
  if (array.kind == Type::Kind::Bottom || offset.kind == Type::Kind::Bottom)
    return Type::bottom();
  if (array.kind != Type::Kind::Array || !offset.isIntegral())
    fail(CompileError::Kind::Typing, fn, call, "strided_view() views an array at an int offset");
  std::optional<int> rank;
  for (size_t i = 2; i < 4; ++i) {
    Type t = exprType(spec, *args[i]);
    if (t.kind == Type::Kind::Bottom)
      return t;
    bool ints = true;
    for (const Type &element : t.elements)
      ints &= element.isIntegral();
    if (t.kind == Type::Kind::Tuple && ints) {
      if (rank && *rank != static_cast<int>(t.elements.size()))
        fail(CompileError::Kind::Typing, fn, *args[i],
             "strided_view()'s shape and strides differ in length");
      rank = static_cast<int>(t.elements.size());
    } else if (!(t.kind == Type::Kind::Array && t.ndim == 1 && t.elementType().isIntegral())) {
      fail(CompileError::Kind::Typing, fn, *args[i],
           "strided_view() takes a shape and strides as tuples of ints or 1-D integer arrays");
    }
  }
  if (args.size() == 5) {
    std::string literal = literalOf(spec, *args[4]);
    if (literal.empty() || literal.find_first_not_of("0123456789") != std::string::npos)
      fail(CompileError::Kind::Typing, fn, *args[4], "strided_view()'s rank is a constant int");
    rank = std::stoi(literal);
  }
  if (!rank)
    fail(CompileError::Kind::Typing, fn, call,
         "strided_view() needs its rank: a tuple shape or strides, or the constant ndim");
  return Type::array(array.dtype, *rank);
}

Type Typer::intrinsicCallType(Specialization &spec, const SExpr &call, const std::string &name) {
  const FunctionSource &fn = *spec.source;
  if (ast::keywords(call).items.size() > 1)
    fail(CompileError::Kind::Unsupported, fn, call, name + "() takes no keyword arguments");
  std::vector<const SExpr *> args = ast::args(call).rest();
  if (std::optional<Type> primitive = strIntrinsicType(spec, call, name))
    return *primitive;
  if (name == "raise_if") {
    auto isString = [&](const SExpr *node) {
      const SExpr *atom = constantAtom(spec, *node);
      return atom && atom->kind == SExpr::Kind::String;
    };
    if (args.size() < 3 || !isString(args[1]) || !isString(args[2]))
      fail(CompileError::Kind::Typing, fn, call,
           "raise_if() takes a condition, an exception class name and a message (constant "
           "strings), then the numbers the message's {0}, {1}... ({0!f}: a float) show "
           "(a tuple's elements count one by one)");
    Type condition = exprType(spec, *args[0]);
    if (condition.kind != Type::Kind::Bottom && !condition.isNumeric())
      fail(CompileError::Kind::Typing, fn, *args[0], "raise_if()'s condition is a bool");
    for (size_t i = 3; i < args.size(); ++i) {
      Type value = exprType(spec, *args[i]);
      bool numbers = value.isNumeric();
      if (value.kind == Type::Kind::Tuple) {
        numbers = true;
        for (const Type &element : value.elements)
          numbers &= element.isNumeric();
      }
      if (value.kind != Type::Kind::Bottom && !numbers)
        fail(CompileError::Kind::Typing, fn, *args[i],
             "raise_if() shows ints and floats (and tuples of them)");
    }
    return Type::none();
  }
  if (name == "strided_view")
    return stridedViewType(spec, call, args);
  if (name == "array_from_sequence")
    return arrayFromSequenceType(spec, call, args);
  // NumPy's legacy random streams (the runtime's per-thread state).
  static const std::map<std::string, std::pair<size_t, Type::Kind>> random = {
      {"random_seed", {1, Type::Kind::None}},     {"random_double", {0, Type::Kind::Float}},
      {"random_gauss", {0, Type::Kind::Float}},   {"random_integer", {2, Type::Kind::Int}},
      {"random_interval", {1, Type::Kind::Int}}};
  auto draw = random.find(name);
  if (draw != random.end()) {
    if (args.size() != draw->second.first)
      fail(CompileError::Kind::Typing, fn, call,
           name + "() takes " + std::to_string(draw->second.first) + " arguments");
    for (const SExpr *arg : args) {
      Type t = exprType(spec, *arg);
      if (t.kind != Type::Kind::Bottom && !t.isIntegral())
        fail(CompileError::Kind::Typing, fn, *arg, name + "() takes ints");
    }
    return Type{draw->second.second, {}};
  }
  bool single = false;
  if (isComplexLibm(name, single)) {
    // One number (real ones have a zero imaginary part): a complex128, or
    // a complex64 computed in float by the "<name>f" function.
    if (args.size() != 1)
      fail(CompileError::Kind::Typing, fn, call, name + "() takes 1 argument");
    Type t = exprType(spec, *args[0]);
    if (t.kind == Type::Kind::Bottom)
      return t;
    if (!t.isNumber())
      fail(CompileError::Kind::Typing, fn, *args[0], name + "() of " + t.str());
    if (single)
      return Type::numpy(DType::Complex64);
    return t.isNumPy() ? Type::numpy(DType::Complex128) : Type::complex();
  }
  size_t arity = libmArity(name, single);
  if (arity == 0)
    fail(CompileError::Kind::Unsupported, fn, call, "no libm intrinsic named " + name);
  if (args.size() != arity)
    fail(CompileError::Kind::Typing, fn, call,
         name + "() takes " + std::to_string(arity) + " arguments");
  std::optional<DType> numpyFloat;
  for (const SExpr *arg : args) {
    Type t = exprType(spec, *arg);
    if (t.kind == Type::Kind::Bottom)
      return t;
    if (!t.isNumeric())
      fail(CompileError::Kind::Typing, fn, *arg, name + "() of " + t.str());
    if (t.isNumPy()) {
      DType dtype = isFloatDType(t.dtype) ? t.dtype : DType::Float64;
      numpyFloat = numpyFloat ? promoteDTypes(*numpyFloat, dtype) : dtype;
    }
  }
  if (single)
    return Type::numpy(DType::Float32);
  return numpyFloat ? Type::numpy(*numpyFloat) : Type::floating();
}

} // namespace plait::frontend
