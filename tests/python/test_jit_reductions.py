"""Reductions with NumPy's keywords (axis tuples, keepdims, dtype, ddof),
std/var, cumsum/cumprod and argmin/argmax/any/all along axes, compared with
NumPy bit for bit on arrays of every layout."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_reductions as py
import plait
from jit_support import assert_same, jitted_copies

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

jit = jitted_copies(py)


def cubes(dtype: Any, min_side: int = 1) -> st.SearchStrategy[np.ndarray]:
    if np.dtype(dtype).kind == "f":
        # No -0.0: which of -0.0 and 0.0 NumPy's SIMD min/max keeps is not
        # specified (signed zeros in sums are tested in test_jit_arrays).
        elements = st.floats(-1e6, 1e6, width=np.dtype(dtype).itemsize * 8).map(lambda x: x + 0.0)
    elif np.dtype(dtype).kind == "b":
        elements = st.booleans()
    else:
        info = np.iinfo(dtype)
        elements = st.integers(max(info.min, -100), min(info.max, 100))
    return hnp.arrays(dtype, hnp.array_shapes(min_dims=3, max_dims=3, min_side=min_side, max_side=11), elements=elements)


def layouts(a: np.ndarray) -> list[np.ndarray]:
    """C order, Fortran order, and strided views (reversed, every other, transposed)."""
    return [a, np.asfortranarray(a), a[:, ::-1], a[::2, :, 1:], a.transpose(1, 0, 2)]


@pytest.mark.parametrize("fn", ["sums", "extremes", "means", "variances", "accumulations", "positions", "truths", "softmax"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int16, np.uint8])
@given(data=st.data())
@SETTINGS
def test_reductions_along_axes_match_numpy(fn: str, dtype: Any, data: st.DataObject) -> None:
    a = data.draw(cubes(dtype))
    for view in layouts(a):
        with np.errstate(all="ignore"):
            in_c_order = [abs(s) for s in view.strides] == sorted((abs(s) for s in view.strides), reverse=True)
            mixes_layouts = (fn == "variances" and not (view.flags.f_contiguous or in_c_order)) or (
                fn == "softmax" and not in_c_order
            )
            casts_float32 = fn == "means" and dtype == np.float32
            if mixes_layouts or casts_float32:
                # NumPy gives `x - m` (an array and a broadcast reduction of
                # it) the array's memory order; plait's is C order unless
                # every operand is Fortran. And NumPy casts float32 to float64
                # for dtype= in buffers whose order plait does not follow. So
                # sums may differ in the last bit (docs/design/reductions.md).
                expected, got = getattr(py, fn)(view), getattr(jit, fn)(view)
                for e, g in zip(expected if isinstance(expected, tuple) else [expected], got if isinstance(got, tuple) else [got]):
                    np.testing.assert_allclose(g, e, rtol=1e-12 if view.dtype == np.float64 else 1e-5, atol=0)
                continue
            assert_same(getattr(py, fn), getattr(jit, fn), view)


@given(
    a=hnp.arrays(
        np.float64,
        st.tuples(st.integers(1, 4), st.one_of(st.integers(0, 12), st.integers(120, 300))),
        elements=st.one_of(st.floats(-1e300, 1e300), st.sampled_from([0.0, -0.0, 1e-300, -1e16, 1.0, np.inf, -np.inf, np.nan])),
    )
)
@SETTINGS
def test_sums_of_short_and_long_lines_match_numpy_bit_for_bit(a: np.ndarray) -> None:
    # Lines of fewer than 8 are added in order from -0.0, longer ones
    # pairwise in blocks of 128; signed zeros, infinities and NaNs as NumPy.
    with np.errstate(all="ignore"):
        assert_same(py.line_sums, jit.line_sums, a)
        assert_same(py.line_sums, jit.line_sums, a[:, ::-1])  # strided lines: the runtime's path


def sequential_extreme(values: np.ndarray, is_max: bool) -> Any:
    """np.max/np.min as one loop in order: NaN from either side (the first
    NaN stays), a tie (0.0 and -0.0) goes to the later element."""
    r = values[0]
    for x in values:
        if not ((r > x if is_max else r < x) or r != r):
            r = x
    return r


def bits(x: Any) -> bytes:
    return np.asarray(x).tobytes()


#: NaNs with payloads of their own, signed zeros and infinities.
SPECIAL_FLOATS = [np.nan, -np.nan, 0.0, -0.0, np.inf, -np.inf, 1.0, -1.0]
PAYLOAD_NANS = [np.frombuffer(np.array([0x7FF8000000000000 | k], dtype=np.uint64).tobytes(), dtype=np.float64)[0] for k in (1, 2, 3)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@given(data=st.data())
@SETTINGS
def test_extremes_of_lines_are_the_sequential_loops_bit_for_bit(dtype: Any, data: st.DataObject) -> None:
    # Eight vectorised lanes, then the exact loop when the result is NaN or
    # a zero: the same bits as one loop in order, NaN payloads included.
    n = data.draw(st.one_of(st.integers(1, 20), st.integers(60, 300)))
    pool = data.draw(st.sampled_from(["specials", "zeros", "mixed"]))
    if pool == "zeros":
        elements = st.sampled_from([0.0, -0.0, -1.0])
    elif pool == "specials":
        elements = st.sampled_from(SPECIAL_FLOATS + PAYLOAD_NANS)
    else:
        elements = st.one_of(st.floats(-1e30, 1e30).map(lambda x: float(np.float32(x))), st.sampled_from(SPECIAL_FLOATS + PAYLOAD_NANS))
    a = np.array(data.draw(st.lists(elements, min_size=n, max_size=n)), dtype=np.float64).astype(dtype)
    got = jit.line_extremes(a)
    expected = [sequential_extreme(a, True), sequential_extreme(a, False), sequential_extreme(a, True), sequential_extreme(a, False)]
    assert [bits(g) for g in got] == [bits(e) for e in expected], (a, got, expected)
    assert all(type(g) is type(e) for g, e in zip(got, py.line_extremes(a)))
    rows = np.stack([a, a[::-1]])
    got_rows = jit.row_extremes(rows)
    assert bits(got_rows[0]) == bits(np.array([sequential_extreme(r, True) for r in rows], dtype=dtype))
    assert bits(got_rows[1]) == bits(np.array([[sequential_extreme(r, False)] for r in rows], dtype=dtype))


@given(a=cubes(np.bool_))
@SETTINGS
def test_reductions_of_bool_arrays(a: np.ndarray) -> None:
    for fn in ("sums", "truths", "accumulations", "positions", "means"):
        assert_same(getattr(py, fn), getattr(jit, fn), a)


@given(a=cubes(np.float64), ddof=st.integers(-2, 30))
@SETTINGS
def test_ddof_is_a_run_time_int(a: np.ndarray, ddof: int) -> None:
    with np.errstate(all="ignore"):
        assert_same(py.variances_with_ddof, jit.variances_with_ddof, a, ddof)


@given(a=cubes(np.int64))
@SETTINGS
def test_dtype_keyword_casts_like_numpy(a: np.ndarray) -> None:
    assert_same(py.narrow_sums, jit.narrow_sums, a)


@given(data=st.data())
@SETTINGS
def test_normalising_columns_in_place(data: st.DataObject) -> None:
    m = data.draw(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1), elements=st.floats(-1e3, 1e3)))
    expected, got = m.copy(), m.copy()
    with np.errstate(all="ignore"):
        py.normalise_columns(expected)
    jit.normalise_columns(got)
    np.testing.assert_array_equal(expected, got)


def test_empty_reductions_raise_numpys_error() -> None:
    a = np.zeros((0, 2, 3))
    assert_same(py.empty_maximum, jit.empty_maximum, a)
    assert_same(py.sums, jit.sums, a)


@pytest.mark.parametrize(
    "fn, args, error, message",
    [
        ("bad_axis", (np.ones((2, 2, 2)),), plait.TypingError, "axis 3 is out of bounds for array of dimension 3"),
        ("duplicate_axis", (np.ones((2, 2, 2)),), plait.TypingError, "duplicate value in 'axis'"),
        ("tuple_axis_for_argmax", (np.ones((2, 2)),), plait.TypingError, "'tuple' object cannot be interpreted as an integer"),
        ("unknown_keyword", (np.ones(2),), plait.TypingError, "np.sum\\(\\) got an unexpected keyword argument 'axes'"),
        ("dtype_for_max", (np.ones(2),), plait.TypingError, "unexpected keyword argument 'dtype'"),
        ("dynamic_keepdims", (np.ones(2), True), plait.UnsupportedError, "keepdims must be True or False"),
        ("out_argument", (np.ones(2), np.ones(1)), plait.UnsupportedError, "argument 'out' is not supported"),
        ("empty_axis_tuple", (np.ones(2),), plait.UnsupportedError, "axis=\\(\\) is not supported"),
    ],
)
def test_bad_reduction_arguments_are_clear_errors(fn: str, args: tuple[Any, ...], error: type, message: str) -> None:
    with pytest.raises(error, match=message) as raised:
        plait.jit(getattr(py, fn))(*args)
    assert "jit_reductions.py" in str(raised.value)


def test_new_arrays_are_not_taken_for_views_of_reversed_arguments() -> None:
    # A reversed view's first element is not its lowest address: the
    # dispatcher once took a new result allocated just past the argument's
    # memory for a view of the argument, left it to the call's arena, and
    # returned freed memory. Many sizes make such neighbours likely.
    rng = np.random.default_rng(7)
    for n in range(1, 120):
        a = rng.random((2, n, 3))
        view = a[:, ::-1]
        for _ in range(3):
            expected = py.accumulations(view)
            got = jit.accumulations(view)
            for e, g in zip(expected, got):
                np.testing.assert_array_equal(e, g)
