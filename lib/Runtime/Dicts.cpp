//===- Dicts.cpp - typed dicts of compiled code ---------------------------===//
#include "plait/Runtime/Dicts.h"
#include "plait/Runtime/Lists.h"
#include "plait/Runtime/RuntimeSymbols.h"

#include <cstring>
#include <limits>

namespace {
int64_t *boxAt(int64_t address) { return reinterpret_cast<int64_t *>(address); }

int64_t *wordsAt(int64_t address) { return reinterpret_cast<int64_t *>(address); }

void mix(uint64_t &h, uint64_t word) {
  h ^= word + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
}

/// A str key word's code points and their count.
const int64_t *strPoints(int64_t word, int64_t &length) {
  const int64_t *str = wordsAt(word);
  length = str[plait::kListLength];
  return wordsAt(str[plait::kListItems]);
}

/// A hash of a key's words, a str by its code points (the order of
/// iteration does not depend on it).
uint64_t hashOf(const int64_t *box, const int64_t *key) {
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  auto strKeys = static_cast<uint64_t>(box[plait::kDictStrKeys]);
  for (int64_t k = 0; k < box[plait::kDictKeyWords]; ++k) {
    if (k < 64 && (strKeys >> k & 1)) {
      int64_t length;
      const int64_t *points = strPoints(key[k], length);
      mix(h, static_cast<uint64_t>(length));
      for (int64_t i = 0; i < length; ++i)
        mix(h, static_cast<uint64_t>(points[i]));
      continue;
    }
    mix(h, static_cast<uint64_t>(key[k]));
  }
  return h;
}

/// Whether two keys' words are one key (strs by their code points).
bool sameKey(const int64_t *box, const int64_t *a, const int64_t *b) {
  auto strKeys = static_cast<uint64_t>(box[plait::kDictStrKeys]);
  for (int64_t k = 0; k < box[plait::kDictKeyWords]; ++k) {
    if (a[k] == b[k])
      continue;
    if (k >= 64 || !(strKeys >> k & 1))
      return false;
    int64_t n, m;
    const int64_t *p = strPoints(a[k], n), *q = strPoints(b[k], m);
    if (n != m || (n && std::memcmp(p, q, static_cast<size_t>(n) * sizeof(int64_t)) != 0))
      return false;
  }
  return true;
}

/// Retains (or releases) the strs among an entry's key words.
void holdStrKeys(const int64_t *box, const int64_t *key, bool retain) {
  auto strKeys = static_cast<uint64_t>(box[plait::kDictStrKeys]);
  for (int64_t k = 0; strKeys && k < box[plait::kDictKeyWords] && k < 64; ++k)
    if (strKeys >> k & 1) {
      if (retain)
        plait_rt_array_retain(key[k]);
      else
        plait_rt_array_release(key[k]);
    }
}

void *allocateWords(int64_t count) {
  if (count < 0 || count > std::numeric_limits<int64_t>::max() / 16)
    return nullptr;
  return _mlir_memref_to_llvm_alloc(static_cast<size_t>(count) * sizeof(int64_t) + 8);
}

/// The index slot of `key`: its entry's, or the free slot it would take.
int64_t slotOf(const int64_t *box, const int64_t *key, uint64_t hash) {
  const int64_t *index = wordsAt(box[plait::kDictIndex]);
  const int64_t *entries = wordsAt(box[plait::kDictEntries]);
  int64_t mask = box[plait::kDictSlots] - 1;
  int64_t entryWords = plait::dictEntryWords(box);
  for (int64_t slot = static_cast<int64_t>(hash & static_cast<uint64_t>(mask));;
       slot = (slot + 1) & mask) {
    int64_t held = index[slot];
    if (held == 0 || sameKey(box, entries + (held - 1) * entryWords, key))
      return slot;
  }
}

/// Rebuilds the index with room for `capacity` entries, dropping dead
/// entries (their order kept), and grows the entries to `capacity`.
bool rebuild(int64_t *box, int64_t capacity) {
  int64_t entryWords = plait::dictEntryWords(box);
  int64_t slots = 8;
  while (slots < capacity * 3 / 2 + 1)
    slots *= 2;
  auto *entries = static_cast<int64_t *>(allocateWords(capacity * entryWords));
  auto *index = static_cast<int64_t *>(allocateWords(slots));
  if (!entries || !index) {
    if (entries)
      plait_rt_array_release(reinterpret_cast<int64_t>(entries));
    if (index)
      plait_rt_array_release(reinterpret_cast<int64_t>(index));
    return false;
  }
  std::memset(index, 0, static_cast<size_t>(slots) * sizeof(int64_t));
  int64_t kept = 0;
  if (box[plait::kDictEntries]) {
    const int64_t *old = wordsAt(box[plait::kDictEntries]);
    for (int64_t k = 0; k < box[plait::kDictUsed]; ++k) {
      const int64_t *entry = old + k * entryWords;
      if (!entry[entryWords - 1]) {
        holdStrKeys(box, entry, /*retain=*/false); // (a dead entry's key goes with it)
        continue;
      }
      std::memcpy(entries + kept * entryWords, entry,
                  static_cast<size_t>(entryWords) * sizeof(int64_t));
      ++kept;
    }
    plait_rt_array_release(box[plait::kDictEntries]);
    plait_rt_array_release(box[plait::kDictIndex]);
  }
  box[plait::kDictEntries] = reinterpret_cast<int64_t>(entries);
  box[plait::kDictIndex] = reinterpret_cast<int64_t>(index);
  box[plait::kDictSlots] = slots;
  box[plait::kDictCapacity] = capacity;
  box[plait::kDictUsed] = kept;
  for (int64_t k = 0; k < kept; ++k) {
    const int64_t *key = entries + k * entryWords;
    index[slotOf(box, key, hashOf(box, key))] = k + 1;
  }
  return true;
}
} // namespace

