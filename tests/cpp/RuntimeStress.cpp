//===- RuntimeStress.cpp - the array runtime under the sanitizers ---------===//
//
// A standalone test (no gtest, no LLVM) of what compiled code calls for its
// arrays: allocations with reference counts, retain/release, the per-call
// arena that frees what a call leaves behind (its error paths) and hands
// what it returns to the caller, and the product runtime over memory it
// allocated. Threads run calls at once, as compiled code does (each call's
// arrays belong to its thread). Built and run under AddressSanitizer (with
// leak detection and UBSan) and ThreadSanitizer by `make test-sanitizers`:
// a use after free, a double free, a leak or a race fails it.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/LinearAlgebra.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

namespace {

struct Array {
  int64_t *data;
  int64_t size;
  int64_t references; // what the test believes the count is
};

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
    case 0: { // a new array (aligned as MLIR asks for vectors, sometimes)
      int64_t size = 1 + static_cast<int64_t>(random() % 64);
      size_t alignment = size_t{16} << (random() % 3);
      void *p = random() % 2 ? _mlir_memref_to_llvm_alloc(size * 8)
                             : _mlir_memref_to_llvm_aligned_alloc(alignment, size * 8);
      if (!p)
        return false;
      auto *data = static_cast<int64_t *>(p);
      for (int64_t i = 0; i < size; ++i)
        data[i] = i; // every byte is the array's own
      live.push_back({data, size, 1});
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
        plait_rt_array_release(address(live[k].data));
        if (--live[k].references == 0)
          live.erase(live.begin() + static_cast<long>(k));
      }
      break;
    default: // a product of two arrays the call made (int64: no BLAS)
      if (live.size() >= 2) {
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

} // namespace

int main() {
  constexpr int kThreads = 4, kCalls = 2000;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t, &failures] {
      std::mt19937_64 random(1234 + t);
      std::vector<void *> returned;
      for (int call = 0; call < kCalls; ++call)
        if (!oneCall(random, returned))
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
  return total == 0 ? 0 : 1;
}
