//===- Results.cpp - boxing what a call returned or raised ----------------===//
//
// Scalars become Python or NumPy scalars as CPython and NumPy would make
// them. Arrays become NumPy arrays over the compiled code's memory, without
// a copy: numpy.asarray of a small exporter object whose buffer describes
// the memory and which keeps its owner alive.
//
//===----------------------------------------------------------------------===//
#include "Results.h"
#include "Dicts.h"

#include "DispatchState.h"
#include "Print.h"
#include "plait/Runtime/Lists.h"

#include "plait/Frontend/DType.h"
#include "plait/JIT/Compiler.h"
#include "plait/Runtime/Lists.h"
#include "plait/Runtime/RuntimeSymbols.h"
#include "plait/Support/Half.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#if PY_VERSION_HEX >= 0x030D0000
// Private since 3.13 (internal/pycore_traceback.h), still exported: what
// CPython's own C modules use to add a frame of code that has none.
extern "C" void _PyTraceback_Add(const char *, const char *, int);
#endif

namespace plait::dispatch::detail {

using frontend::DType;
using frontend::Type;

namespace {

PyObject *numpyAttribute(const char *name) {
  PyObject *numpy = PyImport_ImportModule("numpy");
  if (!numpy)
    return nullptr;
  PyObject *attribute = PyObject_GetAttrString(numpy, name);
  Py_DECREF(numpy);
  return attribute;
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

constexpr int kMaxDims = 8;

/// Exports an array result's memory through the buffer protocol.
struct ResultBuffer {
  PyObject_HEAD
  PyObject *owner; // keeps the memory alive
  char *data;
  const char *format;
  Py_ssize_t itemsize;
  Py_ssize_t length; // in bytes
  int ndim;
  Py_ssize_t shape[kMaxDims];
  Py_ssize_t strides[kMaxDims]; // in bytes
};

bool isCContiguous(const ResultBuffer &buffer) {
  Py_ssize_t expected = buffer.itemsize;
  for (int d = buffer.ndim - 1; d >= 0; --d) {
    if (buffer.shape[d] != 1 && buffer.strides[d] != expected)
      return false;
    expected *= buffer.shape[d];
  }
  return true;
}

int resultBufferGet(PyObject *self, Py_buffer *view, int flags) {
  auto &buffer = *reinterpret_cast<ResultBuffer *>(self);
  // A consumer that cannot take strides reads buf..buf+len as packed data.
  if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && buffer.length > buffer.itemsize &&
      !isCContiguous(buffer)) {
    PyErr_SetString(PyExc_BufferError, "the array is not C-contiguous");
    return -1;
  }
  view->obj = Py_NewRef(self);
  view->buf = buffer.data;
  view->len = buffer.length;
  view->itemsize = buffer.itemsize;
  view->readonly = 0;
  view->ndim = buffer.ndim;
  view->format = (flags & PyBUF_FORMAT) ? const_cast<char *>(buffer.format) : nullptr;
  view->shape = (flags & PyBUF_ND) == PyBUF_ND ? buffer.shape : nullptr;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? buffer.strides : nullptr;
  view->suboffsets = nullptr;
  view->internal = nullptr;
  return 0;
}

void resultBufferDealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  Py_XDECREF(reinterpret_cast<ResultBuffer *>(self)->owner);
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject *resultBufferType() {
  static std::atomic<PyObject *> cache{nullptr};
  return cachedObject(cache, [] {
    static PyType_Slot slots[] = {
        {Py_bf_getbuffer, reinterpret_cast<void *>(resultBufferGet)},
        {Py_tp_dealloc, reinterpret_cast<void *>(resultBufferDealloc)},
        {0, nullptr}};
    static PyType_Spec spec = {"plait._core.jit.ResultBuffer", sizeof(ResultBuffer), 0,
                               Py_TPFLAGS_DEFAULT, slots};
    return PyType_FromSpec(&spec);
  });
}

/// A capsule that frees `memory` (from the call's arena) with the array.
PyObject *owningCapsule(void *memory) {
  return PyCapsule_New(memory, "plait.array_memory", [](PyObject *capsule) {
    plait::freeArrayAllocation(PyCapsule_GetPointer(capsule, "plait.array_memory"));
  });
}

/// An exporter of `data` with `ndim` sizes then `ndim` strides (in
/// elements) at `layout`, and no owner yet.
ResultBuffer *newResultBuffer(DType type, int ndim, char *data, const int64_t *layout) {
  const frontend::DTypeInfo &dtype = frontend::dtypeInfo(type);
  PyObject *bufferType = resultBufferType();
  if (!bufferType)
    return nullptr;
  auto *buffer = reinterpret_cast<ResultBuffer *>(
      reinterpret_cast<PyTypeObject *>(bufferType)->tp_alloc(reinterpret_cast<PyTypeObject *>(bufferType), 0));
  if (!buffer)
    return nullptr;
  buffer->data = data;
  buffer->format = dtype.format;
  buffer->itemsize = dtype.bytes;
  buffer->ndim = ndim;
  buffer->length = dtype.bytes;
  for (int d = 0; d < ndim; ++d) {
    buffer->shape[d] = static_cast<Py_ssize_t>(layout[d]);
    buffer->length *= buffer->shape[d];
  }
  for (int d = 0; d < ndim; ++d)
    buffer->strides[d] = static_cast<Py_ssize_t>(layout[ndim + d]) * dtype.bytes;
  return buffer;
}

/// numpy.asarray of the exporter (which it consumes).
PyObject *asArray(ResultBuffer *buffer) {
  static std::atomic<PyObject *> asarrayCache{nullptr};
  PyObject *asarray = cachedObject(asarrayCache, [] { return numpyAttribute("asarray"); });
  PyObject *array =
      asarray ? PyObject_CallOneArg(asarray, reinterpret_cast<PyObject *>(buffer)) : nullptr;
  Py_DECREF(buffer);
  return array;
}

PyObject *sameItemArray(const Type &type, const int64_t *descriptor, const ResultOwners &owners);

PyObject *boxArray(const Type &type, const int64_t *&words, ResultOwners &owners) {
  if (PyObject *same = sameItemArray(type, words, owners)) {
    words += 2 + 2 * type.ndim;
    return same;
  }
  // (Its dtype first: the same words of another dtype are another array.)
  std::vector<int64_t> descriptor{static_cast<int64_t>(type.dtype)};
  descriptor.insert(descriptor.end(), words, words + 2 + 2 * type.ndim);
  for (auto &[made, object] : owners.made)
    if (made == descriptor) {
      words += descriptor.size() - 1;
      return Py_NewRef(object);
    }
  int64_t base = *words++;
  int64_t offset = *words++;
  char *data = reinterpret_cast<char *>(base) + offset * frontend::dtypeInfo(type.dtype).bytes;
  ResultBuffer *buffer = newResultBuffer(type.dtype, type.ndim, data, words);
  if (!buffer)
    return nullptr;
  words += 2 * type.ndim;
  // 1. A view of an argument (or of an array a list argument held) keeps
  // it alive.
  size_t items = owners.itemArrays ? owners.itemArrays->size() : 0;
  for (size_t i = 0; i < owners.count + items && !buffer->owner; ++i) {
    const Py_buffer *view =
        i < owners.count ? owners.views[i] : (*owners.itemArrays)[i - owners.count].first;
    if (!view)
      continue;
    // The bytes the argument's elements span: with negative strides its
    // first element is not its lowest address (a[:, ::-1]).
    int64_t low = reinterpret_cast<int64_t>(view->buf), high = low + view->itemsize;
    for (int d = 0; d < view->ndim && view->shape && view->strides; ++d) {
      int64_t reach = (view->shape[d] - 1) * view->strides[d];
      (reach < 0 ? low : high) += reach;
    }
    if (base >= low && base < std::max(high, low + 1))
      buffer->owner = Py_NewRef(i < owners.count ? owners.arguments[i]
                                                 : (*owners.itemArrays)[i - owners.count].second);
  }
  // 2. The same memory as an earlier result of this call.
  for (auto &[made, object] : owners.made)
    if (!buffer->owner && made[1] == base)
      buffer->owner = Py_NewRef(object);
  // 3. Memory this call allocated: the array owns it from now on.
  if (!buffer->owner) {
    void *memory = reinterpret_cast<void *>(base);
    if (!owners.arena->release(memory)) {
      Py_DECREF(buffer);
      PyErr_SetString(PyExc_RuntimeError, "internal: an array result of unknown origin");
      return nullptr;
    }
    buffer->owner = owningCapsule(memory);
    if (!buffer->owner) {
      plait::freeArrayAllocation(memory);
      Py_DECREF(buffer);
      return nullptr;
    }
  }
  PyObject *array = asArray(buffer);
  if (array)
    owners.made.emplace_back(std::move(descriptor), array);
  return array;
}

} // namespace

PyObject *borrowedArray(DType dtype, int ndim, char *data, const int64_t *layout) {
  ResultBuffer *buffer = newResultBuffer(dtype, ndim, data, layout);
  if (!buffer)
    return nullptr;
  buffer->owner = Py_NewRef(Py_None); // the memory outlives the array's use
  return asArray(buffer);
}

namespace {

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

/// numpy.float32 etc.: a borrowed reference to the scalar type, or null.
PyObject *numpyScalarType(DType dtype) {
  static std::atomic<PyObject *> types[16];
  return cachedObject(types[static_cast<int>(dtype)], [dtype] {
    return numpyAttribute(dtype == DType::Bool ? "bool_" : frontend::dtypeName(dtype));
  });
}

} // namespace

/// A new NumPy scalar holding `bytes`, built as NumPy's PyArray_Scalar
/// builds one: every numeric scalar type is {PyObject_HEAD; T obval;}
/// (numpy/arrayscalars.h) and its tp_alloc returns zeroed memory. Bools
/// come from calling the type, which returns NumPy's two singletons.
PyObject *newNumPyScalar(DType dtype, const void *bytes, size_t size) {
  PyObject *type = numpyScalarType(dtype);
  if (!type)
    return nullptr;
  if (dtype == DType::Bool)
    return PyObject_CallOneArg(type, *static_cast<const uint8_t *>(bytes) ? Py_True : Py_False);
  auto *typeObject = reinterpret_cast<PyTypeObject *>(type);
  PyObject *scalar = typeObject->tp_alloc(typeObject, 0);
  if (scalar)
    std::memcpy(reinterpret_cast<char *>(scalar) + sizeof(PyObject), bytes, size);
  return scalar;
}

namespace {

/// The Python number a NumPy scalar's word holds (the low bytes hold narrow
/// values).
PyObject *pythonNumber(DType dtype, int64_t bits) {
  switch (dtype) {
  case DType::Float64: {
    double v;
    std::memcpy(&v, &bits, 8);
    return PyFloat_FromDouble(v);
  }
  case DType::Float32: {
    float v;
    uint32_t low = static_cast<uint32_t>(bits);
    std::memcpy(&v, &low, 4);
    return PyFloat_FromDouble(v);
  }
  case DType::Float16:
    return PyFloat_FromDouble(plait::halfToDouble(static_cast<uint16_t>(bits)));
  case DType::Int32:
    return PyLong_FromLongLong(static_cast<int32_t>(bits));
  case DType::Int16:
    return PyLong_FromLongLong(static_cast<int16_t>(bits));
  case DType::Int8:
    return PyLong_FromLongLong(static_cast<int8_t>(bits));
  case DType::UInt8:
    return PyLong_FromLongLong(static_cast<uint8_t>(bits));
  case DType::UInt16:
    return PyLong_FromLongLong(static_cast<uint16_t>(bits));
  case DType::UInt32:
    return PyLong_FromLongLong(static_cast<uint32_t>(bits));
  case DType::UInt64:
    return PyLong_FromUnsignedLongLong(static_cast<uint64_t>(bits));
  case DType::Bool:
    return PyBool_FromLong(bits & 1);
  default:
    return PyLong_FromLongLong(bits);
  }
}

/// A NumPy scalar result: as numpy.<dtype>, or as the Python number an
/// explicit signature declared (checked and rounded as for Python numbers).
PyObject *boxNumPyScalar(DType dtype, int64_t bits, char cast) {
  if (!cast) // the word's low bytes are the value (little-endian)
    return newNumPyScalar(dtype, &bits, frontend::dtypeInfo(dtype).bytes);
  PyObject *number = pythonNumber(dtype, bits);
  if (!number)
    return nullptr;
  if (cast == 'f' || cast == 'F') {
    double v = PyFloat_AsDouble(number);
    Py_DECREF(number);
    if (v == -1.0 && PyErr_Occurred())
      return nullptr;
    return PyFloat_FromDouble(cast == 'F' ? static_cast<double>(static_cast<float>(v)) : v);
  }
  if (cast == 'i' || cast == 'I') {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (overflow || (cast == 'I' && (v < INT32_MIN || v > INT32_MAX))) {
      Py_DECREF(number);
      PyErr_SetString(PyExc_OverflowError,
                      cast == 'I' ? "result does not fit in int32" : "result does not fit in int64");
      return nullptr;
    }
  }
  return number; // 'i', 'I', 'b'
}

/// The Python object of a list item of type `item` stored at `at`.
PyObject *boxListItem(const Type &item, const char *at) {
  switch (item.kind) {
  case Type::Kind::Bool:
    return PyBool_FromLong(*at != 0);
  case Type::Kind::Int: {
    int64_t v;
    std::memcpy(&v, at, 8);
    return PyLong_FromLongLong(v);
  }
  case Type::Kind::Float: {
    double v;
    std::memcpy(&v, at, 8);
    return PyFloat_FromDouble(v);
  }
  case Type::Kind::Complex: {
    double parts[2];
    std::memcpy(parts, at, 16);
    return PyComplex_FromDoubles(parts[0], parts[1]);
  }
  default:
    return newNumPyScalar(item.dtype, at, frontend::dtypeInfo(item.dtype).bytes);
  }
}

} // namespace

namespace {

/// The object made for `box` earlier in this conversion, or the one
/// `make` makes now (remembered).
template <typename Make> PyObject *madeOnce(const int64_t *box, ResultOwners &owners, Make make) {
  for (auto &[made, object] : owners.madeBoxes)
    if (made == box)
      return Py_NewRef(object);
  PyObject *object = make();
  if (object)
    owners.madeBoxes.emplace_back(box, object);
  return object;
}

/// The array a list argument held that `descriptor` (aligned pointer,
/// offset, sizes, strides) views exactly, as a new reference, or null.
PyObject *sameItemArray(const Type &type, const int64_t *descriptor, const ResultOwners &owners) {
  if (!owners.itemArrays)
    return nullptr;
  int64_t bytes = frontend::dtypeInfo(type.dtype).bytes;
  for (const auto &[view, object] : *owners.itemArrays) {
    bool same = view->ndim == type.ndim && descriptor[1] == 0 &&
                descriptor[0] == reinterpret_cast<int64_t>(view->buf);
    for (int d = 0; same && d < type.ndim; ++d)
      same = descriptor[2 + d] == view->shape[d] &&
             descriptor[2 + type.ndim + d] * bytes == view->strides[d];
    if (same)
      return Py_NewRef(object);
  }
  return nullptr;
}

/// The Python object of a list item stored as words (ListItemLayout),
/// advancing `words` past it.
PyObject *boxItemWords(const Type &item, const int64_t *&words, ResultOwners *owners) {
  switch (item.kind) {
  case Type::Kind::Tuple: {
    PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(item.elements.size()));
    for (size_t i = 0; tuple && i < item.elements.size(); ++i) {
      PyObject *element = boxItemWords(item.elements[i], words, owners);
      if (!element)
        Py_CLEAR(tuple);
      else
        PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), element);
    }
    return tuple;
  }
  case Type::Kind::Array: { // allocated, aligned, offset, sizes, strides
    const int64_t *descriptor = words + 1;
    words += 3 + 2 * item.ndim;
    if (!owners) {
      char *data = reinterpret_cast<char *>(descriptor[0]) +
                   descriptor[1] * frontend::dtypeInfo(item.dtype).bytes;
      return borrowedArray(item.dtype, item.ndim, data, descriptor + 2);
    }
    return boxArray(item, descriptor, *owners);
  }
  case Type::Kind::List: {
    const auto *box = reinterpret_cast<const int64_t *>(words[1]);
    words += 5;
    return owners ? madeOnce(box, *owners, [&] { return pythonList(item, box, owners); })
                  : pythonList(item, box, owners);
  }
  case Type::Kind::Str: {
    const auto *box = reinterpret_cast<const int64_t *>(words[1]);
    words += 5;
    return pythonStr(box);
  }
  default: { // a scalar in the low bytes of its words, as results hold one
    ResultOwners none{nullptr, nullptr, nullptr, 0, {}};
    return boxResult(item, words, /*cast=*/0, owners ? *owners : none);
  }
  }
}

} // namespace

