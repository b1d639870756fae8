"""for loops over enumerate(), zip(), tuples, list displays, np.ndindex()
and np.ndenumerate(), and tuples indexed by variables: compiled and
interpreted give the same values, effects and exceptions."""

from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_iteration as py
import plait
from jit_support import assert_same, assert_same_effects, jitted_copies, small_ints

jit = jitted_copies(py)
SETTINGS = settings(max_examples=40, deadline=None)

vectors = hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-100, 100))
matrices = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=0, max_side=4),
                      elements=st.floats(-100, 100))


@given(a=vectors, b=vectors, start=small_ints)
@SETTINGS
def test_enumerate_and_zip(a: np.ndarray, b: np.ndarray, start: int) -> None:
    assert_same(py.enumerate_elements, jit.enumerate_elements, a, start)
    assert_same(py.enumerate_keyword_start, jit.enumerate_keyword_start, a)
    assert_same(py.zip_arrays, jit.zip_arrays, a, b)
    assert_same(py.zip_as_tuple, jit.zip_as_tuple, a, b)
    assert_same(py.returns_from_zip, jit.returns_from_zip, a, b)
    stop = a[len(a) // 2] if len(a) else 0.0
    assert_same(py.for_else_break, jit.for_else_break, a, stop)
    assert_same(py.temporary_iterable, jit.temporary_iterable, a)


@given(a=hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-9, 9)), n=st.integers(-2, 8))
@SETTINGS
def test_zip_stops_at_the_shortest(a: np.ndarray, n: int) -> None:
    assert_same(py.zip_three, jit.zip_three, a, n, (4, 5, 6, 7))


@given(n=st.integers(-5, 12), step=st.sampled_from([1, 2, 3, -1, -2, -5, 0]))
@SETTINGS
def test_enumerate_of_range(n: int, step: int) -> None:
    # (step 0: CPython's ValueError, raised by range() before the loop.)
    assert_same(py.enumerate_range, jit.enumerate_range, n, step)


@given(m=matrices)
@SETTINGS
def test_enumerate_rows_are_views(m: np.ndarray) -> None:
    assert_same(py.enumerate_rows, jit.enumerate_rows, m)
    # (Rows of no columns: IndexError from both.)
    assert_same_effects(py.enumerate_rows_written, jit.enumerate_rows_written, m)


@given(n=st.integers(-1, 4), m=st.integers(-1, 4))
@SETTINGS
def test_ndindex(n: int, m: int) -> None:
    # (A negative size: NumPy's ValueError.)
    assert_same(py.ndindex_sizes, jit.ndindex_sizes, n, m)
    assert_same(py.ndindex_shape, jit.ndindex_shape, (n, m, 2))


@given(a=matrices)
@SETTINGS
def test_ndindex_and_ndenumerate_of_arrays(a: np.ndarray) -> None:
    assert_same(py.ndindex_of_array, jit.ndindex_of_array, a)
    assert_same(py.ndenumerate_weights, jit.ndenumerate_weights, a)
    assert_same(py.ndenumerate_weights, jit.ndenumerate_weights, np.asfortranarray(a))
    assert_same(py.ndenumerate_weights, jit.ndenumerate_weights, a.T)


@given(a=hnp.arrays(np.int32, hnp.array_shapes(min_dims=3, max_dims=3, max_side=3), elements=st.integers(-2, 2)))
@SETTINGS
def test_ndenumerate_of_3d_arrays(a: np.ndarray) -> None:
    assert_same(py.ndenumerate_3d, jit.ndenumerate_3d, a)


@given(t=st.tuples(small_ints, small_ints, small_ints), x=st.floats(-10, 10), y=st.floats(-10, 10),
       k=st.integers(-5, 5))
@SETTINGS
def test_tuples_and_list_displays(t: tuple[int, int, int], x: float, y: float, k: int) -> None:
    assert_same(py.over_tuple, jit.over_tuple, t)
    assert_same(py.over_list_display, jit.over_list_display, x, y)
    assert_same(py.over_shape, jit.over_shape, np.zeros((2, 3, 4)))
    # A variable index: CPython's IndexError out of range.
    assert_same(py.tuple_index, jit.tuple_index, t, k)
    assert_same(py.tuple_index, jit.tuple_index, (1.5, 2.5), k)
    assert_same(py.tuple_index_in_loop, jit.tuple_index_in_loop, t)


def test_loops_plait_refuses_say_what_is_supported() -> None:
    with pytest.raises(plait.UnsupportedError, match="a for loop over a tuple of tuple.int, float. is not supported"):
        jit.over_tuple((1, 2.5))
    with pytest.raises(plait.UnsupportedError, match="a tuple of tuple.int, float. can only be indexed by integer constants"):
        jit.tuple_index((1, 2.5), 0)


def test_a_loop_reading_its_own_variable_first() -> None:
    # CPython's UnboundLocalError, raised when the loop starts.
    assert_same(py.range_of_its_own_variable, jit.range_of_its_own_variable, 3)
    assert_same(py.zip_of_its_own_variable, jit.zip_of_its_own_variable, np.ones(2))
