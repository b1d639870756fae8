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
//===----------------------------------------------------------------------===//
#include "plait/Runtime/Dicts.h"
#include "plait/Runtime/LinearAlgebra.h"
#include "plait/Runtime/Lists.h"
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
  return total == 0 ? 0 : 1;
}
