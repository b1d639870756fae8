//===- Linalg.cpp - np.linalg as NumPy's _umath_linalg computes it --------===//
//
// A port of NumPy's linalg gufuncs (linalg/umath_linalg.cpp) for float64
// and complex128, the types NumPy computes every np.linalg function in:
// each matrix of a stack is copied to a column-major buffer, handed to the
// same LAPACK routine with the same arguments, and copied back. np.linalg.norm
// follows linalg/_linalg.py: the BLAS dot of the array in memory order for
// the default norm, sums in NumPy's reduction order, singular values from
// gesdd. Statuses are LinearAlgebra.h's.
// Never build this file with -ffast-math.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/LinearAlgebra.h"
#include "plait/Runtime/NumPyKernels.h"
#include "plait/Support/HostCPU.h"
#include "plait/Support/NumPyLoops.h"

#include "BlasCalls.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

namespace {

using namespace plait::runtime::blas;
using plait::runtime::blasLibrary;

/// The status of a function whose LAPACK routine the library lacks.
constexpr int32_t kNoLapack = 4;

template <typename T>
using RealOf = std::conditional_t<std::is_same_v<T, Complex>, double,
                                  std::conditional_t<std::is_same_v<T, ComplexF>, float, T>>;

//===----------------------------------------------------------------------===//
// LAPACK calls: Fortran's (every argument by address; a character argument
// also passes its length after the others), in the library's integer width.
//===----------------------------------------------------------------------===//

/// Calls LAPACK routine `r` with `args`, ints converted to the library's
/// width (int64_t* arguments are passed as pointers to that width).
class Lapack {
public:
  explicit Lapack(BlasRoutine r) : library(blasLibrary()), f(library.routine(r)) {}
  bool available() const { return f != nullptr; }
  bool ilp64() const { return library.ilp64; }
  void *routine() const { return f; }

private:
  const BlasLibrary &library;
  void *f;
};

/// An integer argument in the library's width.
struct FortranInt {
  int64_t wide;
  int32_t narrow;
  FortranInt(int64_t v = 0) : wide(v), narrow(static_cast<int32_t>(v)) {}
  void *at(bool ilp64) { return ilp64 ? static_cast<void *>(&wide) : &narrow; }
  int64_t value(bool ilp64) const { return ilp64 ? wide : narrow; }
};

/// An array of integers in the library's width (pivots, iwork).
struct FortranInts {
  std::vector<int64_t> wide;
  std::vector<int32_t> narrow;
  bool ilp64;
  FortranInts(bool ilp64, size_t n) : ilp64(ilp64) { ilp64 ? wide.resize(n) : narrow.resize(n); }
  void *data() { return ilp64 ? static_cast<void *>(wide.data()) : narrow.data(); }
  int64_t operator[](size_t i) const { return ilp64 ? wide[i] : narrow[i]; }
};

/// The workspace size a LAPACK query (lwork = -1) wrote to work[0].
template <typename T> int64_t workspaceSize(const T &query) {
  if constexpr (std::is_same_v<T, Complex>)
    return static_cast<int64_t>(query.re);
  else
    return static_cast<int64_t>(query);
}

template <typename... Args> void callFortran(void *f, Args... args) {
  reinterpret_cast<void (*)(Args...)>(f)(args...);
}

/// complex64 takes part in norms only (NumPy computes the rest in complex128).
template <typename T>
constexpr bool isComplex = std::is_same_v<T, Complex> || std::is_same_v<T, ComplexF>;

//===----------------------------------------------------------------------===//
// Column-major copies (NumPy's linearize_matrix / delinearize_matrix)
//===----------------------------------------------------------------------===//

/// buffer[c * ld + r] = matrix[r, c] for an (rows, columns) matrix.
template <typename T>
void toColumnMajor(const T *matrix, int64_t rowStride, int64_t columnStride, int64_t rows,
                   int64_t columns, T *buffer, int64_t ld) {
  for (int64_t c = 0; c < columns; ++c)
    for (int64_t r = 0; r < rows; ++r)
      buffer[c * ld + r] = matrix[r * rowStride + c * columnStride];
}

/// The reverse, into a C-contiguous (rows, columns) result.
template <typename T>
void fromColumnMajor(const T *buffer, int64_t ld, int64_t rows, int64_t columns, T *out) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < columns; ++c)
      out[r * columns + c] = buffer[c * ld + r];
}

template <typename T>
Operand<T> operandOf(int64_t data, int64_t ndim, int64_t dims, int64_t strides) {
  return {reinterpret_cast<T *>(data), ndim, reinterpret_cast<const int64_t *>(dims),
          reinterpret_cast<const int64_t *>(strides)};
}

/// Calls body(aOffset, outIndex) for each matrix of a's stack (its axes
/// before the last `core`), the results numbered in C order.
template <typename T, typename F> void forEachMatrix(const Operand<T> &a, int core, F body) {
  std::vector<int64_t> sizes(a.dims, a.dims + a.ndim - core);
  std::vector<int64_t> strides(a.strides, a.strides + a.ndim - core), numbers(sizes.size());
  int64_t step = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    numbers[k] = step;
    step *= sizes[k];
  }
  forEachIndex(sizes, {strides, numbers},
               [&](const std::vector<int64_t> &at) { body(at[0], at[1]); });
}

//===----------------------------------------------------------------------===//
// solve, inv, det, cholesky, eigh
//===----------------------------------------------------------------------===//

template <typename T> BlasRoutine gesvOf() {
  return isComplex<T> ? BlasRoutine::zgesv : BlasRoutine::dgesv;
}

