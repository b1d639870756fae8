"""NumPy scalars in @plait.jit: array elements and NumPy scalar arguments
compute with NumPy's rules (NEP 50 promotion, wrapping integers, IEEE floats
without ZeroDivisionError, float32 kept in float32) and come back as NumPy
scalars of the same dtype. CPython running the same code is the reference."""

from __future__ import annotations

import types
from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_numpy_scalars as py
import plait
from jit_support import jitted_copies, NumPyScalar, assert_same, outcome, quiet

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32, np.uint64, np.bool_]
INTEGER_DTYPES = [np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32, np.uint64]


jit = jitted_copies(py)


def same(name: str, *args: Any) -> None:
    with quiet():
        assert_same(getattr(py, name), getattr(jit, name), *args)


def values(dtype: Any) -> st.SearchStrategy[Any]:
    if np.dtype(dtype).kind == "f":
        edges = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 3.0, np.inf, -np.inf, np.nan]
        return st.one_of(st.sampled_from(edges), hnp.from_dtype(np.dtype(dtype)))
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        edges = [v for v in (0, 1, -1, 2, -2, 3, 7, 63, 64, info.min, info.max) if info.min <= v <= info.max]
        return st.one_of(st.sampled_from(edges), st.integers(int(info.min), int(info.max)))
    return st.booleans()


def vector(dtype: Any, size: int, data: st.DataObject) -> np.ndarray:
    return np.array(data.draw(st.lists(values(dtype), min_size=size, max_size=size)), dtype=dtype)


BINARY = ["add", "sub", "mul", "truediv", "floordiv", "mod", "power", "compare"]
BITWISE = ["bit_and", "bit_or", "bit_xor", "shift_left", "shift_right"]


@pytest.mark.parametrize("left", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data())
@SETTINGS
def test_binary_operators_promote_and_compute_like_numpy(left: Any, data: st.DataObject) -> None:
    right = data.draw(st.sampled_from(DTYPES))
    a, b = vector(left, 3, data), vector(right, 3, data)
    for name in BINARY:
        if name == "sub" and left is np.bool_ and right is np.bool_:
            continue  # NumPy's TypeError is a TypingError at compile time
        for i in range(3):
            if name == "power" and np.result_type(a, b).kind == "f":
                assert_within_one_ulp("power", a, b, i)
            else:
                same(name, a, b, i)
    if np.dtype(left).kind in "iub" and np.dtype(right).kind in "iub" and np.result_type(a, b).kind != "f":
        for name in BITWISE:
            if name.startswith("shift") and left is np.bool_ and right is np.bool_:
                continue
            for i in range(3):
                same(name, a, b, i)


#: How far NumPy's own results may be from the correctly rounded value, in
#: ulps: its SIMD float32 exp and log (AVX2/AVX512F, in
#: loops_exponent_log.dispatch.c.src) state a maximum error of 2.52 and
#: 3.83 ulp (np.exp(np.float32(np.pi)) is 2 ulp off); plait's are the C
#: library's, computed in double and rounded once. Elsewhere NumPy's SIMD
#: loops differ in the last bit at most.
NUMPY_ULPS = {"float32": 4}


def assert_within_one_ulp(name: str, *args: Any) -> None:
    """Transcendental functions (and float **) are the C library's, computed
    in double and rounded once; NumPy may use its own SIMD implementations,
    which differ in the last bit (float32 exp and log: see NUMPY_ULPS):
    same dtypes, values within NumPy's documented error."""
    with quiet():
        expected = outcome(getattr(py, name), *args)
        got = outcome(getattr(jit, name), *args)
    assert expected[0] == got[0] == "value", (args, expected, got)
    pairs = zip(expected[1], got[1]) if isinstance(expected[1][0], tuple) else [(expected[1], got[1])]
    for (dtype, want), (got_dtype, value) in pairs:
        assert dtype == got_dtype, (args, expected, got)
        if np.dtype(dtype).kind != "f":
            assert value == want, (args, expected, got)
        elif np.isnan(want) or np.isinf(want) or want == 0:
            assert value == want or (np.isnan(want) and np.isnan(value)), (args, expected, got)
        else:
            with np.errstate(over="ignore"):  # the spacing of the largest float is inf
                ulp = np.spacing(np.abs(np.array(want, dtype=dtype)))
            assert abs(value - want) <= NUMPY_ULPS.get(dtype, 1) * ulp, (args, expected, got)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data(), x=st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-300, 300), st.floats(), st.booleans()))
