"""sum(), any() and all() in compiled code, and the steps of the reductions
that generator expressions feed (see _generators.py), on plait.overload.

CPython's sum() adds left to right, but since 3.12 it compensates Python
floats (Neumaier's algorithm, from the first float after an int start);
ints and NumPy scalars it adds plainly. Compiled code knows each value's
type, so the step is chosen when typing: the results are the interpreter's
bit for bit (int sums beyond int64 raise OverflowError)."""

from __future__ import annotations

import builtins
import sys
from typing import Any

from . import types
from ._overload import overload, with_numpy
from .errors import TypingError
from ._libm import fabs

#: NumPy, for the implementations that make arrays (bound by with_numpy).
np: Any = None

#: CPython compensates float sums from 3.12 on.
_COMPENSATED = sys.version_info >= (3, 12)


def _empty_message(name: str) -> str:
    try:
        getattr(builtins, name)(())
    except ValueError as error:
        return str(error)
    return f"{name}() arg is an empty sequence"


#: CPython's message for min()/max() of nothing ("arg is an empty sequence"
#: before 3.12, "iterable argument is empty" after).
MIN_EMPTY = _empty_message("min")
MAX_EMPTY = _empty_message("max")


# -- the steps of sum --------------------------------------------------------


def _plain_step(acc, comp, first, item, start):
    return acc + item, comp


def _neumaier_step(acc, comp, first, item, start):
    f = float(acc)
    t = f + item
    if fabs(f) >= fabs(item):
        comp += (f - t) + item
    else:
        comp += (item - t) + f
    return t, comp


def _neumaier_step_after_int(acc, comp, first, item, start):
    # The first float meets the int start in a plain addition; CPython
    # compensates from the next one on.
    if first:
        return float(acc) + item, comp
    return _neumaier_step(acc, comp, first, item, start)


def _plain_finish(acc, comp):
    return acc


def _compensated_finish(acc, comp):
    # (Not an infinite or overflowed sum's compensation, nor a zero one,
    # which would lose a negative zero's sign.)
    if comp != 0.0 and comp - comp == 0.0:
        return acc + comp
    return acc


def _is_python_number(t: Any) -> bool:
    return isinstance(t, (types.Integer, types.Boolean, types.Float))


@overload(_plain_step)
def _sum_step(acc, comp, first, item, start):
    """The step CPython takes for an item of this type after a total of
    that type: compensated for Python floats (3.12+), plain otherwise."""
    if _COMPENSATED and isinstance(item, types.Float) and _is_python_number(acc) and _is_python_number(start):
        return _neumaier_step if isinstance(start, types.Float) else _neumaier_step_after_int
    return _plain_step


@overload(_plain_finish)
def _sum_finish(acc, comp):
    # The total is a Python float only where every item was (or an int met
    # a float); a float total of plain steps has a zero compensation.
    return _compensated_finish if _COMPENSATED and isinstance(acc, types.Float) else _plain_finish


# -- sum, any and all of tuples and arrays -----------------------------------


def _sum(iterable, start=0):
    acc = start
    comp = 0.0
    first = True
    for item in iterable:
        acc, comp = _plain_step(acc, comp, first, item, start)
        first = False
    return _plain_finish(acc, comp)


def _sum_rows(iterable, start=0):
    # sum() of an N-D array adds its rows one after another, as CPython's
    # does; an array with no rows gives start added to a row of zeros (one
    # type: CPython would give start itself).
    n = len(iterable)
    if n == 0:  # (zeros of the rows' dtype, as start + a row would be)
        return start + np.sum(iterable, axis=0).astype(iterable.dtype)
    acc = start + iterable[0]
    for k in range(1, n):
        acc = acc + iterable[k]
    return acc


def _any(iterable):
    for item in iterable:
        if item:
            return True
    return False


def _all(iterable):
    for item in iterable:
        if not item:
            return False
    return True


