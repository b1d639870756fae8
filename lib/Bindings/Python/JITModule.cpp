//===- JITModule.cpp - plait.jit glue: compile binding and dispatcher -----===//
//
// The dispatcher is a small CPython type with vectorcall: classify each
// argument (bool/int/float), find the executor in an immutable table snapshot
// (one atomic load, no lock), unbox into 64-bit slots, call native code
// (detached when it may run long), box the result. A miss calls the Python
// subclass's _miss(), which snapshots, compiles (detached) and installs.
//
//===----------------------------------------------------------------------===//
#include "Bindings.h"

#include "plait/JIT/Compiler.h"
#include "plait/JIT/DispatchKey.h"
#include "plait/JIT/DispatchTable.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <nanobind/ndarray.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <structmember.h> // T_PYSSIZET, READONLY for the vectorcall offset

#include <algorithm>
#include <atomic>
#include <deque>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_map>

using namespace plait;
using namespace plait::python;
using frontend::Type;

namespace {

std::atomic<PyObject *> typingErrorClass{nullptr};
std::atomic<PyObject *> unsupportedErrorClass{nullptr};

/// How a Python argument is classified for dispatch.
char classify(PyObject *o) {
  if (PyBool_Check(o))
    return 'b';
  if (PyLong_CheckExact(o))
    return 'i';
  if (PyFloat_CheckExact(o))
    return 'f';
  if (PyComplex_CheckExact(o))
    return 'c';
  if (PyObject_CheckBuffer(o))
    return 0; // arrays and NumPy scalars (np.float64 too): from their buffer
  if (PyLong_Check(o))
    return 'i';
  if (PyFloat_Check(o))
    return 'f';
  if (PyComplex_Check(o))
    return 'c';
  PyTypeObject *type = Py_TYPE(o);
  if (type->tp_as_number && type->tp_as_number->nb_index)
    return 'i';
  if (type->tp_as_number && type->tp_as_number->nb_float)
    return 'f';
  return 0;
}

const char *kindName(char code) {
  switch (code) {
  case 'b':
    return "bool";
  case 'i':
    return "int";
  case 'f':
    return "float";
  case 'c':
    return "complex";
  default:
    return "?";
  }
}

/// One compiled signature in a dispatch table.
struct Entry {
  /// The dispatch key it serves: per argument i, f, b, or
  /// A<dtype><ndim><layout> (layout C: C-contiguous, F: Fortran-contiguous
  /// and not C, A: any), or N<dtype> for a NumPy scalar.
  std::string codes;
  /// Unboxing per argument: i, f, b, c (complex: two slots), I (int32),
  /// F (float32), A (array), N (NumPy scalar: its bytes).
  std::string kinds;
  char resultCast = 0; // 0, 'f' (to float), 'F' (float32), 'I' (int32)
  std::shared_ptr<jit::Executor> executor;
};

/// What the compiled code of a function assumed about Python state: the code
/// objects of every function it compiled and the globals it read. Immutable
/// (but for the cached dict versions); replaced on each compile and retired
/// through the epoch domain. Holds strong references, dropped with the GIL.
struct Guard {
  struct Read {
    PyObject *key;
    PyObject *value;
  };
  struct Dict {
    PyObject *dict;
    std::vector<Read> reads;
    /// The dict's version when last found unchanged (3.11's guard).
    std::atomic<uint64_t> version{0};
  };
  std::vector<std::pair<PyObject *, PyObject *>> codes; // (function, __code__)
  std::vector<std::unique_ptr<Dict>> dicts;

  ~Guard() {
    if (!Py_IsInitialized())
      return;
    PyGILState_STATE gil = PyGILState_Ensure();
    for (auto &[function, code] : codes) {
      Py_DECREF(function);
      Py_DECREF(code);
    }
    for (auto &dict : dicts) {
      for (Read &read : dict->reads) {
        Py_DECREF(read.key);
        Py_DECREF(read.value);
      }
      Py_DECREF(dict->dict);
    }
    PyGILState_Release(gil);
  }
};

/// A counter written by many threads: sharded to keep cache lines private.
struct ShardedCounter {
  struct alignas(64) Shard {
    std::atomic<int64_t> value{0};
  };
  Shard shards[8];
  /// `shard`: any per-thread number (the epoch record's), spreads writers.
  void add(size_t shard) {
    shards[shard % 8].value.fetch_add(1, std::memory_order_relaxed);
  }
  int64_t total() const {
    int64_t sum = 0;
    for (const Shard &s : shards)
      sum += s.value.load(std::memory_order_relaxed);
    return sum;
  }
};

/// Process-wide dispatch statistics (compilation ones live in the core; the
/// process-wide call count lives in the epoch domain's per-thread records).
std::atomic<int64_t> globalWaits{0};
std::atomic<int64_t> globalInvalidations{0};
std::atomic<int64_t> globalFallbacks{0};

struct DispatchState {
  DispatchTable<Entry> table;
  std::atomic<const Guard *> guard{nullptr};
  /// Set when a watched global changed (3.12+) or a dependency was
  /// invalidated; the next call invalidates and recompiles.
  std::atomic<bool> stale{false};
  int nogil = 2; // 0 never, 1 always, 2 auto
  bool lazy = true;
  std::vector<std::string> params;
  std::vector<PyObject *> defaults; // strong references, set once
  std::string name = "function";
  ShardedCounter hits;
  std::atomic<int64_t> compilations{0};
  std::atomic<int64_t> waits{0};
  std::atomic<int64_t> invalidations{0};
  /// Calls run by the interpreter because compiled code kept being
  /// invalidated while calling it (another thread re-binding a global).
  std::atomic<int64_t> fallbacks{0};
  std::atomic<int64_t> compileNanoseconds{0};
};

/// Invalidations a call tolerates before the interpreter runs it instead.
constexpr int kMaxCallAttempts = 4;

#if PY_VERSION_HEX >= 0x030C0000
// 3.12+: dict watchers mark dispatchers stale when a global they read is
// re-bound. `watchMutex` guards `watches`; a leaf lock (nothing is called
// while it is held) taken by the watcher callback and by (un)registration.
int dictWatcher = -1;
std::mutex watchMutex;
std::unordered_map<PyObject *, std::vector<std::pair<PyObject *, DispatchState *>>> watches;

bool sameKey(PyObject *a, PyObject *b) {
  return a == b || (PyUnicode_Check(a) && PyUnicode_Check(b) && PyUnicode_Compare(a, b) == 0);
}

int onDictEvent(PyDict_WatchEvent event, PyObject *dict, PyObject *key, PyObject *) {
  std::lock_guard<std::mutex> guard(watchMutex);
  auto it = watches.find(dict);
  if (it == watches.end())
    return 0;
  bool whole = event == PyDict_EVENT_CLEARED || event == PyDict_EVENT_CLONED ||
               event == PyDict_EVENT_DEALLOCATED || !key;
  for (auto &[watchedKey, state] : it->second)
    if (whole || sameKey(watchedKey, key))
      state->stale.store(true, std::memory_order_release);
  if (event == PyDict_EVENT_DEALLOCATED)
    watches.erase(it);
  return 0;
}

void unwatch(DispatchState *state) {
  std::lock_guard<std::mutex> guard(watchMutex);
  for (auto &entry : watches) {
    auto &list = entry.second;
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const auto &w) { return w.second == state; }),
               list.end());
  }
}
#endif

