//===- Guards.cpp - when compiled code no longer matches Python -----------===//
//
// Compiled code assumed the __code__ of the functions it compiled and the
// values of the globals it read. A guard records both; calls check it on
// the fast path (pointer comparisons, and on 3.11 a dict version), and on
// 3.12+ dict watchers mark the dispatcher stale as soon as a read global is
// re-bound.
//
//===----------------------------------------------------------------------===//
#include "DispatchState.h"

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace plait::dispatch {

using namespace detail;

namespace detail {

Guard::~Guard() {
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

#if PY_VERSION_HEX >= 0x030C0000
namespace {

// `watchMutex` guards `watches`; a leaf lock (nothing is called while it is
// held) taken by the watcher callback and by (un)registration.
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

} // namespace

bool startWatchingDicts() {
  if (dictWatcher >= 0)
    return true;
  dictWatcher = PyDict_AddWatcher(onDictEvent);
  return dictWatcher >= 0;
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

/// Watches the guard's dicts for `state` (instead of its previous guard's).
static bool watch(DispatchState &state, const Guard &guard) {
  unwatch(&state);
  {
    std::lock_guard<std::mutex> lock(watchMutex);
    for (auto &d : guard.dicts)
      for (const Guard::Read &read : d->reads)
        watches[d->dict].emplace_back(read.key, &state);
  }
  for (auto &d : guard.dicts)
    if (PyDict_Watch(dictWatcher, d->dict) != 0)
      return false;
  return true;
}
#else
bool startWatchingDicts() { return true; }
void unwatch(DispatchState *) {}
#endif

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

} // namespace detail

namespace {

/// The guard described by setGuard's arguments, or null with an exception.
std::unique_ptr<Guard> buildGuard(PyObject *functions, PyObject *reads) {
  if (!PyList_Check(functions) || !PyList_Check(reads)) {
    PyErr_SetString(PyExc_TypeError, "a guard takes a list of functions and a list of reads");
    return nullptr;
  }
  auto guard = std::make_unique<Guard>();
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE(functions); ++k) {
    PyObject *function = PyList_GET_ITEM(functions, k);
    if (!PyFunction_Check(function)) {
      PyErr_SetString(PyExc_TypeError, "a guard's functions must be Python functions");
      return nullptr;
    }
    PyObject *code = PyFunction_GET_CODE(function);
    guard->codes.emplace_back(Py_NewRef(function), Py_NewRef(code));
  }
  for (Py_ssize_t k = 0; k < PyList_GET_SIZE(reads); ++k) {
    PyObject *read = PyList_GET_ITEM(reads, k);
    if (!PyTuple_Check(read) || PyTuple_GET_SIZE(read) != 3 || !PyDict_Check(PyTuple_GET_ITEM(read, 0))) {
      PyErr_SetString(PyExc_TypeError, "a guard's reads must be (dict, key, value) tuples");
      return nullptr;
    }
    PyObject *dict = PyTuple_GET_ITEM(read, 0);
    Guard::Dict *slot = nullptr;
    for (auto &d : guard->dicts)
      if (d->dict == dict)
        slot = d.get();
    if (!slot) {
      guard->dicts.push_back(std::make_unique<Guard::Dict>());
      slot = guard->dicts.back().get();
      slot->dict = Py_NewRef(dict);
    }
    slot->reads.push_back({Py_NewRef(PyTuple_GET_ITEM(read, 1)), Py_NewRef(PyTuple_GET_ITEM(read, 2))});
  }
  return guard;
}

/// Whether every read still sees the value it recorded (and, on 3.11,
/// remembers the dicts' versions for the fast path).
bool readsHold(Guard &guard) {
  bool current = true;
  for (auto &d : guard.dicts) {
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
  return current;
}

} // namespace

bool setGuard(PyObject *self, PyObject *functions, PyObject *reads) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  std::unique_ptr<Guard> guard = buildGuard(functions, reads);
  if (!guard)
    return false;
  state->stale.store(false, std::memory_order_release);
#if PY_VERSION_HEX >= 0x030C0000
  // Watch before validating: a re-binding after the check is then seen.
  if (!watch(*state, *guard))
    return false;
#endif
  if (!readsHold(*guard))
    state->stale.store(true, std::memory_order_release);
  if (const Guard *old = state->guard.exchange(guard.release()))
    EpochDomain::global().retire([old] { delete old; });
  return true;
}

bool invalidate(PyObject *self) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  state->table.clear();
  state->stale.store(false, std::memory_order_release);
  if (const Guard *old = state->guard.exchange(nullptr))
    EpochDomain::global().retire([old] { delete old; });
  state->invalidations.fetch_add(1, std::memory_order_relaxed);
  globalInvalidations.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool markStale(PyObject *self) {
  DispatchState *state = stateOf(self);
  if (!state)
    return false;
  state->stale.store(true, std::memory_order_release);
  return true;
}

} // namespace plait::dispatch
