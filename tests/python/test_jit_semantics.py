"""@plait.jit against CPython: every construct of the subset, run interpreted
and compiled on many inputs (hypothesis), must agree exactly — values, types,
signed zeros, NaNs, and exceptions (type and message)."""

from __future__ import annotations

import types
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import jit_functions as py
import plait
from jit_support import jitted_copies, INT64_MAX, INT64_MIN, assert_same, floats, ints, numbers, small_ints

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


jit = jitted_copies(py)


@pytest.mark.parametrize("name", ["add", "sub", "mul", "truediv", "floordiv", "mod"])
@given(a=numbers, b=numbers)
@SETTINGS
@example(a=INT64_MIN, b=-1)
@example(a=-7, b=2)
@example(a=7.5, b=-0.0)
@example(a=-0.0, b=1.0)
@example(a=2**53 + 1, b=3)
def test_binary_arithmetic(name: str, a: Any, b: Any) -> None:
    assert_same(getattr(py, name), getattr(jit, name), a, b)


@pytest.mark.parametrize("name", ["divisible", "remainder_tested_and_used"])
@given(a=st.one_of(ints, small_ints), b=st.one_of(ints, small_ints, st.sampled_from([0, 1, -1, 2, -2, 7, -7])))
@SETTINGS
@example(a=INT64_MIN, b=-1)
@example(a=INT64_MIN, b=INT64_MIN)
@example(a=-9, b=3)
@example(a=9, b=-3)
@example(a=-7, b=2)
@example(a=5, b=0)
def test_remainders_compared_with_zero(name: str, a: int, b: int) -> None:
    assert_same(getattr(py, name), getattr(jit, name), a, b)


@given(a=st.one_of(small_ints, floats, st.booleans()), b=st.one_of(st.integers(0, 70), floats, st.booleans()))
@SETTINGS
@example(a=0.0, b=-1.0)
@example(a=-8.0, b=1 / 3)
@example(a=10.0, b=400.0)
@example(a=2, b=63)
@example(a=-2, b=63)
def test_power(a: Any, b: Any) -> None:
    assert_same(py.power, jit.power, a, b)


@given(a=numbers)
@SETTINGS
def test_unary_and_builtins(a: Any) -> None:
    for name in ("square", "neg", "pos", "logical_not", "truthy", "builtins_unary", "rounding"):
        assert_same(getattr(py, name), getattr(jit, name), a)


@given(a=st.one_of(ints, st.booleans()))
@SETTINGS
def test_invert(a: Any) -> None:
    assert_same(py.invert, jit.invert, a)


@given(a=st.one_of(ints, st.booleans()), b=st.one_of(ints, st.booleans()))
@SETTINGS
def test_bit_operations(a: Any, b: Any) -> None:
    assert_same(py.bits, jit.bits, a, b)


#: Shift counts: CPython's own `1 << b` needs b/8 bytes, so large counts are
#: bounded (a count near 2**63 zero-fills memory until the process dies).
shift_counts = st.one_of(st.integers(-3, 70), st.integers(INT64_MIN, -1), st.sampled_from([100, 1000, 2**20]))


@given(a=ints, b=shift_counts)
@SETTINGS
@example(a=1, b=63)
@example(a=-1, b=64)
@example(a=0, b=1000)
@example(a=0, b=INT64_MAX)
@example(a=5, b=-1)
def test_shifts(a: int, b: int) -> None:
    assert_same(py.shifts, jit.shifts, a, b)


@given(a=numbers, b=numbers)
@SETTINGS
@example(a=2**53 + 1, b=float(2**53))
@example(a=INT64_MAX, b=9.223372036854775807e18)
@example(a=1, b=float("nan"))
def test_comparisons_are_exact(a: Any, b: Any) -> None:
    assert_same(py.compare_all, jit.compare_all, a, b)


@given(a=numbers, b=numbers, c=numbers)
@SETTINGS
def test_chained_and_min_max(a: Any, b: Any, c: Any) -> None:
    assert_same(py.chained, jit.chained, a, b, c)
    # Mixed int/float min/max return the unified float type (documented).
    assert_same(py.min_max, jit.min_max, a, b, c, unified=len({type(a), type(b), type(c)}) > 1)


@given(a=st.one_of(ints, st.booleans()), b=st.one_of(ints, st.booleans()))
@SETTINGS
def test_and_or_same_types(a: Any, b: Any) -> None:
    # and/or/if-else of a bool and an int give the unified int.
    assert_same(py.and_or, jit.and_or, a, b, unified=type(a) is not type(b))
    assert_same(py.ternary, jit.ternary, a, b, unified=type(a) is not type(b))


@given(a=floats, b=floats)
@SETTINGS
def test_float_and_or(a: float, b: float) -> None:
    assert_same(py.and_or, jit.and_or, a, b)


@given(a=numbers, b=numbers)
@SETTINGS
@example(a=1.0, b=0.0)
@example(a=float("inf"), b=1.0)
def test_divmod(a: Any, b: Any) -> None:
    assert_same(py.div_mod, jit.div_mod, a, b)