struct DispatcherObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *dict;
  PyObject *weakrefs;
  DispatchState *state;
};

/// The fast-path guard: a few pointer comparisons while nothing changed.
bool guardHolds(DispatchState &state) {
  if (state.stale.load(std::memory_order_acquire))
    return false;
  const Guard *guard = state.guard.load(std::memory_order_seq_cst);
  if (!guard)
    return true;
  for (const auto &[function, code] : guard->codes)
    if (PyFunction_GET_CODE(function) != code)
      return false;
#if PY_VERSION_HEX < 0x030C0000
  // 3.11: any change to a dict bumps its version; only then look the read
  // globals up again (a few dict lookups), and remember the new version.
  for (const auto &dict : guard->dicts) {
    uint64_t version = reinterpret_cast<PyDictObject *>(dict->dict)->ma_version_tag;
    if (version == dict->version.load(std::memory_order_relaxed))
      continue;
    for (const Guard::Read &read : dict->reads) {
      PyObject *current = PyDict_GetItemWithError(dict->dict, read.key);
      if (current != read.value) {
        PyErr_Clear();
        return false;
      }
    }
    dict->version.store(version, std::memory_order_relaxed);
  }
#endif
  return true;
}

PyObject *raiseRunError(const jit::Executor &executor, int32_t status) {
  const frontend::ErrorSite &site = executor.info.errors.at(status - 1);
  static const std::pair<const char *, PyObject **> classes[] = {
      {"ZeroDivisionError", &PyExc_ZeroDivisionError},
      {"OverflowError", &PyExc_OverflowError},
      {"ValueError", &PyExc_ValueError},
      {"RecursionError", &PyExc_RecursionError},
      {"UnboundLocalError", &PyExc_UnboundLocalError},
      {"IndexError", &PyExc_IndexError},
      {"TypeError", &PyExc_TypeError}};
  PyObject *cls = PyExc_RuntimeError;
  for (const auto &[name, pointer] : classes)
    if (site.exception == name)
      cls = *pointer;
  // Messages with {0}..{23} take the values the code recorded on this thread.
  std::string message = site.message;
  std::array<int64_t, kMaxErrorArguments> values = lastErrorArguments();
  for (size_t k = 0; k < values.size(); ++k) {
    std::string placeholder = "{" + std::to_string(k) + "}";
    for (size_t at; (at = message.find(placeholder)) != std::string::npos;)
      message.replace(at, placeholder.size(), std::to_string(values[k]));
  }
  PyErr_SetString(cls, message.c_str());
  return nullptr;
}

