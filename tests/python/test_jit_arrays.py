"""NumPy arrays in @plait.jit, checked against the same functions run by
CPython on the same arrays: values, in-place writes and exceptions."""

from __future__ import annotations

import array
import gc
import re
import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_arrays as py
import plait
from conftest import rss_kib, run_in_threads
from jit_support import assert_same, assert_same_effects, jitted_copies
from plait.testing import unique_barrier_id

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32, np.bool_]


jit = jitted_copies(py)


def layouts(a: np.ndarray) -> list[np.ndarray]:
    """The same data as C-contiguous, Fortran-ordered, and strided views."""
    views = [a, np.asfortranarray(a)]
    if a.ndim >= 1 and a.shape[0] > 1:
        views.append(a[::2])
        views.append(a[::-1])
    if a.ndim == 2:
        views.append(a.T)
    return views


def arrays(dtype: Any, min_dims: int = 1, max_dims: int = 1, min_side: int = 0) -> st.SearchStrategy[np.ndarray]:
    elements = None
    if np.dtype(dtype).kind == "f":
        bound = min(1e6, float(np.finfo(dtype).max))
        elements = st.floats(-bound, bound, width=np.dtype(dtype).itemsize * 8)
    elif np.dtype(dtype) == np.int64:
        elements = st.integers(-(2**40), 2**40)  # sums stay within int64
    return hnp.arrays(dtype, hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=6), elements=elements)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@given(data=st.data())
@SETTINGS
def test_float_reductions_over_every_layout(dtype: Any, data: st.DataObject) -> None:
    a = data.draw(arrays(dtype))
    for view in layouts(a):
        assert_same(py.total, jit.total, view)
    m = data.draw(arrays(dtype, 2, 2))
    for view in layouts(m):
        assert_same(py.total2d, jit.total2d, view)
    t = data.draw(arrays(dtype, 3, 3))
    assert_same(py.total3d, jit.total3d, t)
    assert_same(py.total3d, jit.total3d, t.transpose(2, 0, 1))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.int8, np.uint8])
@given(data=st.data())
@SETTINGS
def test_integer_arrays(dtype: Any, data: st.DataObject) -> None:
    a = data.draw(arrays(dtype))
    for view in layouts(a):
        assert_same(py.int_total, jit.int_total, view)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
@given(data=st.data())
@SETTINGS
def test_for_row_in_matrix(dtype: Any, data: st.DataObject) -> None:
    m = data.draw(arrays(dtype, 2, 2))
    for view in layouts(m):
        expected, got = np.zeros(view.shape[0]), np.zeros(view.shape[0])
        assert_same(lambda v: py.row_totals(v, expected), lambda v: jit.row_totals(v, got), view)
        np.testing.assert_array_equal(expected, got)
    f = m.astype(np.float64)
    for view in layouts(f):
        mine, theirs = view.copy(), view.copy()
        py.normalise_rows(theirs)
        jit.normalise_rows(mine)
        np.testing.assert_array_equal(mine, theirs)
    t = data.draw(arrays(np.float64, 3, 3))
    # total = 0.0, then += np.sum(...): one type, numpy.float64 (unified).
    assert_same(py.planes, jit.planes, t, unified=True)
    assert_same(py.planes, jit.planes, t.transpose(1, 2, 0), unified=True)


@given(a=arrays(np.bool_))
@SETTINGS
def test_bool_arrays(a: np.ndarray) -> None:
    assert_same(py.count_true, jit.count_true, a)


@given(m=arrays(np.float64, 1, 4))
@SETTINGS
def test_shape_attributes(m: np.ndarray) -> None:
    if m.shape[0] == 0:
        return
    expected = (m.ndim, m.size, m.shape, len(m))
    assert jit.describe(m) == expected


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
@SETTINGS
def test_indexing_and_bounds_match_numpy(dtype: Any, data: st.DataObject) -> None:
    a = data.draw(arrays(dtype, min_side=0))
    i = data.draw(st.integers(-8, 8))
    # Elements come back as the Python number of their kind (NumPy scalars
    # are compared by value).
    for view in layouts(a):
        assert_same(py.load, jit.load, view, i)
    m = data.draw(arrays(dtype, 2, 2))
    j = data.draw(st.integers(-7, 7))
    assert_same(py.load2, jit.load2, m, i, j)


@pytest.mark.parametrize("dtype", DTYPES)
@given(value=st.one_of(st.integers(-300, 300), st.floats(allow_nan=True, allow_infinity=True), st.booleans()), index=st.integers(-4, 4))
@SETTINGS
def test_stores_convert_like_numpy(dtype: Any, value: Any, index: int) -> None:
    expected = np.zeros(3, dtype)
    got = np.zeros(3, dtype)
    outcome_py = _outcome(py.store, expected, index, value)
    outcome_jit = _outcome(jit.store, got, index, value)
    if outcome_py[0] == "raised" and outcome_py[1] is RuntimeWarning:
        return  # NumPy warns where compiled code silently casts
    assert outcome_py[:2] == outcome_jit[:2], (dtype, value, index, outcome_py, outcome_jit)
    if outcome_py[0] == "raised":
        assert outcome_py[2] == outcome_jit[2]
    np.testing.assert_array_equal(got, expected)


def _outcome(fn: Any, *args: Any) -> tuple[Any, ...]:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            return ("value", fn(*args))
        except Exception as error:  # noqa: BLE001
            return ("raised", type(error), str(error))


@given(n=st.integers(0, 50), start=st.floats(-100, 100), step=st.floats(-10, 10))
@SETTINGS
def test_writes_in_place(n: int, start: float, step: float) -> None:
    expected, got = np.zeros(n), np.zeros(n)
    py.fill(expected, start, step)
    jit.fill(got, start, step)
    np.testing.assert_array_equal(got, expected)
    backwards = np.zeros(2 * n)[::-2]
    jit.fill(backwards, start, step)
    np.testing.assert_array_equal(backwards, expected)
    ints = np.arange(n, dtype=np.int32)
    jit.scale_in_place(ints, 3)
    np.testing.assert_array_equal(ints, np.arange(n, dtype=np.int32) * 3)


