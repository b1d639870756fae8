"""Shapes and joins: np.flip, np.triu, np.tril, np.hstack, np.vstack,
np.concatenate."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from .._overload import overload
from ..errors import TypingError, UnsupportedError
from ._errors import raise_if
from ._util import absent, need_array, need_integral


def _flip1(m, axis=None):
    return m[::-1]


def _flip2(m, axis=None):
    return m[::-1, ::-1]


def _flip3(m, axis=None):
    return m[::-1, ::-1, ::-1]


def _flip_axis1(m, axis=None):
    raise_if(axis < -1 or axis > 0, "numpy.exceptions.AxisError", "axis {0} is out of bounds for array of dimension 1", axis)
    return m[::-1]


def _flip_axis2(m, axis=None):
    raise_if(axis < -2 or axis > 1, "numpy.exceptions.AxisError", "axis {0} is out of bounds for array of dimension 2", axis)
    if axis == 0 or axis == -2:
        return m[::-1, :]
    return m[:, ::-1]


@overload(np.flip, family="shape")
def _flip(m, axis=None):
    m = need_array("flip", m, (1, 2, 3))
    if absent(axis):
        return (_flip1, _flip2, _flip3)[m.ndim - 1]
    need_integral("flip", "axis", axis)
    if m.ndim == 1:
        return _flip_axis1
    if m.ndim == 2:
        return _flip_axis2
    raise UnsupportedError("np.flip() of a 3-D array along one axis is not supported yet")


def _triu(m, k=0):
    out = m.copy()
    rows, cols = m.shape
    for i in range(rows):
        for j in range(max(min(i + k, cols), 0)):
            out[i, j] = 0
    return out


def _tril(m, k=0):
    out = m.copy()
    rows, cols = m.shape
    for i in range(rows):
        for j in range(max(i + k + 1, 0), cols):
            out[i, j] = 0
    return out


@overload(np.triu, family="shape")
def _triu_typer(m, k=None):
    need_array("triu", m, (2,))
    if not absent(k):
        need_integral("triu", "k", k)
    return _triu


@overload(np.tril, family="shape")
def _tril_typer(m, k=None):
    need_array("tril", m, (2,))
    if not absent(k):
        need_integral("tril", "k", k)
    return _tril


# Joins of two arrays; `index` is b's place in the caller's tuple (a holds
# the ones before it, whose other axes match the first's).
def _join_vectors(a, b, dt, index):
    out = np.empty(a.shape[0] + b.shape[0], dt)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out


def _join_rows(a, b, dt, index):
    raise_if(
        a.shape[1] != b.shape[1],
        "ValueError",
        "all the input array dimensions except for the concatenation axis must match exactly, but along"
        " dimension {0}, the array at index 0 has size {1} and the array at index {2} has size {3}",
        1,
        a.shape[1],
        index,
        b.shape[1],
    )
    out = np.empty((a.shape[0] + b.shape[0], a.shape[1]), dt)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out


def _join_columns(a, b, dt, index):
    raise_if(
        a.shape[0] != b.shape[0],
        "ValueError",
        "all the input array dimensions except for the concatenation axis must match exactly, but along"
        " dimension {0}, the array at index 0 has size {1} and the array at index {2} has size {3}",
        0,
        a.shape[0],
        index,
        b.shape[0],
    )
    out = np.empty((a.shape[0], a.shape[1] + b.shape[1]), dt)
    out[:, : a.shape[1]] = a
    out[:, a.shape[1] :] = b
    return out


def _tuple_of_arrays(name: str, tup: Any) -> tuple[types.Array, ...]:
    if not isinstance(tup, types.Tuple) or not all(isinstance(t, types.Array) for t in tup.elements):
        raise UnsupportedError(f"np.{name}() takes a tuple of arrays here, not {tup}")
    arrays = tup.elements
    if not 2 <= len(arrays) <= 4:
        raise UnsupportedError(f"np.{name}() of {len(arrays)} arrays is not supported yet (2 to 4 are)")
    ndims = {a.ndim for a in arrays}
    if len(ndims) != 1:
        raise TypingError(
            f"all the input array dimensions except for the concatenation axis must match exactly"
            f" (np.{name}() of {', '.join(str(a) for a in arrays)})"
        )
    return arrays  # type: ignore[return-value]


def _join_of(name: str, tup: Any, along: str) -> Any:
    """A function (arrays) -> the join of `tup`'s arrays along `along`."""
    arrays = _tuple_of_arrays(name, tup)
    dt = np.result_type(*[a.dtype for a in arrays]).type
    pairwise = {"vectors": _join_vectors, "rows": _join_rows, "columns": _join_columns}[along]
    count = len(arrays)
    if count == 2:

        def join(arrays):
            return pairwise(arrays[0], arrays[1], dt, 1)

    elif count == 3:

        def join(arrays):
            return pairwise(pairwise(arrays[0], arrays[1], dt, 1), arrays[2], dt, 2)

    else:

        def join(arrays):
            first = pairwise(pairwise(arrays[0], arrays[1], dt, 1), arrays[2], dt, 2)
            return pairwise(first, arrays[3], dt, 3)

    return join


@overload(np.hstack, family="shape")
def _hstack(tup, dtype=None, casting=None):
    if not absent(dtype) or not absent(casting):
        raise UnsupportedError("np.hstack() with dtype= or casting= is not supported yet")
    arrays = _tuple_of_arrays("hstack", tup)
    if arrays[0].ndim > 2:
        raise UnsupportedError("np.hstack() of 3-D arrays is not supported yet")
    join = _join_of("hstack", tup, "vectors" if arrays[0].ndim == 1 else "columns")

    def hstack(tup, dtype=None, casting=None):
        return join(tup)

    return hstack


@overload(np.vstack, family="shape")
def _vstack(tup, dtype=None, casting=None):
    if not absent(dtype) or not absent(casting):
        raise UnsupportedError("np.vstack() with dtype= or casting= is not supported yet")
    arrays = _tuple_of_arrays("vstack", tup)
    if arrays[0].ndim != 2:
        raise UnsupportedError("np.vstack() of arrays that are not 2-D is not supported yet")
    join = _join_of("vstack", tup, "rows")

    def vstack(tup, dtype=None, casting=None):
        return join(tup)

    return vstack


@overload(np.concatenate, family="shape")
def _concatenate(arrays, axis=None, out=None, dtype=None, casting=None):
    if not absent(out) or not absent(dtype) or not absent(casting):
        raise UnsupportedError("np.concatenate() with out=, dtype= or casting= is not supported yet")
    if axis is not None:
        raise UnsupportedError("np.concatenate() with axis= is not supported yet (the default axis 0 is)")
    joined = _tuple_of_arrays("concatenate", arrays)
    if joined[0].ndim > 2:
        raise UnsupportedError("np.concatenate() of 3-D arrays is not supported yet")
    join = _join_of("concatenate", arrays, "vectors" if joined[0].ndim == 1 else "rows")

    def concatenate(arrays, axis=0, out=None, dtype=None, casting=None):
        return join(arrays)

    return concatenate
