"""*args parameters in jitted functions, plain helpers and plait.overload
implementations: the extra positional arguments as a tuple, packed by the
dispatcher for calls from Python and by the typer for compiled callers; a
bad call's TypeError is CPython's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_varargs as py
import plait
from jit_support import assert_same, floats, ints, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=100, deadline=None)


@given(scale=floats, values=st.lists(st.floats(allow_nan=False), max_size=4))
@SETTINGS
def test_star_args_from_python(scale: float, values: list) -> None:
    assert_same(py.weighted, jit.weighted, scale, *values)
    assert_same(py.count, jit.count, *values)
    assert_same(py.with_default, jit.with_default, *values[:1])
    if values:
        assert_same(py.with_default, jit.with_default, 1, *values)


@given(x=ints, y=floats)
@SETTINGS
def test_star_args_from_compiled_code(x: int, y: float) -> None:
    assert_same(py.forwards, jit.forwards, float(x), y)


def test_star_args_errors_are_cpythons() -> None:
    for fn, args, kwargs in ((py.weighted, (), {}), (py.weighted, (1.0,), {"values": (1.0,)}), (py.with_default, (), {"b": 1})):
        with pytest.raises(TypeError) as expected:
            fn(*args, **kwargs)
        with pytest.raises(TypeError) as got:
            getattr(jit, fn.__name__)(*args, **kwargs)
        assert str(got.value) == str(expected.value)
    with pytest.raises(plait.TypingError, match="weighted\\(\\) got an unexpected keyword argument 'values'"):
        jit.star_by_keyword()


@given(x=st.integers(-1000, 1000))
@SETTINGS
def test_inner_functions_and_lambdas_take_star_args(x: int) -> None:
    assert_same(py.inner_star, jit.inner_star, x)


@given(values=st.lists(st.integers(-3, 3), max_size=3))
@SETTINGS
def test_a_loop_over_no_arguments_runs_its_else(values: list) -> None:
    assert_same(py.empty_loop_else, jit.empty_loop_else, *values)


@given(t=st.lists(st.floats(-1e6, 1e6), min_size=2, max_size=4).map(tuple), rows=st.integers(1, 3))
@SETTINGS
def test_unpacking_in_calls(t: tuple, rows: int) -> None:
    assert_same(py.unpacks, jit.unpacks, t, np.zeros((rows, 2)))


def test_what_unpacking_takes() -> None:
    with pytest.raises(plait.UnsupportedError, match=r"f\(\*t\) takes a variable, its attribute or a part of it"):
        jit.unpacks_a_call((1.0, 2.0))
    with pytest.raises(plait.UnsupportedError, match=r"f\(\*t\) unpacks tuples in compiled code, not int"):
        jit.unpacks_a_number(3)


@given(a=st.integers(-200, 200), b=st.integers(-200, 200))
@SETTINGS
def test_one_call_unpacks_tuples_of_each_length(a: int, b: int) -> None:
    assert_same(py.unpacks_tuples_of_two_lengths, jit.unpacks_tuples_of_two_lengths, a, b)


def test_enumerate_of_an_empty_tuple_is_refused() -> None:
    assert_same(py.enumerates_no_arguments, jit.enumerates_no_arguments, 1.0, 2.0, 3.0)
    with pytest.raises(plait.UnsupportedError, match=r"enumerate\(\) of an empty tuple is not supported"):
        jit.enumerates_no_arguments(1.0)
