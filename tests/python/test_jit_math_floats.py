"""math.gamma, lgamma, hypot, dist, fsum and prod in compiled code: CPython's
own algorithms ported operation for operation, so results match the
interpreter's bit for bit, with its errors."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_math_floats as py
import plait
from jit_support import assert_same, floats, ints, jitted_copies, outcome

jit = jitted_copies(py)
SETTINGS = settings(max_examples=300, deadline=None)

#: Where gamma's algorithm changes path: poles, the integer table's end,
#: tiny and huge arguments, the Lanczos cut-offs and the reflection.
gamma_edges = st.sampled_from(
    [0.0, -0.0, 1.0, 2.0, -1.0, -2.5, 0.5, -0.5, 1.5, 23.0, 24.0, 22.5, 1e-20, -1e-20, 9e-21, -9e-21,
     5e-324, 140.0, 139.99999999999997, 171.5, 171.62, 171.7, 200.0, 200.5, -200.5, -199.5, -170.5,
     5.524680040776729, 5.52468004077673, math.inf, -math.inf, math.nan, 1e308, -1e308, 4.999999999999999, 5.0]
)
gamma_arguments = st.one_of(gamma_edges, st.floats(-210, 210), st.floats(-1e-3, 1e-3), floats, st.integers(-30, 30))

#: Coordinates: tiny (subnormals), huge, signed, infinite and NaN.
coordinates = st.one_of(
    st.floats(-1e6, 1e6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.0, -0.0, 5e-324, -2e-310, 1e-308, 1.7e308, -1e300, math.inf, math.nan]),
    st.integers(-10**6, 10**6),
)


@given(x=gamma_arguments)
@SETTINGS
def test_gamma_and_lgamma(x: float) -> None:
    assert_same(py.gamma, jit.gamma, x)
    assert_same(py.lgamma, jit.lgamma, x)


@given(values=st.lists(coordinates, min_size=5, max_size=5))
@SETTINGS
def test_hypot(values: list) -> None:
    assert_same(py.hypot0, jit.hypot0)
    assert_same(py.hypot1, jit.hypot1, values[0])
    assert_same(py.hypot2, jit.hypot2, values[0], values[1])
    assert_same(py.hypot3, jit.hypot3, *values[:3])
    assert_same(py.hypot5, jit.hypot5, *values)


@given(values=st.lists(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e-305, max_value=1e-305), min_size=3, max_size=3))
@SETTINGS
def test_hypot_of_subnormals(values: list) -> None:
    # Below DBL_MIN * 2**-1: CPython rescales by DBL_MIN first.
    assert_same(py.hypot3, jit.hypot3, *(v * 1e-5 for v in values))


@given(p=st.lists(coordinates, min_size=0, max_size=6), q=st.lists(coordinates, min_size=0, max_size=6), same=st.booleans())
@SETTINGS
def test_dist(p: list, q: list, same: bool) -> None:
    if same:
        q = (q + p)[: len(p)]
    for kind in (tuple, lambda v: np.array(v, dtype=np.float64)):
        assert_same(py.dist, jit.dist, kind(p), kind(q))


@given(values=st.lists(st.one_of(floats, st.floats(-1e16, 1e16), st.sampled_from([1e308, -1e308, 1e-16, 1.0, -1.0])), max_size=40))
@SETTINGS
def test_fsum(values: list) -> None:
    assert_same(py.fsum, jit.fsum, np.array(values, dtype=np.float64))
    if values:
        assert_same(py.fsum, jit.fsum, tuple(values))
    padded = (values + [0.0, 0.0, 0.0])[:3]
    assert_same(py.fsum_of_three, jit.fsum_of_three, padded[0], 1, padded[2])


def test_fsum_is_exact_where_a_loop_is_not() -> None:
    values = np.array([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50] * 10)
    assert jit.fsum(values) == py.fsum(values) == 1e-99
    # Many partials: the partials array grows past its first 32.
    spread = np.array([2.0**k for k in range(-1000, 1000, 19)] + [-(2.0**k) for k in range(-990, 1000, 23)])
    assert jit.fsum(spread) == math.fsum(spread.tolist())
    assert jit.fsum_of_nothing() == py.fsum_of_nothing() == 0.0


def test_fsum_errors() -> None:
    for values in ([1e308, 1e308], [math.inf, -math.inf], [math.inf, 1.0], [math.nan, 1.0]):
        assert_same(py.fsum, jit.fsum, np.array(values))


@given(values=st.lists(st.integers(-40, 40), max_size=8), start=st.one_of(ints, floats))
@SETTINGS
def test_prod_of_ints(values: list, start: object) -> None:
    if values:
        assert_same(py.prod, jit.prod, tuple(values))  # int64 overflow: OverflowError
        assert_same(py.prod_from, jit.prod_from, tuple(values), start)
        assert_same(py.prod, jit.prod, np.array(values, dtype=np.int64))
    assert_same(py.prod_of_nothing, jit.prod_of_nothing, start)


@given(values=st.lists(floats, max_size=8), start=st.one_of(st.integers(-5, 5), floats))
@SETTINGS
def test_prod_of_floats(values: list, start: object) -> None:
    # An empty array's product is the int start: one type per value, so
    # the compiled code gives it as the products' float (the jit guide).
    assert_same(py.prod, jit.prod, np.array(values, dtype=np.float64), unified=not values)
    if values:
        assert_same(py.prod_from, jit.prod_from, tuple(values), start)


def test_in_a_kernel() -> None:
    points = np.random.default_rng(7).normal(size=(50, 2)) * 1e3
    assert jit.norm_of_rows(points) == py.norm_of_rows(points)


def test_bad_arguments_are_typing_errors() -> None:
    with pytest.raises(plait.TypingError, match=re.escape("gamma() argument must be a real number, not complex")):
        jit.gamma_of_complex(1j)
    with pytest.raises(plait.TypingError, match=re.escape("fsum() takes a 1-D array of real numbers, not float64[:, ::1]")):
        jit.fsum_of_matrix(np.zeros((2, 2)))
    with pytest.raises(plait.UnsupportedError, match="the factors of a tuple must have one type"):
        jit.prod_of_mixed(2, 0.5)


@given(x=st.one_of(coordinates, st.sampled_from([2.0**-1022, 2.0**-1023, 2.0**-1074, 2.0**1023, 1.5 * 2.0**-1060])),
       i=st.one_of(st.integers(-1100, 1100), st.sampled_from([-2**62, 2**62, 0, -1074, 1074, -1075, 2098, -2098])))
@SETTINGS
def test_frexp_and_ldexp(x: float, i: int) -> None:
    # ldexp rounds once where the result is subnormal, and overflows with
    # CPython's OverflowError.
    assert_same(py.frexp_ldexp, jit.frexp_ldexp, x, i)


@given(x=coordinates, y=st.one_of(coordinates, st.sampled_from([0.0, -0.0, math.inf, 2.0, 0.5, 3.0])))
@SETTINGS
def test_modf_remainder_ulp_cbrt_nextafter(x: float, y: float) -> None:
    assert_same(py.modf, jit.modf, x)
    assert_same(py.remainder, jit.remainder, x, y)
    assert_same(py.remainder, jit.remainder, float(int(x) if math.isfinite(x) else x) * 2.5, 2.0 if y == y else y)
    assert_same(py.ulp_cbrt_nextafter, jit.ulp_cbrt_nextafter, x, y)


@given(a=coordinates, b=coordinates)
@SETTINGS
def test_isclose(a: float, b: float) -> None:
    assert_same(py.isclose, jit.isclose, a, b)
    assert_same(py.isclose, jit.isclose, a, a + 1e-10 if math.isfinite(a) else a)
    assert_same(py.isclose_negative, jit.isclose_negative, a, b)


def test_ldexp_takes_an_int() -> None:
    with pytest.raises(plait.TypingError, match=re.escape("Expected an int as second argument to ldexp.")):
        jit.ldexp_of_a_float(1.0)


@pytest.mark.skipif(not hasattr(math, "fma"), reason="math.fma is new in 3.13")
@given(x=coordinates, y=coordinates, z=coordinates)
@SETTINGS
def test_fma(x: float, y: float, z: float) -> None:
    assert_same(py.fma, jit.fma, x, y, z)
    assert_same(py.fma, jit.fma, x, 0.0, z)
    assert_same(py.fma, jit.fma, 1e308, 10.0, z)


#: Arguments around each math function's quiet range (where the compiled call
#: skips its checks) and around where CPython's checks start to raise: the
#: range's bounds and their neighbours, the true overflow and domain limits,
#: the infinities and NaN.
def _around(*points: float) -> list[float]:
    return [v for p in points for v in (math.nextafter(p, -math.inf), p, math.nextafter(p, math.inf))]


quiet_edges = st.sampled_from(
    _around(709.0, -709.0, 709.782712893384, -709.782712893384, 710.4758600739439, -710.4758600739439,
            1023.0, 1024.0, 1.0, -1.0, 1.7976931348623157e308, -1.7976931348623157e308, 0.0)
    + [math.inf, -math.inf, math.nan, -math.nan, 5e-324]
)
over_names = ["exp", "exp2", "expm1", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
              "asinh", "acosh", "atanh", "erf", "erfc"]


def _run_over(fn: object, xs: np.ndarray) -> tuple:
    out = np.full(xs.shape, -7.0)
    try:
        fn(xs, out)
    except Exception as error:  # noqa: BLE001 - the comparison is the point
        return ("raised", type(error), str(error)), out
    return ("returned",), out


@given(values=st.lists(st.one_of(quiet_edges, floats, st.floats(-720.0, 720.0)), min_size=1, max_size=6))
@SETTINGS
def test_math_functions_at_their_quiet_ranges(values: list) -> None:
    # Results, the elements written before an error, and the error's type and
    # message, as CPython's math module gives them.
    xs = np.array(values, dtype=np.float64)
    for name in over_names:
        expected, expected_out = _run_over(getattr(py, f"{name}_over"), xs)
        got, got_out = _run_over(getattr(jit, f"{name}_over"), xs)
        assert got == expected, (name, values)
        assert np.array_equal(got_out, expected_out, equal_nan=True), (name, values, got_out, expected_out)
        assert np.array_equal(np.signbit(got_out), np.signbit(expected_out)), (name, values)


@given(values=st.lists(st.one_of(quiet_edges, st.floats(-20.0, 20.0)), min_size=1, max_size=8),
       shift=st.one_of(st.floats(-800.0, 800.0), quiet_edges))
@SETTINGS
def test_exp_in_a_reduction(values: list, shift: float) -> None:
    xs = np.array(values, dtype=np.float64)
    expected = outcome(py.exp_sum_over, xs, shift)
    assert outcome(jit.exp_sum_over, xs, shift) == expected or (
        expected[0] == "value" and math.isnan(expected[1]) and math.isnan(jit.exp_sum_over(xs, shift)))