def test_kernels_and_calls_between_jitted_functions() -> None:
    x = np.linspace(0, 1, 101)
    y = np.linspace(1, 2, 101)
    out = np.empty(101)
    jit.saxpy(2.5, x, y, out)
    expected = np.empty(101)
    py.saxpy(2.5, x, y, expected)
    np.testing.assert_array_equal(out, expected)
    assert jit.dot(x, y) == py.dot(x, y)
    assert jit.calls_helper(x) == py.calls_helper(x)
    z = np.zeros(4)
    jit.writes_through_helper(z)
    np.testing.assert_array_equal(z, [1.0, 1.5, 2.0, 2.5])


def test_buffer_protocol_objects_and_read_only_arrays() -> None:
    values = array.array("d", [1.0, 2.0, 3.5])
    assert jit.total(values) == 6.5
    assert jit.total(memoryview(values)) == 6.5
    read_only = np.arange(4.0)
    read_only.setflags(write=False)
    assert jit.reads_only(read_only) == 3.0
    assert jit.calls_helper(read_only) == 14.0 + 3.0, "callees that only read accept read-only arrays"
    with pytest.raises(ValueError, match=r"argument 1 \('a'\) is read-only, but store\(\) writes to it"):
        jit.store(read_only, 0, 1.0)
    with pytest.raises(ValueError, match="read-only"):
        jit.writes_through_helper(read_only)
    np.testing.assert_array_equal(read_only, np.arange(4.0))


def test_unsupported_arrays_and_array_code() -> None:
    with pytest.raises(TypeError, match="not supported"):
        jit.total(np.zeros(3, dtype=np.longdouble))
    with pytest.raises(TypeError, match="not supported"):
        jit.total(np.zeros(3, dtype=np.clongdouble))
    assert jit.total([1.0, 2.0]) == py.total([1.0, 2.0]) == 3.0, "a list of floats indexes as an array"
    assert jit.load(np.arange(3.0), np.int64(1)) == 1.0, "0-d NumPy scalars are scalars"


def test_boundscheck_false_removes_the_checks() -> None:
    unchecked = plait.jit(boundscheck=False)(py.load)
    a = np.arange(8.0)
    assert unchecked(a[:4], 5) == 5.0  # reads past the view, inside the buffer
    assert "out of bounds" not in unchecked.inspect(stage="llvm")


def test_array_signatures() -> None:
    f = plait.jit(["float64(float64[:])", "float64(float32[:])"])(py.total)
    assert f(np.arange(4.0)) == 6.0
    assert f(np.arange(4, dtype=np.float32)) == 6.0
    assert f.signatures == ["float64(float64[:])", "float64(float32[:])"]
    with pytest.raises(TypeError, match="no compiled signature"):
        f(np.arange(4, dtype=np.int64))
    g = plait.jit("float64(float64[:, ::1])")(py.total2d)
    assert g(np.ones((2, 3))) == py.total2d(np.ones((2, 3)))
    # Fortran order is a layout of its own: float64[::1, :].
    fortran = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    h = plait.jit("float64(float64[::1, :])")(py.total2d)
    assert h(fortran) == py.total2d(fortran)
    assert h.signatures == ["float64(float64[::1, :])"]
    with pytest.raises(TypeError, match="no compiled signature"):
        h(np.ones((2, 3)))


def test_layouts_are_specialised_separately() -> None:
    f = plait.jit(py.total2d)
    m = np.arange(12.0).reshape(3, 4)
    for view in (m, np.asfortranarray(m), m[:, ::2]):
        assert f(view) == py.total2d(view)
    assert f.signatures == [
        "float(float64[:, ::1])",
        "float(float64[::1, :])",
        "float(float64[:, :])",
    ]
    assert "strided<[1, ?]" in f.inspect(signature="float(float64[::1, :])", stage="mlir")


def test_array_kernels_run_detached_in_threads() -> None:
    # Two threads inside the same compiled array kernel at once.
    barrier = unique_barrier_id()
    outs = [np.zeros(100), np.zeros(100)]
    assert run_in_threads(2, lambda i: jit.meet_and_fill(outs[i], barrier)) == [True, True]
    for out in outs:
        np.testing.assert_array_equal(out, np.arange(100) * 2.0)
    # Eight threads on private arrays agree with a sequential run.
    data = [np.random.default_rng(i).random(1000) for i in range(8)]
    sequential = [py.dot(d, d) for d in data]
    assert run_in_threads(8, lambda i: jit.dot(data[i], data[i])) == sequential



def test_array_calls_release_their_buffers() -> None:
    a = np.arange(64.0)
    out = np.zeros(64)
    references = sys.getrefcount(a), sys.getrefcount(out)
    jit.saxpy(1.0, a, a, out)
    gc.collect()
    before = rss_kib()
    for _ in range(100_000):
        jit.saxpy(1.0, a, a, out)
    gc.collect()
    assert (sys.getrefcount(a), sys.getrefcount(out)) == references, "buffers stay pinned"
    assert rss_kib() - before < 16 * 1024


def test_creating_and_returning_arrays() -> None:
    for n in (0, 1, 7):
        np.testing.assert_array_equal(jit.make_scaled(n, 0.5), py.make_scaled(n, 0.5))
    grid = jit.make_grid(3, 4)
    assert grid.dtype == np.int32 and grid.shape == (3, 4) and grid.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(grid, py.make_grid(3, 4))
    for got, expected in zip(jit.make_variants(3), py.make_variants(3)):
        assert got.dtype == expected.dtype, (got, expected)
        # The same element type, not one of equal size (numpy.longlong is
        # not numpy.int64).
        assert got.dtype.char == expected.dtype.char and type(got.flat[0]) is type(expected.flat[0]), (got, expected)
        assert got.flags.writeable and got.flags.aligned
        np.testing.assert_array_equal(got, expected)
    a = np.arange(5, dtype=np.int16)
    np.testing.assert_array_equal(jit.like(a), py.like(a))
    assert jit.like(a).dtype == np.int16


@given(start=st.integers(-20, 20), stop=st.integers(-20, 20), step=st.integers(-5, 5).filter(bool))
@SETTINGS
def test_arange_matches_numpy(start: int, stop: int, step: int) -> None:
    np.testing.assert_array_equal(jit.ranges(start, stop, step), np.arange(start, stop, step))
    fstart, fstep = start / 3, step / 4
    np.testing.assert_array_equal(jit.ranges(fstart, stop, fstep), np.arange(fstart, stop, fstep))


