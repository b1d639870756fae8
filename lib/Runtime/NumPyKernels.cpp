//===- NumPyKernels.cpp - NumPy's numerics for compiled code --------------===//
//
// A port of the pairwise summation in NumPy's loops_utils.h (pairwise_sum):
// below 8 elements a plain loop; up to 128, eight interleaved accumulators
// combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) plus a tail; above 128,
// the two halves (the first rounded down to a multiple of 8) recursively.
// The floor division and remainder of NumPy's float scalars follow its
// npy_divmod (npymath), which computes Python's floor semantics from fmod.
// Never build this file with -ffast-math.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/NumPyKernels.h"

#include <cmath>

namespace {

constexpr int64_t kBlockSize = 128;

template <typename T>
T pairwiseSum(const T *a, int64_t n, int64_t stride) {
  if (n < 8) {
    // NumPy starts from -0.0 so that a sum of -0.0s keeps its sign.
    T result = static_cast<T>(-0.0);
    for (int64_t i = 0; i < n; ++i)
      result += a[i * stride];
    return result;
  }
  if (n <= kBlockSize) {
    T r[8];
    for (int k = 0; k < 8; ++k)
      r[k] = a[k * stride];
    int64_t i;
    for (i = 8; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k)
        r[k] += a[(i + k) * stride];
    T result = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i)
      result += a[i * stride];
    return result;
  }
  int64_t half = n / 2;
  half -= half % 8;
  return pairwiseSum(a, half, stride) + pairwiseSum(a + half * stride, n - half, stride);
}

/// NumPy's divmod of floats: the remainder has the divisor's sign, the
/// quotient is floored and corrected when it lands just below an integer.
template <typename T>
T floorDivMod(T a, T b, T &mod) {
  mod = std::fmod(a, b);
  if (b == 0) // NumPy does not raise: inf or NaN, as IEEE division gives
    return a / b;
  T div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= T(1);
    }
  } else {
    mod = std::copysign(T(0), b);
  }
  T floorDiv;
  if (div != 0) {
    floorDiv = std::floor(div);
    if (div - floorDiv > T(0.5))
      floorDiv += T(1);
  } else {
    floorDiv = std::copysign(T(0), a / b);
  }
  return floorDiv;
}

} // namespace

extern "C" double plait_rt_np_floordiv_f64(double a, double b) {
  double mod;
  return floorDivMod(a, b, mod);
}

extern "C" double plait_rt_np_remainder_f64(double a, double b) {
  double mod;
  floorDivMod(a, b, mod);
  return mod;
}

extern "C" float plait_rt_np_floordiv_f32(float a, float b) {
  float mod;
  return floorDivMod(a, b, mod);
}

extern "C" float plait_rt_np_remainder_f32(float a, float b) {
  float mod;
  floorDivMod(a, b, mod);
  return mod;
}

extern "C" int64_t plait_rt_np_int_pow(int64_t base, int64_t exponent) {
  uint64_t result = 1, square = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exponent); e; e >>= 1) {
    if (e & 1)
      result *= square;
    square *= square;
  }
  return static_cast<int64_t>(result);
}

extern "C" double plait_rt_pairwise_sum_f64(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const double *>(data), n, stride);
}

extern "C" double plait_rt_pairwise_sum_f32(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const float *>(data), n, stride);
}
