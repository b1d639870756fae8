//===- ComplexMath.cpp - the C library's complex functions ----------------===//
//
// The C99 functions themselves (GCC's and Clang's builtins call them), as
// NumPy's loops call them; the float versions compute in float.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/ComplexMath.h"

#define PLAIT_DEFINE(name)                                                                         \
  extern "C" int32_t plait_rt_##name(double re, double im, double *out) {                          \
    _Complex double z;                                                                             \
    __real__ z = re;                                                                               \
    __imag__ z = im;                                                                               \
    _Complex double r = __builtin_##name(z);                                                       \
    out[0] = __real__ r;                                                                           \
    out[1] = __imag__ r;                                                                           \
    return 0;                                                                                      \
  }                                                                                                \
  extern "C" int32_t plait_rt_##name##f(double re, double im, double *out) {                       \
    _Complex float z;                                                                              \
    __real__ z = static_cast<float>(re);                                                           \
    __imag__ z = static_cast<float>(im);                                                           \
    _Complex float r = __builtin_##name##f(z);                                                     \
    out[0] = __real__ r;                                                                           \
    out[1] = __imag__ r;                                                                           \
    return 0;                                                                                      \
  }
PLAIT_COMPLEX_MATH_FUNCTIONS(PLAIT_DEFINE)
#undef PLAIT_DEFINE
