"""Sorting and searching: np.sort, np.argsort, np.unique, np.searchsorted,
np.nonzero, np.flatnonzero, np.count_nonzero.

Sorts are stable merge sorts with NumPy's order: NaN after every number.
Values come out as NumPy's sorts give them; equal values keep their order
(argsort is NumPy's kind='stable'; NumPy's default sorts may order equal
values, 0.0 and -0.0 among them, differently)."""

from __future__ import annotations

import numpy as np

from .. import types
from .._overload import overload
from ..errors import TypingError, UnsupportedError
from ._errors import check_axis, raise_if
from ._util import absent, literal_axis, literal_flag, need_array, need_integral


def _before(x, y):
    # NumPy's sort order: NaN last (and equal NaNs keep their order).
    return x < y or (y != y and x == x)


def _merge_sort_indices(keys, order, scratch):
    # Sorts order[0:n] (indices into keys) stably, bottom-up.
    n = order.shape[0]
    width = 1
    while width < n:
        for start in range(0, n, 2 * width):
            middle = min(start + width, n)
            end = min(start + 2 * width, n)
            i = start
            j = middle
            k = start
            while i < middle and j < end:
                if _before(keys[order[j]], keys[order[i]]):
                    scratch[k] = order[j]
                    j += 1
                else:
                    scratch[k] = order[i]
                    i += 1
                k += 1
            while i < middle:
                scratch[k] = order[i]
                i += 1
                k += 1
            while j < end:
                scratch[k] = order[j]
                j += 1
                k += 1
        for m in range(n):
            order[m] = scratch[m]
        width *= 2


def _argsort_vector(v):
    n = v.shape[0]
    order = np.arange(n)
    _merge_sort_indices(v, order, np.empty(n, np.int64))
    return order


def _sorted_vector(v):
    order = _argsort_vector(v)
    out = np.empty(v.shape[0], v.dtype)
    for i in range(v.shape[0]):
        out[i] = v[order[i]]
    return out


def _sort_flat(a, axis=-1, kind=None, order=None, stable=None):
    return _sorted_vector(a.ravel())


def _sort_last_axis1(a, axis=-1, kind=None, order=None, stable=None):
    check_axis(axis, 1)
    return _sorted_vector(a)


def _sort_axis2(a, axis=-1, kind=None, order=None, stable=None):
    check_axis(axis, 2)
    out = np.empty((a.shape[0], a.shape[1]), a.dtype)
    if axis == 1 or axis == -1:
        for i in range(a.shape[0]):
            out[i, :] = _sorted_vector(a[i, :])
    else:
        for j in range(a.shape[1]):
            out[:, j] = _sorted_vector(a[:, j])
    return out


def _sort_typer(name: str, a, axis, kind, order, stable):
    a = need_array(name, a, (1, 2))
    if a.dtype.kind not in "biuf":
        raise UnsupportedError(f"np.{name}() of {a.dtype.name} values is not supported yet")
    if not absent(order) or not absent(stable):
        raise UnsupportedError(f"np.{name}() with order= or stable= is not supported yet")
    if not absent(kind):
        # Every kind sorts; plait's sort is stable (equal values keep their
        # order, which NumPy's quicksort and heapsort leave unspecified).
        if not isinstance(kind, (types.String, types.NoneType)):
            raise UnsupportedError(f"np.{name}() takes kind= as a constant string here")
        if isinstance(kind, types.String) and kind.literal_value not in ("quicksort", "mergesort", "heapsort", "stable"):
            raise TypingError(f"sort kind must be one of 'quick', 'heap', or 'stable' (got {kind.literal_value!r})")
    if isinstance(axis, types.NoneType):
        return "flat"
    if axis is not None:
        need_integral(name, "axis", axis)
    return a.ndim


@overload(np.sort, family="sorting")
def _sort(a, axis=None, kind=None, order=None, stable=None):
    shape = _sort_typer("sort", a, axis, kind, order, stable)
    return {"flat": _sort_flat, 1: _sort_last_axis1, 2: _sort_axis2}[shape]


def _argsort_flat(a, axis=-1, kind=None, order=None, stable=None):
    return _argsort_vector(a.ravel())


def _argsort_axis1(a, axis=-1, kind=None, order=None, stable=None):
    check_axis(axis, 1)
    return _argsort_vector(a)


def _argsort_axis2(a, axis=-1, kind=None, order=None, stable=None):
    check_axis(axis, 2)
    out = np.empty((a.shape[0], a.shape[1]), np.int64)
    if axis == 1 or axis == -1:
        for i in range(a.shape[0]):
            out[i, :] = _argsort_vector(a[i, :])
    else:
        for j in range(a.shape[1]):
            out[:, j] = _argsort_vector(a[:, j])
    return out


@overload(np.argsort, family="sorting")
def _argsort(a, axis=None, kind=None, order=None, stable=None):
    shape = _sort_typer("argsort", a, axis, kind, order, stable)
    return {"flat": _argsort_flat, 1: _argsort_axis1, 2: _argsort_axis2}[shape]


