//===- Dicts.h - typed dicts of compiled code -----------------------*-===//
//
// A dict is a box as a list is (Lists.h): a reference-counted allocation of
// int64 words, flagged so that releasing its last reference releases its
// storage. Its entries are kept in insertion order (CPython's compact
// dict): each is `entryWords` words, the key's words first (a key is
// normalised by compiled code, so equal keys have equal words), then the
// value's, then the key's own words as it was first put in (-0.0 stays
// -0.0, as CPython keeps the first key object), then a word that is 1
// while the entry is alive. An index table of open addressing maps a key's
// hash to its entry. A dict made as `{}` has no key words until its first
// insertion gives them (a tuple key takes one word per element). A key word
// may be a str (Strings.h: a list's box of code points), hashed and compared
// by its code points; the entry owns a reference to it.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_DICTS_H
#define PLAIT_RUNTIME_DICTS_H

#include <cstdint>

namespace plait {
/// The words of a dict's box.
enum DictWord : int64_t {
  kDictLength = 0,   // live entries
  kDictUsed = 1,     // entries made (dead ones too)
  kDictCapacity = 2, // entries there is room for
  kDictEntries = 3,  // the entries' allocation
  kDictIndex = 4,    // the index table's allocation (int64 entry + 1, 0 free)
  kDictSlots = 5,    // the index table's size (a power of two)
  kDictKeyWords = 6,
  kDictValueWords = 7,
  kDictChanged = 8,    // compiled code changed it (arguments are written back)
  kDictOwnedWords = 9, // bit w: value word w is a reference the entry owns
  kDictStrKeys = 10,   // bit w: key word w is a str (compared by its text)
};
constexpr int64_t kDictWords = 11;

/// The words of one entry: key, value, the key as first put in, alive flag.
inline int64_t dictEntryWords(const int64_t *box) {
  return 2 * box[kDictKeyWords] + box[kDictValueWords] + 1;
}
/// The entry's words holding the key as first put in.
inline int64_t dictOriginalKey(const int64_t *box) {
  return box[kDictKeyWords] + box[kDictValueWords];
}

/// A new empty dict (allocated as compiled code allocates), or null.
int64_t *newDict(int64_t keyWords, int64_t valueWords, uint64_t owned = 0, uint64_t strKeys = 0);

/// Releases the references the keys and values of `box`'s live entries
/// own (its last reference went).
void releaseDictEntries(const int64_t *box);
} // namespace plait

extern "C" {
/// Makes `box` (a fresh allocation of kDictWords words) an empty dict
/// whose values' words set in `owned` are references they own and whose
/// key words set in `strKeys` are strs (`keyWords` 0: the layout is given
/// by its first insertion). Returns 0, or 1 when memory runs out.
int32_t plait_rt_dict_init(int64_t box, int64_t keyWords, int64_t valueWords, int64_t owned,
                           int64_t strKeys);
/// The entry holding the key at `key` (its words), or -1.
int64_t plait_rt_dict_find(int64_t box, int64_t key);
/// Writes to `*entry` the entry of the key at `key` (`keyWords` words),
/// made (with the words at `original` as the key's own, and its value
/// words zero, for the caller to fill; a new entry retains its str keys)
/// if there is none; `valueWords`, `owned` and `strKeys` are the layout.
/// Returns 0, 1 when memory runs out, or 2 when the dict has another
/// layout.
int32_t plait_rt_dict_insert(int64_t box, int64_t key, int64_t original, int64_t entry,
                             int64_t keyWords, int64_t valueWords, int64_t owned, int64_t strKeys);
/// Removes entry `entry` (alive), releasing what its value owns (its str
/// keys go when the entries are rebuilt: the index still compares with them).
void plait_rt_dict_erase(int64_t box, int64_t entry);
}

#endif // PLAIT_RUNTIME_DICTS_H
