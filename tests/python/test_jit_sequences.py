"""Tuples and dtypes passed to jitted functions, list displays as the
arguments of NumPy calls, and np.array of sequences: compiled and
interpreted give the same values, dtypes, shapes and exceptions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_sequences as py
import plait
from jit_support import assert_same, assert_same_effects, jitted_copies, small_ints

jit = jitted_copies(py)
SETTINGS = settings(max_examples=40, deadline=None)
DTYPES = [np.float64, np.float32, np.int8, np.int32, np.int64, np.uint16, np.bool_, np.complex64]


@given(t=st.tuples(st.one_of(small_ints, st.floats(-1e3, 1e3), st.booleans()), small_ints),
       u=st.tuples(st.tuples(small_ints, small_ints), small_ints))
@SETTINGS
def test_tuple_arguments(t: tuple[Any, Any], u: Any) -> None:
    assert_same(py.tuple_sum, jit.tuple_sum, t)
    assert_same(py.nested_tuple, jit.nested_tuple, u)
    assert_same(py.tuple_returned, jit.tuple_returned, u)


def test_tuple_arguments_specialise_and_check() -> None:
    # One executor per tuple type; NumPy scalars count as Python numbers;
    # an int beyond int64 is the OverflowError of an int argument.
    f = plait.jit(py.tuple_sum)
    assert f((1, 2)) == 5 and f((1.5, 2)) == 5.5
    assert f((np.int32(1), np.float32(0.5))) == 2.0
    assert f.signatures == ["int(tuple[int64, int64])", "float(tuple[float64, int64])", "float(tuple[int64, float64])"]
    with pytest.raises(OverflowError, match="does not fit in int64"):
        f((2**64, 1))
    with pytest.raises(TypeError, match=r"tuple elements must be int, float, bool, complex or tuples of them, not list"):
        f(([1], 2))
    with pytest.raises(TypeError, match=r"tuple elements must be .* not numpy.ndarray"):
        f((np.zeros(2), 2))


def test_tuples_in_explicit_signatures() -> None:
    f = plait.jit("float64(tuple[int64, float64])")(py.tuple_sum)
    assert f((1, 2.5)) == 6.0
    with pytest.raises(TypeError):
        f((1, 2))  # tuples match their signature exactly


@given(dtype=st.sampled_from(DTYPES + [float, int, bool, complex]), n=st.integers(0, 4))
@SETTINGS
def test_dtype_arguments(dtype: Any, n: int) -> None:
    assert_same(py.zeros_of, jit.zeros_of, (n, 2), dtype)
    assert_same(py.zeros_of, jit.zeros_of, n, np.dtype(dtype))
    assert_same(py.full_like_dtype, jit.full_like_dtype, np.zeros((n, 3)), dtype)
    assert_same(py.arange_as, jit.arange_as, n, dtype)


def test_dtype_arguments_are_keys() -> None:
    jit.zeros_of(2, np.float32)
    jit.zeros_of(2, np.dtype("float32"))
    assert "float32[::1](int64, dtype[float32])" in jit.zeros_of.signatures
    with pytest.raises(TypeError, match="must be int, float, bool, complex, None, a str, a tuple, a list, a dict, a dtype, a jitted function or an array, not type"):
        jit.zeros_of(2, object)


@given(n=st.integers(0, 4), m=st.integers(-1, 4), x=st.one_of(small_ints, st.floats(-1e3, 1e3), st.booleans()),
       y=st.one_of(small_ints, st.floats(-1e3, 1e3)))
@SETTINGS
def test_list_displays_and_numbers(n: int, m: int, x: Any, y: Any) -> None:
    assert_same(py.zeros_of_list, jit.zeros_of_list, n, m)
    assert_same(py.array_of_numbers, jit.array_of_numbers, x, y)
    assert_same(py.array_of_mixed, jit.array_of_mixed, x)
    assert_same(py.asarray_of_list, jit.asarray_of_list, y)


@given(x=st.one_of(st.integers(-300, 300), st.booleans()))
@SETTINGS
def test_python_ints_must_fit_the_dtype(x: int) -> None:
    assert_same(py.array_with_dtype, jit.array_with_dtype, x)


@given(a=hnp.arrays(np.float32, st.sampled_from([(0,), (3,), (2, 2)]), elements=st.floats(-9, 9, width=32)),
       b=hnp.arrays(np.int16, st.sampled_from([(3,), (2, 2), (2, 3), (4,)]), elements=st.integers(-9, 9)))
@SETTINGS
def test_arrays_of_arrays(a: np.ndarray, b: np.ndarray) -> None:
    # Arrays of one shape stack; others: NumPy's "inhomogeneous shape after
    # n dimensions" with the shape it detected.
    b = b.astype(np.float32) if b.ndim != a.ndim else b
    assert_same(py.array_of_arrays, jit.array_of_arrays, a, b)
    assert_same(py.array_of_array_rows, jit.array_of_array_rows, a, b)
    assert_same(py.concatenate_list, jit.concatenate_list, a.ravel(), b.ravel())


def test_ragged_sequences_raise_numpy_error() -> None:
    assert_same(py.array_ragged, jit.array_ragged)
    with pytest.raises(ValueError, match=r"inhomogeneous shape after 1 dimensions. The detected shape was \(2,\)"):
        jit.array_ragged()


@given(a=hnp.arrays(np.int64, st.sampled_from([(3,), (2, 3)]), elements=st.integers(-9, 9)))
@SETTINGS
def test_array_of_arrays_copies_or_not(a: np.ndarray) -> None:
    assert_same_effects(py.array_copy, jit.array_copy, a)
    assert_same(py.array_cast, jit.array_cast, a)
    assert jit.array_no_copy(a) is not None
    got = jit.array_no_copy(a)
    assert np.shares_memory(got, a)


@given(t=st.one_of(st.tuples(small_ints, small_ints, small_ints),
                   st.tuples(st.tuples(st.floats(-9, 9), small_ints), st.tuples(small_ints, st.booleans()))))
@SETTINGS
def test_asarray_of_tuples(t: Any) -> None:
    assert_same(py.asarray_of_tuple, jit.asarray_of_tuple, t)


def test_list_displays_elsewhere_are_lists() -> None:
    assert jit.list_built(1) == py.list_built(1) == [1, 1]


@given(shape=st.lists(st.integers(0, 3), min_size=1, max_size=3), t=st.tuples(small_ints, small_ints))
@SETTINGS
def test_starred_displays(shape: list, t: tuple) -> None:
    assert_same(py.starred_displays, jit.starred_displays, np.ones(shape), t)


def test_starred_non_tuples_are_refused() -> None:
    def star_list(l):
        return (*l, 1)

    with pytest.raises(plait.UnsupportedError, match=r"\*x in a display takes a tuple in compiled code, not list\[int\]"):
        plait.jit(star_list)([1, 2])