def test_returned_views_and_ownership() -> None:
    x = np.arange(4.0)
    y = jit.same(x)
    y[0] = 9.0
    assert x[0] == 9.0, "returning an argument returns a view of it"
    del x
    gc.collect()
    assert y[0] == 9.0, "and keeps it alive"
    first, second = jit.twice(3)
    first[0] = 5.0
    assert second[0] == 5.0, "one allocation returned twice is one array"
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        jit.fails_after_allocating(3)
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        jit.make_scaled(-1, 1.0)


def test_returned_arrays_are_freed() -> None:
    # 100,000 calls that allocate and return: memory is reclaimed when the
    # arrays are dropped, and allocations that are not returned are freed.
    for _ in range(1000):
        jit.make_scaled(1000, 1.0)
    gc.collect()
    before = rss_kib()
    for _ in range(100_000):
        jit.make_scaled(1000, 1.0)
        try:
            jit.fails_after_allocating(100)
        except IndexError:
            pass
    gc.collect()
    growth = rss_kib() - before
    assert growth < 32 * 1024, f"RSS grew by {growth} KiB over 100,000 allocating calls"


def _same_numbers(got: Any, expected: Any) -> bool:
    got, expected = float(got), float(expected)
    return got == expected or (got != got and expected != expected)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_])
@given(data=st.data())
@SETTINGS
def test_reductions_match_numpy(dtype: Any, data: st.DataObject) -> None:
    import warnings

    a = data.draw(arrays(dtype, 1, 3, min_side=1))
    if np.dtype(dtype).kind == "f":
        a = a / 7  # not integers: summation order matters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = (a.sum(), a.min(), a.max(), a.mean(), a.prod())
    got = jit.reductions(a)
    exact = a.flags["C_CONTIGUOUS"] or a.ndim == 1
    for g, e in zip(got, expected):
        if np.dtype(dtype) == np.uint8 and isinstance(g, int):
            # NumPy accumulates uint8 in uint64, compiled code in int64: the
            # same 64 bits (documented).
            assert g % 2**64 == int(e) % 2**64
            continue
        if exact:
            assert _same_numbers(g, e), (a, got, expected)  # NumPy's pairwise sum, bit for bit
        else:
            assert np.isclose(float(g), float(e), rtol=1e-5, equal_nan=True), (a, got, expected)
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        jit.reductions(np.zeros(0, dtype))


def test_dot_and_elementwise_functions() -> None:
    import warnings

    rng = np.random.default_rng(11)
    x, y, v = rng.random((3, 4)), rng.random((4, 2)), rng.random(4)
    np.testing.assert_allclose(jit.dot_of(x, y), x @ y, rtol=1e-12)
    np.testing.assert_allclose(jit.dot_of(x, v), x @ v, rtol=1e-12)
    assert np.isclose(jit.dot_of(v, v), v @ v, rtol=1e-12)
    ints = np.arange(6, dtype=np.int32).reshape(2, 3)
    np.testing.assert_array_equal(jit.dot_of(ints, ints.T.copy()), ints @ ints.T)
    with pytest.raises(ValueError, match="not aligned: 4 \\(dim 1\\) != 3 \\(dim 0\\)"):
        jit.dot_of(x, x)
    a = np.array([-1.0, -0.0, 0.0, 0.25, 4.0, np.inf, np.nan])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = (np.sqrt(a), np.abs(a), np.exp(a), np.log(a), np.sin(a), np.cos(a))
    for got, want in zip(jit.elementwise(a), expected):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True)
    small = np.array([-128, -1, 5], dtype=np.int8)
    assert jit.elementwise(small.astype(np.float32))[0].dtype == np.float32
    np.testing.assert_array_equal(np.abs(small), plait.jit(lambda_free_abs)(small))
    assert jit.scalar_ufuncs(4.0) == (2.0, 4.0, np.exp(4.0))
    root, _, _ = jit.scalar_ufuncs(-1.0)
    assert root != root, "np.sqrt(-1.0) is nan, not an exception"


def lambda_free_abs(a):
    return np.abs(a)


@given(
    a=arrays(np.float64, 1, 1, min_side=0),
    start=st.integers(-12, 12),
    stop=st.integers(-12, 12),
    step=st.integers(-4, 4).filter(bool),
)
@SETTINGS
def test_slices_match_python(a: np.ndarray, start: int, stop: int, step: int) -> None:
    for view in layouts(a):
        assert_same(py.sliced_total, jit.sliced_total, view, start, stop, step)
        assert_same(py.open_slices, jit.open_slices, view)


def test_views_write_through_and_are_returned() -> None:
    m = np.arange(12.0).reshape(3, 4)
    row = jit.row_of(m, 1)
    np.testing.assert_array_equal(row, m[1])
    row[0] = 99.0
    assert m[1, 0] == 99.0, "a returned view shares memory with its argument"
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        jit.row_of(m, 5)
    expected, got = m.copy(), m.copy()
    py.column_times(expected, 2, 10.0)
    jit.column_times(got, 2, 10.0)
    np.testing.assert_array_equal(got, expected)
    read_only = np.arange(4.0).reshape(2, 2)
    read_only.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        jit.column_times(read_only, 0, 2.0)  # writes through a view
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        jit.zero_step(np.arange(3.0))


class DlpackOnly:
    """A tensor from 'another library': DLPack, no buffer protocol."""

    def __init__(self, array: np.ndarray) -> None:
        self._array = array

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self) -> Any:
        return self._array.__dlpack_device__()


def test_dlpack_exporters_are_passed_zero_copy() -> None:
    data = np.arange(6.0)
    tensor = DlpackOnly(data)
    assert jit.total(tensor) == 15.0
    jit.scale_in_place(DlpackOnly(np.arange(3, dtype=np.int32)), 2)
    out = np.zeros(6)
    target = DlpackOnly(out)
    jit.fill(target, 1.0, 1.0)
    np.testing.assert_array_equal(out, [1, 2, 3, 4, 5, 6])  # written through to the exporter's memory
    with pytest.raises(TypeError, match="must be int, float, bool, complex, None, a str, a tuple, a list, a dict, a dtype, a jitted function or an array, not object"):
        jit.total(object())


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.bool_])
def test_slice_assignment_matches_numpy(dtype: Any) -> None:
    for value in (7, 0.0, True):
        expected, got = np.arange(6).astype(dtype), np.arange(6).astype(dtype)
        assert_same(py.fill_slice, jit.fill_slice, expected, value)
        jit.fill_slice(got, value)
        py.fill_slice(expected, value)
        np.testing.assert_array_equal(got, expected)
    source = np.array([10, 20, 30]).astype(dtype)
    expected, got = np.zeros(6, dtype), np.zeros(6, dtype)
    py.copy_into(expected, source)
    jit.copy_into(got, source)
    np.testing.assert_array_equal(got, expected)


