//===- LinearAlgebra.cpp - np.matmul and np.dot as NumPy computes them ----===//
//
// A port of the choices NumPy's matmul loop makes (umath/matmul.c.src) and
// of its dot functions (arraytypes): per matrix of a stack, a row times a
// column is a BLAS dot, a matrix times a vector gemv, a matrix times a
// matrix gemm (syrk for a matrix times its own transpose), matrices BLAS
// cannot read are copied first, and an empty core dimension or a kind BLAS
// does not have (integers) uses the plain triple loop. The same routines of
// the same library with the same arguments give NumPy's results bit for bit.
// Never build this file with -ffast-math.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/LinearAlgebra.h"

#include "BlasCalls.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace {

using namespace plait::runtime::blas;

//===----------------------------------------------------------------------===//
// NumPy's matmul of one (m, n) by (n, p) pair (strides in elements)
//===----------------------------------------------------------------------===//

struct Core {
  int64_t m, n, p;
  int64_t is1_m, is1_n, is2_n, is2_p, os_m, os_p;
};

template <typename T> void matmulPlain(const Core &c, const T *ip1, const T *ip2, T *op) {
  for (int64_t m = 0; m < c.m; ++m)
    for (int64_t p = 0; p < c.p; ++p) {
      AccumulatorOf<T> sum{};
      for (int64_t n = 0; n < c.n; ++n)
        sum = multiplyAddElements(sum, ip1[m * c.is1_m + n * c.is1_n],
                                  ip2[n * c.is2_n + p * c.is2_p]);
      op[m * c.os_m + p * c.os_p] = Accumulator<T>::store(sum);
    }
}

template <typename T>
void matrixCopy(bool transpose, const T *ip, int64_t is_m, int64_t is_n, T *op, int64_t os_m,
                int64_t os_n, int64_t dm, int64_t dn) {
  // In the order NumPy's copy walks (only the destination's layout matters).
  if (transpose) {
    for (int64_t n = 0; n < dn; ++n)
      for (int64_t m = 0; m < dm; ++m)
        op[m * os_m + n * os_n] = ip[m * is_m + n * is_n];
    return;
  }
  for (int64_t m = 0; m < dm; ++m)
    for (int64_t n = 0; n < dn; ++n)
      op[m * os_m + n * os_n] = ip[m * is_m + n * is_n];
}

