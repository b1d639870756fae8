//===- Arguments.cpp - binding, classifying and unboxing a call -----------===//
#include "Arguments.h"

#include "Dicts.h"
#include "Results.h"
#include "plait/Frontend/DType.h"
#include "plait/JIT/Compiler.h"
#include "plait/JIT/DispatchKey.h"
#include "plait/JIT/EntryABI.h"
#include "plait/Runtime/Dicts.h"
#include "plait/Runtime/Lists.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <functional>

namespace plait::dispatch::detail {

namespace key = jit::key;

namespace {

/// The key part of a Python scalar argument, 0 for anything else.
char classifyScalar(PyObject *o) {
  if (o == Py_None)
    return key::kNone;
  if (PyBool_Check(o))
    return key::kBool;
  if (PyLong_CheckExact(o))
    return key::kInt;
  if (PyFloat_CheckExact(o))
    return key::kFloat;
  if (PyComplex_CheckExact(o))
    return key::kComplex;
  if (PyObject_CheckBuffer(o))
    return 0; // arrays and NumPy scalars (np.float64 too): from their buffer
  if (PyLong_Check(o))
    return key::kInt;
  if (PyFloat_Check(o))
    return key::kFloat;
  if (PyComplex_Check(o))
    return key::kComplex;
  PyTypeObject *type = Py_TYPE(o);
  if (type->tp_as_number && type->tp_as_number->nb_index)
    return key::kInt;
  if (type->tp_as_number && type->tp_as_number->nb_float)
    return key::kFloat;
  return 0;
}

const char *kindName(char code) {
  switch (code) {
  case key::kBool:
    return "bool";
  case key::kInt:
    return "int";
  case key::kFloat:
    return "float";
  case key::kComplex:
    return "complex";
  case key::kArray:
    return "array";
  case key::kTuple:
    return "tuple";
  case key::kDType:
    return "dtype";
  case key::kFunction:
    return "function";
  case key::kString:
  case key::kText:
    return "str";
  case key::kNone:
    return "None";
  case key::kList:
    return "list";
  case key::kDict:
    return "dict";
  default:
    return "?";
  }
}

/// The dtype of an exported buffer's elements, or null when plait has no
/// array type for it.
const frontend::DTypeInfo *dtypeOfBuffer(const Py_buffer &view) {
  using frontend::DType;
  const char *format = view.format ? view.format : "B";
  if (*format == '@' || *format == '=' || *format == '<')
    ++format;
  auto sized = [&](DType dtype) -> const frontend::DTypeInfo * {
    const frontend::DTypeInfo &info = frontend::dtypeInfo(dtype);
    return view.itemsize == info.bytes ? &info : nullptr;
  };
  if (format[0] == 'Z' && (format[1] == 'd' || format[1] == 'f') && !format[2])
    return sized(format[1] == 'd' ? DType::Complex128 : DType::Complex64);
  if (!*format || format[1])
    return nullptr;
  switch (*format) {
  case 'd':
    return sized(DType::Float64);
  case 'f':
    return sized(DType::Float32);
  case 'e':
    return sized(DType::Float16);
  case 'q':
  case 'l':
  case 'i':
  case 'h':
  case 'b':
    // Signed integers by width: C's int and long differ between platforms.
    return view.itemsize == 8   ? sized(DType::Int64)
           : view.itemsize == 4 ? sized(DType::Int32)
           : view.itemsize == 2 ? sized(DType::Int16)
                                : sized(DType::Int8);
  case 'Q':
  case 'L':
  case 'I':
  case 'H':
  case 'B':
    return view.itemsize == 8   ? sized(DType::UInt64)
           : view.itemsize == 4 ? sized(DType::UInt32)
           : view.itemsize == 2 ? sized(DType::UInt16)
                                : sized(DType::UInt8);
  case '?':
    return &frontend::dtypeInfo(DType::Bool);
  default:
    return nullptr;
  }
}

/// The head of NumPy's array and dtype objects, as numpy/ndarraytypes.h
/// lays them out (PyArrayObject_fields, PyArray_Descr): stable across NumPy
/// 1.x and 2.x up to these fields.
struct NumPyArrayHead {
  PyObject base;
  char *data;
  int ndim;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides;
  PyObject *owner;
  PyObject *descr;
  int flags;
};
struct NumPyDescrHead {
  PyObject base;
  PyTypeObject *typeobj;
  char kind, type, byteorder, flags;
  int type_num;
};
constexpr int kNumPyWriteable = 0x0400; // NPY_ARRAY_WRITEABLE

/// numpy.ndarray, once NumPy is imported (else null: nothing to fast-path).
PyTypeObject *ndarrayType() {
  static std::atomic<PyObject *> cache{nullptr};
  return reinterpret_cast<PyTypeObject *>(cachedObject(cache, []() -> PyObject * {
    PyObject *name = PyUnicode_FromString("numpy");
    PyObject *module = name ? PyImport_GetModule(name) : nullptr; // only if imported
    Py_XDECREF(name);
    PyObject *found = module ? PyObject_GetAttrString(module, "ndarray") : nullptr;
    Py_XDECREF(module);
    if (!found)
      PyErr_Clear();
    return found;
  }));
}

/// The buffer format of a NumPy dtype plait supports, from its type number,
/// or null.
const char *numpyFormat(const NumPyDescrHead &descr, Py_ssize_t &itemsize) {
  if (descr.byteorder == '>')
    return nullptr; // big-endian data: the buffer path refuses it
  const frontend::DTypeInfo *info = frontend::dtypeOfNumPyTypeNum(descr.type_num);
  if (!info)
    return nullptr;
  itemsize = info->bytes;
  return info->format;
}

/// An attribute of the numpy module once it is imported (else null).
PyObject *numpyAttribute(std::atomic<PyObject *> &cache, const char *name) {
  return cachedObject(cache, [name]() -> PyObject * {
    PyObject *module = PyImport_ImportModule("numpy");
    PyObject *found = module ? PyObject_GetAttrString(module, name) : nullptr;
    Py_XDECREF(module);
    if (!found)
      PyErr_Clear();
    return found;
  });
}

/// The dispatch code of the dtype `object` names (np.float32, np.dtype('f4'),
/// float: what dtype= takes), or 0 when it names none plait supports.
char dtypeArgumentCode(PyObject *object) {
  using frontend::DType;
  auto code = [](DType dtype) { return frontend::dtypeInfo(dtype).dispatchCode; };
  if (object == reinterpret_cast<PyObject *>(&PyFloat_Type))
    return code(DType::Float64);
  if (object == reinterpret_cast<PyObject *>(&PyLong_Type))
    return code(DType::Int64);
  if (object == reinterpret_cast<PyObject *>(&PyBool_Type))
    return code(DType::Bool);
  if (object == reinterpret_cast<PyObject *>(&PyComplex_Type))
    return code(DType::Complex128);
  static std::atomic<PyObject *> dtypeCache{nullptr}, genericCache{nullptr};
  PyObject *dtypeClass = numpyAttribute(dtypeCache, "dtype");
  PyObject *generic = numpyAttribute(genericCache, "generic");
  if (!dtypeClass || !generic || !PyType_Check(dtypeClass) || !PyType_Check(generic))
    return 0;
  PyObject *descr = nullptr;
  if (PyObject_TypeCheck(object, reinterpret_cast<PyTypeObject *>(dtypeClass)))
    descr = Py_NewRef(object);
  else if (PyType_Check(object) && PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(object),
                                                    reinterpret_cast<PyTypeObject *>(generic)))
    descr = PyObject_CallOneArg(dtypeClass, object);
  if (!descr) {
    PyErr_Clear();
    return 0;
  }
  const auto &head = *reinterpret_cast<const NumPyDescrHead *>(descr);
  const frontend::DTypeInfo *info =
      head.byteorder == '>' ? nullptr : frontend::dtypeOfNumPyTypeNum(head.type_num);
  Py_DECREF(descr);
  return info ? info->dispatchCode : 0;
}

/// The key part of a tuple's element: Python's numbers (NumPy's scalars
/// count as the Python number of their kind) and tuples of them; false with
/// a TypeError naming `what`.
bool classifyElement(PyObject *element, std::string &part, const std::string &what) {
  if (PyTuple_Check(element)) {
    Py_ssize_t n = PyTuple_GET_SIZE(element);
    if (static_cast<size_t>(n) > key::kMaxTupleLength) {
      PyErr_Format(PyExc_TypeError, "%s: tuples of more than %zu elements are not supported",
                   what.c_str(), key::kMaxTupleLength);
      return false;
    }
    part += key::kTuple;
    part += static_cast<char>('0' + n);
    for (Py_ssize_t k = 0; k < n; ++k)
      if (!classifyElement(PyTuple_GET_ITEM(element, k), part, what))
        return false;
    return true;
  }
  char kind = 0;
  if (PyBool_Check(element))
    kind = key::kBool;
  else if (PyLong_Check(element))
    kind = key::kInt;
  else if (PyFloat_Check(element))
    kind = key::kFloat;
  else if (PyComplex_Check(element))
    kind = key::kComplex;
  else if (PyObject_CheckBuffer(element)) { // a NumPy scalar: by its dtype's kind
    Py_buffer view;
    if (PyObject_GetBuffer(element, &view, PyBUF_RECORDS_RO) == 0) {
      const frontend::DTypeInfo *dtype = view.ndim == 0 ? dtypeOfBuffer(view) : nullptr;
      PyBuffer_Release(&view);
      if (dtype)
        kind = dtype->dtype == frontend::DType::Bool    ? key::kBool
               : frontend::isComplexDType(dtype->dtype) ? key::kComplex
               : dtype->isFloat                         ? key::kFloat
                                                        : key::kInt;
    } else {
      PyErr_Clear();
    }
  }
  if (!kind) {
    PyErr_Format(PyExc_TypeError,
                 "%s: tuple elements must be int, float, bool, complex or tuples of them, not %s",
                 what.c_str(), Py_TYPE(element)->tp_name);
    return false;
  }
  part += kind;
  return true;
}

bool unboxScalar(PyObject *o, char kind, int64_t &slot, const DispatchState &state, size_t index);

/// The key part of a scalar list item or dict key or value (a number, a
/// bool or a NumPy scalar), or "" for another object.
std::string scalarItemPart(PyObject *item) {
  if (PyBool_Check(item))
    return std::string(1, key::kBool);
  if (PyLong_CheckExact(item))
    return std::string(1, key::kInt);
  if (PyFloat_CheckExact(item))
    return std::string(1, key::kFloat);
  if (PyComplex_CheckExact(item))
    return std::string(1, key::kComplex);
  if (PyObject_CheckBuffer(item)) { // a NumPy scalar: its own type
    Py_buffer view;
    if (PyObject_GetBuffer(item, &view, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      return "";
    }
    const frontend::DTypeInfo *dtype = view.ndim == 0 ? dtypeOfBuffer(view) : nullptr;
    PyBuffer_Release(&view);
    return dtype ? std::string{key::kNumPyScalar, dtype->dispatchCode} : "";
  }
  if (PyLong_Check(item))
    return std::string(1, key::kInt);
  if (PyFloat_Check(item))
    return std::string(1, key::kFloat);
  return "";
}

/// The key part of a list item: a scalar's, a tuple's of numbers (as a
/// tuple argument's), an array's (of any layout: a list's arrays may have
/// any strides); "" for another object (lists of lists are not passed in:
/// changes to the inner lists could not be written back).
std::string listItemPart(PyObject *item) {
  if (PyTuple_Check(item)) {
    // (Unlike a tuple argument's, its NumPy scalars keep their types: the
    // list is written back to the caller with them.)
    Py_ssize_t n = PyTuple_GET_SIZE(item);
    if (n == 0 || static_cast<size_t>(n) > key::kMaxTupleLength)
      return "";
    std::string part{key::kTuple, static_cast<char>('0' + n)};
    for (Py_ssize_t k = 0; k < n; ++k) {
      PyObject *element = PyTuple_GET_ITEM(item, k);
      std::string inner = PyTuple_Check(element)     ? listItemPart(element)
                          : PyUnicode_Check(element) ? std::string(1, key::kText)
                                                     : scalarItemPart(element);
      if (inner.empty())
        return "";
      part += inner;
    }
    return part;
  }
  if (PyObject_CheckBuffer(item)) {
    Py_buffer view;
    if (PyObject_GetBuffer(item, &view, PyBUF_RECORDS_RO) != 0) {
      PyErr_Clear();
      return "";
    }
    const frontend::DTypeInfo *dtype = dtypeOfBuffer(view);
    int ndim = view.ndim;
    PyBuffer_Release(&view);
    if (dtype && ndim >= 1 && ndim <= 8)
      return std::string{key::kArray, dtype->dispatchCode, static_cast<char>('0' + ndim),
                         key::kAnyLayout};
    // A NumPy scalar: its part from this view (scalarItemPart would take
    // another per item).
    return dtype && ndim == 0 ? std::string{key::kNumPyScalar, dtype->dispatchCode} : "";
  }
  if (PyUnicode_Check(item))
    return std::string(1, key::kText);
  return scalarItemPart(item);
}

bool classifyList(PyObject *items, std::string &part, const std::string &what, BoundCall &call,
                  PyObject *owner = nullptr);

/// How deep lists of lists passed in may nest.
constexpr int kMaxListDepth = 32;

/// The key part of the list whose items `items` are lists ('L' and their
/// part), copying each inner list (recorded in `call.innerLists`)
/// as the call finds it; "" when no list at any depth holds a typed item
/// (empty lists take their items' type from their siblings). `holding`:
/// the lists being classified (a list holding itself is refused). False
/// with a TypeError naming `what`.
bool classifyInnerLists(PyObject *items, std::string &part, const std::string &what,
                        BoundCall &call, std::vector<PyObject *> &holding) {
  part.clear();
  if (holding.size() > kMaxListDepth) {
    PyErr_Format(PyExc_TypeError, "%s: lists nested more than %d deep cannot be compiled for",
                 what.c_str(), kMaxListDepth);
    return false;
  }
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE(items); ++k) {
    PyObject *inner = PyList_GET_ITEM(items, k);
    if (!PyList_Check(inner)) {
      PyErr_Format(PyExc_TypeError,
                   "%s: a list mixing list and %s items cannot be compiled for (compiled lists "
                   "hold items of one type)",
                   what.c_str(), Py_TYPE(inner)->tp_name);
      return false;
    }
    if (std::find(holding.begin(), holding.end(), inner) != holding.end()) {
      PyErr_Format(PyExc_TypeError, "%s: a list that holds itself cannot be compiled for",
                   what.c_str());
      return false;
    }
    PyObject *copy = nullptr;
    for (auto &[list, items] : call.innerLists)
      if (list == inner)
        copy = items;
    if (!copy) {
      copy = PyList_GetSlice(inner, 0, PY_SSIZE_T_MAX);
      if (!copy)
        return false;
      call.innerLists.emplace_back(call.pins.keep(Py_NewRef(inner)), call.pins.keep(copy));
    }
    if (PyList_GET_SIZE(copy) == 0)
      continue; // (an empty list takes its items' type from the others)
    std::string innerPart;
    if (PyList_Check(PyList_GET_ITEM(copy, 0))) {
      holding.push_back(inner);
      bool classified = classifyInnerLists(copy, innerPart, what, call, holding);
      holding.pop_back();
      if (!classified)
        return false;
      if (innerPart.empty())
        continue; // (lists of empty lists: as an empty list)
    } else if (!classifyList(copy, innerPart, what, call)) {
      return false;
    }
    if (!part.empty() && innerPart != part) {
      PyErr_Format(PyExc_TypeError,
                   "%s: a list of lists whose lists hold items of different types cannot be "
                   "compiled for (compiled lists hold items of one type)",
                   what.c_str());
      return false;
    }
    part = innerPart;
  }
  if (!part.empty())
    part = std::string(1, key::kList) + part;
  return true;
}

/// The key part of a list argument: 'L' and its items' part. Compiled
/// lists hold items of one type; false with a TypeError naming `what` for
/// an empty list (no type to compile for) and for mixed items.
bool classifyList(PyObject *items, std::string &part, const std::string &what, BoundCall &call,
                  PyObject *owner) {
  Py_ssize_t n = PyList_GET_SIZE(items);
  if (n > 0 && PyList_Check(PyList_GET_ITEM(items, 0))) {
    std::vector<PyObject *> holding;
    if (owner)
      holding.push_back(owner);
    std::string inner;
    if (!classifyInnerLists(items, inner, what, call, holding))
      return false;
    if (inner.empty()) {
      PyErr_Format(PyExc_TypeError,
                   "%s: a list of empty lists has no item type to compile for (put an item into "
                   "one of them, or make them in compiled code)",
                   what.c_str());
      return false;
    }
    part = inner; // (the part of the list these items are in)
    return true;
  }
  if (n == 0) {
    PyErr_Format(PyExc_TypeError,
                 "%s: an empty list has no item type to compile for (pass it with items, or "
                 "make it in compiled code)",
                 what.c_str());
    return false;
  }
  std::string item = listItemPart(PyList_GET_ITEM(items, 0));
  for (Py_ssize_t k = 0; k < n; ++k) {
    PyObject *object = PyList_GET_ITEM(items, k);
    std::string other = k == 0 ? item : listItemPart(object);
    if (other.empty()) {
      PyErr_Format(PyExc_TypeError,
                   "%s: list items must be int, float, bool, complex, str, NumPy scalars, tuples "
                   "of these, arrays or lists, not %s",
                   what.c_str(), Py_TYPE(object)->tp_name);
      return false;
    }
    if (other != item) {
      PyErr_Format(PyExc_TypeError,
                   "%s: a list mixing %s and %s items cannot be compiled for (compiled lists "
                   "hold items of one type)",
                   what.c_str(), Py_TYPE(PyList_GET_ITEM(items, 0))->tp_name,
                   Py_TYPE(object)->tp_name);
      return false;
    }
  }
  part = std::string(1, key::kList) + item;
  return true;
}

/// The unboxing kind of a Python bool, int or float of type `type`.
char scalarKindOf(const frontend::Type &type) {
  using Kind = frontend::Type::Kind;
  return type.kind == Kind::Bool ? key::kBool : type.kind == Kind::Int ? key::kInt : key::kFloat;
}

/// Stores `item` (of the list item type `type`) at `at`; false with an
/// exception.
bool unboxListItem(PyObject *item, const frontend::Type &type, char *at, const DispatchState &state,
                   size_t index) {
  using Kind = frontend::Type::Kind;
  if (type.kind == Kind::Complex) {
    Py_complex z = PyComplex_AsCComplex(item);
    if (z.real == -1.0 && PyErr_Occurred())
      return false;
    std::memcpy(at, &z, 16);
    return true;
  }
  if (type.kind == Kind::NumPy) {
    Py_buffer view;
    if (PyObject_GetBuffer(item, &view, PyBUF_RECORDS_RO) != 0)
      return false;
    std::memcpy(at, view.buf, static_cast<size_t>(frontend::dtypeInfo(type.dtype).bytes));
    PyBuffer_Release(&view);
    return true;
  }
  char kind = scalarKindOf(type);
  int64_t value;
  if (!unboxScalar(item, kind, value, state, index))
    return false;
  if (kind == key::kBool)
    *at = static_cast<char>(value);
  else
    std::memcpy(at, &value, 8);
  return true;
}

/// A complex number's parts, one slot each.
bool unboxComplex(PyObject *o, const std::function<void(int64_t)> &take) {
  Py_complex z = PyComplex_AsCComplex(o);
  if (z.real == -1.0 && PyErr_Occurred())
    return false;
  int64_t parts[2];
  std::memcpy(parts, &z, 16);
  take(parts[0]);
  take(parts[1]);
  return true;
}

/// Unboxes a tuple argument's elements as `type` lays them out.
bool unboxTuple(PyObject *tuple, const frontend::Type &type,
                const std::function<void(int64_t)> &take, const DispatchState &state,
                size_t index) {
  for (size_t k = 0; k < type.elements.size(); ++k) {
    PyObject *element = PyTuple_GET_ITEM(tuple, static_cast<Py_ssize_t>(k));
    const frontend::Type &elementType = type.elements[k];
    if (elementType.kind == frontend::Type::Kind::Tuple) {
      if (!unboxTuple(element, elementType, take, state, index))
        return false;
      continue;
    }
    if (elementType.kind == frontend::Type::Kind::Complex) {
      if (!unboxComplex(element, take))
        return false;
      continue;
    }
    int64_t value;
    if (!unboxScalar(element, scalarKindOf(elementType), value, state, index))
      return false;
    take(value);
  }
  return true;
}

/// numpy.from_dlpack(object): a new reference, or null with an exception.
PyObject *fromDlpack(PyObject *object) {
  PyObject *numpy = PyImport_ImportModule("numpy");
  if (!numpy)
    return nullptr;
  PyObject *converted = PyObject_CallMethod(numpy, "from_dlpack", "O", object);
  Py_DECREF(numpy);
  return converted;
}

bool unboxScalar(PyObject *o, char kind, int64_t &slot, const DispatchState &state,
                 size_t index) {
  auto fail = [&](PyObject *cls, const char *what) {
    PyErr_Format(cls, "%s() argument %zu ('%s') %s", state.name.c_str(), index + 1,
                 state.params[index].c_str(), what);
    return false;
  };
  if (kind == key::kFloat || kind == key::kFloat32) {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
      return false;
    if (kind == key::kFloat32)
      v = static_cast<float>(v);
    std::memcpy(&slot, &v, 8);
    return true;
  }
  if (kind == key::kBool) {
    int truth = PyObject_IsTrue(o);
    if (truth < 0)
      return false;
    slot = truth;
    return true;
  }
  PyObject *index_ = PyNumber_Index(o);
  if (!index_)
    return false;
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index_, &overflow);
  Py_DECREF(index_);
  if (overflow)
    return fail(PyExc_OverflowError, "does not fit in int64");
  if (kind == key::kInt32 && (v < INT32_MIN || v > INT32_MAX))
    return fail(PyExc_OverflowError, "does not fit in int32");
  slot = v;
  return true;
}

} // namespace

