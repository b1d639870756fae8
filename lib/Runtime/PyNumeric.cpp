//===- PyNumeric.cpp - CPython-exact numeric helpers for JIT code ---------===//
//
// The float routines transcribe CPython 3.11's Objects/floatobject.c step by
// step; reordering or "simplifying" them changes signed zeros and nan/inf
// results. This file must not be built with -ffast-math.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/PyNumeric.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// 2**63 as a double: the first value above the int64 range.
constexpr double kTwoPow63 = 9223372036854775808.0;

bool isOddInteger(double x) {
  // CPython's DOUBLE_IS_ODD_INTEGER.
  return std::fmod(std::fabs(x), 2.0) == 1.0;
}

// CPython's _float_div_mod; the caller has rejected wx == 0.
void floatDivMod(double vx, double wx, double *floorDiv, double *mod) {
  *mod = std::fmod(vx, wx);
  // vx - mod is only approximately a multiple of wx, hence the snapping below.
  double div = (vx - *mod) / wx;
  if (*mod != 0.0) {
    // nan compares false both ways, so a nan remainder is left alone.
    if ((wx < 0) != (*mod < 0)) {
      *mod += wx;
      div -= 1.0;
    }
  } else {
    // fmod's zero sign is platform-dependent; Python uses the divisor's.
    *mod = std::copysign(0.0, wx);
  }
  if (div != 0.0) {
    // A nan div is truthy here too, and floor/compare keep it nan.
    *floorDiv = std::floor(div);
    if (div - *floorDiv > 0.5)
      *floorDiv += 1.0;
  } else {
    *floorDiv = std::copysign(0.0, vx / wx);
  }
}

// Range check shared by the float -> int conversions; x is already integral.
int32_t integralToInt(double x, int64_t *out) {
  if (std::isnan(x))
    return PLAIT_NUMERIC_FLOAT_TO_INT_NAN;
  if (std::isinf(x))
    return PLAIT_NUMERIC_FLOAT_TO_INT_INF;
  if (x >= kTwoPow63 || x < -kTwoPow63)
    return PLAIT_NUMERIC_INT_OVERFLOW;
  *out = static_cast<int64_t>(x);
  return PLAIT_NUMERIC_OK;
}

uint64_t magnitude(int64_t x) {
  // Negating in unsigned arithmetic keeps INT64_MIN well-defined.
  return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
}

int bitLength(uint64_t x) { return x == 0 ? 0 : 64 - __builtin_clzll(x); }

} // namespace

