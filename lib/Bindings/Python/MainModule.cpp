//===- MainModule.cpp - the plait._core extension module ------------------===//
#include "Bindings.h"

#include "plait/Support/Error.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <typeinfo>

using namespace plait;
using namespace plait::python;

namespace plait::python {
/// plait.ir.MLIRError, defined in Python and handed over at import; set once.
std::atomic<PyObject *> mlirErrorClass{nullptr};
} // namespace plait::python

static void raiseMlirError(const MlirError &error) {
  PyObject *cls = mlirErrorClass.load();
  if (!cls) {
    PyErr_SetString(PyExc_RuntimeError, error.what());
    return;
  }
  nb::list diagnostics;
  for (const DiagnosticInfo &diagnostic : error.diagnostics())
    diagnostics.append(nb::cast(diagnostic));
  nb::object instance = nb::borrow(cls)(error.message(), diagnostics);
  PyErr_SetObject(cls, instance.ptr());
}

NB_MODULE(_core, m) {
  m.doc() = "plait's native core (MLIR and LLVM); use the plait.* modules";

  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const MlirError &e) {
      raiseMlirError(e);
    } catch (const TypeMismatchError &e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const NotFoundError &e) {
      PyErr_SetString(PyExc_KeyError, e.what());
    } catch (const InvalidArgumentError &e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const OutOfRangeError &e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const InvalidHandleError &e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const FileError &e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const std::bad_cast &) {
      // A Python object of the wrong kind reached a typed conversion.
      PyErr_SetString(PyExc_TypeError, "an argument is not of the expected plait.ir type");
    }
  });

  nb::module_ ir = m.def_submodule("ir", "MLIR contexts, modules and IR");
  populateIR(ir);
  nb::module_ passmanager = m.def_submodule("passmanager", "Pass pipelines");
  populatePassManager(passmanager);
  nb::module_ engine = m.def_submodule("execution_engine", "JIT engines");
  populateExecutionEngine(engine);
  nb::module_ testing = m.def_submodule("testing", "Test hooks");
  populateTesting(testing);
  nb::module_ jit = m.def_submodule("jit", "plait.jit's native half");
  populateJIT(jit);
}
