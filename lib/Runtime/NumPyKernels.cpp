//===- NumPyKernels.cpp - NumPy's numerics for compiled code --------------===//
//
// A port of the pairwise summation in NumPy's loops_utils.h (pairwise_sum):
// below 8 elements a plain loop; up to 128, eight interleaved accumulators
// combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)) plus a tail; above 128,
// the two halves (the first rounded down to a multiple of 8) recursively.
// Never build this file with -ffast-math.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/NumPyKernels.h"

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

} // namespace

extern "C" double plait_rt_pairwise_sum_f64(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const double *>(data), n, stride);
}

extern "C" double plait_rt_pairwise_sum_f32(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const float *>(data), n, stride);
}
