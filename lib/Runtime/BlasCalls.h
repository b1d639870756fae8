//===- BlasCalls.h - calling BLAS as NumPy's C loops call it ----*- C++ -*-===//
//
// The element kinds of products and np.linalg (double, float, complex
// double, wrapping int64), their BLAS routines, calls in the library's
// integer width, NumPy's dot of two strided vectors, and strided operands.
// Internal to the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_BLASCALLS_H
#define PLAIT_RUNTIME_BLASCALLS_H

#include "BlasLibrary.h"
#include "plait/Support/Half.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace plait::runtime::blas {

using plait::Accumulator;
using plait::AccumulatorOf;
using plait::Half;
using plait::runtime::BlasLibrary;
using plait::runtime::BlasRoutine;

template <typename R> struct ComplexOf {
  R re, im;
};
using Complex = ComplexOf<double>;
using ComplexF = ComplexOf<float>;

// CBLAS's enumerations.
enum : int { kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112, kUpper = 121 };

template <typename T> struct Kind {
  static constexpr bool hasBlas = false;
};
template <> struct Kind<double> {
  static constexpr bool hasBlas = true, isComplex = false;
  static constexpr BlasRoutine gemm = BlasRoutine::dgemm, syrk = BlasRoutine::dsyrk,
                               gemv = BlasRoutine::dgemv, dot = BlasRoutine::ddot;
};
template <> struct Kind<float> {
  static constexpr bool hasBlas = true, isComplex = false;
  static constexpr BlasRoutine gemm = BlasRoutine::sgemm, syrk = BlasRoutine::ssyrk,
                               gemv = BlasRoutine::sgemv, dot = BlasRoutine::sdot;
};
template <> struct Kind<Complex> {
  static constexpr bool hasBlas = true, isComplex = true;
  static constexpr BlasRoutine gemm = BlasRoutine::zgemm, syrk = BlasRoutine::zsyrk,
                               gemv = BlasRoutine::zgemv, dot = BlasRoutine::zdotu_sub;
};
template <> struct Kind<ComplexF> {
  static constexpr bool hasBlas = true, isComplex = true;
  static constexpr BlasRoutine gemm = BlasRoutine::cgemm, syrk = BlasRoutine::csyrk,
                               gemv = BlasRoutine::cgemv, dot = BlasRoutine::cdotu_sub;
};

/// The library when T's routines are in it, null for the plain loops.
template <typename T> const BlasLibrary *blasFor() {
  if constexpr (!Kind<T>::hasBlas) {
    return nullptr;
  } else {
    const BlasLibrary &library = plait::runtime::blasLibrary();
    for (BlasRoutine r : {Kind<T>::gemm, Kind<T>::syrk, Kind<T>::gemv, Kind<T>::dot})
      if (!library.routine(r))
        return nullptr;
    return &library;
  }
}

// Arithmetic as NumPy's C loops do it (integers wrap; float16 sums in
// float and rounds once at the end: Accumulator).

