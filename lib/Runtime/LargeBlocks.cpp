//===- LargeBlocks.cpp - memory for large arrays --------------------------===//
#include "plait/Runtime/LargeBlocks.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace plait {
namespace {

/// Blocks from this size up are large: kept when freed, and advised to use
/// huge pages (NumPy advises from 4 MiB).
constexpr size_t kLargeFrom = size_t(1) << 20;
constexpr size_t kHugeAdviceFrom = size_t(1) << 22;
/// At most this many blocks and bytes are kept: the working set of a few
/// temporaries, not a pool.
constexpr size_t kKeptBlocks = 8;
constexpr size_t kKeptBytes = size_t(256) << 20;

struct Kept {
  void *block = nullptr;
  size_t bytes = 0;
};

/// The kept blocks, shared by all threads (one lock: taking a block costs
/// far less than touching its pages). Never destroyed, since NumPy may free
/// a result during interpreter shutdown.
struct Shelf {
  std::mutex lock;
  std::array<Kept, kKeptBlocks> blocks;
  size_t bytes = 0;
};

Shelf &shelf() {
  static Shelf *instance = new Shelf();
  return *instance;
}

size_t usableBytes(void *block) {
#if defined(__GLIBC__)
  return malloc_usable_size(block);
#else
  (void)block;
  return 0; // unknown: nothing is kept
#endif
}

} // namespace

void adviseHugePages(void *block, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kPage = 4096;
  if (bytes < kHugeAdviceFrom)
    return;
  uintptr_t start = (reinterpret_cast<uintptr_t>(block) + kPage - 1) & ~(kPage - 1);
  uintptr_t end = reinterpret_cast<uintptr_t>(block) + bytes;
  if (end > start)
    madvise(reinterpret_cast<void *>(start), end - start, MADV_HUGEPAGE); // advice only
#else
  (void)block;
  (void)bytes;
#endif
}

void *allocateBlock(size_t bytes) {
  if (bytes >= kLargeFrom) {
    // The smallest kept block that fits, if it wastes at most half of itself.
    Shelf &kept = shelf();
    std::lock_guard<std::mutex> guard(kept.lock);
    Kept *best = nullptr;
    for (Kept &entry : kept.blocks)
      if (entry.block && entry.bytes >= bytes && entry.bytes / 2 <= bytes &&
          (!best || entry.bytes < best->bytes))
        best = &entry;
    if (best) {
      void *block = best->block;
      kept.bytes -= best->bytes;
      *best = {};
      return block;
    }
  }
  void *block = std::malloc(bytes);
  if (block)
    adviseHugePages(block, bytes);
  return block;
}

void freeBlock(void *block) {
  if (!block)
    return;
  size_t bytes = usableBytes(block);
  if (bytes >= kLargeFrom && bytes <= kKeptBytes) {
    Shelf &kept = shelf();
    void *evicted = nullptr;
    {
      std::lock_guard<std::mutex> guard(kept.lock);
      // A free place, else the oldest (first) entry goes; then enough
      // others that the total stays within the bound.
      Kept *place = nullptr;
      for (Kept &entry : kept.blocks)
        if (!entry.block) {
          place = &entry;
          break;
        }
      if (!place) {
        evicted = kept.blocks[0].block;
        kept.bytes -= kept.blocks[0].bytes;
        std::rotate(kept.blocks.begin(), kept.blocks.begin() + 1, kept.blocks.end());
        place = &kept.blocks.back();
        *place = {};
      }
      for (Kept &entry : kept.blocks) {
        if (kept.bytes + bytes <= kKeptBytes)
          break;
        if (entry.block) {
          std::free(entry.block);
          kept.bytes -= entry.bytes;
          entry = {};
        }
      }
      *place = {block, bytes};
      kept.bytes += bytes;
    }
    std::free(evicted);
    return;
  }
  std::free(block);
}

} // namespace plait
