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
#include "plait/Support/Half.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

namespace {

constexpr int64_t kBlockSize = 128;

using plait::Accumulator;
using plait::AccumulatorOf;
using plait::Half;

/// In the type NumPy's loop adds in (float for float16).
template <typename T> AccumulatorOf<T> pairwiseSum(const T *a, int64_t n, int64_t stride) {
  using Acc = AccumulatorOf<T>;
  auto at = [&](int64_t i) { return Accumulator<T>::load(a[i * stride]); };
  if (n < 8) {
    // NumPy starts from -0.0 so that a sum of -0.0s keeps its sign.
    Acc result = static_cast<Acc>(-0.0);
    for (int64_t i = 0; i < n; ++i)
      result += at(i);
    return result;
  }
  if (n <= kBlockSize) {
    Acc r[8];
    for (int k = 0; k < 8; ++k)
      r[k] = at(k);
    int64_t i;
    for (i = 8; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; ++k)
        r[k] += at(i + k);
    Acc result = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i)
      result += at(i);
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

extern "C" int32_t plait_rt_reshape_strides(int64_t oldnd, int64_t oldDimsAddress,
                                            int64_t oldStridesAddress, int64_t newnd,
                                            int64_t newDimsAddress, int64_t newStridesAddress) {
  const auto *oldDimsIn = reinterpret_cast<const int64_t *>(oldDimsAddress);
  const auto *oldStridesIn = reinterpret_cast<const int64_t *>(oldStridesAddress);
  const auto *newDims = reinterpret_cast<const int64_t *>(newDimsAddress);
  auto *newStrides = reinterpret_cast<int64_t *>(newStridesAddress);
  for (int64_t axis = 0; axis < newnd; ++axis)
    if (newDims[axis] == 0)
      return 0; // empty: nothing to view (NumPy's caller never gets here)
  // Axes of one element have no effect on the layout: dropped first.
  std::vector<int64_t> oldDims, oldStrides;
  for (int64_t axis = 0; axis < oldnd; ++axis)
    if (oldDimsIn[axis] != 1) {
      oldDims.push_back(oldDimsIn[axis]);
      oldStrides.push_back(oldStridesIn[axis]);
    }
  int64_t oldCount = static_cast<int64_t>(oldDims.size());
  // [oi, oj) and [ni, nj): the old and new axes of one group of equal size.
  int64_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldCount) {
    int64_t newSize = newDims[ni], oldSize = oldDims[oi];
    while (newSize != oldSize) {
      if (newSize < oldSize)
        newSize *= newDims[nj++]; // (trailing ones are handled below)
      else
        oldSize *= oldDims[oj++];
    }
    for (int64_t k = oi; k < oj - 1; ++k) // can the old axes be merged?
      if (oldStrides[k] != oldDims[k + 1] * oldStrides[k + 1])
        return 0;
    newStrides[nj - 1] = oldStrides[oj - 1];
    for (int64_t k = nj - 1; k > ni; --k)
      newStrides[k - 1] = newStrides[k] * newDims[k];
    ni = nj++;
    oi = oj++;
  }
  int64_t lastStride = ni >= 1 ? newStrides[ni - 1] : 1;
  for (int64_t k = ni; k < newnd; ++k)
    newStrides[k] = lastStride;
  return 1;
}

extern "C" double plait_rt_pairwise_sum_f64(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const double *>(data), n, stride);
}

extern "C" double plait_rt_pairwise_sum_f32(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const float *>(data), n, stride);
}

extern "C" double plait_rt_pairwise_sum_f16(int64_t data, int64_t n, int64_t stride) {
  return pairwiseSum(reinterpret_cast<const Half *>(data), n, stride);
}

