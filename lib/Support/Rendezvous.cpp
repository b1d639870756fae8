//===- Rendezvous.cpp - process-global one-shot test barriers -------------===//
#include "plait/Support/Rendezvous.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>

namespace plait {
namespace {

struct Barrier {
  enum class State { Open, Met, Poisoned };

  std::mutex mutex;               // guards every member below
  std::condition_variable changed;
  State state = State::Open;
  unsigned participants = 0;
  unsigned arrived = 0;
  std::string poisonMessage;
};

// The registry of barriers by name. `registryMutex` guards `barriers`; it is a
// leaf lock held only for a map lookup, never while waiting.
std::mutex registryMutex;
std::map<std::string, std::shared_ptr<Barrier>> barriers;

std::shared_ptr<Barrier> getBarrier(const std::string &id,
                                    unsigned participants) {
  std::lock_guard<std::mutex> guard(registryMutex);
  std::shared_ptr<Barrier> &slot = barriers[id];
  if (!slot) {
    slot = std::make_shared<Barrier>();
    slot->participants = participants;
  }
  return slot;
}

std::string quoted(const std::string &id) { return "rendezvous '" + id + "'"; }

} // namespace

RendezvousOutcome rendezvous(const std::string &barrierId,
                             unsigned participants, double timeoutSeconds) {
  if (participants == 0)
    return {false, quoted(barrierId) + " needs at least one participant"};
  std::shared_ptr<Barrier> barrier = getBarrier(barrierId, participants);
  std::unique_lock<std::mutex> lock(barrier->mutex);

  if (barrier->participants != participants)
    return {false, quoted(barrierId) + " was created with " +
                       std::to_string(barrier->participants) +
                       " participants, not " + std::to_string(participants)};
  if (barrier->state == Barrier::State::Poisoned)
    return {false, barrier->poisonMessage};
  if (barrier->state == Barrier::State::Met)
    return {false, quoted(barrierId) + " was already met by " +
                       std::to_string(participants) +
                       " participants (barriers are one-shot)"};

  if (++barrier->arrived == barrier->participants) {
    barrier->state = Barrier::State::Met;
    barrier->changed.notify_all();
    return {true, {}};
  }

  auto timeout = std::chrono::duration<double>(timeoutSeconds < 0 ? 0 : timeoutSeconds);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(timeout);
  barrier->changed.wait_until(lock, deadline, [&] {
    return barrier->state != Barrier::State::Open;
  });
  if (barrier->state == Barrier::State::Met)
    return {true, {}};
  if (barrier->state == Barrier::State::Open) {
    // This waiter hit the deadline first: poison the barrier for everyone.
    barrier->state = Barrier::State::Poisoned;
    barrier->poisonMessage = quoted(barrierId) + " timed out with " +
                             std::to_string(barrier->arrived) + " of " +
                             std::to_string(barrier->participants) +
                             " participants";
    barrier->changed.notify_all();
  }
  return {false, barrier->poisonMessage};
}

} // namespace plait