def test_slice_assignment_overlap_and_shapes() -> None:
    expected, got = np.arange(6.0), np.arange(6.0)
    py.shift_right(expected)
    jit.shift_right(got)
    np.testing.assert_array_equal(got, expected)  # [0, 0, 1, 2, 3, 4], not all zeros
    m = np.zeros((3, 4))
    jit.set_row(m, 1, np.arange(4.0))
    jit.set_column(m, 2, 9.5)
    expected = np.zeros((3, 4))
    expected[1, :] = np.arange(4.0)
    expected[:, 2] = 9.5
    np.testing.assert_array_equal(m, expected)
    assert_same(py.copy_into, jit.copy_into, np.zeros(6), np.ones(2))  # NumPy's broadcast message
    read_only = np.zeros(4)
    read_only.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        jit.fill_slice(read_only, 1.0)


def test_row_variables_live_inside_their_loop() -> None:
    def last_row_first(m):  # type: ignore[no-untyped-def]
        for row in m:
            pass
        return row[0]

    with pytest.raises(plait.UnsupportedError, match="only inside its loop"):
        plait.jit(last_row_first)(np.ones((2, 2)))


@given(data=st.data())
@SETTINGS
def test_slice_assignment_broadcasts_like_numpy(data: st.DataObject) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    source_shape = data.draw(
        hnp.broadcastable_shapes(shape, min_dims=0, max_dims=len(shape)).filter(
            lambda s: len(s) >= 1 and np.broadcast_shapes(s, shape) == shape
        )
    )
    source = np.arange(float(np.prod(source_shape))).reshape(source_shape) + 1
    for name in ("assign_broadcast", "assign_rows_below_first"):
        expected, got = np.zeros(shape), np.zeros(shape)
        try:
            getattr(py, name)(expected, source)
        except ValueError:  # m[1:] of a different length
            with pytest.raises(ValueError, match="could not broadcast"):
                getattr(jit, name)(got, source)
            continue
        getattr(jit, name)(got, source)
        np.testing.assert_array_equal(expected, got)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int16, np.uint8, np.bool_])
@given(data=st.data())
@SETTINGS
def test_reductions_along_an_axis(dtype: Any, data: st.DataObject) -> None:
    # Bit for bit: pairwise along the axis that is innermost in memory, in
    # order along the others (what NumPy does for C and Fortran arrays).
    m = data.draw(arrays(dtype, 2, 2, min_side=1))
    for view in (m, np.asfortranarray(m)):
        with np.errstate(all="ignore"):
            expected = py.reductions_along_axes(view)
        got = jit.reductions_along_axes(view)
        for e, g in zip(expected, got):
            assert e.dtype == g.dtype and e.shape == g.shape
            np.testing.assert_array_equal(e, g)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(jit.product_along_rows(m), py.product_along_rows(m))


def test_reduction_axis_errors() -> None:
    def bad_axis(m):  # type: ignore[no-untyped-def]
        return np.sum(m, axis=2)

    def dynamic_axis(m, k):  # type: ignore[no-untyped-def]
        return np.sum(m, axis=k)

    with pytest.raises(plait.TypingError, match="axis 2 is out of bounds for array of dimension 2"):
        plait.jit(bad_axis)(np.ones((2, 2)))
    with pytest.raises(plait.UnsupportedError, match="axis must be an integer constant"):
        plait.jit(dynamic_axis)(np.ones((2, 2)), 0)


@given(
    size=st.integers(0, 8),
    start=st.integers(-10, 10),
    stop=st.integers(-10, 10),
    step=st.integers(-3, 3).filter(bool),
    shift=st.integers(-3, 3),
)
@SETTINGS
def test_versioned_loops_raise_where_cpython_does(size: int, start: int, stop: int, step: int, shift: int) -> None:
    # Loops whose accesses are provably in bounds run without checks; any
    # other range (negative indices, past the end) takes the checked copy.
    # (s = 0.0, then s += elements: one type, numpy.float64: unified.)
    a = np.arange(float(size))
    assert_same(py.window_sum, jit.window_sum, a, start, stop, step, shift, unified=True)
    m = np.arange(float(max(size, 1) * 4)).reshape(-1, 4)
    assert_same(py.row_differences, jit.row_differences, m, shift, start, stop, unified=True)
    assert_same(py.sum_until, jit.sum_until, a, stop, float(shift), unified=True)


@given(size=st.integers(0, 7), columns=st.integers(0, 7))
@SETTINGS
def test_indices_a_range_keeps_in_bounds_and_those_just_beyond(size: int, columns: int) -> None:
    # Proven indices run unchecked; one step further, CPython's IndexError
    # (or a negative index's wrap) must still happen, at the same element.
    a = np.arange(1.0, size + 1.0)
    for name in ("stencil_within_the_range", "triangles_within_the_range", "one_past_the_end",
                 "one_before_the_start", "down_from_the_size", "bound_reassigned", "triangle_past_the_diagonal"):
        assert_same(getattr(py, name), getattr(jit, name), a, unified=True)
    m = np.arange(float(size * columns)).reshape(size, columns)
    assert_same(py.other_axis_bound, jit.other_axis_bound, m, unified=True)


