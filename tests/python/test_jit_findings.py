"""Regression tests for what the differential fuzzer found (issue: "a crash and
wrong results found by fuzzing"), each against CPython and NumPy running the
same function."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jit_findings as py
from jit_support import assert_same, assert_same_effects, jitted_copies

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
jit = jitted_copies(py)


def read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@pytest.mark.parametrize("function", ["write_through_alias", "augment_through_alias"])
def test_writes_through_a_local_alias_respect_read_only_arguments(function: str) -> None:
    a = read_only(np.zeros(3))
    with pytest.raises(ValueError, match="read-only"):
        getattr(jit, function)(a)
    assert not a.any()
    assert_same_effects(getattr(py, function), getattr(jit, function), np.zeros(3))


def test_writes_through_conditional_and_returned_aliases_respect_read_only() -> None:
    for t in (True, False):
        with pytest.raises(ValueError, match="read-only"):
            jit.write_through_conditional_alias(read_only(np.zeros(2)), np.zeros(2), t)
        assert_same_effects(py.write_through_conditional_alias, jit.write_through_conditional_alias,
                            np.zeros(2), np.zeros(2), t)
    with pytest.raises(ValueError, match="read-only"):
        jit.write_through_returned_argument(read_only(np.zeros(2)))


def test_writing_to_a_read_only_memory_map_raises_instead_of_crashing(tmp_path: Any) -> None:
    # A write through an alias used to reach the read-only mapping: SIGSEGV.
    # In a child process, so that a crash is a failure rather than the end.
    path = tmp_path / "data.bin"
    np.zeros(3).tofile(path)
    script = textwrap.dedent(
        f"""
        import numpy as np, plait
        import jit_findings
        f = plait.jit(jit_findings.write_through_alias)
        m = np.memmap({str(path)!r}, dtype=np.float64, mode="r", shape=(3,))
        try:
            f(m)
        except ValueError as error:
            print("raised", error)
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(os.path.abspath(p) for p in sys.path if p))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert "raised" in result.stdout and "read-only" in result.stdout


DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32, np.uint64,
          np.bool_, np.complex128, np.complex64]


@pytest.mark.parametrize("target", DTYPES)
@pytest.mark.parametrize("source", DTYPES)
def test_array_copies_cast_between_dtypes_as_numpy_does(target: Any, source: Any) -> None:
    values = np.array([253, 1, 2, 0, 7, 100]).astype(source)
    if np.dtype(source).kind == "c" and np.dtype(target).kind != "c":
        return  # refused by the typer (NumPy discards the imaginary part with a warning)
    with np.errstate(all="ignore"):
        assert_same_effects(py.copy_into_slice, jit.copy_into_slice, np.zeros(6, target), values)
        assert_same_effects(py.copy_into_reversed_slice, jit.copy_into_reversed_slice, np.zeros(6, target), values)
        assert_same_effects(py.copy_into_row, jit.copy_into_row, np.zeros((2, 6), target), values)
        assert_same_effects(py.copy_into_rows, jit.copy_into_rows, np.zeros((2, 6), target), values)


def test_int8_from_uint8_wraps_as_numpy_does() -> None:
    got = jit.copy_into_slice(np.zeros(3, np.int8), np.array([253, 1, 2], np.uint8))
    assert got.tolist() == [-3, 1, 2]


@pytest.mark.parametrize("function", ["element_with_failing_index", "view_with_failing_index"])
def test_every_index_is_evaluated_before_indexing(function: str) -> None:
    # CPython builds the index tuple first: ZeroDivisionError, not IndexError.
    assert_same(getattr(py, function), getattr(jit, function), np.zeros((2, 2)), 0)
    assert_same(getattr(py, function), getattr(jit, function), np.zeros((2, 2)), 1)
    assert_same_effects(py.store_with_failing_index, jit.store_with_failing_index, np.zeros((2, 2)), 0)


@pytest.mark.parametrize("size", [0, 1, 3])
@pytest.mark.parametrize("k", [-2, 300, -300, 2**40, 5])
@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint64, np.float32, np.bool_])
def test_python_ints_are_checked_against_the_dtype_even_for_empty_arrays(size: int, k: int, dtype: Any) -> None:
    a = np.arange(size).astype(dtype)
    with np.errstate(all="ignore"):
        assert_same_effects(py.scale, jit.scale, a, k)
        assert_same_effects(py.floor_divide, jit.floor_divide, a, k)


@pytest.mark.parametrize(
    "a, b",
    [
        (np.zeros(3), np.zeros(4)),
        (np.zeros((2, 3)), np.zeros((3, 2))),
        (np.zeros((2, 3)), np.zeros(2)),
        (np.zeros((2, 3)), np.zeros((2, 3, 4))),
    ],
)
def test_broadcast_errors_name_the_shapes_as_numpy_does(a: np.ndarray, b: np.ndarray) -> None:
    assert_same(py.add, jit.add, a, b)