bool parseItemKind(std::string_view text, size_t &at, Type &type) {
  auto next = [&] { return at < text.size() ? text[at++] : '\0'; };
  switch (next()) {
  case 'a': {
    const frontend::DTypeInfo *dtype = frontend::dtypeOfDispatchCode(next());
    int ndim = next() - '0';
    if (!dtype || ndim < 1 || ndim > 8)
      return false;
    type = Type::array(dtype->dtype, ndim);
    return true;
  }
  case 'L': {
    Type item;
    if (!parseItemKind(text, at, item))
      return false;
    type = Type::list(item);
    return true;
  }
  case 'S':
    type = Type::runtimeStr();
    return true;
  case '(': {
    std::vector<Type> elements;
    while (at < text.size() && text[at] != ')') {
      elements.emplace_back();
      if (!parseItemKind(text, at, elements.back()))
        return false;
    }
    next(); // ')'
    type = Type::tuple(std::move(elements));
    return true;
  }
  case 'i':
    type = Type::integer();
    return true;
  case 'b':
    type = Type::boolean();
    return true;
  case 'f':
    type = Type::floating();
    return true;
  case 'c':
    type = Type::complex();
    return true;
  case 'N': {
    const frontend::DTypeInfo *dtype = frontend::dtypeOfDispatchCode(next());
    if (!dtype)
      return false;
    type = Type::numpy(dtype->dtype);
    return true;
  }
  default:
    type = Type::bottom();
    return true;
  }
}

