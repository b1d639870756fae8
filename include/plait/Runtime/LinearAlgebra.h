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
};

/// np.matmul(a, b) (`dot` 0) or np.dot(a, b) (`dot` 1) of two arrays of
/// one kind, written to `out`: a new C-contiguous array of the result's
/// shape (a scalar result: one element). The caller has checked the shapes.
void plait_rt_matmul(int64_t kind, int64_t dot, int64_t a, int64_t aNdim, int64_t aDims,
                     int64_t aStrides, int64_t b, int64_t bNdim, int64_t bDims, int64_t bStrides,
                     int64_t out);
}

namespace plait::runtime {
/// The file plait's BLAS and LAPACK come from, "" when none was found.
std::string blasLibraryPath();
} // namespace plait::runtime

#endif // PLAIT_RUNTIME_LINEARALGEBRA_H