template <typename T> class MatmulLoop {
public:
  MatmulLoop(const Core &core) : c(core), blas(blasFor<T>()) {
    if (!blas)
      return;
    int64_t maxSize = blas->maxSize();
    auto blasable2d = [&](int64_t s1, int64_t s2, int64_t d1, int64_t d2) {
      return isBlasable(s1, s2, d1, d2);
    };
    bool tooBig = c.m > maxSize || c.n > maxSize || c.p > maxSize;
    bool anyZero = c.m == 0 || c.n == 0 || c.p == 0;
    plain = tooBig || anyZero;
    special = c.m == 1 || c.n == 1 || c.p == 1;
    scalarOut = c.m == 1 && c.p == 1;
    scalarVec = c.n == 1 && (c.p == 1 || c.m == 1);
    i1blasable = blasable2d(c.is1_m, c.is1_n, c.m, c.n) || blasable2d(c.is1_n, c.is1_m, c.n, c.m);
    i2blasable = blasable2d(c.is2_n, c.is2_p, c.n, c.p) || blasable2d(c.is2_p, c.is2_n, c.p, c.n);
    oblasable = blasable2d(c.os_m, c.os_p, c.m, c.p) || blasable2d(c.os_p, c.os_m, c.p, c.m);
    vectorMatrix = c.m == 1 && i2blasable && blasable2d(c.is1_n, 1, c.n, 1);
    matrixVector = c.p == 1 && i1blasable && blasable2d(c.is2_n, 1, c.n, 1);
    if (!plain && !special && (!i1blasable || !i2blasable || !oblasable))
      buffer.resize((i1blasable ? 0 : c.m * c.n) + (i2blasable ? 0 : c.n * c.p) +
                    (oblasable ? 0 : c.m * c.p));
  }

  void operator()(const T *ip1, const T *ip2, T *op) {
    if constexpr (Kind<T>::hasBlas)
      if (blas && !plain)
        return withBlas(ip1, ip2, op);
    matmulPlain(c, ip1, ip2, op);
  }

private:
  void withBlas(const T *ip1, const T *ip2, T *op) {
    if (special) {
      if (scalarOut)
        *op = dotOf(blas, ip1, c.is1_n, ip2, c.is2_n, c.n);
      else if (scalarVec)
        matmulPlain(c, ip1, ip2, op);
      else if (vectorMatrix)
        gemv(ip2, c.is2_p, c.is2_n, ip1, c.is1_n, op, c.os_p, c.p, c.n);
      else if (matrixVector)
        gemv(ip1, c.is1_m, c.is1_n, ip2, c.is2_n, op, c.os_m, c.m, c.n);
      else
        matmulPlain(c, ip1, ip2, op);
      return;
    }
    // Matrix by matrix: copies of what BLAS cannot read (gh-23588).
    bool i1Transpose = std::abs(c.is1_m) < std::abs(c.is1_n);
    bool i2Transpose = std::abs(c.is2_n) < std::abs(c.is2_p);
    bool oTranspose = std::abs(c.os_m) < std::abs(c.os_p);
    T *tmp1 = buffer.data();
    T *tmp2 = tmp1 + (i1blasable ? 0 : c.m * c.n);
    T *tmpOut = tmp2 + (i2blasable ? 0 : c.n * c.p);
    int64_t t1m = i1Transpose ? 1 : c.n, t1n = i1Transpose ? c.m : 1;
    int64_t t2n = i2Transpose ? 1 : c.p, t2p = i2Transpose ? c.n : 1;
    int64_t tom = oTranspose ? 1 : c.p, top = oTranspose ? c.m : 1;
    if (!i1blasable)
      matrixCopy(i1Transpose, ip1, c.is1_m, c.is1_n, tmp1, t1m, t1n, c.m, c.n);
    if (!i2blasable)
      matrixCopy(i2Transpose, ip2, c.is2_n, c.is2_p, tmp2, t2n, t2p, c.n, c.p);
    const T *a = i1blasable ? ip1 : tmp1;
    const T *b = i2blasable ? ip2 : tmp2;
    T *o = oblasable ? op : tmpOut;
    int64_t s1m = i1blasable ? c.is1_m : t1m, s1n = i1blasable ? c.is1_n : t1n;
    int64_t s2n = i2blasable ? c.is2_n : t2n, s2p = i2blasable ? c.is2_p : t2p;
    int64_t som = oblasable ? c.os_m : tom, sop = oblasable ? c.os_p : top;
    // matmul(a, b, o) == matmul(b.T, a.T, o.T)
    if (oTranspose)
      matrixMatrix(b, s2p, s2n, a, s1n, s1m, o, sop, som, c.p, c.n, c.m);
    else
      matrixMatrix(a, s1m, s1n, b, s2n, s2p, o, som, sop, c.m, c.n, c.p);
    if (!oblasable)
      matrixCopy(oTranspose, tmpOut, tom, top, op, c.os_m, c.os_p, c.m, c.p);
  }

  /// NumPy's is_blasable2d: rows `s1` apart, unit steps along them.
  bool isBlasable(int64_t s1, int64_t s2, int64_t, int64_t d2) const {
    return s2 == 1 && s1 >= d2 && s1 <= blas->maxSize();
  }

  void gemv(const T *ip1, int64_t is1_m, int64_t is1_n, const T *ip2, int64_t is2_n, T *op,
            int64_t op_m, int64_t m, int64_t n) {
    int order = kRowMajor;
    int64_t lda = is1_n;
    if (isBlasable(is1_m, is1_n, m, n)) {
      order = kColMajor;
      lda = is1_m;
    }
    void *f = blas->routine(Kind<T>::gemv);
    if (blas->ilp64)
      gemvAs<int64_t>(f, order, n, m, ip1, lda, ip2, is2_n, op, op_m);
    else
      gemvAs<int32_t>(f, order, n, m, ip1, lda, ip2, is2_n, op, op_m);
  }

  void matrixMatrix(const T *ip1, int64_t is1_m, int64_t is1_n, const T *ip2, int64_t is2_n,
                    int64_t is2_p, T *op, int64_t os_m, int64_t os_p, int64_t m, int64_t n,
                    int64_t p) {
    (void)os_p;
    int64_t ldc = os_m;
    int trans1 = kNoTrans, trans2 = kNoTrans;
    int64_t lda = is1_m, ldb = is2_n;
    if (!isBlasable(is1_m, is1_n, m, n)) {
      trans1 = kTrans;
      lda = is1_n;
    }
    if (!isBlasable(is2_n, is2_p, n, p)) {
      trans2 = kTrans;
      ldb = is2_p;
    }
    bool ilp64 = blas->ilp64;
    // A matrix times its own transpose: syrk, then the lower triangle.
    if (ip1 == ip2 && m == p && is1_m == is2_p && is1_n == is2_n && trans1 != trans2) {
      void *f = blas->routine(Kind<T>::syrk);
      int64_t ld = trans1 == kNoTrans ? lda : ldb;
      if (ilp64)
        syrkAs<int64_t>(f, trans1, p, n, ip1, ld, op, ldc);
      else
        syrkAs<int32_t>(f, trans1, p, n, ip1, ld, op, ldc);
      for (int64_t i = 0; i < p; ++i)
        for (int64_t j = i + 1; j < p; ++j)
          op[j * ldc + i] = op[i * ldc + j];
      return;
    }
    void *f = blas->routine(Kind<T>::gemm);
    if (ilp64)
      gemmAs<int64_t>(f, trans1, trans2, m, p, n, ip1, lda, ip2, ldb, op, ldc);
    else
      gemmAs<int32_t>(f, trans1, trans2, m, p, n, ip1, lda, ip2, ldb, op, ldc);
  }

  Core c;
  const BlasLibrary *blas;
  bool plain = false, special = false, scalarOut = false, scalarVec = false;
  bool i1blasable = false, i2blasable = false, oblasable = false;
  bool vectorMatrix = false, matrixVector = false;
  std::vector<T> buffer;
};