PyObject *pythonStr(const int64_t *box) {
  // Code points are int64 items; CPython's str takes them as UCS-4.
  Py_ssize_t length = static_cast<Py_ssize_t>(box[kListLength]);
  const auto *points = reinterpret_cast<const int64_t *>(box[kListItems]);
  std::vector<Py_UCS4> text(static_cast<size_t>(length));
  for (Py_ssize_t k = 0; k < length; ++k)
    text[static_cast<size_t>(k)] = static_cast<Py_UCS4>(points[k]);
  return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, text.data(), length);
}

int64_t *strBoxOf(PyObject *text) {
  Py_ssize_t n = PyUnicode_GetLength(text);
  int64_t *box = n < 0 ? nullptr : newList(n, sizeof(int64_t));
  if (!box) {
    if (!PyErr_Occurred())
      PyErr_NoMemory();
    return nullptr;
  }
  auto *points = reinterpret_cast<int64_t *>(box[kListItems]);
  int kind = PyUnicode_KIND(text);
  const void *data = PyUnicode_DATA(text);
  for (Py_ssize_t k = 0; k < n; ++k)
    points[k] = PyUnicode_READ(kind, data, k);
  return box;
}

PyObject *pythonItem(const Type &item, const int64_t *words, ResultOwners *owners) {
  return boxItemWords(item, words, owners);
}

