"""Lists of tuples, arrays and lists in compiled code, against CPython: the
same functions run interpreted and compiled, with their results, their
exceptions (type and message), what they do to the lists passed in, and
which arrays come back (the very objects passed in, where CPython's would
be)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_list_items as py
import plait
from jit_support import assert_same, assert_same_effects, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=50, deadline=None)

small = st.integers(-6, 6)
halves = st.integers(-8, 8).map(lambda k: k / 2)
pair_lists = st.lists(st.tuples(small, halves), min_size=1, max_size=8)


@given(n=st.integers(0, 7))
@SETTINGS
def test_lists_of_tuples_are_built_and_returned(n: int) -> None:
    assert_same(py.pairs_below, jit.pairs_below, n)
    if n:  # (an empty one: below)
        assert_same(py.tuples_to_array, jit.tuples_to_array, n)


@given(pairs=pair_lists, i=small, x=halves)
@SETTINGS
def test_lists_of_tuples_passed_in_unpack_search_and_sort(pairs: list, i: int, x: float) -> None:
    assert_same_effects(py.weighted, jit.weighted, pairs)
    assert_same_effects(py.tuple_methods, jit.tuple_methods, pairs, i, x)
    # index() names the missing tuple by its repr, as CPython does.
    assert_same(py.tuple_index_message, jit.tuple_index_message, pairs, i, x)


@given(a=small, b=st.one_of(small, halves), c=small, d=st.one_of(small, halves, st.just(float("nan"))))
@SETTINGS
def test_tuples_compare_as_cpythons(a: int, b: float, c: int, d: float) -> None:
    assert_same(py.tuple_compare, jit.tuple_compare, a, b, c, d)


@given(pairs=st.lists(st.tuples(small, halves), max_size=40), reverse=st.booleans(),
       values=st.lists(halves, min_size=1, max_size=12))
@SETTINGS
def test_sorting_and_extremes_by_key_as_cpythons(pairs: list, reverse: bool, values: list) -> None:
    # Stable by key (many equal keys); the first of equal extremes wins.
    if pairs:
        assert_same_effects(py.keyed, jit.keyed, pairs, reverse)
    assert_same(py.keyed_array, jit.keyed_array, np.array(values))
    assert_same(py.keyed_empty, jit.keyed_empty, 3)


@given(n=st.integers(1, 6), m=st.integers(0, 5))
@SETTINGS
def test_lists_of_lists_to_arrays(n: int, m: int) -> None:
    assert_same(py.rows_to_array, jit.rows_to_array, n, m)
    assert_same(py.ragged_to_array, jit.ragged_to_array, n)  # NumPy's ValueError from 2 rows on


@given(n=st.integers(0, 6), m=st.integers(0, 5))
@SETTINGS
def test_lists_of_arrays_are_built_and_returned(n: int, m: int) -> None:
    assert_same(py.arrays_made, jit.arrays_made, n, m)
    if n:  # (an empty one: below)
        assert_same(py.arrays_stacked, jit.arrays_stacked, n, m)
    assert_same(py.tuples_holding_arrays, jit.tuples_holding_arrays, n)


arrays_of_one_shape = st.integers(1, 4).flatmap(
    lambda m: st.lists(st.lists(halves, min_size=m, max_size=m).map(np.array), min_size=1, max_size=5))


@given(arrays=arrays_of_one_shape, c=halves)
@SETTINGS
def test_lists_of_arrays_passed_in(arrays: list, c: float) -> None:
    assert_same_effects(py.arrays_summed, jit.arrays_summed, arrays)
    assert_same_effects(py.arrays_scaled, jit.arrays_scaled, arrays, c)  # writes reach the caller's arrays
    assert_same_effects(py.arrays_shuffled, jit.arrays_shuffled, arrays)
    assert_same(py.arrays_stacked_given, jit.arrays_stacked_given, arrays)


@pytest.mark.parametrize("n", [0, 1, 7, 50, 400])
def test_array_items_replaced_and_dropped_are_freed_once(n: int) -> None:
    # Each round three times over: a freed array read again, or freed twice,
    # shows up as wrong sums or a crash.
    for _ in range(3):
        assert_same(py.arrays_churned, jit.arrays_churned, n)


def test_arrays_keep_their_identity_through_a_call() -> None:
    first, second = np.arange(3.0), np.ones(3)
    arrays = [first, second]
    result, _ = jit.arrays_shuffled(arrays)
    expected = [first, second]
    py.arrays_shuffled(expected)
    # The arrays CPython's list holds afterwards are the same objects.
    assert [a is first or a is second for a in arrays] == [a is first or a is second for a in expected]
    assert any(a is first for a in result) == any(a is first for a in expected)
    assert jit.array_item_out_of_range(arrays, -1) is arrays[-1]


def test_lists_of_lists() -> None:
    for n, m in [(0, 0), (1, 3), (3, 2), (4, 5)]:
        assert_same(py.grid, jit.grid, n, m)
    for values, n in [([3, 4, 5, 10, -1], 3), ([5], 2), ([7], 1)]:
        assert_same(py.buckets, jit.buckets, values, n)


@pytest.mark.parametrize(
    "fn, args",
    [
        (py.array_item_out_of_range, ([np.zeros(2)], 3)),
        (py.array_item_out_of_range, ([np.zeros(2)], -2)),
        (py.tuple_message, ([(1, 2.5), (3, 4.0)],)),
        (py.arrays_stacked_given, ([np.zeros(2), np.ones(3)],)),
        (py.arrays_stacked_given, ([np.zeros((2, 2)), np.ones((2, 3))],)),
    ],
)
def test_errors_are_cpythons_and_numpys(fn, args) -> None:
    assert_same(fn, getattr(jit, fn.__name__), *args)


def test_printing_lists_of_tuples_arrays_and_lists(capsys) -> None:
    pairs, arrays = [(1, 0.5), (2, -1.0)], [np.arange(3.0), np.eye(2)[0]]
    py.print_items(pairs, arrays)
    expected = capsys.readouterr().out
    jit.print_items(pairs, arrays)
    assert capsys.readouterr().out == expected


@pytest.mark.parametrize(
    "argument, error, message",
    [
        ([np.zeros(2), np.zeros((2, 2))], TypeError, "a list mixing numpy.ndarray and numpy.ndarray items"),
        ([{1: 2}], TypeError, "not dict"),
        ([np.zeros(2)[::1].view()], None, None),
    ],
)
def test_list_arguments_of_arrays_checked(argument: list, error, message) -> None:
    if error is None:
        assert jit.arrays_scaled(argument, 2.0) == 1
        return
    with pytest.raises(error, match=message):
        jit.arrays_scaled(argument, 2.0)


def test_read_only_arrays_in_a_list_are_refused() -> None:
    frozen = np.zeros(2)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match=r"arrays_scaled\(\) argument 1 \('arrays'\) is a list holding a read-only array"):
        jit.arrays_scaled([frozen], 2.0)
    assert not frozen.any()


def test_empty_lists_of_arrays_and_tuples_to_arrays_say_why() -> None:
    with pytest.raises(ValueError, match="np.array\\(\\) of an empty list of arrays"):
        jit.arrays_stacked(0, 3)
    with pytest.raises(ValueError, match="np.array\\(\\) of an empty list of tuples"):
        jit.tuples_to_array(0)


def test_signatures_name_lists_of_tuples_and_arrays() -> None:
    f = plait.jit(py.weighted)
    f([(1, 2.0)])
    g = plait.jit(py.arrays_summed)
    g([np.zeros((2, 2))])
    assert f.signatures == ["float(list[tuple[int64, float64]])"]
    assert g.signatures == ["float64[:, ::1](list[float64[:, :]])"]


def test_loops_over_list_methods_run_in_constant_stack() -> None:
    # In a process with a 1 MiB stack, 200000 iterations would overflow it
    # if each took a few dozen bytes of stack (a segfault, not an error).
    script = (
        "import numpy as np, jit_list_items as py\n"
        "from jit_support import jitted_copies\n"
        "jit = jitted_copies(py)\n"
        "print(jit.reversed_in_a_loop(np.ones(2), 200000))\n"
    )

    def small_stack() -> None:
        resource.setrlimit(resource.RLIMIT_STACK, (1 << 20, resource.getrlimit(resource.RLIMIT_STACK)[1]))

    here = Path(__file__).parent
    path = os.pathsep.join([str(Path(plait.__file__).parent.parent), str(here)])
    done = subprocess.run([sys.executable, "-c", script], cwd=here, capture_output=True, text=True,
                          preexec_fn=small_stack, timeout=600, env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    assert float(done.stdout) == py.reversed_in_a_loop(np.ones(2), 3) * 200000 / 3


def test_numpy_scalars_in_tuples_keep_their_types() -> None:
    pairs = [(np.int8(100), np.float32(1.3))]
    assert_same_effects(py.numpy_pairs, jit.numpy_pairs, pairs)  # int8 wraps, float32 rounds
    jit.numpy_pairs(pairs)
    assert [type(x) for x in pairs[1]] == [np.int8, np.float32]


def test_one_list_in_two_places_comes_back_as_one_object() -> None:
    for n in (1, 3):
        assert_same(py.shared_rows, jit.shared_rows, n)
        rows, pair = jit.shared_rows(n)
        assert all(row is rows[0] for row in rows) and pair[0] is pair[1]


@given(n=st.integers(0, 5), row=st.lists(st.integers(0, 5), min_size=1, max_size=3),
       values=st.lists(st.floats(-5, 5), min_size=1, max_size=4), limit=st.integers(0, 3))
@SETTINGS
def test_lists_in_searches_and_messages(n: int, row: list, values: list, limit: int) -> None:
    assert_same(py.rows_searched, jit.rows_searched, n, row)
    assert_same(py.list_in_message, jit.list_in_message, values, limit)


adjacency = st.integers(1, 7).flatmap(
    lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=3), min_size=n, max_size=n))


@given(adjacency=adjacency.filter(lambda a: any(a)), x=st.integers(0, 6))
@SETTINGS
def test_lists_of_lists_passed_in(adjacency: list, x: int) -> None:
    # Each inner list is its own list: changes reach the caller's inner lists
    # (and an IndexError after them leaves them changed, as in CPython).
    assert_same(py.breadth_first, jit.breadth_first, adjacency, 0)
    rows = [list(row) for row in adjacency]
    assert_same_effects(py.rows_grown, jit.rows_grown, rows, x)


def test_inner_lists_keep_their_identity() -> None:
    shared = [5]
    rows = [[1], shared, shared]
    first = rows[0]
    assert jit.rows_grown(rows, 2) is first
    assert rows[0] is first and rows[1] is shared and rows[2] is shared
    expected = [[1], shared_copy := [5], shared_copy]
    py.rows_grown(expected, 2)
    assert rows == expected == [[1, 2], [5], [5], [2, 3]]


@pytest.mark.parametrize(
    "argument, message",
    [
        ([[], []], "a list of empty lists has no item type"),
        ([[1], [2.5]], "a list of lists whose lists hold items of different types"),
        ([[1], 2], "a list mixing list and int items"),
    ],
)
def test_lists_of_lists_compiled_code_cannot_take(argument: list, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        jit.breadth_first(argument, 0)


@given(rows=st.lists(st.lists(st.integers(-3, 3), max_size=3), min_size=1, max_size=4).filter(lambda r: any(r)),
       x=st.integers(-3, 3))
@SETTINGS
def test_rows_dropped_or_replaced_are_written_back(rows: list, x: int) -> None:
    expected, got = [list(r) for r in rows], [list(r) for r in rows]
    first_expected, first_got = expected[0], got[0]
    assert py.rows_dropped_and_replaced(expected, x) == jit.rows_dropped_and_replaced(got, x)
    assert got == expected and first_got == first_expected  # (the dropped row changed too)


def test_lists_of_lists_odd_shapes() -> None:
    # A list of empty lists takes its items' type from its siblings.
    for grid in ([[[1]], [[]]], [[[]], [[1]]], [[], [[1]]]):
        expected, got = [[list(r) for r in g] for g in grid], [[list(r) for r in g] for g in grid]
        assert py.grown_deeper(expected) == jit.grown_deeper(got) and got == expected
    selfish: list = [[1]]
    selfish.append(selfish)
    with pytest.raises(TypeError, match="a list that holds itself cannot be compiled for"):
        jit.breadth_first(selfish, 0)
    deep: list = [1]
    for _ in range(40):
        deep = [deep]
    with pytest.raises(TypeError, match="lists nested more than 32 deep"):
        jit.breadth_first(deep, 0)


@given(values=st.lists(st.integers(-5, 5), min_size=1, max_size=4), x=st.integers(-5, 5))
@SETTINGS
def test_raise_messages_show_lists_as_they_were(values: list, x: int) -> None:
    assert_same_effects(py.message_of_the_list_as_raised, jit.message_of_the_list_as_raised, values, x)