@given(a=ints, b=st.integers(0, 2**40), m=st.one_of(ints, st.just(0)))
@SETTINGS
def test_pow_with_modulus(a: int, b: int, m: int) -> None:
    assert_same(py.power3, jit.power3, a, b, m)


@given(x=st.one_of(floats, small_ints))
@SETTINGS
@example(x=-1.0)
@example(x=0.0)
@example(x=1000.0)
def test_math_one_argument(x: Any) -> None:
    for name in ("math_one", "math_more", "math_inverse", "math_sqrt", "math_log", "math_int", "math_predicates"):
        assert_same(getattr(py, name), getattr(jit, name), x)


@given(x=floats, y=floats)
@SETTINGS
@example(x=0.0, y=-1.0)
@example(x=1e308, y=1e308)
@example(x=float("inf"), y=2.0)
def test_math_two_arguments(x: float, y: float) -> None:
    assert_same(py.math_two, jit.math_two, x, y)


def test_math_constants() -> None:
    assert_same(py.math_constants, jit.math_constants)


@given(start=small_ints, stop=small_ints, step=st.integers(-7, 7))
@SETTINGS
def test_range_loops(start: int, stop: int, step: int) -> None:
    assert_same(py.sum_range, jit.sum_range, start, stop, step)
    assert_same(py.range_walk, jit.range_walk, start, stop, step)


@given(start=ints, stop=ints, step=st.one_of(st.integers(2**61, 2**63 - 1), st.integers(-(2**63), -(2**61))))
@SETTINGS
@example(start=INT64_MIN, stop=INT64_MAX, step=2**62)
@example(start=INT64_MAX, stop=INT64_MIN, step=-(2**62))
@example(start=INT64_MIN, stop=INT64_MAX, step=INT64_MAX)
def test_range_spans_wider_than_int64(start: int, stop: int, step: int) -> None:
    # len(range(...)) may exceed int64's span: the trip count must not wrap.
    assert_same(py.range_walk, jit.range_walk, start, stop, step)


@given(n=st.integers(0, 6), k=st.integers(-1, 6))
@SETTINGS
def test_variables_bound_on_some_paths_only(n: int, k: int) -> None:
    # Reads where every path assigned first need no check; the others raise
    # CPython's UnboundLocalError with its message.
    assert_same(py.read_before_assigned_in_a_loop, jit.read_before_assigned_in_a_loop, n, k)
    assert_same(py.bound_by_the_loop, jit.bound_by_the_loop, n)
    assert_same(py.unbound, jit.unbound, k)


@given(n=st.integers(-5, 300))
@SETTINGS
def test_control_flow(n: int) -> None:
    for name in ("last_index", "while_loop", "for_else", "no_return", "unbound"):
        assert_same(getattr(py, name), getattr(jit, name), n)
    # An int on one path and a float on another: one float variable.
    assert_same(py.mixed_var, jit.mixed_var, n, unified=True)
    assert_same(py.early_return, jit.early_return, n, unified=True)
    if n >= 1:
        assert_same(py.collatz, jit.collatz, n)


@given(a=numbers, b=numbers)
@SETTINGS
def test_tuples(a: Any, b: Any) -> None:
    # swap() assigns each parameter the other's value: mixed types unify.
    assert_same(py.swap, jit.swap, a, b, unified=type(a) is not type(b))
    assert_same(py.unpack, jit.unpack, a, b)


@given(x=st.one_of(small_ints, floats))
@SETTINGS
def test_globals_docstrings_and_calls(x: Any) -> None:
    assert_same(py.globals_read, jit.globals_read, x)
    assert_same(py.docstring, jit.docstring, x)
    assert_same(py.uses_helpers, jit.uses_helpers, x)


def test_recursion_and_mutual_recursion() -> None:
    for n in range(0, 22):
        assert jit.fib(n) == py.fib(n)
    for n in range(0, 60):
        assert jit.is_even(n) == py.is_even(n)
        assert jit.is_odd(n) is py.is_odd(n)


def test_runaway_recursion_is_recursion_error() -> None:
    with pytest.raises(RecursionError) as compiled:
        jit.runaway(0)
    with pytest.raises(RecursionError) as interpreted:
        py.runaway(0)
    assert str(compiled.value) == str(interpreted.value).split(" while ")[0]
    assert jit.fib(10) == 55, "the depth guard resets after the error"


def test_wrap_mode_wraps() -> None:
    wrapping = plait.jit(overflow="wrap")(py.add)
    assert wrapping(INT64_MAX, 1) == INT64_MIN
    assert plait.jit(overflow="wrap")(py.mul)(2**62, 4) == 0
    with pytest.raises(OverflowError):
        jit.add(INT64_MAX, 1)


def test_negative_base_fractional_power_overflow() -> None:
    assert_same(py.power, jit.power, -1e308, 1.5)
    assert_same(py.power, jit.power, -8.0, 1 / 3)