namespace {
/// A few axes, without touching the heap: an axis reduction calls this
/// runtime once per result element (a (300, 300, 3) sum over its last axis,
/// 90,000 times), where allocating took longer than adding three numbers.
template <typename T> class AxisList {
public:
  static constexpr size_t kCapacity = 64; // NumPy's NPY_MAXDIMS
  void push_back(const T &item) { items[count++] = item; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  T &back() { return items[count - 1]; }
  T &operator[](size_t k) { return items[k]; }
  const T &operator[](size_t k) const { return items[k]; }
  T *begin() { return items.data(); }
  T *end() { return items.data() + count; }
  const T *begin() const { return items.data(); }
  const T *end() const { return items.data() + count; }

private:
  std::array<T, kCapacity> items;
  size_t count = 0;
};

/// Sums the elements an axis reduction adds into one result, in the order
/// NumPy's buffered reduction iterator adds them. The iterator orders the
/// array's axes (axes of one element dropped, largest |stride| outermost,
/// stable). The innermost run of reduced axes is NumPy's inner loop: summed
/// pairwise, directly when its axes coalesce into one, else copied in order
/// into buffers of 8192 elements, each summed pairwise. The other reduced
/// axes (outside the run) add those sums in order; when the innermost axis
/// is kept, every element is added in order. Totals start from +0.0.
/// Products (np.multiply.reduce has no pairwise loop) multiply every element
/// in the same order, from 1. float16 computes in float within each call of
/// the inner loop and rounds the total to float16 after it, as NumPy's HALF
/// loops do; `CastToAcc` sums float16 as dtype=float32 does (the elements
/// are cast, so the iterator always buffers).
template <typename T, bool Product, bool CastToAcc = false>
double reductionOf(int64_t data, int64_t ndim, int64_t dimsAddress, int64_t stridesAddress,
                   int64_t reducedMask) {
  constexpr int64_t bufferSize = 8192; // NumPy's default (np.getbufsize())
  const auto *dims = reinterpret_cast<const int64_t *>(dimsAddress);
  const auto *strides = reinterpret_cast<const int64_t *>(stridesAddress);
  const T *base = reinterpret_cast<const T *>(data);
  struct Axis {
    int64_t size, stride;
    bool reduced;
  };
  if (ndim < 0 || static_cast<size_t>(ndim) > AxisList<Axis>::kCapacity)
    return std::nan("");
  using Acc = AccumulatorOf<T>;
  using Out = std::conditional_t<CastToAcc, Acc, T>;
  auto round = [](Acc value) { return Accumulator<Out>::load(Accumulator<Out>::store(value)); };
  // The common case first: only the last axis is reduced and it is the
  // innermost (the smallest stride of the axes of more than one element),
  // so NumPy's inner loop is that one axis, summed pairwise.
  if (!Product && !CastToAcc && ndim > 0 && reducedMask == (int64_t(1) << (ndim - 1)) &&
      dims[ndim - 1] > 1) {
    int64_t last = std::abs(strides[ndim - 1]);
    bool innermost = true;
    for (int64_t axis = 0; axis + 1 < ndim; ++axis)
      innermost = innermost && (dims[axis] == 1 || std::abs(strides[axis]) > last);
    if (innermost)
      return round(Acc(0) + pairwiseSum(base, dims[ndim - 1], strides[ndim - 1]));
  }
  AxisList<Axis> axes; // outermost first
  for (int64_t axis = 0; axis < ndim; ++axis) {
    bool reduced = (reducedMask >> axis) & 1;
    if (reduced && dims[axis] == 0)
      return Product ? 1.0 : 0.0;
    if (dims[axis] != 1)
      axes.push_back({dims[axis], strides[axis], reduced});
  }
  // A stable sort by |stride|, largest first (insertion: a few axes).
  for (size_t k = 1; k < axes.size(); ++k)
    for (size_t j = k; j > 0 && std::abs(axes[j - 1].stride) < std::abs(axes[j].stride); --j)
      std::swap(axes[j - 1], axes[j]);
  // The run of reduced axes innermost, coalesced where the strides allow.
  size_t runStart = axes.size();
  while (runStart > 0 && axes[runStart - 1].reduced)
    --runStart;
  AxisList<Axis> outer, run;
  for (size_t k = 0; k < axes.size(); ++k)
    if (axes[k].reduced)
      (k < runStart ? outer : run).push_back(axes[k]);
  AxisList<Axis> merged;
  for (const Axis &axis : run) {
    if (!merged.empty() && merged.back().stride == axis.size * axis.stride)
      merged.back() = {merged.back().size * axis.size, axis.stride, true};
    else
      merged.push_back(axis);
  }
  if (run.empty()) // the innermost axis is kept: every element in order
    outer.push_back({1, 0, true});
  // Visits each index of `axes` in order (the last fastest).
  auto forEach = [](const AxisList<Axis> &of, const T *from, auto &&visit) {
    std::array<int64_t, AxisList<Axis>::kCapacity> at{};
    while (true) {
      const T *p = from;
      for (size_t k = 0; k < of.size(); ++k)
        p += at[k] * of[k].stride;
      visit(p);
      size_t k = of.size();
      while (k > 0 && ++at[k - 1] == of[k - 1].size)
        at[--k] = 0;
      if (k == 0)
        return;
    }
  };
  // The total is rounded to the output's type after each inner loop.
  std::vector<T> buffer;
  Acc total = Product ? 1 : 0;
  auto addBuffer = [&] {
    total = round(total + pairwiseSum(buffer.data(), static_cast<int64_t>(buffer.size()), 1));
    buffer.clear();
  };
  forEach(outer, base, [&](const T *start) {
    if (Product) {
      if (merged.empty()) {
        total = round(total * Accumulator<T>::load(*start));
      } else {
        forEach(merged, start, [&](const T *element) { total *= Accumulator<T>::load(*element); });
        total = round(total);
      }
    } else if (merged.empty()) {
      total = round(total + Accumulator<T>::load(*start));
    } else if (merged.size() == 1 && !CastToAcc) {
      total = round(total + pairwiseSum(start, merged[0].size, merged[0].stride));
    } else {
      forEach(merged, start, [&](const T *element) {
        buffer.push_back(*element);
        if (static_cast<int64_t>(buffer.size()) == bufferSize)
          addBuffer();
      });
      if (!buffer.empty())
        addBuffer();
    }
  });
  return total;
}
} // namespace

extern "C" double plait_rt_reduction_sum_f64(int64_t data, int64_t ndim, int64_t dims,
                                             int64_t strides, int64_t reducedMask) {
  return reductionOf<double, false>(data, ndim, dims, strides, reducedMask);
}

extern "C" double plait_rt_reduction_prod_f64(int64_t data, int64_t ndim, int64_t dims,
                                              int64_t strides, int64_t reducedMask) {
  return reductionOf<double, true>(data, ndim, dims, strides, reducedMask);
}

extern "C" double plait_rt_reduction_sum_f32(int64_t data, int64_t ndim, int64_t dims,
                                             int64_t strides, int64_t reducedMask) {
  return reductionOf<float, false>(data, ndim, dims, strides, reducedMask);
}

extern "C" double plait_rt_reduction_prod_f32(int64_t data, int64_t ndim, int64_t dims,
                                              int64_t strides, int64_t reducedMask) {
  return reductionOf<float, true>(data, ndim, dims, strides, reducedMask);
}

extern "C" double plait_rt_reduction_sum_f16(int64_t data, int64_t ndim, int64_t dims,
                                             int64_t strides, int64_t reducedMask) {
  return reductionOf<Half, false>(data, ndim, dims, strides, reducedMask);
}

extern "C" double plait_rt_reduction_prod_f16(int64_t data, int64_t ndim, int64_t dims,
                                              int64_t strides, int64_t reducedMask) {
  return reductionOf<Half, true>(data, ndim, dims, strides, reducedMask);
}

extern "C" double plait_rt_reduction_sum_f16_as_f32(int64_t data, int64_t ndim, int64_t dims,
                                                    int64_t strides, int64_t reducedMask) {
  return reductionOf<Half, false, true>(data, ndim, dims, strides, reducedMask);
}

//===----------------------------------------------------------------------===//
// Complex numbers
//===----------------------------------------------------------------------===//

extern "C" int32_t plait_rt_py_complex_div(double ar, double ai, double br, double bi,
                                           int64_t out) {
  // CPython's _Py_c_quot (Smith's method, dividing by the denominator).
  double *r = reinterpret_cast<double *>(out);
  double absBr = std::fabs(br), absBi = std::fabs(bi);
  if (absBr >= absBi) {
    if (absBr == 0.0)
      return 1; // ZeroDivisionError
    double ratio = bi / br;
    double denominator = br + bi * ratio;
    r[0] = (ar + ai * ratio) / denominator;
    r[1] = (ai - ar * ratio) / denominator;
  } else if (absBi >= absBr) {
    double ratio = br / bi;
    double denominator = br * ratio + bi;
    r[0] = (ar * ratio + ai) / denominator;
    r[1] = (ai * ratio - ar) / denominator;
  } else { // a NaN in the divisor
    r[0] = r[1] = std::nan("");
  }
  return 0;
}

namespace {
/// Annex G's recovery steps: an infinite part becomes +-1 and a finite one
/// +-0 (the "box" of an infinity); a NaN part becomes +-0.
void boxInfinities(double &re, double &im) {
  re = std::copysign(std::isinf(re) ? 1.0 : 0.0, re);
  im = std::copysign(std::isinf(im) ? 1.0 : 0.0, im);
}
void zeroNaNs(double &re, double &im) {
  if (std::isnan(re))
    re = std::copysign(0.0, re);
  if (std::isnan(im))
    im = std::copysign(0.0, im);
}
} // namespace

extern "C" int32_t plait_rt_py_complex_div_annex_g(double ar, double ai, double br, double bi,
                                                   int64_t out) {
  // CPython 3.14's _Py_c_quot: Smith's method, then C11 Annex G.5.2's
  // recovery of infinities and zeros that computed as nan+nanj.
  if (int32_t status = plait_rt_py_complex_div(ar, ai, br, bi, out))
    return status;
  double *r = reinterpret_cast<double *>(out);
  if (std::isnan(r[0]) && std::isnan(r[1])) {
    if ((std::isinf(ar) || std::isinf(ai)) && std::isfinite(br) && std::isfinite(bi)) {
      double x = ar, y = ai;
      boxInfinities(x, y);
      r[0] = HUGE_VAL * (x * br + y * bi);
      r[1] = HUGE_VAL * (y * br - x * bi);
    } else if ((std::isinf(br) || std::isinf(bi)) && std::isfinite(ar) && std::isfinite(ai)) {
      double x = br, y = bi;
      boxInfinities(x, y);
      r[0] = 0.0 * (ar * x + ai * y);
      r[1] = 0.0 * (ai * x - ar * y);
    }
  }
  return 0;
}

extern "C" int32_t plait_rt_py_real_complex_div(double a, double br, double bi, int64_t out) {
  // CPython 3.14's _Py_rc_quot: a real dividend stays real. Smith's method
  // as in plait_rt_py_complex_div without the dividend's imaginary part (a
  // zero there would change the sign of zero results).
  double *r = reinterpret_cast<double *>(out);
  double absBr = std::fabs(br), absBi = std::fabs(bi);
  if (absBr >= absBi) {
    if (absBr == 0.0)
      return 1; // ZeroDivisionError
    double ratio = bi / br;
    double denominator = br + bi * ratio;
    r[0] = a / denominator;
    r[1] = (-a * ratio) / denominator;
  } else if (absBi >= absBr) {
    double ratio = br / bi;
    double denominator = br * ratio + bi;
    r[0] = (a * ratio) / denominator;
    r[1] = (-a) / denominator;
  } else { // a NaN in the divisor
    r[0] = r[1] = std::nan("");
  }
  if (std::isnan(r[0]) && std::isnan(r[1]) && std::isfinite(a) &&
      (std::isinf(absBr) || std::isinf(absBi))) {
    double x = br, y = bi;
    boxInfinities(x, y);
    r[0] = 0.0 * (a * x);
    r[1] = 0.0 * (-a * y);
  }
  return 0;
}

extern "C" int32_t plait_rt_py_complex_mul_annex_g(double a, double b, double c, double d,
                                                   int64_t out) {
  // CPython 3.14's _Py_c_prod: C11 Annex G.5.1's _Cmultd recovery.
  double *r = reinterpret_cast<double *>(out);
  double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  r[0] = ac - bd;
  r[1] = ad + bc;
  if (!std::isnan(r[0]) || !std::isnan(r[1]))
    return 0;
  bool recalc = false;
  if (std::isinf(a) || std::isinf(b)) {
    boxInfinities(a, b);
    zeroNaNs(c, d);
    recalc = true;
  }
  if (std::isinf(c) || std::isinf(d)) {
    boxInfinities(c, d);
    zeroNaNs(a, b);
    recalc = true;
  }
  if (!recalc && (std::isinf(ac) || std::isinf(bd) || std::isinf(ad) || std::isinf(bc))) {
    zeroNaNs(a, b);
    zeroNaNs(c, d);
    recalc = true;
  }
  if (recalc) {
    r[0] = HUGE_VAL * (a * c - b * d);
    r[1] = HUGE_VAL * (a * d + b * c);
  }
  return 0;
}

namespace {
/// NumPy's complex division loop: Smith's method multiplying by the
/// reciprocal of the denominator; a zero divisor gives inf/nan. In the
/// parts' own precision.
template <typename T> void numpyComplexDivide(T ar, T ai, T br, T bi, T *r) {
  T absBr = std::fabs(br), absBi = std::fabs(bi);
  if (absBr >= absBi) {
    if (absBr == 0 && absBi == 0) {
      r[0] = ar / absBr;
      r[1] = ai / absBr;
    } else {
      T ratio = bi / br;
      T scale = T(1) / (br + bi * ratio);
      r[0] = (ar + ai * ratio) * scale;
      r[1] = (ai - ar * ratio) * scale;
    }
  } else {
    T ratio = br / bi;
    T scale = T(1) / (bi + br * ratio);
    r[0] = (ar * ratio + ai) * scale;
    r[1] = (ai * ratio - ar) * scale;
  }
}
} // namespace

extern "C" int32_t plait_rt_np_complex_div(double ar, double ai, double br, double bi,
                                           int64_t out) {
  numpyComplexDivide(ar, ai, br, bi, reinterpret_cast<double *>(out));
  return 0;
}

extern "C" int32_t plait_rt_np_complex_div_f32(float ar, float ai, float br, float bi,
                                               int64_t out) {
  numpyComplexDivide(ar, ai, br, bi, reinterpret_cast<float *>(out));
  return 0;
}

namespace {

/// NumPy's pairwise summation of complex numbers: real and imaginary parts
/// in separate accumulators, four numbers per block of eight scalars.
template <typename T> void pairwiseSumComplex(T &rr, T &ri, const T *a, int64_t n, int64_t stride) {
  // n counts scalars (twice the numbers); stride is in numbers.
  auto re = [&](int64_t i) { return a[(i / 2) * stride * 2]; };
  auto im = [&](int64_t i) { return a[(i / 2) * stride * 2 + 1]; };
  if (n < 8) {
    rr = -0.0;
    ri = -0.0;
    for (int64_t i = 0; i < n; i += 2) {
      rr += re(i);
      ri += im(i);
    }
    return;
  }
  if (n <= kBlockSize) {
    T r[8];
    for (int k = 0; k < 8; k += 2) {
      r[k] = re(k);
      r[k + 1] = im(k);
    }
    int64_t i;
    for (i = 8; i < n - (n % 8); i += 8)
      for (int k = 0; k < 8; k += 2) {
        r[k] += re(i + k);
        r[k + 1] += im(i + k);
      }
    rr = (r[0] + r[2]) + (r[4] + r[6]);
    ri = (r[1] + r[3]) + (r[5] + r[7]);
    for (; i < n; i += 2) {
      rr += re(i);
      ri += im(i);
    }
    return;
  }
  int64_t half = n / 2;
  half -= half % 8;
  T rr1, ri1, rr2, ri2;
  pairwiseSumComplex(rr1, ri1, a, half, stride);
  pairwiseSumComplex(rr2, ri2, a + (half / 2) * stride * 2, n - half, stride);
  rr = rr1 + rr2;
  ri = ri1 + ri2;
}

} // namespace

extern "C" int32_t plait_rt_pairwise_sum_c128(int64_t data, int64_t n, int64_t stride, int64_t out) {
  double *r = reinterpret_cast<double *>(out);
  pairwiseSumComplex(r[0], r[1], reinterpret_cast<const double *>(data), 2 * n, stride);
  return 0;
}

extern "C" int32_t plait_rt_pairwise_sum_c64(int64_t data, int64_t n, int64_t stride, int64_t out) {
  float *r = reinterpret_cast<float *>(out);
  pairwiseSumComplex(r[0], r[1], reinterpret_cast<const float *>(data), 2 * n, stride);
  return 0;
}

//===----------------------------------------------------------------------===//
// float16 conversions
//===----------------------------------------------------------------------===//

// LLVM lowers float16 conversions the CPU has no instruction for to these
// libgcc/compiler-rt calls; compiled code gets them from here, so that the
// JIT never depends on which runtime library the process happened to load.
extern "C" _Float16 plait_rt_truncdfhf2(double value) { return static_cast<_Float16>(value); }
extern "C" _Float16 plait_rt_truncsfhf2(float value) { return static_cast<_Float16>(value); }
extern "C" float plait_rt_extendhfsf2(_Float16 value) { return value; }
extern "C" double plait_rt_extendhfdf2(_Float16 value) { return value; }
