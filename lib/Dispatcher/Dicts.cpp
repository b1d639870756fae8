//===- Dicts.cpp - dict arguments and results -----------------------------===//
//
// A dict crosses the boundary as a copy: a Python dict argument becomes a
// box (plait/Runtime/Dicts.h) of the call's arena, its keys and values in
// the words compiled code reads (EmitDicts.cpp: a key's normalised words,
// one per number, a value's two); a dict result, and a changed argument
// written back, become Python objects again.
//
//===----------------------------------------------------------------------===//
#include "Dicts.h"

#include "Results.h"
#include "plait/Frontend/DType.h"
#include "plait/JIT/DispatchKey.h"
#include "plait/Runtime/Dicts.h"
#include "plait/Support/Half.h"

#include <algorithm>
#include <cstring>

namespace plait::dispatch::detail {

using frontend::DType;
using frontend::Type;

namespace {

constexpr int64_t kValueWords = 2; // (as EmitDicts.cpp lays entries out)

double doubleOfBits(int64_t bits) {
  double v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

int64_t bitsOfDouble(double v) {
  int64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

/// The value of a NumPy scalar's bytes: as a double (floats) or int64
/// (integers and bools; uint64 by its bits).
bool numpyValue(PyObject *object, DType dtype, double &real, int64_t &integer) {
  Py_buffer view;
  if (PyObject_GetBuffer(object, &view, PyBUF_RECORDS_RO) != 0)
    return false;
  const void *at = view.buf;
  switch (dtype) {
  case DType::Float64:
    std::memcpy(&real, at, 8);
    break;
  case DType::Float32: {
    float f;
    std::memcpy(&f, at, 4);
    real = f;
    break;
  }
  case DType::Float16: {
    uint16_t h;
    std::memcpy(&h, at, 2);
    real = halfToDouble(h);
    break;
  }
  case DType::Int8:
    integer = *static_cast<const int8_t *>(at);
    break;
  case DType::Int16:
    integer = *static_cast<const int16_t *>(at);
    break;
  case DType::Int32:
    integer = *static_cast<const int32_t *>(at);
    break;
  case DType::UInt8:
  case DType::Bool:
    integer = *static_cast<const uint8_t *>(at);
    break;
  case DType::UInt16:
    integer = *static_cast<const uint16_t *>(at);
    break;
  case DType::UInt32:
    integer = *static_cast<const uint32_t *>(at);
    break;
  default: // int64, uint64
    std::memcpy(&integer, at, 8);
    break;
  }
  PyBuffer_Release(&view);
  return true;
}

/// `object` (of the scalar type `type`) as the words compiled code keeps:
/// two for a value, the first for a key (then normalised by the caller).
bool wordsOf(PyObject *object, const Type &type, int64_t words[2]) {
  words[1] = 0;
  if (type.kind == Type::Kind::Complex ||
      (type.kind == Type::Kind::NumPy && frontend::isComplexDType(type.dtype))) {
    Py_complex z = PyComplex_AsCComplex(object);
    if (z.real == -1.0 && PyErr_Occurred())
      return false;
    words[0] = bitsOfDouble(z.real);
    words[1] = bitsOfDouble(z.imag);
    return true;
  }
  if (type.kind == Type::Kind::NumPy) {
    double real = 0;
    int64_t integer = 0;
    if (!numpyValue(object, type.dtype, real, integer))
      return false;
    words[0] = frontend::isFloatDType(type.dtype) ? bitsOfDouble(real) : integer;
    return true;
  }
  if (type.kind == Type::Kind::Float) {
    double v = PyFloat_AsDouble(object);
    if (v == -1.0 && PyErr_Occurred())
      return false;
    words[0] = bitsOfDouble(v);
    return true;
  }
  if (type.kind == Type::Kind::Bool) {
    words[0] = object == Py_True ? 1 : 0;
    return true;
  }
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(object, &overflow);
  if (overflow) {
    PyErr_SetString(PyExc_OverflowError, "a dict key or value does not fit in int64");
    return false;
  }
  if (v == -1 && PyErr_Occurred())
    return false;
  words[0] = v;
  return true;
}

/// A key's word as compiled code compares it: -0.0 is 0.0.
int64_t normalisedKey(const Type &type, int64_t word) {
  bool floating = type.kind == Type::Kind::Float ||
                  (type.kind == Type::Kind::NumPy && frontend::isFloatDType(type.dtype));
  return floating && doubleOfBits(word) == 0.0 ? 0 : word;
}

/// A key's words (a tuple's elements one after another) as put in, and as
/// compiled code compares them; false with an exception.
bool keyWordsOf(PyObject *key, const Type &type, std::vector<int64_t> &original,
                std::vector<int64_t> &normalised) {
  if (type.kind == Type::Kind::Tuple) {
    for (size_t k = 0; k < type.elements.size(); ++k)
      if (!keyWordsOf(PyTuple_GET_ITEM(key, static_cast<Py_ssize_t>(k)), type.elements[k], original,
                      normalised))
        return false;
    return true;
  }
  if (type.kind == Type::Kind::Str) { // its box (the dict retains it)
    int64_t *box = strBoxOf(key);
    if (!box)
      return false;
    original.push_back(reinterpret_cast<int64_t>(box));
    normalised.push_back(reinterpret_cast<int64_t>(box));
    return true;
  }
  int64_t words[2];
  if (!wordsOf(key, type, words))
    return false;
  original.push_back(words[0]);
  normalised.push_back(normalisedKey(type, words[0]));
  return true;
}

/// The Python object of a scalar of `type` kept as `words`.
PyObject *objectOf(const Type &type, const int64_t *words) {
  switch (type.kind) {
  case Type::Kind::Tuple: { // (a key: one word per element)
    PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(type.elements.size()));
    for (size_t k = 0; tuple && k < type.elements.size(); ++k) {
      PyObject *element = objectOf(type.elements[k], words);
      words += frontend::dictKeyWords(type.elements[k]);
      if (!element)
        Py_CLEAR(tuple);
      else
        PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(k), element);
    }
    return tuple;
  }
  case Type::Kind::Bool:
    return PyBool_FromLong(words[0] != 0);
  case Type::Kind::Str:
    return pythonStr(reinterpret_cast<const int64_t *>(words[0]));
  case Type::Kind::Int:
    return PyLong_FromLongLong(words[0]);
  case Type::Kind::Float:
    return PyFloat_FromDouble(doubleOfBits(words[0]));
  case Type::Kind::Complex:
    return PyComplex_FromDoubles(doubleOfBits(words[0]), doubleOfBits(words[1]));
  default:
    break;
  }
  // A NumPy scalar: its dtype's bytes, rebuilt from the words.
  unsigned char bytes[16] = {};
  double real = doubleOfBits(words[0]);
  switch (type.dtype) {
  case DType::Float64:
    std::memcpy(bytes, &real, 8);
    break;
  case DType::Float32: {
    float f = static_cast<float>(real);
    std::memcpy(bytes, &f, 4);
    break;
  }
  case DType::Float16: {
    uint16_t h = halfFromFloat(static_cast<float>(real));
    std::memcpy(bytes, &h, 2);
    break;
  }
  case DType::Complex128: {
    double parts[2] = {real, doubleOfBits(words[1])};
    std::memcpy(bytes, parts, 16);
    break;
  }
  case DType::Complex64: {
    float parts[2] = {static_cast<float>(real), static_cast<float>(doubleOfBits(words[1]))};
    std::memcpy(bytes, parts, 8);
    break;
  }
  default: // integers and bools: the low bytes (little-endian)
    std::memcpy(bytes, &words[0], 8);
    break;
  }
  return newNumPyScalar(type.dtype, bytes,
                        static_cast<size_t>(frontend::dtypeInfo(type.dtype).bytes));
}

/// Whether `type` is complex or a tuple holding a complex number.
bool holdsComplex(const Type &type) {
  return type.isComplex() || std::any_of(type.elements.begin(), type.elements.end(), holdsComplex);
}

} // namespace

bool classifyDict(PyObject *items, std::string &part, const std::string &what,
                  const std::function<std::string(PyObject *)> &scalarPart,
                  const std::function<std::string(PyObject *)> &tuplePart) {
  Py_ssize_t position = 0;
  PyObject *key, *value;
  std::string keyPart, valuePart;
  PyObject *firstKey = nullptr, *firstValue = nullptr;
  while (PyDict_Next(items, &position, &key, &value)) {
    std::string k = PyTuple_Check(key)     ? tuplePart(key)
                    : PyUnicode_Check(key) ? std::string(1, jit::key::kText)
                                           : scalarPart(key);
    std::string v = scalarPart(value);
    bool complexKey = !k.empty() && holdsComplex(jit::key::typeOf(k));
    if (k.empty() || v.empty() || complexKey || k == "T0") {
      PyErr_Format(PyExc_TypeError,
                   "%s: dict keys must be int, float, bool, str, real NumPy scalars or tuples "
                   "of them and values int, float, bool, complex or NumPy scalars, not %s: %s",
                   what.c_str(), Py_TYPE(key)->tp_name, Py_TYPE(value)->tp_name);
      return false;
    }
    if (!firstKey) {
      firstKey = key;
      firstValue = value;
      keyPart = k;
      valuePart = v;
    } else if (k != keyPart || v != valuePart) {
      PyObject *mixed = k != keyPart ? key : value;
      PyErr_Format(PyExc_TypeError,
                   "%s: a dict mixing %s and %s %s cannot be compiled for (compiled dicts have "
                   "keys of one type and values of one type)",
                   what.c_str(), Py_TYPE(k != keyPart ? firstKey : firstValue)->tp_name,
                   Py_TYPE(mixed)->tp_name, k != keyPart ? "keys" : "values");
      return false;
    }
  }
  if (!firstKey) {
    PyErr_Format(PyExc_TypeError,
                 "%s: an empty dict has no key and value types to compile for (pass it with "
                 "items, or make it in compiled code)",
                 what.c_str());
    return false;
  }
  part = "M" + keyPart + valuePart;
  return true;
}

int64_t *unboxDict(PyObject *items, const Type &type) {
  int64_t keyWords = frontend::dictKeyWords(type.keyType());
  uint64_t strKeys = frontend::dictStrKeyWords(type.keyType());
  int64_t *box = newDict(keyWords, kValueWords, /*owned=*/0, strKeys);
  if (!box) {
    PyErr_NoMemory();
    return nullptr;
  }
  Py_ssize_t position = 0;
  PyObject *key, *value;
  while (PyDict_Next(items, &position, &key, &value)) {
    std::vector<int64_t> original, normalised;
    int64_t valueWords[2], entry = 0;
    if (!keyWordsOf(key, type.keyType(), original, normalised) ||
        !wordsOf(value, type.valueType(), valueWords))
      return nullptr; // (the arena frees the box)
    if (plait_rt_dict_insert(reinterpret_cast<int64_t>(box),
                             reinterpret_cast<int64_t>(normalised.data()),
                             reinterpret_cast<int64_t>(original.data()),
                             reinterpret_cast<int64_t>(&entry), keyWords, kValueWords,
                             /*owned=*/0, static_cast<int64_t>(strKeys)) != 0) {
      PyErr_NoMemory();
      return nullptr;
    }
    int64_t *at = reinterpret_cast<int64_t *>(box[kDictEntries]) + entry * dictEntryWords(box);
    at[keyWords] = valueWords[0];
    at[keyWords + 1] = valueWords[1];
  }
  return box;
}

PyObject *pythonDict(const Type &type, const int64_t *box, ResultOwners *owners) {
  if (box[kDictLength] > 0 &&
      (type.keyType().kind == Type::Kind::Bottom || type.valueType().kind == Type::Kind::Bottom)) {
    PyErr_SetString(PyExc_TypeError,
                    "plait: a dict whose items were typed through another value cannot be "
                    "converted (put its first item in through the name that returns it)");
    return nullptr;
  }
  PyObject *dict = PyDict_New();
  if (!dict)
    return nullptr;
  const int64_t *entries = reinterpret_cast<const int64_t *>(box[kDictEntries]);
  int64_t entryWords = dictEntryWords(box);
  for (int64_t k = 0; k < box[kDictUsed]; ++k) {
    const int64_t *entry = entries + k * entryWords;
    if (!entry[entryWords - 1])
      continue;
    PyObject *key = objectOf(type.keyType(), entry + dictOriginalKey(box)); // as first put in
    const int64_t *valueWords = entry + box[kDictKeyWords];
    PyObject *value = !key ? nullptr
                      : frontend::dictValueLayout(type.valueType()).words
                          ? pythonItem(type.valueType(), valueWords, owners)
                          : objectOf(type.valueType(), valueWords);
    int failed = value ? PyDict_SetItem(dict, key, value) : -1;
    Py_XDECREF(key);
    Py_XDECREF(value);
    if (failed) {
      Py_DECREF(dict);
      return nullptr;
    }
  }
  return dict;
}

bool reflectDict(PyObject *target, const Type &type, const int64_t *box) {
  PyObject *items = pythonDict(type, box, /*owners=*/nullptr); // (values of numbers)
  if (!items)
    return false;
  PyDict_Clear(target);
  int failed = PyDict_Update(target, items);
  Py_DECREF(items);
  return failed == 0;
}

} // namespace plait::dispatch::detail