PinnedBuffers::~PinnedBuffers() {
  for (size_t i = 0; i < count; ++i) {
    if (i < 64 && (fromArray & (uint64_t(1) << i)))
      Py_DECREF(slot(i)->obj); // filled from the array itself
    else
      PyBuffer_Release(slot(i));
  }
  for (PyObject *object : kept)
    Py_DECREF(object);
}

Py_buffer *PinnedBuffers::acquire(PyObject *object) {
  if (count >= kInline)
    extra.push_back(std::make_unique<Slot>()); // beyond a few arrays
  Py_buffer *view = slot(count);
  PyTypeObject *ndarray = count < 64 ? ndarrayType() : nullptr;
  if (ndarray && Py_TYPE(object) == ndarray) {
    // A NumPy array: its fields are the view, without the buffer protocol's
    // per-call format and shape bookkeeping. The reference held until the
    // call ends pins it as an export would; shape and strides are copied
    // (another thread may reshape the array).
    const auto &array = *reinterpret_cast<const NumPyArrayHead *>(object);
    Py_ssize_t itemsize = 0;
    const char *format = numpyFormat(*reinterpret_cast<const NumPyDescrHead *>(array.descr), itemsize);
    if (format && array.ndim >= 1 && array.ndim <= kMaxDims) {
      Slot &copy = slotStorage(count);
      Py_ssize_t length = itemsize;
      for (int d = 0; d < array.ndim; ++d) {
        copy.shape[d] = array.dimensions[d];
        copy.strides[d] = array.strides[d];
        length *= copy.shape[d];
      }
      *view = Py_buffer{};
      view->buf = array.data;
      view->obj = Py_NewRef(object);
      view->len = length;
      view->itemsize = itemsize;
      view->readonly = !(array.flags & kNumPyWriteable);
      view->ndim = array.ndim;
      view->format = const_cast<char *>(format);
      view->shape = copy.shape;
      view->strides = copy.strides;
      fromArray |= uint64_t(1) << count;
      ++count;
      return view;
    }
  }
  if (PyObject_GetBuffer(object, view, PyBUF_RECORDS) != 0) {
    PyErr_Clear(); // read-only: writes are refused later if the code writes
    if (PyObject_GetBuffer(object, view, PyBUF_RECORDS_RO) != 0) {
      if (count >= kInline)
        extra.pop_back();
      return nullptr;
    }
  }
  ++count;
  return view;
}

