//===- Dispatcher.h - the CPython call path of plait.jit --------*- C++ -*-===//
//
// A @plait.jit function is an instance of a small CPython type with
// vectorcall (DispatcherBase, subclassed in Python). A call binds and
// classifies its arguments into a dispatch key (DispatchKey.h), finds the
// executor in the function's immutable table snapshot (one atomic load, no
// lock), unboxes the arguments into the packed entry's slots (EntryABI.h),
// runs native code (detached when it may run long), and boxes the result.
// A miss calls the subclass's `_miss(key)`, which compiles and install()s;
// a failed guard calls `_stale()`, which invalidate()s.
//
// This component uses only CPython's C API: the bindings adapt it to
// nanobind. Functions return false or null with a Python exception set when
// they fail (as CPython's do), also when `self` is not a DispatcherBase. See docs/design/executors.md for the
// threading rules.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DISPATCHER_DISPATCHER_H
#define PLAIT_DISPATCHER_DISPATCHER_H

#include <Python.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace plait::jit {
struct Executor;
} // namespace plait::jit

namespace plait::dispatch {

/// The most parameters a jitted function may have.
constexpr size_t kMaxParameters = 32;

/// A new reference to the DispatcherBase type, created once per module;
/// also registers the dict watcher that guards read globals (3.12+).
PyObject *createDispatcherType();

/// Python 3.11 does not let heap subclasses inherit vectorcall (3.12 does
/// when tp_call is inherited): without it every call packs a tuple.
bool enableVectorcall(PyObject *base, PyObject *subclass);

/// How calls bind arguments and when they release the GIL. `defaults` are
/// borrowed; the dispatcher keeps references.
struct CallConfiguration {
  std::string name;
  std::vector<std::string> parameters;
  bool varargs = false;             // the last parameter is *args
  std::vector<PyObject *> defaults; // of the last named parameters
  enum class Detach { Never, Always, WhenLong } detach = Detach::WhenLong;
  /// Compile on a miss (true) or accept only explicit signatures, to which
  /// arguments convert (false).
  bool lazy = true;
};
bool configure(PyObject *self, const CallConfiguration &configuration);

/// Makes print() in compiled code write through this interpreter's
/// builtins.print (called when the extension module loads).
void installPrintHandler();

/// Makes `executor` serve calls whose arguments have dispatch key `key`;
/// `kinds` says how each argument is unboxed and `resultCast` (0, 'f', 'F',
/// 'i', 'I', 'c', 'b') how the result is converted to an explicit
/// signature's declared type.
bool install(PyObject *self, std::string key, std::string kinds, char resultCast,
             std::shared_ptr<jit::Executor> executor);

/// What the compiled code assumed: `functions` (a list of functions whose
/// __code__ it compiled) and `reads` (a list of (dict, key, value) global
/// reads). Replaces the previous guard; marks the dispatcher stale at once
/// if a read no longer holds.
bool setGuard(PyObject *self, PyObject *functions, PyObject *reads);
/// Unlinks every executor and the guard; running calls finish first.
bool invalidate(PyObject *self);
/// The next call invalidates and recompiles (a dependency changed).
bool markStale(PyObject *self);

enum class Event { SingleFlightWait, Compilation };
bool recordEvent(PyObject *self, Event event, double seconds);

/// plait.stats() and Dispatcher.stats(): calls served by compiled code
/// (cacheHits), compilations, and the executors alive.
struct DispatchStats {
  int64_t compilations = 0, cacheHits = 0, singleFlightWaits = 0, invalidations = 0;
  int64_t interpreterFallbacks = 0, liveExecutors = 0, codeBytes = 0;
  double compileSeconds = 0;
  /// Process-wide only: retired tables and executors not yet freed.
  int64_t retiredPending = 0;
};
/// One dispatcher's counters.
bool statsOf(PyObject *self, DispatchStats &stats);
/// The process's (the compiler's counters and every dispatcher's).
DispatchStats processStats();

} // namespace plait::dispatch

#endif // PLAIT_DISPATCHER_DISPATCHER_H
