//===- LinearAlgebra.h - products and np.linalg for compiled code -*- C++ -*-===//
//
// Matrix products and NumPy's linalg functions, computed as NumPy computes
// them: the same BLAS and LAPACK routines, chosen by the same rules, so that
// results match NumPy's. Arrays are passed as the address of their first
// element, their number of axes, and the addresses of int64 arrays of their
// sizes and strides (in elements). Called with the GIL released.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_LINEARALGEBRA_H
#define PLAIT_RUNTIME_LINEARALGEBRA_H

#include <cstdint>
#include <string>

extern "C" {
/// The element kinds these functions compute in.
enum PlaitLinalgKind : int64_t {
  PLAIT_LINALG_F64 = 0,
  PLAIT_LINALG_F32 = 1,
  PLAIT_LINALG_C128 = 2,
  PLAIT_LINALG_I64 = 3, // wrapping: NumPy's integer products modulo 2**64
  PLAIT_LINALG_C64 = 4, // products and norms (np.linalg computes the rest in complex128)
  PLAIT_LINALG_F16 = 5, // products only, in float as NumPy's loops
};

/// np.matmul(a, b) (`dot` 0) or np.dot(a, b) (`dot` 1) of two arrays of
/// one kind, written to `out`: a new C-contiguous array of the result's
/// shape (a scalar result: one element). The caller has checked the shapes.
void plait_rt_matmul(int64_t kind, int64_t dot, int64_t a, int64_t aNdim, int64_t aDims,
                     int64_t aStrides, int64_t b, int64_t bNdim, int64_t bDims, int64_t bStrides,
                     int64_t out);

/// np.linalg's functions on float64 or complex128 arrays (`kind`; NumPy
/// computes in these whatever the input), each matrix the last two axes of
/// a stack, results written to new C-contiguous arrays of their shapes.
/// They return a status: 0 done; 1 LinAlgError (singular matrix, not
/// positive definite, no convergence); 2 LinAlgError "SVD did not
/// converge"; 3 ValueError (a minimum of nothing); 4 no LAPACK was found.
///
/// solve(a, b): b a vector, or a stack of matrices broadcast with a's.
int32_t plait_rt_linalg_solve(int64_t kind, int64_t a, int64_t aNdim, int64_t aDims,
                              int64_t aStrides, int64_t b, int64_t bNdim, int64_t bDims,
                              int64_t bStrides, int64_t out);
int32_t plait_rt_linalg_inv(int64_t kind, int64_t a, int64_t ndim, int64_t dims, int64_t strides,
                            int64_t out);
/// Never 1: a singular matrix's determinant is 0.
int32_t plait_rt_linalg_det(int64_t kind, int64_t a, int64_t ndim, int64_t dims, int64_t strides,
                            int64_t out);
int32_t plait_rt_linalg_cholesky(int64_t kind, int64_t upper, int64_t a, int64_t ndim, int64_t dims,
                                 int64_t strides, int64_t out);
/// Eigenvalues (float64, ascending) into `w`, eigenvectors (columns) into `v`.
int32_t plait_rt_linalg_eigh(int64_t kind, int64_t upper, int64_t a, int64_t ndim, int64_t dims,
                             int64_t strides, int64_t w, int64_t v);
/// lstsq of a 2-D a and a 1-D or 2-D b: the solution into `x`, the
/// residuals (one per column of b, written only for a full-rank
/// overdetermined system) into `residuals`, the rank (int32) into `rank`
/// and the singular values into `s` (float64).
int32_t plait_rt_linalg_lstsq(int64_t kind, int64_t a, int64_t aDims, int64_t aStrides, int64_t b,
                              int64_t bNdim, int64_t bDims, int64_t bStrides, double rcond,
                              int64_t x, int64_t residuals, int64_t rank, int64_t s);

/// The norms np.linalg.norm computes with axis=None (`p`: the order of
/// PLAIT_NORM_VECTOR_POWER).
enum PlaitNorm : int64_t {
  PLAIT_NORM_EUCLIDEAN = 0,       // the 2-norm: without an axis the dot of the array with itself
  PLAIT_NORM_VECTOR_MAX = 1,      // ord=inf
  PLAIT_NORM_VECTOR_MIN = 2,      // ord=-inf
  PLAIT_NORM_VECTOR_COUNT = 3,    // ord=0
  PLAIT_NORM_VECTOR_SUM = 4,      // ord=1
  PLAIT_NORM_VECTOR_POWER = 5,    // any other order
  PLAIT_NORM_COLUMN_SUMS_MAX = 6, // ord=1
  PLAIT_NORM_COLUMN_SUMS_MIN = 7, // ord=-1
  PLAIT_NORM_ROW_SUMS_MAX = 8,    // ord=inf
  PLAIT_NORM_ROW_SUMS_MIN = 9,    // ord=-inf
  PLAIT_NORM_SINGULAR_MAX = 10,   // ord=2
  PLAIT_NORM_SINGULAR_MIN = 11,   // ord=-2
  PLAIT_NORM_NUCLEAR = 12,        // ord='nuc'
};
/// np.linalg.norm(x, ord) of a float64, float32 or complex128 array (`kind`)
/// into `out`: a float64 (a float32 for float32 x).
int32_t plait_rt_linalg_norm(int64_t kind, int64_t x, int64_t ndim, int64_t dims, int64_t strides,
                             int64_t ord, double p, int64_t out);
/// np.linalg.norm(x, ord, axis=axis) for a vector order (PLAIT_NORM_EUCLIDEAN
/// for None and 2): one norm per line along `axis`, into `out` in C order of
/// the other axes.
int32_t plait_rt_linalg_norm_axis(int64_t kind, int64_t x, int64_t ndim, int64_t dims,
                                  int64_t strides, int64_t axis, int64_t ord, double p,
                                  int64_t out);
/// np.linalg.norm(x, ord, axis=(row, column)) for a matrix order
/// (PLAIT_NORM_EUCLIDEAN for None and 'fro'): one norm per matrix, into
/// `out` in C order of the other axes.
int32_t plait_rt_linalg_norm_axes(int64_t kind, int64_t x, int64_t ndim, int64_t dims,
                                  int64_t strides, int64_t row, int64_t column, int64_t ord,
                                  int64_t out);
}

namespace plait::runtime {
/// The file plait's BLAS and LAPACK come from, "" when none was found.
std::string blasLibraryPath();
} // namespace plait::runtime

#endif // PLAIT_RUNTIME_LINEARALGEBRA_H
