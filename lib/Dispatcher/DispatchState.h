//===- DispatchState.h - what a dispatcher object holds ---------*- C++ -*-===//
//
// Private to the dispatcher component: the table of executors, the guard of
// what they assumed, the call configuration and the counters of one
// @plait.jit function, and the process-wide counters.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DISPATCHER_DISPATCHSTATE_H
#define PLAIT_DISPATCHER_DISPATCHSTATE_H

#include "plait/Dispatcher/DispatchTable.h"
#include "plait/Dispatcher/Dispatcher.h"

#include <Python.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace plait::dispatch::detail {

/// One compiled signature in a dispatch table.
struct Entry {
  /// The dispatch key it serves (DispatchKey.h).
  std::string key;
  /// Unboxing per argument: i, f, b, c (complex: two slots), I (int32),
  /// F (float32), A (array), N (NumPy scalar: its bytes).
  std::string kinds;
  char resultCast = 0; // 0, or the declared result type (Dispatcher.h)
  std::shared_ptr<jit::Executor> executor;
};

using Snapshot = DispatchTable<Entry>::Snapshot;

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

  ~Guard();
};

/// A counter written by many threads: sharded to keep cache lines private.
struct ShardedCounter {
  struct alignas(64) Shard {
    std::atomic<int64_t> value{0};
  };
  Shard shards[8];
  /// `shard`: any per-thread number (the epoch record's), spreads writers.
  void add(size_t shard) { shards[shard % 8].value.fetch_add(1, std::memory_order_relaxed); }
  int64_t total() const {
    int64_t sum = 0;
    for (const Shard &s : shards)
      sum += s.value.load(std::memory_order_relaxed);
    return sum;
  }
};

struct DispatchState {
  DispatchTable<Entry> table;
  std::atomic<const Guard *> guard{nullptr};
  /// Set when a watched global changed (3.12+) or a dependency was
  /// invalidated; the next call invalidates and recompiles.
  std::atomic<bool> stale{false};
  CallConfiguration::Detach detach = CallConfiguration::Detach::WhenLong;
  bool lazy = true;
  std::vector<std::string> params;
  bool varargs = false;             // the last parameter is *args
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

/// Process-wide dispatch statistics (compilation ones live in the core; the
/// process-wide call count lives in the epoch domain's per-thread records).
extern std::atomic<int64_t> globalWaits;
extern std::atomic<int64_t> globalInvalidations;
extern std::atomic<int64_t> globalFallbacks;

/// Invalidations a call tolerates before the interpreter runs it instead.
constexpr int kMaxCallAttempts = 4;

/// Whether `object` is a jitted function (a DispatcherBase instance).
bool isDispatcher(PyObject *object);

struct DispatcherObject {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  PyObject *dict;
  PyObject *weakrefs;
  DispatchState *state;
};

/// A process-lifetime object (a borrowed reference), made once; null
/// when `make` fails, to be tried again: a lost race (threads may run
/// together on free-threaded builds, or while one imports) drops the copy.
template <typename Make> PyObject *cachedObject(std::atomic<PyObject *> &cache, Make make) {
  PyObject *object = cache.load(std::memory_order_acquire);
  if (object)
    return object;
  PyObject *fresh = make();
  if (!fresh)
    return nullptr;
  PyObject *expected = nullptr;
  if (cache.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel))
    return fresh;
  Py_DECREF(fresh);
  return expected;
}

/// The state of a DispatcherBase instance, or null with a TypeError.
DispatchState *stateOf(PyObject *self);

/// The fast-path guard: a few pointer comparisons while nothing changed.
bool guardHolds(DispatchState &state);
/// Starts watching globals dicts (3.12+); once per process.
bool startWatchingDicts();
/// Stops watching on behalf of `state` (its dispatcher is going away).
void unwatch(DispatchState *state);

/// The vectorcall of DispatcherBase.
PyObject *dispatcherCall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames);

} // namespace plait::dispatch::detail

#endif // PLAIT_DISPATCHER_DISPATCHSTATE_H
