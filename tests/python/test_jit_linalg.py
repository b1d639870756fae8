"""Matrix products (a @ b, np.matmul, np.dot, np.outer) in all of NumPy's
shapes, dtypes and layouts, compared with NumPy: bit for bit when plait calls
the BLAS NumPy calls (the same routines with the same arguments), within
rounding otherwise."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import jit_linalg as py
import plait
from conftest import run_in_threads
from jit_support import jitted_copies
from plait.testing import unique_barrier_id

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

jit = jitted_copies(py)

SAME_BLAS_AS_NUMPY = "numpy" in plait.blas_library()

DTYPES = [np.float64, np.float32, np.complex128, np.int64, np.int32, np.int8, np.uint8, np.uint16, np.uint32, np.bool_]


def assert_product(got: Any, want: Any) -> None:
    assert np.asarray(got).dtype == np.asarray(want).dtype
    assert np.shape(got) == np.shape(want)
    assert type(got) is type(want) or isinstance(got, np.ndarray) == isinstance(want, np.ndarray)
    if SAME_BLAS_AS_NUMPY or np.asarray(want).dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want)
    else:
        rtol = 1e-4 if np.asarray(want).dtype == np.float32 else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rng.random(shape) < 0.3
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0 if np.dtype(dtype).kind == "u" else -50, 50, shape).astype(dtype)
    return (rng.standard_normal(shape) * 4).astype(dtype)


def layout(a: np.ndarray, choice: int) -> np.ndarray:
    """The same values in another memory layout: C, Fortran, or a strided view
    of a larger array (reversed rows, every other column)."""
    if a.ndim < 2 or choice == 0:
        return a if a.ndim > 1 or choice == 0 else np.repeat(a, 2)[::-2][::-1]
    if choice == 1:
        return np.asfortranarray(a)
    padded = np.zeros(a.shape[:-2] + (a.shape[-2], 2 * a.shape[-1]), a.dtype)
    padded[..., ::-1, ::2] = a
    return padded[..., ::-1, ::2]


@st.composite
def operand_shapes(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Shapes NumPy's matmul accepts: 1-D or stacks of matrices, whose stack
    axes broadcast (sizes of 1 against any)."""
    m, n, p = (draw(st.sampled_from([0, 1, 2, 3, 5, 8, 17, 40])) for _ in range(3))
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    a_batch = [draw(st.sampled_from([size, 1])) for size in batch][draw(st.integers(0, len(batch))):]
    b_batch = [draw(st.sampled_from([size, 1])) for size in batch][draw(st.integers(0, len(batch))):]
    a = (n,) if draw(st.integers(0, 4)) == 0 else tuple(a_batch) + (m, n)
    b = (n,) if draw(st.integers(0, 4)) == 0 else tuple(b_batch) + (n, p)
    return a, b


