"""Array variables re-bound anywhere (loops, branches, tuples, callees), each
function run under CPython and under plait.jit on the same inputs; memory is
reference-counted, so re-binding in a loop runs in constant memory."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jit_rebinding as py
import plait
from conftest import rss_kib
from jit_support import assert_same, assert_same_effects, jitted_copies

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
jit = jitted_copies(py)

floats = st.floats(-1e6, 1e6, allow_nan=False)
dtypes = st.sampled_from([np.float64, np.float32, np.int64, np.int32])


def arrays(min_size: int = 0, max_size: int = 12) -> st.SearchStrategy[np.ndarray]:
    return st.builds(lambda values, dtype, step: np.array(values).astype(dtype)[::step],
                     st.lists(floats, min_size=min_size, max_size=max_size), dtypes, st.sampled_from([1, 1, 2]))


@given(a=arrays(), steps=st.integers(0, 30))
@SETTINGS
def test_an_array_re_bound_in_a_loop(a: np.ndarray, steps: int) -> None:
    assert_same_effects(py.relax, jit.relax, a.astype(np.float64), steps)
    assert_same_effects(py.through_callee, jit.through_callee, a, steps)
    assert_same_effects(py.raise_midway, jit.raise_midway, a, steps)


@given(a=arrays(min_size=1))
@SETTINGS
def test_an_array_re_bound_until_a_while_loop_converges(a: np.ndarray) -> None:
    assert_same_effects(py.relax_while, jit.relax_while, a.astype(np.float64) % 100, 1e-6)


@given(a=arrays(), c=st.integers(-2, 2))
@SETTINGS
def test_an_array_bound_on_either_path_of_a_branch(a: np.ndarray, c: int) -> None:
    # The three paths give arrays of different layouts (new, strided view,
    # the argument itself): the variable takes any of them.
    assert_same_effects(py.either_path, jit.either_path, a, c)
    assert_same_effects(py.fresh_or_argument, jit.fresh_or_argument, a, c > 0)
    assert_same_effects(py.used_before_assignment, jit.used_before_assignment, a, c > 0)


@given(a=arrays(min_size=3), steps=st.integers(0, 9))
@SETTINGS
def test_buffers_swapped_through_a_tuple(a: np.ndarray, steps: int) -> None:
    a = a.astype(np.float64)
    assert_same_effects(py.swap_buffers, jit.swap_buffers, a, np.zeros_like(a), steps)
    assert_same_effects(py.arrays_in_a_tuple, jit.arrays_in_a_tuple, a, a[::-1].copy())


@given(a=arrays(), n=st.integers(0, 8))
@SETTINGS
def test_arrays_returned_from_inside_a_loop_and_after_it(a: np.ndarray, n: int) -> None:
    assert_same_effects(py.returned_from_a_loop, jit.returned_from_a_loop, a, n)
    assert_same_effects(py.shrink, jit.shrink, a)


def test_writes_go_to_the_array_the_variable_holds_at_the_time() -> None:
    assert_same_effects(py.rebind_then_write, jit.rebind_then_write, np.zeros(3), np.zeros(2))


def test_a_returned_view_keeps_its_base_alive() -> None:
    result = jit.returned_from_a_loop(np.arange(5.0), 10)
    view = jit.either_path(result, -1)
    del result
    np.testing.assert_array_equal(view, py.either_path(py.returned_from_a_loop(np.arange(5.0), 10), -1))


def test_arrays_of_two_dtypes_in_one_variable_name_both_places() -> None:
    # Where two types meet (a read after a branch), the error names both.
    with pytest.raises(plait.TypingError, match=r"variable 'x' is .* here but .* at .*jit_rebinding.py:\d+"):
        jit.dtype_by_branch(3, True)


@given(n=st.integers(0, 20), a=arrays(min_size=1), c=st.booleans())
@SETTINGS
def test_a_variable_takes_a_new_type_at_each_assignment(n: int, a: np.ndarray, c: bool) -> None:
    assert_same(py.int_then_float_array, jit.int_then_float_array, n)
    assert_same(py.int_then_array, jit.int_then_array, n)
    a = a.astype(np.float64)  # (int arrays would meet float ones at the join)
    assert_same_effects(py.scalar_then_array_then_joined, jit.scalar_then_array_then_joined, a, c)


def test_a_later_value_read_where_it_may_be_unbound_is_an_error() -> None:
    # x is an int, then maybe an array: the read after the branch joins
    # both, so the error names both places (the source name, not x$1).
    with pytest.raises(plait.TypingError, match=r"variable 'x' is"):
        jit.unbound_second_value(np.ones(2), True)


def test_re_binding_in_a_loop_runs_in_constant_memory() -> None:
    u = np.zeros(1000)
    jit.constant_memory(u, 10)  # compiled, warmed
    before = rss_kib()
    # 100,000 iterations of two 8 KB arrays: 1.6 GB if any were kept.
    assert jit.constant_memory(u, 100_000) == 100_000.0
    assert rss_kib() - before < 16 * 1024


def test_error_paths_free_what_the_call_made_and_leave_the_process_healthy() -> None:
    u = np.zeros(1000)
    before = rss_kib()
    for _ in range(2000):  # each call re-binds, then raises: 8 KB arrays left to the arena
        with pytest.raises(ValueError, match="could not be broadcast"):
            jit.raise_midway(u, 10)
    assert rss_kib() - before < 16 * 1024
    np.testing.assert_array_equal(jit.raise_midway(np.zeros(2), 4), py.raise_midway(np.zeros(2), 4))


@given(p=st.lists(st.lists(floats, min_size=2, max_size=2), min_size=2, max_size=2).map(np.array),
       dtype=dtypes)
@SETTINGS
def test_arrays_unpack_into_elements_and_rows(p: np.ndarray, dtype: type) -> None:
    assert_same_effects(py.unpack_rows, jit.unpack_rows, p.astype(dtype))


@given(a=arrays())
@SETTINGS
def test_unpacking_the_wrong_length_raises_cpythons_error(a: np.ndarray) -> None:
    # Three names: too many or not enough values for every other length.
    assert_same(py.unpack_three, jit.unpack_three, a)


def test_unpacked_rows_of_temporaries_run_in_constant_memory() -> None:
    m = np.arange(2 * 5000.0).reshape(2, 5000)
    jit.unpack_matrix_rows(m, 10)
    before = rss_kib()
    np.testing.assert_array_equal(jit.unpack_matrix_rows(m, 3000), py.unpack_matrix_rows(m, 3000))
    assert rss_kib() - before < 20_000
