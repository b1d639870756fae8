//===- Bindings.h - shared glue for plait._core -----------------*- C++ -*-===//
//
// Thin glue only: Python objects are converted to C++ values while attached,
// then the core is called detached (threading rules 1-3).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_BINDINGS_PYTHON_BINDINGS_H
#define PLAIT_BINDINGS_PYTHON_BINDINGS_H

#include "plait/IR/Module.h"

#include <nanobind/nanobind.h>

#include <memory>
#include <utility>

namespace plait::python {

namespace nb = nanobind;

/// Runs `fn` with the GIL released (the thread state detached on free-threaded
/// builds). `fn` must not touch Python objects.
template <typename Fn>
auto detached(Fn &&fn) -> decltype(fn()) {
  nb::gil_scoped_release release;
  return fn();
}

/// A Python object that native code may drop on any thread: its destructor
/// acquires the GIL for the decref (threading rule 2).
class GilSafeObject {
public:
  explicit GilSafeObject(nb::object object) : object(std::move(object)) {}
  ~GilSafeObject() {
    if (!object.is_valid() || !Py_IsInitialized())
      return;
    nb::gil_scoped_acquire acquire;
    object.reset();
  }
  GilSafeObject(const GilSafeObject &) = delete;
  GilSafeObject &operator=(const GilSafeObject &) = delete;
  const nb::object &get() const { return object; }

private:
  nb::object object;
};

/// plait.ir.Context: the Python face of a plait::Context.
struct PyContext {
  std::shared_ptr<Context> context;
};

/// plait.ir.Module: keeps the Python Context object alive (and identical).
struct PyModule {
  nb::object pyContext;
  std::shared_ptr<Module> module;
};

/// plait.ir.Operation (and, through Python subclasses, every OpView).
struct PyOperation {
  nb::object pyContext;
  OperationRef ref;
};

/// The context to use: `context` when given, else the thread's current one
/// (ValueError when there is none).
nb::object resolveContext(const nb::object &context);
PyContext &unwrapContext(const nb::object &context);
/// The operation of a plait.ir.Module or plait.ir.Operation (TypeError else).
OperationRef toOperationRef(const nb::handle &object);
/// The Python object for an operation: an instance of the OpView class
/// registered for its name (plait.dialects), else a plain Operation.
nb::object wrapOperation(const nb::object &pyContext, OperationRef ref);

void populateIR(nb::module_ &m);
void populatePassManager(nb::module_ &m);
void populateExecutionEngine(nb::module_ &m);
void populateTesting(nb::module_ &m);
void populateJIT(nb::module_ &m);

} // namespace plait::python

#endif // PLAIT_BINDINGS_PYTHON_BINDINGS_H
