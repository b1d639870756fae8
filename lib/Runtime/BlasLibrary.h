//===- BlasLibrary.h - the BLAS and LAPACK compiled code calls --*- C++ -*-===//
//
// The routines of one BLAS with LAPACK, found at first use (see
// BlasLibrary.cpp for where). CBLAS routines take row-major or column-major
// matrices; LAPACK routines are Fortran's (every argument by address).
// Integers are 64-bit in an ILP64 build, 32-bit otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_BLASLIBRARY_H
#define PLAIT_RUNTIME_BLASLIBRARY_H

#include <cstdint>
#include <string>

namespace plait::runtime {

/// The routines plait calls, by their names without prefix or suffix:
/// CBLAS ones are spelled cblas_<name>, LAPACK ones <name>_.
enum class BlasRoutine : int {
#define PLAIT_CBLAS(name) name,
#define PLAIT_LAPACK(name) name,
#include "BlasRoutines.def"
  Count
};

struct BlasLibrary {
  /// Where the routines come from ("" when no BLAS was found).
  std::string path;
  /// True when integers are int64_t (symbols ending in 64_).
  bool ilp64 = false;
  void *routines[static_cast<int>(BlasRoutine::Count)] = {};

  void *routine(BlasRoutine r) const { return routines[static_cast<int>(r)]; }
  /// The largest matrix dimension or stride the integers hold.
  int64_t maxSize() const { return ilp64 ? INT64_MAX - 1 : INT32_MAX - 1; }
};

/// The process's BLAS, looked up once (thread-safe; never needs the GIL).
const BlasLibrary &blasLibrary();

} // namespace plait::runtime

#endif // PLAIT_RUNTIME_BLASLIBRARY_H