/// Appends a tuple's, list's or dict's key part; false with a TypeError
/// naming `what` when the key has no room for it.
static bool appendPart(BoundCall &call, const std::string &part, const std::string &what) {
  if (call.keyLength + part.size() > sizeof(call.key)) {
    PyErr_Format(PyExc_TypeError, "%s: the call's arguments are too large to compile for",
                 what.c_str());
    return false;
  }
  std::memcpy(call.key + call.keyLength, part.data(), part.size());
  call.keyLength += part.size();
  return true;
}

/// Classifies one bound argument into `call.key`.
static bool classify(const DispatchState &state, size_t i, BoundCall &call) {
  PyObject *&argument = call.arguments[i];
  // Room for the longest fixed part (strs and tuples check their own).
  if (call.keyLength + 9 > sizeof(call.key)) {
    PyErr_Format(PyExc_TypeError,
                 "%s(): the call's arguments are too many or too large to compile for",
                 state.name.c_str());
    return false;
  }
  if (char part = classifyScalar(argument)) {
    call.key[call.keyLength++] = part;
    return true;
  }
  if (!PyObject_CheckBuffer(argument) && PyObject_HasAttrString(argument, "__dlpack__")) {
    // Another library's tensor: numpy.from_dlpack shares its memory
    // (zero-copy); the NumPy wrapper is kept alive for the call.
    PyObject *converted = fromDlpack(argument);
    if (!converted)
      return false;
    argument = call.pins.keep(converted);
  }
  auto describe = [&] {
    return state.name + "() argument " + std::to_string(i + 1) + " ('" + state.params[i] + "')";
  };
  if (PyTuple_Check(argument)) {
    std::string part;
    return classifyElement(argument, part, describe()) && appendPart(call, part, describe());
  }
  if (PyList_Check(argument)) {
    // A copy of the items (the caller's list stays the one changes are
    // written back to).
    PyObject *items = PyList_GetSlice(argument, 0, PY_SSIZE_T_MAX);
    if (!items)
      return false;
    call.listItems[i] = call.pins.keep(items);
    std::string part;
    return classifyList(items, part, describe(), call, argument) &&
           appendPart(call, part, describe());
  }
  if (PyDict_Check(argument)) {
    PyObject *items = PyDict_Copy(argument); // (changes are written back to the argument)
    if (!items)
      return false;
    call.dictItems[i] = call.pins.keep(items);
    std::string part;
    return classifyDict(items, part, describe(), scalarItemPart, listItemPart) &&
           appendPart(call, part, describe());
  }
  if (PyUnicode_Check(argument)) {
    // A str: a constant of the code compiled for it (mode="wrap").
    Py_ssize_t size = 0;
    const char *text = PyUnicode_AsUTF8AndSize(argument, &size);
    if (!text)
      return false;
    size_t length = static_cast<size_t>(size);
    if (length > key::kMaxStringBytes || call.keyLength + 3 + length > sizeof(call.key))
      return appendPart(call, std::string(1, key::kText), describe()); // (a value: its box)
    std::string part = key::stringPart(std::string_view(text, length));
    std::memcpy(call.key + call.keyLength, part.data(), part.size());
    call.keyLength += part.size();
    return true;
  }
  if (isDispatcher(argument)) {
    // A jitted function: the code is compiled to call it (by its id).
    PyObject *id = PyObject_GetAttrString(argument, "_plait_id");
    long long value = id ? PyLong_AsLongLong(id) : -1;
    Py_XDECREF(id);
    if (value < 0 || value > 0xffffffffLL || call.keyLength + 9 > sizeof(call.key)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "%s: too many functions or no id to compile for",
                   describe().c_str());
      return false;
    }
    char part[10];
    std::snprintf(part, sizeof part, "%c%08llx", key::kFunction, value);
    std::memcpy(call.key + call.keyLength, part, 9);
    call.keyLength += 9;
    return true;
  }
  if (PyType_Check(argument) || !PyObject_CheckBuffer(argument)) {
    if (char code = dtypeArgumentCode(argument)) {
      call.key[call.keyLength++] = key::kDType;
      call.key[call.keyLength++] = code;
      return true;
    }
  }
  if (!PyObject_CheckBuffer(argument)) {
    PyErr_Format(PyExc_TypeError,
                 "%s() argument %zu ('%s') must be int, float, bool, complex, None, a str, a "
                 "tuple, a list, a dict, a dtype, "
                 "a jitted function or an array, not %s",
                 state.name.c_str(), i + 1, state.params[i].c_str(), Py_TYPE(argument)->tp_name);
    return false;
  }
  Py_buffer *view = call.pins.acquire(argument);
  if (!view)
    return false;
  const frontend::DTypeInfo *dtype = dtypeOfBuffer(*view);
  if (dtype && view->ndim == 0) {
    // A 0-d buffer is a NumPy scalar (np.float64(3), np.int8(2), np.bool_):
    // its own type, computed with NumPy's rules. Explicit signatures spell
    // Python's types: there it counts as one of them.
    if (!state.lazy) {
      call.key[call.keyLength++] = dtype->isFloat                           ? key::kFloat
                                   : dtype->dtype == frontend::DType::Bool  ? key::kBool
                                   : frontend::isComplexDType(dtype->dtype) ? key::kComplex
                                                                            : key::kInt;
      return true;
    }
    call.views[i] = view;
    call.key[call.keyLength++] = key::kNumPyScalar;
    call.key[call.keyLength++] = dtype->dispatchCode;
    return true;
  }
  if (!dtype || view->ndim < 1 || view->ndim > 8) {
    PyErr_Format(PyExc_TypeError,
                 "%s() argument %zu ('%s'): arrays of format '%s' with %d "
                 "dimensions are not supported (dtypes float64, float32, int64, "
                 "int32, int16, int8, uint8, uint16, uint32, uint64, float16, complex128, "
                 "complex64, bool; 1 to 8 dimensions)",
                 state.name.c_str(), i + 1, state.params[i].c_str(),
                 view->format ? view->format : "B", view->ndim);
    return false;
  }
  call.views[i] = view;
  call.key[call.keyLength++] = key::kArray;
  call.key[call.keyLength++] = dtype->dispatchCode;
  call.key[call.keyLength++] = static_cast<char>('0' + view->ndim);
  call.key[call.keyLength++] = PyBuffer_IsContiguous(view, 'C') ? key::kContiguous
                               : view->ndim > 1 && PyBuffer_IsContiguous(view, 'F')
                                   ? key::kFortran
                                   : key::kAnyLayout;
  return true;
}