bool unbox(PyObject *o, char kind, int64_t &slot, const DispatchState &state,
           size_t index) {
  auto fail = [&](PyObject *cls, const std::string &what) {
    std::string name = index < state.params.size() ? state.params[index] : "?";
    PyErr_Format(cls, "%s() argument %zu ('%s') %s", state.name.c_str(),
                 index + 1, name.c_str(), what.c_str());
    return false;
  };
  if (kind == 'f' || kind == 'F') {
    double v = PyFloat_AsDouble(o);
    if (v == -1.0 && PyErr_Occurred())
      return false;
    if (kind == 'F')
      v = static_cast<float>(v);
    std::memcpy(&slot, &v, 8);
    return true;
  }
  if (kind == 'b') {
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
  if (kind == 'I' && (v < INT32_MIN || v > INT32_MAX))
    return fail(PyExc_OverflowError, "does not fit in int32");
  slot = v;
  return true;
}

/// Who owns the memory of array results: the call's arguments (a result may
/// be a view of one) and the call's allocation arena.
struct ResultOwners {
  plait::AllocationArena *arena;
  PyObject *const *arguments;
  Py_buffer *const *views;
  size_t count;
  std::vector<std::pair<int64_t, PyObject *>> made; // borrowed: results so far
};

nb::dlpack::dtype dlpackType(frontend::DType dtype) {
  const frontend::DTypeInfo &info = frontend::dtypeInfo(dtype);
  return nb::dlpack::dtype{info.dlpackCode, static_cast<uint8_t>(info.bytes * 8), 1};
}

size_t itemSize(frontend::DType dtype) { return frontend::dtypeInfo(dtype).bytes; }

/// The 64-bit result slots a result type uses (an array: base, offset,
/// sizes, strides).
size_t resultSlots(const Type &type) {
  switch (type.kind) {
  case Type::Kind::None:
  case Type::Kind::Bottom:
    return 1; // room for the wrapper's stores, which there are none of
  case Type::Kind::Array:
    return 2 + 2 * static_cast<size_t>(type.ndim);
  case Type::Kind::Tuple: {
    size_t total = 0;
    for (const Type &element : type.elements)
      total += resultSlots(element);
    return std::max<size_t>(total, 1);
  }
  default:
    return type.isComplex() ? 2 : 1;
  }
}

PyObject *boxArray(const Type &type, const int64_t *&slot, ResultOwners &owners) {
  int64_t base = *slot++;
  int64_t offset = *slot++;
  std::vector<size_t> shape;
  std::vector<int64_t> strides;
  for (int d = 0; d < type.ndim; ++d)
    shape.push_back(static_cast<size_t>(*slot++));
  for (int d = 0; d < type.ndim; ++d)
    strides.push_back(*slot++);
  nb::object owner;
  // 1. A view of an argument keeps the argument alive.
  for (size_t i = 0; i < owners.count && !owner.is_valid(); ++i) {
    const Py_buffer *view = owners.views[i];
    if (!view)
      continue;
    int64_t start = reinterpret_cast<int64_t>(view->buf);
    if (base >= start && base < start + std::max<int64_t>(view->len, 1))
      owner = nb::borrow(owners.arguments[i]);
  }
  // 2. The same memory as an earlier result of this call.
  for (auto &[address, object] : owners.made)
    if (!owner.is_valid() && address == base)
      owner = nb::borrow(object);
  // 3. Memory this call allocated: the array owns it from now on.
  if (!owner.is_valid()) {
    void *pointer = reinterpret_cast<void *>(base);
    if (!owners.arena->release(pointer)) {
      PyErr_SetString(PyExc_RuntimeError, "internal: an array result of unknown origin");
      return nullptr;
    }
    owner = nb::capsule(pointer, [](void *p) noexcept { std::free(p); });
  }
  char *data = reinterpret_cast<char *>(base) + offset * static_cast<int64_t>(itemSize(type.dtype));
  nb::ndarray<nb::numpy> array(data, shape.size(), shape.data(), owner, strides.data(),
                               dlpackType(type.dtype));
  nb::object result = nb::cast(array, nb::rv_policy::reference);
  owners.made.emplace_back(base, result.ptr());
  return result.release().ptr();
}

/// numpy.float32 etc.: a new reference to the scalar type, or null.
PyObject *numpyScalarType(frontend::DType dtype) {
  // Filled once per dtype; a lost race just drops the duplicate reference
  // (no lock: a thread importing numpy may release the GIL).
  static std::atomic<PyObject *> types[16];
  std::atomic<PyObject *> &cached = types[static_cast<int>(dtype)];
  PyObject *type = cached.load(std::memory_order_acquire);
  if (!type) {
    PyObject *numpy = PyImport_ImportModule("numpy");
    if (!numpy)
      return nullptr;
    const char *name = dtype == frontend::DType::Bool ? "bool_" : frontend::dtypeName(dtype);
    PyObject *fresh = PyObject_GetAttrString(numpy, name);
    Py_DECREF(numpy);
    if (!fresh)
      return nullptr;
    PyObject *expected = nullptr;
    if (cached.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) {
      type = fresh; // kept for the life of the process
    } else {
      Py_DECREF(fresh);
      type = expected;
    }
  }
  Py_INCREF(type);
  return type;
}

/// A new NumPy scalar holding `bytes`, built as NumPy's PyArray_Scalar
/// builds one: every numeric scalar type is {PyObject_HEAD; T obval;}
/// (numpy/arrayscalars.h) and its tp_alloc returns zeroed memory. Bools
/// come from calling the type, which returns NumPy's two singletons.
PyObject *newNumPyScalar(frontend::DType dtype, const void *bytes, size_t size) {
  PyObject *type = numpyScalarType(dtype);
  if (!type)
    return nullptr;
  PyObject *scalar;
  if (dtype == frontend::DType::Bool) {
    scalar = PyObject_CallOneArg(type, *static_cast<const uint8_t *>(bytes) ? Py_True : Py_False);
  } else {
    auto *typeObject = reinterpret_cast<PyTypeObject *>(type);
    scalar = typeObject->tp_alloc(typeObject, 0);
    if (scalar)
      std::memcpy(reinterpret_cast<char *>(scalar) + sizeof(PyObject), bytes, size);
  }
  Py_DECREF(type);
  return scalar;
}

/// A NumPy scalar result from its slot (the low bytes hold narrow values):
/// as numpy.<dtype>, or as a Python number when the signature says so.
PyObject *boxNumPyScalar(frontend::DType dtype, int64_t bits, char cast) {
  if (!cast) // the slot's low bytes are the value (little-endian)
    return newNumPyScalar(dtype, &bits, itemSize(dtype));
  nb::object number;
  switch (dtype) {
  case frontend::DType::Float64: {
    double v;
    std::memcpy(&v, &bits, 8);
    number = nb::steal(PyFloat_FromDouble(v));
    break;
  }
  case frontend::DType::Float32: {
    float v;
    uint32_t low = static_cast<uint32_t>(bits);
    std::memcpy(&v, &low, 4);
    number = nb::steal(PyFloat_FromDouble(v));
    break;
  }
  case frontend::DType::Int32:
    number = nb::steal(PyLong_FromLongLong(static_cast<int32_t>(bits)));
    break;
  case frontend::DType::Int16:
    number = nb::steal(PyLong_FromLongLong(static_cast<int16_t>(bits)));
    break;
  case frontend::DType::Int8:
    number = nb::steal(PyLong_FromLongLong(static_cast<int8_t>(bits)));
    break;
  case frontend::DType::UInt8:
    number = nb::steal(PyLong_FromLongLong(static_cast<uint8_t>(bits)));
    break;
  case frontend::DType::UInt64:
    number = nb::steal(PyLong_FromUnsignedLongLong(static_cast<uint64_t>(bits)));
    break;
  case frontend::DType::Bool:
    number = nb::steal(PyBool_FromLong(bits & 1));
    break;
  default:
    number = nb::steal(PyLong_FromLongLong(bits));
  }
  if (!number.is_valid())
    return nullptr;
  // The declared result type of an explicit signature, checked and rounded
  // as for Python numbers.
  if (cast == 'f' || cast == 'F') {
    double v = PyFloat_AsDouble(number.ptr());
    if (v == -1.0 && PyErr_Occurred())
      return nullptr;
    return PyFloat_FromDouble(cast == 'F' ? static_cast<double>(static_cast<float>(v)) : v);
  }
  if (cast == 'i' || cast == 'I') {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
    if (overflow || (cast == 'I' && (v < INT32_MIN || v > INT32_MAX))) {
      PyErr_SetString(PyExc_OverflowError,
                      cast == 'I' ? "result does not fit in int32" : "result does not fit in int64");
      return nullptr;
    }
  }
  return number.release().ptr(); // 'i', 'I', 'b'
}

PyObject *box(const Type &type, const int64_t *&slot, char cast, ResultOwners &owners) {
  if (type.isComplex()) {
    double parts[2];
    std::memcpy(parts, slot, 16);
    slot += 2;
    if (type.kind == Type::Kind::Complex || cast == 'c')
      return PyComplex_FromDoubles(parts[0], parts[1]);
    return newNumPyScalar(type.dtype, parts, 16);
  }
  switch (type.kind) {
  case Type::Kind::NumPy:
    return boxNumPyScalar(type.dtype, *slot++, cast);
  case Type::Kind::None:
    Py_RETURN_NONE;
  case Type::Kind::Array:
    return boxArray(type, slot, owners);
  case Type::Kind::Bool:
    if (cast == 'f' || cast == 'F')
      return PyFloat_FromDouble(*slot++ ? 1.0 : 0.0);
    return PyBool_FromLong(*slot++ != 0);
  case Type::Kind::Int: {
    int64_t v = *slot++;
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
    std::memcpy(&v, slot++, 8);
    if (cast == 'F')
      v = static_cast<float>(v);
    return PyFloat_FromDouble(v);
  }
  case Type::Kind::Tuple: {
    PyObject *tuple = PyTuple_New(static_cast<Py_ssize_t>(type.elements.size()));
    if (!tuple)
      return nullptr;
    for (size_t i = 0; i < type.elements.size(); ++i) {
      PyObject *item = box(type.elements[i], slot, 0, owners);
      if (!item) {
        Py_DECREF(tuple);
        return nullptr;
      }
      PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), item);
    }
    return tuple;
  }
  default:
    Py_RETURN_NONE;
  }
}

