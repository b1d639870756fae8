//===- DType.h - the array element types plait supports ---------*- C++ -*-===//
//
// One table of NumPy dtypes and everything plait needs to know about each:
// its names, width, the character that stands for it in a dispatch key, its
// buffer-protocol format (how arguments are read and results exported) and
// its NumPy type number (how arrays are read). Adding a dtype is a row here
// (and its MLIR type in the emitter).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_FRONTEND_DTYPE_H
#define PLAIT_FRONTEND_DTYPE_H

#include <cstdint>
#include <string>

namespace plait::frontend {

/// Element types of arrays (NumPy dtypes), also the types of NumPy scalars.
enum class DType {
  Float64,
  Float32,
  Float16,
  Int64,
  Int32,
  Int16,
  Int8,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Complex128,
  Complex64,
  Bool
};

struct DTypeInfo {
  DType dtype;
  const char *name;   // NumPy's: "float64", "bool"
  int bits;           // of the value: bool 1, complex128 128, complex64 64
  int bytes;          // in memory: bool 1
  bool isFloat;       // float64, float32, float16 (not complex)
  bool isUnsigned;    // uint8, uint64 (not bool)
  char dispatchCode;  // in dispatch keys: 'd', 'f', 'q', ... (NumPy's type characters)
  const char *format; // the buffer protocol's (struct module's) format
  int numpyTypeNum;   // NPY_DOUBLE, ...: how an ndarray's descr names it
};

/// Every supported dtype, in DType's order.
const DTypeInfo *allDTypes(size_t &count);
const DTypeInfo &dtypeInfo(DType dtype);
/// The dtype a dispatch key's character stands for, or null.
const DTypeInfo *dtypeOfDispatchCode(char code);
/// The dtype of a NumPy type number (NPY_LONG and NPY_LONGLONG both int64 on
/// LP64), or null when plait has no such array type.
const DTypeInfo *dtypeOfNumPyTypeNum(int typeNum);

const char *dtypeName(DType dtype);
/// NumPy's names of the supported dtypes ("float32", "bool_", "double", ...).
bool dtypeFromName(const std::string &name, DType &dtype);
/// A dtype= string: a name, or NumPy's type codes ('f4', '<i8', 'd').
bool dtypeFromString(const std::string &text, DType &dtype);
bool isFloatDType(DType dtype);
bool isUnsignedDType(DType dtype); // uint8, uint64 (not bool)
bool isComplexDType(DType dtype);  // complex64, complex128
/// The dtype of a complex dtype's parts (float32, float64); a real dtype
/// is its own.
DType complexPartDType(DType dtype);
/// The complex dtype whose parts are `part` or wider: complex64 for
/// float16 and float32, complex128 for float64.
DType complexOfPartDType(DType part);
int dtypeBits(DType dtype);        // bool: 1, complex128: 128
/// NumPy's promotion of two dtypes (np.result_type).
DType promoteDTypes(DType a, DType b);

} // namespace plait::frontend

#endif // PLAIT_FRONTEND_DTYPE_H
