"""raise and assert: compiled code raises CPython's exception, of the same
class (built-in or the module's own), with the same message and args,
formatted as CPython formats the f-string's fields."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_exceptions as py
import plait
from jit_support import jitted_copies, small_ints

jit = jitted_copies(py)
SETTINGS = settings(max_examples=50, deadline=None)


def outcome(fn, *args):
    try:
        return ("value", repr(fn(*args)))
    except Exception as error:  # noqa: BLE001 - compared
        return ("raised", type(error), error.args)


def same(name: str, *args) -> None:
    assert outcome(getattr(py, name), *args) == outcome(getattr(jit, name), *args), args


@given(x=st.one_of(small_ints, st.floats(-1e6, 1e6), st.booleans()))
@SETTINGS
def test_raise_and_assert_messages(x) -> None:
    same("checks_sign", x)
    same("asserts", x)
    same("bare_class", x)
    same("message_is_a_number", x)
    same("returns_or_raises", x)


@given(n=st.integers(0, 10**7))
@SETTINGS
def test_raise_in_loops(n: int) -> None:
    same("raises_in_a_while", n)


@given(a=st.one_of(hnp.arrays(np.float64, st.integers(0, 5), elements=st.floats(-5, 5)),
                   hnp.arrays(np.float32, st.integers(1, 5), elements=st.floats(-5, 5, width=32)),
                   hnp.arrays(np.int8, st.integers(1, 5), elements=st.integers(-5, 5))))
@SETTINGS
def test_user_exception_classes_and_numpy_values(a: np.ndarray) -> None:
    same("raises_in_a_loop", a)
    same("numpy_scalars", a)


def test_the_raised_class_is_the_user_class() -> None:
    with pytest.raises(py.DomainError, match=r"negative value -1.0 at 1"):
        jit.raises_in_a_loop(np.array([1.0, -1.0]))


def test_bare_raise_outside_a_handler_and_from_none() -> None:
    # CPython's RuntimeError when no exception is being handled.
    same("bare_raise", 1)
    same("raise_from", 1)


def test_raise_forms_plait_does_not_compile_are_named() -> None:
    with pytest.raises(plait.TypingError, match="truth value of an array"):
        jit.asserts_an_array(np.ones(2))


def test_messages_built_from_strs_at_run_time() -> None:
    same("message_of_a_string_value", 1)
    same("message_of_a_string_value", -2.5)
