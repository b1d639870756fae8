//===- Rendezvous.h - process-global one-shot test barriers -----*- C++ -*-===//
//
// A rendezvous is met only when `participants` threads are inside it at the
// same time, so a test that meets one proves those threads really ran
// concurrently (no sleeping and hoping). Barriers are named, process-global and
// one-shot: once met they stay met; once timed out they are poisoned and late
// arrivals fail at once.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_RENDEZVOUS_H
#define PLAIT_SUPPORT_RENDEZVOUS_H

#include <string>

namespace plait {

struct RendezvousOutcome {
  bool met = false;
  /// Empty when met; otherwise why not, e.g.
  /// "rendezvous 'x' timed out with 1 of 2 participants".
  std::string error;
};

/// Blocks the calling thread (never call it holding the GIL) until
/// `participants` threads have arrived at barrier `barrierId`, or until
/// `timeoutSeconds` pass.
RendezvousOutcome rendezvous(const std::string &barrierId,
                             unsigned participants, double timeoutSeconds);

} // namespace plait

#endif // PLAIT_SUPPORT_RENDEZVOUS_H
