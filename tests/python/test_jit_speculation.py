"""Speculative loop versioning: a versioned loop at the start of a function
compiles without its checked copy; when its guard fails, the call stops
before changing anything and the function runs again, compiled without
speculation (once per signature, attached to the speculative executor).
Results, in-place effects and exceptions stay CPython's."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import jit_speculation as py
import plait
from conftest import run_in_threads
from jit_support import assert_same, assert_same_effects, jitted_copies

SETTINGS = settings(max_examples=40, deadline=None)
#: Shared by the property tests (the first example past a guard compiles
#: the fallback); the others take fresh copies, to count compilations.
jit = jitted_copies(py)


def fresh() -> object:
    return jitted_copies(py)


@given(n=st.one_of(st.integers(-3, 50), st.sampled_from([3_100_000, 2_000_000, 0, 1])))
@SETTINGS
@example(n=4_000_000)
def test_results_and_errors_on_both_sides_of_the_guard(n: int) -> None:
    assert_same(py.sum_of_squares, jit.sum_of_squares, n)
    # (Compiled ints are int64: where CPython's sum leaves that range, the
    # compiled loop raises OverflowError, which the function catches.)
    expected = py.guarded_sum(n)
    assert jit.guarded_sum(n) == (expected if expected < 2**63 else -1)
    assert_same(py.calls_sum_of_squares, jit.calls_sum_of_squares, n)
    assert_same(py.sum_below_limit, jit.sum_below_limit, n)


@given(size=st.integers(0, 12), n=st.integers(-2, 20))
@SETTINGS
def test_writes_before_an_error_happen_once(size: int, n: int) -> None:
    a = np.linspace(-3.0, 5.0, max(size, 1))
    out = np.zeros(size)
    assert_same_effects(py.fill, jit.fill, out, n)
    assert_same_effects(py.read_then_fill, jit.read_then_fill, a, out, n)
    assert_same_effects(py.two_loops, jit.two_loops, out, 3, n)
    # (Up to 2.4 million terms: past the guard, within int64.)
    assert_same_effects(py.note_then_sum, jit.note_then_sum, np.zeros(1, dtype=np.int64), n * 120_000)


def test_the_fallback_compiles_once_and_stays() -> None:
    jit = fresh()
    out = np.zeros(4)
    jit.fill(out, 4)
    assert jit.fill.stats()["compilations"] == 1
    for _ in range(3):
        out[:] = 0
        with pytest.raises(IndexError, match="^index 4 is out of bounds for axis 0 with size 4$"):
            jit.fill(out, 6)
        assert out.tolist() == [0.0, 2.0, 4.0, 6.0]
    # The speculative compilation and its fallback; in range, the fast code
    # runs again.
    assert jit.fill.stats()["compilations"] == 2
    jit.fill(out, 2)
    assert jit.fill.stats()["compilations"] == 2


def test_no_speculation_after_a_write() -> None:
    jit = fresh()
    note = np.zeros(1, dtype=np.int64)
    assert jit.note_then_sum(note, 10) == py.sum_of_squares(10)
    with pytest.raises(OverflowError, match="int64 overflow"):
        jit.note_then_sum(note, 4_000_000)
    assert note[0] == 2
    assert jit.note_then_sum.stats()["compilations"] == 1


def test_threads_that_fail_the_guard_together_share_one_fallback() -> None:
    # Whatever the interleaving: every thread gets the exception, and the
    # function compiles twice (speculative, then without speculation).
    jit = fresh()
    assert jit.sum_of_squares(10) == 285
    barrier = threading.Barrier(8)

    def call(i: int) -> str:
        barrier.wait()
        try:
            jit.sum_of_squares(4_000_000 + i)
        except OverflowError as error:
            return str(error)
        return "returned"

    outcomes = run_in_threads(8, call)
    assert all(message.startswith("int64 overflow") for message in outcomes), outcomes
    assert jit.sum_of_squares.stats()["compilations"] == 2
    assert jit.sum_of_squares(11) == 385


def test_a_rebound_global_recompiles_both() -> None:
    namespace = dict(vars(py))
    copy = type(py.sum_below_limit)(py.sum_below_limit.__code__, namespace, "sum_below_limit")
    f = plait.jit(copy)
    for limit, expected in ((10, 100), (1, 10)):
        namespace["LIMIT"] = limit
        assert f(5) == expected
        with pytest.raises(OverflowError, match="int64 overflow"):
            f(2**62)
    assert f.stats()["compilations"] == 4


def test_no_speculation_inside_a_try() -> None:
    # The status of a failed guard must not reach an except clause.
    jit = fresh()
    assert jit.guarded_sum(10) == 285
    assert jit.guarded_sum(4_000_000) == -1
    assert jit.guarded_sum.stats()["compilations"] == 1


def test_explicit_signatures_speculate_too() -> None:
    f = plait.jit("int64(int64)")(py.sum_of_squares)
    assert f(10) == 285
    with pytest.raises(OverflowError, match="int64 overflow"):
        f(4_000_000)
    assert f.stats()["compilations"] == 2
