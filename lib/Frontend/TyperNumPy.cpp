//===- TyperNumPy.cpp - typing NumPy calls, subscripts and aliases ----------===//
#include "Typer.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace plait::frontend {

bool Typer::namesModule(const Specialization &spec, const SExpr &node) const {
  if (namesLinalg(spec, node))
    return true;
  if (!ast::is(node, ast::NodeKind::Name))
    return false;
  NameBinding::Kind kind = resolve(spec, ast::id(node)).kind;
  return kind == NameBinding::Kind::NumPy || kind == NameBinding::Kind::Math;
}

bool Typer::namesLinalg(const Specialization &spec, const SExpr &node) const {
  // `la` (import numpy.linalg as la) or `np.linalg`.
  if (ast::is(node, ast::NodeKind::Name))
    return resolve(spec, ast::id(node)).kind == NameBinding::Kind::NumPyLinalg;
  return ast::is(node, ast::NodeKind::Attribute) && ast::attr(node) == "linalg" &&
         ast::is(ast::value(node), ast::NodeKind::Name) &&
         resolve(spec, ast::id(ast::value(node))).kind == NameBinding::Kind::NumPy;
}

std::vector<const SExpr *> Typer::positionalArguments(const Specialization &spec,
                                                      const SExpr &call) const {
  std::vector<const SExpr *> args = ast::args(call).rest();
  if (spec.arrayMethods.count(&call))
    args.insert(args.begin(), &ast::value(ast::func(call)));
  return args;
}

