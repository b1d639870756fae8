//===- ComplexMath.h - the C library's complex functions --------*- C++ -*-===//
//
// NumPy's complex loops (exp, log, sqrt, the trigonometric and hyperbolic
// functions and their inverses) call the C library's cexp, clog, ... (and
// cexpf, ... for complex64). Compiled code calls them through these
// wrappers, which take and give the parts as doubles, so that no complex
// calling convention is involved. Each writes the result's two parts to
// `out` and returns 0.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_COMPLEXMATH_H
#define PLAIT_RUNTIME_COMPLEXMATH_H

#include <cstdint>

#define PLAIT_COMPLEX_MATH_FUNCTIONS(X)                                                            \
  X(cexp)                                                                                          \
  X(clog) X(csqrt) X(csin) X(ccos) X(ctan) X(csinh) X(ccosh) X(ctanh) X(casin) X(cacos) X(catan)   \
      X(casinh) X(cacosh) X(catanh)

extern "C" {
#define PLAIT_DECLARE(name)                                                                        \
  int32_t plait_rt_##name(double re, double im, double *out);                                      \
  int32_t plait_rt_##name##f(double re, double im, double *out);
PLAIT_COMPLEX_MATH_FUNCTIONS(PLAIT_DECLARE)
#undef PLAIT_DECLARE
}

#endif // PLAIT_RUNTIME_COMPLEXMATH_H