/// CPython's TypeError for more positional arguments than parameters.
static void tooManyPositional(const DispatchState &state, size_t named, size_t given) {
  size_t required = named - state.defaults.size();
  std::string takes = required == named
                          ? std::to_string(named)
                          : "from " + std::to_string(required) + " to " + std::to_string(named);
  PyErr_Format(PyExc_TypeError, "%s() takes %s positional argument%s but %zu %s given",
               state.name.c_str(), takes.c_str(), named == 1 ? "" : "s", given,
               given == 1 ? "was" : "were");
}

/// CPython's TypeError naming every missing argument: 'a', 'a' and 'b',
/// 'a', 'b', and 'c'.
static void missingPositional(const DispatchState &state, const BoundCall &call, size_t required) {
  std::vector<std::string> missing;
  for (size_t i = 0; i < required; ++i)
    if (!call.arguments[i])
      missing.push_back("'" + state.params[i] + "'");
  std::string names;
  for (size_t i = 0; i < missing.size(); ++i) {
    if (i > 0)
      names += missing.size() == 2 ? " and " : i + 1 == missing.size() ? ", and " : ", ";
    names += missing[i];
  }
  PyErr_Format(PyExc_TypeError, "%s() missing %zu required positional argument%s: %s",
               state.name.c_str(), missing.size(), missing.size() == 1 ? "" : "s", names.c_str());
}

