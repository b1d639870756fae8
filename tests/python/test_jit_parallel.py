"""prange loops with parallel=True: the same functions run interpreted (where
prange is range) and compiled, on many inputs. Reductions of ints, bools and
min/max are exact; float sums add in another order, so they match within
rounding. Exceptions raised in an iteration reach the caller with CPython's
type and message; loops that cannot run in parallel (break, return, print, a
value carried between iterations) run serially with the same results; and
parallel kernels are shared by many Python threads at once."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_parallel as py
import plait
from conftest import run_in_threads
from jit_support import assert_same_effects, outcome
from jit_support import jitted_copies
from plait.testing import unique_barrier_id

par = jitted_copies(py, parallel=True)
ser = jitted_copies(py)
SETTINGS = settings(max_examples=30, deadline=None)

finite = st.floats(-1e6, 1e6, width=64)
ints = st.integers(-(2**40), 2**40)


@given(hnp.arrays(np.float64, st.integers(0, 3000), elements=finite))
@SETTINGS
def test_float_sum_matches_within_rounding(a) -> None:
    expected = py.float_sum(a)
    got = par.float_sum(a)
    assert math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-6 * (1 + np.abs(a).sum()))


@given(hnp.arrays(np.int64, st.integers(0, 3000), elements=ints))
@SETTINGS
def test_int_reductions_are_exact(a) -> None:
    assert par.int_reductions(a) == py.int_reductions(a)


def test_python_int_sums_overflow_as_serial_code() -> None:
    # NumPy ints wrap (int_reductions above); Python ints raise where int64 ends.
    a = np.full(1000, 2**62, dtype=np.int64)
    assert outcome(par.python_int_sum, a) == outcome(ser.python_int_sum, a)
    assert outcome(par.python_int_sum, a)[1] is OverflowError
    a = np.arange(-10**6, 10**6, 7, dtype=np.int64) * 2**20
    assert par.python_int_sum(a) == py.python_int_sum(a)


@given(hnp.arrays(np.float64, st.integers(0, 2000), elements=finite))
@SETTINGS
def test_float_min_max_and_subtraction(a) -> None:
    low, high, down = par.float_min_max_sub(a)
    e_low, e_high, e_down = py.float_min_max_sub(a)
    assert (low, high) == (e_low, e_high)
    assert math.isclose(down, e_down, rel_tol=1e-9, abs_tol=1e-6 * (1 + np.abs(a).sum()))


@given(hnp.arrays(np.float64, st.integers(0, 500), elements=finite), finite)
@SETTINGS
def test_bool_reductions(a, limit) -> None:
    assert par.bool_reductions(a, limit) == py.bool_reductions(a, limit)


@given(hnp.arrays(np.float64, st.tuples(st.integers(0, 300), st.integers(0, 40)), elements=finite))
@SETTINGS
def test_private_accumulators_per_row_are_exact(a) -> None:
    assert_same_effects(py.row_sums, par.row_sums, a, np.zeros(a.shape[0]))


@given(st.integers(0, 5000))
@SETTINGS
def test_variables_after_the_loop_are_the_last_iterations(n) -> None:
    assert outcome(par.last_values, n) == outcome(py.last_values, n)


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(-7, 7).filter(bool))
@SETTINGS
def test_ranges_with_steps(start, stop, step) -> None:
    assert_same_effects(py.stepped, par.stepped, start, stop, step, np.zeros(120))


def test_zero_step_raises_as_range() -> None:
    assert outcome(par.stepped, 0, 5, 0, np.zeros(5)) == outcome(py.stepped, 0, 5, 0, np.zeros(5))


@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 200), st.integers(0, 30)), elements=finite))
@SETTINGS
def test_array_variables_are_private_and_the_last_one_stays(a) -> None:
    out, row = par.array_privates(a)
    e_out, e_row = py.array_privates(a)
    assert np.array_equal(out, e_out) and np.array_equal(row, e_row)


@given(hnp.arrays(np.float64, st.tuples(st.integers(0, 60), st.integers(0, 60)), elements=finite))
@SETTINGS
def test_nested_pranges(a) -> None:
    assert math.isclose(par.nested(a), py.nested(a), rel_tol=1e-9, abs_tol=1e-6 * (1 + 60 * np.abs(a).sum()))
    assert_same_effects(py.nested_outer_only, par.nested_outer_only, a, np.zeros(a.shape))


@pytest.mark.parametrize("at", [0, 1, 500, 999])
def test_an_error_in_an_iteration_raises_in_the_caller(at) -> None:
    a = np.zeros(1000)
    expected = outcome(py.out_of_bounds, a.copy(), at)
    assert expected[0] == "raised" and expected[1] is IndexError
    assert outcome(par.out_of_bounds, np.zeros(1000), at) == expected
    assert outcome(par.raises_value_error, 10_000, at) == outcome(py.raises_value_error, 10_000, at)
    assert outcome(par.raises_value_error, 10_000, -1) == outcome(py.raises_value_error, 10_000, -1)


def test_errors_are_caught_around_and_inside_the_loop() -> None:
    assert par.caught_in_caller(np.zeros(100), 37) == -1
    assert par.caught_in_caller(np.zeros(100), 1000) == 0
    for n in (0, 1, 7, 10_000):
        assert par.catches_inside(n) == py.catches_inside(n)


@given(hnp.arrays(np.float64, st.integers(0, 300), elements=finite), finite)
@SETTINGS
def test_loops_that_break_or_return_run_serially(a, limit) -> None:
    assert par.serial_break(a, limit) == py.serial_break(a, limit)
    assert par.serial_return(a, limit) == py.serial_return(a, limit)


@given(st.integers(0, 2000))
@SETTINGS
def test_values_carried_between_iterations_run_serially(n) -> None:
    assert par.serial_chain(n) == py.serial_chain(n)
    assert par.serial_list(n) == py.serial_list(n)
    assert par.loop_else(n) == py.loop_else(n)


def test_numba_spelled_prange_ports_by_changing_the_decorator() -> None:
    if py.numba is None:
        pytest.skip("Numba is not installed (no free-threaded builds)")
    a = np.arange(1000.0)
    assert par.with_numba_prange(a) == py.with_numba_prange(a)
    assert_same_effects(py.with_module_prange, par.with_module_prange, a, np.zeros(1000))


def test_without_parallel_prange_is_range() -> None:
    a = np.arange(-500, 500, dtype=np.int64)
    assert ser.int_reductions(a) == py.int_reductions(a)
    assert ser.last_values(77) == py.last_values(77)


def test_two_threads_run_one_loop_at_once() -> None:
    if plait.thread_pool_size() < 2:
        pytest.skip("the thread pool has one thread (PLAIT_NUM_THREADS=1 or one core)")
    plait.set_num_threads(2)
    assert par.meets_across_threads(1000, unique_barrier_id()) == 2


def test_many_python_threads_call_parallel_kernels_at_once() -> None:
    a = np.arange(100_000, dtype=np.int64)
    b = np.random.default_rng(5).random((64, 500))
    expected_ints = py.int_reductions(a)
    expected_rows = b.sum(axis=1)

    def call(k: int) -> None:
        for _ in range(20):
            assert par.int_reductions(a) == expected_ints
            out = np.zeros(64)
            par.row_sums(b, out)
            assert np.allclose(out, expected_rows, rtol=0, atol=1e-9)

    run_in_threads(6, call)


def test_set_num_threads_is_per_thread_and_checked() -> None:
    size = plait.thread_pool_size()
    assert 1 <= plait.get_num_threads() <= size
    with pytest.raises(ValueError, match=f"between 1 and {size}"):
        plait.set_num_threads(0)
    with pytest.raises(ValueError, match=f"between 1 and {size}"):
        plait.set_num_threads(size + 1)
    with pytest.raises(TypeError):
        plait.set_num_threads(1.5)

    def limited(k: int) -> int:
        plait.set_num_threads(1)
        result = par.int_reductions(np.arange(1000, dtype=np.int64))
        assert result == py.int_reductions(np.arange(1000, dtype=np.int64))
        return plait.get_num_threads()

    assert run_in_threads(2, limited) == [1, 1]
    plait.set_num_threads(size)
    assert plait.get_num_threads() == size


@pytest.mark.parametrize("n", [0, 1, 1000, 65536, 70_001, 300_000])
def test_parallel_whole_array_expressions_match_numpy(n) -> None:
    # Elements bit for bit; sums of up to one block (65536) bit for bit
    # with the serial (NumPy's pairwise) sum, larger ones within rounding.
    rng = np.random.default_rng(n)
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    c, total, plain, squares = par.whole_array(a, b)
    e_c, e_total, e_plain, e_squares = py.whole_array(a, b)
    assert np.array_equal(c, e_c)
    for got, expected in ((total, e_total), (plain, e_plain), (squares, e_squares)):
        if n <= 65536:
            assert got == expected
        else:
            assert math.isclose(got, expected, rel_tol=1e-12)
    assert ser.whole_array(a, b)[1] == e_total


@pytest.mark.parametrize("shape", [(3, 5), (4, 1000), (3, 140_000)])
def test_sums_along_the_last_axis_are_numpys_bit_for_bit_with_parallel_true(shape) -> None:
    # Unlike a whole array's sum, a line's is not split into blocks among
    # threads: lines longer than two blocks (131072) keep NumPy's order.
    m = np.random.default_rng(shape[1]).standard_normal(shape)
    for got, expected in zip(par.line_sums(m), py.line_sums(m)):
        assert got.tobytes() == expected.tobytes()


@pytest.mark.parametrize("shape", [(0, 5), (3, 7), (200, 300), (5000, 40)])
def test_parallel_whole_array_broadcasts(shape) -> None:
    rng = np.random.default_rng(shape[0])
    m, row = rng.standard_normal(shape), rng.standard_normal(shape[1])
    assert np.array_equal(par.whole_matrix(m, row), py.whole_matrix(m, row))
    assert np.array_equal(par.whole_matrix(np.asfortranarray(m), row), py.whole_matrix(m, row))


@given(hnp.arrays(np.float64, st.integers(0, 3000), elements=finite), finite)
@SETTINGS
def test_conditionally_assigned_variables_read_after_the_loop(a, limit) -> None:
    assert par.last_match(a, limit) == py.last_match(a, limit)


def test_loops_with_nested_temporaries_run_in_parallel() -> None:
    # (Parallel: the outlined body is in the optimised IR.)
    a = np.arange(12.0).reshape(3, 4)
    assert_same_effects(py.temporaries_in_nested_loops, par.temporaries_in_nested_loops, a, np.zeros((3, 4)))
    assert "parallel_call" in par.temporaries_in_nested_loops.inspect(stage="optimized-plait")
    par.last_match(np.zeros(3), 0.0)
    assert "parallel_call" not in par.last_match.inspect(stage="optimized-plait")


@given(hnp.arrays(np.float64, st.tuples(st.integers(0, 400), st.integers(0, 30)), elements=finite))
@SETTINGS
def test_array_reductions(a) -> None:
    got, expected = par.column_sums(a), py.column_sums(a)
    assert got.shape == expected.shape
    assert np.allclose(got, expected, rtol=1e-9, atol=1e-6 * (1 + np.abs(a).sum()))
    p, bits = par.product_and_bits(np.clip(a, 0.5, 1.5))
    e_p, e_bits = py.product_and_bits(np.clip(a, 0.5, 1.5))
    assert np.allclose(p, e_p, rtol=1e-9) and np.array_equal(bits, e_bits)
    assert "parallel_call" in par.column_sums.inspect(stage="optimized-plait")
    assert "parallel_call" in par.product_and_bits.inspect(stage="optimized-plait")


@given(hnp.arrays(np.int64, st.tuples(st.integers(0, 300), st.integers(1, 6), st.integers(1, 6)), elements=ints))
@SETTINGS
def test_integer_array_reductions_are_exact(planes) -> None:
    assert np.array_equal(par.int_histogram_planes(planes), py.int_histogram_planes(planes))
    assert "parallel_call" in par.int_histogram_planes.inspect(stage="optimized-plait")


@pytest.mark.parametrize("nogil", [True, False])
def test_loops_that_print_run_serially_on_the_callers_thread(capsys, nogil) -> None:
    # print() in a callee runs Python: the loop runs in order, on the
    # caller's thread, whether or not the caller holds the GIL.
    compiled = plait.jit(py.prints_through_a_callee, parallel=True, nogil=nogil)
    assert compiled(50) == py.prints_through_a_callee(50)
    out = capsys.readouterr().out
    assert out == "".join(f"item {i}\n" for i in range(50)) * 2
    assert "parallel_call" not in compiled.inspect(stage="optimized-plait")


@pytest.mark.parametrize("n", [0, 1, 5, 10_000])
def test_reviewed_loops_give_ranges_results(n) -> None:
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n)
    u = rng.integers(0, 256, max(n, 1)).astype(np.uint8)
    b = (rng.integers(0, 2, max(n, 1)) == 1)
    for name, args in (
        ("concatenates", (n,)),
        ("changes_a_list_through_a_call_or_an_alias", (n,)),
        ("continues_before_assigning", (a,)),
        ("read_in_the_loops_else", (a,)),
        ("array_reduction_maybe_unbound", (n, np.ones((n, 3)))),
    ):
        assert outcome(getattr(par, name), *args) == outcome(getattr(py, name), *args), name
    for args in ((u,), (b,)):
        # (Serial plait types the variables as NumPy's bool where CPython's
        # min(True, np.True_) keeps Python's True: the values must agree.)
        assert outcome(par.unsigned_and_bool_extremes, *args) == outcome(ser.unsigned_and_bool_extremes, *args)
        assert [bool(v) if isinstance(v, (bool, np.bool_)) else v for v in par.unsigned_and_bool_extremes(*args)] == [
            bool(v) if isinstance(v, (bool, np.bool_)) else v for v in py.unsigned_and_bool_extremes(*args)
        ]
    s, out = par.closure_reads_the_variables(n)
    e_s, e_out = py.closure_reads_the_variables(n)
    assert s == e_s and np.array_equal(out, e_out)
    assert_same_effects(py.annotation_without_value, par.annotation_without_value, a, np.zeros(n))
    # (Every one of them runs serially but the unsigned extremes.)
    assert "parallel_call" in par.unsigned_and_bool_extremes.inspect(stage="optimized-plait")
    assert "parallel_call" not in par.continues_before_assigning.inspect(stage="optimized-plait")


def test_set_num_threads_takes_numpy_ints_and_rejects_huge_ones() -> None:
    size = plait.thread_pool_size()
    plait.set_num_threads(np.int64(1))
    assert plait.get_num_threads() == 1
    with pytest.raises(ValueError, match=f"between 1 and {size}"):
        plait.set_num_threads(2**70)
    plait.set_num_threads(size)
