//===- Arguments.h - binding, classifying and unboxing a call ---*- C++ -*-===//
//
// The first half of a call: bind the arguments to the parameters (as
// CPython would), classify each into its part of the dispatch key, pin the
// memory of arrays, and, once an executor is found, unbox them into the
// packed entry's slots.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DISPATCHER_ARGUMENTS_H
#define PLAIT_DISPATCHER_ARGUMENTS_H

#include "DispatchState.h"
#include "plait/Frontend/Frontend.h"

#include <memory>
#include <string>
#include <vector>

namespace plait::dispatch::detail {

/// Scratch space for one call: inline for common signatures (a large fixed
/// stack frame would be probed page by page on every call), on the heap for
/// large ones.
template <typename T, size_t Inline>
class Scratch {
public:
  explicit Scratch(size_t size) {
    if (size > Inline) {
      heap.resize(size);
      data = heap.data();
    }
  }
  T &operator[](size_t i) { return data[i]; }
  T *get() { return data; }

private:
  T inlineStorage[Inline];
  std::vector<T> heap;
  T *data = inlineStorage;
};

/// Buffers of array arguments, released (with the GIL held) after the call:
/// the exporter's memory stays pinned while compiled code uses it.
class PinnedBuffers {
public:
  PinnedBuffers() = default;
  PinnedBuffers(const PinnedBuffers &) = delete;
  PinnedBuffers &operator=(const PinnedBuffers &) = delete;
  ~PinnedBuffers();
  /// Takes a new reference to hold until the call ends; returns it.
  PyObject *keep(PyObject *object) {
    kept.push_back(object);
    return object;
  }
  /// A view of `object`'s memory, or null with an exception.
  Py_buffer *acquire(PyObject *object);

private:
  static constexpr size_t kInline = 4;
  static constexpr int kMaxDims = 8;
  struct Slot {
    Py_buffer view;
    Py_ssize_t shape[kMaxDims];
    Py_ssize_t strides[kMaxDims];
  };
  Slot &slotStorage(size_t i) { return i < kInline ? inlineSlots[i] : *extra[i - kInline]; }
  Py_buffer *slot(size_t i) { return &slotStorage(i).view; }
  Slot inlineSlots[kInline];
  std::vector<std::unique_ptr<Slot>> extra; // stable addresses
  std::vector<PyObject *> kept;
  size_t count = 0;
  uint64_t fromArray = 0; // bit i: view i was filled from an ndarray
};

/// A call's arguments, bound to the parameters and classified.
struct BoundCall {
  size_t count = 0;
  PyObject *arguments[kMaxParameters];
  /// The memory of array and NumPy scalar arguments (null for others).
  Py_buffer *views[kMaxParameters] = {};
  /// Room for 4 characters per argument and for tuples' parts.
  char key[kMaxParameters * 4 + 256];
  size_t keyLength = 0;
  PinnedBuffers pins;
  /// A copy of each list argument's items as the call found them (null
  /// for others): classified and unboxed from it, so that another thread
  /// changing the list meanwhile changes neither.
  PyObject *listItems[kMaxParameters] = {};
  /// The same for dict arguments: a copy of each.
  PyObject *dictItems[kMaxParameters] = {};
  /// The lists list arguments hold (lists of lists), each with a copy of
  /// its items as the call found them (both borrowed: pinned by `pins`).
  std::vector<std::pair<PyObject *, PyObject *>> innerLists;
  /// The tuple a *args parameter receives (a new reference).
  PyObject *varargs = nullptr;

  BoundCall() = default;
  BoundCall(const BoundCall &) = delete;
  BoundCall &operator=(const BoundCall &) = delete;
  ~BoundCall() { Py_XDECREF(varargs); }
};

/// Binds positional and keyword arguments and defaults, and classifies each
/// argument; false with CPython's TypeError for a bad call or plait's for an
/// argument it has no type for.
bool bindArguments(const DispatchState &state, PyObject *const *args, size_t nargsf,
                   PyObject *kwnames, BoundCall &call);

/// "(int, float, array)": how a call that matched no signature is reported.
std::string describeArguments(const BoundCall &call);

/// The packed entry's slots for the arguments of `call`, unboxed as
/// `entry` says; then room for the results descriptor and the status.
struct ResultOwners;

class PackedArguments {
public:
  explicit PackedArguments(const Entry &entry);
  /// Unboxes; false with an exception (a value out of range, a read-only
  /// array the code writes to, strides not a multiple of the item size).
  bool unbox(const DispatchState &state, const Entry &entry, const BoundCall &call);
  void **slots() { return pointers.get(); }
  /// Writes the items of each list (and dict) argument compiled code
  /// changed back into the caller's list (as CPython's list would have
  /// changed); false with an exception.
  /// Their arrays are owned as results' are (`owners`).
  bool reflectLists(const Entry &entry, const BoundCall &call, ResultOwners &owners);
  /// Points the trailing slots at the results descriptor and the status.
  void finish(int64_t *descriptorFields, int32_t *status);
  /// The arrays list arguments hold (each pinned for the call) and their
  /// objects.
  const std::vector<std::pair<const Py_buffer *, PyObject *>> &listArrays() const {
    return itemArrays;
  }

private:
  /// Unboxes the items of a list of `item` stored as words (tuples,
  /// arrays and lists) into `at`; false with an exception.
  bool unboxItemWords(PyObject *object, const frontend::Type &item, int64_t *&at,
                      const DispatchState &state, size_t index, const BoundCall &call);
  /// A box of the call's arena holding the items `items` (a list's copy)
  /// as a list of `type`; null with an exception.
  int64_t *unboxList(PyObject *items, const frontend::Type &type, const DispatchState &state,
                     size_t index, const BoundCall &call);
  /// The box made for each list a list argument holds, the list itself and
  /// its type: changes are written back to that list, and results give it
  /// back as itself.
  struct InnerList {
    int64_t *box;
    PyObject *list;
    frontend::Type type;
  };
  std::vector<InnerList> innerBoxes;
  PinnedBuffers itemPins;
  std::vector<std::pair<const Py_buffer *, PyObject *>> itemArrays;
  size_t used = 0;
  /// The box made for each list and dict argument (null for others).
  int64_t *lists[kMaxParameters] = {};
  int64_t *dicts[kMaxParameters] = {};
  Scratch<int64_t, 24> storage;
  Scratch<void *, 24> pointers;
};

} // namespace plait::dispatch::detail

#endif // PLAIT_DISPATCHER_ARGUMENTS_H
