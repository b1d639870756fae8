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

#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <structmember.h> // T_PYSSIZET, READONLY for the vectorcall offset

#include <atomic>
#include <cstring>
#include <mutex>

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
  if (PyLong_Check(o))
    return 'i';
  if (PyFloat_Check(o))
    return 'f';
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
  default:
    return "?";
  }
}

/// One compiled signature in a dispatch table.
struct Entry {
  std::string codes; // classification of the arguments it takes: i, f, b
  std::string kinds; // unboxing: i, f, b, I (int32), F (float32)
  char resultCast = 0; // 0, 'f' (to float), 'F' (float32), 'I' (int32)
  std::shared_ptr<jit::Executor> executor;
};

/// An immutable snapshot; replaced (copy-on-write) on install.
struct Table {
  std::vector<Entry> entries;
};

struct DispatchState {
  std::atomic<const Table *> table{nullptr};
  std::mutex installMutex; // guards retired and the swap of `table`
  /// Earlier snapshots: a reader may still hold one. Freed with the dispatcher.
  std::vector<std::unique_ptr<const Table>> retired;
  int nogil = 2; // 0 never, 1 always, 2 auto
  bool lazy = true;
  std::vector<std::string> params;
  std::vector<PyObject *> defaults; // strong references, set once
  std::string name = "function";
};

struct DispatcherObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *dict;
  PyObject *weakrefs;
  DispatchState *state;
};

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
  PyErr_SetString(cls, site.message.c_str());
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

PyObject *box(const Type &type, const int64_t *&slot, char cast) {
  switch (type.kind) {
  case Type::Kind::None:
    Py_RETURN_NONE;
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
      PyObject *item = box(type.elements[i], slot, 0);
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

const Entry *lookup(const Table *table, const char *codes, size_t n,
                    bool exactOnly) {
  if (!table)
    return nullptr;
  for (const Entry &entry : table->entries)
    if (entry.codes.size() == n && std::memcmp(entry.codes.data(), codes, n) == 0)
      return &entry;
  if (exactOnly)
    return nullptr;
  // Eager signatures: accept safe conversions bool -> int -> float.
  auto rank = [](char c) { return c == 'b' ? 0 : c == 'i' ? 1 : 2; };
  for (const Entry &entry : table->entries) {
    if (entry.codes.size() != n)
      continue;
    bool ok = true;
    for (size_t i = 0; i < n && ok; ++i)
      ok = rank(codes[i]) <= rank(entry.codes[i]);
    if (ok)
      return &entry;
  }
  return nullptr;
}

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
  char codes[kMaxArgs];
  for (size_t i = 0; i < n; ++i) {
    if (!bound[i]) {
      if (i < firstDefault) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument: '%s'",
                     state.name.c_str(), state.params[i].c_str());
        return nullptr;
      }
      bound[i] = state.defaults[i - firstDefault];
    }
    codes[i] = classify(bound[i]);
    if (!codes[i]) {
      PyErr_Format(PyExc_TypeError,
                   "%s() argument %zu ('%s') must be int, float or bool, not %s",
                   state.name.c_str(), i + 1, state.params[i].c_str(),
                   Py_TYPE(bound[i])->tp_name);
      return nullptr;
    }
  }

  const Entry *entry =
      lookup(state.table.load(std::memory_order_acquire), codes, n, state.lazy);
  if (!entry) {
    if (!state.lazy) {
      std::string got;
      for (size_t i = 0; i < n; ++i)
        got += std::string(i ? ", " : "") + kindName(codes[i]);
      PyErr_Format(PyExc_TypeError,
                   "%s() has no compiled signature for arguments (%s)",
                   state.name.c_str(), got.c_str());
      return nullptr;
    }
    // Slow path: the Python side snapshots, compiles (detached), installs.
    PyObject *key = PyUnicode_FromStringAndSize(codes, static_cast<Py_ssize_t>(n));
    if (!key)
      return nullptr;
    PyObject *done = PyObject_CallMethod(self, "_miss", "O", key);
    Py_DECREF(key);
    if (!done)
      return nullptr;
    Py_DECREF(done);
    entry = lookup(state.table.load(std::memory_order_acquire), codes, n, true);
    if (!entry) {
      PyErr_SetString(PyExc_RuntimeError, "internal: compiled signature was not installed");
      return nullptr;
    }
  }

  int64_t slots[kMaxArgs];
  for (size_t i = 0; i < n; ++i)
    if (!unbox(bound[i], entry->kinds[i], slots[i], state, i))
      return nullptr;
  int64_t results[kMaxArgs];
  const jit::Executor &executor = *entry->executor;
  int32_t status;
  bool detach = state.nogil == 1 || (state.nogil == 2 && executor.info.mayRunLong);
  if (detach) {
    Py_BEGIN_ALLOW_THREADS
    status = executor.call(slots, results);
    Py_END_ALLOW_THREADS
  } else {
    status = executor.call(slots, results);
  }
  if (status != 0)
    return raiseRunError(executor, status);
  const int64_t *cursor = results;
  return box(executor.info.resultType, cursor, entry->resultCast);
}

int dispatcherTraverse(PyObject *self, visitproc visit, void *arg) {
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(d->dict);
  if (d->state)
    for (PyObject *o : d->state->defaults)
      Py_VISIT(o);
  return 0;
}

int dispatcherClear(PyObject *self) {
  auto *d = reinterpret_cast<DispatcherObject *>(self);
  Py_CLEAR(d->dict);
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
    for (PyObject *o : d->state->defaults)
      Py_DECREF(o);
    delete d->state->table.load();
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

Type typeFromName(const std::string &name, char &kind) {
  bool narrow = false;
  Type t = jit::parseTypeName(name, narrow);
  kind = t.kind == Type::Kind::Bool ? 'b' : t.kind == Type::Kind::Int ? (narrow ? 'I' : 'i')
                                                                      : (narrow ? 'F' : 'f');
  return t;
}

} // namespace

namespace plait::python {

void populateJIT(nb::module_ &m) {
  PyObject *type = PyType_FromSpec(&dispatcherSpec);
  if (!type)
    throw nb::python_error();
  m.attr("DispatcherBase") = nb::steal(type);

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
         const std::map<std::string, std::string> &messages, unsigned optLevel) {
        jit::CompileRequest request;
        request.snapshot = snapshot;
        request.entryFunction = entry;
        for (const std::string &name : types) {
          char kind;
          request.argumentTypes.push_back(typeFromName(name, kind));
        }
        request.options.checkOverflow = checkOverflow;
        request.options.fastmath = fastmath;
        request.options.recursionLimit = recursionLimit;
        request.options.messages = messages;
        request.optLevel = optLevel;
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
      nb::arg("opt_level") = 2);

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
          DispatchState &state = stateOf(self);
          Entry entry{codes, kinds, resultCast.empty() ? '\0' : resultCast[0],
                      std::move(executor)};
          std::lock_guard<std::mutex> guard(state.installMutex);
          const Table *old = state.table.load(std::memory_order_relaxed);
          auto next = std::make_unique<Table>();
          if (old)
            next->entries = old->entries;
          next->entries.push_back(std::move(entry));
          state.table.store(next.release(), std::memory_order_release);
          if (old)
            state.retired.emplace_back(old);
        });
}

} // namespace plait::python