using Snapshot = DispatchTable<Entry>::Snapshot;

const Entry *lookup(const Snapshot *table, const char *key, size_t keyLength,
                    bool exactOnly) {
  if (!table)
    return nullptr;
  for (const Entry &entry : table->entries)
    if (entry.codes.size() == keyLength &&
        std::memcmp(entry.codes.data(), key, keyLength) == 0)
      return &entry;
  if (exactOnly)
    return nullptr;
  // Eager signatures: scalars convert bool -> int -> float -> complex; an any-layout
  // array signature takes contiguous arrays too.
  auto rank = [](char c) { return c == 'b' ? 0 : c == 'i' ? 1 : c == 'f' ? 2 : 3; };
  for (const Entry &entry : table->entries) {
    const std::string &want = entry.codes;
    size_t k = 0, w = 0;
    bool ok = true;
    while (ok && k < keyLength && w < want.size()) {
      if (key[k] == 'A' || want[w] == 'A') {
        ok = key[k] == 'A' && want[w] == 'A' && k + 3 < keyLength &&
             w + 3 < want.size() && key[k + 1] == want[w + 1] &&
             key[k + 2] == want[w + 2] && (want[w + 3] == 'A' || key[k + 3] == want[w + 3]);
        k += 4;
        w += 4;
      } else {
        ok = rank(key[k]) <= rank(want[w]);
        ++k;
        ++w;
      }
    }
    if (ok && k == keyLength && w == want.size())
      return &entry;
  }
  return nullptr;
}

/// The dispatch character of an exported buffer's element type, 0 if plait
/// has no array type for it.
char dtypeCode(const Py_buffer &view) {
  const char *format = view.format ? view.format : "B";
  if (*format == '@' || *format == '=' || *format == '<')
    ++format;
  if (format[0] == 'Z' && format[1] == 'd' && !format[2])
    return view.itemsize == 16 ? 'D' : 0; // complex128
  if (!*format || format[1])
    return 0;
  switch (*format) {
  case 'd':
    return view.itemsize == 8 ? 'd' : 0;
  case 'f':
    return view.itemsize == 4 ? 'f' : 0;
  case 'q':
  case 'l':
  case 'i':
  case 'h':
  case 'b':
    return view.itemsize == 8 ? 'q' : view.itemsize == 4 ? 'i'
           : view.itemsize == 2 ? 'h' : view.itemsize == 1 ? 'b' : 0;
  case 'B':
    return view.itemsize == 1 ? 'B' : 0;
  case 'L':
  case 'Q':
    return view.itemsize == 8 ? 'Q' : 0;
  case '?':
    return '?';
  default:
    return 0;
  }
}

/// Buffers of array arguments, released (with the GIL held) after the call:
/// the exporter's memory stays pinned while compiled code uses it.
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
  static std::atomic<PyObject *> cached{nullptr};
  PyObject *type = cached.load(std::memory_order_acquire);
  if (type)
    return reinterpret_cast<PyTypeObject *>(type);
  PyObject *name = PyUnicode_FromString("numpy");
  PyObject *module = name ? PyImport_GetModule(name) : nullptr; // only if imported
  Py_XDECREF(name);
  if (!module) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject *found = PyObject_GetAttrString(module, "ndarray");
  Py_DECREF(module);
  if (!found) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject *expected = nullptr;
  if (!cached.compare_exchange_strong(expected, found, std::memory_order_acq_rel)) {
    Py_DECREF(found);
    found = expected;
  }
  return reinterpret_cast<PyTypeObject *>(found);
}

/// The buffer format of a NumPy dtype plait supports, from its type number
/// (NPY_BOOL = 0 ... NPY_CDOUBLE = 15), or null.
const char *numpyFormat(const NumPyDescrHead &descr, Py_ssize_t &itemsize) {
  if (descr.byteorder == '>')
    return nullptr; // big-endian data: the buffer path refuses it
  const frontend::DTypeInfo *info = frontend::dtypeOfNumPyTypeNum(descr.type_num);
  if (!info)
    return nullptr;
  itemsize = info->bytes;
  return info->format;
}