namespace plait {
int64_t *newDict(int64_t keyWords, int64_t valueWords, uint64_t owned, uint64_t strKeys) {
  auto *box = static_cast<int64_t *>(allocateWords(kDictWords));
  if (!box)
    return nullptr;
  if (plait_rt_dict_init(reinterpret_cast<int64_t>(box), keyWords, valueWords,
                         static_cast<int64_t>(owned), static_cast<int64_t>(strKeys)) != 0) {
    plait_rt_array_release(reinterpret_cast<int64_t>(box));
    return nullptr;
  }
  return box;
}

void releaseDictEntries(const int64_t *box) {
  auto owned = static_cast<uint64_t>(box[kDictOwnedWords]);
  if ((owned == 0 && box[kDictStrKeys] == 0) || box[kDictEntries] == 0)
    return;
  int64_t entryWords = dictEntryWords(box);
  for (int64_t k = 0; k < box[kDictUsed]; ++k) {
    const int64_t *entry = wordsAt(box[kDictEntries]) + k * entryWords;
    holdStrKeys(box, entry, /*retain=*/false); // (dead entries keep theirs)
    if (!entry[entryWords - 1])
      continue; // (a dead entry's value went when it died)
    for (int64_t w = 0; w < box[kDictValueWords] && w < 64; ++w)
      if (owned >> w & 1)
        plait_rt_array_release(entry[box[kDictKeyWords] + w]);
  }
}
} // namespace plait

extern "C" int32_t plait_rt_dict_init(int64_t address, int64_t keyWords, int64_t valueWords,
                                      int64_t owned, int64_t strKeys) {
  int64_t *box = boxAt(address);
  std::memset(box, 0, static_cast<size_t>(plait::kDictWords) * sizeof(int64_t));
  box[plait::kDictKeyWords] = keyWords;
  box[plait::kDictValueWords] = valueWords;
  box[plait::kDictOwnedWords] = owned;
  box[plait::kDictStrKeys] = strKeys;
  plait::markDictBox(box);
  return rebuild(box, 4) ? 0 : 1;
}

