"""Shapes and joins: np.flip, np.triu, np.tril, np.hstack, np.vstack,
np.concatenate, np.stack, np.roll, np.repeat, np.tile, np.expand_dims,
np.diag."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from .._overload import overload
from ..errors import TypingError, UnsupportedError
from ._errors import check_axis, raise_if
from ._util import absent, literal_axis, need_array, need_integral
from ._views import c_strides, strided_view


def _flip1(m, axis=None):
    return m[::-1]


def _flip2(m, axis=None):
    return m[::-1, ::-1]


def _flip3(m, axis=None):
    return m[::-1, ::-1, ::-1]


def _flip_axis1(m, axis=None):
    check_axis(axis, 1)
    return m[::-1]


def _flip_axis2(m, axis=None):
    check_axis(axis, 2)
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


def _triangle_typer(name: str, implementation: Any) -> Any:
    def typer(m, k=None):
        need_array(name, m, (2,))
        if not absent(k):
            need_integral(name, "k", k)
        return implementation

    return typer


overload(np.triu, family="shape")(_triangle_typer("triu", _triu))
overload(np.tril, family="shape")(_triangle_typer("tril", _tril))


# Joins of two arrays; `index` is b's place in the caller's tuple (a holds
# the ones before it, whose other axes match the first's).
def _join_vectors(a, b, dt, index):
    out = np.empty(a.shape[0] + b.shape[0], dt)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out


def _check_other_axis(dimension, first, other, index):
    raise_if(
        first != other,
        "ValueError",
        "all the input array dimensions except for the concatenation axis must match exactly, but along"
        " dimension {0}, the array at index 0 has size {1} and the array at index {2} has size {3}",
        dimension,
        first,
        index,
        other,
    )


def _join_rows(a, b, dt, index):
    _check_other_axis(1, a.shape[1], b.shape[1], index)
    out = np.empty((a.shape[0] + b.shape[0], a.shape[1]), dt)
    out[: a.shape[0]] = a
    out[a.shape[0] :] = b
    return out


def _join_columns(a, b, dt, index):
    _check_other_axis(0, a.shape[0], b.shape[0], index)
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
    joined = _tuple_of_arrays("concatenate", arrays)
    if joined[0].ndim > 2:
        raise UnsupportedError("np.concatenate() of 3-D arrays is not supported yet")
    if isinstance(axis, types.NoneType):
        raise UnsupportedError("np.concatenate() with axis=None (flattening) is not supported yet")
    along = literal_axis("concatenate", axis, joined[0].ndim) or 0
    join = _join_of("concatenate", arrays, "vectors" if joined[0].ndim == 1 else ("rows", "columns")[along])

    def concatenate(arrays, axis=0, out=None, dtype=None, casting=None):
        return join(arrays)

    return concatenate


def _roll_flat(a, shift, axis=None):
    flat = a.ravel()
    n = flat.shape[0]
    out = np.empty(n, a.dtype)
    if n > 0:
        s = shift % n
        for i in range(n):
            out[(i + s) % n] = flat[i]
    return out.reshape(a.shape)


def _roll_axis1(a, shift, axis=None):
    check_axis(axis, 1)
    return _roll_flat(a, shift)


def _roll_axis2(a, shift, axis=None):
    check_axis(axis, 2)
    out = np.empty_like(a)
    rows, cols = a.shape
    if axis == 0 or axis == -2:
        if rows > 0:
            for i in range(rows):
                out[(i + shift % rows) % rows, :] = a[i, :]
    elif cols > 0:
        for j in range(cols):
            out[:, (j + shift % cols) % cols] = a[:, j]
    return out


@overload(np.roll, family="shape")
def _roll(a, shift, axis=None):
    a = need_array("roll", a)
    need_integral("roll", "shift", shift)
    if absent(axis):
        return _roll_flat
    need_integral("roll", "axis", axis)
    if a.ndim == 1:
        return _roll_axis1
    if a.ndim == 2:
        return _roll_axis2
    raise UnsupportedError("np.roll() along an axis of a 3-D array is not supported yet")


def _repeat_flat(a, repeats, axis=None):
    flat = a.ravel()
    raise_if(repeats < 0 and flat.shape[0] > 0, "ValueError", "negative dimensions are not allowed")
    out = np.empty(flat.shape[0] * max(repeats, 0), a.dtype)
    for i in range(flat.shape[0]):
        for k in range(repeats):
            out[i * repeats + k] = flat[i]
    return out


@overload(np.repeat, family="shape")
def _repeat(a, repeats, axis=None):
    a = need_array("repeat", a)
    if not types.is_integral(repeats):
        raise UnsupportedError("np.repeat() with repeats other than an int is not supported yet")
    if absent(axis) or a.ndim == 1:
        if not absent(axis):
            literal_axis("repeat", axis, 1)
        return _repeat_flat
    along = literal_axis("repeat", axis, a.ndim)
    rank = a.ndim
    expanded_rank = rank + 1

    def repeat_along(a, repeats, axis=None):
        # Each element along the axis `repeats` times: a view with a new
        # axis of stride 0 after it, copied, then seen with the two merged.
        raise_if(repeats < 0 and a.shape[along] > 0, "ValueError", "negative dimensions are not allowed")
        count = max(repeats, 0)
        sizes = np.empty(expanded_rank, np.int64)
        steps = np.empty(expanded_rank, np.int64)
        for k in range(expanded_rank):
            if k <= along:
                sizes[k] = a.shape[k]
                steps[k] = a.strides[k] // a.itemsize
            elif k == along + 1:
                sizes[k] = count
                steps[k] = 0
            else:
                sizes[k] = a.shape[k - 1]
                steps[k] = a.strides[k - 1] // a.itemsize
        copied = strided_view(a, 0, sizes, steps, expanded_rank).copy()
        final = np.empty(rank, np.int64)
        for k in range(rank):
            final[k] = a.shape[k] * count if k == along else a.shape[k]
        return strided_view(copied, 0, final, c_strides(final, rank), rank)

    return repeat_along


def _tile_vector(A, reps):
    raise_if(reps < 0 and A.shape[0] > 0, "ValueError", "negative dimensions are not allowed")
    n = A.shape[0]
    out = np.empty(n * max(reps, 0), A.dtype)
    for r in range(max(reps, 0)):
        out[r * n : (r + 1) * n] = A
    return out


def _tile_matrix(A, rows, cols):
    raise_if((rows < 0 or cols < 0) and A.size > 0, "ValueError", "negative dimensions are not allowed")
    n, m = A.shape
    out = np.empty((n * max(rows, 0), m * max(cols, 0)), A.dtype)
    for r in range(max(rows, 0)):
        for c in range(max(cols, 0)):
            out[r * n : (r + 1) * n, c * m : (c + 1) * m] = A
    return out


def _tile1(A, reps):
    return _tile_vector(A, reps)


def _tile2(A, reps):
    return _tile_matrix(A, 1, reps)


def _tile1_pair(A, reps):
    return _tile_matrix(A.reshape((1, A.shape[0])), reps[0], reps[1])


def _tile2_pair(A, reps):
    return _tile_matrix(A, reps[0], reps[1])


@overload(np.tile, family="shape")
def _tile(A, reps):
    A = need_array("tile", A, (1, 2))
    if types.is_integral(reps):
        return _tile1 if A.ndim == 1 else _tile2
    if isinstance(reps, types.Tuple) and len(reps) == 2 and all(types.is_integral(t) for t in reps.elements):
        return _tile1_pair if A.ndim == 1 else _tile2_pair
    raise UnsupportedError(f"np.tile() with reps {reps} is not supported yet (an int or two ints)")


def _stack_check(first, other):
    # (1-D arrays.)
    raise_if(first.shape[0] != other.shape[0], "ValueError", "all input arrays must have the same shape")


def _expand_dims_axis1(a, axis):
    check_axis(axis, 2)
    if axis == 0 or axis == -2:
        return a[None, :]
    return a[:, None]


def _expand_dims_axis2(a, axis):
    check_axis(axis, 3)
    if axis == 0 or axis == -3:
        return a[None, :, :]
    if axis == 1 or axis == -2:
        return a[:, None, :]
    return a[:, :, None]


@overload(np.expand_dims, family="shape")
def _expand_dims(a, axis):
    a = need_array("expand_dims", a, (1, 2))
    need_integral("expand_dims", "axis", axis)
    return _expand_dims_axis1 if a.ndim == 1 else _expand_dims_axis2


@overload(np.stack, family="shape")
def _stack(arrays, axis=None, out=None, dtype=None, casting=None):
    if not absent(out) or not absent(dtype) or not absent(casting):
        raise UnsupportedError("np.stack() with out=, dtype= or casting= is not supported yet")
    joined = _tuple_of_arrays("stack", arrays)
    if joined[0].ndim != 1:
        raise UnsupportedError("np.stack() of arrays that are not 1-D is not supported yet")
    if literal_axis("stack", axis, 2) in (1,):
        rows = _stack(arrays, None, out, dtype, casting)

        def stack_columns(arrays, axis=0, out=None, dtype=None, casting=None):
            return rows(arrays).T.copy()

        return stack_columns
    dt = np.result_type(*[a.dtype for a in joined]).type
    count = len(joined)

    if count == 2:

        def stack(arrays, axis=0, out=None, dtype=None, casting=None):
            n = arrays[0].shape[0]
            _stack_check(arrays[0], arrays[1])
            result = np.empty((2, n), dt)
            result[0, :] = arrays[0]
            result[1, :] = arrays[1]
            return result

    elif count == 3:

        def stack(arrays, axis=0, out=None, dtype=None, casting=None):
            n = arrays[0].shape[0]
            _stack_check(arrays[0], arrays[1])
            _stack_check(arrays[0], arrays[2])
            result = np.empty((3, n), dt)
            result[0, :] = arrays[0]
            result[1, :] = arrays[1]
            result[2, :] = arrays[2]
            return result

    else:

        def stack(arrays, axis=0, out=None, dtype=None, casting=None):
            n = arrays[0].shape[0]
            _stack_check(arrays[0], arrays[1])
            _stack_check(arrays[0], arrays[2])
            _stack_check(arrays[0], arrays[3])
            result = np.empty((4, n), dt)
            result[0, :] = arrays[0]
            result[1, :] = arrays[1]
            result[2, :] = arrays[2]
            result[3, :] = arrays[3]
            return result

    return stack


def _diag_of_vector(v, k=0):
    n = v.shape[0] + abs(k)
    out = np.zeros((n, n), v.dtype)
    for i in range(v.shape[0]):
        if k >= 0:
            out[i, i + k] = v[i]
        else:
            out[i - k, i] = v[i]
    return out


def _diagonal(v, k):
    """A copy of the k-th diagonal of a matrix."""
    rows, cols = v.shape
    if k >= 0:
        n = max(min(rows, cols - k), 0)
    else:
        n = max(min(rows + k, cols), 0)
    out = np.empty(n, v.dtype)
    for i in range(n):
        out[i] = v[i, i + k] if k >= 0 else v[i - k, i]
    return out


def _diag_of_matrix(v, k=0):
    return _diagonal(v, k)


@overload(np.diag, family="shape")
def _diag(v, k=None):
    v = need_array("diag", v)
    if v.ndim not in (1, 2):
        raise TypingError("Input must be 1- or 2-d.")
    if not absent(k):
        need_integral("diag", "k", k)
    return _diag_of_vector if v.ndim == 1 else _diag_of_matrix


def _same_view(a, axis1, axis2):
    return a[:, :]


def _swapped(a, axis1, axis2):
    return a.T


@overload(np.swapaxes, family="shape")
def _swapaxes(a, axis1, axis2):
    a = need_array("swapaxes", a, (1, 2))
    first = literal_axis("swapaxes", axis1, a.ndim)
    second = literal_axis("swapaxes", axis2, a.ndim)
    if first is None or second is None:
        raise UnsupportedError("np.swapaxes() takes its axes as int constants here")
    if a.ndim == 1:

        def swap_vector(a, axis1, axis2):
            return a[:]

        return swap_vector
    return _same_view if first == second else _swapped


def _squeeze_check(size):
    raise_if(size != 1, "ValueError", "cannot select an axis to squeeze out which has size not equal to one")


@overload(np.squeeze, family="shape")
def _squeeze(a, axis=None):
    a = need_array("squeeze", a, (1, 2, 3))
    if absent(axis):
        raise UnsupportedError("np.squeeze() without axis= is not supported (its result's number of axes depends on the sizes)")
    along = literal_axis("squeeze", axis, a.ndim)
    if along is None:
        raise UnsupportedError("np.squeeze() takes axis= as an int constant here")
    if a.ndim == 1:
        raise UnsupportedError("np.squeeze() of a 1-D array makes a 0-d array, which plait does not support yet")
    if a.ndim == 2:

        def squeeze2(a, axis=None):
            if along == 0:
                _squeeze_check(a.shape[0])
                return a[0, :]
            _squeeze_check(a.shape[1])
            return a[:, 0]

        return squeeze2

    def squeeze3(a, axis=None):
        if along == 0:
            _squeeze_check(a.shape[0])
            return a[0, :, :]
        if along == 1:
            _squeeze_check(a.shape[1])
            return a[:, 0, :]
        _squeeze_check(a.shape[2])
        return a[:, :, 0]

    return squeeze3