//===----------------------------------------------------------------------===//
// Whole operations
//===----------------------------------------------------------------------===//

/// np.matmul: stacks broadcast, a 1-D operand is a row (left) or a column
/// (right) whose axis the result drops.
template <typename T> void matmul(const Operand<T> &a, const Operand<T> &b, T *out) {
  bool aMatrix = a.ndim > 1, bMatrix = b.ndim > 1;
  Core c;
  c.m = aMatrix ? a.dim(a.ndim - 2) : 1;
  c.n = a.dim(a.ndim - 1);
  c.p = bMatrix ? b.dim(b.ndim - 1) : 1;
  c.is1_m = aMatrix ? a.stride(a.ndim - 2) : 0;
  c.is1_n = a.stride(a.ndim - 1);
  c.is2_n = bMatrix ? b.stride(b.ndim - 2) : b.stride(0);
  c.is2_p = bMatrix ? b.stride(b.ndim - 1) : 0;
  c.os_m = aMatrix ? (bMatrix ? c.p : 1) : 0;
  c.os_p = bMatrix ? 1 : 0;
  MatmulLoop<T> loop(c);
  if (a.ndim <= 2 && b.ndim <= 2)
    return loop(a.data, b.data, out); // one product: no stacks to walk (or allocate)
  Stacks stacks =
      broadcastStacks(a, std::max<int64_t>(a.ndim - 2, 0), b, std::max<int64_t>(b.ndim - 2, 0),
                      (aMatrix ? c.m : 1) * (bMatrix ? c.p : 1));
  forEachIndex(
      stacks.sizes, {stacks.aStrides, stacks.bStrides, stacks.outStrides},
      [&](const std::vector<int64_t> &at) { loop(a.data + at[0], b.data + at[1], out + at[2]); });
}

/// A C-contiguous copy of `x` in `storage` when BLAS could not read it
/// (np.dot copies such operands; matmul would loop over them plainly).
template <typename T>
Operand<T> readableByBlas(const Operand<T> &x, std::vector<T> &storage,
                          std::vector<int64_t> &strides) {
  bool readable = true;
  for (int64_t axis = 0; axis < x.ndim; ++axis)
    readable &= x.stride(axis) >= 0 && (x.stride(axis) != 0 || x.dim(axis) <= 1);
  if (x.ndim == 2)
    readable &= (x.stride(1) == 1 && x.stride(0) >= x.dim(1)) ||
                (x.stride(0) == 1 && x.stride(1) >= x.dim(0));
  if (readable)
    return x;
  int64_t rows = x.ndim == 2 ? x.dim(0) : 1, columns = x.dim(x.ndim - 1);
  storage.resize(rows * columns);
  strides.assign({columns, 1});
  int64_t rowStride = x.ndim == 2 ? x.stride(0) : 0, columnStride = x.stride(x.ndim - 1);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < columns; ++j)
      storage[i * columns + j] = x.data[i * rowStride + j * columnStride];
  return {storage.data(), x.ndim, x.dims, x.ndim == 2 ? strides.data() : strides.data() + 1};
}

