"""float16 and complex64, differentially against NumPy: float16 computes in
float32 and rounds after each operation (sums and products per inner
loop), complex64 in float32 parts; both promote by NumPy 2's rules, come
in and go out as arrays and NumPy scalars, and take part in products (and
complex64 in np.linalg, through complex128 as NumPy computes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_linalg as linalg_py
import jit_narrow_dtypes as py
import plait
from jit_support import assert_same, jitted_copies, quiet

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
jit = jitted_copies(py)
linalg_jit = jitted_copies(linalg_py)  # products and np.linalg

HALF_EDGES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -2.5, 3.0, 65504.0, -65504.0, 6e-8, np.inf, -np.inf, np.nan]


def same(name: str, *args: Any) -> None:
    with quiet():
        assert_same(getattr(py, name), getattr(jit, name), *args)


def halves(size: int) -> st.SearchStrategy[np.ndarray]:
    elements = st.one_of(st.sampled_from(HALF_EDGES), hnp.from_dtype(np.dtype(np.float16)))
    return hnp.arrays(np.float16, size, elements=elements)


def complexes(size: int) -> st.SearchStrategy[np.ndarray]:
    parts = st.one_of(st.sampled_from([0.0, -0.0, 1.0, -1.5, 3.0, np.inf, np.nan]),
                      st.floats(-1e6, 1e6, width=32))
    return hnp.arrays(np.complex64, size, elements=st.builds(complex, parts, parts))


def assert_close_complex(got: Any, want: Any) -> None:
    """Equal values, types, dtypes and shapes (complex products included:
    plait fuses them where NumPy's SIMD loops do)."""
    assert type(got) is type(want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert_close_complex(g, w)
        return
    assert np.asarray(got).dtype == np.asarray(want).dtype and np.shape(got) == np.shape(want)
    np.testing.assert_array_equal(got, want)


@given(a=halves(7), b=halves(7))
@SETTINGS
def test_float16_arithmetic_rounds_each_operation_as_numpy(a: np.ndarray, b: np.ndarray) -> None:
    same("arithmetic", a, b)
    same("real_arithmetic", a, b)
    same("with_python_scalars", a)
    same("with_numpy_scalars", a)
    for i, j in [(0, 1), (2, 3), (4, 6)]:
        same("element_arithmetic", a, i, j)
        same("real_element_arithmetic", a, i, j)
        same("returns_element", a, i)


@given(a=complexes(5), b=complexes(5))
@SETTINGS
def test_complex64_arithmetic_in_float32_parts(a: np.ndarray, b: np.ndarray) -> None:
    with quiet():
        want, got = py.arithmetic(a, b), jit.arithmetic(a, b)
        for index in (0, 1, 3):  # + - / exactly (NumPy's Smith division)
            np.testing.assert_array_equal(got[index], want[index])
            assert got[index].dtype == np.complex64
        assert_close_complex(got[2], want[2])
        # NumPy's complex64 SIMD loop fuses products, except on its one-run
        # path with an operand walked backwards (1-D, or a full reversal),
        # which its plain C loop takes.
        for x, y in ((a[::-1], b), (a[::-2], b[::2]), (a, b[::-1])):
            assert_close_complex(jit.arithmetic(x, y), py.arithmetic(x, y))
        square = np.outer(a, b)
        for x in (square, square.T, square[::-1], square[:, ::-1]):
            assert_close_complex(jit.arithmetic(x, x.T), py.arithmetic(x, x.T))
        reversed_square = square[::-1, ::-1]  # one run, walked backwards
        for x, y in ((reversed_square, square), (square, reversed_square), (reversed_square, reversed_square)):
            assert_close_complex(jit.arithmetic(x, y), py.arithmetic(x, y))
        assert_close_complex(linalg_jit.norm_of_stack(reversed_square), linalg_py.norm_of_stack(reversed_square))
        assert_close_complex(jit.with_python_scalars(a), py.with_python_scalars(a))
        assert_close_complex(jit.with_numpy_scalars(a), py.with_numpy_scalars(a))
        for i, j in [(0, 1), (2, 4)]:
            assert_close_complex(jit.element_arithmetic(a, i, j), py.element_arithmetic(a, i, j))
            same("returns_element", a, i)
        same("absolute", a)
        # np.abs of complex64 takes hypot on the one-run path walked
        # backwards (as NumPy 2.3 and 2.4 do; plait asks the running NumPy).
        for x in (a[::-1], a[::-2], reversed_square, square[::-1], square[:, ::-1], square.T):
            same("absolute", x)
        same("parts", a)


@given(a=halves(6))
@SETTINGS
def test_float16_ufuncs_compute_in_float32(a: np.ndarray) -> None:
    same("ufuncs", a)
    same("absolute", a)
    for dtype in (np.int8, np.uint8, np.bool_):  # NumPy's float16 loops
        same("ufuncs", a.astype(np.float32).clip(-100, 100).astype(dtype))


@given(a=halves(9))
@SETTINGS
def test_float16_reductions(a: np.ndarray) -> None:
    same("reductions", a)
    same("cumulative", a)
    same("float32_sum", a)


@pytest.mark.parametrize("shape", [(3, 20000), (20000, 3), (5, 7)])
@pytest.mark.parametrize("axis", [0, 1])
def test_float16_reductions_along_axes_and_layouts_in_numpy_order(shape: tuple[int, int], axis: int) -> None:
    # Large enough for NumPy's pairwise blocks and 8192-element buffers.
    a = (np.random.default_rng(shape[0]).standard_normal(shape) * 4).astype(np.float16)
    # (Whole sums of views with reversed axes can differ from NumPy's in the
    # last float16 bit: see docs/design/narrow-dtypes.md.)
    for view in (a, a.T, np.asfortranarray(a), a[:, ::2]):
        same(f"axis{axis}_reductions", view)
        same("axis_extremes", view)
        same("reductions", view)
        same("float32_sum", view)


@given(a=complexes(6))
@SETTINGS
def test_complex64_reductions(a: np.ndarray) -> None:
    with quiet():
        got, want = jit.complex_reductions(a), py.complex_reductions(a)
    for index in (0, 2):  # sums and means exactly (NumPy's pairwise order)
        assert type(got[index]) is np.complex64
        np.testing.assert_array_equal(got[index], want[index])
    assert_close_complex(got, want)


def test_complex64_reductions_along_axes() -> None:
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((40, 300)) + 1j * rng.standard_normal((40, 300))).astype(np.complex64)
    for view in (a, a.T, a[::3]):
        for axis in (0, 1):
            name = f"axis{axis}_reductions"
            got, want = getattr(jit, name)(view), getattr(py, name)(view)
            assert_close_complex(got, want)
            np.testing.assert_array_equal(got[0], want[0])


def test_creation_conversion_and_scalars() -> None:
    same("created", 5)
    for source in (np.arange(-3, 4, dtype=np.int64), np.linspace(-70000, 70000, 9), np.array([0.1, 1e-8, np.nan])):
        same("converted", source)
    for x, z in [(2.7, 1 - 2j), (70000.0, 1e39j), (1e-8, -0.0 + 0j), (np.nan, complex(np.inf, 1))]:
        same("scalars", x, z)
    same("scalars", np.float16(0.1), np.complex64(0.1 + 0.2j))


def test_complex64_part_views_write_through() -> None:
    z = (np.arange(4) * (1 + 2j)).astype(np.complex64)
    want, got = z.copy(), z.copy()
    py.write_parts(want, np.float32(0.25))
    jit.write_parts(got, np.float32(0.25))
    np.testing.assert_array_equal(got, want)


@given(a=halves(5), b=halves(5))
@SETTINGS
def test_float16_in_place_operations(a: np.ndarray, b: np.ndarray) -> None:
    want, got = a.copy(), a.copy()
    with quiet():
        py.in_place(want, b)
        jit.in_place(got, b)
    np.testing.assert_array_equal(got, want)


ALL = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32,
       np.uint16, np.uint8, np.bool_, np.complex128, np.complex64]


