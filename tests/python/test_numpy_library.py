"""plait.numpy (NumPy's functions written on plait.overload), differentially
against NumPy itself: the same function interpreted and compiled on
hypothesis-generated dtypes, shapes and values must give the same values,
dtypes and shapes, or the same exception. Where NumPy finds no loop for the
types (a TypeError when called), compilation raises plait.TypingError with
NumPy's message. The transcendental ufuncs run the C library's functions,
which NumPy's SIMD loops do not match bit for bit: those are compared to a
few units in the last place (docs/design/numpy-library.md)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_numpy_library as py
import jit_random_threads
import plait
from conftest import run_in_threads
from jit_support import assert_same, assert_same_effects, jitted_copies, quiet
from plait.testing import unique_barrier_id

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
jit = jitted_copies(py)

DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float32, np.float64]
EDGES = [0, 1, -1, 2, 3, 7, 100, -128, 127, 255]
FLOAT_EDGES = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, 1e30, -1e30, np.inf, -np.inf, np.nan]


def arrays_of(dtype: Any, shape: Any) -> st.SearchStrategy[np.ndarray]:
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        elements = st.one_of(
            st.sampled_from([dtype.type(v) for v in FLOAT_EDGES]),
            st.floats(float(info.min), float(info.max), width=dtype.itemsize * 8),
        )
    elif dtype.kind == "b":
        elements = st.booleans()
    else:
        info = np.iinfo(dtype)
        elements = st.one_of(
            st.sampled_from([v for v in EDGES if info.min <= v <= info.max]),
            st.integers(int(info.min), int(info.max)),
        )
    return hnp.arrays(dtype, shape, elements=elements)


def operand(draw: Any, dtype: Any, shape: Any) -> Any:
    """An array of `shape`, or (when shape is ()) a Python or NumPy scalar."""
    if shape != ():
        return draw(arrays_of(dtype, shape))
    value = draw(arrays_of(dtype, ()))[()]
    kind = draw(st.sampled_from(["numpy", "python"]))
    return value if kind == "numpy" else value.item()


#: Loops plait.numpy refuses (UnsupportedError naming the dtype), by the
#: loop's dtype: NumPy's integer reciprocal converts 1.0 / 0 to the
#: platform's integer; float16's nextafter steps in half precision.
REFUSED = {"u_reciprocal": ("int8", "uint8", "int32", "int64"), "b_nextafter": ("float16",)}
UFUNCS = {"u_reciprocal": np.reciprocal, "b_nextafter": np.nextafter}


def refused(name: str, *args: Any) -> bool:
    if name not in REFUSED:
        return False
    with quiet():
        loop = UFUNCS[name](*args).dtype.name
    if loop in REFUSED[name]:
        with pytest.raises(plait.UnsupportedError, match="values is not supported yet"):
            getattr(jit, name)(*args)
        return True
    return False


def compare(name: str, *args: Any) -> None:
    """Equal values, dtypes, shapes and exceptions; a NumPy TypeError (no
    loop for the types) is plait's TypingError with NumPy's message."""
    if refused(name, *args):
        return
    with quiet():
        try:
            getattr(py, name)(*args)
        except TypeError as error:
            with pytest.raises(plait.TypingError) as raised:
                getattr(jit, name)(*args)
            assert str(error) in str(raised.value)
            return
        except Exception:  # noqa: BLE001 - assert_same compares it
            pass
        assert_same(getattr(py, name), getattr(jit, name), *args)


def close(name: str, *args: Any) -> None:
    """As compare, values to 4 units in the last place of their dtype."""
    with quiet():
        try:
            want = getattr(py, name)(*args)
        except TypeError as error:
            with pytest.raises(plait.TypingError) as raised:
                getattr(jit, name)(*args)
            assert str(error) in str(raised.value)
            return
        except Exception:  # noqa: BLE001 - the same exception, compared
            compare(name, *args)
            return
        got = getattr(jit, name)(*args)
    assert type(got) is type(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype and np.shape(got) == np.shape(want)
    np.testing.assert_array_max_ulp(np.asarray(got), np.asarray(want), maxulp=4)


@st.composite
def unary_case(draw: Any) -> tuple[Any, ...]:
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.sampled_from([(), (5,), (2, 3)]))
    return (operand(draw, dtype, shape),)


@st.composite
def binary_case(draw: Any) -> tuple[Any, ...]:
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
    left = operand(draw, draw(st.sampled_from(DTYPES)), shapes.input_shapes[0])
    right = operand(draw, draw(st.sampled_from(DTYPES)), shapes.input_shapes[1])
    return left, right


@pytest.mark.parametrize("name", py.UNARY_EXACT)
@given(case=unary_case())
@SETTINGS
def test_unary_ufuncs_match_numpy_exactly(name: str, case: tuple[Any, ...]) -> None:
    compare(f"u_{name}", *case)


#: NumPy's fmax and fmin give either zero for 0.0 against -0.0, by the loop
#: taken (SIMD or scalar, by length): their zeros compare equal here.
ZERO_SIGN_FREE = ("fmax", "fmin")


def compare_values(name: str, *args: Any) -> None:
    """As compare, 0.0 and -0.0 equal (tuples of results element by
    element)."""
    with quiet():
        try:
            want = getattr(py, name)(*args)
        except Exception:  # noqa: BLE001 - compare checks the exception
            compare(name, *args)
            return
        got = getattr(jit, name)(*args)
    pairs = zip(got, want) if isinstance(want, tuple) and len(got) == len(want) else [(got, want)]
    for g, w in pairs:
        assert type(g) is type(w)
        assert np.asarray(g).dtype == np.asarray(w).dtype and np.shape(g) == np.shape(w)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("name", py.BINARY_EXACT)
@given(case=binary_case())
@SETTINGS
def test_binary_ufuncs_broadcast_and_match_numpy_exactly(name: str, case: tuple[Any, ...]) -> None:
    if name in ZERO_SIGN_FREE:
        compare_values(f"b_{name}", *case)
    else:
        compare(f"b_{name}", *case)


@pytest.mark.parametrize("name", py.UNARY_CLOSE)
@given(case=unary_case())
@SETTINGS
def test_transcendental_ufuncs_match_numpy_to_a_few_ulp(name: str, case: tuple[Any, ...]) -> None:
    close(f"u_{name}", *case)


@pytest.mark.parametrize("name", py.BINARY_CLOSE)
@given(case=binary_case())
@SETTINGS
def test_binary_transcendental_ufuncs_match_numpy_to_a_few_ulp(name: str, case: tuple[Any, ...]) -> None:
    left, right = case
    with quiet():
        try:
            integral = np.asarray(np.power(left, right)).dtype.kind in "biu"
        except Exception:  # noqa: BLE001 - compare checks NumPy's error
            integral = True
    if name == "power" and integral:
        # Integer powers are exact (NumPy's loop multiplies).
        compare(f"b_{name}", left, right)
        return
    close(f"b_{name}", left, right)


def test_ufunc_edge_values() -> None:
    x = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310])
    y = np.array([-0.0, 0.0, np.nan, 2.0, np.inf, 1.0, 0.0, -1e-310])
    for name in ("maximum", "minimum", "fmax", "fmin", "copysign", "nextafter", "fmod", "remainder",
                 "floor_divide", "divide"):
        check = compare_values if name in ZERO_SIGN_FREE else compare
        check(f"b_{name}", x, y)
        check(f"b_{name}", x.astype(np.float16), y.astype(np.float16))
        check(f"b_{name}", x.astype(np.float32), y.astype(np.float32))
    for name in ("sign", "signbit", "isnan", "isinf", "isfinite", "rint", "floor", "ceil", "trunc"):
        compare(f"u_{name}", x)
    # Integer edges: NumPy wraps, and integer ** negative raises.
    ints = np.array([0, 1, -1, 127, -128], dtype=np.int8)
    compare("b_power", ints, np.int8(3))
    compare("b_power", np.int64(2), np.int64(-1))
    compare("b_floor_divide", ints, np.int8(0))
    compare("b_remainder", ints, np.int8(-3))


def test_ufuncs_of_python_scalars_are_weak() -> None:
    # NEP 50: a Python int or float takes the array's dtype.
    a = np.array([1, 2, 300], dtype=np.int16)
    compare("b_maximum", a, 5)
    compare("b_maximum", np.array([1.5], dtype=np.float32), 2.25)
    # A Python int beyond the dtype raises NumPy's OverflowError.
    compare("b_maximum", np.array([1], dtype=np.int8), 1000)
    compare("b_maximum", 2, 3.5)


def test_ufunc_errors_name_the_call() -> None:
    with pytest.raises(plait.TypingError, match="ufunc 'bitwise_and' not supported for the input types"):
        jit.b_bitwise_and(np.ones(2), np.ones(2))
    # Loops plait.numpy does not have yet are refused where the call is.
    with pytest.raises(plait.UnsupportedError, match=r"jit_numpy_library.py:\d+:\d+: np.maximum\(\) of complex128"):
        jit.b_maximum(np.ones(2, dtype=complex), 1.0)


@given(n=st.integers(3, 6), e=st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0, -1.0, -2.0, -7.0, 0.5, -1.5, 2.25, 100.0]))
@SETTINGS
def test_complex_power_follows_numpy(n: int, e: float) -> None:
    rng = np.random.default_rng(n)
    z = rng.normal(size=n) + 1j * rng.normal(size=n)
    z[0] = 0
    with quiet():
        got, want = jit.complex_power(z, e), py.complex_power(z, e)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if float(e).is_integer() and abs(e) < 100:
            np.testing.assert_array_equal(g, w)  # exact products, as NumPy's
        else:
            np.testing.assert_allclose(g, w, rtol=1e-13, equal_nan=True)


def test_zero_to_complex_powers_is_numpys() -> None:
    # NumPy 2: 0 ** w is 0 when w's real part is positive, whatever its
    # imaginary part; 1 for w == 0; nan otherwise.
    z = np.zeros(11, dtype=complex)
    w = np.array([0.5 + 0.5j, -1 + 1j, 1j, -2, 2, 0, -0.5, 0.5, 1e-300, np.inf, complex(0.5, np.inf)])
    with quiet():
        got, want = jit.complex_power(z, w)[0], py.complex_power(z, w)[0]
    np.testing.assert_array_equal(got, want)


@given(a=st.integers(1, 6), b=st.integers(1, 6), dtype=st.sampled_from(DTYPES))
@SETTINGS
def test_outer(a: int, b: int, dtype: Any) -> None:
    x = np.arange(a).astype(dtype)
    y = (np.arange(b) * 3 - 4).astype(dtype)
    compare("outer_add", x, y)
    compare("outer_minimum", x, y)


@st.composite
def clip_case(draw: Any) -> tuple[Any, ...]:
    dtype = draw(st.sampled_from([np.int8, np.int32, np.int64, np.float32, np.float64]))
    a = draw(arrays_of(dtype, draw(st.sampled_from([(4,), (2, 3)]))))
    lo = draw(st.one_of(st.integers(-5, 5), st.floats(-5, 5), st.sampled_from([np.nan, np.float32(1.5)])))
    hi = draw(st.one_of(st.integers(-5, 5), st.floats(-5, 5), st.sampled_from([np.int8(3)])))
    return a, lo, hi


@given(case=clip_case())
@SETTINGS
def test_clip(case: tuple[Any, ...]) -> None:
    a, lo, hi = case
    compare("clip3", a, lo, hi)
    compare("clip_method", a, lo, hi)
    compare("clip_below", a, lo)
    compare("clip_above", a, hi)


@given(case=binary_case(), mask=st.lists(st.booleans(), min_size=1, max_size=3))
@SETTINGS
def test_where(case: tuple[Any, ...], mask: list[bool]) -> None:
    x, y = case
    compare("where3", np.array(mask), x, y)
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        compare("where3", True, x, y)
    else:  # NumPy returns a 0-d array
        with pytest.raises(plait.UnsupportedError, match="0-d array"):
            jit.where3(True, x, y)
    compare("where_mask", np.array([1.0, 5.0, np.nan]), 2)


@given(n=st.integers(0, 6), m=st.integers(0, 6), k=st.integers(-7, 7))
@SETTINGS
def test_eye_and_identity(n: int, m: int, k: int) -> None:
    compare("eye", n, m, k)
    compare("eye_square", n, k)
    compare("eye_typed", n)
    compare("identity", n)
    compare("eye_like", np.ones((n, 2), dtype=np.complex64))
    compare("eye", -1, m, k)  # NumPy's "negative dimensions are not allowed"


@given(
    start=st.one_of(st.integers(-10, 10), st.floats(-1e3, 1e3), st.sampled_from([0.0, 1e-320])),
    stop=st.one_of(st.integers(-10, 10), st.floats(-1e3, 1e3), st.sampled_from([0.0, np.inf])),
    num=st.integers(-1, 12),
)
@SETTINGS
def test_linspace(start: Any, stop: Any, num: int) -> None:
    compare("linspace", start, stop, num)
    compare("linspace_open", start, stop, num)
    if np.isfinite(stop):
        compare("linspace_typed", start, stop, num)


@given(a=arrays_of(np.float64, st.sampled_from([(5,), (3, 4), (2, 2, 3)])), axis=st.integers(-3, 2))
@SETTINGS
def test_flip(a: np.ndarray, axis: int) -> None:
    compare("flip", a)
    if a.ndim < 3:
        compare("flip_axis", a, axis)
    if a.ndim == 1:
        # A flip is a view: writes reach the array.
        assert_same_effects(py.flip_write, jit.flip_write, a)


@given(a=arrays_of(np.int32, st.sampled_from([(3, 3), (2, 5), (5, 2), (0, 3)])), k=st.integers(-6, 6))
@SETTINGS
def test_triu_tril(a: np.ndarray, k: int) -> None:
    compare("triu", a, k)
    compare("tril", a, k)
    compare("triu_default", a)
    compare("triu", np.asfortranarray(a.astype(np.float32)), k)


@given(n=st.integers(0, 4), m=st.integers(0, 4), dtype=st.sampled_from([np.int8, np.float32, np.float64]))
@SETTINGS
def test_stacking(n: int, m: int, dtype: Any) -> None:
    a, b = np.arange(n, dtype=dtype), np.arange(m, dtype=np.float64) * 0.5
    compare("hstack2", a, b)
    compare("hstack3", a, b, a)
    compare("concatenate3", a, b, a)
    x, y = np.ones((2, n), dtype=dtype), np.zeros((2, m))
    compare("hstack2", x, y)
    compare("vstack2", np.ones((n, 3), dtype=dtype), np.zeros((m, 3)))
    compare("hstack2", np.ones((3, n)), np.ones((2, m)))  # NumPy's shape error


@given(m=arrays_of(np.float64, st.sampled_from([(2, 5), (3, 2), (4, 1), (1, 4)])))
@SETTINGS
def test_cov(m: np.ndarray) -> None:
    assume(np.all(np.isfinite(m)) and np.all(np.abs(m) < 1e150))
    with quiet():
        want = np.cov(m)
        got = jit.cov(m)
    if want.ndim == 0:  # one variable: NumPy squeezes to a 0-d array
        np.testing.assert_allclose(got[0, 0], want, rtol=1e-12, equal_nan=True)
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300, equal_nan=True)


@given(
    a=st.one_of(arrays_of(np.float64, st.integers(0, 40)), arrays_of(np.int32, st.integers(0, 40))),
    bins=st.integers(-1, 12),
)
@SETTINGS
def test_histogram(a: np.ndarray, bins: int) -> None:
    assume(a.dtype.kind != "f" or np.all(np.abs(a[np.isfinite(a)]) < 1e300))
    if a.dtype.kind == "f":
        # Which zero NumPy's SIMD min/max returns of 0.0 and -0.0 depends on
        # its vector width (reductions.md): the range's messages would.
        a = np.where(a == 0.0, 0.0, a)
    compare("histogram", a, bins)
    compare("histogram_weighted", a, bins, np.linspace(-1.0, 2.0, a.size))


@given(
    first=st.sampled_from([0.0, -1.0, 1e-300, 5e-324, -3e5, 1.0]),
    width=st.sampled_from([1.0, 3e-3, 1e-290, 2.5e-308, 1e-320, 7e6]),
    bins=st.sampled_from([1, 3, 7, 10, 1000, 4099]),
)
@SETTINGS
def test_histogram_bins_values_on_and_next_to_edges_as_numpy(first: float, width: float, bins: int) -> None:
    # Each edge and its neighbours: the index computed from a value is
    # corrected against the edges, in tiny ranges too.
    last = first + width
    assume(last > first)
    edges = np.linspace(first, last, bins + 1)
    a = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf)])
    a = np.clip(a, first, last)
    compare("histogram", a, bins)
    compare("histogram_weighted", a, bins, np.linspace(-1.0, 2.0, a.size))


def test_histogram_sums_block_by_block() -> None:
    # More than one of NumPy's 65536-element blocks: the weighted sums are
    # added block by block, as NumPy adds them.
    rng = np.random.default_rng(3)
    a, w = rng.random(150_000) * 10, rng.random(150_000)
    compare("histogram_weighted", a, 37, w)
    compare("histogram", a, 37)


def sortable(shape: Any) -> st.SearchStrategy[np.ndarray]:
    """Values with ties and NaNs, without -0.0 (NumPy's SIMD sorts order
    0.0 and -0.0 arbitrarily)."""
    values = st.sampled_from([0.0, 1.0, -1.0, 2.5, 2.5, 7.0, -3.0, np.inf, -np.inf, np.nan])
    return st.one_of(
        hnp.arrays(np.float64, shape, elements=values),
        hnp.arrays(np.int32, shape, elements=st.integers(-3, 3)),
    )


@given(a=sortable(st.integers(0, 12)))
@SETTINGS
def test_sort_argsort_unique_of_vectors(a: np.ndarray) -> None:
    with quiet():
        got, want = jit.sort_all(a), py.sort_all(a)
    assert_same(lambda: want[0], lambda: got[0])
    assert_same(lambda: want[2], lambda: got[2])
    # Ties: plait's argsort is stable, as NumPy's kind='stable'.
    np.testing.assert_array_equal(got[1], np.argsort(a, kind="stable"))
    np.testing.assert_array_equal(got[3], np.argsort(a, axis=None, kind="stable"))
    compare("unique", a)
    compare("unique", a.reshape(1, -1))


@given(a=sortable(st.tuples(st.integers(0, 4), st.integers(0, 4))), axis=st.integers(-3, 2))
@SETTINGS
def test_sort_along_axes(a: np.ndarray, axis: int) -> None:
    try:
        want = (np.sort(a, axis), np.argsort(a, axis=axis, kind="stable"))
    except np.exceptions.AxisError as error:
        with pytest.raises(np.exceptions.AxisError, match=str(error)):
            jit.sort_axis(a, axis)
        return
    got = jit.sort_axis(a, axis)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


@given(a=sortable(st.integers(0, 10)), v=st.one_of(sortable(st.integers(0, 4)), st.sampled_from([0.0, 2.5, np.nan, -7])))
@SETTINGS
def test_searchsorted(a: np.ndarray, v: Any) -> None:
    compare("searchsorted", np.sort(a), v)


@given(a=hnp.arrays(np.int8, hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=4), elements=st.integers(0, 2)),
       dtype=st.sampled_from([np.bool_, np.int8, np.float64]))
@SETTINGS
def test_nonzero(a: np.ndarray, dtype: Any) -> None:
    compare("nonzeros", a.astype(dtype))


@given(a=arrays_of(np.float32, st.sampled_from([(0,), (5,), (2, 3), (3, 0)])), shift=st.integers(-7, 7), axis=st.integers(-3, 2))
@SETTINGS
def test_roll(a: np.ndarray, shift: int, axis: int) -> None:
    compare("roll", a, shift)
    compare("roll", np.asfortranarray(a), shift)
    compare("roll_axis", a, shift, axis)


@given(a=arrays_of(np.int16, st.sampled_from([(0,), (4,), (2, 3)])), n=st.integers(-2, 3), m=st.integers(0, 3))
@SETTINGS
def test_repeat_and_tile(a: np.ndarray, n: int, m: int) -> None:
    compare("repeat", a, n)
    compare("tile", a, n)
    compare("tile2", a, m, abs(n))  # (NumPy's errors for a negative pair vary by shape)


@given(a=arrays_of(np.float64, st.sampled_from([(3,), (2, 3)])), axis=st.integers(-4, 3))
@SETTINGS
def test_expand_dims(a: np.ndarray, axis: int) -> None:
    compare("expand_dims", a, axis)


@given(n=st.integers(0, 4), m=st.integers(0, 4))
@SETTINGS
def test_stack(n: int, m: int) -> None:
    a, b = np.arange(n, dtype=np.int8), np.arange(m) * 0.5
    compare("stack2", a, b)
    compare("stack3", a, a + 1, a)


@given(v=arrays_of(np.int64, st.sampled_from([(0,), (3,), (2, 4), (4, 2)])), k=st.integers(-5, 5))
@SETTINGS
def test_diag_and_trace(v: np.ndarray, k: int) -> None:
    compare("diag", v, k)
    if v.ndim == 2:
        compare("trace", v, k)
        compare("trace", v.astype(np.float32), k)


finite = st.floats(-1e6, 1e6)


@given(
    a=st.one_of(hnp.arrays(np.float64, st.integers(0, 9), elements=finite),
                hnp.arrays(np.int32, st.integers(0, 9), elements=st.integers(-100, 100))),
    data=st.data(),
)
@SETTINGS
def test_average_median_percentile(a: np.ndarray, data: Any) -> None:
    compare("average", a)
    compare("median", a)
    w = data.draw(hnp.arrays(np.float64, a.shape[0], elements=st.sampled_from([0.0, 0.5, 1.0, 3.0])))
    compare("average_weighted", a, w)
    q = data.draw(st.one_of(st.floats(0, 100), st.sampled_from([0, 50, 100, -1.0, 100.5])))
    compare("percentile", a, q)
    compare("median", np.append(a, np.nan))


@given(x=hnp.arrays(np.int64, st.integers(0, 8), elements=st.integers(-1, 6)), minlength=st.integers(-1, 9))
@SETTINGS
def test_bincount(x: np.ndarray, minlength: int) -> None:
    compare("bincount", x, minlength)
    if x.shape[0] == 0:
        # NumPy returns int zeros for no values, weights or not; the
        # result's dtype is fixed when compiling: float64 with weights.
        got = jit.bincount_weighted(x, np.ones(0))
        assert got.dtype == np.float64 and got.shape == (0,)
        return
    compare("bincount_weighted", x, np.linspace(0.0, 1.0, x.shape[0]))
    compare("bincount_weighted", x, np.ones(x.shape[0] + 1))


close_values = st.sampled_from([0.0, 1.0, 1.0 + 1e-9, 1.001, -1.0, 1e10, 1e10 + 1, np.inf, -np.inf, np.nan, 5e-9])


@given(a=hnp.arrays(st.sampled_from([np.float64, np.float32]), 4, elements=close_values),
       b=st.one_of(hnp.arrays(np.float64, 4, elements=close_values), close_values, st.integers(-2, 2)))
@SETTINGS
def test_isclose_allclose(a: np.ndarray, b: Any) -> None:
    compare("isclose", a, b)
    compare("allclose", a, b)
    compare("isclose", 1.0, b)


@given(x=arrays_of(np.float64, st.integers(0, 4)), y=arrays_of(np.int8, st.integers(0, 4)))
@SETTINGS
def test_meshgrid(x: np.ndarray, y: np.ndarray) -> None:
    compare("meshgrid", x, y)


@given(start=st.floats(-3, 3), stop=st.floats(-3, 3), num=st.integers(0, 9))
@SETTINGS
def test_logspace(start: float, stop: float, num: int) -> None:
    # np.power's SIMD loop against the C library's pow: to a few ulp.
    close("logspace", start, stop, num)


@given(case=binary_case(), out_dtype=st.sampled_from([np.int8, np.int64, np.float32, np.float64, np.bool_]),
       data=st.data())
@SETTINGS
def test_ufunc_out_and_where(case: tuple[Any, ...], out_dtype: Any, data: Any) -> None:
    a, b = case
    shape = np.broadcast_shapes(np.shape(a), np.shape(b)) or (1,)  # (plait has no 0-d arrays)
    c = data.draw(arrays_of(out_dtype, st.sampled_from([shape, shape, (7,)])))
    # (A scalar where=True is NumPy's default, which its messages leave out;
    # plait's name it as any scalar operand.)
    mask = data.draw(st.one_of(st.just(False), hnp.arrays(np.bool_, st.sampled_from([shape, shape[-1:], (5,)]))))
    # (NumPy's TypeError for an out it cannot cast to is a TypingError.)
    assert_same_effects_or_typing(py.add_out, jit.add_out, a, b, c)
    assert_same_effects_or_typing(py.maximum_out_where, jit.maximum_out_where, a, b, c, mask)
    with quiet(), warnings_ignored():
        assert_same_effects_or_typing(py.multiply_positional_out, jit.multiply_positional_out, a, b, c)


@pytest.mark.parametrize("mask", [np.zeros(5, dtype=np.bool_), np.ones(1, dtype=np.bool_), False])
@pytest.mark.parametrize("a", [128, -129, 5])
def test_ufunc_out_checks_python_ints_before_shapes(a: int, mask: Any) -> None:
    # Scalar operands with an array out=: NumPy converts a Python int to the
    # loop's dtype (OverflowError) before it compares out's shape.
    out = np.zeros(1, dtype=np.int8)
    assert_same_effects_or_typing(py.maximum_out_where, jit.maximum_out_where, a, np.int8(0), out, mask)
    assert_same_effects_or_typing(py.add_out, jit.add_out, a, np.int8(0), out)


def warnings_ignored() -> Any:
    import warnings

    context = warnings.catch_warnings()
    context.__enter__()
    warnings.simplefilter("ignore")
    return _Exit(context)


class _Exit:
    def __init__(self, context: Any) -> None:
        self.context = context

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        self.context.__exit__(*exc)


def assert_same_effects_or_typing(reference: Callable[..., Any], compiled: Callable[..., Any], *args: Any) -> None:
    with quiet():
        try:
            reference(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        except TypeError as error:
            with pytest.raises(plait.TypingError) as raised:
                compiled(*args)
            assert str(error) in str(raised.value)
            return
        except OverflowError:
            # A Python int out of the loop's range, which NumPy checks before
            # the types: a TypeError for the types is raised when compiling.
            fitting = [0 if type(a) is int else a.copy() if isinstance(a, np.ndarray) else a for a in args]
            try:
                reference(*fitting)
            except TypeError as error:
                with pytest.raises(plait.TypingError) as raised:
                    compiled(*args)
                assert str(error) in str(raised.value)
                return
            except Exception:  # noqa: BLE001 - compared below
                pass
        except Exception:  # noqa: BLE001 - compared below
            pass
        assert_same_effects(reference, compiled, *args)


@given(a=arrays_of(np.float64, st.sampled_from([(3, 4), (1, 5), (0, 2)])))
@SETTINGS
def test_constant_axis_arguments(a: np.ndarray) -> None:
    compare("average_axis", a)
    compare("searchsorted_right", np.sort(a.ravel()), a.ravel()[:3])


def test_a_non_constant_axis_is_refused_by_name() -> None:
    with pytest.raises(plait.UnsupportedError, match=r"np.average\(\) takes axis= as an int constant here"):
        plait.jit(py_average_of_axis)(np.ones((2, 2)), 0)


def py_average_of_axis(a: Any, axis: int) -> Any:
    return np.average(a, axis=axis)


@given(a=arrays_of(np.float64, st.sampled_from([(2, 3), (3, 1), (0, 2)])), b=arrays_of(np.float64, st.sampled_from([(2, 2), (3, 1), (1, 2)])))
@SETTINGS
def test_joins_along_constant_axes(a: np.ndarray, b: np.ndarray) -> None:
    compare("concatenate_axis1", a, b)
    compare("stack_axis1", a[0] if a.shape[0] else np.zeros(2), b[0] if b.shape[0] else np.zeros(2))


@given(x=arrays_of(np.float32, st.integers(0, 4)), y=arrays_of(np.int16, st.integers(0, 4)))
@SETTINGS
def test_meshgrid_ij(x: np.ndarray, y: np.ndarray) -> None:
    compare("meshgrid_ij", x, y)


@given(a=st.one_of(arrays_of(np.int8, st.sampled_from([(2, 3), (1, 4)])), arrays_of(np.float64, st.sampled_from([(2, 3), (3, 1)]))))
@SETTINGS
def test_ufunc_reduce_and_accumulate(a: np.ndarray) -> None:
    compare("reduce_family", a)
    compare("count_nonzero_axis", a)
    compare("full_copy_asarray", a)


@given(a=sortable(st.integers(0, 9)))
@SETTINGS
def test_sort_kinds(a: np.ndarray) -> None:
    got, want = jit.sort_kinds(a), py.sort_kinds(a)
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])  # both stable


@given(seed=st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2**32 - 1])), n=st.integers(0, 6))
@settings(max_examples=25, deadline=None)
def test_random_streams_are_numpys_after_a_seed(seed: int, n: int) -> None:
    compare("random_draws", seed, n)
    assert_same_effects(py.random_shuffle, jit.random_shuffle, seed, np.arange(n + 3) * 1.5)
    assert_same_effects(py.random_shuffle, jit.random_shuffle, seed, np.arange(12).reshape(4, 3))


def test_random_errors_are_numpys() -> None:
    compare("random_seed_only", -1)
    compare("random_seed_only", 2**32)
    compare("random_randint", 5, 5, 3)
    compare("random_randint", 0, 0, 3)
    compare("random_draws", 3, 0)


def test_random_state_is_per_thread() -> None:
    # Both threads seed, draw, meet inside compiled code, and draw again:
    # with a shared state the second draws would mix the two streams.
    barrier = unique_barrier_id()
    seeds = [11, 12345]
    draws = plait.jit(jit_random_threads.seeded_draws_around_a_rendezvous)
    results = run_in_threads(2, lambda i: draws(seeds[i], barrier))
    for seed, (first, second) in zip(seeds, results):
        np.random.seed(seed)
        np.testing.assert_array_equal(first, np.random.rand(3))
        np.testing.assert_array_equal(second, np.random.rand(3))


@given(m=arrays_of(np.float64, st.sampled_from([(2, 5), (3, 4), (1, 3)])))
@SETTINGS
def test_corrcoef(m: np.ndarray) -> None:
    assume(np.all(np.isfinite(m)) and np.all(np.abs(m) < 1e100))
    with quiet():
        want, got = np.corrcoef(m), jit.corrcoef(m)
    if want.ndim == 0:  # one variable: NumPy squeezes to a 0-d array
        np.testing.assert_allclose(got[0, 0], want, equal_nan=True)
        return
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15, equal_nan=True)


@given(a=st.one_of(arrays_of(np.float64, st.sampled_from([(3, 4), (1, 5), (4, 1)])),
                   arrays_of(np.int16, st.sampled_from([(2, 3)]))))
@SETTINGS
def test_median_along_axes(a: np.ndarray) -> None:
    assume(a.dtype.kind != "f" or np.all(np.abs(a[np.isfinite(a)]) < 1e300))
    compare("median_axes", a)


@given(n=st.integers(0, 3), m=st.integers(0, 3))
@SETTINGS
def test_indices(n: int, m: int) -> None:
    compare("indices", n, m)


@given(a=arrays_of(np.float32, st.sampled_from([(2, 3), (1, 1), (3, 1)])))
@SETTINGS
def test_swapaxes_and_squeeze(a: np.ndarray) -> None:
    compare("swap_and_squeeze", a)
    compare("squeeze_axis", a)  # NumPy's ValueError unless axis 1 has size 1


@given(a=hnp.arrays(np.int8, hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=4), elements=st.integers(0, 3)))
@SETTINGS
def test_where_of_one_argument_is_nonzero(a: np.ndarray) -> None:
    compare("where_one", a)


@given(seed=st.integers(0, 2**32 - 1),
       p=st.one_of(hnp.arrays(np.float64, 3, elements=st.sampled_from([0.0, 0.25, 0.5, 0.2, 0.3])),
                   st.sampled_from([np.array([0.2, 0.3, 0.5]), np.array([0.5, np.nan, 0.5]), np.array([0.5, 0.5]),
                                    np.array([1.5, -0.5, 0.0]), np.array([0.2, 0.3, 0.5], dtype=np.float32)])))
@settings(max_examples=25, deadline=None)
def test_random_choice_with_probabilities(seed: int, p: np.ndarray) -> None:
    # NumPy's checks of p in its order and messages, then its draws.
    compare("random_weighted_choice", seed, p, np.array([10.0, 20.0, 30.0]))


@given(a=arrays_of(np.float64, st.sampled_from([(2, 3, 4), (1, 0, 2), (3, 1, 2)])),
       axes=st.sampled_from([(1, 0, 2), (2, 0, 1), (0, 1, 2), (-1, 0, 1), (0, 0, 1), (0, 1, 3), (1, 0)]))
@SETTINGS
def test_transpose_with_axes_is_a_view(a: np.ndarray, axes: tuple[int, ...]) -> None:
    # NumPy's errors: a repeated axis, an axis out of range, too few axes.
    if len(axes) != a.ndim:
        with pytest.raises(plait.TypingError, match="axes don't match array"):
            jit.transpose_axes(a, axes)
        return
    compare("transpose_axes", a, axes)
    compare("transpose_axes", np.asfortranarray(a), axes)
    compare("transpose_method", a)
    assert_same_effects(py.transpose_written, jit.transpose_written, a)
    if a.size and len(set(k % a.ndim for k in axes)) == a.ndim and all(-a.ndim <= k < a.ndim for k in axes):
        assert np.shares_memory(jit.transpose_axes(a, axes), a)


@given(a=arrays_of(np.int32, st.sampled_from([(3,), (1,), (2, 1), (1, 3), (0,)])),
       shape=st.sampled_from([(3,), (2, 3), (4, 2, 3), (2, 1), (2, 4), (0, 3), (-1, 3), (3, 0)]),
       n=st.integers(-1, 4))
@SETTINGS
def test_broadcast_to(a: np.ndarray, shape: tuple[int, ...], n: int) -> None:
    # A view with zero strides, or NumPy's ValueError with both shapes.
    compare("broadcast_to_shape", a, shape)
    compare("broadcast_to_length", a, n)
    compare("broadcast_number", 2.5, n)
    try:
        want = np.broadcast_to(a, shape)
    except ValueError:
        return
    got = jit.broadcast_to_shape(a, shape)
    # (An empty array's strides are NumPy's choice: not compared.)
    assert got.size == 0 or (got.strides == want.strides and np.shares_memory(got, a))


@given(a=st.one_of(arrays_of(np.float64, st.sampled_from([(2, 3, 4), (3, 1, 2), (1, 2, 1)])),
                   arrays_of(np.int16, st.sampled_from([(2, 3, 2)]))),
       q=st.one_of(st.floats(0, 100), st.just(np.array([5.0, 50.0, 95.0])), st.just(np.array([-1.0]))))
@SETTINGS
def test_median_and_percentile_along_axes(a: np.ndarray, q: Any) -> None:
    assume(a.dtype.kind != "f" or np.all(np.abs(a[np.isfinite(a)]) < 1e300))
    # (The sign of a zero result may differ: NumPy's partition leaves equal
    # values, -0.0 and 0.0, in another order than a sort.)
    compare_values("median_nd", a)
    compare_values("percentile_nd", a, q)
    compare_values("percentile_several", a)


@given(seed=st.integers(0, 2**32 - 1), size=st.integers(-1, 5),
       p=st.one_of(hnp.arrays(np.float64, 4, elements=st.sampled_from([0.0, 0.25, 0.5, 0.125, 0.375])),
                   st.sampled_from([np.array([0.1, 0.2, 0.3, 0.4]), np.array([0.5, 0.5, 0.0, 0.0]),
                                    np.array([0.25, np.nan, 0.5, 0.25])])))
@settings(max_examples=30, deadline=None)
def test_random_choice_without_replacement_with_probabilities(seed: int, size: int, p: np.ndarray) -> None:
    # NumPy's rounds of draws, bit for bit, and its errors (too few non-zero
    # probabilities, a sample larger than the population).
    compare("random_choice_without_replacement", seed, p, size, np.array([1.5, 2.5, 3.5, 4.5]))


@given(n=st.integers(-2, 5), m=st.integers(-2, 5))
@SETTINGS
def test_mgrid(n: int, m: int) -> None:
    # NumPy's nd_grid: arange's result for one slice, indices scaled for
    # several, a complex step counting points; its ValueError for a
    # negative size.
    compare("mgrid_ints", n, m)
    compare("mgrid_points", n)
    compare("mgrid_unpacked", n)


@given(a=arrays_of(np.int16, st.sampled_from([(2, 3), (2, 3, 2), (0, 2), (2, 0, 3)])), n=st.integers(-1, 3))
@SETTINGS
def test_repeat_along_an_axis(a: np.ndarray, n: int) -> None:
    compare("repeat_axis", a, n)
    compare("repeat_axis", np.asfortranarray(a), n)


complex_parts = st.one_of(st.floats(-10, 10), st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, 700.0, -710.0]))


@given(z=st.one_of(hnp.arrays(np.complex128, st.integers(0, 5),
                              elements=st.builds(complex, complex_parts, complex_parts)),
                   hnp.arrays(np.complex64, st.integers(1, 5),
                              elements=st.builds(complex, st.floats(-10, 10, width=32), st.floats(-10, 10, width=32))),
                   st.builds(complex, complex_parts, complex_parts)))
@SETTINGS
def test_complex_ufuncs_call_the_c_library_as_numpy_does(z: Any) -> None:
    # NumPy's complex loops call the C library's cexp, clog, ... (cexpf for
    # complex64): the same functions give the same bits.
    compare("complex_functions", z)


@given(x=st.floats(-1e6, 1e6))
@SETTINGS
def test_numpy_constants(x: float) -> None:
    compare("numpy_constants", x)


@given(z=hnp.arrays(np.complex128, st.integers(0, 6), elements=st.builds(complex, st.floats(-3, 3), st.floats(-3, 3))),
       horizon=st.floats(0, 4))
@SETTINGS
def test_ufunc_out_given_positionally_in_place(z: np.ndarray, horizon: float) -> None:
    compare("logical_not_in_place", z, horizon)


#: exp's edges: overflow, the last normal and subnormal results, underflow.
EXP_EDGES = [0.0, -0.0, 1.0, -1.0, 709.782712893384, 709.7827128933841, 710.0, -708.3964185322641, -708.4,
             -745.1332191019411, -745.1332191019412, -746.0, 5e-324, -5e-324, np.inf, -np.inf, np.nan, 1e-300]


def c_library_exp(v: float) -> float:
    import math

    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


@given(
    x=hnp.arrays(
        np.float64,
        st.integers(0, 40),
        elements=st.one_of(st.floats(-750.0, 750.0), st.floats(-1.0, 1.0), st.floats(), st.sampled_from(EXP_EDGES)),
    )
)
@SETTINGS
def test_float64_exp_is_within_one_ulp_of_numpy_and_the_c_library(x: np.ndarray) -> None:
    # plait's float64 exp is operations (it vectorises), not the C library's
    # call: within one ulp of NumPy's and of math.exp's (each within 0.7),
    # and the same infinities, zeros and NaNs (subnormals within one ulp).
    with np.errstate(all="ignore"):
        got, numpy_exp = jit.u_exp(x), np.exp(x)
        c_exp = np.array([c_library_exp(v) for v in x.tolist()], dtype=np.float64)
        assert got.dtype == np.float64 and got.shape == x.shape
        for want in (numpy_exp, c_exp):
            special = np.isnan(want) | np.isinf(want) | (want == 0.0)
            np.testing.assert_array_equal(got[special], want[special])
            close = ~special
            assert np.all(np.abs(got[close] - want[close]) <= np.spacing(want[close])), (x[close], got[close], want[close])