def _unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, equal_nan=True):
    values = _sorted_vector(ar.ravel())
    n = values.shape[0]
    keep = 0
    out = np.empty(n, values.dtype)
    for i in range(n):
        x = values[i]
        # Equal neighbours, and (equal_nan) every NaN after the first.
        if i > 0 and (x == values[i - 1] or (x != x and values[i - 1] != values[i - 1])):
            continue
        out[keep] = x
        keep += 1
    return out[:keep].copy()


@overload(np.unique, family="sorting")
def _unique_typer(ar, return_index=None, return_inverse=None, return_counts=None, axis=None, equal_nan=None):
    ar = need_array("unique", ar)
    if ar.dtype.kind not in "biuf":
        raise UnsupportedError(f"np.unique() of {ar.dtype.name} values is not supported yet")
    if not all(absent(t) for t in (return_index, return_inverse, return_counts, axis, equal_nan)):
        raise UnsupportedError("np.unique() with keywords is not supported yet")
    return _unique


def _search_left(a, x):
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) // 2
        if _before(a[middle], x):
            low = middle + 1
        else:
            high = middle
    return low


def _search_right(a, x):
    low = 0
    high = a.shape[0]
    while low < high:
        middle = (low + high) // 2
        if _before(x, a[middle]):
            high = middle
        else:
            low = middle + 1
    return low


def _searchsorted_scalar(a, v, side=None, sorter=None):
    return np.int64(_search_left(a, v))


def _searchsorted_vector(a, v, side=None, sorter=None):
    out = np.empty(v.shape[0], np.int64)
    for i in range(v.shape[0]):
        out[i] = _search_left(a, v[i])
    return out


def _searchsorted_scalar_right(a, v, side=None, sorter=None):
    return np.int64(_search_right(a, v))


def _searchsorted_vector_right(a, v, side=None, sorter=None):
    out = np.empty(v.shape[0], np.int64)
    for i in range(v.shape[0]):
        out[i] = _search_right(a, v[i])
    return out


@overload(np.searchsorted, family="sorting")
def _searchsorted(a, v, side=None, sorter=None):
    a = need_array("searchsorted", a, (1,))
    if not absent(sorter):
        raise UnsupportedError("np.searchsorted() with sorter= is not supported yet")
    right = False
    if not absent(side):
        if not isinstance(side, types.String):
            raise UnsupportedError("np.searchsorted() takes side= as a constant string here")
        if side.literal_value not in ("left", "right"):
            raise TypingError(f"side must be 'left' or 'right' (got {side.literal_value!r})")
        right = side.literal_value == "right"
    if isinstance(v, types.Array):
        need_array("searchsorted", v, (1,))
        return _searchsorted_vector_right if right else _searchsorted_vector
    if types.is_number(v) and not isinstance(v, types.Complex):
        return _searchsorted_scalar_right if right else _searchsorted_scalar
    raise UnsupportedError(f"np.searchsorted() of {v} is not supported yet")


def _nonzero_count(flat):
    count = 0
    for i in range(flat.shape[0]):
        if flat[i] != 0:
            count += 1
    return count


def _count_nonzero(a, axis=None, keepdims=False):
    return np.int64(_nonzero_count(a.ravel()))


@overload(np.count_nonzero, family="sorting")
def _count_nonzero_typer(a, axis=None, keepdims=None):
    a = need_array("count_nonzero", a)
    along = literal_axis("count_nonzero", axis, a.ndim)
    keep = literal_flag("count_nonzero", "keepdims", keepdims)
    if along is None and not keep:
        return _count_nonzero
    if along is None:
        raise UnsupportedError("np.count_nonzero() with keepdims=True and no axis is not supported yet")

    def count_nonzero_along(a, axis=None, keepdims=False):
        return np.sum(a != 0, axis=along, keepdims=keep)

    return count_nonzero_along


def _flatnonzero(a):
    flat = a.ravel()
    out = np.empty(_nonzero_count(flat), np.int64)
    k = 0
    for i in range(flat.shape[0]):
        if flat[i] != 0:
            out[k] = i
            k += 1
    return out


@overload(np.flatnonzero, family="sorting")
def _flatnonzero_typer(a):
    need_array("flatnonzero", a)
    return _flatnonzero


def _nonzero1(a):
    return (_flatnonzero(a),)


def _nonzero2(a):
    cols = a.shape[1]
    flat = _flatnonzero(a)
    rows = np.empty(flat.shape[0], np.int64)
    columns = np.empty(flat.shape[0], np.int64)
    for k in range(flat.shape[0]):
        rows[k] = flat[k] // cols
        columns[k] = flat[k] % cols
    return rows, columns


@overload(np.nonzero, family="sorting")
def _nonzero(a):
    a = need_array("nonzero", a, (1, 2))
    return _nonzero1 if a.ndim == 1 else _nonzero2
