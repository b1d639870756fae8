//===- RuntimeStress.cpp - the array runtime under the sanitizers ---------===//
//
// A standalone test (no gtest, no LLVM) of what compiled code calls for its
// arrays: allocations with reference counts, retain/release, the per-call
// arena that frees what a call leaves behind (its error paths) and hands
// what it returns to the caller, and the product runtime over memory it
// allocated, and lists and dicts whose items and values own arrays and
// other lists (released with their container's last reference, or when a
// dict's entry goes). Threads run calls at once, as compiled
// code does (each call's
// arrays belong to its thread). Built and run under AddressSanitizer (with
// leak detection and UBSan) and ThreadSanitizer by `make test-sanitizers`:
// a use after free, a double free, a leak or a race fails it.
//
// Then the pool of parallel loops (prange): every position runs once,
// participants really run at the same time (met at a rendezvous, never
// slept on), nested loops run serially, errors reach the caller with their
// message values, many callers share the pool, bodies allocate into the
// caller's arena and share arrays across threads, and a forked child gets
// a pool of its own. PLAIT_NUM_THREADS fixes the pool at 4 threads.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/Dicts.h"
#include "plait/Runtime/LinearAlgebra.h"
#include "plait/Runtime/Lists.h"
#include "plait/Runtime/Parallel.h"
#include "plait/Runtime/RuntimeSymbols.h"
#include "plait/Support/Rendezvous.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_THREAD__)
#define PLAIT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PLAIT_TSAN 1
#endif
#endif

