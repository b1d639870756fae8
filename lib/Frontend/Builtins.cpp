//===- Builtins.cpp - the builtins and math functions plait compiles --------===//
#include "Typer.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace plait::frontend {

const MathFunctionInfo *lookupMathFunction(const std::string &name) {
  using K = Type::Kind;
  // The quiet ranges keep a margin from where the results overflow (exp of
  // 709.78) or leave the domain (atanh of 1), so any libm's rounding agrees.
  const double kBelowOne = std::nextafter(1.0, 0.0);
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
      {"exp", "exp", 1, K::Float, true, -HUGE_VAL, 709.0},
      {"exp2", "exp2", 1, K::Float, true, -HUGE_VAL, 1023.0},
      {"expm1", "expm1", 1, K::Float, true, -HUGE_VAL, 709.0},
      {"sin", "sin", 1, K::Float, false, -DBL_MAX, DBL_MAX},
      {"cos", "cos", 1, K::Float, false, -DBL_MAX, DBL_MAX},
      {"tan", "tan", 1, K::Float, false, -DBL_MAX, DBL_MAX},
      {"asin", "asin", 1, K::Float, false, -1.0, 1.0},
      {"acos", "acos", 1, K::Float, false, -1.0, 1.0},
      {"atan", "atan", 1, K::Float, false, -HUGE_VAL, HUGE_VAL},
      {"sinh", "sinh", 1, K::Float, true, -709.0, 709.0},
      {"cosh", "cosh", 1, K::Float, true, -709.0, 709.0},
      {"tanh", "tanh", 1, K::Float, false, -HUGE_VAL, HUGE_VAL},
      {"asinh", "asinh", 1, K::Float, false, -HUGE_VAL, HUGE_VAL},
      {"acosh", "acosh", 1, K::Float, false, 1.0, HUGE_VAL},
      {"atanh", "atanh", 1, K::Float, false, -kBelowOne, kBelowOne},
      {"erf", "erf", 1, K::Float, false, -HUGE_VAL, HUGE_VAL},
      {"erfc", "erfc", 1, K::Float, false, -HUGE_VAL, HUGE_VAL},
      {"atan2", "atan2", 2, K::Float, false},
      {"fmod", "fmod", 2, K::Float, false},
  };
  for (const MathFunctionInfo &info : table)
    if (name == info.python)
      return &info;
  return nullptr;
}

const std::vector<std::string> &supportedBuiltins() {
  static const std::vector<std::string> names = {
      "abs",    "min",      "max",   "round", "int",     "float",     "bool",
      "divmod", "pow",      "range", "len",   "complex", "enumerate", "zip",
      "print",  "reversed", "str",   "repr",  "prange"}; // plait.prange and numba.prange
  return names;
}

bool isSupportedBuiltin(const std::string &name) {
  const std::vector<std::string> &names = supportedBuiltins();
  return std::find(names.begin(), names.end(), name) != names.end();
}

} // namespace plait::frontend
