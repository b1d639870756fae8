"""Typed lists in compiled code, against CPython: the same functions run
interpreted and compiled on many inputs, with their results, their
exceptions (type and message) and what they do to the lists passed in
(changes reach the caller's list, as in CPython)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from conftest import run_in_threads
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_lists as py
import plait
from jit_support import assert_same, assert_same_effects, floats, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=60, deadline=None)

small = st.integers(-50, 50)
ints = st.lists(small, min_size=1, max_size=10)
# Floats that order totally (sorting with NaN depends on the algorithm).
ordered_floats = st.lists(st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 0.5, -0.5, math.inf])),
                          min_size=1, max_size=10)
any_floats = st.lists(floats, min_size=1, max_size=10)
positions = st.integers(-12, 12)


@given(n=st.integers(0, 8), x=st.one_of(st.floats(-1e3, 1e3), st.sampled_from([0.0, -0.0, math.nan])))
@SETTINGS
def test_building(n: int, x: float) -> None:
    assert_same(py.built, jit.built, n, x)


@given(items=st.one_of(ints, any_floats), i=positions, j=positions)
@SETTINGS
def test_indexing_and_its_errors(items: list, i: int, j: int) -> None:
    assert_same_effects(py.indexed, jit.indexed, items, i, j)
    assert_same(py.out_of_range, jit.out_of_range, items, i)
    assert_same_effects(py.assign_out_of_range, jit.assign_out_of_range, items, i)


@given(items=st.one_of(ints, any_floats), start=positions, stop=positions, step=st.integers(-4, 4))
@SETTINGS
def test_slicing(items: list, start: int, stop: int, step: int) -> None:
    assert_same(py.sliced, jit.sliced, items, start, stop, step)


@given(items=ints, x=small, i=positions)
@SETTINGS
def test_methods(items: list, x: int, i: int) -> None:
    assert_same_effects(py.methods, jit.methods, items, x, i)
    assert_same_effects(py.pop_at, jit.pop_at, items, i)
    assert_same_effects(py.insert_at, jit.insert_at, items, i, x)
    assert_same_effects(py.remove_value, jit.remove_value, items, x)
    assert_same_effects(py.cleared, jit.cleared, items)


@given(data=st.one_of(st.tuples(ints, small), st.tuples(any_floats, floats.filter(lambda x: not math.isnan(x)))),
       start=positions, stop=positions)
@SETTINGS
def test_index_and_its_message(data: tuple, start: int, stop: int) -> None:
    # index() names the missing value by its repr, as CPython does. (Not
    # NaN: CPython finds the very NaN object it is given; == never does.)
    items, x = data
    assert_same(py.index_between, jit.index_between, items, x, start, stop)


@given(items=st.one_of(ints, ordered_floats, st.lists(st.booleans(), min_size=1, max_size=8)),
       reverse=st.booleans())
@SETTINGS
def test_sorting_is_stable_as_cpythons(items: list, reverse: bool) -> None:
    assert_same_effects(py.sorting, jit.sorting, items, reverse)


def test_long_lists_sort_as_cpython() -> None:
    rng = np.random.default_rng(7)
    for n in (33, 64, 65, 200, 1000):
        items = [float(v) for v in rng.integers(-20, 20, n)] + [0.0, -0.0] * 3
        assert_same_effects(py.sorting, jit.sorting, items, False)
        assert_same_effects(py.sorting, jit.sorting, items, True)


@given(t=st.tuples(small, small, small), a=st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=6))
@SETTINGS
def test_sorted_of_tuples_and_arrays(t: tuple, a: list) -> None:
    assert_same(py.sorted_sequences, jit.sorted_sequences, t, np.array(a))


@given(items=ints, other=ints, n=st.integers(-2, 4))
@SETTINGS
def test_operators(items: list, other: list, n: int) -> None:
    assert_same_effects(py.operators, jit.operators, items, other, n)
    assert_same_effects(py.operators, jit.operators, items, items[:], n)


@given(items=st.one_of(ints, any_floats), x=small)
@SETTINGS
def test_searching(items: list, x: int) -> None:
    t = tuple(type(items[0])(v) for v in (1, 2, 3))
    x = type(items[0])(x)
    assert_same(py.searching, jit.searching, items, x, t, np.array(items))


@given(items=st.one_of(ints, any_floats, st.lists(st.booleans(), min_size=1, max_size=6)))
@SETTINGS
def test_reductions_and_loops(items: list) -> None:
    assert_same(py.reductions, jit.reductions, items)
    assert_same(py.truth, jit.truth, items)
    if not isinstance(items[0], bool):
        assert_same(py.iterated, jit.iterated, items)


@given(items=st.one_of(ints, any_floats, st.lists(st.booleans(), min_size=1, max_size=6)))
@SETTINGS
def test_arrays_of_lists(items: list) -> None:
    assert_same(py.arrays_of, jit.arrays_of, items)


@given(a=st.lists(st.floats(-10, 10), min_size=1, max_size=8))
@SETTINGS
def test_lists_of_numpy_scalars(a: list) -> None:
    assert_same(py.items_of_arrays, jit.items_of_arrays, np.array(a))
    assert_same(py.items_of_arrays, jit.items_of_arrays, np.array(a, dtype=np.float32))
    assert_same(py.reductions, jit.reductions, [np.float32(v) for v in a])


@given(z=st.complex_numbers(max_magnitude=1e3), w=st.complex_numbers(max_magnitude=1e3))
@SETTINGS
def test_lists_of_complex_numbers(z: complex, w: complex) -> None:
    assert_same(py.complex_items, jit.complex_items, z, w)


def test_one_list_under_two_names() -> None:
    assert jit.aliases(3) == py.aliases(3) == ([0, 1, 2, 100], [0, 1, 2, 100])


@given(items=ints, n=st.integers(0, 12))
@SETTINGS
def test_changes_reach_the_callers_list(items: list, n: int) -> None:
    # grown_argument reads items it appended itself (past 10: IndexError).
    assert_same_effects(py.grown_argument, jit.grown_argument, items, n)
    assert_same_effects(py.raises_after_change, jit.raises_after_change, items)


def test_a_list_argument_stays_the_callers_object() -> None:
    items = [1, 2]
    assert jit.grown_argument(items, 2) == 4
    assert items == [1, 2, 2, 4] and type(items) is list
    unchanged = [3.5]
    jit.reductions(unchanged)
    assert unchanged == [3.5]


def test_pop_of_an_empty_list() -> None:
    assert_same(py.empty_pop, jit.empty_pop, 2)
    assert_same(py.empty_pop, jit.empty_pop, 1)


def test_print_shows_lists_as_cpython(capsys: pytest.CaptureFixture[str]) -> None:
    py.printed([1, 2])
    expected = capsys.readouterr().out
    jit.printed([1, 2])
    assert capsys.readouterr().out == expected == "[1, 2] | [1.5, -0.0] | [True] | [np.int8(3)] | []\n" or (
        np.__version__ < "2"
    )


def test_signatures_name_list_types() -> None:
    f = plait.jit(py.truth)
    assert f([1, 2]) == 2 and f([0.5]) == 1 and f([True]) == 1
    assert sorted(f.signatures) == ["int(list[bool])", "int(list[float64])", "int(list[int64])"]


@pytest.mark.parametrize(
    "argument, message",
    [
        ([], "an empty list has no item type to compile for"),
        ([1, 2.5], "a list mixing int and float items cannot be compiled for"),
        (["a", 1], "a list mixing str and int items cannot be compiled for"),
        ([None], "list items must be int, float, bool, complex, str, NumPy scalars, tuples of these, arrays or lists, not NoneType"),
        ([[1, 2], 3], "a list mixing list and int items cannot be compiled for"),
        ([(1, None)], "list items must be int, float, bool, complex, str, NumPy scalars, tuples of these, arrays or lists, not tuple"),
        ([(1, 2), (1, 2.5)], "a list mixing tuple and tuple items cannot be compiled for"),
        ([np.zeros(2), np.zeros((2, 2))], "a list mixing numpy.ndarray and numpy.ndarray items"),
        ([np.float32(1), np.float64(2)], "a list mixing numpy.float32 and numpy.float64 items"),
    ],
)
def test_list_arguments_compiled_code_cannot_take(argument: list, message: str) -> None:
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        jit.truth(argument)


@pytest.mark.parametrize(
    "fn, args, cls, message",
    [
        (py.mixed_display, (1.5,), plait.TypingError, "cannot put a float into a list[int]"),
        (py.mixed_append, (1.5,), plait.TypingError, "cannot put a float into a list[int]"),
        (py.slice_assignment, ([1, 2],), plait.UnsupportedError, "assigning to a slice of a list"),
        (py.concatenate_int, ([1],), plait.TypingError, 'can only concatenate list (not "int") to list'),
    ],
)
def test_lists_compiled_code_refuses(fn: Any, args: tuple, cls: type, message: str) -> None:
    with pytest.raises(cls) as info:
        plait.jit(fn)(*args)
    assert message in str(info.value)


def test_a_list_passed_to_many_threads_at_once() -> None:
    # Each call reads its own copy of the items; changes go back to each
    # thread's own list.
    shared = [float(i) for i in range(100)]

    def body(k: int) -> tuple:
        mine = [k, k + 1]
        grown = jit.grown_argument(mine, 2)
        return jit.reductions(shared), grown, mine

    for result in run_in_threads(8, body):
        assert result[0] == py.reductions(shared)
    results = run_in_threads(8, body)
    assert [r[2] for r in results] == [[k, k + 1, 2 * k, 2 * k + 2] for k in range(8)]


def test_names_of_one_list_share_its_item_type() -> None:
    assert_same(py.chained_names, jit.chained_names, 3)


@given(items=ints)
@SETTINGS
def test_an_item_evaluated_before_the_list_grows(items: list) -> None:
    assert_same_effects(py.append_of_pop, jit.append_of_pop, items)


def test_a_loop_keeps_its_list_when_the_name_is_rebound() -> None:
    assert_same(py.rebound_in_loop, jit.rebound_in_loop, 5)


def test_one_list_passed_as_two_arguments_stays_one() -> None:
    items = [0]
    assert jit.same_list_twice(items, items) == (3, 3)
    assert items == [0, 1, 2]


@given(items=ints, limit=small)
@SETTINGS
def test_lists_in_tested_and_or(items: list, limit: int) -> None:
    assert_same_effects(py.tested_with_and, jit.tested_with_and, items, limit)


def test_lists_nothing_is_put_into() -> None:
    assert_same(py.never_filled, jit.never_filled, 2)


@given(items=ints, i=positions)
@SETTINGS
def test_del_of_list_items(items: list, i: int) -> None:
    assert_same_effects(py.delete_items, jit.delete_items, items, i)


def test_complex64_values_in_messages() -> None:
    assert_same(py.complex64_message, jit.complex64_message, 1 + 2j)


def test_explicit_list_signatures_take_their_lists_only() -> None:
    f = plait.jit("int64(list[float64])")(py.truth)
    assert f([0.5, 1.5]) == 2
    with pytest.raises(TypeError):
        f([1, 2])


@given(items=ints)
@SETTINGS
def test_nested_loops_over_one_list(items: list) -> None:
    for _ in range(3):  # (a wrong reference count shows on later calls)
        assert_same(py.nested_loops_over_a_parameter, jit.nested_loops_over_a_parameter, items)
