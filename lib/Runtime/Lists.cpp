//===- Lists.cpp - typed lists of compiled code ---------------------------===//
#include "plait/Runtime/Lists.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <cstring>
#include <limits>

namespace {
int64_t *boxAt(int64_t address) { return reinterpret_cast<int64_t *>(address); }

/// CPython's over-allocation (Objects/listobject.c, list_resize).
int64_t grownCapacity(int64_t length) {
  int64_t capacity = (length + (length >> 3) + 6) & ~int64_t(3);
  return capacity < length ? length : capacity;
}

bool allocateItems(int64_t *box, int64_t capacity) {
  int64_t itemBytes = box[plait::kListItemBytes];
  if (capacity > std::numeric_limits<int64_t>::max() / 2 / (itemBytes ? itemBytes : 1))
    return false;
  // At least one byte, so that an empty list still has an allocation.
  void *items = _mlir_memref_to_llvm_alloc(static_cast<size_t>(capacity * itemBytes) + 1);
  if (!items)
    return false;
  int64_t previous = box[plait::kListItems];
  if (previous) {
    std::memcpy(items, reinterpret_cast<void *>(previous),
                static_cast<size_t>(box[plait::kListLength] * itemBytes));
    plait_rt_array_release(previous);
  }
  box[plait::kListItems] = reinterpret_cast<int64_t>(items);
  box[plait::kListCapacity] = capacity;
  return true;
}
} // namespace

namespace plait {
int64_t *newList(int64_t length, int64_t itemBytes, uint64_t owned) {
  auto *box = static_cast<int64_t *>(_mlir_memref_to_llvm_alloc(kListWords * sizeof(int64_t)));
  if (!box)
    return nullptr;
  if (plait_rt_list_init(reinterpret_cast<int64_t>(box), length, itemBytes,
                         static_cast<int64_t>(owned)) != 0) {
    plait_rt_array_release(reinterpret_cast<int64_t>(box));
    return nullptr;
  }
  return box;
}

void releaseListItems(const int64_t *box) {
  auto owned = static_cast<uint64_t>(box[kListOwnedWords]);
  if (owned == 0 || box[kListItems] == 0)
    return;
  const auto *words = reinterpret_cast<const int64_t *>(box[kListItems]);
  int64_t perItem = box[kListItemBytes] / 8;
  for (int64_t k = 0; k < box[kListLength]; ++k)
    for (int64_t w = 0; w < perItem && w < 64; ++w)
      if (owned >> w & 1)
        plait_rt_array_release(words[k * perItem + w]);
}
} // namespace plait

extern "C" int32_t plait_rt_list_init(int64_t address, int64_t length, int64_t itemBytes,
                                      int64_t owned) {
  int64_t *box = boxAt(address);
  box[plait::kListLength] = 0;
  box[plait::kListCapacity] = 0;
  box[plait::kListItems] = 0;
  box[plait::kListItemBytes] = itemBytes;
  box[plait::kListChanged] = 0;
  box[plait::kListOwnedWords] = owned;
  plait::markListBox(box);
  if (length < 0 || !allocateItems(box, length))
    return 1;
  box[plait::kListLength] = length;
  return 0;
}

extern "C" int64_t plait_rt_list_copy(int64_t address, int64_t depth) {
  const int64_t *box = boxAt(address);
  int64_t length = box[plait::kListLength];
  int64_t *copy = plait::newList(length, box[plait::kListItemBytes],
                                 static_cast<uint64_t>(box[plait::kListOwnedWords]));
  if (!copy)
    return 0;
  const auto *from = reinterpret_cast<const int64_t *>(box[plait::kListItems]);
  auto *to = reinterpret_cast<int64_t *>(copy[plait::kListItems]);
  if (depth == 0) {
    std::memcpy(to, from, static_cast<size_t>(length * box[plait::kListItemBytes]));
    return reinterpret_cast<int64_t>(copy);
  }
  // Lists: each item a list's descriptor (allocated and aligned pointer:
  // its box), the copy's own.
  for (int64_t k = 0; k < length; ++k) {
    int64_t inner = plait_rt_list_copy(from[5 * k + 1], depth - 1);
    if (inner == 0)
      return 0; // (the arena frees what was made)
    int64_t descriptor[5] = {inner, inner, 0, plait::kListWords, 1};
    std::memcpy(to + 5 * k, descriptor, sizeof descriptor);
  }
  return reinterpret_cast<int64_t>(copy);
}

extern "C" int32_t plait_rt_list_reserve(int64_t address, int64_t length, int64_t itemBytes,
                                         int64_t owned) {
  int64_t *box = boxAt(address);
  if (box[plait::kListItemBytes] != itemBytes || box[plait::kListOwnedWords] != owned) {
    if (box[plait::kListItemBytes] != 0)
      return 2;
    box[plait::kListItemBytes] = itemBytes;
    box[plait::kListOwnedWords] = owned;
  }
  if (length <= box[plait::kListCapacity])
    return 0;
  return allocateItems(box, grownCapacity(length)) ? 0 : 1;
}

extern "C" int32_t plait_rt_list_settle(int64_t address, int64_t itemBytes, int64_t owned) {
  int64_t *box = boxAt(address);
  if (box[plait::kListItemBytes] != 0 &&
      (box[plait::kListItemBytes] != itemBytes || box[plait::kListOwnedWords] != owned))
    return 1;
  box[plait::kListItemBytes] = itemBytes;
  box[plait::kListOwnedWords] = owned;
  return 0;
}
