//===- Builtins.cpp - the builtins and math functions plait compiles --------===//
#include "Typer.h"

#include <algorithm>

namespace plait::frontend {

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
