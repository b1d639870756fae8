//===- IRModule.cpp - plait.ir glue ---------------------------------------===//
#include "Bindings.h"

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

struct PyAttribute {
  std::string text;
};

struct PyRegion {
  RegionRef ref;
};

struct PyBlock {
  BlockRef ref;
};

struct PyAttributeMap {
  OperationRef ref;
};

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

nb::object toPython(const AttributeValue &value) {
  switch (value.kind) {
  case AttributeValue::Kind::Integer:
    return nb::int_(value.integer);
  case AttributeValue::Kind::Float:
    return nb::float_(value.floating);
  case AttributeValue::Kind::Bool:
    return nb::bool_(value.boolean);
  case AttributeValue::Kind::String:
    return nb::str(value.text.c_str(), value.text.size());
  case AttributeValue::Kind::Other:
    return nb::cast(PyAttribute{value.text});
  }
  return nb::none();
}

AttributeValue fromPython(const nb::handle &object) {
  AttributeValue value;
  if (PyBool_Check(object.ptr())) {
    value.kind = AttributeValue::Kind::Bool;
    value.boolean = object.ptr() == Py_True;
  } else if (PyLong_Check(object.ptr())) {
    int overflow = 0;
    long long integer = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
    if (overflow)
      throw nb::value_error("integer attribute values must fit in 64 bits");
    value.kind = AttributeValue::Kind::Integer;
    value.integer = integer;
  } else if (PyFloat_Check(object.ptr())) {
    value.kind = AttributeValue::Kind::Float;
    value.floating = PyFloat_AsDouble(object.ptr());
  } else if (nb::isinstance<nb::str>(object)) {
    value.kind = AttributeValue::Kind::String;
    value.text = nb::cast<std::string>(object);
  } else if (nb::isinstance<PyAttribute>(object)) {
    value.text = nb::cast<const PyAttribute &>(object).text;
  } else {
    throw nb::type_error("attribute values must be bool, int, float, str or "
                         "plait.ir.Attribute");
  }
  return value;
}

nb::list wrapOperations(std::vector<OperationRef> refs) {
  nb::list result;
  for (OperationRef &ref : refs)
    result.append(nb::cast(PyOperation{std::move(ref)}));
  return result;
}

OperationRef operationOf(const nb::handle &object) {
  if (nb::isinstance<PyModule>(object))
    return nb::cast<PyModule &>(object).module->getOperation();
  if (nb::isinstance<PyOperation>(object))
    return nb::cast<PyOperation &>(object).ref;
  throw nb::type_error("expected a plait.ir.Module or plait.ir.Operation");
}

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

OperationRef toOperationRef(const nb::handle &object) {
  return operationOf(object);
}