/// gesv on column-major copies; false when a matrix is singular.
template <typename T> bool gesv(Lapack &lapack, int64_t n, int64_t nrhs, T *a, T *b) {
  if (n == 0)
    return true;
  if (nrhs == 0) { // NumPy still reports a singular matrix: factorize it
    std::vector<T> column(n);
    return gesv(lapack, n, 1, a, column.data());
  }
  bool wide = lapack.ilp64();
  FortranInt N(n), NRHS(nrhs), LD(std::max<int64_t>(n, 1)), info;
  FortranInts pivots(wide, n);
  callFortran(lapack.routine(), N.at(wide), NRHS.at(wide), static_cast<void *>(a), LD.at(wide),
              pivots.data(), static_cast<void *>(b), LD.at(wide), info.at(wide));
  return info.value(wide) == 0;
}

template <typename T> int32_t solve(const Operand<T> &a, const Operand<T> &b, T *out) {
  Lapack lapack(gesvOf<T>());
  if (!lapack.available())
    return kNoLapack;
  bool vector = b.ndim == 1;
  int64_t n = a.dim(a.ndim - 1), nrhs = vector ? 1 : b.dim(b.ndim - 1);
  // Stacks broadcast as matmul's do (b a vector: a's stack only).
  Stacks stacks = broadcastStacks(a, a.ndim - 2, b, vector ? 0 : b.ndim - 2, n * nrhs);
  std::vector<T> matrix(n * n), rhs(n * nrhs);
  int32_t status = 0;
  forEachIndex(stacks.sizes, {stacks.aStrides, stacks.bStrides, stacks.outStrides},
               [&](const std::vector<int64_t> &at) {
                 toColumnMajor(a.data + at[0], a.stride(a.ndim - 2), a.stride(a.ndim - 1), n, n,
                               matrix.data(), n);
                 if (vector)
                   toColumnMajor(b.data + at[1], b.stride(0), 0, n, 1, rhs.data(), n);
                 else
                   toColumnMajor(b.data + at[1], b.stride(b.ndim - 2), b.stride(b.ndim - 1), n,
                                 nrhs, rhs.data(), n);
                 if (!gesv(lapack, n, nrhs, matrix.data(), rhs.data()))
                   status = 1;
                 fromColumnMajor(rhs.data(), n, n, nrhs, out + at[2]);
               });
  return status;
}

template <typename T> int32_t inverse(const Operand<T> &a, T *out) {
  Lapack lapack(gesvOf<T>());
  if (!lapack.available())
    return kNoLapack;
  int64_t n = a.dim(a.ndim - 1);
  std::vector<T> matrix(n * n), identity(n * n);
  int32_t status = 0;
  forEachMatrix(a, 2, [&](int64_t offset, int64_t index) {
    toColumnMajor(a.data + offset, a.stride(a.ndim - 2), a.stride(a.ndim - 1), n, n, matrix.data(),
                  n);
    std::fill(identity.begin(), identity.end(), T{});
    for (int64_t i = 0; i < n; ++i)
      identity[i * n + i] = T{1};
    if (!gesv(lapack, n, n, matrix.data(), identity.data()))
      status = 1;
    fromColumnMajor(identity.data(), n, n, n, out + index * n * n);
  });
  return status;
}

template <typename T> int32_t determinant(const Operand<T> &a, T *out) {
  Lapack lapack(isComplex<T> ? BlasRoutine::zgetrf : BlasRoutine::dgetrf);
  if (!lapack.available())
    return kNoLapack;
  bool wide = lapack.ilp64();
  int64_t m = a.dim(a.ndim - 1);
  std::vector<T> matrix(m * m);
  FortranInts pivots(wide, std::max<int64_t>(m, 1));
  forEachMatrix(a, 2, [&](int64_t offset, int64_t index) {
    toColumnMajor(a.data + offset, a.stride(a.ndim - 2), a.stride(a.ndim - 1), m, m, matrix.data(),
                  m);
    FortranInt M(m), LDA(std::max<int64_t>(m, 1)), info;
    if (m > 0)
      callFortran(lapack.routine(), M.at(wide), M.at(wide), static_cast<void *>(matrix.data()),
                  LDA.at(wide), pivots.data(), info.at(wide));
    // NumPy's slogdet_single_element, then det_from_slogdet.
    if constexpr (isComplex<T>) {
      Complex sign{0, 0};
      double logdet = -std::numeric_limits<double>::infinity();
      if (info.value(wide) == 0) {
        int changes = 0;
        for (int64_t i = 0; i < m; ++i)
          changes += pivots[i] != i + 1;
        sign = changes % 2 ? Complex{-1, 0} : Complex{1, 0};
        logdet = 0;
        for (int64_t i = 0; i < m; ++i) {
          Complex d = matrix[i * m + i];
          double magnitude = std::hypot(d.re, d.im);
          Complex unit{d.re / magnitude, d.im / magnitude};
          sign = {sign.re * unit.re - sign.im * unit.im, sign.re * unit.im + sign.im * unit.re};
          logdet += std::log(magnitude);
        }
      }
      double scale = std::exp(logdet);
      out[index] = {sign.re * scale - sign.im * 0.0, sign.re * 0.0 + sign.im * scale};
    } else {
      double sign = 0, logdet = -std::numeric_limits<double>::infinity();
      if (info.value(wide) == 0) {
        int changes = 0;
        for (int64_t i = 0; i < m; ++i)
          changes += pivots[i] != i + 1;
        sign = changes % 2 ? -1.0 : 1.0;
        logdet = 0;
        for (int64_t i = 0; i < m; ++i) {
          double d = matrix[i * m + i];
          if (d < 0) {
            sign = -sign;
            d = -d;
          }
          logdet += std::log(d);
        }
      }
      out[index] = sign * std::exp(logdet);
    }
  });
  return 0;
}

