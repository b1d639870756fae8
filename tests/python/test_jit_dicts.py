"""Typed dicts in compiled code, against CPython: results, exceptions
(KeyError with the key, RuntimeError for a dict that changes size in a
loop), insertion order, and the dicts passed in (changes reach the caller's
dict)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_dicts as py
import plait
from jit_support import assert_same, assert_same_effects, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=60, deadline=None)

small = st.integers(-20, 20)
int_dicts = st.dictionaries(small, st.floats(-1e3, 1e3), min_size=1, max_size=8)
float_dicts = st.dictionaries(st.one_of(st.floats(-10, 10), st.sampled_from([0.0, -0.0, math.inf])), small,
                              min_size=1, max_size=8)


@given(values=st.lists(st.integers(-5, 5), max_size=20))
@SETTINGS
def test_counting(values: list) -> None:
    if values:
        assert_same(py.counted, jit.counted, values)
    assert_same(py.counted, jit.counted, np.array(values, dtype=np.int64))


@given(n=st.integers(0, 6), x=st.floats(-1e3, 1e3))
@SETTINGS
def test_building(n: int, x: float) -> None:
    assert_same(py.built, jit.built, n, x)


@given(d=int_dicts, k=small, fallback=st.floats(-5, 5))
@SETTINGS
def test_lookups_and_key_errors(d: dict, k: int, fallback: float) -> None:
    assert_same(py.looked_up, jit.looked_up, d, k, fallback)
    assert_same(py.item, jit.item, d, k)
    assert_same_effects(py.deleted, jit.deleted, d, k)


@given(d=float_dicts, k=st.floats(-10, 10))
@SETTINGS
def test_float_keys(d: dict, k: float) -> None:
    assert_same(py.item, jit.item, d, k)
    assert_same(py.item, jit.item, d, int(k))  # an int finds the equal float key


@given(d=int_dicts, k=small, v=st.floats(-5, 5))
@SETTINGS
def test_changes_reach_the_callers_dict(d: dict, k: int, v: float) -> None:
    assert_same_effects(py.changed, jit.changed, d, k, v)


@given(d=st.one_of(int_dicts, float_dicts))
@SETTINGS
def test_iteration_in_insertion_order(d: dict) -> None:
    assert_same(py.iterated, jit.iterated, d)


@given(n=st.integers(0, 40))
@SETTINGS
def test_deleted_keys_put_back_go_last(n: int) -> None:
    assert_same(py.reinserted, jit.reinserted, n)


@given(d=int_dicts, other=int_dicts)
@SETTINGS
def test_methods(d: dict, other: dict) -> None:
    assert_same_effects(py.methods, jit.methods, d, other)


def test_a_dict_that_changes_size_in_a_loop() -> None:
    assert_same_effects(py.grows_while_looping, jit.grows_while_looping, {1: 1.0})


@given(values=st.lists(st.sampled_from([0.0, -0.0, 1.5, -1.5]), min_size=1, max_size=8))
@SETTINGS
def test_equal_keys_keep_the_first(values: list) -> None:
    # -0.0 and 0.0 are one key; the dict keeps the one put in first.
    assert_same(py.signed_zero_keys, jit.signed_zero_keys, values)


@given(a=st.lists(st.integers(-3, 3), min_size=1, max_size=10))
@SETTINGS
def test_numpy_scalar_keys(a: list) -> None:
    for dtype in (np.int8, np.uint64, np.float32, np.float64):
        assert_same(py.numpy_keys, jit.numpy_keys, np.array(a).astype(dtype))


def test_print_shows_dicts_as_cpython(capsys: pytest.CaptureFixture[str]) -> None:
    py.printed({1: 2})
    expected = capsys.readouterr().out
    jit.printed({1: 2})
    assert capsys.readouterr().out == expected == "{1: 2} | {1.5: True} | {}\n"


def test_one_dict_passed_as_two_arguments_stays_one() -> None:
    def both(a, b):
        a[1] = 1
        b[2] = 2
        return len(a), len(b)

    d = {0: 0}
    assert plait.jit(both)(d, d) == (3, 3) and d == {0: 0, 1: 1, 2: 2}


@pytest.mark.parametrize(
    "argument, message",
    [
        ({}, "an empty dict has no key and value types"),
        ({1: 1, 2.5: 2}, "a dict mixing int and float keys"),
        ({1: 1, 2: 2.5}, "a dict mixing int and float values"),
        ({None: 1}, "dict keys must be int, float, bool, str, real NumPy scalars or tuples of them"),
        ({"a": "b"}, "values int, float, bool, complex or NumPy scalars, not str: str"),
    ],
)
def test_dict_arguments_compiled_code_cannot_take(argument: dict, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        jit.looked_up(argument, 1, 0.0)


@pytest.mark.parametrize(
    "fn, cls, message",
    [
        (py.mixed_keys, plait.TypingError, "a key of float cannot be put into a dict[int, float]"),
        (py.complex_keys, plait.UnsupportedError, "dicts with keys of complex are not supported"),
    ],
)
def test_dicts_compiled_code_refuses(fn, cls: type, message: str) -> None:
    with pytest.raises(cls) as info:
        plait.jit(fn)(1.5)
    assert message in str(info.value)


@given(d=st.dictionaries(small, st.floats(-5, 5), min_size=1, max_size=6))
@SETTINGS
def test_a_loop_over_a_parameter_that_its_body_reads(d: dict) -> None:
    for _ in range(3):  # (a wrong reference count shows on later calls)
        assert_same_effects(py.summed_over_itself, jit.summed_over_itself, d)


def test_uint64_keys_beyond_int64() -> None:
    big = np.uint64(2**64 - 1)
    assert_same(py.item, jit.item, {big: 1}, big)
    assert_same(py.item, jit.item, {big: 1}, np.uint64(3))


def test_a_dict_a_helper_fills() -> None:
    assert_same(py.filled_by_a_helper, jit.filled_by_a_helper, 4)


def test_dicts_nothing_is_put_into() -> None:
    assert_same(py.never_filled, jit.never_filled, 3)


def test_int_keys_are_not_put_into_float_dicts() -> None:
    # CPython would keep the key an int beside the floats: refused.
    with pytest.raises(plait.TypingError, match="a key of int cannot be put into a dict"):
        jit.int_key_into_float_dict({0.5: 1})


@given(n=st.integers(0, 12), m=st.integers(1, 4))
@SETTINGS
def test_tuple_keys_count(n: int, m: int) -> None:
    assert_same(py.pair_counts, jit.pair_counts, n, m)


tuple_dicts = st.dictionaries(st.tuples(st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.0]), st.integers(-2, 2)),
                              st.floats(-10, 10), min_size=1, max_size=6)


@given(d=tuple_dicts, i=st.integers(-2, 2), x=st.sampled_from([0.0, -0.0, 1.0, 2.5]))
@SETTINGS
def test_tuple_keys_passed_in_and_changed(d: dict, i: int, x: float) -> None:
    assert_same_effects(py.tuple_keys_changed, jit.tuple_keys_changed, d, i, x)
    # KeyError holds the missing tuple itself.
    assert_same(py.tuple_key_missing, jit.tuple_key_missing, {(k, k + 1): 0.5 for k in range(3)}, i)


def test_nested_tuple_keys_print_and_return(capsys) -> None:
    expected = py.nested_tuple_keys(5)
    shown = capsys.readouterr().out
    assert jit.nested_tuple_keys(5) == expected
    assert capsys.readouterr().out == shown


@given(values=st.lists(st.integers(-20, 20), min_size=1, max_size=30), n=st.integers(1, 5))
@SETTINGS
def test_dicts_of_lists_group_as_cpythons(values: list, n: int) -> None:
    # setdefault(k, []).append(v) and d[k] = [] then d[k].append(v): the
    # empty lists get their items' type through the dict.
    assert_same(py.grouped, jit.grouped, values, n)


@given(n=st.integers(0, 9), m=st.integers(1, 4))
@SETTINGS
def test_dicts_of_arrays_and_tuples(n: int, m: int) -> None:
    assert_same(py.array_values, jit.array_values, n, m)
    assert_same(py.churned_values, jit.churned_values, n * 7)


def test_dicts_of_tuples_print_and_return(capsys) -> None:
    for n in (0, 1, 4):
        expected = py.tuple_values(n)
        shown = capsys.readouterr().out
        assert jit.tuple_values(n) == expected
        assert capsys.readouterr().out == shown


def test_dict_arguments_hold_numbers() -> None:
    # (Values that hold arrays or lists are made in compiled code, not passed in.)
    with pytest.raises(TypeError, match="values int, float, bool, complex or NumPy scalars, not int: list"):
        jit.looked_up({1: [2]}, 1, 0.0)


@given(values=st.lists(st.integers(-20, 20), min_size=1, max_size=20), n=st.integers(1, 4),
       x=st.floats(-10, 10), k=st.integers(0, 30))
@SETTINGS
def test_lists_put_into_dicts_stay_lists(values: list, n: int, x: float, k: int) -> None:
    assert_same(py.grouped_rows, jit.grouped_rows, values, n)
    assert_same(py.displays_with_empty_lists, jit.displays_with_empty_lists, x)
    assert_same(py.array_defaults, jit.array_defaults, k)


def test_exceptions_hold_tuples() -> None:
    # KeyError((3, 4)): str() is the tuple's repr, as CPython's.
    assert_same(py.tuple_key_errors, jit.tuple_key_errors, 3, 4)
    assert_same(py.tuple_value_error, jit.tuple_value_error, 1.5)
    with pytest.raises(KeyError) as caught:
        jit.tuple_key_errors(3, 4)
    assert caught.value.args == ((3, 4),)
