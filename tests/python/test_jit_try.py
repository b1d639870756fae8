"""try/except/else/finally and re-raising: compiled code catches what
CPython catches (by class and base class), runs else and finally on the same
paths, and what it lets through reaches Python with CPython's class, message
and a traceback line at the user's raise."""

from __future__ import annotations

import traceback

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_try as py
import plait
from jit_support import jitted_copies, small_ints

jit = jitted_copies(py)
SETTINGS = settings(max_examples=60, deadline=None)


def outcome(fn, *args):
    """What a call gives: its value, or its exception's class and args; and
    the arguments afterwards (arrays written in place)."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        result = ("value", repr(fn(*copies)))
    except Exception as error:  # noqa: BLE001 - compared
        result = ("raised", type(error), error.args)
    return result, [repr(a.tolist()) if isinstance(a, np.ndarray) else a for a in copies]


def same(name: str, *args) -> None:
    assert outcome(getattr(py, name), *args) == outcome(getattr(jit, name), *args), args


@given(a=small_ints, b=st.sampled_from([0, 1, -1, 3, -7]), fallback=small_ints)
@SETTINGS
def test_catches_by_class(a: int, b: int, fallback: int) -> None:
    same("floor_div_or", a, b, fallback)
    same("first_matching_clause", a, b)
    same("not_caught", a, b)


@given(x=st.integers(-20, 20))
@SETTINGS
def test_catches_subclasses_and_tuples(x: int) -> None:
    same("catches_by_base", x)
    same("tuple_of_classes", x, np.arange(4.0))
    same("catches_everything", x)


@given(x=st.integers(-10, 10))
@SETTINGS
def test_else_and_finally_paths(x: int) -> None:
    same("else_and_finally", x, np.zeros(4, dtype=np.int64))
    same("finally_runs_on_return", x, np.zeros(2, dtype=np.int64))
    same("return_in_finally_wins", x)
    same("raises_in_finally", x)


@given(n=st.integers(0, 30))
@SETTINGS
def test_break_and_continue_run_finally(n: int) -> None:
    same("loops_with_finally", n, np.zeros(2, dtype=np.int64))


@given(x=st.integers(-10, 10))
@SETTINGS
def test_reraise_and_nesting(x: int) -> None:
    same("reraises", x)
    same("reraises_by_name", x)
    same("nested", x)
    same("raise_from_none", x)
    same("bare_raise_outside_handler", x)


@given(a=hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-3, 3)), i=st.integers(-8, 8))
@SETTINGS
def test_catches_from_callees_and_arrays(a: np.ndarray, i: int) -> None:
    same("catches_from_callee", a, i)
    same("in_place_before_raise", a, i)
    same("counts_failures", np.round(a))


@given(n=st.integers(0, 40))
@SETTINGS
def test_catches_from_a_recursive_callee(n: int) -> None:
    same("catches_from_recursion", n)


def test_catches_numpy_shape_errors() -> None:
    same("catches_numpy_errors", np.ones(3), np.ones(3))
    same("catches_numpy_errors", np.ones(3), np.ones(4))


def test_raise_from_none_suppresses_the_context() -> None:
    with pytest.raises(ValueError, match="x was 0") as caught:
        jit.raise_from_none(0)
    assert caught.value.__cause__ is None


def last_frame(fn, *args):
    try:
        fn(*args)
    except Exception as error:  # noqa: BLE001 - its traceback is the point
        frame = traceback.extract_tb(error.__traceback__)[-1]
        return frame.filename, frame.lineno, frame.name, frame.line
    raise AssertionError("no exception")


@pytest.mark.parametrize(
    "name, args",
    [("raises_where", (5,)), ("calls_raises_where", (5,)), ("not_caught", (1, 0)), ("reraises", (7,)),
     ("raises_in_finally", (-1,))],
)
def test_tracebacks_point_at_the_raising_line(name: str, args: tuple) -> None:
    assert last_frame(getattr(jit, name), *args) == last_frame(getattr(py, name), *args)


def test_a_caught_exception_can_only_be_reraised() -> None:
    with pytest.raises(plait.UnsupportedError, match=r"re-raise the caught exception 'error'.*str\(error\)"):
        jit.uses_caught_value(1)
    with pytest.raises(plait.UnsupportedError, match=r"raise \.\.\. from <exception> is not supported"):
        jit.raise_from_error(1)
    with pytest.raises(plait.UnsupportedError, match="except takes exception classes"):
        jit.except_not_a_class(1)


def test_endless_recursion_is_named() -> None:
    with pytest.raises(plait.TypingError, match=r"never_returns\(\) never returns a value.*RecursionError"):
        jit.never_returns(1)