@SETTINGS
def test_python_numbers_are_weak(dtype: Any, data: st.DataObject, x: Any) -> None:
    # np.int8(1) + 1000 raises OverflowError; np.float32(1) + 0.1 is float32.
    a = vector(dtype, 2, data)
    for name in ["weak_add", "weak_rsub", "weak_mul", "weak_div", "weak_floordiv", "weak_mod", "weak_compare"]:
        if name == "weak_rsub" and dtype is np.bool_ and isinstance(x, bool):
            continue
        same(name, a, 1, x)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data())
@SETTINGS
def test_unary_operators_builtins_and_functions(dtype: Any, data: st.DataObject) -> None:
    a = vector(dtype, 3, data)
    kind = np.dtype(dtype).kind
    for i in range(3):
        if dtype is not np.bool_:
            same("negate", a, i)
        if kind != "f":
            same("invert", a, i)
        same("absolute", a, i)
        same("conversions", a, i)
        same("to_int", a, i)
        if dtype is not np.bool_:  # NumPy's bool has no __round__ (a TypingError)
            same("rounded", a, i)
        same("math_of_element", a, i)
        if dtype is not np.int16:
            assert_within_one_ulp("ufuncs_of_element", a, i)  # int8/uint8/bool: in float16


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data())
@SETTINGS
def test_accumulators_take_the_element_type(dtype: Any, data: st.DataObject) -> None:
    # s = 0.0; s += x: float32 elements keep s float32, int8 ones wrap.
    a = vector(dtype, data.draw(st.integers(1, 12)), data)
    same("accumulate_from_float", a)
    same("accumulate_from_int", a)
    if np.dtype(dtype).kind in "fiu":
        same("count_above", a, 2)
    if dtype is np.float32:
        same("accumulate_float32", a)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data())
@SETTINGS
def test_reductions_return_numpys_types(dtype: Any, data: st.DataObject) -> None:
    kind = np.dtype(dtype).kind
    if kind == "f":  # summation order matters for floats: small exact values
        a = np.array(data.draw(st.lists(st.integers(-1000, 1000), min_size=1, max_size=20)), dtype=dtype) / 4
    elif kind in "iu":  # the mean of large ints depends on summation order
        info = np.iinfo(dtype)
        a = np.array(data.draw(st.lists(st.integers(max(int(info.min), -(2**40)), min(int(info.max), 2**40)), min_size=1, max_size=20)), dtype=dtype)
    else:
        a = vector(dtype, data.draw(st.integers(1, 20)), data)
    a = a.astype(dtype)
    same("reductions", a)
    other = vector(data.draw(st.sampled_from(INTEGER_DTYPES + [np.bool_])), len(a), data)
    if np.result_type(a, other).kind != "f":  # float sums: BLAS's order
        same("dot", a, other)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data())
@SETTINGS
def test_numpy_scalar_arguments_keep_their_type(dtype: Any, data: st.DataObject) -> None:
    x = vector(dtype, 1, data)[0]
    other = data.draw(st.sampled_from(DTYPES))
    y = data.draw(st.one_of(st.just(vector(other, 1, data)[0]), st.integers(-5, 5), st.floats(-4, 4)))
    same("identity", x)
    if not (dtype is np.bool_ and isinstance(y, (bool, np.bool_))):
        same("scalar_arithmetic", x, y)
    assert type(jit.identity(x)) is type(x)


@given(x=st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-300, 300), st.floats(), st.booleans()))
@SETTINGS
def test_scalar_constructors_convert_like_numpy(x: Any) -> None:
    # np.int8(300) raises; np.int8(-2.7) truncates; np.float32(1e300) is inf.
    for name in ["construct_int8", "construct_uint64", "construct_float32", "construct_bool"]:
        same(name, x)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@given(data=st.data())