def test_in_bounds_loops_vectorise_with_checks_on() -> None:
    u = np.random.default_rng(3).random((40, 30))
    expected, got = np.zeros_like(u), np.zeros_like(u)
    py.laplace(u, expected)
    jit.laplace(u, got)
    np.testing.assert_array_equal(expected, got)
    assert re.search(r"<\d+ x double>", jit.laplace.inspect(stage="llvm")), "the unchecked copy vectorises"


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.int8, np.uint8])
@given(data=st.data())
@SETTINGS
def test_whole_array_arithmetic_matches_numpy(dtype: Any, data: st.DataObject) -> None:
    x = data.draw(arrays(dtype, 2, 2, min_side=1))
    # y broadcasts against x: a row, a column, a scalar-like 1x1, or x's shape.
    shape = data.draw(st.sampled_from([x.shape, x.shape[1:], (x.shape[0], 1), (1, 1)]))
    y = data.draw(hnp.arrays(dtype, shape, elements=hnp.from_dtype(np.dtype(dtype)).filter(lambda v: v == v) if np.dtype(dtype).kind == "f" else None))
    k = data.draw(st.sampled_from([2, 3] if np.dtype(dtype).kind == "u" else [2, 3, -1]))
    with np.errstate(all="ignore"):
        expected = py.array_expression(x, y, k)
        got = jit.array_expression(x, y, k)
        for e, g in zip(expected, got):
            assert e.dtype == g.dtype and e.shape == g.shape
            np.testing.assert_array_equal(e, g)
        if np.dtype(dtype).kind in "iu":
            for e, g in zip(py.integer_array_expression(x, y), jit.integer_array_expression(x, y)):
                assert e.dtype == g.dtype
                np.testing.assert_array_equal(e, g)
        if np.dtype(dtype).kind == "f" or k > 0:
            mine, theirs = x.copy(), x.copy()
            py.scale_and_shift_in_place(theirs, y[..., :1] if y.ndim == 2 else y, k)
            jit.scale_and_shift_in_place(mine, y[..., :1] if y.ndim == 2 else y, k)
            np.testing.assert_array_equal(mine, theirs)


def test_array_arithmetic_errors() -> None:
    with pytest.raises(ValueError, match="could not be broadcast"):
        jit.array_expression(np.ones((2, 3)), np.ones((2, 4)), 1)

    def int_times_float_in_place(x):  # type: ignore[no-untyped-def]
        x += 1.5

    def truth_of_array(x):  # type: ignore[no-untyped-def]
        return not x

    with pytest.raises(plait.TypingError, match="same_kind"):
        plait.jit(int_times_float_in_place)(np.zeros(3, dtype=np.int64))
    with pytest.raises(plait.UnsupportedError, match="truth value of an array"):
        plait.jit(truth_of_array)(np.zeros(3))


def test_temporary_arrays_in_loops_are_freed_per_statement() -> None:
    x = np.ones(100_000)  # 800 KB per temporary
    assert jit.sum_of_temporaries(x, 2) == py.sum_of_temporaries(x, 2)
    before = rss_kib()
    assert jit.sum_of_temporaries(x, 1000) == 300_000_000.0  # 1.6 GB if kept
    assert rss_kib() - before < 64 * 1024


def test_arrays_of_every_kind_of_ndarray_object() -> None:
    # Exact ndarrays take a fast path (their fields, no buffer protocol);
    # subclasses and byte-swapped data take the buffer protocol.
    class Tagged(np.ndarray):
        pass

    a = np.arange(6.0)
    assert jit.total(a) == jit.total(a.view(Tagged)) == py.total(a)
    with pytest.raises(TypeError, match="format '>d'"):
        jit.total(a.astype(">f8"))
    read_only = np.arange(4.0)
    read_only.flags.writeable = False
    assert jit.total(read_only) == 6.0
    with pytest.raises(ValueError, match="read-only"):
        jit.scale_in_place(read_only, 2.0)
    base = np.arange(10.0)
    view = base[2:8:2]
    del base
    assert jit.total(view) == 2.0 + 4.0 + 6.0  # the view keeps its base alive


@given(
    a=hnp.arrays(np.float64, st.integers(0, 12), elements=st.floats(-2, 2)),
    c0=st.one_of(st.integers(-(2**63), 2**63 - 1), st.sampled_from([0, 2**63 - 2, -(2**63) + 1, 2**61, -(2**61)])),
)
@SETTINGS
def test_versioned_counters_overflow_where_int64_would(a: np.ndarray, c0: int) -> None:
    # Compiled ints are int64: OverflowError exactly when some intermediate
    # value of CPython's run leaves the int64 range.
    c, leaves = c0, False
    for x in a:
        c += 3 if x > 0 else -1
        leaves |= not -(2**63) <= c < 2**63
    if leaves:
        with pytest.raises(OverflowError):
            jit.count_and_step(a, c0)
    else:
        assert jit.count_and_step(a, c0) == py.count_and_step(a, c0) == c


def test_augmenting_a_never_assigned_local() -> None:
    assert_same(py.augment_unbound, jit.augment_unbound, 0)
    assert_same(py.augment_unbound, jit.augment_unbound, 3)


def test_review_regressions() -> None:
    # Each of these once compiled wrongly or not at all.
    with pytest.raises(IndexError, match="index 100 is out of bounds"):
        jit.reassigned_loop_variable(np.zeros(5), 3)
    a, b = np.arange(10.0), np.arange(10.0)
    assert_same(py.temporaries_in_branches, jit.temporaries_in_branches, a, b, unified=True)
    assert_same(py.temporaries_in_branches, jit.temporaries_in_branches, a + 6, b, unified=True)
    # The versioning guard computes with wrapping: no error for an empty range.
    assert jit.offset_window(np.zeros(3), 2**63 - 1, 0) == 0.0
    with pytest.raises(OverflowError):
        jit.offset_window(np.zeros(3), 2**63 - 1, 1)
    np.testing.assert_array_equal(jit.fill_local(3), py.fill_local(3))
    with np.errstate(all="ignore"):
        for e, g in zip(py.complex_scale(1 + 2j, np.array([0.0, 2.0])), jit.complex_scale(1 + 2j, np.array([0.0, 2.0]))):
            assert e.dtype == g.dtype
            np.testing.assert_array_equal(e, g)


def test_results_keep_a_fortran_layout() -> None:
    rng = np.random.default_rng(0)
    f = np.asfortranarray(rng.random((5, 7)))
    for e, g in zip(py.layout_of_results(f), jit.layout_of_results(f)):
        assert g.flags.f_contiguous == e.flags.f_contiguous and g.dtype == e.dtype
        np.testing.assert_array_equal(e, g)
    big = rng.standard_normal((300, 200))
    for a in (np.asfortranarray(big), big.T.copy(order="C").T, big):
        row, column = rng.standard_normal(a.shape[1]), rng.standard_normal(a.shape[0])
        for e, g in zip(py.layout_with_broadcast_rows(a, row, column), jit.layout_with_broadcast_rows(a, row, column)):
            assert np.ndim(g) < 2 or (g.flags.f_contiguous, g.flags.c_contiguous) == (e.flags.f_contiguous, e.flags.c_contiguous)
            np.testing.assert_array_equal(e, g)


