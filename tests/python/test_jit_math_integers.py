"""math.gcd, lcm, isqrt, factorial, comb and perm in compiled code: CPython's
results and errors; a result beyond int64 is plait's OverflowError (and no
intermediate value overflows before the result does)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_math_integers as py
import plait
from jit_support import INT64_MAX, INT64_MIN, assert_same, ints, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=100, deadline=None)
small = st.integers(-5, 70)


@given(a=ints, b=ints, c=st.integers(-10**6, 10**6))
@SETTINGS
def test_gcd_and_lcm(a: int, b: int, c: int) -> None:
    # (gcd of INT64_MIN and 0 is 2**63: beyond int64, an OverflowError.)
    assert_same(py.gcd_lcm, jit.gcd_lcm, a, b, c)


@given(n=st.one_of(st.integers(-3, 10**6), st.integers(0, INT64_MAX), st.sampled_from([INT64_MAX, INT64_MIN, 2**62, (2**31) ** 2, (2**31) ** 2 - 1])))
@SETTINGS
def test_isqrt(n: int) -> None:
    assert_same(py.isqrt, jit.isqrt, n)


@given(n=small, k=small)
@SETTINGS
def test_factorial_comb_perm(n: int, k: int) -> None:
    assert_same(py.factorial, jit.factorial, n)
    assert_same(py.comb, jit.comb, n, k)
    assert_same(py.perm, jit.perm, n, k)
    assert_same(py.perm_all, jit.perm_all, n)


def test_comb_does_not_overflow_before_its_result() -> None:
    assert jit.comb(66, 33) == py.comb(66, 33) == 7219428434016265740
    assert jit.comb(10**6, 3) == py.comb(10**6, 3)


def test_floats_are_a_typing_error() -> None:
    with pytest.raises(plait.TypingError, match="'float' object cannot be interpreted as an integer"):
        jit.of_a_float(2.0)
