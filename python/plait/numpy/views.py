"""Views with new strides over an array's memory: np.transpose with axes
(and a.transpose(axes)), np.broadcast_to, np.moveaxis."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from .._overload import overload, overload_method
from ..errors import TypingError, UnsupportedError
from ._errors import check_axis, raise_if
from ._util import absent, need_array
from ._views import moved_axes, strided_view


def _int_tuple(name: str, what: str, t: Any) -> int:
    """The length of a tuple of ints (an int counts as a tuple of one)."""
    if types.is_integral(t):
        return 1
    if isinstance(t, types.Tuple) and all(types.is_integral(e) for e in t.elements):
        return len(t)
    raise TypingError(f"np.{name}(): {what} must be an int or a tuple of ints, not {t}")


def _permutation(a, axes, rank):
    # NumPy's PyArray_Transpose: each axis in range, none twice. (The
    # caller makes the view: its rank must be a constant there.)
    order = np.empty(rank, np.int64)
    seen = np.zeros(rank, np.bool_)
    for k in range(rank):
        axis = axes[k]
        check_axis(axis, rank)
        if axis < 0:
            axis += rank
        raise_if(seen[axis], "ValueError", "repeated axis in transpose")
        seen[axis] = True
        order[k] = axis
    return moved_axes(a, order, rank)


def _transpose_typer(name: str, a: Any, axes: Any) -> Any:
    """The implementation of a transpose with `axes` (a tuple or None), or
    None for the compiler's own (the axes reversed)."""
    if absent(axes):
        return None
    a = need_array(name, a)
    if _int_tuple(name, "axes", axes) != a.ndim:
        raise TypingError("axes don't match array")
    rank = a.ndim

    def transpose(a, axes):
        sizes, steps = _permutation(a, axes, rank)
        return strided_view(a, 0, sizes, steps, rank)

    return transpose


@overload(np.transpose, family="shape")
def _transpose(a, axes=None):
    return _transpose_typer("transpose", a, axes)


@overload_method(np.ndarray, "transpose", family="shape")
def _transpose_method(a, *axes):
    # a.transpose(), a.transpose((1, 0)), a.transpose(1, 0)
    if not axes or (len(axes) == 1 and absent(axes[0])):
        return None
    if len(axes) == 1:
        return _transpose_typer("transpose", a, axes[0])
    a = need_array("transpose", a)
    if len(axes) != a.ndim:
        raise TypingError("axes don't match array")
    rank = a.ndim
    if len(axes) == 2:

        def transpose2(a, i, j):
            sizes, steps = _permutation(a, (i, j), rank)
            return strided_view(a, 0, sizes, steps, rank)

        return transpose2
    if len(axes) == 3:

        def transpose3(a, i, j, k):
            sizes, steps = _permutation(a, (i, j, k), rank)
            return strided_view(a, 0, sizes, steps, rank)

        return transpose3
    if len(axes) == 4:

        def transpose4(a, i, j, k, m):
            sizes, steps = _permutation(a, (i, j, k, m), rank)
            return strided_view(a, 0, sizes, steps, rank)

        return transpose4
    raise UnsupportedError("a.transpose() with more than 4 axes as separate arguments is not supported yet (pass a tuple)")


def _broadcast_strides(array, shape, rank):
    # NumPy's broadcast_to: the array's axes align with the shape's last
    # ones; an axis of size 1 has stride 0 (it repeats), new leading axes
    # too.
    # (NumPy checks the shape's signs first, then the ranks.)
    for k in range(rank):
        raise_if(shape[k] < 0, "ValueError", "all elements of broadcast shape must be non-negative")
    extra = rank - array.ndim
    raise_if(extra < 0, "ValueError", "input operand has more dimensions than allowed by the axis remapping")
    steps = np.zeros(rank, np.int64)
    fits = True  # (the caller raises: its message shows the ranks)
    for k in range(extra, rank):
        size = array.shape[k - extra]
        if size != 1 and size == shape[k]:
            steps[k] = array.strides[k - extra] // array.itemsize
        elif size != 1:
            fits = False
    return steps, fits


def _shape_text(count: int, first: int) -> str:
    """NumPy's '(2,3)' for `count` placeholders {first}, {first+1}..."""
    inside = ",".join(f"{{{first + i}}}" for i in range(count))
    return f"({inside},)" if count == 1 else f"({inside})"


@overload(np.broadcast_to, family="shape")
def _broadcast_to(array, shape, subok=None):
    if not absent(subok) and subok.has_literal and subok.literal_value:
        raise UnsupportedError("np.broadcast_to() with subok=True is not supported (plait's arrays are ndarrays)")
    rank = _int_tuple("broadcast_to", "shape", shape)
    if not isinstance(array, types.Array):
        if not types.is_number(array):
            raise UnsupportedError(f"np.broadcast_to() of {array} is not supported yet (arrays and numbers are)")

        # A number broadcasts as a 0-d array would: every element is it.
        def broadcast_number(array, shape, subok=False):
            for k in range(rank):
                raise_if(shape[k] < 0, "ValueError", "all elements of broadcast shape must be non-negative")
            return np.full(shape, array)

        def broadcast_number_length(array, shape, subok=False):
            raise_if(shape < 0, "ValueError", "all elements of broadcast shape must be non-negative")
            return np.full(shape, array)

        return broadcast_number if isinstance(shape, types.Tuple) else broadcast_number_length
    message = (
        "operands could not be broadcast together with remapped shapes [original->remapped]: "
        + _shape_text(array.ndim, 0)
        + "  and requested shape "
        + _shape_text(rank, array.ndim)
    )
    if isinstance(shape, types.Tuple):

        def broadcast_to(array, shape, subok=False):
            steps, fits = _broadcast_strides(array, shape, rank)
            raise_if(not fits, "ValueError", message, array.shape, shape)
            return strided_view(array, 0, shape, steps)

        return broadcast_to

    def broadcast_to_length(array, shape, subok=False):
        steps, fits = _broadcast_strides(array, (shape,), rank)
        raise_if(not fits, "ValueError", message, array.shape, shape)
        return strided_view(array, 0, (shape,), steps)

    return broadcast_to_length