std::string Typer::numpyFunction(const Specialization &spec, const SExpr &callee) const {
  if (ast::is(callee, ast::NodeKind::Attribute) && namesLinalg(spec, ast::value(callee)))
    return "linalg." + ast::attr(callee);
  if (ast::is(callee, ast::NodeKind::Attribute) &&
      ast::is(ast::value(callee), ast::NodeKind::Name) &&
      resolve(spec, ast::id(ast::value(callee))).kind == NameBinding::Kind::NumPy)
    // np.ndarray(shape, dtype) makes an uninitialised array, as np.empty.
    return ast::attr(callee) == "ndarray" ? "empty" : ast::attr(callee);
  if (ast::is(callee, ast::NodeKind::Name)) {
    NameBinding binding = resolve(spec, ast::id(callee));
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
  if (ast::is(node, ast::NodeKind::Attribute) && ast::is(ast::value(node), ast::NodeKind::Name) &&
      resolve(spec, ast::id(ast::value(node))).kind == NameBinding::Kind::NumPy &&
      dtypeFromName(ast::attr(node), dtype))
    return dtype;
  if (ast::isStringConstant(node) && dtypeFromString(ast::value(node).text, dtype))
    return dtype;
  if (ast::is(node, ast::NodeKind::Attribute) && ast::attr(node) == "dtype") {
    // dtype=a.dtype: the array's dtype, known when compiling.
    Type array = exprType(spec, ast::value(node));
    if (array.kind == Type::Kind::Array)
      return array.dtype;
  }
  if (ast::is(node, ast::NodeKind::Name)) {
    NameBinding binding = resolve(spec, ast::id(node));
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
    if (binding.kind == NameBinding::Kind::Local) { // a dtype passed or assigned
      Type t = exprType(spec, node);
      if (t.kind == Type::Kind::DType)
        return t.dtype;
      if (t.kind == Type::Kind::Bottom)
        return DType::Float64; // typed in a later round
    }
  }
  fail(CompileError::Kind::Unsupported, fn, node,
       "unsupported dtype: use float64, float32, int64, int32, int16, int8, "
       "uint8, uint16, uint32, uint64, complex128 or bool (as np.float64, float, int, bool, "
       "complex or a string)");
}

namespace {
/// NumPy's parameters of each reduction, positional ones first; the
/// keyword-only ones after the empty name.
const std::vector<std::string> &reductionParameters(const std::string &name) {
  static const std::map<std::string, std::vector<std::string>> parameters = {
      {"sum", {"a", "axis", "dtype", "out", "keepdims", "initial", "where"}},
      {"prod", {"a", "axis", "dtype", "out", "keepdims", "initial", "where"}},
      {"mean", {"a", "axis", "dtype", "out", "keepdims", "", "where"}},
      {"std", {"a", "axis", "dtype", "out", "ddof", "keepdims", "", "where", "mean", "correction"}},
      {"var", {"a", "axis", "dtype", "out", "ddof", "keepdims", "", "where", "mean", "correction"}},
      {"min", {"a", "axis", "out", "keepdims", "initial", "where"}},
      {"max", {"a", "axis", "out", "keepdims", "initial", "where"}},
      {"amin", {"a", "axis", "out", "keepdims", "initial", "where"}},
      {"amax", {"a", "axis", "out", "keepdims", "initial", "where"}},
      {"argmin", {"a", "axis", "out", "", "keepdims"}},
      {"argmax", {"a", "axis", "out", "", "keepdims"}},
      {"any", {"a", "axis", "out", "keepdims", "", "where"}},
      {"all", {"a", "axis", "out", "keepdims", "", "where"}},
      {"cumsum", {"a", "axis", "dtype", "out"}},
      {"cumprod", {"a", "axis", "dtype", "out"}},
  };
  return parameters.at(name);
}

} // namespace

bool isNoneConstant(const SExpr &node) {
  return node.kind == SExpr::Kind::None ||
         (ast::is(node, ast::NodeKind::Const) && ast::value(node).kind == SExpr::Kind::None);
}

std::map<std::string, const SExpr *>
Typer::bindArguments(Specialization &spec, const SExpr &call,
                     const std::vector<std::string> &parameters, const std::string &callee,
                     const std::string &positionalOnly) {
  const FunctionSource &fn = *spec.source;
  std::map<std::string, const SExpr *> bound;
  std::vector<const SExpr *> args = positionalArguments(spec, call);
  size_t positional = std::find(parameters.begin(), parameters.end(), "") - parameters.begin();
  if (args.size() > positional)
    fail(CompileError::Kind::Typing, fn, call,
         callee + " takes at most " + std::to_string(positional) + " positional arguments");
  for (size_t i = 0; i < args.size(); ++i)
    bound[parameters[i]] = args[i];
  for (const SExpr *keyword : ast::keywords(call).rest()) {
    const std::string &parameter = keyword->items.at(1).text;
    if (parameter.empty() || parameter == positionalOnly ||
        std::find(parameters.begin(), parameters.end(), parameter) == parameters.end())
      fail(CompileError::Kind::Typing, fn, *keyword,
           callee + " got an unexpected keyword argument '" + parameter + "'");
    if (!bound.emplace(parameter, &keyword->items.at(2)).second)
      fail(CompileError::Kind::Typing, fn, *keyword,
           callee + " got multiple values for argument '" + parameter + "'");
  }
  return bound;
}

bool isReductionName(const std::string &name) {
  static const std::set<std::string> names = {"sum",    "prod", "mean", "std",    "var",
                                              "min",    "max",  "amin", "amax",   "argmin",
                                              "argmax", "any",  "all",  "cumsum", "cumprod"};
  return names.count(name) > 0;
}

Specialization::Reduction Typer::reductionOf(Specialization &spec, const SExpr &call,
                                             const std::string &name, int ndim) {
  const FunctionSource &fn = *spec.source;
  std::string callee = spec.arrayMethods.count(&call) ? name + "()" : "np." + name + "()";
  // (the array is positional only)
  std::map<std::string, const SExpr *> bound =
      bindArguments(spec, call, reductionParameters(name), callee, /*positionalOnly=*/"a");
  Specialization::Reduction reduction;
  for (auto &[parameter, node] : bound) {
    if (parameter == "a" || parameter == "axis")
      continue;
    if (parameter == "keepdims") {
      // A constant, or a global (or closure value) bound to one.
      const SExpr *atom = constantAtom(spec, *node);
      SExpr::Kind kind = atom ? atom->kind : SExpr::Kind::List;
      if (kind != SExpr::Kind::True && kind != SExpr::Kind::False)
        fail(CompileError::Kind::Unsupported, fn, *node, "keepdims must be True or False");
      reduction.keepdims = kind == SExpr::Kind::True;
    } else if (parameter == "dtype") {
      if (!isNoneConstant(*node))
        reduction.dtype = dtypeOf(spec, *node);
    } else if (parameter == "ddof") {
      Type t = exprType(spec, *node);
      if (t.kind != Type::Kind::Bottom && !t.isIntegral())
        fail(CompileError::Kind::Unsupported, fn, *node, "ddof must be an int");
      reduction.ddof = node;
    } else if (!isNoneConstant(*node)) {
      fail(CompileError::Kind::Unsupported, fn, *node,
           callee + " argument '" + parameter + "' is not supported");
    }
  }
  // The axes: None, an int constant (negative counts from the end) or, for
  // the reductions that take several, a tuple of them.
  auto found = bound.find("axis");
  // A global (or a plait.overload implementation's closure value) bound to
  // a constant axis is that constant.
  const SExpr *atom = found != bound.end() && ast::is(*found->second, ast::NodeKind::Name)
                          ? constantAtom(spec, *found->second)
                          : nullptr;
  if (found == bound.end() || isNoneConstant(*found->second) ||
      (atom && atom->kind == SExpr::Kind::None)) {
    for (int axis = 0; axis < ndim; ++axis)
      reduction.axes.push_back(axis);
    return reduction;
  }
  reduction.axisNone = false;
  const SExpr &axisNode = *found->second;
  bool single = name == "argmin" || name == "argmax" || name == "cumsum" || name == "cumprod";
  const std::string notConstant = "axis must be an integer constant or a tuple of them";
  // The axes given, each with the node an error about it points at.
  std::vector<std::pair<long long, const SExpr *>> given;
  if (atom) {
    std::vector<const SExpr *> values = {atom};
    if (ast::is(*atom, ast::NodeKind::Tuple) && !single)
      values = atom->rest();
    for (const SExpr *value : values) {
      if (value->kind != SExpr::Kind::Integer)
        fail(CompileError::Kind::Unsupported, fn, axisNode, notConstant);
      given.emplace_back(std::strtoll(value->text.c_str(), nullptr, 10), &axisNode);
    }
  } else {
    std::vector<const SExpr *> items = {&axisNode};
    if (ast::is(axisNode, ast::NodeKind::Tuple)) {
      if (single)
        fail(CompileError::Kind::Typing, fn, axisNode,
             "'tuple' object cannot be interpreted as an integer");
      items = ast::elts(axisNode);
      if (items.empty())
        fail(CompileError::Kind::Unsupported, fn, axisNode, "axis=() is not supported");
    }
    for (const SExpr *item : items)
      given.emplace_back(constantAxisValue(spec, *item, notConstant), item);
  }
  for (const auto &[value, where] : given) {
    int axis = normalisedAxis(spec, *where, value, ndim);
    if (reduction.reduces(axis))
      fail(CompileError::Kind::Typing, fn, *where, "duplicate value in 'axis'");
    reduction.axes.push_back(axis);
  }
  std::sort(reduction.axes.begin(), reduction.axes.end());
  return reduction;
}

int Typer::constantAxis(Specialization &spec, const SExpr &node, int ndim,
                        const std::string &notConstant) {
  return normalisedAxis(spec, node, constantAxisValue(spec, node, notConstant), ndim);
}

long long Typer::constantAxisValue(Specialization &spec, const SExpr &node,
                                   const std::string &notConstant) {
  bool negative = ast::is(node, ast::NodeKind::UnaryOp) && ast::op(node) == ast::Operator::USub;
  const SExpr &constant = negative ? ast::operand(node) : node;
  if (!ast::is(constant, ast::NodeKind::Const) || ast::value(constant).kind != SExpr::Kind::Integer)
    fail(CompileError::Kind::Unsupported, *spec.source, node, notConstant);
  long long value = std::strtoll(ast::value(constant).text.c_str(), nullptr, 10);
  return negative ? -value : value;
}

int Typer::normalisedAxis(Specialization &spec, const SExpr &node, long long value, int ndim) {
  if (value < -ndim || value >= ndim)
    fail(CompileError::Kind::Typing, *spec.source, node,
         "axis " + std::to_string(value) + " is out of bounds for array of dimension " +
             std::to_string(ndim));
  return static_cast<int>(value < 0 ? value + ndim : value);
}

const SExpr *Typer::constantAtom(const Specialization &spec, const SExpr &node) const {
  if (ast::is(node, ast::NodeKind::Const))
    return &ast::value(node);
  if (!ast::is(node, ast::NodeKind::Name))
    return nullptr;
  NameBinding binding = resolve(spec, ast::id(node));
  return binding.kind == NameBinding::Kind::Constant ? binding.value : nullptr;
}

DType Typer::reductionDType(Specialization &spec, const SExpr &call, const std::string &name,
                            DType dtype, const std::optional<DType> &requested) {
  const FunctionSource &fn = *spec.source;
  bool complex = isComplexDType(dtype);
  if (requested) {
    if (name == "min" || name == "max" || name == "amin" || name == "amax" || name == "argmin" ||
        name == "argmax" || name == "any" || name == "all")
      fail(CompileError::Kind::Typing, fn, call,
           name + "() got an unexpected keyword argument 'dtype'");
    if (isComplexDType(*requested) != complex)
      fail(CompileError::Kind::Unsupported, fn, call,
           "np." + name + "() with dtype=" + dtypeName(*requested) + " of " + dtypeName(dtype) +
               " is not supported");
  }
  if (complex && name != "sum" && name != "prod" && name != "mean" && name != "std" &&
      name != "var" && name != "cumsum" && name != "cumprod" && name != "any" && name != "all")
    fail(CompileError::Kind::Unsupported, fn, call,
         "np." + name + "() of complex arrays is not supported");
  if (name == "argmin" || name == "argmax")
    return DType::Int64;
  if (name == "any" || name == "all")
    return DType::Bool;
  if (name == "min" || name == "max" || name == "amin" || name == "amax")
    return dtype;
  // NumPy's result types: float32 stays float32; integer sums widen to
  // the platform's (u)int64; means and variances of integers are float64;
  // the variance of complex numbers is real.
  if (name == "std" || name == "var") {
    DType computed = requested ? *requested : dtype;
    if (isComplexDType(computed))
      return complexPartDType(computed);
    return isFloatDType(computed) ? computed : DType::Float64;
  }
  if (requested)
    return *requested;
  if (name == "mean")
    return complex || isFloatDType(dtype) ? dtype : DType::Float64;
  if (complex || isFloatDType(dtype))
    return dtype;
  return isUnsignedDType(dtype) ? DType::UInt64 : DType::Int64;
}

int Typer::shapeRank(Specialization &spec, const SExpr &node) {
  Type t = exprType(spec, node);
  if (t.kind == Type::Kind::Bottom)
    return 0; // typed in a later round (a jitted callee's result's shape)
  if (t.isIntegral())
    return 1;
  if (t.kind == Type::Kind::Tuple && !t.elements.empty() && t.elements.size() <= 8) {
    for (const Type &e : t.elements)
      if (!e.isIntegral())
        fail(CompileError::Kind::Typing, *spec.source, node,
             "array shapes are ints or tuples of ints, not " + t.str());
    return static_cast<int>(t.elements.size());
  }
  fail(CompileError::Kind::Typing, *spec.source, node,
       "array shapes are ints or tuples of 1 to 8 ints, not " + t.str());
}

Type Typer::numpyCallType(Specialization &spec, const SExpr &call, const std::string &name) {
  if (name.rfind("linalg.", 0) == 0)
    return linalgCallType(spec, call, name.substr(7));
  const FunctionSource &fn = *spec.source;
  std::vector<const SExpr *> args = positionalArguments(spec, call);
  const SExpr *dtypeNode = nullptr;
  for (const SExpr *keyword : ast::keywords(call).rest()) {
    if (isReductionName(name))
      break; // see reductionOf
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
  // The array an array function or method works on (Bottom: typed in a
  // later round).
  auto arrayArgument = [&]() {
    Type a = exprType(spec, *args[0]);
    if (a.kind != Type::Kind::Bottom && a.kind != Type::Kind::Array)
      fail(CompileError::Kind::Unsupported, fn, call,
           "np." + name + "() of a non-array is not supported");
    return a;
  };
  DType scalar;
  if (dtypeFromName(name, scalar)) {
    // np.float32(x): a NumPy scalar, converted as NumPy converts.
    if (ast::keywords(call).items.size() > 1)
      fail(CompileError::Kind::Unsupported, fn, call, "np." + name + "() takes no keywords here");
    arity(0, 1);
    uint64_t bits;
    if (!args.empty() && !(scalar == DType::UInt64 && bigUnsignedConstant(*args[0], bits))) {
      Type t = exprType(spec, *args[0]);
      if (t.kind != Type::Kind::Bottom && !t.isNumeric() &&
          !(t.isComplex() && isComplexDType(scalar)))
        fail(CompileError::Kind::Typing, fn, *args[0],
             "np." + name + "() of " + t.str() + " is not supported");
    }
    return Type::numpy(scalar);
  }
  if (name == "empty" || name == "zeros" || name == "ones") {
    takeDtype(1);
    arity(1, 1);
    int rank = shapeRank(spec, *args[0]);
    if (rank == 0)
      return Type::bottom();
    return Type::array(dtypeNode ? dtypeOf(spec, *dtypeNode) : DType::Float64, rank, true);
  }
  if (name == "full") {
    takeDtype(2);
    arity(2, 2);
    int rank = shapeRank(spec, *args[0]);
    if (rank == 0)
      return Type::bottom();
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
  if (isReductionName(name)) {
    if (args.empty())
      fail(CompileError::Kind::Typing, fn, call, "np." + name + "() needs an array");
    Type array = exprType(spec, *args[0]);
    if (array.kind == Type::Kind::Bottom)
      return array;
    if (array.kind != Type::Kind::Array)
      fail(CompileError::Kind::Typing, fn, *args[0],
           "np." + name + "() needs an array here, not " + array.str());
    spec.loops = true;
    Specialization::Reduction reduction = reductionOf(spec, call, name, array.ndim);
    spec.reductions[&call] = reduction;
    DType dtype = reductionDType(spec, call, name, array.dtype, reduction.dtype);
    if (name == "cumsum" || name == "cumprod") // the same shape, or flattened
      return Type::array(dtype, reduction.axisNone ? 1 : array.ndim, true);
    int kept = array.ndim - static_cast<int>(reduction.axes.size());
    if (kept == 0 && !reduction.keepdims)
      return Type::numpy(dtype);
    return Type::array(dtype, reduction.keepdims ? array.ndim : kept, true);
  }
  if (name == "copy" || name == "transpose" || name == "astype") {
    if (name == "astype")
      takeDtype(1);
    arity(1, 1);
    Type a = arrayArgument();
    if (a.kind == Type::Kind::Bottom)
      return a;
    if (name == "transpose") // a view with the axes reversed: C order becomes Fortran order
      return a.ndim <= 1 ? a : Type::array(a.dtype, a.ndim, a.fortran, a.contiguous);
    spec.loops = true;
    if (name == "copy")
      return Type::array(a.dtype, a.ndim, true);
    if (!dtypeNode)
      fail(CompileError::Kind::Typing, fn, call, "astype() missing required argument 'dtype'");
    return Type::array(dtypeOf(spec, *dtypeNode), a.ndim, true);
  }
  if (name == "conj" || name == "conjugate") {
    arity(1, 1);
    Type a = arrayArgument();
    if (a.kind == Type::Kind::Bottom)
      return a;
    // NumPy's method gives a real array itself; the ufunc a new array.
    if (spec.arrayMethods.count(&call) && !isComplexDType(a.dtype))
      return a;
    spec.loops = true;
    return Type::newArray(a.dtype, a.ndim, {a}); // elementwise: in a's order
  }
  if (name == "item" && spec.arrayMethods.count(&call)) {
    // a.item(): the only element as a Python scalar (NumPy's .item()).
    arity(1, 1);
    Type a = exprType(spec, *args[0]);
    if (a.kind == Type::Kind::Bottom)
      return a;
    if (a.dtype == DType::UInt64)
      fail(CompileError::Kind::Unsupported, fn, call, "item() of uint64 arrays is not supported");
    return a.dtype == DType::Bool    ? Type::boolean()
           : isComplexDType(a.dtype) ? Type::complex()
           : isFloatDType(a.dtype)   ? Type::floating()
                                     : Type::integer();
  }
  if (name == "ravel" || name == "flatten" || name == "fill") {
    arity(name == "fill" ? 2 : 1, name == "fill" ? 2 : 1);
    Type a = arrayArgument();
    if (a.kind == Type::Kind::Bottom)
      return a;
    spec.loops = true;
    if (name == "fill") {
      if (writesRealImag(spec, *args[0]))
        spec.readOnlyWrites.insert(&call);
      Type v = exprType(spec, *args[1]);
      if (v.kind != Type::Kind::Bottom &&
          (!v.isNumber() || (v.isComplex() && !isComplexDType(a.dtype))))
        fail(CompileError::Kind::Typing, fn, *args[1],
             "cannot fill an array of " + std::string(dtypeName(a.dtype)) + " with a " + v.str());
      return Type::none();
    }
    // ravel: a view when it can be (as reshape(-1)); flatten: always a copy.
    return Type::array(a.dtype, 1, name == "flatten" || a.contiguous || (a.ndim == 1 && a.fortran));
  }
  if (name == "reshape") {
    // np.reshape(a, shape), a.reshape(shape) or a.reshape(d0, d1, ...).
    if (args.size() < 2)
      fail(CompileError::Kind::Typing, fn, call, "reshape() needs a shape");
    if (args.size() > 2 && !spec.arrayMethods.count(&call))
      fail(CompileError::Kind::Unsupported, fn, call, "np.reshape() takes an array and a shape");
    Type a = exprType(spec, *args[0]);
    if (a.kind == Type::Kind::Bottom)
      return a;
    if (a.kind != Type::Kind::Array)
      fail(CompileError::Kind::Unsupported, fn, call, "reshape() of a non-array is not supported");
    int ndim = 0;
    for (size_t i = 1; i < args.size(); ++i) {
      if (args.size() > 2 && !exprType(spec, *args[i]).isIntegral())
        fail(CompileError::Kind::Typing, fn, *args[i], "reshape() sizes are ints");
      int rank = args.size() > 2 ? 1 : shapeRank(spec, *args[i]);
      if (rank == 0)
        return Type::bottom();
      ndim += rank;
    }
    spec.loops = true;
    // A C-contiguous array's reshape is C-contiguous; others may be views
    // with any strides.
    return Type::array(a.dtype, ndim, a.contiguous || (a.ndim == 1 && a.fortran));
  }
  if (name == "dot" || name == "matmul" || name == "outer") {
    arity(2, 2);
    Type a = exprType(spec, *args[0]);
    Type b = exprType(spec, *args[1]);
    if (a.kind == Type::Kind::Bottom || b.kind == Type::Kind::Bottom)
      return Type::bottom();
    if (a.kind != Type::Kind::Array || b.kind != Type::Kind::Array)
      fail(CompileError::Kind::Unsupported, fn, call,
           "np." + name + "() of a scalar is not supported (multiply with *)");
    if (name == "matmul")
      return binaryType(spec, call, ast::Operator::MatMult, a, b);
    spec.loops = true;
    if (name == "outer") // the elements multiply as np.multiply's do
      return Type::array(
          binaryType(spec, call, ast::Operator::Mult, a.elementType(), b.elementType()).dtype, 2,
          true);
    // np.dot: the last axis of a against the second-to-last of b.
    DType dtype = promoteDTypes(a.dtype, b.dtype);
    int ndim = a.ndim + b.ndim - 2;
    return ndim == 0 ? Type::numpy(dtype) : Type::array(dtype, ndim, true);
  }
  if (name == "abs" || name == "absolute") {
    // (The other ufuncs are plait.numpy's; np.abs of complex numbers is
    // NumPy's own algorithm, here.)
    arity(1, 1);
    Type t = exprType(spec, *args[0]);
    if (t.kind == Type::Kind::Bottom)
      return t;
    if (t.kind == Type::Kind::Array) {
      spec.loops = true;
      // |z| of complex128 is float64
      return Type::newArray(complexPartDType(t.dtype), t.ndim, {t});
    }
    if (!t.isNumber())
      fail(CompileError::Kind::Typing, fn, *args[0], "np." + name + "() of " + t.str());
    // Python numbers become NumPy scalars: int as int64, float as float64.
    DType dtype = t.isNumPy()                   ? t.dtype
                  : t.kind == Type::Kind::Complex ? DType::Complex128
                  : t.kind == Type::Kind::Float ? DType::Float64
                  : t.kind == Type::Kind::Bool  ? DType::Bool
                                                : DType::Int64;
    return Type::numpy(complexPartDType(dtype));
  }
  fail(CompileError::Kind::Unsupported, fn, ast::func(call),
       "np." + name + "() is not supported yet (plait.numpy.supported() lists what is)");
}

const std::vector<std::string> &nativeNumPyFunctions() {
  // What numpyCallType and linalgCallType implement (the NumPy scalar
  // types' constructors aside); the rest is plait.numpy's.
  static const std::vector<std::string> names = {"empty",        "zeros",
                                                 "ones",         "full",
                                                 "empty_like",   "zeros_like",
                                                 "ones_like",    "arange",
                                                 "sum",          "prod",
                                                 "mean",         "std",
                                                 "var",          "min",
                                                 "max",          "amin",
                                                 "amax",         "argmin",
                                                 "argmax",       "any",
                                                 "all",          "cumsum",
                                                 "cumprod",      "transpose",
                                                 "astype",       "conj",
                                                 "conjugate",    "ravel",
                                                 "reshape",      "dot",
                                                 "matmul",       "outer",
                                                 "abs",          "absolute",
                                                 "linalg.solve", "linalg.inv",
                                                 "linalg.det",   "linalg.cholesky",
                                                 "linalg.eigh",  "linalg.lstsq",
                                                 "linalg.norm"};
  return names;
}

const std::set<std::string> &nativeArrayMethods() {
  // a.sum(axis=0) is np.sum(a, axis=0): each is the NumPy function of its
  // name, the array first.
  static const std::set<std::string> names = {
      "sum",     "prod",  "min",     "max",    "mean",    "copy",   "transpose", "astype",
      "reshape", "ravel", "flatten", "fill",   "item",    "argmin", "argmax",    "any",
      "all",     "std",   "var",     "cumsum", "cumprod", "conj",   "conjugate"};
  return names;
}

bool indexesWithArray(const Specialization &spec, const SExpr &subscript) {
  if (!ast::is(subscript, ast::NodeKind::Subscript))
    return false;
  auto found = spec.types.find(&ast::slice(subscript));
  return found != spec.types.end() && found->second.kind == Type::Kind::Array;
}

std::vector<Typer::SubscriptItem> Typer::subscriptItems(const Specialization &spec,
                                                        const SExpr &subscript, int ndim) const {
  std::vector<const SExpr *> nodes = subscriptIndices(subscript);
  auto isEllipsis = [](const SExpr &node) {
    if (!ast::is(node, ast::NodeKind::Const) || !ast::value(node).isList())
      return false;
    const SExpr &value = ast::value(node);
    return !value.items.empty() && value.items[0].text == "Ellipsis";
  };
  auto isNewAxis = [&](const SExpr &node) {
    if (ast::is(node, ast::NodeKind::Const) && ast::value(node).kind == SExpr::Kind::None)
      return true;
    return ast::is(node, ast::NodeKind::Attribute) && ast::attr(node) == "newaxis" &&
           ast::is(ast::value(node), ast::NodeKind::Name) &&
           resolve(spec, ast::id(ast::value(node))).kind == NameBinding::Kind::NumPy;
  };
  int consumed = 0, ellipses = 0;
  for (const SExpr *node : nodes) {
    if (isEllipsis(*node))
      ++ellipses;
    else if (!isNewAxis(*node))
      ++consumed;
  }
  if (ellipses > 1)
    fail(CompileError::Kind::Typing, *spec.source, subscript,
         "an index can only have a single ellipsis ('...')");
  if (consumed > ndim)
    fail(CompileError::Kind::Typing, *spec.source, ast::slice(subscript),
         "too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
             std::to_string(consumed) + " were indexed");
  std::vector<SubscriptItem> items;
  for (const SExpr *node : nodes) {
    if (isEllipsis(*node)) {
      for (int k = 0; k < ndim - consumed; ++k)
        items.push_back({SubscriptItem::Kind::Slice, nullptr});
      continue;
    }
    if (isNewAxis(*node))
      items.push_back({SubscriptItem::Kind::NewAxis, node});
    else
      items.push_back({ast::is(*node, ast::NodeKind::Slice) ? SubscriptItem::Kind::Slice
                                                            : SubscriptItem::Kind::Index,
                       node});
  }
  return items;
}

Type Typer::subscriptType(Specialization &spec, const SExpr &subscript) {
  const SExpr &base = ast::value(subscript);
  Type array = exprType(spec, base);
  if (array.kind == Type::Kind::Bottom)
    return array; // typed in a later round (a jitted callee's result)
  if (array.kind != Type::Kind::Array)
    fail(CompileError::Kind::Unsupported, *spec.source, base,
         "indexing a " + array.str() + " is not supported");
  std::vector<SubscriptItem> items = subscriptItems(spec, subscript, array.ndim);
  if (items.size() > 1)
    for (const SubscriptItem &item : items)
      if (item.kind == SubscriptItem::Kind::Index &&
          exprType(spec, *item.node).kind == Type::Kind::Array)
        return gatherType(spec, subscript, array, items);
  int kept = array.ndim; // trailing axes not indexed, slices and new axes
  for (const SubscriptItem &item : items) {
    if (item.kind == SubscriptItem::Kind::NewAxis) {
      ++kept;
      continue;
    }
    --kept;
    if (!item.node) {
      ++kept; // a whole axis (from `...`)
      continue;
    }
    const SExpr *i = item.node;
    if (ast::is(*i, ast::NodeKind::Slice)) {
      ++kept;
      for (const SExpr *part : {&ast::lower(*i), &ast::upper(*i), &ast::step(*i)}) {
        const SExpr &bound = *part;
        if (ast::isNone(bound))
          continue;
        Type t = exprType(spec, bound);
        if (t.kind != Type::Kind::Bottom && !t.isIntegral())
          fail(CompileError::Kind::Typing, *spec.source, bound,
               "slice indices must be integers or None, not " + t.str());
      }
      continue;
    }
    if (ast::is(*i, ast::NodeKind::Unsupported))
      fail(CompileError::Kind::Unsupported, *spec.source, *i,
           "this kind of array index is not supported");
    Type t = exprType(spec, *i);
    if (t.kind == Type::Kind::Array) {
      // a[mask] (a bool array of a's shape: the elements where it is true)
      // and a[indices] (a 1-D int array: those rows): new arrays.
      if (items.size() != 1)
        fail(CompileError::Kind::Unsupported, *spec.source, *i,
             "an index array with other indices is not supported");
      spec.loops = true;
      if (t.dtype == DType::Bool) {
        if (t.ndim > array.ndim)
          fail(CompileError::Kind::Typing, *spec.source, *i,
               "too many indices for array: array is " + std::to_string(array.ndim) +
                   "-dimensional, but " + std::to_string(t.ndim) + " were indexed");
        if (t.ndim < array.ndim) // the true places of the first axes: their rows
          spec.gathers.insert(&subscript);
        return Type::array(array.dtype, 1 + array.ndim - t.ndim, true);
      }
      if (isFloatDType(t.dtype) || isComplexDType(t.dtype))
        fail(CompileError::Kind::Unsupported, *spec.source, *i,
             "index arrays are int arrays or boolean masks");
      // Those rows, in the index array's shape: NumPy's advanced indexing.
      if (t.ndim + array.ndim - 1 > 8)
        fail(CompileError::Kind::Unsupported, *spec.source, *i,
             "arrays of more than 8 dimensions are not supported");
      spec.gathers.insert(&subscript);
      return Type::array(array.dtype, t.ndim + array.ndim - 1, true);
    }
    if (t.kind != Type::Kind::Bottom && !t.isIntegral())
      fail(CompileError::Kind::Typing, *spec.source, *i,
           "array indices must be integers or slices, not " + t.str());
  }
  bool ellipsis = false;
  for (const SExpr *node : subscriptIndices(subscript))
    ellipsis |= ast::is(*node, ast::NodeKind::Const) && ast::value(*node).isList() &&
                !ast::value(*node).items.empty() && ast::value(*node).items[0].text == "Ellipsis";
  if (kept == 0 && ellipsis)
    fail(CompileError::Kind::Unsupported, *spec.source, subscript,
         "an int for every axis with `...` makes a 0-d array in NumPy, which is not supported "
         "(leave out the `...` for the element)");
  if (kept == 0)
    return array.elementType();
  return Type::array(array.dtype, kept, /*contiguous=*/false);
}

Type Typer::gatherType(Specialization &spec, const SExpr &subscript, const Type &array,
                       const std::vector<SubscriptItem> &items) {
  // NumPy's advanced indexing: the index arrays and ints broadcast to one
  // axis, which takes their place when they are adjacent and goes first
  // otherwise; whole slices keep their axes.
  const FunctionSource &fn = *spec.source;
  int slices = 0, indexed = 0;
  for (const SubscriptItem &item : items) {
    if (item.kind == SubscriptItem::Kind::NewAxis)
      fail(CompileError::Kind::Unsupported, fn, *item.node,
           "a new axis beside index arrays is not supported");
    ++indexed;
    if (item.kind == SubscriptItem::Kind::Slice) {
      if (item.node) // the bounds are ints, as in a view
        for (const SExpr *bound :
             {&ast::lower(*item.node), &ast::upper(*item.node), &ast::step(*item.node)}) {
          Type t = ast::isNone(*bound) ? Type::none() : exprType(spec, *bound);
          if (t.kind != Type::Kind::None && t.kind != Type::Kind::Bottom && !t.isIntegral())
            fail(CompileError::Kind::Typing, fn, *bound,
                 "slice indices must be integers or None or have an __index__ method");
        }
      ++slices;
      continue;
    }
    Type t = exprType(spec, *item.node);
    if (t.kind == Type::Kind::Array &&
        (t.ndim != 1 || t.dtype == DType::Bool || isFloatDType(t.dtype) || isComplexDType(t.dtype)))
      fail(CompileError::Kind::Unsupported, fn, *item.node,
           "beside other indices, index arrays are 1-D int arrays");
    if (t.kind != Type::Kind::Array && t.kind != Type::Kind::Bottom && !t.isIntegral())
      fail(CompileError::Kind::Typing, fn, *item.node,
           "array indices must be integers or slices, not " + t.str());
  }
  spec.loops = true;
  spec.gathers.insert(&subscript);
  return Type::array(array.dtype, 1 + slices + (array.ndim - indexed), true);
}

namespace {
/// Whether writes through `node` reach its base: a subscript, or a view
/// attribute (a.T, z.real, z.imag).
bool writesThrough(const SExpr &node) {
  return ast::is(node, ast::NodeKind::Subscript) ||
         (ast::is(node, ast::NodeKind::Attribute) &&
          (ast::attr(node) == "T" || ast::attr(node) == "real" || ast::attr(node) == "imag"));
}
} // namespace

bool Typer::writesRealImag(Specialization &spec, const SExpr &target) {
  const SExpr *node = &target;
  while (writesThrough(*node)) {
    const SExpr &base = ast::value(*node);
    if (ast::is(*node, ast::NodeKind::Attribute) && ast::attr(*node) == "imag") {
      Type t = exprType(spec, base);
      if (t.kind == Type::Kind::Array && !isComplexDType(t.dtype))
        return true;
    }
    node = &base;
  }
  return false;
}

std::string Typer::viewRoot(const Specialization &spec, const SExpr &expr) const {
  const SExpr *node = &expr;
  while (writesThrough(*node))
    node = &ast::value(*node);
  if (!ast::is(*node, ast::NodeKind::Name))
    return "";
  return ast::id(*node);
}

std::set<std::string> Typer::aliasRoots(const Specialization &spec, const SExpr &expr) const {
  ast::NodeKind kind = ast::kindOf(expr);
  if (kind == ast::NodeKind::Name) {
    const std::string &name = ast::id(expr);
    std::set<std::string> roots = {name};
    auto found = spec.aliases.find(name);
    if (found != spec.aliases.end())
      roots.insert(found->second.begin(), found->second.end());
    return roots;
  }
  if (kind == ast::NodeKind::Subscript)
    return aliasRoots(spec, ast::value(expr));
  std::set<std::string> roots;
  if (kind == ast::NodeKind::Closure) { // the arrays it captured
    for (const SExpr *name : ast::captures(expr).rest()) {
      std::set<std::string> more = aliasRoots(spec, *name);
      roots.insert(more.begin(), more.end());
    }
    return roots;
  }
  if (kind == ast::NodeKind::Tuple || kind == ast::NodeKind::List) {
    for (const SExpr *element : ast::elts(expr)) {
      bool starred = ast::is(*element, ast::NodeKind::Starred);
      std::set<std::string> more = aliasRoots(spec, starred ? ast::value(*element) : *element);
      roots.insert(more.begin(), more.end());
    }
  } else if (kind == ast::NodeKind::IfExp) {
    roots = aliasRoots(spec, ast::body(expr));
    std::set<std::string> other = aliasRoots(spec, ast::orelse(expr));
    roots.insert(other.begin(), other.end());
  } else if (writesThrough(expr)) { // a.T, z.real, z.imag: views
    roots = aliasRoots(spec, ast::value(expr));
  } else if (kind == ast::NodeKind::Call && spec.arrayMethods.count(&expr)) {
    const std::string &method = spec.arrayMethods.at(&expr);
    if (method == "transpose" || method == "reshape" || method == "ravel" || method == "conj" ||
        method == "conjugate") // (may be) a view, or the array itself
      roots = aliasRoots(spec, ast::value(ast::func(expr)));
  } else if (kind == ast::NodeKind::Call && numpyFunction(spec, ast::func(expr)) == "reshape" &&
             !ast::args(expr).rest().empty()) {
    roots = aliasRoots(spec, *ast::args(expr).rest()[0]); // a view when it can be
  } else if (kind == ast::NodeKind::Call && spec.ufuncCalls.count(&expr) &&
             spec.ufuncCalls.at(&expr).out) { // a ufunc returns its out= array
    roots = aliasRoots(spec, *spec.ufuncCalls.at(&expr).out);
  } else if (kind == ast::NodeKind::Call && spec.jitCalls.count(&expr)) {
    // A jitted callee (an overload's implementation too) may return (a
    // view of) any array passed to it.
    for (const SExpr *arg : spec.jitCalls.at(&expr).arguments) {
      std::set<std::string> more = aliasRoots(spec, *arg);
      roots.insert(more.begin(), more.end());
    }
  } else if (kind == ast::NodeKind::Call && ast::is(ast::func(expr), ast::NodeKind::Name) &&
             resolve(spec, ast::id(ast::func(expr))).kind == NameBinding::Kind::Jit) {
    for (const SExpr *arg : ast::args(expr).rest()) {
      std::set<std::string> more = aliasRoots(spec, *arg);
      roots.insert(more.begin(), more.end());
    }
    for (const SExpr *keyword : ast::keywords(expr).rest()) {
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

} // namespace plait::frontend