template <typename T> int32_t cholesky(const Operand<T> &a, bool upper, T *out) {
  Lapack lapack(isComplex<T> ? BlasRoutine::zpotrf : BlasRoutine::dpotrf);
  if (!lapack.available())
    return kNoLapack;
  bool wide = lapack.ilp64();
  int64_t n = a.dim(a.ndim - 1);
  std::vector<T> matrix(n * n);
  int32_t status = 0;
  char uplo = upper ? 'U' : 'L';
  forEachMatrix(a, 2, [&](int64_t offset, int64_t index) {
    toColumnMajor(a.data + offset, a.stride(a.ndim - 2), a.stride(a.ndim - 1), n, n, matrix.data(),
                  n);
    FortranInt N(n), LDA(std::max<int64_t>(n, 1)), info;
    if (n > 0)
      callFortran(lapack.routine(), &uplo, N.at(wide), static_cast<void *>(matrix.data()),
                  LDA.at(wide), info.at(wide), size_t{1});
    if (info.value(wide) != 0)
      status = 1;
    // The other triangle still holds a's elements: zeros, as NumPy's
    // triu_matrix/tril_matrix write.
    for (int64_t c = 0; c < n; ++c)
      for (int64_t r = 0; r < n; ++r)
        if (upper ? r > c : r < c)
          matrix[c * n + r] = T{};
    fromColumnMajor(matrix.data(), n, n, n, out + index * n * n);
  });
  return status;
}

template <typename T> int32_t eigh(const Operand<T> &a, bool upper, RealOf<T> *w, T *v) {
  Lapack lapack(isComplex<T> ? BlasRoutine::zheevd : BlasRoutine::dsyevd);
  if (!lapack.available())
    return kNoLapack;
  bool wide = lapack.ilp64();
  int64_t n = a.dim(a.ndim - 1);
  char jobz = 'V', uplo = upper ? 'U' : 'L';
  std::vector<T> matrix(n * n);
  FortranInt N(n), LDA(std::max<int64_t>(n, 1)), info;
  // The workspace sizes LAPACK asks for (lwork = -1), once.
  T workQuery{};
  double rworkQuery = 0;
  FortranInt iworkQuery, lwork(-1), lrwork(-1), liwork(-1);
  std::vector<T> work;
  std::vector<double> rwork;
  auto call = [&](T *workData, double *rworkData, void *iworkData) {
    if constexpr (isComplex<T>)
      callFortran(lapack.routine(), &jobz, &uplo, N.at(wide), static_cast<void *>(matrix.data()),
                  LDA.at(wide), static_cast<void *>(w), static_cast<void *>(workData),
                  lwork.at(wide), static_cast<void *>(rworkData), lrwork.at(wide), iworkData,
                  liwork.at(wide), info.at(wide), size_t{1}, size_t{1});
    else
      callFortran(lapack.routine(), &jobz, &uplo, N.at(wide), static_cast<void *>(matrix.data()),
                  LDA.at(wide), static_cast<void *>(w), static_cast<void *>(workData),
                  lwork.at(wide), iworkData, liwork.at(wide), info.at(wide), size_t{1}, size_t{1});
  };
  if (n == 0)
    return 0;
  call(&workQuery, &rworkQuery, iworkQuery.at(wide));
  if (info.value(wide) != 0)
    return 1;
  lwork = FortranInt(workspaceSize(workQuery));
  if constexpr (isComplex<T>)
    lrwork = FortranInt(static_cast<int64_t>(rworkQuery));
  liwork = FortranInt(iworkQuery.value(wide));
  work.resize(std::max<int64_t>(lwork.value(wide), 1));
  rwork.resize(std::max<int64_t>(lrwork.value(wide), 1));
  FortranInts iwork(wide, std::max<int64_t>(liwork.value(wide), 1));
  int32_t status = 0;
  RealOf<T> *values = w;
  forEachMatrix(a, 2, [&](int64_t offset, int64_t index) {
    toColumnMajor(a.data + offset, a.stride(a.ndim - 2), a.stride(a.ndim - 1), n, n, matrix.data(),
                  n);
    w = values + index * n;
    call(work.data(), rwork.data(), iwork.data());
    if (info.value(wide) != 0)
      status = 1;
    fromColumnMajor(matrix.data(), n, n, n, v + index * n * n);
  });
  return status;
}

//===----------------------------------------------------------------------===//
// lstsq (gelsd) and singular values (gesdd)
//===----------------------------------------------------------------------===//

