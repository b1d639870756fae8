//===- TyperLinalg.cpp - typing np.linalg calls ----------------------------===//
//
// np.linalg's functions compute in float64 or complex128 whatever their
// input (NumPy's _commonType), and give float32 results when every input is
// float32. Arguments bind to NumPy's parameter names; errors NumPy raises
// for a number of axes or a constant order are raised here, with NumPy's
// messages.
//
//===----------------------------------------------------------------------===//
#include "Typer.h"

#include "plait/Runtime/LinearAlgebra.h"

#include <cmath>
#include <map>

namespace plait::frontend {

namespace {

const std::vector<std::string> &linalgParameters(const std::string &name) {
  // "" ends the positional parameters.
  static const std::map<std::string, std::vector<std::string>> parameters = {
      {"solve", {"a", "b"}},
      {"inv", {"a"}},
      {"det", {"a"}},
      {"cholesky", {"a", "", "upper"}},
      {"eigh", {"a", "UPLO"}},
      {"lstsq", {"a", "b", "rcond"}},
      {"norm", {"x", "ord", "axis", "keepdims"}},
  };
  static const std::vector<std::string> none;
  auto it = parameters.find(name);
  return it == parameters.end() ? none : it->second;
}

/// A constant order: a number (np.inf, -np.inf, math.inf too), a string,
/// or None; nullopt for anything else.
struct Order {
  enum class Kind { None, Number, String } kind;
  double number = 0;
  std::string text;
};

} // namespace

Type Typer::linalgCallType(Specialization &spec, const SExpr &call, const std::string &name) {
  const FunctionSource &fn = *spec.source;
  const std::vector<std::string> &parameters = linalgParameters(name);
  std::string callee = "np.linalg." + name + "()";
  if (parameters.empty())
    fail(CompileError::Kind::Unsupported, fn, call, callee + " is not supported");
  std::map<std::string, const SExpr *> bound = bindArguments(spec, call, parameters, callee);
  Specialization::Linalg plan;
  std::vector<Type> arrays;
  for (const char *parameter : {"a", "x", "b"}) {
    if (!std::count(parameters.begin(), parameters.end(), parameter))
      continue;
    if (!bound.count(parameter))
      fail(CompileError::Kind::Typing, fn, call,
           callee + " missing required argument: '" + parameter + "'");
    Type t = exprType(spec, *bound[parameter]);
    if (t.kind == Type::Kind::Bottom)
      return t;
    if (t.kind != Type::Kind::Array)
      fail(CompileError::Kind::Unsupported, fn, *bound[parameter],
           callee + " of a non-array is not supported");
    plan.arrays.push_back(bound[parameter]);
    arrays.push_back(t);
  }
  spec.loops = true; // LAPACK may take long: run detached
  // NumPy's _commonType: complex if any input is complex, single precision
  // (float32, complex64) if every input is, else double; float16 has no
  // LAPACK routines.
  bool complex = false, allSingle = true;
  for (size_t k = 0; k < arrays.size(); ++k) {
    DType dtype = arrays[k].dtype;
    if (name == "norm" && dtype == DType::Float16)
      fail(CompileError::Kind::Unsupported, fn, *plan.arrays[k],
           "np.linalg.norm() of " + std::string(dtypeName(dtype)) + " arrays is not supported");
    if (dtype == DType::Float16)
      fail(CompileError::Kind::Typing, fn, *plan.arrays[k],
           "TypeError: array type float16 is unsupported in linalg");
    complex |= isComplexDType(dtype);
    allSingle &= dtype == DType::Float32 || dtype == DType::Complex64;
  }
  DType real = allSingle ? DType::Float32 : DType::Float64;
  DType result = complex ? complexOfPartDType(real) : real;
  const Type &a = arrays[0];
  auto atLeast2d = [&](const Type &t, const SExpr &node) {
    if (t.ndim < 2)
      fail(CompileError::Kind::Typing, fn, node,
           "LinAlgError: " + std::to_string(t.ndim) +
               "-dimensional array given. Array must be at least two-dimensional");
  };
  auto constantBool = [&](const SExpr &node, const std::string &parameter) {
    SExpr::Kind kind =
        ast::is(node, ast::NodeKind::Const) ? ast::value(node).kind : SExpr::Kind::List;
    if (kind != SExpr::Kind::True && kind != SExpr::Kind::False)
      fail(CompileError::Kind::Unsupported, fn, node, parameter + " must be True or False");
    return kind == SExpr::Kind::True;
  };
  Type type;
  if (name == "solve") {
    atLeast2d(a, *plan.arrays[0]);
    const Type &b = arrays[1];
    int ndim = b.ndim == 1 ? a.ndim - 1 : std::max(a.ndim, b.ndim);
    type = Type::array(result, ndim, true);
  } else if (name == "inv") {
    atLeast2d(a, *plan.arrays[0]);
    type = Type::array(result, a.ndim, true);
  } else if (name == "det") {
    atLeast2d(a, *plan.arrays[0]);
    type = a.ndim == 2 ? Type::numpy(result) : Type::array(result, a.ndim - 2, true);
  } else if (name == "cholesky") {
    atLeast2d(a, *plan.arrays[0]);
    if (bound.count("upper"))
      plan.upper = constantBool(*bound["upper"], "upper");
    type = Type::array(result, a.ndim, true);
  } else if (name == "eigh") {
    atLeast2d(a, *plan.arrays[0]);
    if (bound.count("UPLO")) {
      const SExpr &uplo = *bound["UPLO"];
      std::string text = ast::isStringConstant(uplo) ? ast::value(uplo).text : "";
      if (text != "L" && text != "l" && text != "U" && text != "u")
        fail(CompileError::Kind::Typing, fn, uplo,
             ast::is(uplo, ast::NodeKind::Const) ? "UPLO argument must be 'L' or 'U'"
                                                 : "UPLO must be the constant 'L' or 'U'");
      plan.upper = text == "U" || text == "u";
    }
    type = Type::namedTuple(eighResultClass(), {Type::array(real, a.ndim - 1, true),
                                                Type::array(result, a.ndim, true)});
  } else if (name == "lstsq") {
    const Type &b = arrays[1];
    for (size_t k = 0; k < 2; ++k)
      if (arrays[k].ndim != 2 && !(k == 1 && b.ndim == 1))
        fail(CompileError::Kind::Typing, fn, *plan.arrays[k],
             "LinAlgError: " + std::to_string(arrays[k].ndim) +
                 "-dimensional array given. Array must be two-dimensional");
    if (bound.count("rcond") && !isNoneConstant(*bound["rcond"])) {
      Type rcond = exprType(spec, *bound["rcond"]);
      if (rcond.kind != Type::Kind::Bottom && !rcond.isNumeric())
        fail(CompileError::Kind::Typing, fn, *bound["rcond"], "rcond must be a number or None");
      plan.rcond = bound["rcond"];
    }
    type = Type::tuple({Type::array(result, b.ndim, true), Type::array(real, 1, true),
                        Type::numpy(DType::Int32), Type::array(real, 1, true)});
  } else { // norm
    if (bound.count("keepdims"))
      plan.keepdims = constantBool(*bound["keepdims"], "keepdims");
    if (bound.count("axis") && !isNoneConstant(*bound["axis"])) {
      // An int (or a tuple of one): vector norms along that axis; a tuple
      // of two: matrix norms of the matrices those axes hold.
      const SExpr *node = bound["axis"];
      std::vector<const SExpr *> axes = {node};
      if (ast::is(*node, ast::NodeKind::Tuple))
        axes = ast::elts(*node);
      if (axes.size() != 1 && axes.size() != 2)
        fail(CompileError::Kind::Typing, fn, *node,
             "ValueError: Improper number of dimensions to norm.");
      const std::string notConstant = "np.linalg.norm() needs a constant int axis or two";
      plan.axis = constantAxis(spec, *axes[0], a.ndim, notConstant);
      if (axes.size() == 2) {
        plan.columnAxis = constantAxis(spec, *axes[1], a.ndim, notConstant);
        if (plan.columnAxis == plan.axis)
          fail(CompileError::Kind::Typing, fn, *node, "ValueError: Duplicate axes given.");
      }
    }
    // The order must be a constant: it picks the algorithm.
    Order order{Order::Kind::None};
    if (bound.count("ord") && !isNoneConstant(*bound["ord"])) {
      const SExpr *node = bound["ord"];
      bool negative = false;
      if (ast::is(*node, ast::NodeKind::UnaryOp) && ast::op(*node) == ast::Operator::USub) {
        negative = true;
        node = &ast::operand(*node);
      }
      const SExpr *constant = ast::is(*node, ast::NodeKind::Const) ? &ast::value(*node) : nullptr;
      if (constant && constant->kind == SExpr::Kind::String && !negative) {
        order = {Order::Kind::String, 0, constant->text};
      } else if (constant &&
                 (constant->kind == SExpr::Kind::Integer || constant->kind == SExpr::Kind::Float)) {
        double value = constant->kind == SExpr::Kind::Float
                           ? constant->floating
                           : std::strtod(constant->text.c_str(), nullptr);
        order = {Order::Kind::Number, negative ? -value : value, ""};
      } else if (ast::is(*node, ast::NodeKind::Attribute) && ast::attr(*node) == "inf" &&
                 namesModule(spec, ast::value(*node))) {
        order = {Order::Kind::Number, negative ? -INFINITY : INFINITY, ""};
      } else {
        fail(CompileError::Kind::Unsupported, fn, *bound["ord"],
             "np.linalg.norm() needs a constant ord (a number, np.inf, 'fro', 'nuc' or None)");
      }
    }
    double p = order.number;
    bool isString = order.kind == Order::Kind::String, isNone = order.kind == Order::Kind::None;
    auto invalid = [&](const std::string &message) {
      fail(CompileError::Kind::Typing, fn, *bound["ord"], "ValueError: " + message);
    };
    bool matrices = plan.columnAxis >= 0;
    bool vector = !matrices && (a.ndim == 1 || plan.axis >= 0);
    if ((isNone && (plan.axis < 0 || matrices)) ||
        ((a.ndim == 2 || matrices) && (plan.axis < 0 || matrices) && isString &&
         (order.text == "fro" || order.text == "f")) ||
        (a.ndim == 1 && !isString && p == 2)) {
      plan.norm = PLAIT_NORM_EUCLIDEAN;
    } else if (vector) {
      if (isNone || (!isString && p == 2))
        plan.norm = PLAIT_NORM_EUCLIDEAN;
      else if (isString)
        invalid("Invalid norm order '" + order.text + "' for vectors");
      else
        plan.norm = p == INFINITY    ? PLAIT_NORM_VECTOR_MAX
                    : p == -INFINITY ? PLAIT_NORM_VECTOR_MIN
                    : p == 0         ? PLAIT_NORM_VECTOR_COUNT
                    : p == 1         ? PLAIT_NORM_VECTOR_SUM
                                     : PLAIT_NORM_VECTOR_POWER;
      plan.p = p;
    } else if (a.ndim == 2 || matrices) {
      if (isString && order.text == "nuc")
        plan.norm = PLAIT_NORM_NUCLEAR;
      else if (!isString && p == 2)
        plan.norm = PLAIT_NORM_SINGULAR_MAX;
      else if (!isString && p == -2)
        plan.norm = PLAIT_NORM_SINGULAR_MIN;
      else if (!isString && p == 1)
        plan.norm = PLAIT_NORM_COLUMN_SUMS_MAX;
      else if (!isString && p == -1)
        plan.norm = PLAIT_NORM_COLUMN_SUMS_MIN;
      else if (!isString && p == INFINITY)
        plan.norm = PLAIT_NORM_ROW_SUMS_MAX;
      else if (!isString && p == -INFINITY)
        plan.norm = PLAIT_NORM_ROW_SUMS_MIN;
      else
        invalid("Invalid norm order for matrices.");
    } else {
      invalid("Improper number of dimensions to norm.");
    }
    // Integer and bool arrays are converted to float64 first.
    DType norm =
        a.dtype == DType::Float32 || a.dtype == DType::Complex64 ? DType::Float32 : DType::Float64;
    // keepdims with axis=None: every axis of size 1.
    int kept = plan.keepdims ? a.ndim : plan.axis < 0 ? 0 : a.ndim - (matrices ? 2 : 1);
    type = kept == 0 ? Type::numpy(norm) : Type::array(norm, kept, true);
  }
  spec.linalgCalls[&call] = plan;
  return type;
}

} // namespace plait::frontend