bool bindArguments(const DispatchState &state, PyObject *const *args, size_t nargsf,
                   PyObject *kwnames, BoundCall &call) {
  size_t positional = PyVectorcall_NARGS(nargsf);
  // Named parameters; a *args parameter (the last) takes the rest.
  size_t n = state.params.size() - (state.varargs ? 1 : 0);
  if (positional > n && !state.varargs) {
    tooManyPositional(state, n, positional);
    return false;
  }
  call.count = state.params.size();
  for (size_t i = 0; i < n; ++i)
    call.arguments[i] = i < positional ? args[i] : nullptr;
  if (state.varargs) {
    size_t extra = positional > n ? positional - n : 0;
    call.varargs = PyTuple_New(static_cast<Py_ssize_t>(extra));
    if (!call.varargs)
      return false;
    for (size_t k = 0; k < extra; ++k)
      PyTuple_SET_ITEM(call.varargs, static_cast<Py_ssize_t>(k), Py_NewRef(args[n + k]));
    call.arguments[n] = call.varargs;
  }
  if (kwnames) {
    Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; ++k) {
      const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
      if (!name)
        return false;
      size_t i = 0;
      while (i < n && state.params[i] != name)
        ++i;
      if (i == n) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'",
                     state.name.c_str(), name);
        return false;
      }
      if (call.arguments[i]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
                     state.name.c_str(), name);
        return false;
      }
      call.arguments[i] = args[positional + k];
    }
  }
  size_t firstDefault = n - state.defaults.size();
  for (size_t i = 0; i < firstDefault; ++i)
    if (!call.arguments[i]) {
      missingPositional(state, call, firstDefault);
      return false;
    }
  for (size_t i = firstDefault; i < n; ++i)
    if (!call.arguments[i])
      call.arguments[i] = state.defaults[i - firstDefault];
  for (size_t i = 0; i < call.count; ++i)
    if (!classify(state, i, call))
      return false;
  return true;
}

