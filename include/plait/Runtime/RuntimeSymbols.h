//===- RuntimeSymbols.h - native functions JIT-compiled code may call -*-===//
#ifndef PLAIT_RUNTIME_RUNTIMESYMBOLS_H
#define PLAIT_RUNTIME_RUNTIMESYMBOLS_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

extern "C" {
/// The test rendezvous for compiled code: waits at barrier "<barrierId>" (the
/// same barriers as the test-rendezvous pass). Returns 1 when met, 0 on timeout
/// or error. MLIR declaration:
///   func.func private @plait_test_rendezvous(i64, i64, f64) -> i32
int32_t plait_test_rendezvous(int64_t barrierId, int64_t participants,
                              double timeoutSeconds);

/// Records run-time value `position` ({position} in the message) of the
/// error about to be reported (e.g. the index, axis and size of an
/// IndexError, the shapes of arrays that do not broadcast).
void plait_rt_set_error_arg(int64_t position, int64_t value);

/// memref.alloc and its frees in plait.jit code (MLIR's "generic allocation
/// functions"). Each allocation starts with a header holding its reference
/// count (1 when made); the pointer returned is just after it, aligned as
/// malloc aligns. Every allocation is recorded in the calling thread's
/// AllocationArena when one is active.
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *pointer);

/// plait.retain and plait.release: `allocated` is an array's allocated
/// pointer, 0 for memory plait did not allocate (then they do nothing).
/// The counts are atomic: the bodies of a parallel loop (Parallel.h) may
/// retain and release one array from several threads at once.
void plait_rt_array_retain(int64_t allocated);
void plait_rt_array_release(int64_t allocated);
}

namespace plait {

/// How many values an error message can take ({0} to {23}).
constexpr size_t kMaxErrorArguments = 24;
/// The values plait_rt_set_error_arg last recorded on this thread.
std::array<int64_t, kMaxErrorArguments> lastErrorArguments();

/// Collects what compiled code allocates on this thread during one call; the
/// dispatcher takes ownership of what the call returns (release()) and the
/// arena frees the rest when it ends, so nothing leaks, on error paths too.
/// The workers of the call's parallel loops record into it as well
/// (AdoptedArenaScope): while it is shared, recording and releasing take a
/// lock (the serial code of a call, the common case, does not pay for it).
class AllocationArena {
public:
  AllocationArena();
  ~AllocationArena();
  AllocationArena(const AllocationArena &) = delete;
  AllocationArena &operator=(const AllocationArena &) = delete;
  /// Transfers `pointer` (an allocation of this call) to the caller; false
  /// when it was not allocated during this call.
  bool release(void *pointer);
  /// Records an allocation of this call.
  void record(void *pointer);
  /// Set by the owning thread before other threads may use the arena (a
  /// parallel loop starts), cleared after they have all stopped; returns
  /// what it was.
  bool setShared(bool isShared) { return std::exchange(shared, isShared); }

private:
  /// Holds `lock` while the arena is shared, nothing otherwise.
  std::unique_lock<std::mutex> guard() {
    return shared ? std::unique_lock<std::mutex>(lock) : std::unique_lock<std::mutex>();
  }
  std::mutex lock; // guards allocations while shared
  bool shared = false;
  std::vector<void *> allocations;
  AllocationArena *previous;
};

/// The arena active on this thread (null when none is).
AllocationArena *activeAllocationArena();

/// Makes `arena` (another thread's: the caller of a parallel loop) the
/// active arena of this thread (a worker) while the scope lasts, so what the
/// worker allocates belongs to the caller's call and may outlive the chunk
/// that made it. `arena` must outlive the scope.
class AdoptedArenaScope {
public:
  explicit AdoptedArenaScope(AllocationArena *arena);
  ~AdoptedArenaScope();
  AdoptedArenaScope(const AdoptedArenaScope &) = delete;
  AdoptedArenaScope &operator=(const AdoptedArenaScope &) = delete;

private:
  AllocationArena *previous;
};

/// Frees an allocation of compiled code, whatever its count (the dispatcher
/// owns what a call returned, and the arena what it left behind).
void freeArrayAllocation(void *allocated);

/// Marks `allocated` (an allocation of compiled code) as a list's box: when
/// its last reference goes, it releases its items (Lists.h).
void markListBox(void *allocated);
/// The same for a dict's box, which owns its entries and index (Dicts.h).
void markDictBox(void *allocated);

/// Name and address of every runtime function, registered in each JIT.
std::vector<std::pair<std::string, void *>> getRuntimeSymbols();

} // namespace plait

#endif // PLAIT_RUNTIME_RUNTIMESYMBOLS_H
