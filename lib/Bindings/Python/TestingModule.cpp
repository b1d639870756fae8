//===- TestingModule.cpp - plait.testing glue -----------------------------===//
#include "Bindings.h"

#include "plait/Passes/Passes.h"
#include "plait/Support/Rendezvous.h"

#include <nanobind/stl/string.h>

using namespace plait;
using namespace plait::python;

namespace plait::python {

void populateTesting(nb::module_ &m) {
  m.def(
      "register_rendezvous_pass",
      [] { detached([] { registerRendezvousPass(); }); },
      "Registers test-rendezvous{barrier-id=<str> participants=<n> "
      "timeout-seconds=<s>} (idempotent, thread-safe).");
  m.def(
      "rendezvous",
      [](const std::string &barrierId, unsigned participants,
         double timeoutSeconds) {
        RendezvousOutcome outcome = detached([&] {
          return plait::rendezvous(barrierId, participants, timeoutSeconds);
        });
        if (!outcome.met)
          throw nb::builtin_exception(nb::exception_type::runtime_error,
                                      outcome.error.c_str());
      },
      nb::arg("barrier_id"), nb::arg("participants"),
      nb::arg("timeout_seconds") = 10.0,
      "Waits (detached) until `participants` threads arrived at the barrier.");
}

} // namespace plait::python