template <typename T>
int32_t lstsq(const Operand<T> &a, const Operand<T> &b, double rcond, T *x, double *residuals,
              int32_t *rank, double *s) {
  Lapack lapack(isComplex<T> ? BlasRoutine::zgelsd : BlasRoutine::dgelsd);
  if (!lapack.available())
    return kNoLapack;
  bool wide = lapack.ilp64();
  int64_t m = a.dim(0), n = a.dim(1);
  bool vector = b.ndim == 1;
  int64_t columns = vector ? 1 : b.dim(1);
  int64_t nrhs = std::max<int64_t>(columns, 1); // LAPACK needs a column: NumPy adds zeros
  int64_t ldb = std::max<int64_t>(1, std::max(m, n));
  std::vector<T> matrix(std::max<int64_t>(m * n, 1)), rhs(ldb * nrhs);
  toColumnMajor(a.data, a.stride(0), a.stride(1), m, n, matrix.data(), m);
  if (columns > 0)
    toColumnMajor(b.data, b.stride(0), vector ? 0 : b.stride(1), m, columns, rhs.data(), ldb);
  FortranInt M(m), N(n), NRHS(nrhs), LDA(std::max<int64_t>(1, m)), LDB(ldb), RANK, info;
  FortranInt lwork(-1);
  T workQuery{};
  double rworkQuery = 0;
  FortranInt iworkQuery;
  auto call = [&](T *work, double *rwork, void *iwork) {
    if constexpr (isComplex<T>)
      callFortran(lapack.routine(), M.at(wide), N.at(wide), NRHS.at(wide),
                  static_cast<void *>(matrix.data()), LDA.at(wide), static_cast<void *>(rhs.data()),
                  LDB.at(wide), static_cast<void *>(s), &rcond, RANK.at(wide),
                  static_cast<void *>(work), lwork.at(wide), static_cast<void *>(rwork), iwork,
                  info.at(wide));
    else
      callFortran(lapack.routine(), M.at(wide), N.at(wide), NRHS.at(wide),
                  static_cast<void *>(matrix.data()), LDA.at(wide), static_cast<void *>(rhs.data()),
                  LDB.at(wide), static_cast<void *>(s), &rcond, RANK.at(wide),
                  static_cast<void *>(work), lwork.at(wide), iwork, info.at(wide));
  };
  call(&workQuery, &rworkQuery, iworkQuery.at(wide));
  if (info.value(wide) != 0)
    return 1;
  int64_t workCount = workspaceSize(workQuery);
  lwork = FortranInt(workCount);
  std::vector<T> work(std::max<int64_t>(workCount, 1));
  std::vector<double> rwork(std::max<int64_t>(static_cast<int64_t>(rworkQuery), 1));
  FortranInts iwork(wide, std::max<int64_t>(iworkQuery.value(wide), 1));
  call(work.data(), rwork.data(), iwork.data());
  if (info.value(wide) != 0)
    return 1;
  *rank = static_cast<int32_t>(RANK.value(wide));
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < columns; ++c)
      x[vector ? r : r * columns + c] = m == 0 ? T{} : rhs[c * ldb + r];
  // The residuals: squares of what is left below the solution, when the
  // system is overdetermined and of full rank (else the caller's result is
  // empty, as NumPy's).
  if (m > n && RANK.value(wide) == n)
    for (int64_t c = 0; c < columns; ++c) {
      double sum = 0;
      for (int64_t r = n; r < m; ++r) {
        T e = rhs[c * ldb + r];
        if constexpr (isComplex<T>)
          sum += e.re * e.re + e.im * e.im;
        else
          sum += e * e;
      }
      residuals[c] = sum;
    }
  return 0;
}

/// The singular values of an (m, n) matrix, descending (gesdd, JOBZ 'N'):
/// status 0, or 2 when the SVD did not converge.
template <typename T>
int32_t singularValues(const T *data, int64_t rowStride, int64_t columnStride, int64_t m, int64_t n,
                       std::vector<double> &s) {
  Lapack lapack(isComplex<T> ? BlasRoutine::zgesdd : BlasRoutine::dgesdd);
  if (!lapack.available())
    return kNoLapack;
  bool wide = lapack.ilp64();
  int64_t k = std::min(m, n);
  s.assign(k, 0.0);
  if (k == 0)
    return 0;
  std::vector<T> matrix(m * n);
  toColumnMajor(data, rowStride, columnStride, m, n, matrix.data(), m);
  char jobz = 'N';
  FortranInt M(m), N(n), LDA(std::max<int64_t>(1, m)), one(1), lwork(-1), info;
  T unused{}, workQuery{};
  FortranInts iwork(wide, 8 * k);
  std::vector<double> rwork(std::max<int64_t>(7 * k, 1));
  auto call = [&](T *work) {
    if constexpr (isComplex<T>)
      callFortran(lapack.routine(), &jobz, M.at(wide), N.at(wide),
                  static_cast<void *>(matrix.data()), LDA.at(wide), static_cast<void *>(s.data()),
                  static_cast<void *>(&unused), one.at(wide), static_cast<void *>(&unused),
                  one.at(wide), static_cast<void *>(work), lwork.at(wide),
                  static_cast<void *>(rwork.data()), iwork.data(), info.at(wide), size_t{1});
    else
      callFortran(lapack.routine(), &jobz, M.at(wide), N.at(wide),
                  static_cast<void *>(matrix.data()), LDA.at(wide), static_cast<void *>(s.data()),
                  static_cast<void *>(&unused), one.at(wide), static_cast<void *>(&unused),
                  one.at(wide), static_cast<void *>(work), lwork.at(wide), iwork.data(),
                  info.at(wide), size_t{1});
  };
  call(&workQuery);
  if (info.value(wide) != 0)
    return 2;
  int64_t workCount = workspaceSize(workQuery);
  lwork = FortranInt(workCount);
  std::vector<T> work(std::max<int64_t>(workCount, 1));
  call(work.data());
  return info.value(wide) == 0 ? 0 : 2;
}

//===----------------------------------------------------------------------===//
// norm
//===----------------------------------------------------------------------===//

/// np.abs. For complex numbers NumPy's SIMD loop (loops_unary_complex)
/// takes the larger part times sqrt(fma(r, r, 1)), r the smaller part over
/// it; an infinite part makes inf, else a NaN part NaN. Some of its loops
/// for a negative stride call hypot, which differs in the last bits
/// (`hypot`: see absUsesHypot).
template <typename T> RealOf<T> magnitude(T x, bool hypot) {
  if constexpr (isComplex<T>) { // in the parts' precision
    using R = RealOf<T>;
    if (hypot)
      return std::hypot(x.re, x.im);
    R re = std::fabs(x.re), im = std::fabs(x.im);
    const R inf = std::numeric_limits<R>::infinity();
    if (re == inf || im == inf)
      return inf;
    if (std::isnan(re) || std::isnan(im))
      return std::numeric_limits<R>::quiet_NaN();
    R larger = re > im ? re : im, smaller = re > im ? im : re;
    R ratio = larger != 0 ? smaller / larger : R(0);
    return std::sqrt(std::fma(ratio, ratio, R(1))) * larger;
  } else {
    return std::fabs(x);
  }
}