class PinnedBuffers {
public:
  ~PinnedBuffers() {
    for (size_t i = 0; i < count; ++i) {
      if (i < 64 && (fromArray & (uint64_t(1) << i)))
        Py_DECREF(slot(i)->obj); // filled from the array itself
      else
        PyBuffer_Release(slot(i));
    }
    for (PyObject *object : kept)
      Py_DECREF(object);
  }
  /// Takes a new reference to hold until the call ends; returns it.
  PyObject *keep(PyObject *object) {
    kept.push_back(object);
    return object;
  }
  Py_buffer *acquire(PyObject *object) {
    if (count >= kInline)
      extra.push_back(std::make_unique<Slot>()); // beyond a few arrays
    Py_buffer *view = slot(count);
    PyTypeObject *ndarray = count < 64 ? ndarrayType() : nullptr;
    if (ndarray && Py_TYPE(object) == ndarray) {
      // A NumPy array: its fields are the view, without the buffer
      // protocol's per-call format and shape bookkeeping. The reference
      // held until the call ends pins it as an export would; shape and
      // strides are copied (another thread may reshape the array).
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

private:
  static constexpr size_t kInline = 4;
  static constexpr int kMaxDims = 8;
  struct Slot {
    Py_buffer view;
    Py_ssize_t shape[kMaxDims];
    Py_ssize_t strides[kMaxDims];
  };
  Slot &slotStorage(size_t i) { return i < kInline ? inlineSlots[i] : *extra[i - kInline]; }
  Py_buffer *slot(size_t i) { return &slotStorage(i).view; }
  Slot inlineSlots[kInline];
  std::vector<std::unique_ptr<Slot>> extra; // stable addresses
  std::vector<PyObject *> kept;
  size_t count = 0;
  uint64_t fromArray = 0; // bit i: view i was filled from an ndarray
};

/// numpy.from_dlpack(object): a new reference, or null with an exception.
PyObject *fromDlpack(PyObject *object) {
  nb::module_ numpy = nb::module_::import_("numpy");
  nb::object converted = numpy.attr("from_dlpack")(nb::handle(object));
  return converted.release().ptr();
}

/// Scratch space for one call: inline for common signatures (a large fixed
/// stack frame would be probed page by page on every call), on the heap for
/// large ones.
template <typename T, size_t Inline>
class Scratch {
public:
  explicit Scratch(size_t size) {
    if (size > Inline) {
      heap.resize(size);
      data = heap.data();
    }
  }
  T &operator[](size_t i) { return data[i]; }
  T *get() { return data; }

private:
  T inlineStorage[Inline];
  std::vector<T> heap;
  T *data = inlineStorage;
};

constexpr size_t kMaxArgs = 32;

PyObject *dispatcherCall(PyObject *self, PyObject *const *args, size_t nargsf,
                         PyObject *kwnames) {
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  DispatchState &state = *d->state;
  size_t positional = PyVectorcall_NARGS(nargsf);
  size_t n = state.params.size();
  if (positional > n) {
    PyErr_Format(PyExc_TypeError, "%s() takes %zu positional arguments but %zu were given",
                 state.name.c_str(), n, positional);
    return nullptr;
  }
  PyObject *bound[kMaxArgs];
  for (size_t i = 0; i < n; ++i)
    bound[i] = i < positional ? args[i] : nullptr;
  if (kwnames) {
    Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; ++k) {
      const char *key = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
      if (!key)
        return nullptr;
      size_t i = 0;
      while (i < n && state.params[i] != key)
        ++i;
      if (i == n) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'",
                     state.name.c_str(), key);
        return nullptr;
      }
      if (bound[i]) {
        PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'",
                     state.name.c_str(), key);
        return nullptr;
      }
      bound[i] = args[positional + k];
    }
  }
  size_t firstDefault = n - state.defaults.size();
  char codes[kMaxArgs * 4];
  size_t keyLength = 0;
  PinnedBuffers pins;
  Py_buffer *views[kMaxArgs] = {};
  for (size_t i = 0; i < n; ++i) {
    if (!bound[i]) {
      if (i < firstDefault) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument: '%s'",
                     state.name.c_str(), state.params[i].c_str());
        return nullptr;
      }
      bound[i] = state.defaults[i - firstDefault];
    }
    char code = classify(bound[i]);
    if (code) {
      codes[keyLength++] = code;
      continue;
    }
    if (!PyObject_CheckBuffer(bound[i]) && PyObject_HasAttrString(bound[i], "__dlpack__")) {
      // Another library's tensor: numpy.from_dlpack shares its memory
      // (zero-copy); the NumPy wrapper is kept alive for the call.
      PyObject *converted = fromDlpack(bound[i]);
      if (!converted)
        return nullptr;
      bound[i] = pins.keep(converted);
    }
    if (PyObject_CheckBuffer(bound[i])) {
      Py_buffer *view = pins.acquire(bound[i]);
      if (!view)
        return nullptr;
      char dtype = dtypeCode(*view);
      if (dtype && view->ndim == 0) {
        // A 0-d buffer is a NumPy scalar (np.float64(3), np.int8(2),
        // np.bool_): its own type, computed with NumPy's rules. Explicit
        // signatures spell Python's types: there it counts as one of them.
        if (!state.lazy) {
          codes[keyLength++] = dtype == 'd' || dtype == 'f' ? 'f'
                               : dtype == '?'                 ? 'b'
                               : dtype == 'D'                 ? 'c'
                                                              : 'i';
          continue;
        }
        views[i] = view;
        codes[keyLength++] = 'N';
        codes[keyLength++] = dtype;
        continue;
      }
      if (!dtype || view->ndim < 1 || view->ndim > 8) {
        PyErr_Format(PyExc_TypeError,
                     "%s() argument %zu ('%s'): arrays of format '%s' with %d "
                     "dimensions are not supported (dtypes float64, float32, int64, "
                     "int32, int16, int8, uint8, uint64, complex128, bool; 1 to 8 dimensions)",
                     state.name.c_str(), i + 1, state.params[i].c_str(),
                     view->format ? view->format : "B", view->ndim);
        return nullptr;
      }
      views[i] = view;
      codes[keyLength++] = 'A';
      codes[keyLength++] = dtype;
      codes[keyLength++] = static_cast<char>('0' + view->ndim);
      codes[keyLength++] = PyBuffer_IsContiguous(view, 'C')                       ? 'C'
                           : view->ndim > 1 && PyBuffer_IsContiguous(view, 'F') ? 'F'
                                                                                : 'A';
      continue;
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() argument %zu ('%s') must be int, float, bool, complex or an array, not %s",
                 state.name.c_str(), i + 1, state.params[i].c_str(),
                 Py_TYPE(bound[i])->tp_name);
    return nullptr;
  }

  // Fast path inside an epoch read section (no lock): the snapshot and the
  // executors it lists stay alive until the section ends. Slow paths (stale
  // guard, miss) call into Python outside it, then look again.
  for (int attempt = 0; attempt < kMaxCallAttempts; ++attempt) {
    bool stale = false;
    {
      static EpochDomain &domain = EpochDomain::global();
      EpochDomain::ReadGuard pin(domain);
      stale = !guardHolds(state);
      const Entry *entry = stale ? nullptr
                                 : lookup(state.table.read(), codes, keyLength,
                                          state.lazy);
      if (entry) {
        const jit::Executor &executor = *entry->executor;
        // One slot per lowered argument: a scalar, or the fields of an
        // array's descriptor (allocated, aligned, offset, sizes, strides);
        // then the results descriptor (5) and the status.
        size_t slotsNeeded = 6;
        for (size_t i = 0; i < n; ++i) {
          char kind = entry->kinds[i];
          slotsNeeded += kind == 'A'   ? 3 + 2 * static_cast<size_t>(views[i]->ndim)
                         : kind == 'c' ? 2
                         : kind == 'N' ? (views[i]->itemsize > 8 ? 2 : 1)
                                       : 1;
        }
        Scratch<int64_t, 24> storage(slotsNeeded);
        Scratch<void *, 24> pointers(slotsNeeded);
        size_t slot = 0;
        for (size_t i = 0; i < n; ++i) {
          if (entry->kinds[i] == 'N') {
            // A NumPy scalar's bytes: compiled code reads the low bytes (a
            // complex128 fills two slots, one per part).
            size_t parts = views[i]->itemsize > 8 ? 2 : 1;
            storage[slot] = 0;
            std::memcpy(&storage[slot], views[i]->buf, static_cast<size_t>(views[i]->itemsize));
            for (size_t p = 0; p < parts; ++p, ++slot)
              pointers[slot] = &storage[slot];
            continue;
          }
          if (entry->kinds[i] == 'c') {
            Py_complex z = PyComplex_AsCComplex(bound[i]);
            if (z.real == -1.0 && PyErr_Occurred())
              return nullptr;
            std::memcpy(&storage[slot], &z.real, 8);
            std::memcpy(&storage[slot + 1], &z.imag, 8);
            pointers[slot] = &storage[slot];
            pointers[slot + 1] = &storage[slot + 1];
            slot += 2;
            continue;
          }
          if (entry->kinds[i] != 'A') {
            if (!unbox(bound[i], entry->kinds[i], storage[slot], state, i))
              return nullptr;
            pointers[slot] = &storage[slot];
            ++slot;
            continue;
          }
          const Py_buffer &view = *views[i];
          if (view.readonly && executor.info.writesArgument[i]) {
            PyErr_Format(PyExc_ValueError,
                         "%s() argument %zu ('%s') is read-only, but %s() writes to it",
                         state.name.c_str(), i + 1, state.params[i].c_str(),
                         state.name.c_str());
            return nullptr;
          }
          int64_t fields[3 + 16] = {reinterpret_cast<int64_t>(view.buf),
                                    reinterpret_cast<int64_t>(view.buf), 0};
          for (int d = 0; d < view.ndim; ++d) {
            if (view.strides[d] % view.itemsize != 0) {
              PyErr_Format(PyExc_ValueError,
                           "%s() argument %zu ('%s') has strides that are not a "
                           "multiple of its item size", state.name.c_str(), i + 1,
                           state.params[i].c_str());
              return nullptr;
            }
            fields[3 + d] = view.shape[d];
            fields[3 + view.ndim + d] = view.strides[d] / view.itemsize;
          }
          for (int f = 0; f < 3 + 2 * view.ndim; ++f) {
            storage[slot] = fields[f];
            pointers[slot] = &storage[slot];
            ++slot;
          }
        }
        Scratch<int64_t, 8> results(resultSlots(executor.info.resultType));
        int64_t resultDescriptor[5] = {reinterpret_cast<int64_t>(results.get()),
                                       reinterpret_cast<int64_t>(results.get()), 0,
                                       static_cast<int64_t>(resultSlots(executor.info.resultType)), 1};
        // What the call allocates is freed when the arena ends, except the
        // arrays it returns, which become NumPy arrays owning their memory.
        plait::AllocationArena arena;
        for (int64_t &field : resultDescriptor)
          pointers[slot++] = &field;
        int32_t status = 0;
        pointers[slot] = &status;
        bool detach = state.nogil == 1 || (state.nogil == 2 && executor.info.mayRunLong);
        if (detach) {
          Py_BEGIN_ALLOW_THREADS
          executor.call(pointers.get());
          Py_END_ALLOW_THREADS
        } else {
          executor.call(pointers.get());
        }
        state.hits.add(pin.shard());
        pin.countEvent();
        if (status != 0)
          return raiseRunError(executor, status);
        const int64_t *cursor = results.get();
        ResultOwners owners{&arena, bound, views, n, {}};
        return box(executor.info.resultType, cursor, entry->resultCast, owners);
      }
    }
    if (stale) {
      // Compiled code assumed globals or code that changed: drop it all.
      PyObject *done = PyObject_CallMethod(self, "_stale", nullptr);
      if (!done)
        return nullptr;
      Py_DECREF(done);
      continue;
    }
    if (!state.lazy) {
      std::string got;
      for (size_t i = 0, k = 0; i < n; ++i) {
        got += std::string(i ? ", " : "") +
               (codes[k] == 'A' ? std::string("array") : kindName(codes[k]));
        k += codes[k] == 'A' ? 4 : codes[k] == 'N' ? 2 : 1;
      }
      PyErr_Format(PyExc_TypeError, "%s() has no compiled signature for arguments (%s)",
                   state.name.c_str(), got.c_str());
      return nullptr;
    }
    // Miss: the Python side snapshots, compiles (detached) and installs.
    PyObject *key = PyUnicode_FromStringAndSize(codes, static_cast<Py_ssize_t>(keyLength));
    if (!key)
      return nullptr;
    PyObject *done = PyObject_CallMethod(self, "_miss", "O", key);
    Py_DECREF(key);
    if (!done)
      return nullptr;
    Py_DECREF(done);
  }
  // Another thread keeps re-binding what compiled code assumed: the
  // interpreter runs this call, reading the globals as they are now.
  state.fallbacks.fetch_add(1, std::memory_order_relaxed);
  globalFallbacks.fetch_add(1, std::memory_order_relaxed);
  PyObject *function = PyObject_GetAttrString(self, "py_func");
  if (!function)
    return nullptr;
  PyObject *result = PyObject_Vectorcall(function, args, nargsf, kwnames);
  Py_DECREF(function);
  return result;
}

