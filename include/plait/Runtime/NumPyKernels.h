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
/// float16 data summed in float, as NumPy's HALF loop does (the caller
/// rounds the result to float16).
double plait_rt_pairwise_sum_f16(int64_t data, int64_t n, int64_t stride);
/// The float sum one element of np.add.reduce adds up: the elements of the
/// array at `data` (its `ndim` sizes and strides, in elements, at `dims` and
/// `strides`) along the axes set in `reducedMask`, in the order NumPy's
/// reduction iterator adds them (pairwise within its inner loop).
double plait_rt_reduction_sum_f64(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                  int64_t reducedMask);
double plait_rt_reduction_sum_f32(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                  int64_t reducedMask);
/// The same for np.multiply.reduce: every element multiplied in that order.
double plait_rt_reduction_prod_f64(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                   int64_t reducedMask);
double plait_rt_reduction_prod_f32(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                   int64_t reducedMask);
/// float16: in float within each inner loop, rounded to float16 after it;
/// `_as_f32` is np.sum(a, dtype=np.float32) of float16 data.
double plait_rt_reduction_sum_f16(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                  int64_t reducedMask);
double plait_rt_reduction_prod_f16(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                   int64_t reducedMask);
double plait_rt_reduction_sum_f16_as_f32(int64_t data, int64_t ndim, int64_t dims, int64_t strides,
                                         int64_t reducedMask);

/// NumPy's _attempt_nocopy_reshape (C order): the strides (in elements) that
/// make the `newnd` sizes at `newDims` a view of an array of `oldnd` sizes
/// and strides, written to `newStrides`; 0 when there are none (a copy is
/// needed, or the new shape is empty). Arguments are addresses of int64
/// arrays.
int32_t plait_rt_reshape_strides(int64_t oldnd, int64_t oldDims, int64_t oldStrides, int64_t newnd,
                                 int64_t newDims, int64_t newStrides);

/// np.floor_divide and np.remainder of NumPy floats: Python's floor
/// semantics, but IEEE results where Python raises (x // 0.0 is x / 0.0,
/// x % 0.0 is fmod(x, 0.0), i.e. NaN). In the operands' own precision.
double plait_rt_np_floordiv_f64(double a, double b);
double plait_rt_np_remainder_f64(double a, double b);
float plait_rt_np_floordiv_f32(float a, float b);
float plait_rt_np_remainder_f32(float a, float b);
/// np.power of integers with a non-negative exponent, wrapping modulo 2**64
/// (callers truncate to narrower types, which is the same modulo 2**n).
int64_t plait_rt_np_int_pow(int64_t base, int64_t exponent);

/// Complex division into out[0], out[1]: CPython's (returns 1 for a zero
/// divisor: ZeroDivisionError) and NumPy's (never fails: inf/nan).
int32_t plait_rt_py_complex_div(double ar, double ai, double br, double bi, int64_t out);
/// CPython 3.14's _Py_c_quot (with C11 Annex G.5.2's recovery of
/// infinities and zeros), _Py_rc_quot and _Py_c_prod (Annex G.5.1).
int32_t plait_rt_py_complex_div_annex_g(double ar, double ai, double br, double bi, int64_t out);
int32_t plait_rt_py_real_complex_div(double a, double br, double bi, int64_t out);
int32_t plait_rt_py_complex_mul_annex_g(double ar, double ai, double br, double bi, int64_t out);
int32_t plait_rt_np_complex_div(double ar, double ai, double br, double bi, int64_t out);
int32_t plait_rt_np_complex_div_f32(float ar, float ai, float br, float bi, int64_t out);
/// np.add.reduce of `n` complex128 numbers `stride` numbers apart into
/// out[0], out[1] (NumPy's pairwise summation); returns 0.
int32_t plait_rt_pairwise_sum_c128(int64_t data, int64_t n, int64_t stride, int64_t out);
int32_t plait_rt_pairwise_sum_c64(int64_t data, int64_t n, int64_t stride, int64_t out);

/// float16 conversions, registered under the names LLVM calls them by
/// (__truncdfhf2, __truncsfhf2, __extendhfsf2, __extendhfdf2).
_Float16 plait_rt_truncdfhf2(double value);
_Float16 plait_rt_truncsfhf2(float value);
float plait_rt_extendhfsf2(_Float16 value);
double plait_rt_extendhfdf2(_Float16 value);
}

#endif // PLAIT_RUNTIME_NUMPYKERNELS_H
