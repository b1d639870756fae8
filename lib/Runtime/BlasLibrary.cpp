//===- BlasLibrary.cpp - finding the BLAS and LAPACK to call --------------===//
//
// plait calls the BLAS NumPy itself calls, so that products and solutions
// come out as NumPy's do. The first library that has cblas_dgemm wins:
//   1. the file PLAIT_BLAS names;
//   2. a library already loaded whose file name contains "blas" (NumPy's
//      wheels bundle scipy-openblas, loaded with numpy);
//   3. a system OpenBLAS (Debian's libopenblas).
// Builds spell their symbols differently: scipy-openblas prefixes
// "scipy_", and ILP64 builds (64-bit integers) append "64_" to CBLAS names
// and "_64_" to LAPACK's (scipy_cblas_dgemm64_, scipy_dgesv_64_).
//
//===----------------------------------------------------------------------===//
#include "BlasLibrary.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <utility>
#include <vector>

namespace plait::runtime {
namespace {

struct Spelling {
  const char *prefix;
  bool ilp64;
};

constexpr Spelling kSpellings[] = {{"scipy_", true}, {"", true}, {"scipy_", false}, {"", false}};

struct RoutineName {
  const char *name;
  bool cblas;
};

constexpr RoutineName kRoutineNames[] = {
#define PLAIT_CBLAS(name) {#name, true},
#define PLAIT_LAPACK(name) {#name, false},
#include "BlasRoutines.def"
};

std::string symbolOf(const RoutineName &routine, const Spelling &spelling) {
  std::string symbol = spelling.prefix;
  if (routine.cblas)
    return symbol + "cblas_" + routine.name + (spelling.ilp64 ? "64_" : "");
  return symbol + routine.name + (spelling.ilp64 ? "_64_" : "_");
}

/// Fills `library` from `handle` when it has cblas_dgemm in some spelling.
bool resolveFrom(void *handle, const std::string &path, BlasLibrary &library) {
  constexpr RoutineName dgemm = {"dgemm", true};
  for (const Spelling &spelling : kSpellings) {
    if (!dlsym(handle, symbolOf(dgemm, spelling).c_str()))
      continue;
    library.path = path;
    library.ilp64 = spelling.ilp64;
    for (size_t k = 0; k < std::size(kRoutineNames); ++k)
      library.routines[k] = dlsym(handle, symbolOf(kRoutineNames[k], spelling).c_str());
    return true;
  }
  return false;
}

struct LoadedObjects {
  std::vector<std::string> blas; // file names mentioning "blas"
  bool numpy = false;            // NumPy's core extension is loaded
};

LoadedObjects loadedObjects() {
  LoadedObjects loaded;
  dl_iterate_phdr(
      [](struct dl_phdr_info *info, size_t, void *data) {
        auto &found = *static_cast<LoadedObjects *>(data);
        std::string path = info->dlpi_name ? info->dlpi_name : "";
        std::string name = path.substr(path.find_last_of('/') + 1);
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return std::tolower(c); });
        if (name.find("blas") != std::string::npos)
          found.blas.push_back(path);
        found.numpy |= name.rfind("_multiarray_umath", 0) == 0;
        return 0;
      },
      &loaded);
  return loaded;
}

/// The library, and whether the answer is final: before NumPy is loaded
/// its BLAS cannot be found yet, so a miss then is asked again later.
std::pair<BlasLibrary, bool> findBlasLibrary() {
  BlasLibrary library;
  auto tryPath = [&](const std::string &path, int flags) {
    void *handle = dlopen(path.c_str(), flags);
    if (!handle)
      return false;
    if (resolveFrom(handle, path, library))
      return true; // stays open for the life of the process
    dlclose(handle);
    return false;
  };
  if (const char *chosen = std::getenv("PLAIT_BLAS"); chosen && *chosen)
    if (tryPath(chosen, RTLD_NOW | RTLD_LOCAL))
      return {library, true};
  LoadedObjects loaded = loadedObjects();
  for (const std::string &path : loaded.blas)
    if (tryPath(path, RTLD_NOW | RTLD_NOLOAD))
      return {library, true};
  if (!loaded.numpy)
    return {library, false};
  for (const char *soname : {"libopenblas64_.so.0", "libopenblas.so.0", "libopenblas.so"})
    if (tryPath(soname, RTLD_NOW | RTLD_LOCAL))
      return {library, true};
  return {library, true};
}

} // namespace

const BlasLibrary &blasLibrary() {
  // Published once final; racing finders each build one, the first wins.
  static std::atomic<const BlasLibrary *> found{nullptr};
  static const BlasLibrary none;
  if (const BlasLibrary *library = found.load(std::memory_order_acquire))
    return *library;
  auto [library, final] = findBlasLibrary();
  if (!final)
    return none;
  auto *candidate = new BlasLibrary(std::move(library));
  const BlasLibrary *expected = nullptr;
  if (!found.compare_exchange_strong(expected, candidate, std::memory_order_acq_rel)) {
    delete candidate;
    return *expected;
  }
  return *candidate;
}

} // namespace plait::runtime