std::string describeArguments(const BoundCall &call) {
  std::string described;
  for (size_t i = 0, k = 0; i < call.count; ++i) {
    described += std::string(i ? ", " : "") + kindName(call.key[k]);
    k += key::partLength(std::string_view(call.key, call.keyLength), k);
  }
  return described;
}

PackedArguments::PackedArguments(const Entry &entry)
    : storage(entry.executor->packedSlots), pointers(entry.executor->packedSlots) {}

bool PackedArguments::unbox(const DispatchState &state, const Entry &entry,
                            const BoundCall &call) {
  const jit::Executor &executor = *entry.executor;
  auto take = [&](int64_t value) {
    storage[used] = value;
    pointers[used] = &storage[used];
    ++used;
  };
  // A box (a list's, a str's, a dict's) as a 1-D memref of its `words`.
  auto takeBox = [&](int64_t *box, int64_t words) {
    for (int64_t word : {reinterpret_cast<int64_t>(box), reinterpret_cast<int64_t>(box), int64_t(0),
                         words, int64_t(1)})
      take(word);
  };
  for (size_t i = 0; i < call.count; ++i) {
    char kind = entry.kinds[i];
    PyObject *argument = call.arguments[i];
    if (kind == key::kNumPyScalar) {
      // A NumPy scalar's bytes: compiled code reads the low bytes (a
      // complex128 fills two slots, one per part).
      const Py_buffer &view = *call.views[i];
      int64_t parts[2] = {0, 0};
      if (executor.info.argumentTypes[i].dtype == frontend::DType::Complex64) {
        std::memcpy(&parts[0], view.buf, 4); // a float per part
        std::memcpy(&parts[1], static_cast<const char *>(view.buf) + 4, 4);
      } else {
        std::memcpy(parts, view.buf, static_cast<size_t>(view.itemsize));
      }
      for (size_t p = 0; p < jit::abi::argumentSlots(executor.info.argumentTypes[i]); ++p)
        take(parts[p]);
      continue;
    }
    if (kind == key::kDType || kind == key::kFunction || kind == key::kString || kind == key::kNone)
      continue; // known when compiling
    if (kind == key::kDict) {
      int64_t *box = nullptr;
      for (size_t j = 0; j < i && !box; ++j) // f(d, d): one dict under two names
        if (dicts[j] && call.arguments[j] == argument)
          box = dicts[j];
      if (!box)
        box = unboxDict(call.dictItems[i], executor.info.argumentTypes[i]);
      if (!box)
        return false;
      dicts[i] = box;
      takeBox(box, kDictWords);
      continue;
    }
    if (kind == key::kText) {
      // A str longer than a key holds: a box of its code points.
      int64_t *box = strBoxOf(argument);
      if (!box)
        return false;
      takeBox(box, kListWords);
      continue;
    }
    if (kind == key::kList) {
      // A box of its own (in the call's arena), passed as a 1-D memref.
      const frontend::Type &type = executor.info.argumentTypes[i];
      int64_t *box = nullptr;
      for (size_t j = 0; j < i && !box; ++j) // f(l, l): one list under two names
        if (lists[j] && call.arguments[j] == argument)
          box = lists[j];
      if (!box)
        box = unboxList(call.listItems[i], type, state, i, call);
      if (!box)
        return false;
      lists[i] = box;
      takeBox(box, kListWords);
      continue;
    }
    if (kind == key::kTuple) {
      if (!unboxTuple(argument, executor.info.argumentTypes[i], take, state, i))
        return false;
      continue;
    }
    if (kind == key::kComplex) {
      if (!unboxComplex(argument, take))
        return false;
      continue;
    }
    if (kind != key::kArray) {
      int64_t value;
      if (!unboxScalar(argument, kind, value, state, i))
        return false;
      take(value);
      continue;
    }
    const Py_buffer &view = *call.views[i];
    if (view.readonly && executor.info.writesArgument[i]) {
      PyErr_Format(PyExc_ValueError, "%s() argument %zu ('%s') is read-only, but %s() writes to it",
                   state.name.c_str(), i + 1, state.params[i].c_str(), state.name.c_str());
      return false;
    }
    // A memref descriptor: allocated, aligned, offset, sizes, strides. The
    // allocated pointer is null: compiled code does not own NumPy's memory
    // (reference counts skip it).
    take(0);
    take(reinterpret_cast<int64_t>(view.buf));
    take(0);
    for (int d = 0; d < view.ndim; ++d)
      take(view.shape[d]);
    for (int d = 0; d < view.ndim; ++d) {
      if (view.strides[d] % view.itemsize != 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s() argument %zu ('%s') has strides that are not a multiple of its "
                     "item size",
                     state.name.c_str(), i + 1, state.params[i].c_str());
        return false;
      }
      take(view.strides[d] / view.itemsize);
    }
  }
  return true;
}