/// np.dot: up to two axes, the products matmul takes (operands BLAS cannot
/// read copied first); beyond, each element is the dot of a row of `a` (its
/// last axis) and a column of `b` (its second-to-last).
template <typename T> void dot(const Operand<T> &a, const Operand<T> &b, T *out) {
  if (a.ndim <= 2 && b.ndim <= 2) {
    std::vector<T> aCopy, bCopy;
    std::vector<int64_t> aStrides, bStrides;
    return matmul(readableByBlas(a, aCopy, aStrides), readableByBlas(b, bCopy, bStrides), out);
  }
  const BlasLibrary *blas = blasFor<T>();
  int64_t inner = b.ndim == 1 ? 0 : b.ndim - 2;
  int64_t n = a.dim(a.ndim - 1);
  std::vector<int64_t> sizes, aStrides, bStrides, oStrides;
  for (int64_t axis = 0; axis + 1 < a.ndim; ++axis) {
    sizes.push_back(a.dim(axis));
    aStrides.push_back(a.stride(axis));
    bStrides.push_back(0);
  }
  for (int64_t axis = 0; axis < b.ndim; ++axis) {
    if (axis == inner)
      continue;
    sizes.push_back(b.dim(axis));
    aStrides.push_back(0);
    bStrides.push_back(b.stride(axis));
  }
  oStrides.resize(sizes.size());
  int64_t step = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    oStrides[k] = step;
    step *= sizes[k];
  }
  forEachIndex(sizes, {aStrides, bStrides, oStrides}, [&](const std::vector<int64_t> &at) {
    out[at[2]] =
        dotOf(blas, a.data + at[0], a.stride(a.ndim - 1), b.data + at[1], b.stride(inner), n);
  });
}

template <typename T>
void productOf(int64_t isDot, int64_t a, int64_t aNdim, int64_t aDims, int64_t aStrides, int64_t b,
               int64_t bNdim, int64_t bDims, int64_t bStrides, int64_t out) {
  auto operand = [](int64_t data, int64_t ndim, int64_t dims, int64_t strides) {
    return Operand<T>{reinterpret_cast<T *>(data), ndim, reinterpret_cast<const int64_t *>(dims),
                      reinterpret_cast<const int64_t *>(strides)};
  };
  Operand<T> x = operand(a, aNdim, aDims, aStrides), y = operand(b, bNdim, bDims, bStrides);
  if (isDot)
    dot(x, y, reinterpret_cast<T *>(out));
  else
    matmul(x, y, reinterpret_cast<T *>(out));
}

} // namespace

extern "C" void plait_rt_matmul(int64_t kind, int64_t dot, int64_t a, int64_t aNdim, int64_t aDims,
                                int64_t aStrides, int64_t b, int64_t bNdim, int64_t bDims,
                                int64_t bStrides, int64_t out) {
  switch (kind) {
  case PLAIT_LINALG_F64:
    return productOf<double>(dot, a, aNdim, aDims, aStrides, b, bNdim, bDims, bStrides, out);
  case PLAIT_LINALG_F32:
    return productOf<float>(dot, a, aNdim, aDims, aStrides, b, bNdim, bDims, bStrides, out);
  case PLAIT_LINALG_C128:
    return productOf<Complex>(dot, a, aNdim, aDims, aStrides, b, bNdim, bDims, bStrides, out);
  case PLAIT_LINALG_C64:
    return productOf<ComplexF>(dot, a, aNdim, aDims, aStrides, b, bNdim, bDims, bStrides, out);
  case PLAIT_LINALG_F16:
    return productOf<Half>(dot, a, aNdim, aDims, aStrides, b, bNdim, bDims, bStrides, out);
  default:
    return productOf<int64_t>(dot, a, aNdim, aDims, aStrides, b, bNdim, bDims, bStrides, out);
  }
}

std::string plait::runtime::blasLibraryPath() { return blasLibrary().path; }