extern "C" {

int32_t plait_rt_float_floordiv(double a, double b, double *out) {
  if (b == 0.0)
    return PLAIT_NUMERIC_FLOAT_FLOORDIV_BY_ZERO;
  double mod;
  floatDivMod(a, b, out, &mod);
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_float_mod(double a, double b, double *out) {
  // CPython's float_rem, which is the remainder half of _float_div_mod.
  if (b == 0.0)
    return PLAIT_NUMERIC_FLOAT_MOD_BY_ZERO;
  double mod = std::fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0))
      mod += b;
  } else {
    mod = std::copysign(0.0, b);
  }
  *out = mod;
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_float_divmod(double a, double b, double *quotient,
                              double *remainder) {
  if (b == 0.0)
    return PLAIT_NUMERIC_FLOAT_DIVMOD_BY_ZERO;
  floatDivMod(a, b, quotient, remainder);
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_float_pow(double a, double b, double *out) {
  // CPython's float_pow: settle the special cases here rather than trusting
  // libm's, in the same order.
  if (b == 0.0) {
    *out = 1.0; // x**0 is 1, even for nan and 0.
    return PLAIT_NUMERIC_OK;
  }
  if (std::isnan(a)) {
    *out = a;
    return PLAIT_NUMERIC_OK;
  }
  if (std::isnan(b)) {
    *out = a == 1.0 ? 1.0 : b;
    return PLAIT_NUMERIC_OK;
  }
  if (std::isinf(b)) {
    double absA = std::fabs(a);
    if (absA == 1.0)
      *out = 1.0;
    else if ((b > 0.0) == (absA > 1.0))
      *out = std::fabs(b);
    else
      *out = 0.0;
    return PLAIT_NUMERIC_OK;
  }
  if (std::isinf(a)) {
    bool oddB = isOddInteger(b);
    if (b > 0.0)
      *out = oddB ? a : std::fabs(a);
    else
      *out = oddB ? std::copysign(0.0, a) : 0.0;
    return PLAIT_NUMERIC_OK;
  }
  if (a == 0.0) {
    if (b < 0.0)
      return PLAIT_NUMERIC_ZERO_POW_NEGATIVE;
    *out = isOddInteger(b) ? a : 0.0;
    return PLAIT_NUMERIC_OK;
  }
  bool negate = false;
  if (a < 0.0) {
    if (b != std::floor(b))
      // CPython falls back to complex pow, which reports an overflowing
      // magnitude as OverflowError; otherwise the result is a complex.
      return std::isinf(std::pow(-a, b)) ? PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW
                                         : PLAIT_NUMERIC_POW_COMPLEX;
    // b is integral: pow(|a|, b) with the sign fixed up avoids libm quirks.
    a = -a;
    negate = isOddInteger(b);
  }
  if (a == 1.0) {
    // Also (-1)**huge, which some libms got wrong.
    *out = negate ? -1.0 : 1.0;
    return PLAIT_NUMERIC_OK;
  }
  // Finite inputs here, so an infinite result is an overflow (CPython's
  // ERANGE); underflow to zero is not an error.
  double result = std::pow(a, b);
  if (std::isinf(result))
    return PLAIT_NUMERIC_FLOAT_POW_OVERFLOW;
  *out = negate ? -result : result;
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_int_pow(int64_t a, int64_t b, int32_t checkOverflow,
                         int64_t *out) {
  if (b < 0)
    return PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT;
  uint64_t exp = static_cast<uint64_t>(b);
  if (!checkOverflow) {
    // Unsigned arithmetic wraps modulo 2**64 without undefined behaviour.
    uint64_t base = static_cast<uint64_t>(a), result = 1;
    for (; exp; exp >>= 1) {
      if (exp & 1)
        result *= base;
      base *= base;
    }
    *out = static_cast<int64_t>(result);
    return PLAIT_NUMERIC_OK;
  }
  int64_t base = a, result = 1;
  while (true) {
    if ((exp & 1) && __builtin_mul_overflow(result, base, &result))
      return PLAIT_NUMERIC_INT_OVERFLOW;
    exp >>= 1;
    if (!exp)
      break;
    // Squaring only when more bits remain: an overflowing square with bits
    // left always means an overflowing result (the square is positive and
    // >= 2**63, and the partial product is a nonzero power of a).
    if (__builtin_mul_overflow(base, base, &base))
      return PLAIT_NUMERIC_INT_OVERFLOW;
  }
  *out = result;
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_int_powmod(int64_t a, int64_t b, int64_t m, int64_t *out) {
  // Same check order as CPython's long_pow: zero modulus first.
  if (m == 0)
    return PLAIT_NUMERIC_POWMOD_ZERO_MODULUS;
  if (b < 0)
    return PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT;
  uint64_t mod = magnitude(m); // Up to 2**63.
  if (mod == 1) {
    *out = 0;
    return PLAIT_NUMERIC_OK;
  }
  // Reduce a into [0, mod) first, so products stay below 2**126.
  uint64_t base = magnitude(a) % mod;
  if (a < 0 && base != 0)
    base = mod - base;
  unsigned __int128 result = 1, sq = base;
  for (uint64_t exp = static_cast<uint64_t>(b); exp; exp >>= 1) {
    if (exp & 1)
      result = result * sq % mod;
    sq = sq * sq % mod;
  }
  uint64_t r = static_cast<uint64_t>(result);
  // The result takes the sign of m: r - |m| lies in [-2**63, 0).
  if (m < 0 && r != 0)
    *out = static_cast<int64_t>(r - mod);
  else
    *out = static_cast<int64_t>(r);
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_int_truediv(int64_t a, int64_t b, double *out) {
  if (b == 0)
    return PLAIT_NUMERIC_INT_DIV_BY_ZERO;
  uint64_t absA = magnitude(a), absB = magnitude(b);
  constexpr uint64_t kExactLimit = uint64_t(1) << 53;
  // Both operands exact as doubles: IEEE division is correctly rounded, and
  // 0.0 / negative gives -0.0 exactly as CPython's own fast path does.
  if (absA <= kExactLimit && absB <= kExactLimit) {
    *out = static_cast<double>(a) / static_cast<double>(b);
    return PLAIT_NUMERIC_OK;
  }
  bool negative = (a < 0) != (b < 0);
  if (absA == 0) {
    // long_true_divide negates by the operand signs, and 0 has no sign.
    *out = b < 0 ? -0.0 : 0.0;
    return PLAIT_NUMERIC_OK;
  }
  // Scale |a| so the integer quotient has 56 or 57 bits: at least two below
  // the 53-bit mantissa for round and sticky. The shift is at most 119.
  int shift = 56 + bitLength(absB) - bitLength(absA);
  if (shift < 0)
    shift = 0; // |a| >> |b|: the quotient already has enough bits.
  unsigned __int128 num = static_cast<unsigned __int128>(absA) << shift;
  uint64_t q = static_cast<uint64_t>(num / absB);
  bool sticky = num % absB != 0;
  int drop = bitLength(q) - 53;
  uint64_t mant = q >> drop;
  uint64_t rest = q & ((uint64_t(1) << drop) - 1);
  uint64_t half = uint64_t(1) << (drop - 1);
  // Round half to even on the exact quotient; the sticky bit breaks ties.
  if (rest > half || (rest == half && (sticky || (mant & 1))))
    ++mant; // May reach 2**53, which is still exact.
  // Exponents stay far from the subnormal and overflow ranges for int64.
  double result = std::ldexp(static_cast<double>(mant), drop - shift);
  *out = negative ? -result : result;
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_cmp_int_float(int64_t i, double f) {
  if (std::isnan(f))
    return 2;
  // Outside [-2**63, 2**63) (including the infinities) f beats every int64.
  if (f >= kTwoPow63)
    return -1;
  if (f < -kTwoPow63)
    return 1;
  // Now trunc(f) is an exact int64 and f - trunc(f) is exact.
  double whole = std::trunc(f);
  int64_t w = static_cast<int64_t>(whole);
  if (i != w)
    return i < w ? -1 : 1;
  double frac = f - whole;
  if (frac > 0.0)
    return -1;
  if (frac < 0.0)
    return 1;
  return 0;
}

double plait_rt_round_half_even(double x) {
  // CPython's float.__round__ without ndigits: round() rounds halves away
  // from zero, so halfway cases are redone as twice the rounded half.
  double rounded = std::round(x);
  if (std::fabs(x - rounded) == 0.5)
    rounded = 2.0 * std::round(x / 2.0);
  return rounded;
}

int32_t plait_rt_float_round(double x, int64_t ndigits, double *out) {
  // CPython's float.__round__: nonfinite values and extreme ndigits first.
  if (!std::isfinite(x) || ndigits > 323) {
    *out = x;
    return PLAIT_NUMERIC_OK;
  }
  if (ndigits < -308) {
    *out = 0.0 * x;
    return PLAIT_NUMERIC_OK;
  }
  // CPython rounds the decimal expansion (_Py_dg_dtoa mode 3). glibc prints
  // a double's exact expansion (at most 767 significant digits), which is
  // rounded here half to even at 10**-ndigits, then read back correctly
  // rounded by strtod.
  char text[900];
  std::snprintf(text, sizeof text, "%.800e", std::fabs(x));
  std::string digits(1, text[0]);
  const char *fraction = std::strchr(text, '.') + 1;
  const char *exponentText = std::strchr(text, 'e');
  digits.append(fraction, exponentText);
  int exponent = std::atoi(exponentText + 1); // of the first digit
  long keep = exponent + 1 + static_cast<long>(ndigits);
  auto restNonZero = [&](size_t from) {
    return digits.find_first_not_of('0', from) != std::string::npos;
  };
  std::string kept;
  if (keep < 0) {
    kept = "0";
  } else if (keep == 0) {
    // Below the first kept place: rounds up past one half only.
    bool up = digits[0] > '5' || (digits[0] == '5' && restNonZero(1));
    kept = up ? "1" : "0";
  } else {
    kept = digits.substr(0, static_cast<size_t>(keep));
    size_t at = static_cast<size_t>(keep);
    char next = at < digits.size() ? digits[at] : '0';
    bool odd = (kept.back() - '0') % 2 == 1;
    bool up = next > '5' || (next == '5' && (restNonZero(at + 1) || odd));
    if (up) {
      size_t k = kept.size();
      while (k > 0 && kept[k - 1] == '9')
        kept[--k] = '0';
      if (k == 0)
        kept.insert(kept.begin(), '1');
      else
        ++kept[k - 1];
    }
  }
  std::string rounded = std::string(std::signbit(x) ? "-" : "") + kept + "e" +
                        std::to_string(-ndigits);
  errno = 0;
  double value = std::strtod(rounded.c_str(), nullptr);
  if (errno == ERANGE && std::fabs(value) >= 1.0)
    return PLAIT_NUMERIC_ROUND_OVERFLOW;
  *out = value;
  return PLAIT_NUMERIC_OK;
}

int32_t plait_rt_int_round(int64_t x, int64_t ndigits, int64_t *out) {
  if (ndigits >= 0) {
    *out = x;
    return PLAIT_NUMERIC_OK;
  }
  if (ndigits < -38) { // 10**39 > 2 * |x|: always 0
    *out = 0;
    return PLAIT_NUMERIC_OK;
  }
  // CPython's _PyLong_DivmodNear: the nearest quotient, halves to even.
  __int128 power = 1;
  for (int64_t k = 0; k < -ndigits; ++k)
    power *= 10;
  __int128 quotient = x / power, remainder = x % power;
  if (remainder < 0) {
    remainder += power;
    quotient -= 1;
  }
  if (2 * remainder > power || (2 * remainder == power && (quotient & 1)))
    quotient += 1;
  __int128 result = quotient * power;
  if (result < INT64_MIN || result > INT64_MAX)
    return PLAIT_NUMERIC_INT_OVERFLOW;
  *out = static_cast<int64_t>(result);
  return PLAIT_NUMERIC_OK;
}

static double numpyPowerOfTen(int64_t n) {
  // NumPy's power_of_ten: a table, then repeated multiplication.
  static const double table[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  if (n < 9)
    return table[n];
  double result = 1e9;
  for (int64_t k = 9; k < n && std::isfinite(result); ++k)
    result *= 10.;
  return result;
}

double plait_rt_np_round_f64(double x, int64_t decimals) {
  double f = numpyPowerOfTen(decimals >= 0 ? decimals : -decimals);
  return decimals >= 0 ? std::nearbyint(x * f) / f : std::nearbyint(x / f) * f;
}

float plait_rt_np_round_f32(float x, int64_t decimals) {
  // The power of ten meets float32 as a weak Python float: in float32.
  float f = static_cast<float>(numpyPowerOfTen(decimals >= 0 ? decimals : -decimals));
  return decimals >= 0 ? std::nearbyint(x * f) / f : std::nearbyint(x / f) * f;
}

int32_t plait_rt_float_to_int(double x, int64_t *out) {
  return integralToInt(std::trunc(x), out);
}

int32_t plait_rt_float_floor_to_int(double x, int64_t *out) {
  return integralToInt(std::floor(x), out);
}

int32_t plait_rt_float_ceil_to_int(double x, int64_t *out) {
  return integralToInt(std::ceil(x), out);
}

} // extern "C"
