//===- EpochDomain.cpp - epoch-based reclamation for lock-free readers ----===//
#include "plait/Support/EpochDomain.h"

#include <algorithm>
#include <map>

namespace plait {
namespace {

/// This thread's records, one per domain; released when the thread exits.
struct ThreadRecords {
  std::map<EpochDomain *, Record *> byDomain;
  ~ThreadRecords() {
    for (auto &entry : byDomain)
      entry.second->inUse.store(false, std::memory_order_release);
  }
};

thread_local ThreadRecords threadRecords;
// The last (domain, record) this thread used: the hot path avoids the map.
thread_local EpochDomain *lastDomain = nullptr;
thread_local Record *lastRecord = nullptr;

} // namespace

EpochDomain &EpochDomain::global() {
  // Never destroyed: threads may still leave read sections during exit.
  static EpochDomain *domain = new EpochDomain();
  return *domain;
}

EpochDomain::~EpochDomain() {
  for (auto &entry : retired)
    entry.second();
  for (Record *record : records)
    delete record;
}

Record *EpochDomain::acquireRecord() {
  if (lastDomain == this)
    return lastRecord;
  auto found = threadRecords.byDomain.find(this);
  if (found != threadRecords.byDomain.end()) {
    lastDomain = this;
    lastRecord = found->second;
    return lastRecord;
  }
  std::lock_guard<std::mutex> guard(mutex);
  Record *record = nullptr;
  for (Record *candidate : records) {
    bool expected = false;
    if (candidate->inUse.compare_exchange_strong(expected, true)) {
      record = candidate;
      break;
    }
  }
  if (!record) {
    record = new Record();
    record->inUse.store(true);
    record->domain = this;
    records.push_back(record);
  }
  threadRecords.byDomain[this] = record;
  lastDomain = this;
  lastRecord = record;
  return record;
}

void EpochDomain::ReadGuard::countEvent() {
  record->events.store(record->events.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
}

int64_t EpochDomain::eventCount() {
  std::lock_guard<std::mutex> guard(mutex);
  int64_t total = 0;
  for (Record *record : records)
    total += record->events.load(std::memory_order_relaxed);
  return total;
}

EpochDomain::ReadGuard::ReadGuard(EpochDomain &domain)
    : record(domain.acquireRecord()) {
  if (record->nesting++ == 0)
    record->pinned.store(domain.epoch.load(std::memory_order_seq_cst),
                         std::memory_order_seq_cst);
}

EpochDomain::ReadGuard::~ReadGuard() {
  if (--record->nesting == 0)
    record->pinned.store(0, std::memory_order_release);
}

void EpochDomain::retire(std::function<void()> deleter) {
  {
    std::lock_guard<std::mutex> guard(mutex);
    // Tag with the epoch current at unlinking, then advance it: readers that
    // pin from now on pin a larger epoch and can no longer reach the object.
    uint64_t tag = epoch.fetch_add(1, std::memory_order_seq_cst);
    retired.emplace_back(tag, std::move(deleter));
  }
  collect();
}

size_t EpochDomain::collect() {
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard<std::mutex> guard(mutex);
    uint64_t oldestPinned = UINT64_MAX;
    for (Record *record : records) {
      uint64_t pinned = record->pinned.load(std::memory_order_seq_cst);
      if (pinned != 0)
        oldestPinned = std::min(oldestPinned, pinned);
    }
    auto keep = std::partition(retired.begin(), retired.end(),
                               [&](const auto &entry) { return entry.first >= oldestPinned; });
    for (auto it = keep; it != retired.end(); ++it)
      ready.push_back(std::move(it->second));
    retired.erase(keep, retired.end());
  }
  for (auto &deleter : ready)
    deleter();
  return ready.size();
}

size_t EpochDomain::pending() {
  std::lock_guard<std::mutex> guard(mutex);
  return retired.size();
}

} // namespace plait