int dispatcherTraverse(PyObject *self, visitproc visit, void *arg) {
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(d->dict);
  if (d->state) {
    for (PyObject *o : d->state->defaults)
      Py_VISIT(o);
    // The guard references the globals dicts (which usually reference this
    // dispatcher): visible to the GC so that such cycles are collected.
    if (const Guard *guard = d->state->guard.load()) {
      for (const auto &[function, code] : guard->codes) {
        Py_VISIT(function);
        Py_VISIT(code);
      }
      for (const auto &dict : guard->dicts) {
        Py_VISIT(dict->dict);
        for (const Guard::Read &read : dict->reads)
          Py_VISIT(read.value);
      }
    }
  }
  return 0;
}

int dispatcherClear(PyObject *self) {
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  Py_CLEAR(d->dict);
  if (d->state) {
    // Guards are only read with the GIL held (or the world stopped, during
    // a free-threaded collection): none is being read now.
    d->state->table.clear();
    delete d->state->guard.exchange(nullptr);
  }
  return 0;
}

void dispatcherDealloc(PyObject *self) {
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  PyTypeObject *type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  if (d->weakrefs)
    PyObject_ClearWeakRefs(self);
  dispatcherClear(self);
  if (d->state) {
#if PY_VERSION_HEX >= 0x030C0000
    unwatch(d->state);
#endif
    for (PyObject *o : d->state->defaults)
      Py_DECREF(o);
    // Readers still inside an executor keep their snapshot alive; the table
    // retires its snapshot and the guard through the epoch domain.
    d->state->table.clear();
    delete d->state->guard.exchange(nullptr); // read only with the GIL held
    delete d->state;
  }
  type->tp_free(self);
  Py_DECREF(type);
}

PyObject *dispatcherNew(PyTypeObject *type, PyObject *, PyObject *) {
  auto *d = reinterpret_cast<DispatcherObject *>(type->tp_alloc(type, 0));
  if (!d)
    return nullptr;
  d->vectorcall = dispatcherCall;
  d->state = new DispatchState();
  return reinterpret_cast<PyObject *>(d);
}

DispatchState &stateOf(nb::handle self) {
  return *reinterpret_cast<DispatcherObject *>(self.ptr())->state;
}