namespace {

struct Array {
  int64_t *data;
  int64_t size;
  int64_t references; // what the test believes the count is
  int64_t tag;        // written through the array: nobody else may change it
};

/// A few words of `a` carry its tag: a block handed to two owners at once
/// (the runtime keeps freed large blocks for reuse) shows up as a mismatch.
constexpr int64_t kTaggedWords = 8;
void writeTag(const Array &a) {
  for (int64_t k = 0; k < kTaggedWords; ++k)
    a.data[k * (a.size - 1) / (kTaggedWords - 1)] = a.tag + k;
}
bool tagIntact(const Array &a) {
  for (int64_t k = 0; k < kTaggedWords; ++k)
    if (a.data[k * (a.size - 1) / (kTaggedWords - 1)] != a.tag + k)
      return false;
  return true;
}

int64_t address(void *p) { return static_cast<int64_t>(reinterpret_cast<intptr_t>(p)); }

/// One compiled call: allocates, shares, drops and returns arrays, and
/// sometimes "raises" midway (the arena frees what is left).
bool oneCall(std::mt19937_64 &random, std::vector<void *> &returned) {
  plait::AllocationArena arena;
  std::vector<Array> live;
  int steps = 20 + static_cast<int>(random() % 40);
  bool raises = random() % 5 == 0;
  for (int step = 0; step < steps; ++step) {
    switch (random() % 4) {
    case 0: { // a new array (aligned as MLIR asks for vectors, sometimes;
              // now and then a large one, from the kept blocks)
      int64_t size = random() % 16 == 0
                         ? (int64_t{1} << 17) + static_cast<int64_t>(random() % 300000)
                         : 1 + static_cast<int64_t>(random() % 64);
      size_t alignment = size_t{16} << (random() % 3);
      void *p = random() % 2 ? _mlir_memref_to_llvm_alloc(size * 8)
                             : _mlir_memref_to_llvm_aligned_alloc(alignment, size * 8);
      if (!p)
        return false;
      auto *data = static_cast<int64_t *>(p);
      if (size <= 64)
        for (int64_t i = 0; i < size; ++i)
          data[i] = i; // every byte is the array's own
      live.push_back({data, size, 1, static_cast<int64_t>(random() >> 1)});
      if (size > 64)
        writeTag(live.back());
      break;
    }
    case 1: // another reference (a second variable, a view)
      if (!live.empty()) {
        Array &a = live[random() % live.size()];
        plait_rt_array_retain(address(a.data));
        ++a.references;
      }
      break;
    case 2: // a reference dies; the last frees the array
      if (!live.empty()) {
        size_t k = random() % live.size();
        if (live[k].size > 64 && !tagIntact(live[k]))
          return false;
        plait_rt_array_release(address(live[k].data));
        if (--live[k].references == 0)
          live.erase(live.begin() + static_cast<long>(k));
      }
      break;
    default: // a product of two arrays the call made (int64: no BLAS)
      if (live.size() >= 2 && live[0].size <= 64 && live[1].size <= 64) {
        Array &a = live[0], &b = live[1];
        int64_t n = std::min(a.size, b.size);
        int64_t dims[1] = {n}, strides[1] = {1}, out = 0;
        plait_rt_matmul(PLAIT_LINALG_I64, 0, address(a.data), 1, address(dims), address(strides),
                        address(b.data), 1, address(dims), address(strides), address(&out));
        int64_t expected = 0;
        for (int64_t i = 0; i < n; ++i)
          expected += a.data[i] * b.data[i];
        if (out != expected)
          return false;
      }
      break;
    }
    if (raises && step == steps / 2)
      return true; // an exception: the arena frees everything still live
  }
  // Returns one array to the caller (the dispatcher wraps it in NumPy's
  // array); the rest go when their references die or with the arena.
  if (!live.empty()) {
    Array &kept = live.back();
    if (!arena.release(kept.data))
      return false;
    returned.push_back(kept.data);
  }
  return true;
}

/// One compiled call with a list of arrays and a list of lists, as compiled
/// code keeps them: items are memref descriptors (5 words for a 1-D array
/// or a list's box) whose allocated pointer is a reference the list owns.
bool listCall(std::mt19937_64 &random) {
  plait::AllocationArena arena;
  constexpr int64_t kItemBytes = 5 * 8, kOwnsFirstWord = 1;
  // `[]`: no layout until its first append settles it.
  int64_t *arrays = plait::newList(0, 0);
  int64_t *lists = plait::newList(0, kItemBytes, kOwnsFirstWord);
  if (!arrays || !lists)
    return false;
  auto append = [&](int64_t *list, int64_t allocated) {
    int64_t length = list[plait::kListLength];
    if (plait_rt_list_reserve(address(list), length + 1, kItemBytes, kOwnsFirstWord) != 0)
      return false;
    auto *item = reinterpret_cast<int64_t *>(list[plait::kListItems]) + 5 * length;
    int64_t words[5] = {allocated, allocated, 0, 1, 1};
    std::memcpy(item, words, sizeof words);
    list[plait::kListLength] = length + 1;
    return true;
  };
  std::vector<int64_t *> made;
  int steps = 10 + static_cast<int>(random() % 30);
  for (int step = 0; step < steps; ++step) {
    switch (random() % 3) {
    case 0: { // arrays.append(np.zeros(n)) or arrays.append(arrays[k]) (retained)
      int64_t length = arrays[plait::kListLength];
      int64_t array;
      if (length > 0 && random() % 2) {
        array = reinterpret_cast<int64_t *>(arrays[plait::kListItems])[5 * (random() % length)];
        plait_rt_array_retain(array);
      } else {
        array = address(_mlir_memref_to_llvm_alloc(8));
      }
      if (!array || !append(arrays, array))
        return false;
      break;
    }
    case 1: // arrays.pop(): the caller's reference, dropped
      if (arrays[plait::kListLength] > 0) {
        int64_t last = --arrays[plait::kListLength];
        plait_rt_array_release(reinterpret_cast<int64_t *>(arrays[plait::kListItems])[5 * last]);
      }
      break;
    default: { // lists.append([...]): a list of its own, holding an array
      int64_t *inner = plait::newList(0, kItemBytes, kOwnsFirstWord);
      if (!inner || !append(inner, address(_mlir_memref_to_llvm_alloc(8))) ||
          !append(lists, address(inner)))
        return false;
      break;
    }
    }
  }
  // A list of arrays takes no items of another layout (once it has one).
  bool settled = arrays[plait::kListItemBytes] != 0;
  if (settled && (plait_rt_list_reserve(address(arrays), 1, 8, 0) != 2 ||
                  plait_rt_list_settle(address(arrays), 8, 0) != 1))
    return false;
  if (random() % 4 == 0)
    return true; // raised: the arena frees boxes, items and arrays alike
  // The last references: every item goes with its list.
  plait_rt_array_release(address(lists));
  plait_rt_array_release(address(arrays));
  return true;
}

/// One compiled call with a dict of arrays: `{}` settled by its first
/// insertion, values replaced (the old one released after the store),
/// entries deleted (their value released), and the dict dropped.
bool dictCall(std::mt19937_64 &random) {
  plait::AllocationArena arena;
  constexpr int64_t kValueWords = 5, kOwnsFirstWord = 1;
  int64_t *dict = plait::newDict(0, 0);
  if (!dict)
    return false;
  int steps = 10 + static_cast<int>(random() % 40);
  for (int step = 0; step < steps; ++step) {
    int64_t key[2] = {static_cast<int64_t>(random() % 8), static_cast<int64_t>(random() % 2)};
    if (random() % 3 == 0) { // del d[k]
      int64_t entry = plait_rt_dict_find(address(dict), address(key));
      if (entry >= 0)
        plait_rt_dict_erase(address(dict), entry);
      continue;
    }
    int64_t entry = -1;
    if (plait_rt_dict_insert(address(dict), address(key), address(key), address(&entry), 2,
                             kValueWords, kOwnsFirstWord, /*strKeys=*/0) != 0)
      return false;
    int64_t *value = reinterpret_cast<int64_t *>(dict[plait::kDictEntries]) +
                     entry * plait::dictEntryWords(dict) + 2;
    int64_t replaced = value[0]; // (0 for a new entry)
    int64_t array = address(_mlir_memref_to_llvm_alloc(8));
    if (!array)
      return false;
    int64_t words[kValueWords] = {array, array, 0, 1, 1};
    std::memcpy(value, words, sizeof words);
    plait_rt_array_release(replaced);
  }
  int64_t other = 0, entry = 0;
  if (dict[plait::kDictKeyWords] != 0 &&
      plait_rt_dict_insert(address(dict), address(&other), address(&other), address(&entry), 1,
                           kValueWords, kOwnsFirstWord, /*strKeys=*/0) != 2)
    return false; // (keys of another layout are refused, once it has one)
  if (random() % 4 == 0)
    return true; // raised: the arena frees it all
  plait_rt_array_release(address(dict));
  return true;
}

/// A new str of one code point (a list's box of int64 items).
int64_t strOf(int64_t point) {
  int64_t *box = plait::newList(1, sizeof(int64_t));
  if (box)
    reinterpret_cast<int64_t *>(box[plait::kListItems])[0] = point;
  return address(box);
}

/// One compiled call with a dict of str keys: keys found by their text
/// from other boxes, each entry holding a reference to its own key, which
/// deleting the entry and dropping the dict release; the strs made for
/// lookups go at once (as compiled code frees temporaries).
bool strKeyCall(std::mt19937_64 &random) {
  plait::AllocationArena arena;
  int64_t *dict = plait::newDict(1, 2, /*owned=*/0, /*strKeys=*/1);
  if (!dict)
    return false;
  int steps = 10 + static_cast<int>(random() % 40);
  for (int step = 0; step < steps; ++step) {
    int64_t key = strOf('a' + static_cast<int64_t>(random() % 6));
    if (!key)
      return false;
    int64_t entry = -1;
    if (random() % 3 == 0) { // del d[k]
      entry = plait_rt_dict_find(address(dict), address(&key));
      if (entry >= 0)
        plait_rt_dict_erase(address(dict), entry);
    } else if (plait_rt_dict_insert(address(dict), address(&key), address(&key), address(&entry), 1,
                                    2, 0, /*strKeys=*/1) != 0) {
      return false;
    }
    plait_rt_array_release(key); // (the temporary: an entry holds its own reference)
  }
  int64_t live = 0;
  for (int64_t point = 'a'; point < 'a' + 6; ++point) {
    int64_t key = strOf(point);
    live += plait_rt_dict_find(address(dict), address(&key)) >= 0;
    plait_rt_array_release(key);
  }
  if (live != dict[plait::kDictLength])
    return false;
  if (random() % 4 == 0)
    return true; // raised: the arena frees it all
  plait_rt_array_release(address(dict));
  return true;
}

//===----------------------------------------------------------------------===//
// Parallel loops
//===----------------------------------------------------------------------===//

/// The pool size main() asks for (PLAIT_NUM_THREADS), whatever the machine.
constexpr int64_t kPoolSize = 4;
/// Long enough for a loaded machine under a sanitizer; a healthy run meets
/// every rendezvous at once.
constexpr double kMeetSeconds = 60;

std::atomic<int> parallelFailures{0};

/// Counts (and says) a failed check; safe on any thread.
bool expect(bool ok, const std::string &what) {
  if (!ok) {
    ++parallelFailures;
    std::fprintf(stderr, "parallel: FAILED: %s\n", what.c_str());
  }
  return ok;
}

/// A unique barrier name per use (barriers are one-shot).
std::string barrierName(const char *what) {
  static std::atomic<int> next{0};
  return std::string("parallel-") + what + "-" + std::to_string(next++);
}

/// What every loop checks: each position runs once, worker ids are below
/// the participants and each belongs to one thread at a time.
struct Coverage {
  explicit Coverage(int64_t count, int64_t participants)
      : hits(new std::atomic<int>[count > 0 ? count : 1]()), count(count),
        participants(participants) {}
  std::unique_ptr<std::atomic<int>[]> hits;
  int64_t count;
  int64_t participants;
  std::atomic<int> badWorkers{0};
  std::atomic<int> calls{0};