@pytest.mark.parametrize("other", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("narrow", [np.float16, np.complex64], ids=lambda d: np.dtype(d).name)
def test_promotion_follows_numpy(narrow: Any, other: Any) -> None:
    a = np.array([1.5, -2.0, 3.25], dtype=narrow)
    b = np.array([2, 3, 1], dtype=other)
    for left, right in ((a, b), (b, a), (a, b[1]), (a[0], b)):
        with quiet():
            got, want = jit.promoted(left, right), py.promoted(left, right)
        assert np.asarray(got).dtype == np.asarray(want).dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", [np.float16, np.complex64], ids=lambda d: np.dtype(d).name)
def test_products(dtype: Any) -> None:
    rng = np.random.default_rng(1)
    def make(*shape: int) -> np.ndarray:
        x = rng.standard_normal(shape)
        if dtype is np.complex64:
            x = x + 1j * rng.standard_normal(shape)
        return x.astype(dtype)
    a, b, v = make(7, 5), make(5, 4), make(5)
    matmul, dot = linalg_py.matmul, linalg_py.dot
    for f, args in ((matmul, (a, b)), (matmul, (a, v)), (matmul, (v, v)), (dot, (a, b)),
                    (dot, (v, v)), (matmul, (a, a.T)), (matmul, (a[::2], b)), (dot, (make(2, 3, 5), b))):
        want = f(*args)
        got = getattr(linalg_jit, f.__name__)(*args)
        assert type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
        if dtype is np.float16 or "numpy" in plait.blas_library():
            np.testing.assert_array_equal(got, want)  # the same loops or the same BLAS
        else:
            np.testing.assert_allclose(got, want, rtol=1e-5)


def test_linalg_of_complex64_computes_in_complex128_and_rounds() -> None:
    rng = np.random.default_rng(2)
    a = (rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4)) + 4 * np.eye(4)).astype(np.complex64)
    b = (rng.standard_normal((4, 2)) + 0j).astype(np.complex64)
    hermitian = (a + a.conj().T) / 2
    for name, args in (("solve", (a, b)), ("inv", (a,)), ("det", (a,)), ("eigh", (hermitian,))):
        want = getattr(linalg_py, name)(*args)
        got = getattr(linalg_jit, name)(*args)
        for g, w in zip(got if isinstance(want, tuple) else [got], want if isinstance(want, tuple) else [want]):
            assert np.asarray(g).dtype == np.asarray(w).dtype
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_float16_linalg_raises_numpys_message_and_norm_is_refused_by_name() -> None:
    a = np.eye(3, dtype=np.float16)
    with pytest.raises(TypeError, match="array type float16 is unsupported in linalg"):
        linalg_py.inv(a)
    with pytest.raises(plait.TypingError, match="array type float16 is unsupported in linalg"):
        linalg_jit.inv(a)
    with pytest.raises(plait.UnsupportedError, match=r"norm\(\) of float16 arrays"):
        linalg_jit.norm_of_stack(a)