/// (x.conj() * x).real of one element, as NumPy's multiply loop computes
/// it: re * re - (-im) * im, the first product fused where its SIMD loop
/// runs (`fused`: see fusesSquares).
template <typename T> RealOf<T> squaredMagnitude(T e, bool fused) {
  if constexpr (isComplex<T>) {
    if (fused)
      return std::fma(e.re, e.re, -((-e.im) * e.im));
    return e.re * e.re - (-e.im) * e.im;
  } else {
    return e * e;
  }
}

template <typename T> constexpr bool isComplex64 = std::is_same_v<T, ComplexF>;

/// Whether np.abs(x) runs its loop with a negative stride: when x's
/// elements form one run (the ufunc's trivial path) walked backwards. Other
/// layouts go through the iterator, which turns negative strides around.
template <typename T> bool absWalksBackwards(const Operand<T> &x) {
  int64_t run = 0, span = 1;
  for (int64_t axis = x.ndim; axis-- > 0;) {
    if (x.dim(axis) == 1)
      continue;
    if (run == 0)
      run = x.stride(axis);
    else if (x.stride(axis) != run * span)
      return false;
    span *= x.dim(axis);
  }
  return run < 0;
}

/// Whether np.abs(x) of complex x calls hypot: where it walks backwards and
/// NumPy's loop for that differs from its SIMD loop.
template <typename T> bool absUsesHypot(const Operand<T> &x) {
  if constexpr (!isComplex<T>)
    return false;
  else
    return absWalksBackwards(x) && !plait::numpyBackwardAbsAsForward(isComplex64<T>);
}

/// Whether NumPy's SIMD loop computes x.conj() * x: where the CPU has FMA,
/// and, for elements that form one run walked backwards (the conjugate
/// mirrors x's layout), where NumPy's one-run path keeps the SIMD loop
/// (NumPy 2.3 and 2.4 hand complex64 to their plain C loop there).
template <typename T> bool fusesSquares(const Operand<T> &x) {
  if (!plait::hostHasFMA())
    return false;
  if constexpr (isComplex<T>)
    if (absWalksBackwards(x))
      return plait::numpyBackwardMultiplyAsForward(isComplex64<T>);
  return true;
}

/// x's axes in memory order (NumPy's K order): by decreasing |stride|, C
/// order breaking ties.
template <typename T> std::vector<int64_t> axesInMemoryOrder(const Operand<T> &x) {
  std::vector<int64_t> axes(x.ndim);
  std::iota(axes.begin(), axes.end(), 0);
  std::stable_sort(axes.begin(), axes.end(), [&](int64_t p, int64_t q) {
    return std::abs(x.stride(p)) > std::abs(x.stride(q));
  });
  return axes;
}

/// The elements as NumPy's ravel(order='K') lists them: the axes in memory
/// order, each in index order.
template <typename T> std::vector<T> inMemoryOrder(const Operand<T> &x) {
  std::vector<int64_t> axes = axesInMemoryOrder(x);
  std::vector<int64_t> sizes, strides, ones(axes.size(), 0);
  for (int64_t axis : axes) {
    sizes.push_back(x.dim(axis));
    strides.push_back(x.stride(axis));
  }
  std::vector<T> out;
  forEachIndex(sizes, {strides, ones},
               [&](const std::vector<int64_t> &at) { out.push_back(x.data[at[0]]); });
  return out;
}

/// NumPy's add.reduce of `n` values `stride` apart: pairwise when they are
/// the reduction's inner loop, else added in order.
template <typename R> R sumOf(const R *values, int64_t n, int64_t stride, bool pairwise) {
  if (pairwise) {
    if constexpr (std::is_same_v<R, float>)
      return static_cast<R>(
          plait_rt_pairwise_sum_f32(reinterpret_cast<int64_t>(values), n, stride));
    else
      return plait_rt_pairwise_sum_f64(reinterpret_cast<int64_t>(values), n, stride);
  }
  R sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += values[i * stride];
  return sum;
}

template <typename R> R largest(const std::vector<R> &values, bool maximum, bool &empty) {
  empty = values.empty();
  R best = maximum ? R(0) : (values.empty() ? R(0) : values[0]);
  for (R v : values)
    if (std::isnan(v) || std::isnan(best))
      best = std::numeric_limits<R>::quiet_NaN();
    else
      best = maximum ? std::max(best, v) : std::min(best, v);
  return best;
}

/// NumPy's vector norm (`ord` a vector order) of `n` elements `stride`
/// apart, their sum pairwise or in order as NumPy's reduction adds them.
/// `hypot`: complex magnitudes as NumPy's abs loop of a backward walk.
template <typename T>
int32_t lineNorm(const T *data, int64_t n, int64_t stride, int64_t ord, double p, bool pairwise,
                 bool hypot, bool fused, RealOf<T> &out) {
  using R = RealOf<T>;
  std::vector<R> values(n);
  for (int64_t i = 0; i < n; ++i) {
    T e = data[i * stride];
    if (ord == PLAIT_NORM_EUCLIDEAN) { // (x.conj() * x).real
      values[i] = squaredMagnitude(e, fused);
    } else if (ord == PLAIT_NORM_VECTOR_COUNT) {
      if constexpr (isComplex<T>)
        values[i] = e.re != 0 || e.im != 0;
      else
        values[i] = e != 0;
    } else {
      values[i] = magnitude(e, hypot);
      if (ord == PLAIT_NORM_VECTOR_POWER)
        values[i] = std::pow(values[i], static_cast<R>(p));
    }
  }
  if (ord == PLAIT_NORM_VECTOR_MAX || ord == PLAIT_NORM_VECTOR_MIN) {
    bool empty;
    out = largest(values, ord == PLAIT_NORM_VECTOR_MAX, empty);
    return empty && ord == PLAIT_NORM_VECTOR_MIN ? 3 : 0;
  }
  R sum = sumOf(values.data(), n, 1, pairwise);
  out = ord == PLAIT_NORM_EUCLIDEAN      ? std::sqrt(sum)
        : ord == PLAIT_NORM_VECTOR_POWER ? std::pow(sum, R(1) / static_cast<R>(p))
                                         : sum;
  return 0;
}