  bool run(int64_t begin, int64_t end, int64_t worker) {
    ++calls;
    if (worker < 0 || worker >= participants || begin < 0 || end > count) {
      ++badWorkers;
      return false;
    }
    for (int64_t i = begin; i < end; ++i)
      hits[i].fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  bool exactlyOnce() const {
    for (int64_t i = 0; i < count; ++i)
      if (hits[i].load(std::memory_order_relaxed) != 1)
        return false;
    return badWorkers == 0;
  }
};

/// 1. A sum with per-worker partials (each slot written by one participant
/// only: a shared id would be a race for ThreadSanitizer and a wrong sum).
struct SumLoop {
  struct alignas(64) Partial {
    int64_t sum = 0;
  };
  explicit SumLoop(int64_t count, int64_t participants)
      : coverage(count, participants),
        partials(static_cast<size_t>(participants > 0 ? participants : 1)) {}
  Coverage coverage;
  std::vector<Partial> partials;

  static int64_t value(int64_t i) { return i * (i % 7) - 3 * (i % 5); }
  static int32_t body(void *context, int64_t begin, int64_t end, int64_t worker) {
    auto &loop = *static_cast<SumLoop *>(context);
    if (!loop.coverage.run(begin, end, worker))
      return 0;
    int64_t sum = 0;
    for (int64_t i = begin; i < end; ++i)
      sum += value(i);
    loop.partials[worker].sum += sum;
    return 0;
  }
};

/// Runs a sum of `count` positions with `participants`; true when right.
bool parallelSum(int64_t count, int64_t participants) {
  SumLoop loop(count, participants);
  int32_t status = plait_rt_parallel_for(&SumLoop::body, &loop, count, participants);
  int64_t total = 0, expected = 0;
  for (const SumLoop::Partial &partial : loop.partials)
    total += partial.sum;
  for (int64_t i = 0; i < count; ++i)
    expected += SumLoop::value(i);
  std::string what =
      "sum of " + std::to_string(count) + " with " + std::to_string(participants) + ": ";
  return expect(status == 0, what + "status") &&
         expect(loop.coverage.exactlyOnce(), what + "every position once") &&
         expect(total == expected,
                what + std::to_string(total) + " != " + std::to_string(expected));
}

void testSums() {
  int64_t participants = plait_rt_parallel_participants(1000000);
  expect(participants == kPoolSize, "participants(1e6) is the pool size");
  for (int round = 0; round < 20; ++round)
    parallelSum(1000000, participants);
  for (int64_t count : {0, 1, 2, 3, 5, 7, 8, 9, 17, 31, 1000, 4097})
    for (int64_t asked : {1, 2, 3, 4, 9})
      parallelSum(count, asked);
}

/// 2. `n` participants at once: the first chunk of each meets a rendezvous
/// of `n`, which only happens when all n run at the same time.
struct MeetLoop {
  explicit MeetLoop(int64_t participants) : coverage(1000, participants), first(participants) {}
  Coverage coverage;
  std::string barrier = barrierName("meet");
  std::vector<std::atomic<bool>> first; // a participant's first chunk was taken
  std::atomic<int> met{0};

