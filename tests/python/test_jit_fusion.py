"""Fusion of whole-array expressions (plait-fuse-elementwise): the same
functions run by NumPy and compiled, with bit-identical results (fusion
computes each element exactly as the unfused loops did), NumPy's broadcast
errors, and the cases where fusing would change what a program sees: an
input written, or changed by a call, between two operations."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_fusion as py
from jit_support import assert_same_effects, jitted_copies, outcome

jit = jitted_copies(py)
SETTINGS = settings(max_examples=40, deadline=None)

finite = st.floats(-1e6, 1e6, allow_subnormal=True, width=64)
any_float = st.floats(allow_nan=True, allow_infinity=True)


def assert_bits(expected, got) -> None:
    """Same dtype, shape and bits (NaNs where NaNs are)."""
    expected, got = np.asarray(expected), np.asarray(got)
    assert (expected.dtype, expected.shape) == (got.dtype, got.shape)
    if expected.dtype.kind in "fc":
        nan = np.isnan(expected)
        assert np.array_equal(nan, np.isnan(got))
        expected, got = np.where(nan, 0, expected), np.where(nan, 0, got)
    assert np.ascontiguousarray(expected).tobytes() == np.ascontiguousarray(got).tobytes()


def same_bits(name: str, *args) -> None:
    expected = outcome(getattr(py, name), *[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    got = outcome(getattr(jit, name), *[np.copy(a) if isinstance(a, np.ndarray) else a for a in args])
    if expected[0] == "raised":
        assert got == expected
        return
    assert got[0] == "value", got
    with np.errstate(all="ignore"):
        assert_bits(getattr(py, name)(*args), getattr(jit, name)(*args))


@given(a=hnp.arrays(np.float64, st.integers(1, 40), elements=any_float),
       b=hnp.arrays(np.float64, st.integers(1, 40), elements=any_float))
@SETTINGS
def test_chains_match_numpy_bit_for_bit(a, b) -> None:
    with np.errstate(all="ignore"):
        same_bits("rosenbrock_terms", a, b)  # shapes that do not broadcast raise NumPy's error
        same_bits("broadcast_chain", a, b)
        same_bits("rosenbrock", a)
        if a.shape == b.shape:
            same_bits("squared_distance", a, b)


@given(dtype=st.sampled_from([np.float32, np.int64, np.int32, np.uint8]),
       n=st.integers(1, 30), data=st.data())
@SETTINGS
def test_other_dtypes(dtype, n, data) -> None:
    a = data.draw(hnp.arrays(dtype, n))
    b = data.draw(hnp.arrays(dtype, n))
    with np.errstate(all="ignore"):
        same_bits("rosenbrock_terms", a, b)
        same_bits("comparisons", a, b)
        if np.dtype(dtype).kind in "iu":
            same_bits("int_chain", a, b)


@given(x=hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=12), elements=finite),
       y=hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, max_side=6), elements=finite))
@SETTINGS
def test_reductions_over_fused_expressions(x, y) -> None:
    same_bits("row_norms", x)
    # NumPy's float64 exp is its own SIMD code on CPUs with AVX-512, the C
    # library's in plait: they may differ in the last bit, which the sum and
    # the division carry to a few ulp (1e-15 is about 4.5).
    np.testing.assert_allclose(jit.softmax(x), py.softmax(x), rtol=1e-15, atol=0)
    same_bits("transposed_chain", x)
    same_bits("transposed_chain", np.asfortranarray(x))
    same_bits("pairwise_distances", x[:, :3], y[:, :3])


def test_fortran_and_strided_inputs() -> None:
    x = np.arange(60.0).reshape(6, 10)
    same_bits("row_norms", np.asfortranarray(x))
    same_bits("row_norms", x[::2, ::3])
    same_bits("rosenbrock_terms", x[1, ::-1], x[2, ::2].repeat(2))


def test_a_chain_is_one_loop() -> None:
    # One allocation for the result, none for the three temporaries NumPy
    # makes; a sum of a 1-D expression allocates nothing (it sums elements
    # as it computes them, in NumPy's pairwise order).
    a = np.linspace(0.0, 1.0, 9)
    jit.rosenbrock_terms(a, a)
    text = jit.rosenbrock_terms.inspect(stage="optimized-plait")
    assert text.count("memref.alloc(") == 1, text
    for name in ("squared_distance", "rosenbrock"):
        fn = getattr(jit, name)
        fn(a, a) if name == "squared_distance" else fn(a)
        text = fn.inspect(stage="optimized-plait")
        assert text.count("memref.alloc(") == 0 and "_pairwise_sum_" in text, text


@pytest.mark.parametrize("name", ["written_between", "called_between", "reused_temporary"])
def test_inputs_changed_between_operations_are_seen_as_python_sees_them(name: str) -> None:
    a = np.linspace(-2.0, 3.0, 7)
    b = np.linspace(1.0, 0.5, 7)
    assert_same_effects(getattr(py, name), getattr(jit, name), a, b)


def test_broadcast_errors_inside_a_chain() -> None:
    a, b = np.ones(5), np.ones(7)
    expected = outcome(py.rosenbrock_terms, a, b)
    assert expected[0] == "raised" and expected[1] is ValueError
    assert outcome(jit.rosenbrock_terms, a, b) == expected


def test_results_stay_correct_when_large_blocks_are_reused() -> None:
    # Large temporaries and results go back to a small shelf and come out
    # again: results that NumPy still holds must not be handed out twice.
    x = np.linspace(0.0, 1.0, 400_000)
    kept = [jit.rosenbrock_terms(x * (k + 1), x) for k in range(12)]
    for k, result in enumerate(kept):
        assert_bits(py.rosenbrock_terms(x * (k + 1), x), result)


SPECIAL = [-0.0, 0.0, -np.inf, np.inf, np.nan, 2.0, 3.0, -2.5, 1e-310, 7e200, -7e-200, 0.1]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("e", [0.5, 2, -1, 2.0, 3, -1.0, 0.0, 1.0, True, np.float64(0.5), np.float32(2.0)])
def test_powers_by_python_scalars_are_numpys_fast_paths(dtype, e) -> None:
    # NumPy's power loop computes ** -1, 0, 0.5, 1 and 2 of one exponent as
    # 1/x, 1, sqrt (-0.0 stays -0.0, -inf is nan), x and x*x; float16 has
    # `**`'s fast_scalar_power (Python -1, 2 and 0.5) only.
    with np.errstate(all="ignore"):
        x = np.array(SPECIAL).astype(dtype)
        same_bits("power", x, e)
        same_bits("constant_powers", x)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.float16, np.float32, np.float64,
                                   np.bool_, np.complex64])
@pytest.mark.parametrize("source", [np.complex128, np.complex64, np.float64, np.int32, np.bool_])
def test_astype_fuses_and_casts_as_numpy(dtype, source) -> None:
    # Complex to a real dtype keeps the real part (NumPy warns); these
    # raised an internal error, and complex64 to bool built invalid MLIR.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        x = np.array([1 + 2j, -3.5 - 0.5j, 0j, 100.25 + 0j, -0.0 + 1j]).astype(source)
        same_bits("cast_then_scale", x, dtype)
    same_bits("cast_of_chain", x.real.astype(np.float64))


def test_large_results_from_many_threads() -> None:
    # Threads allocate, return and free large arrays at once: blocks pass
    # between them through the shared shelf, and none may be handed out
    # while a result still holds it.
    from conftest import run_in_threads

    x = np.linspace(0.0, 1.0, 300_000)
    expected = [py.rosenbrock_terms(x * (k + 1), x) for k in range(4)]

    def body(k: int) -> None:
        held = []
        for round_ in range(6):
            held.append(jit.rosenbrock_terms(x * (k + 1), x))
            if round_ % 2:
                held.pop(0)  # freed here, perhaps reused by another thread
        for result in held:
            assert_bits(expected[k], result)

    run_in_threads(4, body)


@given(a=hnp.arrays(np.float64, st.integers(1, 30), elements=finite))
@SETTINGS
def test_stores_of_new_arrays_into_overlapping_slices(a) -> None:
    assert_same_effects(py.shifted_store, jit.shifted_store, a)


lengths = st.one_of(st.integers(0, 300), st.sampled_from([7, 8, 9, 127, 128, 129, 255, 256, 257, 1000, 9001]))


@given(n=lengths, data=st.data())
@SETTINGS
def test_sums_of_expressions_are_numpys_pairwise_sums(n, data) -> None:
    # Summed as computed, with no array in between: the same bits as
    # NumPy's pairwise sum of the array it makes.
    a = data.draw(hnp.arrays(np.float64, n, elements=any_float))
    b = data.draw(st.one_of(hnp.arrays(np.float64, n, elements=finite),
                            hnp.arrays(np.float64, 1, elements=finite)))  # one element: broadcast
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the mean of nothing
        same_bits("sum_of_expression", a, b)
        same_bits("mean_of_expression", a, b)
        same_bits("sum_of_negative_zeros", a)
        same_bits("sum_of_strided", a)


layouts = st.sampled_from(["C", "F", "every other column", "transposed"])


def laid_out(values: np.ndarray, layout: str) -> np.ndarray:
    """`values` (n, k) in another memory layout, same elements."""
    if layout == "F":
        return np.asfortranarray(values)
    if layout == "every other column":
        spread = np.zeros((values.shape[0], 2 * values.shape[1]))
        spread[:, ::2] = values
        return spread[:, ::2]
    if layout == "transposed":
        return np.ascontiguousarray(values.T).T
    return values


@given(n=st.integers(1, 12), k=st.integers(1, 12), layout=layouts, data=st.data())
@SETTINGS
def test_broadcast_reads_match_numpy(n, k, layout, data) -> None:
    # Rows of lower rank, columns that repeat for certain, inputs of any
    # layout; a row of one element (repeating only at run time) and a last
    # axis of one element take the general loop or the fast one.
    x = laid_out(data.draw(hnp.arrays(np.float64, (n, k), elements=any_float)), layout)
    v = data.draw(hnp.arrays(np.float64, n, elements=any_float))
    w = data.draw(hnp.arrays(np.float64, data.draw(st.sampled_from([k, 1])), elements=any_float))
    with np.errstate(all="ignore"):
        assert_bits(py.broadcast_reads(x, v, w), jit.broadcast_reads(x, v, w))


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16, np.bool_])
@pytest.mark.parametrize("e", [0.5, -1.0, 2.0, 2, 3.0])
def test_int_arrays_to_float_powers_take_the_float_loops_fast_paths(dtype, e) -> None:
    # An int array ** a float computes in NumPy's float64 loop, whose fast
    # paths apply (sqrt of 655927 differs from pow's in the last bit).
    if dtype is np.bool_ and isinstance(e, int):
        pytest.skip("bool ** int is int8 in NumPy (its power loops start at int8), int64 in plait")
    x = np.array([0, 1, 2, 3, 100, 655927 % 65536, 127]).astype(dtype)
    if dtype is not np.bool_ and np.dtype(dtype).itemsize >= 4:
        x[-1] = 655927
    with np.errstate(all="ignore"):
        same_bits("power", x, e)
