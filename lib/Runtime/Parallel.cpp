//===- Parallel.cpp - native threads for parallel loops (prange) ----------===//
//
// A loop is a Job on its caller's stack, queued in the pool while it runs.
// Participants claim chunks of shrinking size (guided scheduling) with a
// compare-and-swap on the next position; idle workers join
// any queued job that still has chunks and free participant ids. The
// caller runs its own job's chunks too, so a loop finishes even when every
// worker is busy elsewhere; once its chunks are claimed it takes the job
// out of the queue (no worker joins late) and waits for the workers that
// joined. Only joining and leaving take the pool's lock.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/Parallel.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include <pthread.h>

namespace plait {
namespace {

/// Chunks shrink as the positions run out: each takes 1/(2 * participants)
/// of those left, and at least 1/(kSmallestChunkShare * participants) of
/// all. Large first chunks cost few claims; small last ones leave little
/// for one participant to finish while the others wait (with chunks of a
/// fixed eighth, a loop of even cost lost a sixteenth of its time to that
/// on average), and still let who finishes early take over positions of
/// uneven cost. Chunks are contiguous ranges, so each participant walks its
/// memory in order.
constexpr int64_t kSmallestChunkShare = 32;

/// How long an idle worker watches for a new job before it sleeps. Waking a
/// sleeping thread takes tens of microseconds (more in a virtual machine),
/// which a loop of a millisecond or two would feel at every call; kernels
/// called back to back find the workers still awake. (OpenMP runtimes
/// spin longer.)
constexpr auto kIdleSpin = std::chrono::microseconds(200);

/// PLAIT_NUM_THREADS above this is taken for a typo, not a pool size.
constexpr int64_t kMaxPoolSize = 65536;

/// True on the pool's workers, and on a caller while its loop runs: the
/// loops its body meets then run serially.
thread_local bool insideParallelLoop = false;
/// This thread's limit on participants; 0 until set (the pool size).
thread_local int64_t threadLimit = 0;

/// One parallel loop, on its caller's stack. The pool's mutex guards
/// `joined`, `running` and the job's place in the queue; chunks are
/// claimed without it.
struct Job {
  plait_parallel_body body;
  void *context;
  int64_t count;
  int64_t smallestChunk;
  int64_t participants;
  AllocationArena *arena; // the caller's: the workers record into it
  std::atomic<int64_t> nextPosition{0};
  std::atomic<bool> stop{false};
  /// The first error's status (0: none yet); the thread that sets it copies
  /// its message values, which the caller reads after the join.
  std::atomic<int32_t> status{0};
  std::array<int64_t, kMaxErrorArguments> errorArguments{};
  int64_t joined = 1;               // participant ids handed out (0 is the caller's)
  /// Workers in the job now: changed under the mutex, read without it by
  /// the caller waiting for them.
  std::atomic<int64_t> running{0};
  std::condition_variable finished; // running dropped to 0
};

/// The process-wide pool: leaked on purpose, so no static destructor waits
/// for (or pulls the state from under) workers at exit.
struct Pool {
  std::mutex mutex;
  std::condition_variable work; // a job was queued
  std::vector<Job *> jobs;      // oldest first
  /// Jobs queued so far, watched without the mutex by idle workers.
  std::atomic<uint64_t> queued{0};
  bool started = false;
  Pool *abandoned = nullptr; // an older pool left behind by fork (kept reachable)
};

std::atomic<Pool *> currentPool{nullptr};
std::atomic<bool> forkHandlerRegistered{false};

/// In the child of fork() only the forking thread lives: the workers are
/// gone, and the pool's mutex and condition variable may be held or waited
/// on by threads that no longer exist, so they cannot be reset safely.
/// Leave that pool behind; the child's first loop starts a new one (else a
/// child, e.g. of multiprocessing, would deadlock or run serially).
void forgetPoolInChild() {
  Pool *old = currentPool.load(std::memory_order_relaxed);
  if (!old)
    return;
  static Pool *abandonedPools = nullptr;
  old->abandoned = abandonedPools;
  abandonedPools = old;
  currentPool.store(nullptr, std::memory_order_relaxed);
}

Pool &pool() {
  Pool *current = currentPool.load(std::memory_order_acquire);
  if (current)
    return *current;
  if (!forkHandlerRegistered.exchange(true))
    pthread_atfork(nullptr, nullptr, &forgetPoolInChild);
  auto *fresh = new Pool();
  if (currentPool.compare_exchange_strong(current, fresh, std::memory_order_acq_rel))
    return *fresh;
  delete fresh; // another thread made it first
  return *current;
}

/// A job a worker may join: chunks left and participant ids free.
Job *joinableJob(Pool &pool) {
  for (Job *job : pool.jobs)
    if (job->joined < job->participants && !job->stop.load(std::memory_order_relaxed) &&
        job->nextPosition.load(std::memory_order_relaxed) < job->count)
      return job;
  return nullptr;
}

/// Claims the next chunk of `job` as [begin, end); false when none is left.
bool claimChunk(Job &job, int64_t &begin, int64_t &end) {
  int64_t next = job.nextPosition.load(std::memory_order_relaxed);
  for (;;) {
    if (next >= job.count)
      return false;
    int64_t left = job.count - next;
    int64_t size = std::min(left, std::max(job.smallestChunk, left / (2 * job.participants)));
    if (job.nextPosition.compare_exchange_weak(next, next + size, std::memory_order_relaxed)) {
      begin = next;
      end = next + size;
      return true;
    }
  }
}

/// Runs chunks of `job` as participant `worker` until none are left or a
/// chunk failed.
void runChunks(Job &job, int64_t worker) {
  AdoptedArenaScope arena(job.arena);
  int64_t begin, end;
  while (!job.stop.load(std::memory_order_relaxed) && claimChunk(job, begin, end)) {
    if (int32_t status = job.body(job.context, begin, end, worker)) {
      int32_t none = 0;
      if (job.status.compare_exchange_strong(none, status))
        job.errorArguments = lastErrorArguments();
      job.stop.store(true, std::memory_order_relaxed);
      return;
    }
  }
}

/// A spinning thread's pause (it leaves the core's resources to others).
inline void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Returns once a job was queued after the `seen`th, or after kIdleSpin.
void watchForJob(Pool &pool, uint64_t seen) {
  auto deadline = std::chrono::steady_clock::now() + kIdleSpin;
  do {
    for (int i = 0; i < 64; ++i) {
      if (pool.queued.load(std::memory_order_acquire) != seen)
        return;
      spinPause();
    }
  } while (std::chrono::steady_clock::now() < deadline);
}

void *workerMain(void *argument) {
  Pool &pool = *static_cast<Pool *>(argument);
  insideParallelLoop = true;
  std::unique_lock<std::mutex> lock(pool.mutex);
  bool spun = false;
  for (;;) {
    Job *job = joinableJob(pool);
    if (!job) {
      // Awake a little longer first; a job queued meanwhile is found under
      // the mutex again, and one queued later notifies the sleeper.
      if (!spun) {
        uint64_t seen = pool.queued.load(std::memory_order_acquire);
        lock.unlock();
        watchForJob(pool, seen);
        lock.lock();
        spun = true;
        continue;
      }
      pool.work.wait(lock);
      spun = false;
      continue;
    }
    spun = false;
    int64_t worker = job->joined++;
    ++job->running;
    lock.unlock();
    runChunks(*job, worker);
    lock.lock();
    // Notified under the lock: the caller may end the job as soon as it
    // sees no worker running.
    if (--job->running == 0)
      job->finished.notify_one();
  }
}

/// Starts the workers (under the pool's mutex). Asynchronous signals stay
/// with the application's threads (Python handles them on its main thread);
/// faults are still delivered to the worker that caused them.
void startWorkers(Pool &pool) {
  pool.started = true;
  sigset_t blocked, previous;
  sigfillset(&blocked);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS})
    sigdelset(&blocked, fault);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  for (int64_t i = 1; i < parallelPoolSize(); ++i) {
    pthread_t thread;
    if (pthread_create(&thread, &attributes, &workerMain, &pool) != 0)
      break; // fewer workers: every caller still runs its chunks itself
  }
  pthread_attr_destroy(&attributes);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

int64_t computePoolSize() {
  if (const char *text = std::getenv("PLAIT_NUM_THREADS")) {
    char *end = nullptr;
    long long value = std::strtoll(text, &end, 10);
    if (end != text && *end == '\0' && value >= 1 && value <= kMaxPoolSize)
      return value;
  }
  return std::max<int64_t>(1, std::thread::hardware_concurrency());
}

} // namespace