@SETTINGS
def test_storing_numpy_scalars(dtype: Any, data: st.DataObject) -> None:
    # NumPy stores integer scalars by value (np.int64(300) into int8 raises),
    # casts floats and bools.
    source = data.draw(st.sampled_from(DTYPES))
    x = vector(source, 1, data)[0]
    if np.dtype(source).kind == "f" and np.dtype(dtype).kind in "iu" and not (
        np.isfinite(x) and np.iinfo(dtype).min <= x <= np.iinfo(dtype).max
    ):
        return  # NumPy: undefined (platform-specific) result, with a warning
    a = np.zeros(2, dtype=dtype)
    with quiet():
        assert_same(py.store, jit.store, a.copy(), 0, x)
        b = a.copy()
        expected = outcome(py.store, b, 1, x)
        c = a.copy()
        got = outcome(jit.store, c, 1, x)
    assert expected[0] == got[0]
    np.testing.assert_array_equal(b, c)


def test_uint64_arrays_hold_the_full_range() -> None:
    a = np.array([2**64 - 1, 2**63, 3], dtype=np.uint64)
    same("reductions", a)
    same("compare", a, np.array([-1, 2**62, 3], dtype=np.int64), 0)
    same("compare", a, np.array([-1, 2**62, 3], dtype=np.int64), 1)
    same("add", a, a, 0)
    assert jit.identity(np.uint64(2**64 - 1)) == np.uint64(2**64 - 1)
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint64"):
        jit.store(a, 0, -1)


def test_results_are_numpy_scalars() -> None:
    f32 = np.array([0.1, 0.2], dtype=np.float32)
    result = jit.accumulate_from_float(f32)
    assert type(result) is np.float32 and result == py.accumulate_from_float(f32)
    assert type(jit.compare(f32, f32, 0)[0]) is np.bool_
    # float32 arithmetic stays in float32: not the float64 sum rounded.
    assert NumPyScalar(("float32", float(np.float32(0.1) + np.float32(0.2)))) == NumPyScalar(
        ("float32", result.item())
    )


def test_explicit_signatures_return_the_declared_python_types() -> None:
    f = plait.jit("float64(float32[:])")(py.accumulate_from_float)
    r = f(np.array([0.5, 0.25], dtype=np.float32))
    assert type(r) is float and r == 0.75
    g = plait.jit("int64(int8[:])")(py.accumulate_from_int)
    with quiet():  # int8 arithmetic wraps, as in NumPy
        assert g(np.array([100, 100], dtype=np.int8)) == int(py.accumulate_from_int(np.array([100, 100], dtype=np.int8)))


def test_ufuncs_of_small_ints_compute_in_float16() -> None:
    for dtype in (np.int8, np.uint8, np.bool_):
        a = np.array([1, 2, 0], dtype=dtype)
        for i in range(3):
            with quiet():
                got, want = jit.ufuncs_of_element(a, i), py.ufuncs_of_element(a, i)
            assert [np.asarray(x).dtype for x in got] == [np.asarray(x).dtype for x in want]
            np.testing.assert_array_equal(got, want)


def test_numpy_scalar_semantics_differ_from_python_numbers() -> None:
    # Division by a zero NumPy value is IEEE (inf), not ZeroDivisionError;
    # the same code on Python floats raises.
    with quiet():
        assert jit.weak_div(np.array([1.0]), 0, 0.0) == np.inf
        assert jit.weak_floordiv(np.array([7], dtype=np.int8), 0, 0) == 0
    with pytest.raises(ZeroDivisionError):
        jit.scalar_arithmetic(1.0, 0.0)


complex_numbers = st.complex_numbers(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0j, -0.0 + 0j, complex(0.0, -0.0), 1j, 1 + 1j, complex(np.inf, 1), complex(1, np.nan), 1e308 + 1e308j]
)
real_numbers = st.one_of(st.floats(), st.integers(-(2**53), 2**53), st.booleans())


@given(z=complex_numbers, w=st.one_of(complex_numbers, real_numbers))
@SETTINGS
def test_python_complex_arithmetic(z: complex, w: Any) -> None:
    # CPython's rules: real operands become complex, z / 0 raises.
    same("complex_arithmetic", z, w)
    # (CPython's abs() of a complex with a NaN part reads errno without
    # setting it: after an abs() that overflowed it raises OverflowError
    # too. A finite abs() clears errno first.)
    abs(1j)
    same("complex_arithmetic", w, z) if isinstance(w, complex) else None
    same("complex_division", z, w)
    same("complex_division", w, z)
    same("complex_parts", z)


