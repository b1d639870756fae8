//===- PyNumeric.h - CPython-exact numeric helpers for JIT code -*- C++ -*-===//
//
// Numeric helpers that JIT-compiled code calls where the result must be
// bit-for-bit identical to CPython 3.11, including signed zeros, inf and nan.
// On a nonzero status the output pointers are left untouched.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_PYNUMERIC_H
#define PLAIT_RUNTIME_PYNUMERIC_H

#include <cstdint>

extern "C" {
/// Status codes returned by the helpers; 0 means success and *out is valid.
enum PlaitNumericStatus : int32_t {
  PLAIT_NUMERIC_OK = 0,
  PLAIT_NUMERIC_FLOAT_FLOORDIV_BY_ZERO = 1, // ZeroDivisionError (x // 0.0)
  PLAIT_NUMERIC_FLOAT_MOD_BY_ZERO = 2,      // ZeroDivisionError (x % 0.0)
  PLAIT_NUMERIC_FLOAT_DIVMOD_BY_ZERO = 3,   // ZeroDivisionError (divmod(x, 0.0))
  PLAIT_NUMERIC_ZERO_POW_NEGATIVE = 4,      // ZeroDivisionError (0.0 ** -1.0)
  PLAIT_NUMERIC_POW_COMPLEX = 5,            // negative float ** non-integer float (CPython returns a complex; we raise)
  PLAIT_NUMERIC_FLOAT_POW_OVERFLOW = 6,     // OverflowError (10.0 ** 400)
  PLAIT_NUMERIC_INT_OVERFLOW = 7,           // result does not fit in int64 (checked mode)
  PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT = 8,  // int ** negative int (result would be a float)
  PLAIT_NUMERIC_INT_DIV_BY_ZERO = 9,        // ZeroDivisionError (int / 0)
  PLAIT_NUMERIC_FLOAT_TO_INT_INF = 10,      // OverflowError: cannot convert float infinity to integer
  PLAIT_NUMERIC_FLOAT_TO_INT_NAN = 11,      // ValueError: cannot convert float NaN to integer
  PLAIT_NUMERIC_POWMOD_ZERO_MODULUS = 12,   // ValueError: pow() 3rd argument cannot be 0
  PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW = 13,  // OverflowError: complex exponentiation
  PLAIT_NUMERIC_ROUND_OVERFLOW = 14,        // OverflowError: rounded value too large to represent
};

int32_t plait_rt_float_floordiv(double a, double b, double *out); // a // b
int32_t plait_rt_float_mod(double a, double b, double *out);      // a % b
int32_t plait_rt_float_divmod(double a, double b, double *quotient, double *remainder);
int32_t plait_rt_float_pow(double a, double b, double *out);      // a ** b  (float ** float)
/// a ** b for ints, b >= 0; checkOverflow != 0: INT_OVERFLOW when the result
/// leaves int64; == 0: wraps (two's complement). b < 0: NEGATIVE_INT_EXPONENT.
int32_t plait_rt_int_pow(int64_t a, int64_t b, int32_t checkOverflow, int64_t *out);
/// pow(a, b, m) for ints as CPython computes it (b >= 0; result has the sign of m; m == 0 -> POWMOD_ZERO_MODULUS; b < 0 -> NEGATIVE_INT_EXPONENT). Must not overflow internally (use unsigned __int128).
int32_t plait_rt_int_powmod(int64_t a, int64_t b, int64_t m, int64_t *out);
/// a / b for ints, correctly rounded exactly as CPython's long_true_divide (NOT double(a)/double(b), which double-rounds for |a| or |b| > 2**53). b == 0 -> INT_DIV_BY_ZERO.
int32_t plait_rt_int_truediv(int64_t a, int64_t b, double *out);
/// Exact comparison of an int with a float as CPython does it (no rounding of the int): returns -1 if i < f, 0 if equal, 1 if i > f, 2 if f is NaN (unordered).
int32_t plait_rt_cmp_int_float(int64_t i, double f);
/// round(x) for a float: round half to even, as CPython's round() with no ndigits, result as a double (still integral); infinities/NaN returned unchanged (the caller then converts with plait_rt_float_to_int, which reports them).
double plait_rt_round_half_even(double x);
/// round(x, ndigits) for a float, correctly rounded as CPython's (the exact
/// binary value rounded half to even at 10**-ndigits); ROUND_OVERFLOW when
/// the result is too large for a float.
int32_t plait_rt_float_round(double x, int64_t ndigits, double *out);
/// round(x, ndigits) for an int: x for ndigits >= 0, else the nearest
/// multiple of 10**-ndigits (halves to even); INT_OVERFLOW outside int64.
int32_t plait_rt_int_round(int64_t x, int64_t ndigits, int64_t *out);
/// NumPy's round of a float64 or float32 to `decimals`: rint(x * 10**d) / 10**d
/// (x / 10**-d, then times, for d < 0) in the value's own precision.
double plait_rt_np_round_f64(double x, int64_t decimals);
float plait_rt_np_round_f32(float x, int64_t decimals);
/// int(x): truncation toward zero; inf -> FLOAT_TO_INT_INF, nan -> FLOAT_TO_INT_NAN, finite but outside int64 -> INT_OVERFLOW.
int32_t plait_rt_float_to_int(double x, int64_t *out);
/// math.floor / math.ceil of a float returning an int, same error statuses as plait_rt_float_to_int.
int32_t plait_rt_float_floor_to_int(double x, int64_t *out);
int32_t plait_rt_float_ceil_to_int(double x, int64_t *out);
}

#endif // PLAIT_RUNTIME_PYNUMERIC_H