PyObject *pythonList(const Type &type, const int64_t *box, ResultOwners *owners) {
  Py_ssize_t length = static_cast<Py_ssize_t>(box[kListLength]);
  if (length > 0 && type.itemType().kind == Type::Kind::Bottom) {
    // Items put in through a name typing did not link to this one (a
    // list kept in a tuple, say): their type is not known here.
    PyErr_SetString(PyExc_TypeError,
                    "plait: a list whose items were typed through another value cannot be "
                    "converted (put its first item in through the name that returns it)");
    return nullptr;
  }
  PyObject *list = PyList_New(length);
  if (!list)
    return nullptr;
  const char *items = reinterpret_cast<const char *>(box[kListItems]);
  bool inWords = frontend::listItemLayout(type.itemType()).words;
  for (Py_ssize_t k = 0; k < length; ++k) {
    const char *at = items + k * box[kListItemBytes];
    const auto *words = reinterpret_cast<const int64_t *>(at);
    PyObject *item =
        inWords ? boxItemWords(type.itemType(), words, owners) : boxListItem(type.itemType(), at);
    if (!item) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, k, item);
  }
  return list;
}

PyObject *boxResult(const Type &type, const int64_t *&words, char cast, ResultOwners &owners) {
  if (type.isComplex()) {
    if (type.kind == Type::Kind::NumPy && type.dtype == frontend::DType::Complex64) {
      float parts[2]; // each word's low bytes hold a part
      std::memcpy(&parts[0], words, 4);
      std::memcpy(&parts[1], words + 1, 4);
      words += 2;
      if (cast == 'c')
        return PyComplex_FromDoubles(parts[0], parts[1]);
      return newNumPyScalar(type.dtype, parts, 8);
    }
    double parts[2];
    std::memcpy(parts, words, 16);
    words += 2;
    if (type.kind == Type::Kind::Complex || cast == 'c')
      return PyComplex_FromDoubles(parts[0], parts[1]);
    return newNumPyScalar(type.dtype, parts, 16);
  }
  switch (type.kind) {
  case Type::Kind::NumPy:
    return boxNumPyScalar(type.dtype, *words++, cast);
  case Type::Kind::None:
    Py_RETURN_NONE;
  case Type::Kind::String: // known when compiling: no words
    return PyUnicode_DecodeUTF8(type.text.data(), static_cast<Py_ssize_t>(type.text.size()),
                                "replace");
  case Type::Kind::Array:
    return boxArray(type, words, owners);
  case Type::Kind::List: { // its box's aligned pointer, offset, size, stride
    const auto *box = reinterpret_cast<const int64_t *>(words[0]);
    words += 4;
    return madeOnce(box, owners, [&] { return pythonList(type, box, &owners); });
  }
  case Type::Kind::Dict: {
    const auto *box = reinterpret_cast<const int64_t *>(words[0]);
    words += 4;
    return madeOnce(box, owners, [&] { return pythonDict(type, box, &owners); });
  }
  case Type::Kind::Str: { // its box, as a list's
    const auto *box = reinterpret_cast<const int64_t *>(words[0]);
    words += 4;
    return pythonStr(box);
  }
  case Type::Kind::Bool:
    if (cast == 'f' || cast == 'F')
      return PyFloat_FromDouble(*words++ ? 1.0 : 0.0);
    return PyBool_FromLong(*words++ != 0);
  case Type::Kind::Int: {
    int64_t v = *words++;
    if (cast == 'f' || cast == 'F')
      return PyFloat_FromDouble(static_cast<double>(v));
    if (cast == 'I' && (v < INT32_MIN || v > INT32_MAX)) {
      PyErr_SetString(PyExc_OverflowError, "result does not fit in int32");
      return nullptr;
    }
    return PyLong_FromLongLong(v);
  }
  case Type::Kind::Float: {
    double v;
    std::memcpy(&v, words++, 8);
    if (cast == 'F')
      v = static_cast<float>(v);
    return PyFloat_FromDouble(v);
  }
  case Type::Kind::Tuple: {
    PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(type.elements.size()));
    if (!tuple)
      return nullptr;
    for (size_t i = 0; i < type.elements.size(); ++i) {
      PyObject *item = boxResult(type.elements[i], words, 0, owners);
      if (!item) {
        Py_DECREF(tuple);
        return nullptr;
      }
      PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), item);
    }
    if (!type.named)
      return tuple;
    // NumPy's named tuple: its class called with the elements (a NumPy
    // without the class, before 2.0, returns the plain tuple).
    PyObject *module = PyImport_ImportModule(type.named->module);
    PyObject *cls = module ? PyObject_GetAttrString(module, type.named->name) : nullptr;
    Py_XDECREF(module);
    if (!cls) {
      PyErr_Clear();
      return tuple;
    }
    PyObject *named = PyObject_Call(cls, tuple, nullptr);
    Py_DECREF(cls);
    Py_DECREF(tuple);
    return named;
  }
  default:
    Py_RETURN_NONE;
  }
}