/// np.linalg.norm(x, ord, axis): a vector norm of each line along `axis`,
/// written in C order of the other axes.
template <typename T>
int32_t normAlong(const Operand<T> &x, int64_t axis, int64_t ord, double p, RealOf<T> *out) {
  // NumPy's reduction sums pairwise along the axis innermost in memory,
  // and in order along any other.
  bool pairwise = true;
  std::vector<int64_t> sizes, strides;
  for (int64_t a = 0; a < x.ndim; ++a) {
    if (a == axis)
      continue;
    sizes.push_back(x.dim(a));
    strides.push_back(x.stride(a));
    if (x.dim(a) > 1 && std::abs(x.stride(a)) < std::abs(x.stride(axis)))
      pairwise = false;
  }
  bool hypot = absUsesHypot(x), fused = fusesSquares(x);
  int32_t status = 0;
  int64_t k = 0;
  std::vector<int64_t> ones(sizes.size(), 0);
  forEachIndex(sizes, {strides, ones}, [&](const std::vector<int64_t> &at) {
    int32_t s = lineNorm(x.data + at[0], x.dim(axis), x.stride(axis), ord, p, pairwise, hypot,
                         fused, out[k++]);
    status = status ? status : s;
  });
  return status;
}

template <typename T> int32_t norm(const Operand<T> &x, int64_t ord, double p, RealOf<T> *out);

/// np.linalg.norm(x, ord, axis=(row, column)), NumPy's branch for two axes:
/// abs(x) and (x.conj() * x).real keep x's memory order (K), a sum along
/// one axis is pairwise when that axis is innermost in memory and in order
/// otherwise, the Frobenius norm sums both axes as add.reduce orders them,
/// and the singular-value norms take each matrix's SVD.
template <typename T>
int32_t normAxes(const Operand<T> &x, int64_t row, int64_t column, int64_t ord, RealOf<T> *out) {
  using R = RealOf<T>;
  std::vector<int64_t> sizes, strides; // the other axes, one result each (C order)
  for (int64_t a = 0; a < x.ndim; ++a)
    if (a != row && a != column) {
      sizes.push_back(x.dim(a));
      strides.push_back(x.stride(a));
    }
  std::vector<int64_t> order = axesInMemoryOrder(x);
  int64_t innermost = -1;
  for (auto a = order.rbegin(); a != order.rend(); ++a)
    if (x.dim(*a) > 1) {
      innermost = *a;
      break;
    }
  int64_t rows = x.dim(row), columns = x.dim(column);
  std::vector<int64_t> zeros(sizes.size(), 0);
  int32_t status = 0;
  int64_t k = 0;
  if (ord == PLAIT_NORM_EUCLIDEAN) {
    // (x.conj() * x).real as a dense array in x's memory order, summed
    // over the two axes per matrix in NumPy's reduction order.
    std::vector<int64_t> denseStrides(x.ndim);
    int64_t step = 1;
    for (auto a = order.rbegin(); a != order.rend(); ++a) {
      denseStrides[*a] = step;
      step *= x.dim(*a);
    }
    std::vector<R> squares(static_cast<size_t>(step));
    bool fused = fusesSquares(x);
    std::vector<int64_t> all(x.dims, x.dims + x.ndim), from(x.strides, x.strides + x.ndim);
    forEachIndex(all, {from, denseStrides}, [&](const std::vector<int64_t> &at) {
      squares[at[1]] = squaredMagnitude(x.data[at[0]], fused);
    });
    // The runtime reads the kept axes' sizes only for where they lie in
    // memory (a kept innermost axis makes NumPy add in order).
    std::vector<int64_t> otherDense;
    for (int64_t a = 0; a < x.ndim; ++a)
      if (a != row && a != column)
        otherDense.push_back(denseStrides[a]);
    int64_t mask = (int64_t(1) << row) | (int64_t(1) << column);
    forEachIndex(sizes, {otherDense}, [&](const std::vector<int64_t> &at) {
      auto address = reinterpret_cast<int64_t>(squares.data() + at[0]);
      auto dims = reinterpret_cast<int64_t>(all.data());
      auto dense = reinterpret_cast<int64_t>(denseStrides.data());
      double sum = std::is_same_v<R, float>
                       ? plait_rt_reduction_sum_f32(address, x.ndim, dims, dense, mask)
                       : plait_rt_reduction_sum_f64(address, x.ndim, dims, dense, mask);
      out[k++] = std::sqrt(static_cast<R>(sum));
    });
    return 0;
  }
  bool hypot = absUsesHypot(x);
  forEachIndex(sizes, {strides, zeros}, [&](const std::vector<int64_t> &at) {
    const T *base = x.data + at[0];
    auto element = [&](int64_t r, int64_t c) {
      return base[r * x.stride(row) + c * x.stride(column)];
    };
    int32_t s = 0;
    switch (ord) {
    case PLAIT_NORM_COLUMN_SUMS_MAX:
    case PLAIT_NORM_COLUMN_SUMS_MIN:
    case PLAIT_NORM_ROW_SUMS_MAX:
    case PLAIT_NORM_ROW_SUMS_MIN: {
      bool columnSums = ord == PLAIT_NORM_COLUMN_SUMS_MAX || ord == PLAIT_NORM_COLUMN_SUMS_MIN;
      int64_t lines = columnSums ? columns : rows, length = columnSums ? rows : columns;
      bool pairwise = innermost == (columnSums ? row : column);
      std::vector<R> sums, line(length);
      for (int64_t i = 0; i < lines; ++i) {
        for (int64_t j = 0; j < length; ++j)
          line[j] = magnitude(columnSums ? element(j, i) : element(i, j), hypot);
        sums.push_back(sumOf(line.data(), length, 1, pairwise));
      }
      bool maximum = ord == PLAIT_NORM_COLUMN_SUMS_MAX || ord == PLAIT_NORM_ROW_SUMS_MAX, empty;
      out[k] = largest(sums, maximum, empty);
      s = empty && !maximum ? 3 : 0;
      break;
    }
    default: { // the singular values of each matrix
      int64_t dims[2] = {rows, columns}, matrixStrides[2] = {x.stride(row), x.stride(column)};
      s = norm(Operand<T>{const_cast<T *>(base), 2, dims, matrixStrides}, ord, 0.0, &out[k]);
    }
    }
    ++k;
    status = status ? status : s;
  });
  return status;
}