@given(shapes=operand_shapes(), dtype=st.sampled_from(DTYPES), layouts=st.tuples(st.integers(0, 2), st.integers(0, 2)), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_matmul_matches_numpy(shapes: Any, dtype: Any, layouts: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = layout(random_array(rng, shapes[0], dtype), layouts[0])
    b = layout(random_array(rng, shapes[1], dtype), layouts[1])
    want = py.matmul(a, b)
    assert_product(jit.matmul(a, b), want)
    assert_product(jit.matmul_function(a, b), want)


@given(
    shapes=st.sampled_from([((3,), (3,)), ((4, 3), (3,)), ((3,), (3, 5)), ((4, 3), (3, 5)), ((2, 4, 3), (3, 5)),
                            ((4, 3), (2, 3, 5)), ((2, 2, 3), (4, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
                            ((1, 1), (1, 1)), ((30, 20), (20, 25))]),
    dtype=st.sampled_from(DTYPES), layouts=st.tuples(st.integers(0, 2), st.integers(0, 2)), seed=st.integers(0, 2**32 - 1),
)
@SETTINGS
def test_dot_matches_numpy_in_every_shape(shapes: Any, dtype: Any, layouts: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = layout(random_array(rng, shapes[0], dtype), layouts[0])
    b = layout(random_array(rng, shapes[1], dtype), layouts[1])
    assert_product(jit.dot(a, b), py.dot(a, b))


@pytest.mark.parametrize("dtypes", [(np.float32, np.float64), (np.int32, np.float64), (np.int8, np.uint8),
                                    (np.bool_, np.int64), (np.float64, np.complex128), (np.int16, np.float32)])
def test_products_of_mixed_dtypes_promote_as_numpy(dtypes: Any) -> None:
    rng = np.random.default_rng(3)
    a, b = random_array(rng, (6, 7), dtypes[0]), random_array(rng, (7, 5), dtypes[1])
    for fn in ("matmul", "dot"):
        assert_product(getattr(jit, fn)(a, b), getattr(py, fn)(a, b))
    v = random_array(rng, (7,), dtypes[1])
    assert_product(jit.dot(a, v), py.dot(a, v))


@given(a_shape=st.sampled_from([(4,), (2, 3), (0,), (2, 1, 2)]), b_shape=st.sampled_from([(5,), (3, 2), (1,)]),
       dtype=st.sampled_from([np.float64, np.int32, np.bool_, np.complex128]), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_outer_matches_numpy(a_shape: Any, b_shape: Any, dtype: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a, b = random_array(rng, a_shape, dtype), random_array(rng, b_shape, dtype)
    if dtype == np.complex128:
        # Gaussian integers: NumPy's SIMD complex multiply may fuse
        # multiply-adds, which changes the last bit of other values.
        a, b = np.round(a * 8), np.round(b * 8)
    np.testing.assert_array_equal(jit.outer(a, b), py.outer(a, b))
    assert jit.outer(a, b).dtype == py.outer(a, b).dtype
    np.testing.assert_array_equal(jit.outer(a[::-1], b), py.outer(a[::-1], b))


@given(n=st.sampled_from([1, 2, 7, 33]), k=st.sampled_from([1, 3, 20]), dtype=st.sampled_from([np.float64, np.float32, np.complex128]),
       seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_a_matrix_times_its_transpose_is_symmetric_as_in_numpy(n: int, k: int, dtype: Any, seed: int) -> None:
    a = random_array(np.random.default_rng(seed), (n, k), dtype)
    for got, want in zip(jit.gram(a), py.gram(a)):
        assert_product(got, want)


@pytest.mark.parametrize(
    "shapes",
    [((3,), (2,)), ((2, 3), (2, 3)), ((3,), (2, 3)), ((2, 3), (2,)), ((2, 3, 4), (3, 4, 5)), ((2, 3, 4), (3, 5, 6)),
     ((4, 1, 2, 3), (5, 3, 2)), ((2, 5, 2, 3), (3, 3, 2))],
)
def test_mismatched_shapes_raise_numpys_errors(shapes: Any) -> None:
    a, b = np.ones(shapes[0]), np.ones(shapes[1])
    for fn in ("matmul", "matmul_function", "dot"):
        try:
            getattr(py, fn)(a, b)
        except ValueError as error:
            expected = str(error)
        else:
            continue
        with pytest.raises(ValueError) as got:
            getattr(jit, fn)(a, b)
        assert str(got.value) == expected


def test_products_in_loops_and_in_place_match_numpy() -> None:
    rng = np.random.default_rng(5)
    a, x = rng.standard_normal((50, 50)), rng.standard_normal(50)
    assert_product(jit.power_iteration(a, x, 30), py.power_iteration(a, x, 30))
    args = [rng.standard_normal((40, 40))] + [rng.standard_normal(40) for _ in range(4)]
    expected, got = [v.copy() for v in args], [v.copy() for v in args]
    py.mvt(*expected)
    jit.mvt(*got)
    for e, g in zip(expected, got):
        assert_product(g, e)
    mats = [rng.standard_normal((60, 60)) for _ in range(4)]
    for g, e in zip(jit.chain(*mats), py.chain(*mats)):
        assert_product(g, e)


def test_blas_library_is_numpys() -> None:
    # plait finds the BLAS NumPy loaded (the bundled OpenBLAS of NumPy's wheels).
    import numpy

    path = plait.blas_library()
    assert path and "openblas" in path.lower()
    if "site-packages" in numpy.__file__:
        assert SAME_BLAS_AS_NUMPY


# np.linalg: the LAPACK routines NumPy calls, on the same column-major copies.

LINALG_DTYPES = [np.float64, np.float32, np.complex128, np.int64, np.int32, np.bool_, np.complex64]


def assert_linalg(got: Any, want: Any) -> None:
    """Results equal NumPy's (tuples item by item, types and dtypes too)."""
    if isinstance(want, tuple):
        assert type(got) is type(want) and len(got) == len(want)  # EighResult too
        for g, w in zip(got, want):
            assert_linalg(g, w)
        return
    assert type(got) is type(want), (type(got), type(want))
    assert np.asarray(got).dtype == np.asarray(want).dtype and np.shape(got) == np.shape(want)
    if SAME_BLAS_AS_NUMPY:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def well_conditioned(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    """Square matrices (the last two axes) with a strong diagonal."""
    a = random_array(rng, shape, dtype)
    if np.dtype(dtype).kind in "fciu":
        a = a + (4 * shape[-1] * np.eye(shape[-1])).astype(dtype)
    return a


def assert_same_linalg(fn: str, *args: Any) -> None:
    """The same results as NumPy, or the same exception (a singular matrix
    can still come up)."""
    try:
        expected = getattr(py, fn)(*args)
    except np.linalg.LinAlgError as error:
        with pytest.raises(np.linalg.LinAlgError, match=str(error)):
            getattr(jit, fn)(*args)
        return
    assert_linalg(getattr(jit, fn)(*args), expected)


def hermitian(rng: np.random.Generator, n: int, dtype: Any) -> np.ndarray:
    a = random_array(rng, (n, n), np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    h = a @ a.conj().T + n * np.eye(n)
    return h.astype(dtype)


@given(n=st.integers(0, 9), stack=st.sampled_from([(), (2,), (3, 1)]), rhs=st.sampled_from([None, 0, 1, 4]),
       dtypes=st.tuples(st.sampled_from(LINALG_DTYPES[:5]), st.sampled_from(LINALG_DTYPES[:5])),
       layout_choice=st.integers(0, 2), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_solve_inv_det_match_numpy(n: int, stack: Any, rhs: Any, dtypes: Any, layout_choice: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = layout(well_conditioned(rng, stack + (n, n), dtypes[0]), layout_choice)
    b = random_array(rng, (n,) if rhs is None else stack[-1:] + (n, rhs), dtypes[1])
    assert_same_linalg("solve", a, b)
    assert_same_linalg("inv", a)
    assert_same_linalg("det", a)


@given(n=st.integers(1, 8), dtype=st.sampled_from([np.float64, np.float32, np.complex128]),
       stacked=st.booleans(), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_cholesky_and_eigh_match_numpy(n: int, dtype: Any, stacked: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    h = hermitian(rng, n, dtype)
    if stacked:
        h = np.stack([h, hermitian(rng, n, dtype)])
    assert_linalg(jit.cholesky(h), py.cholesky(h))
    assert_linalg(jit.eigh(h), py.eigh(h))
    assert_linalg(jit.eigh_upper(h), py.eigh_upper(h))
    assert_linalg(jit.eigh_fields(h), py.eigh_fields(h))


@given(m=st.integers(0, 9), n=st.integers(1, 6), rhs=st.sampled_from([None, 0, 1, 3]),
       dtype=st.sampled_from([np.float64, np.float32, np.complex128, np.int64]), rank_deficient=st.booleans(),
       seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_lstsq_matches_numpy(m: int, n: int, rhs: Any, dtype: Any, rank_deficient: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    a = random_array(rng, (m, n), dtype)
    if rank_deficient and n > 1:
        a[:, -1] = a[:, 0]
    b = random_array(rng, (m,) if rhs is None else (m, rhs), dtype)
    assert_linalg(jit.lstsq(a, b), py.lstsq(a, b))
    assert_linalg(jit.lstsq_rcond(a, b, 0.1), py.lstsq_rcond(a, b, 0.1))


@given(n=st.integers(1, 12), dtype=st.sampled_from(LINALG_DTYPES), reverse=st.booleans(), seed=st.integers(0, 2**32 - 1))
# Backward walks: NumPy 2.4's abs of complex128 stays in its SIMD loop (2.3
# called hypot), complex64's calls hypot: each differs from the other in the
# last bit on these.
@example(n=2, dtype=np.complex128, reverse=True, seed=1)
@example(n=2, dtype=np.complex64, reverse=True, seed=0)
@SETTINGS
def test_vector_norms_match_numpy(n: int, dtype: Any, reverse: bool, seed: int) -> None:
    x = random_array(np.random.default_rng(seed), (n,), dtype)
    if reverse and n > 1:  # (one element is C-contiguous whatever its stride)
        x = x[::-1]
    with np.errstate(all="ignore"):
        want, got = py.vector_norms(x), jit.vector_norms(x)
    if np.dtype(dtype).kind in "fc" and not SAME_BLAS_AS_NUMPY:
        np.testing.assert_allclose(got, want, rtol=1e-5)
        return
    # ord=3 and ord=-1.5 raise each magnitude to a power: libm's pow may
    # differ from NumPy's SIMD power in the last bit.
    for k, (g, w) in enumerate(zip(got, want)):
        if k >= 6:
            np.testing.assert_allclose(g, w, rtol=1e-6 if np.asarray(w).dtype == np.float32 else 1e-14)
            assert type(g) is type(w)
        else:
            assert_linalg(g, w)


@given(shape=st.tuples(st.integers(1, 7), st.integers(1, 7)), dtype=st.sampled_from(LINALG_DTYPES),
       layout_choice=st.integers(0, 2), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_matrix_norms_match_numpy(shape: Any, dtype: Any, layout_choice: int, seed: int) -> None:
    x = layout(random_array(np.random.default_rng(seed), shape, dtype), layout_choice)
    assert_linalg(jit.matrix_norms(x), py.matrix_norms(x))
    stack = np.stack([x, x])[:, ::-1]
    assert_linalg(jit.norm_of_stack(stack), py.norm_of_stack(stack))


def test_linalg_errors_are_numpys() -> None:
    def same_error(fn: str, *args: Any) -> None:
        with pytest.raises(Exception) as expected:
            getattr(py, fn)(*args)
        with pytest.raises(Exception) as got:
            getattr(jit, fn)(*args)
        assert type(got.value) is type(expected.value) and str(got.value) == str(expected.value)

    same_error("solve", np.zeros((3, 3)), np.ones(3))
    same_error("solve", np.array([[[1]], [[0]]]), np.zeros((2, 1, 0)))  # no right-hand sides
    same_error("solve", np.ones((3, 3)), np.ones(2))
    same_error("solve", np.ones((3, 3)), np.ones((2, 2)))
    same_error("solve", np.ones((2, 3, 3)), np.ones((4, 3, 2)))
    same_error("inv", np.ones((2, 3)))
    same_error("inv", np.array([[1.0, 2.0], [2.0, 4.0]]))
    same_error("det", np.ones((3, 2)))
    same_error("cholesky", -np.eye(3))
    same_error("lstsq", np.ones((3, 2)), np.ones(4))
    same_error("matrix_norms", np.zeros((0, 3)))
    same_error("vector_norms", np.zeros(0))
    with pytest.raises(plait.TypingError, match="1-dimensional array given. Array must be at least two-dimensional"):
        jit.inv(np.ones(3))


def test_linalg_in_a_loop_with_complex_arrays() -> None:
    rng = np.random.default_rng(9)
    t = rng.standard_normal((6, 6)) + 1j * rng.standard_normal((6, 6))
    y = rng.standard_normal((6, 2)) + 0j
    eye = np.eye(6)
    assert_linalg(jit.contour_step(t, y, eye), py.contour_step(t, y, eye))


@given(shape=st.tuples(st.integers(1, 6), st.integers(1, 40)),
       dtype=st.sampled_from([np.float64, np.float32, np.int64, np.bool_, np.complex128, np.complex64]),
       layout_choice=st.integers(0, 2), seed=st.integers(0, 2**32 - 1))
@SETTINGS
def test_norms_along_an_axis_match_numpy(shape: Any, dtype: Any, layout_choice: int, seed: int) -> None:
    # Sums pairwise along the axis innermost in memory and in order along the
    # other, as NumPy's reduction does: bit for bit, in C, Fortran and
    # strided layouts.
    x = layout(random_array(np.random.default_rng(seed), shape, dtype), layout_choice)
    assert_linalg(jit.norms_along_axes(x), py.norms_along_axes(x))
    # Powers go through libm's pow (NumPy may use its own SIMD power).
    for g, w in zip(jit.powered_norms_along_axes(x), py.powered_norms_along_axes(x)):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5 if w.dtype == np.float32 else 1e-13)
    v = x[0]
    assert_linalg(jit.norm_of_a_vector_along_its_axis(v), py.norm_of_a_vector_along_its_axis(v))


@given(shape=st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 40)),
       dtype=st.sampled_from(LINALG_DTYPES), layout_choice=st.integers(0, 3), seed=st.integers(0, 2**32 - 1))
# A stack walked backwards (NumPy 2.4 keeps complex128's abs in SIMD).
@example(shape=(2, 1, 1), dtype=np.complex128, layout_choice=2, seed=1)
@SETTINGS
def test_matrix_norms_over_two_axes_match_numpy(shape: Any, dtype: Any, layout_choice: int, seed: int) -> None:
    # Each memory order decides which sums are pairwise and which axis a
    # Frobenius sum walks first: C, transposed, reversed and strided views.
    x = random_array(np.random.default_rng(seed), shape, dtype)
    x = [x, x.transpose(2, 0, 1).copy().transpose(1, 2, 0), x[::-1, :, ::2], layout(x, 2)][layout_choice]
    assert_linalg(jit.matrix_norms_of_stacks(x), py.matrix_norms_of_stacks(x))
    m = x[0]
    assert_linalg(jit.matrix_norm_of_two_axes(m), py.matrix_norm_of_two_axes(m))
    assert_linalg(jit.norms_keeping_dims(m), py.norms_keeping_dims(m))


def test_norm_axis_errors_are_numpys() -> None:
    def bad_axis(x):
        return np.linalg.norm(x, axis=2)

    def bad_order(x):
        return np.linalg.norm(x, "fro", axis=0)

    with pytest.raises(plait.TypingError, match="axis 2 is out of bounds for array of dimension 2"):
        plait.jit(bad_axis)(np.ones((2, 2)))
    with pytest.raises(plait.TypingError, match="Invalid norm order 'fro' for vectors"):
        plait.jit(bad_order)(np.ones((2, 2)))

    def duplicate_axes(x):
        return np.linalg.norm(x, axis=(1, -1))

    def vector_order_of_matrices(x):
        return np.linalg.norm(x, 3, axis=(0, 1))

    for fn, message in ((duplicate_axes, "Duplicate axes given."),
                        (vector_order_of_matrices, "Invalid norm order for matrices.")):
        with pytest.raises(ValueError, match=message):
            fn(np.ones((2, 2)))
        with pytest.raises(plait.TypingError, match=message):
            plait.jit(fn)(np.ones((2, 2)))
    for empty in (np.zeros((3, 0)), np.zeros((0, 3))):
        try:
            expected = py.norms_along_axes(empty)
        except ValueError as error:
            with pytest.raises(ValueError, match=str(error)):
                jit.norms_along_axes(empty)
        else:
            assert_linalg(jit.norms_along_axes(empty), expected)


def test_products_and_solves_run_detached_in_threads() -> None:
    # Two threads meet inside compiled code between a product and a solve
    # (possible only with the GIL released), and both get NumPy's results.
    barrier = unique_barrier_id()
    rng = np.random.default_rng(4)
    mats = [rng.standard_normal((40, 40)) + 40 * np.eye(40) for _ in range(2)]
    rhs = [rng.standard_normal((40, 3)) for _ in range(2)]
    results = run_in_threads(2, lambda i: jit.product_then_meet(mats[i], rhs[i], barrier))
    for i, (met, x) in enumerate(results):
        assert met is True
        assert_product(x, np.linalg.solve(mats[i], mats[i] @ rhs[i]))


def test_products_and_solves_in_loops_run_in_constant_memory() -> None:
    from conftest import rss_kib

    rng = np.random.default_rng(8)
    a = rng.standard_normal((20, 20)) + 20 * np.eye(20)
    b, x = rng.standard_normal(20), rng.standard_normal(20)
    jit.power_iteration(a, x, 10), jit.solve_many(a, b, 10)  # compiled, warmed
    before = rss_kib()
    # 20,000 steps of new arrays (products, solutions, inverses): tens of
    # megabytes if any were kept.
    assert_product(jit.power_iteration(a, x, 20_000), py.power_iteration(a, x, 20_000))
    assert_linalg(jit.solve_many(a, b, 5_000), py.solve_many(a, b, 5_000))
    assert rss_kib() - before < 8 * 1024