namespace {

/// Value `bits` the code recorded for a raise, as the Python object of
/// `kind` (i int, f float, b bool, c complex, N<code> a NumPy scalar);
/// null with an exception. A complex number is two values: `bits` and
/// `next`, its parts' float64 bits.
PyObject *recordedValue(const std::string &kind, int64_t bits, int64_t next) {
  double real, imaginary;
  std::memcpy(&real, &bits, sizeof real);
  std::memcpy(&imaginary, &next, sizeof imaginary);
  PyObject *value = nullptr;
  if (kind == "c") {
    value = PyComplex_FromDoubles(real, imaginary);
  } else if (kind == "i") {
    value = PyLong_FromLongLong(bits);
  } else if (kind == "f") {
    value = PyFloat_FromDouble(real);
  } else if (kind == "b") {
    value = PyBool_FromLong(bits != 0);
  } else if (!kind.empty() && kind[0] == 'L') {
    // A list (an f-string's field, formatted at once: its arrays may
    // borrow the call's memory).
    size_t at = 1;
    Type item;
    if (bits == 0)
      PyErr_NoMemory(); // (its copy could not be made)
    else if (parseItemKind(kind, at, item))
      value = pythonList(Type::list(item), reinterpret_cast<const int64_t *>(bits), nullptr);
  } else if (kind == "S") {
    // A str computed when the code ran (a copy of its box made at the raise).
    if (bits == 0)
      PyErr_NoMemory();
    else
      value = pythonStr(reinterpret_cast<const int64_t *>(bits));
  } else if (!kind.empty() && kind[0] == 's') {
    // A str known when compiling: its UTF-8 bytes in hex.
    std::string text;
    for (size_t k = 1; k + 1 < kind.size(); k += 2)
      text += static_cast<char>(std::stoi(kind.substr(k, 2), nullptr, 16));
    value = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  } else if (!kind.empty() && kind[0] == 'N') {
    // The NumPy scalar's own type formats it (np.float32(0.1) is "0.1").
    const frontend::DTypeInfo *info = frontend::dtypeOfDispatchCode(kind.size() > 1 ? kind[1] : 0);
    PyObject *numpy = info ? PyImport_ImportModule("numpy") : nullptr;
    PyObject *scalarType = numpy ? PyObject_GetAttrString(numpy, info->name) : nullptr;
    Py_XDECREF(numpy);
    PyObject *number = !info ? nullptr
                       : frontend::isComplexDType(info->dtype)
                           ? PyComplex_FromDoubles(real, imaginary)
                       : info->isFloat                        ? PyFloat_FromDouble(real)
                       : info->dtype == frontend::DType::Bool ? PyBool_FromLong(bits != 0)
                       : info->dtype == frontend::DType::UInt64
                           ? PyLong_FromUnsignedLongLong(static_cast<uint64_t>(bits))
                           : PyLong_FromLongLong(bits);
    if (scalarType && number)
      value = PyObject_CallOneArg(scalarType, number);
    Py_XDECREF(scalarType);
    Py_XDECREF(number);
  }
  if (!value && !PyErr_Occurred())
    PyErr_SetString(PyExc_SystemError, "plait: a raise recorded a value of no known kind");
  return value;
}

/// The value of `kind` recorded at values[at] (advanced past its words): a
/// tuple's kind is its elements' kinds in parentheses, separated by commas.
PyObject *recordedValues(const std::string &kind, size_t &position,
                         const std::array<int64_t, kMaxErrorArguments> &values, size_t &at) {
  if (position < kind.size() && kind[position] == '(') {
    PyObject *items = PyList_New(0);
    ++position;
    while (items && position < kind.size() && kind[position] != ')') {
      PyObject *item = recordedValues(kind, position, values, at);
      if (!item || PyList_Append(items, item) != 0)
        Py_CLEAR(items);
      Py_XDECREF(item);
      if (position < kind.size() && kind[position] == ',')
        ++position;
    }
    ++position; // ')'
    PyObject *tuple = items ? PyList_AsTuple(items) : nullptr;
    Py_XDECREF(items);
    return tuple;
  }
  size_t end = kind.find_first_of(",)", position);
  std::string scalar = kind.substr(position, end == std::string::npos ? end : end - position);
  position = end == std::string::npos ? kind.size() : end;
  const frontend::DTypeInfo *info =
      scalar.size() > 1 && scalar[0] == 'N' ? frontend::dtypeOfDispatchCode(scalar[1]) : nullptr;
  bool twoWords = scalar == "c" || (info && frontend::isComplexDType(info->dtype));
  if (at + (twoWords ? 2 : 1) > values.size()) {
    PyErr_SetString(PyExc_SystemError, "plait: a raise recorded too many values");
    return nullptr;
  }
  PyObject *value = recordedValue(scalar, values[at], at + 1 < values.size() ? values[at + 1] : 0);
  at += twoWords ? 2 : 1;
  return value;
}

/// The message of a `raise` in compiled code: a template (it starts with
/// kFormattedMessage) whose {k:kind:conversion:spec} fields are an
/// f-string's fields of recorded value k as a `kind` (i int, f float, b
/// bool, c complex (values k and k + 1), N<code> a NumPy scalar of that
/// dispatch code (two values if complex), s<hex> a str of
/// those UTF-8 bytes): its repr, str or
/// ascii for the conversion r, s or a, then Python's format() with `spec`;
/// {{ and }} are braces. Null with an exception if a value does not format.
PyObject *formatRaiseMessage(const std::string &message,
                             const std::array<int64_t, kMaxErrorArguments> &values) {
  std::string out;
  for (size_t at = 1; at < message.size(); ++at) {
    char c = message[at];
    if ((c == '{' || c == '}') && at + 1 < message.size() && message[at + 1] == c) {
      out += c;
      ++at;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    size_t close = message.find('}', at);
    std::string field = message.substr(at + 1, close - at - 1);
    at = close;
    size_t colon = field.find(':'), second = field.find(':', colon + 1);
    size_t third = field.find(':', second + 1);
    size_t k = std::stoul(field.substr(0, colon));
    std::string kind = field.substr(colon + 1, second - colon - 1);
    std::string conversion = field.substr(second + 1, third - second - 1);
    std::string spec = field.substr(third + 1);
    PyObject *value = recordedValue(kind, k < values.size() ? values[k] : 0,
                                    k + 1 < values.size() ? values[k + 1] : 0);
    if (value && !conversion.empty()) {
      PyObject *converted = conversion == "r"   ? PyObject_Repr(value)
                            : conversion == "a" ? PyObject_ASCII(value)
                                                : PyObject_Str(value);
      Py_DECREF(value);
      value = converted;
    }
    if (!value)
      return nullptr;
    PyObject *specObject =
        PyUnicode_FromStringAndSize(spec.data(), static_cast<Py_ssize_t>(spec.size()));
    PyObject *formatted = specObject ? PyObject_Format(value, specObject) : nullptr;
    Py_DECREF(value);
    Py_XDECREF(specObject);
    const char *text = formatted ? PyUnicode_AsUTF8(formatted) : nullptr;
    if (!text) {
      Py_XDECREF(formatted);
      return nullptr;
    }
    out += text;
    Py_DECREF(formatted);
  }
  return PyUnicode_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size()));
}

