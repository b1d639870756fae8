"""Generator expressions and list comprehensions consumed by sum(), min(),
max(), any() and all() compile to loops (lazily, as CPython runs them),
and sum/any/all take tuples and arrays: results bit for bit as the
interpreter's (its float summation order, compensated from 3.12), its
exceptions."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_generators as py
import plait
from jit_support import assert_same, floats, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=80, deadline=None)

finite = st.floats(-1e6, 1e6)
values = st.lists(st.one_of(finite, st.sampled_from([0.1, 0.2, 0.3, 1e16, -1e16, 1.0, -0.0])), min_size=1, max_size=12)


@given(a=values, n=st.integers(0, 20), start=st.one_of(st.integers(-5, 5), finite))
@SETTINGS
def test_sums(a: list, n: int, start: object) -> None:
    # (n == 0: the int start, where the items are floats, is given as the
    # float the total holds: one type per value, as the jit guide says.)
    assert_same(py.sums, jit.sums, np.array(a), n, start, unified=n == 0)


@given(t=values, start=st.one_of(st.integers(-3, 3), st.sampled_from([0.0, -0.0, 0.5, 1e16]), finite))
@SETTINGS
def test_sums_of_python_floats(t: list, start: object) -> None:
    assert_same(py.sum_of_floats, jit.sum_of_floats, tuple(t), start)


def test_float_sums_follow_the_interpreter() -> None:
    t = (0.1,) * 10
    assert jit.sum_of_floats(t, 0) == py.sum_of_floats(t, 0)
    assert jit.sum_of_floats((1e16, 1.0, -1e16), 0.0) == py.sum_of_floats((1e16, 1.0, -1e16), 0.0)


@given(a=st.lists(st.integers(-3, 3), min_size=1, max_size=6), t=st.lists(st.integers(-9, 9), min_size=1, max_size=6))
@SETTINGS
def test_builtins_over_sequences(a: list, t: list) -> None:
    assert_same(py.builtins_over_sequences, jit.builtins_over_sequences, np.array(a, dtype=np.int64), tuple(t))
    assert_same(py.builtins_over_sequences, jit.builtins_over_sequences, np.array(a, dtype=float), tuple(float(v) for v in t))


@given(a=st.lists(st.one_of(floats, finite), min_size=1, max_size=8), n=st.integers(0, 8))
@SETTINGS
def test_min_max(a: list, n: int) -> None:
    assert_same(py.min_max, jit.min_max, np.array(a), n)
    assert_same(py.min_of_nothing, jit.min_of_nothing, n)
    assert_same(py.max_of_nothing, jit.max_of_nothing, np.array(a))


@given(n=st.integers(0, 6))
@SETTINGS
def test_generators_run_lazily(n: int) -> None:
    assert_same(py.stops_at_the_first, jit.stops_at_the_first, n)
    assert_same(py.list_comprehension_makes_every_item, jit.list_comprehension_makes_every_item, n)


@given(a=st.lists(finite, min_size=1, max_size=8), n=st.integers(0, 7), scale=finite)
@SETTINGS
def test_nested_captured_zip_enumerate(a: list, n: int, scale: float) -> None:
    assert_same(py.nested_and_captured, jit.nested_and_captured, np.array(a), n, scale)
    assert_same(py.iterable_once, jit.iterable_once, np.array(a))


def test_a_local_sum_is_not_the_builtin() -> None:
    # Not rewritten: a generator passed to the user's own sum is a value,
    # which compiled code does not have.
    with pytest.raises(plait.UnsupportedError, match="a generator expression is compiled where sum"):
        jit.shadowed(5)


def test_what_compiled_code_cannot_sum_is_a_typing_error() -> None:
    with pytest.raises(plait.TypingError, match=re.escape("any() of a 2-D array tests its rows")):
        jit.any_of_rows(np.zeros((2, 2)))
    with pytest.raises(plait.TypingError, match="iterates tuples whose items have one type"):
        jit.sum_of_mixed(1, 2.5)
    with pytest.raises(plait.UnsupportedError, match="a generator expression is compiled where sum"):
        jit.generator_value(np.ones(2))


@given(a=st.lists(st.integers(-5, 5).map(float), min_size=1, max_size=12), limit=st.integers(-3, 3).map(float))
@SETTINGS
def test_min_and_max_of_generators_by_key(a: list, limit: float) -> None:
    # Keys computed once per item; the first of equal keys wins, as in CPython.
    assert_same(py.extremes_by_key, jit.extremes_by_key, a, limit)
    assert_same(py.extremes_by_key, jit.extremes_by_key, np.array(a), np.float64(limit))


@given(shape=st.sampled_from([(3, 2), (1, 4), (2, 2, 3)]), start=st.sampled_from([0, 1.5, -2]),
       dtype=st.sampled_from([np.float64, np.int64, np.float32, np.int8, np.int32]))
@SETTINGS
def test_sum_of_an_array_adds_its_rows(shape: tuple, start: float, dtype: type) -> None:
    # Row after row, as CPython's sum; results equal NumPy's elementwise adds.
    m = (np.arange(np.prod(shape)) * 0.37 - 1).astype(dtype).reshape(shape)
    assert_same(py.sum_of_rows, jit.sum_of_rows, m, start)