  static int32_t body(void *context, int64_t begin, int64_t end, int64_t worker) {
    auto &loop = *static_cast<MeetLoop *>(context);
    if (!loop.coverage.run(begin, end, worker))
      return 0;
    if (!loop.first[worker].exchange(true)) {
      plait::RendezvousOutcome outcome =
          plait::rendezvous(loop.barrier, static_cast<unsigned>(loop.first.size()), kMeetSeconds);
      if (expect(outcome.met, "participants ran at once: " + outcome.error))
        ++loop.met;
    }
    return 0;
  }
};

void testConcurrency() {
  for (int64_t participants : {int64_t{2}, kPoolSize}) {
    MeetLoop loop(participants);
    int32_t status = plait_rt_parallel_for(&MeetLoop::body, &loop, 1000, participants);
    expect(status == 0 && loop.coverage.exactlyOnce(), "meeting loop covered every position");
    expect(loop.met == participants, std::to_string(participants) + " participants met");
  }
}

/// 3. A body's own loops run serially, on the caller as on the workers
/// (every participant meets the others in its first chunk, so each runs
/// one at least).
struct NestedLoop {
  MeetLoop meet{kPoolSize};
  std::atomic<int> notSerial{0};

  static int32_t inner(void *context, int64_t begin, int64_t end, int64_t worker) {
    auto *calls = static_cast<int *>(context);
    ++*calls; // (one call on this thread: no other thread touches it)
    return begin == 0 && end == 100 && worker == 0 ? 0 : 1;
  }
  static int32_t body(void *context, int64_t begin, int64_t end, int64_t worker) {
    auto &loop = *static_cast<NestedLoop *>(context);
    if (plait_rt_parallel_participants(1000) != 1)
      ++loop.notSerial;
    int calls = 0;
    if (plait_rt_parallel_for(&inner, &calls, 100, plait_rt_parallel_participants(100)) != 0 ||
        calls != 1)
      ++loop.notSerial;
    return MeetLoop::body(&loop.meet, begin, end, worker);
  }
};

void testNested() {
  expect(plait_rt_parallel_participants(1000) == kPoolSize, "participants outside a loop");
  NestedLoop loop;
  int32_t status = plait_rt_parallel_for(&NestedLoop::body, &loop, 1000, kPoolSize);
  expect(status == 0 && loop.meet.coverage.exactlyOnce(), "nested: every position once");
  expect(loop.meet.met == kPoolSize, "nested: every participant ran");
  expect(loop.notSerial == 0, "nested loops ran serially");
  expect(plait_rt_parallel_participants(1000) == kPoolSize, "participants after a loop");
  expect(plait_rt_parallel_participants(1) == 1 && plait_rt_parallel_participants(0) == 1 &&
             plait_rt_parallel_participants(3) == 3,
         "participants of short loops");
}

/// 4. Errors: the first error's status and message values reach the caller.
struct FailAt {
  int64_t position;
  static int32_t body(void *context, int64_t begin, int64_t end, int64_t worker) {
    int64_t position = static_cast<FailAt *>(context)->position;
    if (position < begin || position >= end)
      return 0;
    plait_rt_set_error_arg(0, position);
    plait_rt_set_error_arg(1, worker);
    return 7;
  }
};

/// Participant 1 fails (on a worker thread, proved by a rendezvous with
/// the caller's first chunk) at its first chunk.
struct WorkerFails {
  std::string barrier = barrierName("fail");
  std::atomic<bool> callerMet{false};
  std::atomic<int64_t> failedAt{-1};
  static int32_t body(void *context, int64_t begin, int64_t end, int64_t worker) {
    auto &loop = *static_cast<WorkerFails *>(context);
    if (worker == 0) {
      if (!loop.callerMet.exchange(true))
        expect(plait::rendezvous(loop.barrier, 2, kMeetSeconds).met, "a worker joined");
      return 0;
    }
    if (worker != 1 || loop.failedAt.load() >= 0)
      return 0;
    expect(plait::rendezvous(loop.barrier, 2, kMeetSeconds).met, "the caller ran");
    loop.failedAt = begin;
    plait_rt_set_error_arg(0, begin);
    plait_rt_set_error_arg(2, -5);
    return 9;
  }
};

/// Every chunk fails, with its own status: the one returned is the one
/// whose values the caller gets.
int32_t everyChunkFails(void *, int64_t begin, int64_t, int64_t worker) {
  int32_t status = 100 + static_cast<int32_t>(worker);
  plait_rt_set_error_arg(0, begin);
  plait_rt_set_error_arg(1, status);
  return status;
}

void testErrors() {
  for (int64_t position : {int64_t{0}, int64_t{123457}, int64_t{999999}}) {
    plait_rt_set_error_arg(0, -1);
    FailAt loop{position};
    int32_t status = plait_rt_parallel_for(&FailAt::body, &loop, 1000000, kPoolSize);
    expect(status == 7, "a failing loop returns the body's status");
    expect(plait::lastErrorArguments()[0] == position, "the error's value reaches the caller");
  }
  {
    plait_rt_set_error_arg(0, -1);
    plait_rt_set_error_arg(2, 0);
    WorkerFails loop;
    int32_t status = plait_rt_parallel_for(&WorkerFails::body, &loop, 1000, 2);
    auto arguments = plait::lastErrorArguments();
    expect(status == 9, "a worker's error status reaches the caller");
    expect(loop.failedAt >= 0 && arguments[0] == loop.failedAt && arguments[2] == -5,
           "a worker's error values are recorded on the caller");
  }
  for (int round = 0; round < 20; ++round) {
    int32_t status = plait_rt_parallel_for(&everyChunkFails, nullptr, 100000, kPoolSize);
    auto arguments = plait::lastErrorArguments();
    expect(status >= 100 && status < 100 + kPoolSize && arguments[1] == status,
           "the values of the error returned, not another's");
  }
  // A failing serial loop (one participant) is just a call of the body.
  FailAt serial{5};
  expect(plait_rt_parallel_for(&FailAt::body, &serial, 10, 1) == 7 &&
             plait::lastErrorArguments()[0] == 5,
         "a serial loop's error");
}

/// 5. Callers at once: more than the pool has workers, each with its own
/// limit, all sharing the pool.
void testManyCallers() {
  constexpr int kCallers = 6, kLoops = 150;
  std::vector<int> failures(kCallers, 0);
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([t, &failures] {
      std::mt19937_64 random(99 + t);
      for (int i = 0; i < kLoops; ++i) {
        int64_t limit = 1 + static_cast<int64_t>(random() % kPoolSize);
        if (!plait::setParallelThreads(limit))
          ++failures[t];
        int64_t count = random() % 4 == 0 ? static_cast<int64_t>(random() % 200000)
                                          : static_cast<int64_t>(random() % 100);
        int64_t participants = plait_rt_parallel_participants(count);
        if (participants > limit || !parallelSum(count, participants))
          ++failures[t];
      }
    });
  for (std::thread &caller : callers)
    caller.join();
  for (int t = 0; t < kCallers; ++t)
    expect(failures[t] == 0,
           "caller " + std::to_string(t) + " failed " + std::to_string(failures[t]) + " loops");
}

/// 6. Bodies allocate into the caller's arena (blocks outlive their
/// chunk, the arena frees what is left) and share arrays across threads.
struct AllocatingLoop {
  explicit AllocatingLoop(int64_t count) : count(count), kept(count), shared(0) {}
  int64_t count;
  std::vector<int64_t *> kept; // a block per position, made by whoever ran it
  int64_t *shared;             // retained per position here, released in another loop
  std::vector<int64_t *> freedByWorkers;
  std::atomic<int> failed{0};

