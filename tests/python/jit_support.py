"""Differential testing of @plait.jit against CPython itself: the same
function, interpreted and compiled, must give the same value (and type) or
raise the same exception type with the same message."""

from __future__ import annotations

import math
import types
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from hypothesis import strategies as st

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

#: Integers biased towards the edges that break naive code.
ints = st.one_of(
    st.sampled_from([0, 1, -1, 2, -2, 3, 7, -7, 63, 64, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 2**53, 2**53 + 1, -(2**53) - 1]),
    st.integers(-1000, 1000),
    st.integers(INT64_MIN, INT64_MAX),
)
small_ints = st.integers(-200, 200)
floats = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, math.inf, -math.inf, math.nan, 1e308, -1e308, 5e-324, 2.0**53]),
    st.floats(allow_nan=True, allow_infinity=True),
)
numbers = st.one_of(ints, floats, st.booleans())


@contextmanager
def quiet() -> Iterator[None]:
    """NumPy warns (overflow, division by zero) where it does not raise."""
    import numpy as np

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


class NumPyScalar(tuple):
    """A NumPy scalar as (dtype name, Python value): compared by both, so a
    numpy.float32 result never passes for a numpy.float64 or a float."""


class NumPyArray(tuple):
    """A NumPy array as (dtype name, shape, values): compared by all three,
    values as Python numbers (NaN equal to NaN, signed zeros apart)."""


class ListValue(tuple):
    """A list as the tuple of its items (plain values): compared item by
    item as tuples are (NaN equal to NaN, signed zeros apart), never equal
    to a tuple."""


class DictValue(tuple):
    """A dict as the tuple of its (key, value) pairs in order: compared as
    tuples are, so insertion order counts too."""


def _fits(value: Any) -> bool:
    if isinstance(value, (NumPyScalar, NumPyArray)):
        return True  # NumPy's integers have their dtype's width
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, tuple):
            return all(_fits(v) for v in value)
        return True
    return INT64_MIN <= value <= INT64_MAX


def _plain(value: Any) -> Any:
    if type(value).__name__ == "ndarray" and type(value).__module__ == "numpy":
        return NumPyArray((value.dtype.name, value.shape, tuple(value.ravel().tolist())))
    if hasattr(value, "item") and type(value).__module__ == "numpy":
        return NumPyScalar((value.dtype.name, value.item()))
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, list):
        return ListValue(_plain(v) for v in value)
    if isinstance(value, dict):
        return DictValue((_plain(k), _plain(v)) for k, v in value.items())
    return value


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    try:
        return ("value", _plain(fn(*args)))
    except Exception as error:  # noqa: BLE001 - the comparison is the point
        return ("raised", type(error), str(error))


def same_value(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, complex):
        return same_value(a.real, b.real) and same_value(a.imag, b.imag)
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return bool(a == b)


def same_number(a: Any, b: Any) -> bool:
    """Equal as numbers (int 0 == float 0.0), NaN equal to NaN; a NumPy
    scalar against a Python number by its value."""
    if isinstance(a, NumPyScalar) != isinstance(b, NumPyScalar):
        a = a[1] if isinstance(a, NumPyScalar) else a
        b = b[1] if isinstance(b, NumPyScalar) else b
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(same_number(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    if type(a) is not type(b) and isinstance(b, float):
        return float(a) == b  # the unified float holds the int, rounded
    return bool(a == b)


def assert_same(py: Callable[..., Any], compiled: Callable[..., Any], *args: Any, unified: bool = False) -> None:
    """`unified`: the function gives a variable an int on one path and a float
    on another; compiled code keeps one type per variable (float), so values
    are compared as numbers (documented in the user guide)."""
    expected = outcome(py, *args)
    got = outcome(compiled, *args)
    if expected[0] == "value" and isinstance(expected[1], complex) and got[0] == "raised":
        # float ** float: CPython returns a complex, compiled code raises.
        assert got[1] is ValueError, (args, expected, got)
        return
    if expected[0] == "raised" and expected[1] is MemoryError:
        # e.g. 1 << 2**62: CPython runs out of memory, compiled code overflows.
        assert got[0] == "raised" and got[1] is OverflowError, (args, expected, got)
        return
    if unified and expected[0] == "value":
        assert got[0] == "value" and same_number(expected[1], got[1]), (args, expected, got)
        return
    if expected[0] == "value" and not _fits(expected[1]):
        # CPython's ints are unbounded; compiled code checks int64 overflow.
        assert got[0] == "raised" and got[1] is OverflowError, (args, expected, got)
        return
    if expected[0] == "raised" and expected[1] is OverflowError and got[0] == "raised":
        assert got[1] is OverflowError, (args, expected, got)
        return
    if expected[0] == "value":
        assert got[0] == "value" and same_value(expected[1], got[1]), (args, expected, got)
    else:
        assert got[:2] == expected[:2] and got[2] == expected[2], (args, expected, got)


def same_layout_copy(a: Any) -> Any:
    """A copy of an array with its layout: C or Fortran order, or the same
    strides (a view of a new buffer), so that both runs see the same kind
    of array."""
    import numpy as np

    if a.flags.c_contiguous or a.flags.f_contiguous or a.size == 0:
        return a.copy(order="K")
    low = sum(min(0, (n - 1) * s) for n, s in zip(a.shape, a.strides))
    high = sum(max(0, (n - 1) * s) for n, s in zip(a.shape, a.strides)) + a.itemsize
    buffer = np.zeros((high - low) // a.itemsize, dtype=a.dtype)
    view = np.lib.stride_tricks.as_strided(buffer[-low // a.itemsize :], a.shape, a.strides)
    view[...] = a
    return view


def assert_same_effects(py: Callable[..., Any], compiled: Callable[..., Any], *args: Any) -> None:
    """assert_same on copies of the array, list and dict arguments, whose contents
    must then be equal too (in-place writes), whether the calls returned or
    raised."""
    import numpy as np

    def copy(a: Any) -> Any:
        if isinstance(a, np.ndarray):
            return same_layout_copy(a)
        if isinstance(a, list):  # (its arrays too: compiled code may write to them)
            return [copy(item) for item in a]
        return type(a)(a) if isinstance(a, dict) else a

    def copies() -> list[Any]:
        return [copy(a) for a in args]

    expected_args, got_args = copies(), copies()
    expected = outcome(py, *expected_args)
    got = outcome(compiled, *got_args)
    if expected[0] == "value":
        assert got[0] == "value" and same_value(expected[1], got[1]), (args, expected, got)
    else:
        assert got[:2] == expected[:2] and got[2] == expected[2], (args, expected, got)
    for before, after_py, after_jit in zip(args, expected_args, got_args):
        if isinstance(before, (np.ndarray, list, dict)):
            assert same_value(_plain(after_py), _plain(after_jit)), (args, after_py, after_jit)


def jitted_copies(module: types.ModuleType, **options: Any) -> types.SimpleNamespace:
    """Jitted copies of a module's functions (compiled with plait.jit's
    `options`) whose globals name the jitted copies, so calls between them
    are native while the module itself stays pure CPython (the reference)."""
    import plait

    namespace: dict[str, Any] = dict(vars(module))
    for name, value in vars(module).items():
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            copy = types.FunctionType(value.__code__, namespace, name, value.__defaults__)
            namespace[name] = plait.jit(copy, **options)
    return types.SimpleNamespace(**namespace)
