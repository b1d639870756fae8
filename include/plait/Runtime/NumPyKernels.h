//===- NumPyKernels.h - NumPy's numerics for compiled code ------*- C++ -*-===//
//
// Where NumPy's result depends on its algorithm (not just on IEEE arithmetic),
// compiled code calls these so that results match NumPy's bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_NUMPYKERNELS_H
#define PLAIT_RUNTIME_NUMPYKERNELS_H

#include <cstdint>

extern "C" {
/// np.add.reduce over `n` elements `stride` elements apart: NumPy's pairwise
/// summation (8 accumulators in blocks of 128, halves above that).
double plait_rt_pairwise_sum_f64(int64_t data, int64_t n, int64_t stride);
/// The same in float32 arithmetic (NumPy sums float32 arrays in float32).
double plait_rt_pairwise_sum_f32(int64_t data, int64_t n, int64_t stride);
}

#endif // PLAIT_RUNTIME_NUMPYKERNELS_H
