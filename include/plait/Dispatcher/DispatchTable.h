//===- DispatchTable.h - lock-free lookup, copy-on-write insert -*- C++ -*-===//
//
// The per-function table of executors. Readers load an immutable snapshot
// with one atomic load inside an EpochDomain read section and may use its
// entries (and what they own) until the section ends. Writers copy the
// snapshot under the table's mutex, publish the copy, and retire the old one
// through the epoch domain, so it is freed only when no reader can hold it.
// Entries own their payload (shared_ptr): an executor lives while any
// snapshot that lists it lives, or any other owner holds it.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DISPATCHER_DISPATCHTABLE_H
#define PLAIT_DISPATCHER_DISPATCHTABLE_H

#include "plait/Support/EpochDomain.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace plait {

template <typename Entry>
class DispatchTable {
public:
  struct Snapshot {
    std::vector<Entry> entries;
  };

  explicit DispatchTable(EpochDomain &domain = EpochDomain::global())
      : domain(domain) {}
  ~DispatchTable() { delete current.load(); } // the owner outlives readers
  DispatchTable(const DispatchTable &) = delete;
  DispatchTable &operator=(const DispatchTable &) = delete;

  /// The current snapshot (may be null): only inside a ReadGuard of the
  /// table's domain.
  const Snapshot *read() const { return current.load(std::memory_order_seq_cst); }

  void insert(Entry entry) {
    const Snapshot *old;
    {
      std::lock_guard<std::mutex> guard(writeMutex);
      old = current.load(std::memory_order_relaxed);
      auto next = std::make_unique<Snapshot>();
      if (old)
        next->entries = old->entries;
      next->entries.push_back(std::move(entry));
      current.store(next.release(), std::memory_order_seq_cst);
    }
    retire(old);
  }

  /// Unlinks every entry; returns how many there were.
  size_t clear() {
    const Snapshot *old;
    {
      std::lock_guard<std::mutex> guard(writeMutex);
      old = current.load(std::memory_order_relaxed);
      current.store(nullptr, std::memory_order_seq_cst);
    }
    size_t count = old ? old->entries.size() : 0;
    retire(old);
    return count;
  }

  EpochDomain &getDomain() { return domain; }

private:
  // Outside writeMutex: deleters may take other locks (or the GIL) and must
  // never run while a plait lock is held.
  void retire(const Snapshot *old) {
    if (old)
      domain.retire([old] { delete old; });
  }

  EpochDomain &domain;
  std::atomic<const Snapshot *> current{nullptr};
  std::mutex writeMutex; // serialises writers; readers never take it
};

} // namespace plait

#endif // PLAIT_DISPATCHER_DISPATCHTABLE_H
