//===- Dispatcher.cpp - the CPython call path of plait.jit ----------------===//
//
// DispatcherBase: its vectorcall (bind, look up without a lock, unbox, run,
// box), its type slots, and the operations the Python subclass calls.
//
//===----------------------------------------------------------------------===//
#include "Arguments.h"
#include "DispatchState.h"
#include "Results.h"

#include "plait/JIT/Compiler.h"
#include "plait/JIT/DispatchKey.h"
#include "plait/JIT/EntryABI.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <structmember.h> // T_PYSSIZET, READONLY for the vectorcall offset

#include <cstring>
#include <stdexcept>
#include <string_view>

namespace plait::dispatch {

using namespace detail;

namespace detail {

std::atomic<int64_t> globalWaits{0};
std::atomic<int64_t> globalInvalidations{0};
std::atomic<int64_t> globalFallbacks{0};

namespace {

PyTypeObject *dispatcherBaseType = nullptr;

/// The entry serving `key`: the exact one, or for explicit signatures
/// (`exactOnly` false) the first one the arguments convert to.
const Entry *lookup(const Snapshot *table, std::string_view key, bool exactOnly) {
  if (!table)
    return nullptr;
  for (const Entry &entry : table->entries)
    if (entry.key == key)
      return &entry;
  if (exactOnly)
    return nullptr;
  for (const Entry &entry : table->entries)
    if (jit::key::accepts(entry.key, key))
      return &entry;
  return nullptr;
}

/// Runs `entry` on the bound arguments (inside the caller's epoch read
/// section) and boxes its result. Sets `needsFallback` (and returns null,
/// with no error set) when the entry's speculation failed and it has no
/// fallback yet: the call changed nothing, and the caller has the fallback
/// compiled and calls again.
PyObject *run(DispatchState &state, const Entry &entry, BoundCall &call,
              EpochDomain::ReadGuard &pin, bool &needsFallback) {
  const jit::Executor &executor = *entry.executor;
  // What the call allocates (and the lists made for its list arguments) is
  // freed when the arena ends, except the arrays it returns, which become
  // NumPy arrays owning their memory.
  AllocationArena arena;
  PackedArguments packed(entry);
  if (!packed.unbox(state, entry, call))
    return nullptr;
  Scratch<int64_t, 8> results(executor.resultWords);
  jit::abi::ResultsDescriptor descriptor(results.get(), executor.resultWords);
  int32_t status = 0;
  packed.finish(descriptor.fields, &status);
  using Detach = CallConfiguration::Detach;
  auto invoke = [&](const jit::Executor &code) {
    if (state.detach == Detach::Always || (state.detach == Detach::WhenLong && code.info.mayRunLong)) {
      Py_BEGIN_ALLOW_THREADS
      code.call(packed.slots());
      Py_END_ALLOW_THREADS
    } else {
      code.call(packed.slots());
    }
  };
  invoke(executor);
  // A guard of speculative code failed before anything observable happened:
  // the same call again, on the code compiled without speculation (owned by
  // this executor, so alive as long as it is).
  const jit::Executor *ran = &executor;
  if (status != 0 && status == executor.info.speculationStatus) {
    ran = executor.fallback();
    if (!ran) {
      needsFallback = true;
      return nullptr;
    }
    status = 0;
    invoke(*ran);
  }
  state.hits.add(pin.shard());
  pin.countEvent();
  // Changes to list arguments reach the caller's lists, also when the call
  // raised (CPython's list would have changed up to the raise).
  ResultOwners owners{&arena, call.arguments, call.views, call.count, {}, &packed.listArrays()};
  if (!packed.reflectLists(entry, call, owners))
    return nullptr;
  if (status != 0)
    return raiseRunError(*ran, status);
  const int64_t *cursor = results.get();
  return boxResult(executor.info.resultType, cursor, entry.resultCast, owners);
}

/// self.<method>(key) for the dispatcher's Python side; false with the
/// error set when it raised.
bool callWithKey(PyObject *self, const char *method, std::string_view key) {
  PyObject *pyKey = PyUnicode_FromStringAndSize(key.data(), static_cast<Py_ssize_t>(key.size()));
  if (!pyKey)
    return false;
  PyObject *done = PyObject_CallMethod(self, method, "O", pyKey);
  Py_DECREF(pyKey);
  if (!done)
    return false;
  Py_DECREF(done);
  return true;
}

} // namespace

DispatchState *stateOf(PyObject *self) {
  if (!dispatcherBaseType || !PyObject_TypeCheck(self, dispatcherBaseType)) {
    PyErr_SetString(PyExc_TypeError, "expected a plait dispatcher");
    return nullptr;
  }
  return reinterpret_cast<DispatcherObject *>(self)->state;
}

PyObject *dispatcherCall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  DispatchState &state = *reinterpret_cast<DispatcherObject *>(self)->state;
  BoundCall call;
  if (!bindArguments(state, args, nargsf, kwnames, call))
    return nullptr;
  std::string_view key(call.key, call.keyLength);