extern "C" int64_t plait_rt_dict_find(int64_t address, int64_t key) {
  const int64_t *box = boxAt(address);
  if (box[plait::kDictKeyWords] == 0)
    return -1; // (`{}`: nothing was ever put in)
  const int64_t *words = wordsAt(key);
  int64_t held = wordsAt(box[plait::kDictIndex])[slotOf(box, words, hashOf(box, words))];
  if (held == 0)
    return -1;
  const int64_t *entry =
      wordsAt(box[plait::kDictEntries]) + (held - 1) * plait::dictEntryWords(box);
  return entry[plait::dictEntryWords(box) - 1] ? held - 1 : -1;
}

extern "C" int32_t plait_rt_dict_insert(int64_t address, int64_t key, int64_t original,
                                        int64_t entry, int64_t keyWords, int64_t valueWords,
                                        int64_t owned, int64_t strKeys) {
  int64_t *box = boxAt(address);
  int64_t *out = wordsAt(entry);
  if (box[plait::kDictKeyWords] != keyWords || box[plait::kDictValueWords] != valueWords ||
      box[plait::kDictOwnedWords] != owned || box[plait::kDictStrKeys] != strKeys) {
    if (box[plait::kDictKeyWords] != 0 || box[plait::kDictUsed] != 0)
      return 2;
    // `{}` takes its layout from the first item put in.
    box[plait::kDictKeyWords] = keyWords;
    box[plait::kDictValueWords] = valueWords;
    box[plait::kDictOwnedWords] = owned;
    box[plait::kDictStrKeys] = strKeys;
    if (!rebuild(box, box[plait::kDictCapacity]))
      return 1;
  }
  int64_t found = plait_rt_dict_find(address, key);
  if (found >= 0) {
    *out = found;
    return 0;
  }
  if (box[plait::kDictUsed] == box[plait::kDictCapacity]) {
    // Dead entries make room first; else twice the room.
    int64_t live = box[plait::kDictLength];
    if (!rebuild(box, live * 2 < 4 ? 4 : live * 2))
      return 1;
  }
  const int64_t *words = wordsAt(key);
  int64_t entryWords = plait::dictEntryWords(box);
  int64_t made = box[plait::kDictUsed]++;
  int64_t *slotWords = wordsAt(box[plait::kDictEntries]) + made * entryWords;
  std::memcpy(slotWords, words, static_cast<size_t>(keyWords) * sizeof(int64_t));
  // (Value words zero: a value's references are null until it is stored.)
  std::memset(slotWords + keyWords, 0, static_cast<size_t>(valueWords) * sizeof(int64_t));
  std::memcpy(slotWords + plait::dictOriginalKey(box), wordsAt(original),
              static_cast<size_t>(keyWords) * sizeof(int64_t));
  slotWords[entryWords - 1] = 1;
  holdStrKeys(box, slotWords, /*retain=*/true); // (the entry's reference)
  int64_t slot = slotOf(box, words, hashOf(box, words));
  // (A dead entry of the same key may hold the slot: it points here now.)
  wordsAt(box[plait::kDictIndex])[slot] = made + 1;
  ++box[plait::kDictLength];
  *out = made;
  return 0;
}

extern "C" void plait_rt_dict_erase(int64_t address, int64_t entry) {
  int64_t *box = boxAt(address);
  int64_t *words = wordsAt(box[plait::kDictEntries]) + entry * plait::dictEntryWords(box);
  words[plait::dictEntryWords(box) - 1] = 0;
  --box[plait::kDictLength];
  // (Its str keys stay until the entries are rebuilt: the index still
  // compares keys with the dead entry's.)
  auto owned = static_cast<uint64_t>(box[plait::kDictOwnedWords]);
  for (int64_t w = 0; owned && w < box[plait::kDictValueWords] && w < 64; ++w)
    if (owned >> w & 1)
      plait_rt_array_release(words[box[plait::kDictKeyWords] + w]);
}