/// The folder of the plait package, whose own frames (its NumPy library)
/// tracebacks leave out, as NumPy's C functions have none. Read from
/// sys.modules (no import, no lock held around the interpreter); call it
/// with no exception set.
std::string packageFolder() {
  std::string path;
  PyObject *name = PyUnicode_FromString("plait");
  PyObject *plait = name ? PyImport_GetModule(name) : nullptr;
  Py_XDECREF(name);
  if (plait) {
    PyObject *file = PyObject_GetAttrString(plait, "__file__");
    const char *text = file && PyUnicode_Check(file) ? PyUnicode_AsUTF8(file) : nullptr;
    if (text)
      path = text;
    Py_XDECREF(file);
    Py_DECREF(plait);
  }
  PyErr_Clear();
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

/// Adds the frames of an error site ("file:line:function" lines, innermost
/// first) to the traceback of the exception being raised, so that it
/// points at the user's line as CPython's would. Frames in the folder
/// `own` are left out.
void addTracebackFrames(const std::string &frames, const std::string &own) {
  for (size_t start = 0; start < frames.size();) {
    size_t end = frames.find('\n', start);
    std::string frame = frames.substr(start, end - start);
    start = end == std::string::npos ? frames.size() : end + 1;
    size_t functionColon = frame.rfind(':');
    size_t lineColon = functionColon == std::string::npos || functionColon == 0
                           ? std::string::npos
                           : frame.rfind(':', functionColon - 1);
    if (lineColon == std::string::npos)
      continue;
    std::string file = frame.substr(0, lineColon);
    if (!own.empty() && file.compare(0, own.size(), own) == 0)
      continue;
    int line = std::atoi(frame.substr(lineColon + 1, functionColon - lineColon - 1).c_str());
    std::string function = frame.substr(functionColon + 1);
    _PyTraceback_Add(function.empty() ? "<compiled>" : function.c_str(), file.c_str(), line);
  }
}

/// The value a kValueMessage `message` names (raise IndexError(i), a
/// KeyError's key).
PyObject *recordedValue(const std::string &message,
                        const std::array<int64_t, kMaxErrorArguments> &values) {
  size_t position = 1, at = 0;
  return recordedValues(message, position, values, at);
}

/// Sets the exception of error site `site`.
void setRunError(const frontend::ErrorSite &site) {
  if (site.exception == frontend::kCallbackException && restoreCallbackError())
    return;
  // A built-in exception by name, or a dotted module.Class
  // (numpy.linalg.LinAlgError), imported when raised.
  PyObject *cls = nullptr;
  size_t dot = site.exception.rfind('.');
  PyObject *module = dot == std::string::npos
                         ? PyImport_ImportModule("builtins")
                         : PyImport_ImportModule(site.exception.substr(0, dot).c_str());
  if (module) {
    cls = PyObject_GetAttrString(module, site.exception.substr(dot + 1).c_str());
    Py_DECREF(module);
  }
  if (!cls || !PyExceptionClass_Check(cls)) {
    Py_XDECREF(cls);
    PyErr_Clear();
    cls = Py_NewRef(PyExc_RuntimeError);
  }
  std::array<int64_t, kMaxErrorArguments> values = lastErrorArguments();
  bool bare = site.message == std::string(1, frontend::kNoArgumentsMessage);
  char marker = site.message.empty() ? 0 : site.message[0];
  if (bare || marker == frontend::kFormattedMessage || marker == frontend::kValueMessage) {
    // A raise of the program itself: its class called with the message, the
    // value itself (raise IndexError(i)), or nothing (raise ValueError).
    PyObject *text = bare                                ? nullptr
                     : marker == frontend::kValueMessage ? recordedValue(site.message, values)
                                                         : formatRaiseMessage(site.message, values);
    if (!bare && !text) {
      Py_DECREF(cls);
      return;
    }
    PyObject *exception = bare ? PyObject_CallNoArgs(cls) : PyObject_CallOneArg(cls, text);
    Py_XDECREF(text);
    if (exception) {
      PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exception)), exception);
      Py_DECREF(exception);
    }
    Py_DECREF(cls);
    return;
  }
  // Messages with {0}..{23} take the values the code recorded on this thread
  // (ints; {k!f}: a float's bits, shown as Python shows the float).
  std::string message = site.message;
  for (size_t k = 0; k < values.size(); ++k) {
    std::string placeholder = "{" + std::to_string(k) + "}";
    for (size_t at; (at = message.find(placeholder)) != std::string::npos;)
      message.replace(at, placeholder.size(), std::to_string(values[k]));
    std::string floatPlaceholder = "{" + std::to_string(k) + "!f}";
    if (message.find(floatPlaceholder) == std::string::npos)
      continue;
    double value;
    std::memcpy(&value, &values[k], sizeof value);
    PyObject *number = PyFloat_FromDouble(value);
    PyObject *shown = number ? PyObject_Repr(number) : nullptr;
    const char *text = shown ? PyUnicode_AsUTF8(shown) : nullptr;
    std::string formatted = text ? text : "?";
    Py_XDECREF(shown);
    Py_XDECREF(number);
    PyErr_Clear();
    for (size_t at; (at = message.find(floatPlaceholder)) != std::string::npos;)
      message.replace(at, floatPlaceholder.size(), formatted);
  }
  PyErr_SetString(cls, message.c_str());
  Py_DECREF(cls);
}

} // namespace

PyObject *raiseRunError(const jit::Executor &executor, int32_t status) {
  const frontend::ErrorSite &site = executor.info.errors.at(status - 1);
  std::string own = packageFolder(); // (before the error is set: it clears errors)
  setRunError(site);
  if (PyErr_Occurred())
    addTracebackFrames(site.frames, own);
  return nullptr;
}

} // namespace plait::dispatch::detail
