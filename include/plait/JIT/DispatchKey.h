//===- DispatchKey.h - the classes of a call's arguments --------*- C++ -*-===//
//
// A dispatch key spells, one part per argument, what the compiled code for
// a call was specialised for; the dispatcher builds one for every call and
// finds the executor by it. The alphabet, defined here once:
//
//   b  bool        i  int        f  float        c  complex   (Python's)
//   N<d>           a NumPy scalar of dtype d (d: DTypeInfo::dispatchCode)
//   A<d><n><l>     an array of dtype d with n (1-8) axes and layout l:
//                  C C-contiguous, F Fortran-contiguous (and not C), A any
//   D<d>           a dtype (np.float32, np.dtype('f4'), float): known when
//                  compiling, so no value is passed
//   T<n><parts>    a tuple of n elements ('0' + n, n <= kMaxTupleLength),
//                  each a part of its own (scalars and tuples)
//   J<8 hex>       a jitted function passed as a value: its id (no value
//                  is passed: the code calls that function directly)
//   n              None (a default such as axis=None): no value is passed
//   S<2 hex><text> a str (its UTF-8 bytes, at most kMaxStringBytes): a
//                  constant of the code compiled for it (no value is passed)
//   U              a str passed as a value (a longer one, or a list's item):
//                  its code points in a list's box
//
// Executors also know how to unbox each argument: the part's first letter,
// or I (int32) and F (float32) for the narrow scalars of an explicit
// signature.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_JIT_DISPATCHKEY_H
#define PLAIT_JIT_DISPATCHKEY_H

#include "plait/Frontend/Frontend.h"

#include <string>
#include <string_view>
#include <vector>

namespace plait::jit::key {

constexpr char kBool = 'b', kInt = 'i', kFloat = 'f', kComplex = 'c';
constexpr char kNumPyScalar = 'N', kArray = 'A', kDType = 'D', kTuple = 'T', kFunction = 'J';
constexpr char kString = 'S', kNone = 'n', kList = 'L', kDict = 'M', kText = 'U';
constexpr size_t kMaxStringBytes = 64;
constexpr size_t kMaxTupleLength = 64;
constexpr char kContiguous = 'C', kFortran = 'F', kAnyLayout = 'A';
/// Unboxing kinds of explicit signatures' narrow scalars.
constexpr char kInt32 = 'I', kFloat32 = 'F';

/// The length of the part at `at` in `key`, or 0 when it is malformed.
size_t partLength(std::string_view key, size_t at);

/// The key's parts, one per argument; throws std::invalid_argument.
std::vector<std::string> split(const std::string &key);
/// The type a part stands for; throws std::invalid_argument.
frontend::Type typeOf(const std::string &part);
/// The part that stands for a type.
std::string partOf(const frontend::Type &type);
/// The part of a str of `text` (at most kMaxStringBytes).
std::string stringPart(std::string_view text);

/// How signatures and `.signatures` spell the type of a part: "int64",
/// "float64", "bool", "complex", "numpy.float32", "float64[:, ::1]".
std::string nameOf(const std::string &part);

/// The type a signature's type name stands for: "int64", "int", "float64",
/// "float", "bool", "complex128", "complex", "int32" and "float32" (`narrow`
/// set: unboxed as 32-bit), "numpy.<dtype>", and arrays "<dtype>[<axes>]"
/// where each axis is ':' and '::1' marks the unit-stride axis: the last
/// (C-contiguous) or the first (Fortran-contiguous). Throws
/// std::invalid_argument for anything else.
frontend::Type typeOfName(const std::string &name, bool &narrow);

/// Whether a call whose arguments have key `call` may run the executor of
/// an explicit signature with key `signature`: its scalars convert (bool to
/// int to float to complex) and a signature's any-layout array takes
/// contiguous arrays of its dtype and rank too.
bool accepts(std::string_view signature, std::string_view call);

/// An explicit signature's argument types ("float64[:, ::1]", "int32"...):
/// the key a call must match, and how each argument is unboxed. Throws
/// std::invalid_argument for an unknown type name.
struct Signature {
  std::string key;
  std::string kinds;
};
Signature signatureOf(const std::vector<std::string> &typeNames);

} // namespace plait::jit::key

#endif // PLAIT_JIT_DISPATCHKEY_H
