//===- EpochDomain.h - epoch-based reclamation for lock-free readers -*- C++ -*-===//
//
// Readers (the dispatch fast path) take no lock: they pin the current epoch
// for the duration of a read section, load shared pointers, and may keep
// using what they loaded until the section ends. Writers unlink an object and
// retire it; it is destroyed only once every thread that could still hold it
// has left its read section.
//
//   reader: ReadGuard pin; auto *snapshot = table.load(); ...use...; ~pin
//   writer: table.store(next); domain.retire(old deleter)
//
// Why it is safe: a reader stores its pinned epoch (seq_cst) before loading
// the pointer; a writer unlinks (seq_cst), then advances the epoch, and frees
// an object retired at epoch e only when every pinned reader shows an epoch
// > e (pinned after the unlink: it sees the new pointer) or none. A reader
// that pinned too late to be seen by the scan also loads after the unlink.
//
// Read sections nest (a thread may re-enter dispatch); they never block, so
// holding one across a GIL release or a long native call cannot deadlock. A
// long read section only delays reclamation.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_EPOCHDOMAIN_H
#define PLAIT_SUPPORT_EPOCHDOMAIN_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <utility>
#include <vector>

namespace plait {

class EpochDomain {
public:
  /// The process-wide domain used by plait.jit's dispatch tables.
  static EpochDomain &global();

  EpochDomain() = default;
  ~EpochDomain();
  EpochDomain(const EpochDomain &) = delete;
  EpochDomain &operator=(const EpochDomain &) = delete;

  class ReadGuard {
  public:
    explicit ReadGuard(EpochDomain &domain);
    ~ReadGuard();
    ReadGuard(const ReadGuard &) = delete;
    ReadGuard &operator=(const ReadGuard &) = delete;

    /// Counts an event on this thread's record: an owner-only plain store,
    /// no read-modify-write on the hot path (summed by eventCount()).
    void countEvent();
    /// A number distinct per thread (for sharding counters).
    size_t shard() const { return reinterpret_cast<uintptr_t>(record) / 64; }

  private:
    struct Record *record;
  };

  /// Runs `deleter` once no read section that began before this call is
  /// still running. Call after unlinking the object. May run deleters of
  /// earlier retirements on this thread.
  void retire(std::function<void()> deleter);
  /// Runs every deleter whose grace period has passed; returns how many ran.
  size_t collect();
  /// Retired objects still waiting for readers.
  size_t pending();

  /// The sum of every thread's ReadGuard::countEvent() calls.
  int64_t eventCount();

private:
  friend struct Record;
  struct Record *acquireRecord();

  std::atomic<uint64_t> epoch{1};
  // Leaf lock guarding `records` and `retired`; deleters run outside it.
  std::mutex mutex;
  std::vector<struct Record *> records; // never shrinks; reused after threads exit
  std::vector<std::pair<uint64_t, std::function<void()>>> retired;
};

/// Per-thread state of a domain (internal; public for the thread-exit hook).
struct alignas(64) Record {
  std::atomic<uint64_t> pinned{0}; // 0: outside any read section
  std::atomic<bool> inUse{false};
  std::atomic<int64_t> events{0}; // written by the owner thread only
  unsigned nesting = 0; // owner thread only
  EpochDomain *domain = nullptr;
};

} // namespace plait

#endif // PLAIT_SUPPORT_EPOCHDOMAIN_H
