//===- IRModule.cpp - plait.ir glue ---------------------------------------===//
#include "IRBindings.h"

#include "plait/IR/Module.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <vector>

using namespace plait;
using namespace plait::python;

namespace plait::python {
extern std::atomic<PyObject *> mlirErrorClass;
} // namespace plait::python

namespace {

/// The `with Context():` stack of this thread: strong references, balanced by
/// __enter__/__exit__.
thread_local std::vector<PyObject *> contextStack;

/// A diagnostic handler attached to a context; detaching is idempotent.
struct HandlerState {
  explicit HandlerState(nb::object callable) : callable(std::move(callable)) {}
  GilSafeObject callable;
  std::atomic<bool> hadError{false};
};

struct PyDiagnosticHandler {
  std::shared_ptr<Context> context;
  std::shared_ptr<HandlerState> state;
  uint64_t id;
  std::atomic<bool> attached{true};

  void detach() {
    if (attached.exchange(false))
      context->detachDiagnosticHandler(id);
  }
};

} // namespace

namespace plait::python {

nb::object resolveContext(const nb::object &context) {
  if (!context.is_none()) {
    if (!nb::isinstance<PyContext>(context))
      throw nb::type_error("context must be a plait.ir.Context");
    return context;
  }
  if (contextStack.empty())
    throw nb::value_error("no Context given and no current Context: pass "
                          "context=... or use `with plait.ir.Context():`");
  return nb::borrow(contextStack.back());
}

PyContext &unwrapContext(const nb::object &context) {
  return nb::cast<PyContext &>(context);
}

Context &nativeContext(const nb::object &pyContext) { return *unwrapContext(pyContext).context; }

OperationRef toOperationRef(const nb::handle &object) {
  if (nb::isinstance<PyModule>(object))
    return detached([&] { return nb::cast<PyModule &>(object).module->getOperation(); });
  if (nb::isinstance<PyOperation>(object))
    return nb::cast<PyOperation &>(object).ref;
  throw nb::type_error("expected a plait.ir.Module or plait.ir.Operation");
}

void populateIR(nb::module_ &m) {
  populateIRTypes(m);
  populateIRAttributes(m);
  populateIRCore(m);
  populateIRInterfaces(m);
  m.def(
      "_set_mlir_error_class",
      [](nb::handle cls) {
        PyObject *expected = nullptr;
        Py_INCREF(cls.ptr()); // kept for the life of the process
        if (!mlirErrorClass.compare_exchange_strong(expected, cls.ptr()))
          Py_DECREF(cls.ptr());
      },
      "Internal: the Python class raised for MLIR failures.");

  nb::enum_<DiagnosticSeverity>(m, "DiagnosticSeverity")
      .value("ERROR", DiagnosticSeverity::Error)
      .value("WARNING", DiagnosticSeverity::Warning)
      .value("NOTE", DiagnosticSeverity::Note)
      .value("REMARK", DiagnosticSeverity::Remark);

  nb::class_<DiagnosticInfo>(m, "Diagnostic",
                             "A diagnostic copied out of MLIR.")
      .def_ro("severity", &DiagnosticInfo::severity)
      .def_ro("message", &DiagnosticInfo::message)
      .def_ro("location", &DiagnosticInfo::location,
              "'file:line:col' for file locations")
      .def_ro("notes", &DiagnosticInfo::notes)
      .def("__str__", &DiagnosticInfo::str)
      .def("__repr__", [](const DiagnosticInfo &d) {
        return "<Diagnostic " + d.str() + ">";
      });

  nb::class_<PyDiagnosticHandler>(m, "DiagnosticHandler")
      .def("detach", &PyDiagnosticHandler::detach,
           "Stop receiving diagnostics (idempotent).")
      .def_prop_ro("attached",
                   [](PyDiagnosticHandler &h) { return h.attached.load(); })
      .def_prop_ro("had_error",
                   [](PyDiagnosticHandler &h) {
                     return h.state->hadError.load();
                   },
                   "True when the callable raised.")
      .def("__enter__", [](nb::handle self) { return nb::borrow(self); })
      .def("__exit__", [](PyDiagnosticHandler &h, nb::args) { h.detach(); });

  nb::class_<PyContext>(m, "Context", nb::is_weak_referenceable(),
                        "Owns MLIR IR; thread-compatible (one lock per "
                        "context), all upstream dialects available.")
      .def(
          "__init__",
          [](PyContext *self) { new (self) PyContext{detached([] { return Context::create(); })}; })
      .def("__enter__",
           [](nb::handle self) {
             contextStack.push_back(self.inc_ref().ptr());
             return nb::borrow(self);
           })
      .def("__exit__",
           [](nb::handle self, nb::args) {
             if (contextStack.empty() || contextStack.back() != self.ptr())
               throw std::runtime_error(
                   "Context.__exit__ does not match the current Context");
             contextStack.pop_back();
             self.dec_ref();
           })
      .def_prop_ro_static(
          "current",
          [](nb::handle) -> nb::object {
            if (contextStack.empty())
              throw nb::value_error("no current Context");
            return nb::borrow(contextStack.back());
          },
          "The innermost `with` Context of this thread (ValueError if none).")
      .def_prop_rw(
          "emit_error_diagnostics",
          [](PyContext &c) { return c.context->getEmitErrorDiagnostics(); },
          [](PyContext &c, bool value) { c.context->setEmitErrorDiagnostics(value); },
          "When True, error diagnostics go to the handlers instead of being "
          "captured onto MLIRError.")
      .def(
          "attach_diagnostic_handler",
          [](PyContext &c, nb::callable callable) {
            auto state = std::make_shared<HandlerState>(callable);
            uint64_t id = c.context->attachDiagnosticHandler(
                [state](const DiagnosticInfo &diagnostic) -> bool {
                  nb::gil_scoped_acquire acquire;
                  try {
                    nb::object result =
                        state->callable.get()(nb::cast(diagnostic));
                    return PyObject_IsTrue(result.ptr()) == 1;
                  } catch (nb::python_error &error) {
                    state->hadError.store(true);
                    error.discard_as_unraisable(state->callable.get());
                  } catch (const std::exception &) {
                    state->hadError.store(true);
                  }
                  return false;
                });
            auto *handler = new PyDiagnosticHandler();
            handler->context = c.context;
            handler->state = std::move(state);
            handler->id = id;
            return handler;
          },
          nb::rv_policy::take_ownership,
          "Calls `callable(diagnostic)` for diagnostics that are not captured; "
          "it returns True when it handled the diagnostic.")
      .def_prop_rw(
          "allow_unregistered_dialects",
          [](PyContext &c) { return allowsUnregisteredDialects(*c.context); },
          [](PyContext &c, bool allow) {
            detached([&] { setAllowUnregisteredDialects(*c.context, allow); });
          },
          "Whether operations of unknown dialects may be created and parsed.")
      .def_static("_get_live_count", &Context::liveCount,
                  "Number of live native contexts (leak checks).");

  nb::class_<PyModule>(m, "Module")
      .def_static(
          "parse",
          [](const std::string &text, nb::object context, const std::string &sourceName) {
            nb::object pyContext = resolveContext(context);
            std::shared_ptr<Context> native = unwrapContext(pyContext).context;
            auto module = detached(
                [&] { return Module::parse(native, text, sourceName); });
            return PyModule{pyContext, std::move(module)};
          },
          nb::arg("text"), nb::arg("context") = nb::none(), nb::arg("source_name") = "<string>",
          "Parses MLIR assembly; MLIRError (with line:col) on failure.")
      .def_static(
          "create",
          [](nb::object loc) {
            PyLocation &location = resolveLocation(loc);
            std::shared_ptr<Context> native = unwrapContext(location.pyContext).context;
            mlir::Location at = location.location;
            auto module = detached([&] { return Module::create(native, at); });
            return PyModule{location.pyContext, std::move(module)};
          },
          nb::arg("loc") = nb::none(), "An empty module at the given (or current) Location.")
      .def_prop_ro(
          "operation",
          [](PyModule &m) {
            return PyOperation{m.pyContext, detached([&] { return m.module->getOperation(); })};
          })
      .def_prop_ro("body",
                   [](PyModule &m) {
                     OperationRef op = detached([&] { return m.module->getOperation(); });
                     std::vector<RegionRef> regions = detached([&] { return op.regions(); });
                     std::vector<BlockRef> blocks =
                         detached([&] { return regions.at(0).blocks(); });
                     if (blocks.empty())
                       throw nb::value_error("the module has no body block");
                     return PyBlock{m.pyContext, blocks.front()};
                   })
      .def("dump",
           [](PyModule &m) {
             nb::print(nb::str(detached([&] { return m.module->str(); }).c_str()));
           })
      .def_prop_ro("context", [](PyModule &m) { return m.pyContext; })
      .def("__str__", [](PyModule &m) { return detached([&] { return m.module->str(); }); });
}

} // namespace plait::python
