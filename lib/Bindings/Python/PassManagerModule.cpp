//===- PassManagerModule.cpp - plait.passmanager glue ---------------------===//
#include "Bindings.h"

#include "plait/Pass/PassManager.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/unique_ptr.h>

using namespace plait;
using namespace plait::python;

namespace {

struct PyPassManager {
  nb::object pyContext;
  std::unique_ptr<PassManager> pm;
};

/// Wraps a Python callable as a pass: runs attached (GIL held) for exactly the
/// duration of the call, turns an exception into the failure message.
CallbackPassFn makePythonPass(nb::object callable, nb::object pyContext) {
  auto shared = std::make_shared<GilSafeObject>(std::move(callable));
  auto sharedContext = std::make_shared<GilSafeObject>(std::move(pyContext));
  return [shared, sharedContext](const OperationRef &op, std::string &errorMessage) -> bool {
    nb::gil_scoped_acquire acquire;
    try {
      shared->get()(wrapOperation(sharedContext->get(), op));
      return true;
    } catch (nb::python_error &error) {
      nb::object type = nb::borrow(error.type());
      errorMessage = nb::cast<std::string>(type.attr("__name__")) + ": " +
                     nb::cast<std::string>(nb::str(error.value()));
    } catch (const std::exception &error) {
      errorMessage = error.what();
    }
    return false;
  };
}

std::string passName(const nb::handle &callable) {
  if (nb::hasattr(callable, "__name__"))
    return nb::cast<std::string>(nb::str(callable.attr("__name__")));
  return nb::cast<std::string>(nb::str(nb::handle(
      reinterpret_cast<PyObject *>(Py_TYPE(callable.ptr()))).attr("__name__")));
}

} // namespace

namespace plait::python {

void populatePassManager(nb::module_ &m) {
  nb::class_<PyPassManager>(m, "PassManager")
      .def(
          "__init__",
          [](PyPassManager *self, const std::string &anchor,
             nb::object context) {
            nb::object pyContext = resolveContext(context);
            std::shared_ptr<Context> native = unwrapContext(pyContext).context;
            auto pm = detached(
                [&] { return std::make_unique<PassManager>(native, anchor); });
            new (self) PyPassManager{pyContext, std::move(pm)};
          },
          nb::arg("anchor") = "builtin.module", nb::arg("context") = nb::none())
      .def_static(
          "parse",
          [](const std::string &pipeline, nb::object context) {
            nb::object pyContext = resolveContext(context);
            std::shared_ptr<Context> native = unwrapContext(pyContext).context;
            auto pm =
                detached([&] { return PassManager::parse(native, pipeline); });
            return new PyPassManager{pyContext, std::move(pm)};
          },
          nb::arg("pipeline"), nb::arg("context") = nb::none(),
          nb::rv_policy::take_ownership,
          "Parses 'anchor(pass,...)'; ValueError naming an unknown pass or "
          "bad option.")
      .def(
          "add",
          [](PyPassManager &self, nb::object pass) {
            if (nb::isinstance<nb::str>(pass)) {
              std::string text = nb::cast<std::string>(pass);
              detached([&] { self.pm->addPipeline(text); });
              return;
            }
            if (!PyCallable_Check(pass.ptr()))
              throw nb::type_error(
                  "PassManager.add() takes a pipeline string or a callable");
            std::string name = passName(pass);
            CallbackPassFn callback = makePythonPass(pass, self.pyContext);
            detached([&] { self.pm->addCallbackPass(name, std::move(callback)); });
          },
          nb::arg("pass_"),
          "Appends a textual pipeline ('pass,pass{opt=1}') or a Python pass: a "
          "callable taking the operation.")
      .def("enable_ir_printing",
           [](PyPassManager &self) {
             detached([&] { self.pm->enableIRPrinting(); });
           })
      .def(
          "enable_verifier",
          [](PyPassManager &self, bool enabled) {
            detached([&] { self.pm->enableVerifier(enabled); });
          },
          nb::arg("enabled") = true)
      .def("enable_timing",
           [](PyPassManager &self) {
             detached([&] { self.pm->enableTiming(); });
           })
      .def_prop_ro("context", [](PyPassManager &self) { return self.pyContext; })
      .def(
          "run",
          [](PyPassManager &self, nb::handle op) {
            OperationRef target = toOperationRef(op);
            // Detached: native passes run without the GIL; Python passes and
            // diagnostic handlers acquire it themselves.
            detached([&] { self.pm->run(target); });
          },
          nb::arg("operation"),
          "Runs the pipeline; MLIRError with the error diagnostics on failure.")
      .def("__str__", [](PyPassManager &self) {
        return detached([&] { return self.pm->str(); });
      });
}

} // namespace plait::python