template <typename T> T multiplyAdd(T sum, T x, T y) { return sum + x * y; }
template <> inline int64_t multiplyAdd(int64_t sum, int64_t x, int64_t y) {
  return static_cast<int64_t>(static_cast<uint64_t>(sum) +
                              static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
}
template <typename R> ComplexOf<R> multiplyAdd(ComplexOf<R> sum, ComplexOf<R> x, ComplexOf<R> y) {
  return {sum.re + ((x.re * y.re) - (x.im * y.im)), sum.im + ((x.re * y.im) + (x.im * y.re))};
}

/// sum + x * y for elements of type T, accumulated in T's accumulator.
template <typename T> AccumulatorOf<T> multiplyAddElements(AccumulatorOf<T> sum, T x, T y) {
  return multiplyAdd(sum, Accumulator<T>::load(x), Accumulator<T>::load(y));
}

//===----------------------------------------------------------------------===//
// BLAS calls (row-major unless said; alpha 1, beta 0), in the library's
// integer width. Complex scalars go by address.
//===----------------------------------------------------------------------===//

template <typename I, typename T>
void gemmAs(void *f, int trans1, int trans2, int64_t m, int64_t p, int64_t n, const T *a,
            int64_t lda, const T *b, int64_t ldb, T *c, int64_t ldc) {
  if constexpr (Kind<T>::isComplex) {
    static const T one{1, 0}, zero{0, 0};
    using Fn = void (*)(int, int, int, I, I, I, const void *, const void *, I, const void *, I,
                        const void *, void *, I);
    reinterpret_cast<Fn>(f)(kRowMajor, trans1, trans2, I(m), I(p), I(n), &one, a, I(lda), b, I(ldb),
                            &zero, c, I(ldc));
  } else {
    using Fn = void (*)(int, int, int, I, I, I, T, const T *, I, const T *, I, T, T *, I);
    reinterpret_cast<Fn>(f)(kRowMajor, trans1, trans2, I(m), I(p), I(n), T(1), a, I(lda), b, I(ldb),
                            T(0), c, I(ldc));
  }
}

template <typename I, typename T>
void syrkAs(void *f, int trans, int64_t p, int64_t n, const T *a, int64_t lda, T *c, int64_t ldc) {
  if constexpr (Kind<T>::isComplex) {
    static const T one{1, 0}, zero{0, 0};
    using Fn =
        void (*)(int, int, int, I, I, const void *, const void *, I, const void *, void *, I);
    reinterpret_cast<Fn>(f)(kRowMajor, kUpper, trans, I(p), I(n), &one, a, I(lda), &zero, c,
                            I(ldc));
  } else {
    using Fn = void (*)(int, int, int, I, I, T, const T *, I, T, T *, I);
    reinterpret_cast<Fn>(f)(kRowMajor, kUpper, trans, I(p), I(n), T(1), a, I(lda), T(0), c, I(ldc));
  }
}

template <typename I, typename T>
void gemvAs(void *f, int order, int64_t n, int64_t m, const T *a, int64_t lda, const T *x,
            int64_t incx, T *y, int64_t incy) {
  if constexpr (Kind<T>::isComplex) {
    static const T one{1, 0}, zero{0, 0};
    using Fn = void (*)(int, int, I, I, const void *, const void *, I, const void *, I,
                        const void *, void *, I);
    reinterpret_cast<Fn>(f)(order, kTrans, I(n), I(m), &one, a, I(lda), x, I(incx), &zero, y,
                            I(incy));
  } else {
    using Fn = void (*)(int, int, I, I, T, const T *, I, const T *, I, T, T *, I);
    reinterpret_cast<Fn>(f)(order, kTrans, I(n), I(m), T(1), a, I(lda), x, I(incx), T(0), y,
                            I(incy));
  }
}

/// One chunk of a BLAS dot product, widened as NumPy adds the chunks.
template <typename I, typename T>
auto dotAs(void *f, int64_t n, const T *x, int64_t incx, const T *y, int64_t incy) {
  if constexpr (Kind<T>::isComplex) {
    T result;
    using Fn = void (*)(I, const void *, I, const void *, I, void *);
    reinterpret_cast<Fn>(f)(I(n), x, I(incx), y, I(incy), &result);
    return result;
  } else {
    using Fn = T (*)(I, const T *, I, const T *, I);
    return static_cast<double>(reinterpret_cast<Fn>(f)(I(n), x, I(incx), y, I(incy)));
  }
}

//===----------------------------------------------------------------------===//
// NumPy's dot of two strided vectors (TYPE_dot)
//===----------------------------------------------------------------------===//

template <typename T>
T dotOf(const BlasLibrary *blas, const T *x, int64_t incx, const T *y, int64_t incy, int64_t n) {
  if constexpr (Kind<T>::hasBlas) {
    auto blasStride = [&](int64_t s) { return s > 0 && s <= blas->maxSize(); };
    if (blas && blasStride(incx) && blasStride(incy)) {
      constexpr int64_t kChunk = int64_t(1) << 30; // NPY_CBLAS_CHUNK
      void *f = blas->routine(Kind<T>::dot);
      if constexpr (Kind<T>::isComplex) {
        T sum{0, 0};
        for (; n > 0; n -= kChunk, x += kChunk * incx, y += kChunk * incy) {
          int64_t chunk = std::min(n, kChunk);
          T part = blas->ilp64 ? dotAs<int64_t>(f, chunk, x, incx, y, incy)
                               : dotAs<int32_t>(f, chunk, x, incx, y, incy);
          sum.re += part.re;
          sum.im += part.im;
        }
        return sum;
      } else {
        double sum = 0; // NumPy adds the chunks in double
        for (; n > 0; n -= kChunk, x += kChunk * incx, y += kChunk * incy) {
          int64_t chunk = std::min(n, kChunk);
          sum += blas->ilp64 ? dotAs<int64_t>(f, chunk, x, incx, y, incy)
                             : dotAs<int32_t>(f, chunk, x, incx, y, incy);
        }
        return static_cast<T>(sum);
      }
    }
  }
  AccumulatorOf<T> sum{};
  for (int64_t i = 0; i < n; ++i)
    sum = multiplyAddElements(sum, x[i * incx], y[i * incy]);
  return Accumulator<T>::store(sum);
}

//===----------------------------------------------------------------------===//
// Strided operands: an address, sizes and strides in elements
//===----------------------------------------------------------------------===//

template <typename T> struct Operand {
  T *data;
  int64_t ndim;
  const int64_t *dims;
  const int64_t *strides;

  int64_t dim(int64_t axis) const { return dims[axis]; }
  int64_t stride(int64_t axis) const { return strides[axis]; }
};

/// The stacks of two operands broadcast (their first aBatch and bBatch
/// axes, trailing axes lined up, size 1 against any), and a C-contiguous
/// result whose matrices are `core` elements: sizes and the element strides
/// of a, b and the result along them.
struct Stacks {
  std::vector<int64_t> sizes, aStrides, bStrides, outStrides;
};

template <typename T>
Stacks broadcastStacks(const Operand<T> &a, int64_t aBatch, const Operand<T> &b, int64_t bBatch,
                       int64_t core) {
  int64_t batch = std::max(aBatch, bBatch);
  Stacks s{std::vector<int64_t>(batch), std::vector<int64_t>(batch), std::vector<int64_t>(batch),
           std::vector<int64_t>(batch)};
  for (int64_t k = 0; k < batch; ++k) {
    int64_t ka = k - (batch - aBatch), kb = k - (batch - bBatch);
    int64_t aSize = ka >= 0 ? a.dim(ka) : 1, bSize = kb >= 0 ? b.dim(kb) : 1;
    s.sizes[k] = aSize == 1 ? bSize : aSize;
    s.aStrides[k] = ka >= 0 && aSize != 1 ? a.stride(ka) : 0;
    s.bStrides[k] = kb >= 0 && bSize != 1 ? b.stride(kb) : 0;
  }
  for (int64_t k = batch - 1, step = core; k >= 0; --k) {
    s.outStrides[k] = step;
    step *= s.sizes[k];
  }
  return s;
}

/// Calls `body(offsets)` for every index of `sizes` (C order), with the
/// matching element offset into each operand (strides per operand).
template <typename F>
void forEachIndex(const std::vector<int64_t> &sizes,
                  const std::vector<std::vector<int64_t>> &strides, F body) {
  size_t rank = sizes.size();
  for (int64_t size : sizes)
    if (size == 0)
      return;
  std::vector<int64_t> index(rank, 0), offsets(strides.size(), 0);
  while (true) {
    body(offsets);
    size_t axis = rank;
    while (axis > 0) {
      --axis;
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] += strides[k][axis];
      if (++index[axis] < sizes[axis])
        break;
      for (size_t k = 0; k < strides.size(); ++k)
        offsets[k] -= strides[k][axis] * sizes[axis];
      index[axis] = 0;
      if (axis == 0)
        return;
    }
    if (rank == 0)
      return;
  }
}

} // namespace plait::runtime::blas

#endif // PLAIT_RUNTIME_BLASCALLS_H