  static int32_t allocate(void *context, int64_t begin, int64_t end, int64_t) {
    auto &loop = *static_cast<AllocatingLoop *>(context);
    for (int64_t i = begin; i < end; ++i) {
      plait_rt_array_retain(address(loop.shared));
      // A temporary, freed at once (through the caller's arena, from here).
      auto *temporary = static_cast<int64_t *>(_mlir_memref_to_llvm_alloc(4 * sizeof(int64_t)));
      if (!temporary) {
        ++loop.failed;
        continue;
      }
      temporary[3] = i;
      plait_rt_array_release(address(temporary));
      // A block the loop keeps (and the arena or the caller frees).
      auto *block = static_cast<int64_t *>(
          i % 3 ? _mlir_memref_to_llvm_alloc(2 * sizeof(int64_t))
                : _mlir_memref_to_llvm_aligned_alloc(64, 2 * sizeof(int64_t)));
      if (!block) {
        ++loop.failed;
        continue;
      }
      block[0] = i;
      block[1] = loop.shared[0];
      loop.kept[i] = block;
      // Blocks the caller made, freed here.
      if (i < static_cast<int64_t>(loop.freedByWorkers.size()))
        plait_rt_array_release(address(loop.freedByWorkers[i]));
    }
    return 0;
  }
  static int32_t release(void *context, int64_t begin, int64_t end, int64_t) {
    auto &loop = *static_cast<AllocatingLoop *>(context);
    for (int64_t i = begin; i < end; ++i) {
      if (loop.kept[i] && loop.kept[i][0] != i)
        ++loop.failed;
      plait_rt_array_release(address(loop.shared));
    }
    return 0;
  }
};

bool allocatingCall(std::mt19937_64 &random, std::vector<void *> &returned) {
  plait::AllocationArena arena;
  int64_t count = 1 + static_cast<int64_t>(random() % 3000);
  AllocatingLoop loop(count);
  loop.shared = static_cast<int64_t *>(_mlir_memref_to_llvm_alloc(sizeof(int64_t)));
  if (!loop.shared)
    return false;
  loop.shared[0] = 42;
  // Out of the arena (as a result the caller owns): only a right count
  // frees it, once (else a leak or a double free for AddressSanitizer).
  if (!arena.release(loop.shared))
    return false;
  for (int64_t i = 0; i < count / 2; ++i)
    loop.freedByWorkers.push_back(static_cast<int64_t *>(_mlir_memref_to_llvm_alloc(8)));
  int64_t participants = plait_rt_parallel_participants(count);
  if (plait_rt_parallel_for(&AllocatingLoop::allocate, &loop, count, participants) != 0 ||
      plait_rt_parallel_for(&AllocatingLoop::release, &loop, count, participants) != 0 ||
      loop.failed != 0)
    return false;
  for (int64_t i = 0; i < count; ++i)
    if (!loop.kept[i] || loop.kept[i][0] != i || loop.kept[i][1] != 42)
      return false;
  plait_rt_array_release(address(loop.shared)); // the last reference
  // Some blocks the workers made are freed here, one is returned, the
  // arena frees the rest.
  for (int64_t i = 0; i < count; i += 2)
    plait_rt_array_release(address(loop.kept[i]));
  if (count > 1 && random() % 2) {
    if (!arena.release(loop.kept[1]))
      return false;
    returned.push_back(loop.kept[1]);
  }
  return true;
}

void testAllocation() {
  constexpr int kCallers = 3, kCalls = 40;
  std::vector<int> failures(kCallers, 0);
  std::vector<std::thread> callers;
  for (int t = 0; t < kCallers; ++t)
    callers.emplace_back([t, &failures] {
      std::mt19937_64 random(555 + t);
      std::vector<void *> returned;
      for (int call = 0; call < kCalls; ++call)
        if (!allocatingCall(random, returned))
          ++failures[t];
      for (void *p : returned)
        plait::freeArrayAllocation(p);
    });
  for (std::thread &caller : callers)
    caller.join();
  for (int t = 0; t < kCallers; ++t)
    expect(failures[t] == 0, "allocating caller " + std::to_string(t));
}

/// 7. The per-thread limit.
void testLimits() {
  expect(plait::parallelPoolSize() == kPoolSize, "the pool size is PLAIT_NUM_THREADS");
  std::thread([] {
    expect(plait::parallelThreads() == kPoolSize, "a thread's limit starts at the pool size");
    expect(plait::setParallelThreads(1) && plait::parallelThreads() == 1 &&
               plait_rt_parallel_participants(1000) == 1,
           "setParallelThreads(1)");
    expect(!plait::setParallelThreads(0) && !plait::setParallelThreads(kPoolSize + 1) &&
               !plait::setParallelThreads(-1) && plait::parallelThreads() == 1,
           "invalid limits are refused and change nothing");
    expect(plait::setParallelThreads(2) && plait_rt_parallel_participants(1000) == 2 &&
               plait_rt_parallel_participants(1) == 1,
           "setParallelThreads(2)");
    expect(plait::setParallelThreads(kPoolSize) &&
               plait_rt_parallel_participants(1000) == kPoolSize,
           "setParallelThreads(pool size)");
    plait::setParallelThreads(1);
    parallelSum(10000, plait_rt_parallel_participants(10000));
  }).join();
  expect(plait::parallelThreads() == kPoolSize, "limits are per thread");
}

/// After fork() the child's loops run in parallel again (a pool of its own).
void testFork() {
#if defined(PLAIT_TSAN)
  std::printf("parallel: fork check skipped under ThreadSanitizer (no threads after fork)\n");
#else
  std::fflush(nullptr);
  pid_t child = fork();
  if (child == 0) {
    parallelFailures = 0;
    MeetLoop loop(2);
    bool ok = plait_rt_parallel_for(&MeetLoop::body, &loop, 1000, 2) == 0 && loop.met == 2 &&
              loop.coverage.exactlyOnce() && parallelSum(100000, kPoolSize) &&
              parallelFailures == 0;
    std::fflush(nullptr);
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  expect(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) &&
             WEXITSTATUS(status) == 0,
         "parallel loops in a forked child");
#endif
}

int parallelTests() {
  testLimits();
  testSums();
  testConcurrency();
  testNested();
  testErrors();
  testManyCallers();
  testAllocation();
  testFork();
  std::printf("parallel loops: pool of %lld, %d failures\n",
              static_cast<long long>(plait::parallelPoolSize()), parallelFailures.load());
  return parallelFailures.load();
}

} // namespace

int main() {
  // Before the pool's first use, so that the tests do not depend on the
  // machine's cores.
  setenv("PLAIT_NUM_THREADS", std::to_string(kPoolSize).c_str(), 1);
  constexpr int kThreads = 4, kCalls = 2000;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures] {
      std::mt19937_64 random(1234 + t);
      std::vector<void *> returned;
      for (int call = 0; call < kCalls; ++call)
        if (!oneCall(random, returned) || !listCall(random) || !dictCall(random) ||
            !strKeyCall(random))
          ++failures[t];
      // The caller's arrays die with their NumPy owners.
      for (void *p : returned)
        plait::freeArrayAllocation(p);
    });
  for (std::thread &thread : threads)
    thread.join();
  int total = 0;
  for (int f : failures)
    total += f;
  std::printf("runtime stress: %d threads x %d calls, %d failures\n", kThreads, kCalls, total);
  total += parallelTests();
  return total == 0 ? 0 : 1;
}