def _check_iterable(t: Any, name: str) -> None:
    """What these functions iterate over in compiled code: a 1-D array, a
    list, or a tuple whose items have one type (an empty one too)."""
    if isinstance(t, types.List):
        return
    if isinstance(t, types.Array):
        if t.ndim != 1:
            raise TypingError(
                f"{name}() of a {t.ndim}-D array tests its rows, whose truth is ambiguous: "
                f"use np.{name}(a, axis=0)"
            )
        return
    if isinstance(t, types.Tuple):
        if all(e == t.elements[0] for e in t.elements):
            return
        raise TypingError(
            f"{name}() of {t}: compiled code iterates tuples whose items have one type "
            "(write the sum out, or pass an array)"
        )
    raise TypingError(f"{name}() takes a tuple, a list or an array in compiled code, not {t}")


@overload(builtins.sum)
def _sum_typer(iterable, start=0):
    if isinstance(start, types.String):
        raise TypingError("sum() can't sum strings [use ''.join(seq) instead]")
    if isinstance(iterable, types.Array) and iterable.ndim > 1:
        return with_numpy(globals(), _sum_rows)
    _check_iterable(iterable, "sum")
    return _sum


@overload(builtins.any)
def _any_typer(iterable):
    _check_iterable(iterable, "any")
    return _any


@overload(builtins.all)
def _all_typer(iterable):
    _check_iterable(iterable, "all")
    return _all


# -- a.shape = s (see _rewrites) ----------------------------------------------


def _set_shape(a, shape):
    return a  # (the interpreter's statement is the assignment itself)


def _reshaped(a, shape):
    return a.reshape(shape)


def _c_contiguous(a):
    # NumPy's flag: axes of length 1 have any stride.
    expected = a.itemsize
    for k in range(a.ndim - 1, -1, -1):
        if a.shape[k] != 1:
            if a.strides[k] != expected:
                return False
            expected *= a.shape[k]
    return True


def _reshapes_without_copy(a, new_shape):
    """NumPy's _attempt_nocopy_reshape (C order): whether the axes of `a`
    the new shape merges are contiguous enough for a view."""
    old_shape = np.empty(a.ndim, np.int64)
    old_strides = np.empty(a.ndim, np.int64)
    old_ndim = 0
    for k in range(a.ndim):  # (axes of length 1 do not matter)
        if a.shape[k] != 1:
            old_shape[old_ndim] = a.shape[k]
            old_strides[old_ndim] = a.strides[k]
            old_ndim += 1
    new_ndim = len(new_shape)
    oi = 0
    oj = 1
    ni = 0
    nj = 1
    while ni < new_ndim and oi < old_ndim:
        new_part = new_shape[ni]
        old_part = old_shape[oi]
        while new_part != old_part:
            if new_part < old_part:
                new_part *= new_shape[nj]
                nj += 1
            else:
                old_part *= old_shape[oj]
                oj += 1
        for ok in range(oi, oj - 1):
            if old_strides[ok] != old_shape[ok + 1] * old_strides[ok + 1]:
                return False
        ni = nj
        nj += 1
        oi = oj
        oj += 1
    return True


def _reshaped_in_place(a, shape):
    # NumPy reshapes (its size error first), then refuses a copy.
    b = a.reshape(shape)
    if a.size > 1 and not _c_contiguous(a) and not _reshapes_without_copy(a, b.shape):
        raise AttributeError(
            "Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape."
        )
    return b


@overload(_set_shape)
def _set_shape_typer(a, shape):
    if not isinstance(a, types.Array):
        raise TypingError(f"'{a}' object has no writable attribute 'shape'")
    sizes = shape.elements if isinstance(shape, types.Tuple) else (shape,)
    if not all(types.is_integral(t) for t in sizes):
        raise TypingError(f"a shape is an int or a tuple of ints, not {shape}")
    # Known C-contiguous: always a view. Otherwise checked as NumPy does.
    return _reshaped if a.layout == "C" else with_numpy(globals(), _reshaped_in_place)
