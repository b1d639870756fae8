//===- Dicts.h - dict arguments and results ---------------------*- C++ -*-===//
#ifndef PLAIT_DISPATCHER_DICTS_H
#define PLAIT_DISPATCHER_DICTS_H

#include "plait/Frontend/Frontend.h"

#include <Python.h>

#include <cstdint>
#include <functional>
#include <string>

namespace plait::dispatch::detail {

struct ResultOwners;

/// The key part of a dict argument `items` ('M', its keys' part, its
/// values' part; `scalarPart` gives a scalar's, `tuplePart` a tuple key's,
/// "" for none): false with
/// a TypeError naming `what` for an empty dict, mixed types or others.
bool classifyDict(PyObject *items, std::string &part, const std::string &what,
                  const std::function<std::string(PyObject *)> &scalarPart,
                  const std::function<std::string(PyObject *)> &tuplePart);
/// A box of the calling thread's arena holding `items` as a dict of
/// `type`; null with an exception.
int64_t *unboxDict(PyObject *items, const frontend::Type &type);
/// A new Python dict of the box's entries, in their order (arrays in its
/// values owned as pythonList's are).
PyObject *pythonDict(const frontend::Type &type, const int64_t *box, ResultOwners *owners);
/// Makes `target` hold the box's entries (a changed dict argument).
bool reflectDict(PyObject *target, const frontend::Type &type, const int64_t *box);

} // namespace plait::dispatch::detail

#endif // PLAIT_DISPATCHER_DICTS_H