  // Fast path inside an epoch read section (no lock): the snapshot and the
  // executors it lists stay alive until the section ends. Slow paths (stale
  // guard, miss) call into Python outside it, then look again.
  for (int attempt = 0; attempt < kMaxCallAttempts; ++attempt) {
    bool stale = false;
    std::string speculated; // the key of an entry whose speculation failed
    {
      static EpochDomain &domain = EpochDomain::global();
      EpochDomain::ReadGuard pin(domain);
      stale = !guardHolds(state);
      if (const Entry *entry = stale ? nullptr : lookup(state.table.read(), key, state.lazy)) {
        bool needsFallback = false;
        PyObject *result = run(state, *entry, call, pin, needsFallback);
        if (!needsFallback)
          return result;
        speculated = entry->key;
      }
    }
    if (!speculated.empty()) {
      // Compiles the fallback and attaches it to the entry's executor.
      if (!callWithKey(self, "_speculation_failed", speculated))
        return nullptr;
      continue;
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
      PyErr_Format(PyExc_TypeError, "%s() has no compiled signature for arguments (%s)",
                   state.name.c_str(), describeArguments(call).c_str());
      return nullptr;
    }
    // Miss: the Python side snapshots, compiles (detached) and installs.
    if (!callWithKey(self, "_miss", key))
      return nullptr;
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

} // namespace detail

//===----------------------------------------------------------------------===//
// The type
//===----------------------------------------------------------------------===//

namespace {

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
    unwatch(d->state);
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
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    dispatcherSlots};

} // namespace

bool detail::isDispatcher(PyObject *object) {
  return dispatcherBaseType && PyObject_TypeCheck(object, dispatcherBaseType);
}

PyObject *createDispatcherType() {
  if (!startWatchingDicts())
    return nullptr;
  PyObject *type = PyType_FromSpec(&dispatcherSpec);
  if (type && !dispatcherBaseType)
    dispatcherBaseType = reinterpret_cast<PyTypeObject *>(Py_NewRef(type)); // for the process
  return type;
}

bool enableVectorcall(PyObject *base, PyObject *subclass) {
  if (!PyType_Check(subclass) ||
      !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(subclass), reinterpret_cast<PyTypeObject *>(base))) {
    PyErr_SetString(PyExc_TypeError, "not a DispatcherBase subclass");
    return false;
  }
  auto *type = reinterpret_cast<PyTypeObject *>(subclass);
  if (type->tp_call == PyVectorcall_Call && type->tp_vectorcall_offset) {
    type->tp_flags |= Py_TPFLAGS_HAVE_VECTORCALL;
    PyType_Modified(type);
  }
  return true;
}

bool configure(PyObject *self, const CallConfiguration &configuration) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  if (configuration.parameters.size() > kMaxParameters) {
    PyErr_Format(PyExc_ValueError, "plait.jit supports at most %zu parameters", kMaxParameters);
    return false;
  }
  if (configuration.defaults.size() + (configuration.varargs ? 1 : 0) >
      configuration.parameters.size()) {
    PyErr_SetString(PyExc_ValueError, "more defaults than parameters");
    return false;
  }
  state->name = configuration.name;
  state->params = configuration.parameters;
  state->varargs = configuration.varargs;
  for (PyObject *old : state->defaults)
    Py_DECREF(old);
  state->defaults.clear();
  for (PyObject *value : configuration.defaults)
    state->defaults.push_back(Py_NewRef(value));
  state->detach = configuration.detach;
  state->lazy = configuration.lazy;
  return true;
}

bool install(PyObject *self, std::string key, std::string kinds, char resultCast,
             std::shared_ptr<jit::Executor> executor) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  size_t parts = 0;
  try {
    parts = jit::key::split(key).size();
  } catch (const std::invalid_argument &error) {
    PyErr_SetString(PyExc_ValueError, error.what());
    return false;
  }
  if (parts != state->params.size() || kinds.size() != parts) {
    PyErr_SetString(PyExc_ValueError, "the key and kinds must have one part per parameter");
    return false;
  }
  state->table.insert(Entry{std::move(key), std::move(kinds), resultCast, std::move(executor)});
  return true;
}

bool recordEvent(PyObject *self, Event event, double seconds) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  if (event == Event::SingleFlightWait) {
    state->waits.fetch_add(1, std::memory_order_relaxed);
    globalWaits.fetch_add(1, std::memory_order_relaxed);
  } else {
    state->compilations.fetch_add(1, std::memory_order_relaxed);
    state->compileNanoseconds.fetch_add(static_cast<int64_t>(seconds * 1e9), std::memory_order_relaxed);
  }
  return true;
}

bool statsOf(PyObject *self, DispatchStats &stats) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  {
    EpochDomain::ReadGuard pin(EpochDomain::global());
    if (const Snapshot *snapshot = state->table.read())
      for (const Entry &entry : snapshot->entries) {
        ++stats.liveExecutors;
        stats.codeBytes += static_cast<int64_t>(entry.executor->code->codeBytes());
      }
  }
  stats.compilations = state->compilations.load();
  stats.cacheHits = state->hits.total();
  stats.singleFlightWaits = state->waits.load();
  stats.invalidations = state->invalidations.load();
  stats.interpreterFallbacks = state->fallbacks.load();
  stats.compileSeconds = state->compileNanoseconds.load() * 1e-9;
  return true;
}

DispatchStats processStats() {
  EpochDomain::global().collect();
  jit::CompilerStats compiler = jit::compilerStats();
  DispatchStats stats;
  stats.compilations = compiler.compilations;
  stats.liveExecutors = compiler.liveExecutors;
  stats.codeBytes = compiler.codeBytes;
  stats.compileSeconds = compiler.compileSeconds;
  stats.cacheHits = EpochDomain::global().eventCount();
  stats.singleFlightWaits = globalWaits.load();
  stats.invalidations = globalInvalidations.load();
  stats.interpreterFallbacks = globalFallbacks.load();
  stats.retiredPending = static_cast<int64_t>(EpochDomain::global().pending());
  return stats;
}

} // namespace plait::dispatch