namespace {
/// A box's memref descriptor (allocated, aligned, offset, size, stride) in
/// an item's words, advancing `at` past it.
void storeBoxDescriptor(int64_t *box, int64_t *&at) {
  for (int64_t word : {reinterpret_cast<int64_t>(box), reinterpret_cast<int64_t>(box), int64_t(0),
                       kListWords, int64_t(1)})
    *at++ = word;
}
} // namespace

int64_t *PackedArguments::unboxList(PyObject *items, const frontend::Type &type,
                                    const DispatchState &state, size_t index,
                                    const BoundCall &call) {
  Py_ssize_t n = PyList_GET_SIZE(items);
  frontend::ListItemLayout layout = frontend::listItemLayout(type.itemType());
  int64_t *box = newList(n, layout.bytes, layout.owned);
  if (!box) {
    PyErr_NoMemory();
    return nullptr;
  }
  char *at = reinterpret_cast<char *>(box[kListItems]);
  for (Py_ssize_t k = 0; k < n; ++k) {
    auto *words = reinterpret_cast<int64_t *>(at + k * layout.bytes);
    if (layout.words ? !unboxItemWords(PyList_GET_ITEM(items, k), type.itemType(), words, state,
                                       index, call)
                     : !unboxListItem(PyList_GET_ITEM(items, k), type.itemType(),
                                      at + k * layout.bytes, state, index))
      return nullptr; // (the arena frees the box)
  }
  return box;
}