@pytest.mark.parametrize(
    "a, b",
    [(np.zeros(3), np.zeros(4)), (np.zeros((3, 1)), np.zeros(4)), (np.zeros((2, 3)), np.zeros(3)),
     (np.zeros((2, 3)), np.zeros((1, 3)))],
)
def test_in_place_operations_check_shapes_as_numpy_does(a: np.ndarray, b: np.ndarray) -> None:
    assert_same_effects(py.add_in_place, jit.add_in_place, a, b)


@pytest.mark.parametrize(
    "target, source",
    [((2, 4), (2, 6)), ((2, 4), (6,)), ((4,), (6,)), ((2, 4), (3, 4)), ((2, 4), (1, 4)), ((4,), (1, 4)),
     ((4,), (2, 4)), ((4,), (1, 1, 4)), ((2, 4), (1, 2, 4)), ((2, 4), (3, 2, 4)), ((0,), (1, 3)),
     ((4,), (1, 2, 4)), ((4,), (2, 1, 4)), ((4,), (1, 1, 3))],
)
def test_slice_copy_errors_name_the_shapes_as_numpy_does(target: tuple[int, ...], source: tuple[int, ...]) -> None:
    function = py.copy_into_rows if len(target) == 2 else py.copy_into_slice
    compiled = jit.copy_into_rows if len(target) == 2 else jit.copy_into_slice
    assert_same_effects(function, compiled, np.zeros(target), np.ones(source))
    if len(target) == 2:
        assert_same_effects(py.copy_into_row, jit.copy_into_row, np.zeros(target), np.ones(source[-1:]))


@pytest.mark.parametrize("a, b", [((1,), (5,)), ((2, 3), (4, 5)), ((2, 3), (4,)), ((3,), (3,)), ((2, 3), (3, 2))])
def test_dot_errors_name_the_shapes_as_numpy_does(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    assert_same(py.dot, jit.dot, np.ones(a), np.ones(b))


def test_the_none_result_of_a_jitted_call_is_a_value() -> None:
    assert_same(py.uses_nothing, jit.uses_nothing, 3)


def test_numpy_complex_with_float32_computes_in_complex128() -> None:
    assert_same(py.add, jit.add, np.complex128(1 + 2j), np.float32(1.5))
    assert_same(py.add, jit.add, np.float32(-0.5), np.complex128(3j))
    assert_same_effects(py.add, jit.add, np.ones(3, np.complex128), np.arange(3, dtype=np.float32))


def test_returning_an_argument_or_a_new_array_unifies_the_layouts() -> None:
    for a in (np.arange(4.0), np.arange(8.0)[::2]):
        for fresh in (True, False):
            assert_same(py.argument_or_new_array, jit.argument_or_new_array, a, fresh)


def test_extreme_integer_literals() -> None:
    assert_same(py.smallest_int64, jit.smallest_int64)
    assert_same(py.largest_uint64, jit.largest_uint64)


@given(x=st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                   st.sampled_from([2.675, 0.5, 1.5, 2.5, -0.5, 1e308, -1e308, 5e-324, 0.125, 1234.5])),
       ndigits=st.one_of(st.integers(-400, 400), st.integers(-5, 5)))
@SETTINGS
def test_round_with_ndigits_matches_cpython_for_floats(x: float, ndigits: int) -> None:
    assert_same(py.round_to, jit.round_to, x, ndigits)


@given(x=st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-1000, 1000), st.booleans()),
       ndigits=st.integers(-25, 3))
@SETTINGS
def test_round_with_ndigits_matches_cpython_for_ints(x: int, ndigits: int) -> None:
    assert_same(py.round_to, jit.round_to, x, ndigits)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint8])
@given(value=st.floats(-1e6, 1e6), ndigits=st.integers(-4, 4))
@SETTINGS
def test_round_with_ndigits_matches_numpy_for_numpy_scalars(dtype: Any, value: float, ndigits: int) -> None:
    with np.errstate(all="ignore"):
        x = np.array([value]).astype(dtype)[0]
        assert_same(py.round_to, jit.round_to, x, ndigits)


def test_round_with_none_ndigits_is_round() -> None:
    for x in (2.5, 3.5, -0.5, 7):
        assert_same(py.round_with_none, jit.round_with_none, x)


def test_shape_of_an_array_a_jitted_call_returned() -> None:
    assert_same(py.shape_of_callee_result, jit.shape_of_callee_result, 4)


