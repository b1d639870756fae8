//===- DType.cpp - the array element types plait supports -----------------===//
#include "plait/Frontend/DType.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace plait::frontend {

namespace {

// NumPy's type numbers (numpy/ndarraytypes.h).
enum : int {
  kNpyBool = 0,
  kNpyByte = 1,
  kNpyUByte = 2,
  kNpyShort = 3,
  kNpyUShort = 4,
  kNpyInt = 5,
  kNpyUInt = 6,
  kNpyLong = 7,
  kNpyULong = 8,
  kNpyLongLong = 9,
  kNpyULongLong = 10,
  kNpyFloat = 11,
  kNpyDouble = 12,
  kNpyCFloat = 14,
  kNpyCDouble = 15,
  kNpyHalf = 23
};

// int64 and uint64 are C long on LP64: their format is 'l', so that
// NumPy's arrays over plait's memory have elements of type numpy.int64
// (with 'q' they would be numpy.longlong, a different type of equal size).
const DTypeInfo table[] = {
    {DType::Float64, "float64", 64, 8, true, false, 'd', "d", kNpyDouble},
    {DType::Float32, "float32", 32, 4, true, false, 'f', "f", kNpyFloat},
    {DType::Float16, "float16", 16, 2, true, false, 'e', "e", kNpyHalf},
    {DType::Int64, "int64", 64, 8, false, false, 'q', "l", kNpyLongLong},
    {DType::Int32, "int32", 32, 4, false, false, 'i', "i", kNpyInt},
    {DType::Int16, "int16", 16, 2, false, false, 'h', "h", kNpyShort},
    {DType::Int8, "int8", 8, 1, false, false, 'b', "b", kNpyByte},
    {DType::UInt8, "uint8", 8, 1, false, true, 'B', "B", kNpyUByte},
    {DType::UInt16, "uint16", 16, 2, false, true, 'H', "H", kNpyUShort},
    {DType::UInt32, "uint32", 32, 4, false, true, 'I', "I", kNpyUInt},
    {DType::UInt64, "uint64", 64, 8, false, true, 'Q', "L", kNpyULongLong},
    {DType::Complex128, "complex128", 128, 16, false, false, 'D', "Zd", kNpyCDouble},
    {DType::Complex64, "complex64", 64, 8, false, false, 'F', "Zf", kNpyCFloat},
    {DType::Bool, "bool", 1, 1, false, false, '?', "?", kNpyBool},
};

} // namespace

const DTypeInfo *allDTypes(size_t &count) {
  count = std::size(table);
  return table;
}

const DTypeInfo &dtypeInfo(DType dtype) { return table[static_cast<int>(dtype)]; }

const DTypeInfo *dtypeOfDispatchCode(char code) {
  for (const DTypeInfo &info : table)
    if (info.dispatchCode == code)
      return &info;
  return nullptr;
}

const DTypeInfo *dtypeOfNumPyTypeNum(int typeNum) {
  // C long is 64 bits on the LP64 platforms plait runs on.
  static_assert(sizeof(long) == 8, "NPY_LONG is taken for int64");
  if (typeNum == kNpyLong)
    typeNum = kNpyLongLong;
  if (typeNum == kNpyULong)
    typeNum = kNpyULongLong;
  for (const DTypeInfo &info : table)
    if (info.numpyTypeNum == typeNum)
      return &info;
  return nullptr;
}

const char *dtypeName(DType dtype) { return dtypeInfo(dtype).name; }
bool isFloatDType(DType dtype) { return dtypeInfo(dtype).isFloat; }
bool isUnsignedDType(DType dtype) { return dtypeInfo(dtype).isUnsigned; }
int dtypeBits(DType dtype) { return dtypeInfo(dtype).bits; }
bool isComplexDType(DType dtype) { return dtype == DType::Complex128 || dtype == DType::Complex64; }

DType complexPartDType(DType dtype) {
  return dtype == DType::Complex128  ? DType::Float64
         : dtype == DType::Complex64 ? DType::Float32
                                     : dtype;
}

DType complexOfPartDType(DType part) {
  return part == DType::Float32 || part == DType::Float16 ? DType::Complex64 : DType::Complex128;
}