bool PackedArguments::unboxItemWords(PyObject *object, const frontend::Type &item, int64_t *&at,
                                     const DispatchState &state, size_t index,
                                     const BoundCall &call) {
  using Kind = frontend::Type::Kind;
  if (item.kind == Kind::Tuple) {
    for (size_t k = 0; k < item.elements.size(); ++k)
      if (!unboxItemWords(PyTuple_GET_ITEM(object, static_cast<Py_ssize_t>(k)), item.elements[k],
                          at, state, index, call))
        return false;
    return true;
  }
  if (item.kind == Kind::List) {
    // A list of the list argument: one box per list object (held twice, it
    // is one list), made from the copy classification took.
    int64_t *box = nullptr;
    for (const InnerList &inner : innerBoxes)
      if (inner.list == object) {
        box = inner.box;
        plait_rt_array_retain(reinterpret_cast<int64_t>(box)); // (this item's reference)
      }
    PyObject *items = nullptr;
    for (auto &[list, copy] : call.innerLists)
      if (list == object)
        items = copy;
    if (!box && !items) {
      PyErr_SetString(PyExc_RuntimeError, "internal: a list argument's list was not classified");
      return false;
    }
    if (!box) {
      box = unboxList(items, item, state, index, call);
      if (!box)
        return false;
      // A reference of its own until the call's arena ends: compiled code
      // may drop the list, whose changes still reach the caller's object.
      plait_rt_array_retain(reinterpret_cast<int64_t>(box));
      innerBoxes.push_back({box, object, item});
    }
    storeBoxDescriptor(box, at);
    return true;
  }
  if (item.kind == Kind::Str) {
    int64_t *box = strBoxOf(object); // (the list's reference)
    if (!box)
      return false;
    storeBoxDescriptor(box, at);
    return true;
  }
  if (item.kind == Kind::NumPy) {
    // Its bytes in the low bytes of a word (of two for a complex one: a
    // part each), as compiled code stores a NumPy leaf.
    Py_buffer view;
    if (PyObject_GetBuffer(object, &view, PyBUF_RECORDS_RO) != 0)
      return false;
    bool complex = frontend::isComplexDType(item.dtype);
    size_t part = static_cast<size_t>(view.itemsize) / (complex ? 2 : 1);
    for (size_t w = 0; w < (complex ? 2u : 1u); ++w) {
      *at = 0;
      std::memcpy(at++, static_cast<const char *>(view.buf) + w * part, part);
    }
    PyBuffer_Release(&view);
    return true;
  }
  if (item.kind == Kind::Complex)
    return unboxComplex(object, [&](int64_t word) { *at++ = word; });
  if (item.kind != Kind::Array) {
    int64_t value;
    if (!unboxScalar(object, scalarKindOf(item), value, state, index))
      return false;
    *at++ = value;
    return true;
  }
  Py_buffer *view = itemPins.acquire(object);
  if (!view)
    return false;
  itemArrays.emplace_back(view, object);
  if (view->readonly) {
    // (Which items compiled code writes to is not known.)
    PyErr_Format(PyExc_ValueError,
                 "%s() argument %zu ('%s') is a list holding a read-only array (pass a "
                 "writeable copy)",
                 state.name.c_str(), index + 1, state.params[index].c_str());
    return false;
  }
  // Its memref descriptor, owning nothing (as an array argument's).
  *at++ = 0;
  *at++ = reinterpret_cast<int64_t>(view->buf);
  *at++ = 0;
  for (int d = 0; d < view->ndim; ++d)
    *at++ = view->shape[d];
  for (int d = 0; d < view->ndim; ++d) {
    if (view->strides[d] % view->itemsize != 0) {
      PyErr_Format(PyExc_ValueError,
                   "%s() argument %zu ('%s') holds an array whose strides are not a multiple "
                   "of its item size",
                   state.name.c_str(), index + 1, state.params[index].c_str());
      return false;
    }
    *at++ = view->strides[d] / view->itemsize;
  }
  return true;
}

bool PackedArguments::reflectLists(const Entry &entry, const BoundCall &call,
                                   ResultOwners &owners) {
  // The lists of list arguments are those lists again (written back when
  // compiled code changed them), in results too.
  for (const InnerList &inner : innerBoxes)
    owners.madeBoxes.emplace_back(inner.box, inner.list);
  for (const InnerList &inner : innerBoxes) {
    if (!inner.box[kListChanged])
      continue;
    PyObject *items = pythonList(inner.type, inner.box, &owners);
    int failed = items ? PyList_SetSlice(inner.list, 0, PY_SSIZE_T_MAX, items) : -1;
    Py_XDECREF(items);
    if (failed)
      return false;
  }
  for (size_t i = 0; i < call.count; ++i) {
    if (dicts[i] && dicts[i][kDictChanged] &&
        !reflectDict(call.arguments[i], entry.executor->info.argumentTypes[i], dicts[i]))
      return false;
    if (!lists[i] || !lists[i][kListChanged])
      continue;
    PyObject *items = pythonList(entry.executor->info.argumentTypes[i], lists[i], &owners);
    if (!items)
      return false;
    int failed = PyList_SetSlice(call.arguments[i], 0, PY_SSIZE_T_MAX, items);
    Py_DECREF(items);
    if (failed)
      return false;
  }
  return true;
}

void PackedArguments::finish(int64_t *descriptorFields, int32_t *status) {
  for (size_t k = 0; k < jit::abi::ResultsDescriptor::kSlots; ++k)
    pointers[used++] = &descriptorFields[k];
  pointers[used++] = status;
}

} // namespace plait::dispatch::detail