void populateIR(nb::module_ &m) {
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

  nb::class_<PyContext>(m, "Context",
                        "Owns MLIR IR; thread-compatible (one lock per "
                        "context), all upstream dialects available.")
      .def("__init__",
           [](PyContext *self) {
             new (self) PyContext{detached([] { return Context::create(); })};
           })
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
          [](PyContext &c, bool value) {
            c.context->setEmitErrorDiagnostics(value);
          },
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
      .def_static("_get_live_count", &Context::liveCount,
                  "Number of live native contexts (leak checks).");

  nb::class_<PyAttribute>(m, "Attribute",
                          "An attribute plait has no Python type for, as "
                          "MLIR text.")
      .def(nb::init<std::string>())
      .def_ro("text", &PyAttribute::text)
      .def("__str__", [](const PyAttribute &a) { return a.text; })
      .def("__repr__",
           [](const PyAttribute &a) { return "Attribute(" + a.text + ")"; })
      .def("__eq__", [](const PyAttribute &a, const PyAttribute &b) {
        return a.text == b.text;
      });

  nb::class_<PyModule>(m, "Module")
      .def_static(
          "parse",
          [](const std::string &text, nb::object context,
             const std::string &sourceName) {
            nb::object pyContext = resolveContext(context);
            std::shared_ptr<Context> native = unwrapContext(pyContext).context;
            auto module = detached(
                [&] { return Module::parse(native, text, sourceName); });
            return PyModule{pyContext, std::move(module)};
          },
          nb::arg("text"), nb::arg("context") = nb::none(),
          nb::arg("source_name") = "<string>",
          "Parses MLIR assembly; MLIRError (with line:col) on failure.")
      .def_prop_ro("operation",
                   [](PyModule &m) {
                     return PyOperation{m.module->getOperation()};
                   })
      .def_prop_ro("context", [](PyModule &m) { return m.pyContext; })
      .def("__str__",
           [](PyModule &m) { return detached([&] { return m.module->str(); }); });

  nb::class_<PyAttributeMap>(m, "OpAttributeMap")
      .def("__len__",
           [](PyAttributeMap &a) {
             return detached([&] { return a.ref.attributes(); }).size();
           })
      .def("__getitem__",
           [](PyAttributeMap &a, const std::string &name) {
             for (auto &[key, value] :
                  detached([&] { return a.ref.attributes(); }))
               if (key == name)
                 return toPython(value);
             throw nb::key_error(name.c_str());
           })
      .def("__contains__",
           [](PyAttributeMap &a, const std::string &name) {
             for (auto &entry : detached([&] { return a.ref.attributes(); }))
               if (entry.first == name)
                 return true;
             return false;
           })
      .def("__setitem__",
           [](PyAttributeMap &a, const std::string &name, nb::handle value) {
             AttributeValue converted = fromPython(value);
             detached([&] { a.ref.setAttribute(name, converted); });
           })
      .def("__delitem__",
           [](PyAttributeMap &a, const std::string &name) {
             if (!detached([&] { return a.ref.removeAttribute(name); }))
               throw nb::key_error(name.c_str());
           })
      .def("keys",
           [](PyAttributeMap &a) {
             nb::list keys;
             for (auto &entry : detached([&] { return a.ref.attributes(); }))
               keys.append(nb::str(entry.first.c_str()));
             return keys;
           })
      .def("__iter__",
           [](nb::handle self) { return nb::iter(self.attr("keys")()); })
      .def("items", [](PyAttributeMap &a) {
        nb::list items;
        for (auto &[key, value] : detached([&] { return a.ref.attributes(); }))
          items.append(nb::make_tuple(nb::str(key.c_str()), toPython(value)));
        return items;
      });

  nb::class_<PyOperation>(m, "Operation")
      .def_prop_ro("operation", [](nb::handle self) { return nb::borrow(self); })
      .def_prop_ro("name",
                   [](PyOperation &o) {
                     return detached([&] { return o.ref.name(); });
                   })
      .def_prop_ro("location",
                   [](PyOperation &o) {
                     return detached([&] { return o.ref.location(); });
                   })
      .def_prop_ro("attributes",
                   [](PyOperation &o) {
                     detached([&] { o.ref.name(); }); // validity check
                     return PyAttributeMap{o.ref};
                   })
      .def_prop_ro("regions",
                   [](PyOperation &o) {
                     nb::list result;
                     for (RegionRef &r : detached([&] { return o.ref.regions(); }))
                       result.append(nb::cast(PyRegion{std::move(r)}));
                     return result;
                   })
      .def_prop_ro("is_valid", [](PyOperation &o) { return o.ref.isValid(); })
      .def(
          "walk",
          [](PyOperation &o, nb::callable callback) {
            // Collected first, so that the callback runs without the lock.
            nb::list ops = wrapOperations(detached([&] { return o.ref.walk(); }));
            for (nb::handle op : ops)
              callback(op);
          },
          "Calls `callback(op)` on this operation and every nested one, in "
          "pre-order.")
      .def("verify",
           [](PyOperation &o) {
             detached([&] { o.ref.verify(); });
             return true;
           })
      .def("emit_error",
           [](PyOperation &o, const std::string &message) {
             detached([&] { o.ref.emitError(message); });
           })
      .def("emit_warning",
           [](PyOperation &o, const std::string &message) {
             detached([&] { o.ref.emitWarning(message); });
           })
      .def("__str__",
           [](PyOperation &o) { return detached([&] { return o.ref.str(); }); })
      .def("__repr__", [](PyOperation &o) {
        if (!o.ref.isValid())
          return std::string("<plait.ir.Operation (invalidated)>");
        return "<plait.ir.Operation " +
               detached([&] { return o.ref.name(); }) + ">";
      });

  nb::class_<PyRegion>(m, "Region")
      .def_prop_ro("blocks", [](PyRegion &r) {
        nb::list result;
        for (BlockRef &b : detached([&] { return r.ref.blocks(); }))
          result.append(nb::cast(PyBlock{std::move(b)}));
        return result;
      })
      .def("__iter__", [](nb::handle self) {
        return nb::iter(self.attr("blocks"));
      });

  nb::class_<PyBlock>(m, "Block")
      .def_prop_ro("operations",
                   [](PyBlock &b) {
                     return wrapOperations(
                         detached([&] { return b.ref.operations(); }));
                   })
      .def_prop_ro("num_arguments",
                   [](PyBlock &b) {
                     return detached([&] { return b.ref.numArguments(); });
                   })
      .def("__iter__", [](nb::handle self) {
        return nb::iter(self.attr("operations"));
      });
}

} // namespace plait::python