template <typename T> int32_t norm(const Operand<T> &x, int64_t ord, double p, RealOf<T> *out) {
  using R = RealOf<T>;
  const BlasLibrary *blas = blasFor<R>();
  switch (ord) {
  case PLAIT_NORM_EUCLIDEAN: {
    std::vector<T> flat = inMemoryOrder(x);
    int64_t n = static_cast<int64_t>(flat.size());
    if constexpr (isComplex<T>) {
      const R *parts = reinterpret_cast<const R *>(flat.data());
      R squares = dotOf(blas, parts, 2, parts, 2, n) + dotOf(blas, parts + 1, 2, parts + 1, 2, n);
      *out = std::sqrt(squares);
    } else {
      *out = std::sqrt(dotOf(blas, flat.data(), 1, flat.data(), 1, n));
    }
    return 0;
  }
  case PLAIT_NORM_VECTOR_MAX:
  case PLAIT_NORM_VECTOR_MIN:
  case PLAIT_NORM_VECTOR_COUNT:
  case PLAIT_NORM_VECTOR_SUM:
  case PLAIT_NORM_VECTOR_POWER:
    return lineNorm(x.data, x.dim(0), x.stride(0), ord, p, /*pairwise=*/true, absUsesHypot(x),
                    fusesSquares(x), *out);
  case PLAIT_NORM_COLUMN_SUMS_MAX:
  case PLAIT_NORM_COLUMN_SUMS_MIN:
  case PLAIT_NORM_ROW_SUMS_MAX:
  case PLAIT_NORM_ROW_SUMS_MIN: {
    int64_t rows = x.dim(0), columns = x.dim(1);
    // abs(x) keeps x's memory order; the sums are pairwise along the axis
    // that is innermost in memory and in order along the other.
    bool rowMajor = std::abs(x.stride(0)) >= std::abs(x.stride(1));
    bool hypot = absUsesHypot(x);
    std::vector<R> magnitudes(rows * columns);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < columns; ++c)
        magnitudes[r * columns + c] = magnitude(x.data[r * x.stride(0) + c * x.stride(1)], hypot);
    bool columnSums = ord == PLAIT_NORM_COLUMN_SUMS_MAX || ord == PLAIT_NORM_COLUMN_SUMS_MIN;
    std::vector<R> sums;
    if (columnSums)
      for (int64_t c = 0; c < columns; ++c)
        sums.push_back(sumOf(magnitudes.data() + c, rows, columns, /*pairwise=*/!rowMajor));
    else
      for (int64_t r = 0; r < rows; ++r)
        sums.push_back(sumOf(magnitudes.data() + r * columns, columns, 1, /*pairwise=*/rowMajor));
    bool maximum = ord == PLAIT_NORM_COLUMN_SUMS_MAX || ord == PLAIT_NORM_ROW_SUMS_MAX, empty;
    *out = largest(sums, maximum, empty);
    return empty && !maximum ? 3 : 0;
  }
  case PLAIT_NORM_SINGULAR_MAX:
  case PLAIT_NORM_SINGULAR_MIN:
  case PLAIT_NORM_NUCLEAR: {
    // NumPy computes the SVD in float64 (complex128) and casts the
    // singular values to the result's type first.
    std::vector<double> s;
    int32_t status;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, ComplexF>) {
      using Wide = std::conditional_t<std::is_same_v<T, float>, double, Complex>;
      std::vector<Wide> wide(x.dim(0) * x.dim(1));
      for (int64_t r = 0; r < x.dim(0); ++r)
        for (int64_t c = 0; c < x.dim(1); ++c) {
          T e = x.data[r * x.stride(0) + c * x.stride(1)];
          if constexpr (std::is_same_v<T, float>)
            wide[r * x.dim(1) + c] = e;
          else
            wide[r * x.dim(1) + c] = {e.re, e.im};
        }
      status = singularValues(wide.data(), x.dim(1), 1, x.dim(0), x.dim(1), s);
    } else {
      status = singularValues(x.data, x.stride(0), x.stride(1), x.dim(0), x.dim(1), s);
    }
    if (status != 0)
      return status;
    std::vector<R> values(s.begin(), s.end());
    if (ord == PLAIT_NORM_NUCLEAR) {
      *out = sumOf(values.data(), static_cast<int64_t>(values.size()), 1, /*pairwise=*/true);
      return 0;
    }
    bool empty;
    *out = largest(values, ord == PLAIT_NORM_SINGULAR_MAX, empty);
    return empty && ord == PLAIT_NORM_SINGULAR_MIN ? 3 : 0;
  }
  default:
    return 0;
  }
}

