//===- Parallel.h - native threads for parallel loops (prange) --*- C++ -*-===//
//
// Compiled code runs a parallel loop by calling plait_rt_parallel_for with
// its body outlined as a function of a range of positions. One process-wide
// pool of native threads (started at the first loop that needs them, never
// touching Python) shares the positions out in chunks; the calling thread
// is always one of the participants, so a loop makes progress even when
// every worker is busy with other callers' loops. Nested loops run serially
// on the thread that meets them (no oversubscription), as Numba's do.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_PARALLEL_H
#define PLAIT_RUNTIME_PARALLEL_H

#include <cstdint>

extern "C" {
/// The body of a parallel loop: runs loop positions [begin, end) as
/// participant `worker` (0 <= worker < participants); returns 0, or the
/// non-zero status of the error it raised (after recording that error's
/// message values with plait_rt_set_error_arg on its own thread).
typedef int32_t (*plait_parallel_body)(void *context, int64_t begin, int64_t end, int64_t worker);

/// How many participants a parallel loop of `count` positions started on
/// this thread may use: 1 inside a parallel loop (nested loops run
/// serially), else min(this thread's limit, pool size, max(count, 1)).
int64_t plait_rt_parallel_participants(int64_t count);

/// Runs `body` over positions [0, count), split in chunks among at most
/// `participants` participants (the calling thread is participant 0 and
/// always works too). Returns 0, or the status of the first error (in time)
/// a chunk returned: then no participant takes a further chunk, and the
/// error's message values (those of the thread that raised it) are recorded
/// again on the calling thread, which reports the error as if it had raised
/// it itself. Whatever the bodies allocate is recorded in the calling
/// thread's AllocationArena (RuntimeSymbols.h).
int32_t plait_rt_parallel_for(plait_parallel_body body, void *context, int64_t count,
                              int64_t participants);
}

namespace plait {

/// Sets this thread's limit on the participants of its parallel loops (as
/// Numba's set_num_threads, per thread); false, changing nothing, unless
/// 1 <= n <= parallelPoolSize().
bool setParallelThreads(int64_t n);

/// This thread's limit (the pool size until set).
int64_t parallelThreads();

/// The threads a parallel loop may use, the caller included: PLAIT_NUM_THREADS
/// when it holds a positive integer (at most 65536) at first use, else the
/// hardware's (at least 1). Fixed for the life of the process.
int64_t parallelPoolSize();

} // namespace plait

#endif // PLAIT_RUNTIME_PARALLEL_H