FLOAT_STORES = [300.0, -300.0, 127.9, -0.7, 1e10, -1.0, 1e19, -1e19, math.nan, math.inf, -math.inf, 2.0**63, 255.5]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, np.bool_, np.float32])
@pytest.mark.parametrize("value", FLOAT_STORES)
@pytest.mark.parametrize("scalar", [float, np.float64, np.float32])
def test_float_stores_into_integer_arrays_follow_numpy(dtype: Any, value: float, scalar: Any) -> None:
    with np.errstate(all="ignore"):
        v = scalar(value)
    unsigned = np.dtype(dtype).kind == "u"
    if unsigned and scalar is not float and not (-(2.0**63) <= float(v) < 2.0**63):
        return  # a C cast out of range: undefined in NumPy
    with np.errstate(all="ignore"):
        assert_same_effects(py.store_element, jit.store_element, np.zeros(2, dtype), v)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8])
@pytest.mark.parametrize("start", [0, 1, 4, 127, 100])
def test_powers_stored_back_into_integer_arrays(dtype: Any, start: int) -> None:
    assert_same_effects(py.power_in_place, jit.power_in_place, np.full(2, start, dtype))


def test_in_place_operations_on_slices() -> None:
    assert_same_effects(py.slice_in_place, jit.slice_in_place, np.arange(5.0), np.ones(4))
    assert_same_effects(py.slice_in_place, jit.slice_in_place, np.arange(5.0), np.ones(3))
    assert_same_effects(py.slice_in_place, jit.slice_in_place, np.arange(5, dtype=np.int8), np.full(4, 200, np.uint8))


@pytest.mark.parametrize("x", [1e300, -1e300, math.nan, math.inf, 300.7, -32768.9, 2.0**63])
def test_numpy_int_constructors_of_floats_raise_numpys_errors(x: float) -> None:
    assert_same(py.int16_of, jit.int16_of, x)


@given(x=st.integers(-20, 20))
@SETTINGS
def test_functions_whose_every_path_returns_compile(x: int) -> None:
    # Found by npbench's nussinov: an if/else that both return left an
    # unreachable end of function that returned None ("internal: cannot
    # convert None to int").
    assert_same(py.returns_on_both_paths, jit.returns_on_both_paths, x, 1)
    assert_same(py.calls_returns_on_both_paths, jit.calls_returns_on_both_paths, x)
    assert_same(py.returns_on_every_path_of_nested_branches, jit.returns_on_every_path_of_nested_branches, x)


@given(x=st.integers(-(2**40), 2**40))
@SETTINGS
def test_products_of_a_shift_keep_their_overflow_checks(x: int) -> None:
    # Fuzzer seed 5113 (with array re-binding in the generator): MLIR 16's
    # range of x << 8 ignored the bits shifted out, so (x << 8) ** 3 wrapped
    # to a wrong value instead of raising OverflowError.
    assert_same(py.power_of_a_shift, jit.power_of_a_shift, x)


@pytest.mark.parametrize("n", [3, 40_000])
def test_a_temporary_assigned_to_several_targets_lives_until_the_last(n: int) -> None:
    # 40,000 float64s: allocations large enough that freeing unmaps them, so
    # a store from freed memory would crash rather than read stale values.
    a = np.arange(float(n))
    assert_same_effects(py.chained_slice_assignment, jit.chained_slice_assignment, a, np.zeros(n))


@pytest.mark.parametrize("function", ["swap_then_write", "tuple_then_write"])
def test_writes_through_names_bound_by_tuples_respect_read_only_arguments(function: str) -> None:
    # Arrays bound through tuples had no alias: the read-only b was written.
    b = read_only(np.zeros(2))
    with pytest.raises(ValueError, match="read-only"):
        getattr(jit, function)(np.zeros(2), b)
    assert not b.any()
    assert_same_effects(getattr(py, function), getattr(jit, function), np.zeros(2), np.zeros(2))


@pytest.mark.parametrize(
    "function, make_target",
    [
        ("augment_at_computed_index", lambda: np.arange(6.0)),
        ("augment_at_computed_indices", lambda: np.arange(36.0).reshape(6, 6)),
        ("augment_computed_slice", lambda: np.arange(6.0)),
        ("augment_list_at_computed_index", lambda: [1, 2, 3, 4, 5, 6]),
        ("augment_in_row_at_computed_index", lambda: np.arange(36.0).reshape(6, 6)),
        ("augment_at_gathered_indices", lambda: np.arange(6.0)),
    ],
)
@pytest.mark.parametrize("logged", [1, 2, 4, 5])
def test_augmented_assignment_evaluates_its_target_once(function: str, make_target: Any, logged: int) -> None:
    # `a[f()] += v` calls f once, reads and writes the same element; with
    # enough calls logged before, the index is out of range: IndexError.
    assert_same_effects(getattr(py, function), getattr(jit, function), make_target(), list(range(logged)))