bool setParallelThreads(int64_t n) {
  if (n < 1 || n > parallelPoolSize())
    return false;
  threadLimit = n;
  return true;
}

int64_t parallelThreads() { return threadLimit ? threadLimit : parallelPoolSize(); }

int64_t parallelPoolSize() {
  static const int64_t size = computePoolSize();
  return size;
}

} // namespace plait

using namespace plait;

extern "C" int64_t plait_rt_parallel_participants(int64_t count) {
  if (insideParallelLoop)
    return 1;
  return std::min({parallelThreads(), parallelPoolSize(), std::max<int64_t>(count, 1)});
}

extern "C" int32_t plait_rt_parallel_for(plait_parallel_body body, void *context, int64_t count,
                                         int64_t participants) {
  participants = std::min({participants, parallelPoolSize(), count});
  if (participants <= 1 || count <= 1)
    return body(context, 0, count, 0);

  Job job;
  job.body = body;
  job.context = context;
  job.count = count;
  job.smallestChunk = std::max<int64_t>(1, count / (participants * kSmallestChunkShare));
  job.participants = participants;
  job.arena = activeAllocationArena();
  // (Shared before any worker can join the job, which it does under the
  // pool's mutex; unshared after they have all left.)
  bool wasShared = job.arena && job.arena->setShared(true);

  Pool &workers = pool();
  {
    std::lock_guard<std::mutex> guard(workers.mutex);
    if (!workers.started)
      startWorkers(workers);
    workers.jobs.push_back(&job);
    workers.queued.fetch_add(1, std::memory_order_release);
  }
  for (int64_t i = 1; i < participants; ++i)
    workers.work.notify_one();

  bool wasInside = insideParallelLoop;
  insideParallelLoop = true;
  runChunks(job, 0);
  insideParallelLoop = wasInside;

  {
    std::lock_guard<std::mutex> guard(workers.mutex);
    workers.jobs.erase(std::find(workers.jobs.begin(), workers.jobs.end(), &job));
  }
  // The workers that joined finish their last chunks: watched awake for a
  // while, as a sleeping caller would be woken late. The mutex is taken
  // once more either way: a worker leaves the job (and its condition
  // variable, on this stack) only when it releases the mutex.
  auto deadline = std::chrono::steady_clock::now() + kIdleSpin;
  while (job.running.load(std::memory_order_acquire) != 0 &&
         std::chrono::steady_clock::now() < deadline)
    spinPause();
  {
    std::unique_lock<std::mutex> lock(workers.mutex);
    job.finished.wait(lock, [&] { return job.running.load(std::memory_order_relaxed) == 0; });
  }
  if (job.arena)
    job.arena->setShared(wasShared);
  int32_t status = job.status.load(std::memory_order_relaxed);
  if (status != 0)
    for (size_t i = 0; i < kMaxErrorArguments; ++i)
      plait_rt_set_error_arg(static_cast<int64_t>(i), job.errorArguments[i]);
  return status;
}