@given(
    n=st.integers(0, 40),
    k=st.one_of(st.integers(-100, 100), st.integers(-(2**63), 2**63 - 1), st.sampled_from([2**31, 2**40, -(2**62)])),
    t0=st.one_of(st.integers(-1000, 1000), st.integers(-(2**63), 2**63 - 1)),
)
@SETTINGS
def test_bounded_sums_overflow_exactly_where_int64_would(n: int, k: int, t0: int) -> None:
    total, leaves = t0, False
    for i in range(-n, n, 3):
        a, b = i - k, 2 * i + k
        for v in (a, b, a * b, a * b - 7):
            leaves |= not -(2**63) <= v < 2**63
        total -= a * b - 7
        leaves |= not -(2**63) <= total < 2**63
        total += i * i % 5 + (i - k) % 7
        leaves |= not -(2**63) <= total < 2**63
    if leaves:
        with pytest.raises(OverflowError):
            jit.bounded_sums(n, k, t0)
    else:
        assert jit.bounded_sums(n, k, t0) == py.bounded_sums(n, k, t0) == total


@given(
    shapes=st.sampled_from([((3,), (3,)), ((4, 3), (3,)), ((3,), (3, 5)), ((4, 3), (3, 5)), ((0, 3), (3, 2)),
                            ((2, 0), (0, 3)), ((1, 1), (1, 1))]),
    dtype=st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.bool_]),
    seed=st.integers(0, 2**32 - 1),
    transposed=st.booleans(),
)
@SETTINGS
def test_matmul_of_vectors_and_matrices(shapes: Any, dtype: Any, seed: int, transposed: bool) -> None:
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shapes[0]) * 4).astype(dtype)
    b = (rng.standard_normal(shapes[1]) * 4).astype(dtype)
    if transposed and b.ndim == 2:
        b = np.ascontiguousarray(b.T).T  # Fortran-ordered: strided rows
    got = jit.matmul(a, b)
    want = py.matmul(a, b)
    assert np.asarray(got).dtype == np.asarray(want).dtype and np.shape(got) == np.shape(want)
    # The BLAS NumPy calls, called as NumPy calls it (test_jit_linalg.py).
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shapes", [((3,), (2,)), ((2, 3), (2, 3)), ((3,), (2, 3)), ((2, 3), (2,))])
def test_matmul_of_mismatched_shapes_raises_numpys_error(shapes: Any) -> None:
    a, b = np.ones(shapes[0]), np.ones(shapes[1])
    with pytest.raises(ValueError) as expected:
        py.matmul(a, b)
    with pytest.raises(ValueError) as got:
        jit.matmul(a, b)
    assert str(got.value) == str(expected.value)


def test_matmul_results_chain() -> None:
    rng = np.random.default_rng(7)
    a, b, x = rng.standard_normal((5, 4)), rng.standard_normal((4, 6)), rng.standard_normal(6)
    np.testing.assert_allclose(jit.chained_matmul(a, b, x), py.chained_matmul(a, b, x), rtol=1e-12)