PyMemberDef dispatcherMembers[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(DispatcherObject, vectorcall), READONLY, nullptr},
    {"__dictoffset__", T_PYSSIZET, offsetof(DispatcherObject, dict), READONLY, nullptr},
    {"__weaklistoffset__", T_PYSSIZET, offsetof(DispatcherObject, weakrefs), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyGetSetDef dispatcherGetSet[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot dispatcherSlots[] = {
    {Py_tp_getset, dispatcherGetSet},
    {Py_tp_new, reinterpret_cast<void *>(dispatcherNew)},
    {Py_tp_dealloc, reinterpret_cast<void *>(dispatcherDealloc)},
    {Py_tp_traverse, reinterpret_cast<void *>(dispatcherTraverse)},
    {Py_tp_clear, reinterpret_cast<void *>(dispatcherClear)},
    {Py_tp_call, reinterpret_cast<void *>(PyVectorcall_Call)},
    {Py_tp_members, dispatcherMembers},
    {Py_tp_doc, const_cast<char *>("Native dispatch of a @plait.jit function.")},
    {0, nullptr}};

PyType_Spec dispatcherSpec = {
    "plait._core.jit.DispatcherBase", sizeof(DispatcherObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC |
        Py_TPFLAGS_HAVE_VECTORCALL,
    dispatcherSlots};

} // namespace

namespace plait::python {

void populateJIT(nb::module_ &m) {
  PyObject *type = PyType_FromSpec(&dispatcherSpec);
  if (!type)
    throw nb::python_error();
  m.attr("DispatcherBase") = nb::steal(type);

  m.def(
      "_enable_vectorcall",
      [base = nb::handle(type)](nb::handle cls) {
        // Python 3.11 does not let heap subclasses inherit vectorcall (3.12
        // does when tp_call is inherited): without it every call packs a tuple.
        auto *type = reinterpret_cast<PyTypeObject *>(cls.ptr());
        if (!PyType_IsSubtype(type, reinterpret_cast<PyTypeObject *>(base.ptr())))
          throw nb::type_error("not a DispatcherBase subclass");
        if (type->tp_call == PyVectorcall_Call && type->tp_vectorcall_offset) {
          type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
          PyType_Modified(type);
        }
      },
      "Internal: let a Python subclass of DispatcherBase keep vectorcall.");

  m.def("_set_error_classes", [](nb::handle typing, nb::handle unsupported) {
    Py_INCREF(typing.ptr());
    Py_INCREF(unsupported.ptr());
    typingErrorClass.store(typing.ptr());
    unsupportedErrorClass.store(unsupported.ptr());
  });

  nb::class_<jit::Executor>(m, "Executor", "Native code for one signature.")
      .def_prop_ro("argument_types",
                   [](const jit::Executor &e) {
                     std::vector<std::string> names;
                     for (const Type &t : e.info.argumentTypes)
                       names.push_back(t.str());
                     return names;
                   })
      .def_prop_ro("result_type", [](const jit::Executor &e) { return e.info.resultType.str(); })
      .def_prop_ro("may_run_long", [](const jit::Executor &e) { return e.info.mayRunLong; })
      .def_prop_ro("compile_seconds", [](const jit::Executor &e) { return e.compileSeconds; })
      .def_prop_ro("code_bytes", [](const jit::Executor &e) { return e.code->codeBytes(); })
      .def_ro("plait", &jit::Executor::plaitText)
      .def_ro("optimized_plait", &jit::Executor::optimizedPlaitText)
      .def_ro("mlir", &jit::Executor::mlirText)
      .def_ro("optimized_mlir", &jit::Executor::optimizedMlirText)
      .def_ro("llvm", &jit::Executor::llvmText)
      .def("asm", [](const jit::Executor &e) {
        return detached([&] { return e.assembly(); });
      });

  m.def(
      "compile",
      [](const std::string &snapshot, int entry, const std::vector<std::string> &types,
         bool checkOverflow, bool fastmath, int64_t recursionLimit,
         const std::map<std::string, std::string> &messages, unsigned optLevel,
         bool boundsCheck) {
        jit::CompileRequest request;
        request.snapshot = snapshot;
        request.entryFunction = entry;
        for (const std::string &name : types) {
          bool narrow;
          request.argumentTypes.push_back(jit::key::typeOfName(name, narrow));
        }
        request.options.checkOverflow = checkOverflow;
        request.options.fastmath = fastmath;
        request.options.recursionLimit = recursionLimit;
        request.options.messages = messages;
        request.optLevel = optLevel;
        request.options.boundsCheck = boundsCheck;
        try {
          // Detached: typing, MLIR, LLVM and code generation touch no Python.
          return detached([&] { return jit::compile(request); });
        } catch (const frontend::CompileError &error) {
          PyObject *cls = error.kind == frontend::CompileError::Kind::Typing
                              ? typingErrorClass.load()
                              : unsupportedErrorClass.load();
          PyErr_SetString(cls ? cls : PyExc_RuntimeError, error.what());
          throw nb::python_error();
        }
      },
      nb::arg("snapshot"), nb::arg("entry"), nb::arg("types"),
      nb::arg("check_overflow") = true, nb::arg("fastmath") = false,
      nb::arg("recursion_limit") = 1000,
      nb::arg("messages") = std::map<std::string, std::string>(),
      nb::arg("opt_level") = 2, nb::arg("boundscheck") = true);

  // Dispatch keys (DispatchKey.h) are spelt in one place, for Python too.
  m.def("_signature_key", [](const std::vector<std::string> &typeNames) {
    jit::key::Signature signature = jit::key::signatureOf(typeNames);
    return std::make_pair(signature.key, signature.kinds);
  });
  m.def("_key_type_names", [](const std::string &key) {
    std::vector<std::string> names;
    for (const std::string &part : jit::key::split(key))
      names.push_back(jit::key::nameOf(part));
    return names;
  });

  m.def("_configure",
        [](nb::handle self, const std::string &name, std::vector<std::string> params,
           nb::list defaults, int nogil, bool lazy) {
          if (params.size() > kMaxArgs)
            throw nb::value_error("plait.jit supports at most 32 parameters");
          DispatchState &state = stateOf(self);
          state.name = name;
          state.params = std::move(params);
          for (nb::handle d : defaults)
            state.defaults.push_back(d.inc_ref().ptr());
          state.nogil = nogil;
          state.lazy = lazy;
        });

  m.def("_install",
        [](nb::handle self, const std::string &codes, const std::string &kinds,
           const std::string &resultCast, std::shared_ptr<jit::Executor> executor) {
          stateOf(self).table.insert(Entry{codes, kinds,
                                           resultCast.empty() ? '\0' : resultCast[0],
                                           std::move(executor)});
        });

  m.def(
      "_set_guard",
      [](nb::handle self, nb::list functions, nb::list reads) {
        DispatchState &state = stateOf(self);
        auto guard = std::make_unique<Guard>();
        for (nb::handle function : functions) {
          if (!PyFunction_Check(function.ptr()))
            throw nb::type_error("_set_guard expects functions");
          PyObject *code = PyFunction_GET_CODE(function.ptr());
          guard->codes.emplace_back(function.inc_ref().ptr(), nb::handle(code).inc_ref().ptr());
        }
        for (nb::handle read : reads) {
          nb::tuple t = nb::borrow<nb::tuple>(read);
          PyObject *dict = t[0].ptr();
          if (!PyDict_Check(dict))
            throw nb::type_error("_set_guard expects (dict, key, value) reads");
          Guard::Dict *slot = nullptr;
          for (auto &d : guard->dicts)
            if (d->dict == dict)
              slot = d.get();
          if (!slot) {
            guard->dicts.push_back(std::make_unique<Guard::Dict>());
            slot = guard->dicts.back().get();
            slot->dict = nb::handle(dict).inc_ref().ptr();
          }
          slot->reads.push_back({t[1].inc_ref().ptr(), t[2].inc_ref().ptr()});
        }
        // The reads are what the snapshot saw, which another thread may have
        // re-bound since (while this function compiled). So: clear the stale
        // flag, watch the dicts (3.12+), then compare the reads with the
        // dicts: a re-binding before the watch is found here, one after it
        // by the watcher; either marks the new code stale.
        state.stale.store(false, std::memory_order_release);
#if PY_VERSION_HEX >= 0x030C0000
        unwatch(&state);
        {
          std::lock_guard<std::mutex> lock(watchMutex);
          for (auto &d : guard->dicts)
            for (Guard::Read &read : d->reads)
              watches[d->dict].emplace_back(read.key, &state);
        }
        for (auto &d : guard->dicts)
          if (PyDict_Watch(dictWatcher, d->dict) != 0)
            throw nb::python_error();
#endif
        bool current = true;
        for (auto &d : guard->dicts) {
          // Inside the dict's critical section (free-threaded builds): a
          // store that began before the watch existed has finished.
#if PY_VERSION_HEX >= 0x030D0000
          Py_BEGIN_CRITICAL_SECTION(d->dict);
#endif
#if PY_VERSION_HEX < 0x030C0000
          d->version.store(reinterpret_cast<PyDictObject *>(d->dict)->ma_version_tag);
#endif
          for (Guard::Read &read : d->reads) {
            PyObject *value = PyDict_GetItemWithError(d->dict, read.key);
            current &= value == read.value;
          }
#if PY_VERSION_HEX >= 0x030D0000
          Py_END_CRITICAL_SECTION();
#endif
        }
        PyErr_Clear();
        if (!current)
          state.stale.store(true, std::memory_order_release);
        if (const Guard *old = state.guard.exchange(guard.release()))
          EpochDomain::global().retire([old] { delete old; });
      },
      "Internal: what the current executors assumed (functions' code objects "
      "and (dict, key, value) global reads).");

  m.def("_invalidate", [](nb::handle self) {
    DispatchState &state = stateOf(self);
    state.table.clear();
    state.stale.store(false, std::memory_order_release);
    if (const Guard *old = state.guard.exchange(nullptr))
      EpochDomain::global().retire([old] { delete old; });
    state.invalidations.fetch_add(1, std::memory_order_relaxed);
    globalInvalidations.fetch_add(1, std::memory_order_relaxed);
  });

  m.def("_mark_stale", [](nb::handle self) {
    stateOf(self).stale.store(true, std::memory_order_release);
  });

  m.def("_record", [](nb::handle self, const std::string &event, double seconds) {
    DispatchState &state = stateOf(self);
    if (event == "wait") {
      state.waits.fetch_add(1, std::memory_order_relaxed);
      globalWaits.fetch_add(1, std::memory_order_relaxed);
    } else if (event == "compile") {
      state.compilations.fetch_add(1, std::memory_order_relaxed);
      state.compileNanoseconds.fetch_add(static_cast<int64_t>(seconds * 1e9),
                                         std::memory_order_relaxed);
    }
  });

  m.def("_stats", [](nb::handle self) {
    DispatchState &state = stateOf(self);
    int64_t live = 0, bytes = 0;
    {
      EpochDomain::ReadGuard pin(EpochDomain::global());
      if (const auto *snapshot = state.table.read())
        for (const Entry &entry : snapshot->entries) {
          ++live;
          bytes += static_cast<int64_t>(entry.executor->code->codeBytes());
        }
    }
    nb::dict stats;
    stats["compilations"] = state.compilations.load();
    stats["cache_hits"] = state.hits.total();
    stats["single_flight_waits"] = state.waits.load();
    stats["invalidations"] = state.invalidations.load();
    stats["interpreter_fallbacks"] = state.fallbacks.load();
    stats["live_executors"] = live;
    stats["jit_code_bytes"] = bytes;
    stats["compile_seconds"] = state.compileNanoseconds.load() * 1e-9;
    return stats;
  });

  m.def("stats", [] {
    // Free what no reader can hold any more, so the numbers are current.
    EpochDomain::global().collect();
    jit::CompilerStats core = jit::compilerStats();
    nb::dict stats;
    stats["compilations"] = core.compilations;
    stats["cache_hits"] = EpochDomain::global().eventCount();
    stats["single_flight_waits"] = globalWaits.load();
    stats["invalidations"] = globalInvalidations.load();
    stats["interpreter_fallbacks"] = globalFallbacks.load();
    stats["live_executors"] = core.liveExecutors;
    stats["jit_code_bytes"] = core.codeBytes;
    stats["compile_seconds"] = core.compileSeconds;
    stats["retired_pending"] = static_cast<int64_t>(EpochDomain::global().pending());
    return stats;
  });

  m.def(
      "_set_compile_rendezvous",
      [](const std::string &barrierId, unsigned participants, double timeout,
         const std::string &exitBarrierId) {
        jit::setCompileRendezvous(barrierId, participants, timeout, exitBarrierId);
      },
      nb::arg("barrier_id"), nb::arg("participants"), nb::arg("timeout"),
      nb::arg("exit_barrier_id") = "",
      "Test hook: compilations meet at a native barrier on entry (and on exit when "
      "exit_barrier_id is given); 0 participants clears.");

#if PY_VERSION_HEX >= 0x030C0000
  dictWatcher = PyDict_AddWatcher(onDictEvent);
  if (dictWatcher < 0)
    throw nb::python_error();
#endif
}

} // namespace plait::python
