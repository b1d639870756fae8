//===- Results.h - boxing what a call returned or raised --------*- C++ -*-===//
#ifndef PLAIT_DISPATCHER_RESULTS_H
#define PLAIT_DISPATCHER_RESULTS_H

#include "plait/Frontend/Frontend.h"

#include <Python.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace plait {
class AllocationArena;
namespace jit {
struct Executor;
} // namespace jit
} // namespace plait

namespace plait::dispatch::detail {

/// Who owns the memory of array results: the call's arguments (a result may
/// be a view of one) and the call's allocation arena.
struct ResultOwners {
  AllocationArena *arena;
  PyObject *const *arguments;
  Py_buffer *const *views;
  size_t count;
  /// The arrays made so far (borrowed), with their dtype and the
  /// descriptor words they were made from (base, offset, sizes, strides):
  /// an array of the same words is that object again (`[a, a]` holds one
  /// array twice).
  std::vector<std::pair<std::vector<int64_t>, PyObject *>> made;
  /// The arrays list arguments held (views pinned for the call, their
  /// objects borrowed): an item still viewing one of them exactly is that
  /// object again, a view into one keeps it alive.
  const std::vector<std::pair<const Py_buffer *, PyObject *>> *itemArrays = nullptr;
  /// The lists and dicts made so far (borrowed), by box: one box is one
  /// object (`[row] * n` holds one list n times).
  std::vector<std::pair<const int64_t *, PyObject *>> madeBoxes;
};

/// The Python value of a result of `type` whose words start at `words`
/// (advanced past them), converted by `cast` (Dispatcher.h's resultCast).
PyObject *boxResult(const frontend::Type &type, const int64_t *&words, char cast,
                    ResultOwners &owners);

/// A new NumPy scalar of `dtype` holding `bytes` (its value's `size`
/// bytes); null with an exception.
PyObject *newNumPyScalar(frontend::DType dtype, const void *bytes, size_t size);

/// A new Python list of the items of the list whose box is `box`; its
/// arrays are owned as results' are (`owners`), or borrow memory that
/// outlives their use (null `owners`: for print).
PyObject *pythonList(const frontend::Type &type, const int64_t *box, ResultOwners *owners);
/// A new Python str of the code points in `box` (a run-time str).
PyObject *pythonStr(const int64_t *box);
/// A new run-time str (in the calling thread's arena) of `text`'s code
/// points, or null with an exception.
int64_t *strBoxOf(PyObject *text);

/// The type of a list's items (or a dict's keys or values) as print
/// descriptors and raise messages spell it (EmitPrint.cpp's itemKind),
/// read from `text` at `at` (advanced past it); false for an unknown one.
bool parseItemKind(std::string_view text, size_t &at, frontend::Type &type);

/// The Python object of a list item (or dict value) of `item` stored as
/// words (ListItemLayout) at `words`; arrays as pythonList's.
PyObject *pythonItem(const frontend::Type &item, const int64_t *words, ResultOwners *owners);

/// A NumPy array viewing `data` (`ndim` sizes then strides in elements at
/// `layout`) that does not own it: for memory alive while it is used.
PyObject *borrowedArray(frontend::DType dtype, int ndim, char *data, const int64_t *layout);

/// Raises the error the compiled code reported with `status`; returns null.
PyObject *raiseRunError(const jit::Executor &executor, int32_t status);

} // namespace plait::dispatch::detail

#endif // PLAIT_DISPATCHER_RESULTS_H