@given(
    shape=st.sampled_from([(2, 3), (1, 4), (3, 1), (4, 4)]),
    dtype=st.sampled_from([np.float64, np.float32, np.int64, np.int32]),
    fortran=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
@SETTINGS
def test_array_methods_and_transposes_match_numpy(shape: Any, dtype: Any, fortran: bool, seed: int) -> None:
    a = (np.random.default_rng(seed).standard_normal(shape) * 10).astype(dtype)
    if fortran:
        a = np.asfortranarray(a)
    for name in ("method_reductions", "copies_and_casts", "transposes", "write_through_transpose",
                 "write_row_through_transpose"):
        assert_same_effects(getattr(py, name), getattr(jit, name), a)


def test_writing_through_a_transpose_respects_read_only_arguments() -> None:
    a = np.zeros((2, 3))
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        jit.write_through_transpose(a)


@given(dtype=st.sampled_from([np.float64, np.float32, np.int64, np.int32, np.int8, np.bool_]), n=st.integers(0, 4))
@SETTINGS
def test_dtype_of_an_array_and_np_ndarray_make_arrays(dtype: Any, n: int) -> None:
    assert_same_effects(py.like_by_dtype, jit.like_by_dtype, np.arange(5).astype(dtype), n)


@given(
    size=st.sampled_from([0, 1, 6, 12]),
    layout=st.sampled_from(["C", "F", "strided"]),
    m=st.integers(-2, 12),
    n=st.integers(-2, 12),
)
@SETTINGS
def test_reshape_views_copies_and_errors_match_numpy(size: int, layout: str, m: int, n: int) -> None:
    a = np.arange(float(size * 2))[::2].copy()
    if layout == "F" and size % 2 == 0 and size:
        a = np.asfortranarray(a.reshape(2, -1))
    elif layout == "strided":
        a = np.arange(float(size * 2))[::2]
    # Writes through a view reach the argument; through a copy they do not.
    assert_same_effects(py.reshape_and_write, jit.reshape_and_write, a, m, n)
    if size % 3 == 0 and size:
        assert_same_effects(py.reshape_forms, jit.reshape_forms, a.reshape(-1) if a.ndim > 1 else a, 3)


@given(rows=st.integers(1, 4), columns=st.integers(2, 5), i=st.integers(-3, 3), v=st.floats(-9, 9))
@SETTINGS
def test_new_axes_and_ellipses_in_subscripts(rows: int, columns: int, i: int, v: float) -> None:
    a = np.arange(float(rows * columns)).reshape(rows, columns)
    w = np.arange(float(columns))
    assert_same_effects(py.new_axes_and_ellipses, jit.new_axes_and_ellipses, a, w, i)
    assert_same_effects(py.write_through_new_axes, jit.write_through_new_axes, a, v)


def test_an_int_for_every_axis_with_an_ellipsis_is_refused_clearly() -> None:
    with pytest.raises(plait.UnsupportedError, match="0-d array"):
        plait.jit(py.every_axis_and_ellipsis)(np.arange(3.0), 1)


small_ints = st.integers(-20, 20)


@given(values=st.lists(small_ints, max_size=12), t=small_ints, v=small_ints,
       dtype=st.sampled_from([np.float64, np.int64, np.int32, np.float32]), two_d=st.booleans())
@SETTINGS
def test_boolean_masks_read_and_write_like_numpy(values: list[int], t: int, v: int, dtype: Any, two_d: bool) -> None:
    a = np.array(values, dtype=dtype)
    if two_d and len(values) % 2 == 0:
        a = a.reshape(2, -1)
    assert_same_effects(py.masked_reads, jit.masked_reads, a, t)
    assert_same_effects(py.masked_writes, jit.masked_writes, a, t, v)


@given(values=st.lists(small_ints, min_size=1, max_size=8), mask=st.lists(st.booleans(), max_size=8),
       count=st.integers(0, 8))
@SETTINGS
def test_masked_assignment_of_values_checks_their_count(values: list[int], mask: list[bool], count: int) -> None:
    a = np.array(values, dtype=np.float64)
    assert_same_effects(py.masked_copy, jit.masked_copy, a, np.array(mask, dtype=bool), np.arange(float(count)))


@given(values=st.lists(small_ints, min_size=1, max_size=8), indices=st.lists(st.integers(-10, 10), max_size=8),
       v=small_ints, count=st.integers(0, 8), two_d=st.booleans())
@SETTINGS
def test_index_arrays_read_and_write_like_numpy(values: list[int], indices: list[int], v: int, count: int,
                                                two_d: bool) -> None:
    a = np.array(values, dtype=np.int64)
    index = np.array(indices, dtype=np.int64)
    rows = np.repeat(a[None, :], 2, axis=0).T.copy() if two_d else a
    assert_same_effects(py.indexed_reads, jit.indexed_reads, rows, index)
    # Repeated indices: one update each for +=, the last value for =.
    assert_same_effects(py.indexed_writes, jit.indexed_writes, a, index, v)
    assert_same_effects(py.indexed_copy, jit.indexed_copy, a, index, np.arange(count))
    assert_same_effects(py.indexed_reads, jit.indexed_reads, a, index.astype(np.int32))


@given(layout=st.sampled_from(["C", "F", "strided"]), dtype=st.sampled_from([np.float64, np.int32, np.int8]),
       v=st.integers(-5, 5))
@SETTINGS
def test_ravel_flatten_and_fill_like_numpy(layout: str, dtype: Any, v: int) -> None:
    a = np.arange(12).astype(dtype).reshape(3, 4)
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "strided":
        a = np.arange(24).astype(dtype).reshape(3, 8)[:, ::2]
    assert_same_effects(py.flat_forms, jit.flat_forms, a)
    assert_same_effects(py.fill_all, jit.fill_all, a, v)


def test_fill_respects_read_only_arguments() -> None:
    a = np.zeros((2, 2))
    a.setflags(write=False)
    with pytest.raises(ValueError, match="read-only"):
        jit.fill_all(a, 1)


@given(shape=st.sampled_from([(3, 4), (1, 1), (0, 2), (5,)]),
       dtype=st.sampled_from([np.float64, np.float32, np.int8, np.int64, np.bool_, np.complex128]),
       layout=st.sampled_from(["C", "F", "strided"]))
@SETTINGS
def test_itemsize_nbytes_strides_and_item_like_numpy(shape: Any, dtype: Any, layout: str) -> None:
    a = np.ones(shape, dtype=dtype)
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "strided":
        a = np.ones((shape[0] * 2,) + shape[1:], dtype=dtype)[::2]
    if a.size:  # (an empty array's strides are whatever its maker chose)
        assert_same(py.layout_attributes, jit.layout_attributes, a)
    assert_same(py.only_item, jit.only_item, a)


@given(values=st.lists(st.sampled_from([0.0, -1.5, 2.0, 2.0, -0.0, np.nan, np.inf, -np.inf, 7.0]), max_size=9),
       dtype=st.sampled_from([np.float64, np.float32, np.int64, np.int8, np.uint8, np.bool_]),
       layout=st.sampled_from(["C", "F", "reversed"]))
@SETTINGS
def test_argmin_argmax_any_all_like_numpy(values: list[float], dtype: Any, layout: str) -> None:
    with np.errstate(invalid="ignore"):
        a = np.array(values).astype(dtype) if np.dtype(dtype).kind == "f" else np.nan_to_num(
            np.array(values), posinf=100, neginf=-100).astype(dtype)
    if layout == "F" and len(values) % 3 == 0 and values:
        a = np.asfortranarray(a.reshape(3, -1))
    elif layout == "reversed":
        a = a[::-1]
    assert_same(py.searches, jit.searches, a)


@given(data=st.data())
@SETTINGS
def test_real_imag_views_and_conjugates_of_arrays(data: st.DataObject) -> None:
    shape = data.draw(st.tuples(st.integers(1, 4), st.integers(1, 4)))
    parts = hnp.arrays(np.float64, shape, elements=st.floats(-1e6, 1e6))
    z = data.draw(parts) + 1j * data.draw(parts)
    for view in (z, z.T, z[:, ::-1], np.asfortranarray(z)):
        assert_same(py.complex_parts, jit.complex_parts, view)
        assert_same(py.conjugates, jit.conjugates, view, view.real.copy())
        assert_same(py.parts_of_real_arrays, jit.parts_of_real_arrays, view.real.copy())
    # Writes through the views reach the complex array.
    assert_same_effects(py.write_complex_parts, jit.write_complex_parts, z, np.ones(shape))
    assert_same_effects(py.write_row_through_transpose, jit.write_row_through_transpose, z.real.copy())


def test_imag_of_real_arrays_is_read_only() -> None:
    for how in range(5):
        with np.errstate(all="ignore"):
            assert_same_effects(py.write_imag_of_real, jit.write_imag_of_real, np.arange(3.0), how)


def test_writes_through_parts_need_a_writable_array() -> None:
    z = np.zeros(3, np.complex128)
    z.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        jit.write_complex_parts(z, np.ones(3))


@given(
    shape=st.tuples(st.integers(2, 4), st.integers(2, 4), st.integers(2, 4)),
    i=st.lists(st.integers(-5, 4), min_size=1, max_size=4),
    j=st.lists(st.integers(-5, 4), min_size=1, max_size=4),
    dtype=st.sampled_from([np.int64, np.int32, np.uint8]),
)
@SETTINGS
def test_gathers_with_several_index_arrays_match_numpy(shape: Any, i: list, j: list, dtype: Any) -> None:
    # In-bounds or not, equal lengths or broadcast from one, or mismatched:
    # the same result or the same IndexError as NumPy.
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    assert_same(py.gathers, jit.gathers, a, np.array(i).astype(np.int64), np.array(j).astype(np.int64))
    if all(0 <= v < 256 for v in i + j):
        assert_same(py.gathers, jit.gathers, a, np.array(i, dtype), np.array(j, dtype))


@given(
    shape=st.tuples(st.integers(2, 4), st.integers(2, 4), st.integers(2, 4)),
    i=st.lists(st.integers(-3, 2), min_size=1, max_size=3),
    j=st.lists(st.integers(-3, 2), min_size=1, max_size=3),
    k=st.integers(-3, 3),
    v_shape=st.sampled_from([(), "row", "leading ones", "bad leading"]),
)
@SETTINGS
def test_index_arrays_beside_bounded_slices_match_numpy(shape: Any, i: list, j: list, k: int, v_shape: Any) -> None:
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    i_, j_ = np.array(i), np.array(j)
    assert_same(py.gathers_beside_slices, jit.gathers_beside_slices, a, i_, j_, k)
    # a[1:, i] has shape (shape[0] - 1, len(i), shape[2]); NumPy drops
    # leading axes of 1 from the value and refuses others.
    v = {(): np.float64(5.0), "row": np.arange(float(shape[2])),
         "leading ones": np.arange(float(shape[2])).reshape(1, 1, 1, shape[2]),
         "bad leading": np.ones((2, 1, 1, shape[2]))}[v_shape]
    assert_same_effects(py.scatters_beside_slices, jit.scatters_beside_slices, a, i_, j_, k, v)


@given(
    shape=st.tuples(st.integers(2, 4), st.integers(2, 4), st.integers(2, 4)),
    i=st.lists(st.integers(-2, 1), min_size=1, max_size=4),
    j=st.lists(st.integers(-2, 1), min_size=1, max_size=4),
    v_shape=st.sampled_from([(), (1,), "trailing", "bad"]),
)
@SETTINGS
def test_scatters_through_several_index_arrays_match_numpy(shape: Any, i: list, j: list, v_shape: Any) -> None:
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    i_, j_ = np.array(i), np.array(j)
    if v_shape == "trailing":  # a[:, i] has shape (shape[0], len(i), shape[2])
        v = np.arange(float(shape[2]))
    elif v_shape == "bad":
        v = np.arange(float(shape[2] + 1))
    else:
        v = np.full(v_shape, 5.0)
    assert_same_effects(py.scatters, jit.scatters, a, i_, j_, v)


@given(
    shape=st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 3)),
    data=st.data(),
    value=st.sampled_from(["number", "row", "rows", "bad"]),
)
@SETTINGS
def test_masks_of_fewer_axes_and_rows_through_index_arrays_match_numpy(shape: Any, data: st.DataObject, value: str) -> None:
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    k = data.draw(st.integers(1, 2))  # axes the mask covers
    mask = data.draw(hnp.arrays(np.bool_, shape[:k]))
    rows = data.draw(st.lists(st.integers(-shape[0] - 1, shape[0]), min_size=0, max_size=5))
    i = np.array(rows, dtype=np.int64)
    assert_same(py.rows_by_mask, jit.rows_by_mask, a, mask)
    assert_same(py.rows_by_mask, jit.rows_by_mask, a, mask[..., :-1] if mask.shape[-1] > 1 else mask[:0])
    trailing = shape[k:]
    v = {"number": 7.0, "row": np.arange(float(np.prod(trailing))).reshape(trailing),
         "rows": np.full((1,) + trailing, 3.0), "bad": np.ones(shape[-1] + 1)}[value]
    assert_same_effects(py.write_rows_by_mask, jit.write_rows_by_mask, a, mask, v)
    row_v = {"number": 7.0, "row": np.arange(float(np.prod(shape[1:]))).reshape(shape[1:]),
             "rows": np.full((len(rows),) + shape[1:], 3.0), "bad": np.ones(shape[-1] + 1)}[value]
    assert_same_effects(py.write_rows, jit.write_rows, a, i, row_v)
    assert_same_effects(py.add_to_rows, jit.add_to_rows, a, i, 1.5)