@given(data=st.data())
@SETTINGS
def test_complex128_arrays_compute_like_numpy(data: st.DataObject) -> None:
    # NumPy's rules for numpy.complex128: division by zero gives inf/nan.
    a = np.array(data.draw(st.lists(complex_numbers, min_size=1, max_size=6)), dtype=np.complex128)
    for i in range(len(a)):
        same("complex_elements", a, i)
        # np.abs: NumPy's own (SIMD) algorithm, not hypot: within one ulp.
        assert_within_one_ulp("complex_ufunc_abs", a, i)
    w = data.draw(st.one_of(complex_numbers, real_numbers, st.sampled_from([np.float64(0.0), np.int8(3), np.complex128(0j)])))
    same("weak_add", a, 0, w)
    same("weak_mul", a, 0, w)
    same("weak_div", a, 0, w)
    same("store", a.copy(), 0, w)


@given(n=st.integers(0, 300), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_complex_sums_match_numpys_pairwise_summation(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    same("complex_reductions", a)
    same("complex_reductions", a[::3])
    m = a[: (n // 4) * 4].reshape(-1, 4) if n >= 4 else a.reshape(-1, 1)
    same("complex_reductions", m)
    same("complex_reductions", m.T)
    b = (rng.integers(-9, 9, n) + 1j * rng.integers(-9, 9, n)).astype(np.complex128)
    # Small Gaussian integers: exact whatever the order or fusion of the
    # operations (NumPy's SIMD loops may fuse multiply-adds).
    # (np.dot's signed zeros depend on the BLAS: compared as numbers.)
    for other in (b, rng.integers(-9, 9, n)):
        expected, got = py.dot(b, other), jit.dot(b, other)
        assert type(expected) is type(got) and expected == got
    same("complex_product", b[:12])


def test_complex_kernels_take_and_return_complex_arrays() -> None:
    c = np.linspace(-2, 1, 40) + 0.5j
    np.testing.assert_array_equal(jit.mandelbrot_counts(c, 60), py.mandelbrot_counts(c, 60))
    a = np.arange(5) + 1j * np.arange(5)[::-1]
    with quiet():
        expected = py.rotate(a, 0.3)
    got = jit.rotate(a, 0.3)
    assert got.dtype == np.complex128
    np.testing.assert_array_equal(got, expected)
    assert type(jit.identity(1 + 2j)) is complex and type(jit.identity(np.complex128(1j))) is np.complex128


def test_complex_misuse_is_reported_at_compile_time() -> None:
    def ordered(z, w):  # type: ignore[no-untyped-def]
        return z < w

    def power(z):  # type: ignore[no-untyped-def]
        return z**2

    def into_floats(a, z):  # type: ignore[no-untyped-def]
        a[0] = z

    with pytest.raises(plait.TypingError, match="ordering comparisons"):
        plait.jit(ordered)(1j, 2j)
    with pytest.raises(plait.UnsupportedError, match=r"\*\* of complex"):
        plait.jit(power)(1j)
    with pytest.raises(plait.TypingError, match="cannot store a complex"):
        plait.jit(into_floats)(np.zeros(2), 1j)
    with pytest.raises(ZeroDivisionError, match="(complex )?division by zero"):  # 3.14: "division by zero"
        jit.complex_division(1j, 0j)


def test_sums_start_from_numpys_identity() -> None:
    # NumPy's add.reduce starts from +0.0: a sum of -0.0s is +0.0.
    for n in (1, 3, 9, 200):
        for dtype in (np.float64, np.float32):
            same("reductions", np.full(n, -0.0, dtype=dtype))
        same("complex_reductions", np.full(n, -0.0, dtype=np.complex128))


def test_declared_results_are_checked_and_rounded() -> None:
    first = plait.jit("int32(int64[:])")(py.identity_of_first)
    with pytest.raises(OverflowError, match="int32"):
        first(np.array([2**40]))
    assert plait.jit("float32(float64[:])")(py.identity_of_first)(np.array([0.1])) == float(np.float32(0.1))
    with pytest.raises(OverflowError, match="int64"):
        plait.jit("int64(uint64[:])")(py.identity_of_first)(np.array([2**64 - 1], dtype=np.uint64))
    with pytest.raises(TypeError, match="no compiled signature"):
        plait.jit("float64(float64)")(py.identity)(np.complex128(1 + 2j))
