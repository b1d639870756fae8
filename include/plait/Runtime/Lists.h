//===- Lists.h - typed lists of compiled code -----------------------*-===//
//
// A list is a box: a reference-counted allocation of six int64 words
// (length, capacity, the items' allocation, the bytes of one item, whether
// compiled code changed the list: the dispatcher then writes a list
// argument's new items back to the caller's list, and which words of an
// item are references it owns: arrays' and lists' allocations), marked
// so that releasing its last reference releases the items too. Compiled code
// holds the box as a 1-D int64 memref, so variables, temporaries and
// returns own lists exactly as they own arrays, and every alias sees an
// append that moves the items.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_LISTS_H
#define PLAIT_RUNTIME_LISTS_H

#include <cstdint>

namespace plait {
/// The words of a list's box.
enum ListWord : int64_t {
  kListLength = 0,
  kListCapacity = 1,
  kListItems = 2,
  kListItemBytes = 3,
  kListChanged = 4,
  kListOwnedWords = 5
};
constexpr int64_t kListWords = 6;

/// A new box and items for `length` items of `itemBytes` each (items
/// uninitialised; `owned` as plait_rt_list_init takes it), allocated as
/// compiled code allocates (in the calling thread's arena); null when
/// memory runs out.
int64_t *newList(int64_t length, int64_t itemBytes, uint64_t owned = 0);

/// Releases the references the items of `box` own (its last reference
/// went).
void releaseListItems(const int64_t *box);
} // namespace plait

extern "C" {
/// Makes `box` (a fresh allocation of kListWords words) a list of `length`
/// items of `itemBytes` each, whose words set in the mask `owned` (bit w:
/// word w of an item) are allocations the item holds a reference to.
/// Returns 0, or 1 when memory runs out.
int32_t plait_rt_list_init(int64_t box, int64_t length, int64_t itemBytes, int64_t owned);
/// Gives `box` (a list of no typed items so far: `[]`) items of
/// `itemBytes` each, owning the words in `owned`. Returns 0, or 1 when it
/// already holds items of another layout (two names typing did not link
/// gave it two item types).
int32_t plait_rt_list_settle(int64_t box, int64_t itemBytes, int64_t owned);
/// A new list (in the calling thread's arena) holding a copy of the items
/// of `box`: numbers and tuples of them, or (`depth` > 0) lists holding
/// those `depth` levels down, copied too. What a raise message shows is the
/// list as it was when it was raised. Returns its address, or 0 when memory
/// runs out.
int64_t plait_rt_list_copy(int64_t box, int64_t depth);
/// Makes room for `length` items of `itemBytes` each, owning the words in
/// `owned` (growing as CPython does, so that appends cost amortised
/// constant time); the length word is the caller's to set. A list of no
/// typed items so far (an empty list made inside another) takes that
/// layout. Returns 0, 1 when memory runs out, or 2 when the list holds
/// items of another layout.
int32_t plait_rt_list_reserve(int64_t box, int64_t length, int64_t itemBytes, int64_t owned);
}

#endif // PLAIT_RUNTIME_LISTS_H