@given(n=st.integers(1, 5), m=st.integers(1, 5))
@settings(max_examples=20, deadline=None)
def test_shape_assignment(n: int, m: int) -> None:
    assert_same_effects(py.set_shapes, jit.set_shapes, n, m)
    assert_same(py.set_shape_wrong_size, jit.set_shape_wrong_size, n)


def test_shape_assignment_other_names_see_is_refused() -> None:
    # (The caller's array, or another name's, would change shape too.)
    with pytest.raises(plait.UnsupportedError, match="assignment to Attribute is not supported"):
        jit.set_shape_of_parameter(np.zeros(6))
    with pytest.raises(plait.UnsupportedError, match="assignment to Attribute is not supported"):
        jit.set_shape_of_shared(3)
    with pytest.raises(plait.UnsupportedError, match="assignment to Attribute is not supported"):
        jit.set_shape_of_asarray(np.zeros(4))


@given(n=st.integers(1, 6))
@settings(max_examples=12, deadline=None)
def test_shape_assignment_of_views(n: int) -> None:
    assert_same(py.set_shape_of_views, jit.set_shape_of_views, n)


@given(
    rows=st.integers(1, 5),
    idx=hnp.arrays(np.int64, hnp.array_shapes(min_dims=2, max_dims=3, max_side=3), elements=st.integers(-6, 5)),
)
@settings(max_examples=40, deadline=None)
def test_gather_by_an_nd_index_array(rows: int, idx: np.ndarray) -> None:
    # The rows idx names, in idx's shape (an out-of-range one: NumPy's IndexError).
    assert_same(py.gather_by_nd_index, jit.gather_by_nd_index, np.arange(rows * 1.0), idx)
    assert_same(py.gather_by_nd_index, jit.gather_by_nd_index, np.arange(rows * 3.0).reshape(rows, 3), idx)
    assert_same(py.gather_by_nd_index, jit.gather_by_nd_index, np.arange(rows * 3.0).reshape(rows, 3), idx.astype(np.int32))


def test_writing_through_an_nd_index_array_is_refused() -> None:
    with pytest.raises(plait.UnsupportedError, match="writing through an index array of more than one axis"):
        jit.scatter_by_nd_index(np.zeros(3), np.zeros((2, 2), np.int64))
    with pytest.raises(plait.UnsupportedError, match="writing through an index array of more than one axis"):
        jit.augmented_through_nd_index(np.zeros(3), np.zeros((2, 2), np.int64))