bool dtypeFromName(const std::string &name, DType &dtype) {
  static const std::pair<const char *, DType> aliases[] = {
      {"double", DType::Float64},     {"single", DType::Float32},    {"half", DType::Float16},
      {"cdouble", DType::Complex128}, {"csingle", DType::Complex64}, {"complex", DType::Complex128},
      {"bool_", DType::Bool}};
  for (const DTypeInfo &info : table)
    if (name == info.name) {
      dtype = info.dtype;
      return true;
    }
  for (const auto &[spelling, value] : aliases)
    if (name == spelling) {
      dtype = value;
      return true;
    }
  return false;
}

bool dtypeFromString(const std::string &text, DType &dtype) {
  if (dtypeFromName(text, dtype))
    return true;
  // NumPy's type codes ('f4', 'i8', ...) and characters ('d', 'f', ...),
  // in native byte order ('<' on the machines plait runs on, or '=').
  std::string code = text;
  if (!code.empty() && (code[0] == '<' || code[0] == '='))
    code = code.substr(1);
  static const std::pair<const char *, DType> codes[] = {
      {"float", DType::Float64}, {"int", DType::Int64},    {"f2", DType::Float16},
      {"f4", DType::Float32},    {"f8", DType::Float64},   {"i1", DType::Int8},
      {"i2", DType::Int16},      {"i4", DType::Int32},     {"i8", DType::Int64},
      {"u1", DType::UInt8},      {"u2", DType::UInt16},    {"u4", DType::UInt32},
      {"u8", DType::UInt64},     {"c8", DType::Complex64}, {"c16", DType::Complex128},
      {"b1", DType::Bool},       {"?", DType::Bool},       {"e", DType::Float16},
      {"f", DType::Float32},     {"d", DType::Float64},    {"b", DType::Int8},
      {"h", DType::Int16},       {"i", DType::Int32},      {"l", DType::Int64},
      {"q", DType::Int64},       {"B", DType::UInt8},      {"H", DType::UInt16},
      {"I", DType::UInt32},      {"L", DType::UInt64},     {"Q", DType::UInt64},
      {"F", DType::Complex64},   {"D", DType::Complex128}};
  for (const auto &[spelling, value] : codes)
    if (code == spelling) {
      dtype = value;
      return true;
    }
  return false;
}

DType promoteDTypes(DType a, DType b) {
  if (a == b)
    return a;
  // A complex result has the parts the real parts promote to.
  if (isComplexDType(a) || isComplexDType(b))
    return complexOfPartDType(promoteDTypes(complexPartDType(a), complexPartDType(b)));
  if (b == DType::Bool)
    return a;
  if (a == DType::Bool)
    return b;
  if (isFloatDType(a) || isFloatDType(b)) {
    if (isFloatDType(a) && isFloatDType(b))
      return dtypeBits(a) >= dtypeBits(b) ? a : b;
    DType f = isFloatDType(a) ? a : b;
    DType i = isFloatDType(a) ? b : a;
    // The narrowest float that holds the integer type exactly: float16
    // holds 8-bit ints, float32 16-bit ones, wider ones need float64.
    int needed = dtypeBits(i) <= 8 ? 16 : dtypeBits(i) <= 16 ? 32 : 64;
    int bits = std::max(needed, dtypeBits(f));
    return bits == 16 ? DType::Float16 : bits == 32 ? DType::Float32 : DType::Float64;
  }
  bool ua = isUnsignedDType(a), ub = isUnsignedDType(b);
  if (ua == ub)
    return dtypeBits(a) >= dtypeBits(b) ? a : b;
  DType u = ua ? a : b, i = ua ? b : a;
  if (dtypeBits(u) < dtypeBits(i))
    return i;
  // The signed type twice as wide as the unsigned one holds both.
  switch (u) {
  case DType::UInt8:
    return DType::Int16;
  case DType::UInt16:
    return DType::Int32;
  case DType::UInt32:
    return DType::Int64;
  default:
    return DType::Float64; // no integer type holds uint64 and a signed one
  }
}

} // namespace plait::frontend