/// Calls `compute` with a value of the element type a norm's `kind`
/// stands for (float64, float32, complex128, complex64).
template <typename F> int32_t withNormKind(int64_t kind, F &&compute) {
  switch (kind) {
  case PLAIT_LINALG_C128:
    return compute(Complex{});
  case PLAIT_LINALG_C64:
    return compute(ComplexF{});
  case PLAIT_LINALG_F32:
    return compute(float{});
  default:
    return compute(double{});
  }
}

} // namespace

extern "C" {

int32_t plait_rt_linalg_solve(int64_t kind, int64_t a, int64_t aNdim, int64_t aDims,
                              int64_t aStrides, int64_t b, int64_t bNdim, int64_t bDims,
                              int64_t bStrides, int64_t out) {
  if (kind == PLAIT_LINALG_C128)
    return solve(operandOf<Complex>(a, aNdim, aDims, aStrides),
                 operandOf<Complex>(b, bNdim, bDims, bStrides), reinterpret_cast<Complex *>(out));
  return solve(operandOf<double>(a, aNdim, aDims, aStrides),
               operandOf<double>(b, bNdim, bDims, bStrides), reinterpret_cast<double *>(out));
}

int32_t plait_rt_linalg_inv(int64_t kind, int64_t a, int64_t ndim, int64_t dims, int64_t strides,
                            int64_t out) {
  if (kind == PLAIT_LINALG_C128)
    return inverse(operandOf<Complex>(a, ndim, dims, strides), reinterpret_cast<Complex *>(out));
  return inverse(operandOf<double>(a, ndim, dims, strides), reinterpret_cast<double *>(out));
}

int32_t plait_rt_linalg_det(int64_t kind, int64_t a, int64_t ndim, int64_t dims, int64_t strides,
                            int64_t out) {
  if (kind == PLAIT_LINALG_C128)
    return determinant(operandOf<Complex>(a, ndim, dims, strides),
                       reinterpret_cast<Complex *>(out));
  return determinant(operandOf<double>(a, ndim, dims, strides), reinterpret_cast<double *>(out));
}

int32_t plait_rt_linalg_cholesky(int64_t kind, int64_t upper, int64_t a, int64_t ndim, int64_t dims,
                                 int64_t strides, int64_t out) {
  if (kind == PLAIT_LINALG_C128)
    return cholesky(operandOf<Complex>(a, ndim, dims, strides), upper != 0,
                    reinterpret_cast<Complex *>(out));
  return cholesky(operandOf<double>(a, ndim, dims, strides), upper != 0,
                  reinterpret_cast<double *>(out));
}

int32_t plait_rt_linalg_eigh(int64_t kind, int64_t upper, int64_t a, int64_t ndim, int64_t dims,
                             int64_t strides, int64_t w, int64_t v) {
  if (kind == PLAIT_LINALG_C128)
    return eigh(operandOf<Complex>(a, ndim, dims, strides), upper != 0,
                reinterpret_cast<double *>(w), reinterpret_cast<Complex *>(v));
  return eigh(operandOf<double>(a, ndim, dims, strides), upper != 0, reinterpret_cast<double *>(w),
              reinterpret_cast<double *>(v));
}

int32_t plait_rt_linalg_lstsq(int64_t kind, int64_t a, int64_t aDims, int64_t aStrides, int64_t b,
                              int64_t bNdim, int64_t bDims, int64_t bStrides, double rcond,
                              int64_t x, int64_t residuals, int64_t rank, int64_t s) {
  auto *resid = reinterpret_cast<double *>(residuals);
  auto *r = reinterpret_cast<int32_t *>(rank);
  auto *values = reinterpret_cast<double *>(s);
  if (kind == PLAIT_LINALG_C128)
    return lstsq(operandOf<Complex>(a, 2, aDims, aStrides),
                 operandOf<Complex>(b, bNdim, bDims, bStrides), rcond,
                 reinterpret_cast<Complex *>(x), resid, r, values);
  return lstsq(operandOf<double>(a, 2, aDims, aStrides),
               operandOf<double>(b, bNdim, bDims, bStrides), rcond, reinterpret_cast<double *>(x),
               resid, r, values);
}

int32_t plait_rt_linalg_norm(int64_t kind, int64_t x, int64_t ndim, int64_t dims, int64_t strides,
                             int64_t ord, double p, int64_t out) {
  return withNormKind(kind, [&](auto element) {
    using T = decltype(element);
    return norm(operandOf<T>(x, ndim, dims, strides), ord, p, reinterpret_cast<RealOf<T> *>(out));
  });
}

int32_t plait_rt_linalg_norm_axes(int64_t kind, int64_t x, int64_t ndim, int64_t dims,
                                  int64_t strides, int64_t row, int64_t column, int64_t ord,
                                  int64_t out) {
  return withNormKind(kind, [&](auto element) {
    using T = decltype(element);
    return normAxes(operandOf<T>(x, ndim, dims, strides), row, column, ord,
                    reinterpret_cast<RealOf<T> *>(out));
  });
}

int32_t plait_rt_linalg_norm_axis(int64_t kind, int64_t x, int64_t ndim, int64_t dims,
                                  int64_t strides, int64_t axis, int64_t ord, double p,
                                  int64_t out) {
  return withNormKind(kind, [&](auto element) {
    using T = decltype(element);
    return normAlong(operandOf<T>(x, ndim, dims, strides), axis, ord, p,
                     reinterpret_cast<RealOf<T> *>(out));
  });
}

} // extern "C"
