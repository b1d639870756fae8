"""str arguments and constants in compiled code: each str is a constant of
the code compiled for it (mode="wrap"), comparisons of strs and `is None`
are known when compiling, and the branches they rule out are neither typed
nor emitted; strs in print and in exception messages read as CPython's."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_strings as py
import plait
from jit_support import assert_same, jitted_copies

jit = jitted_copies(py)
SETTINGS = settings(max_examples=60, deadline=None)

modes = st.one_of(st.sampled_from(["wrap", "clip", "edge", "reflect", "", "Wrap", "wrap ", "é", "clip,edge"]),
                  st.text(max_size=6))


@given(mode=modes)
@SETTINGS
def test_mode_arguments(mode: str) -> None:
    assert_same(py.boundary, jit.boundary, np.arange(1.0, 5.0), mode)


def test_defaults_and_signatures() -> None:
    a = np.arange(1.0, 5.0)
    assert jit.boundary(a) == py.boundary(a) == 5.0
    assert jit.boundary(a, mode="edge") == 2.0
    f = plait.jit(py.boundary)
    f(a, "clip"), f(a, "edge")
    assert sorted(f.signatures) == [
        "numpy.float64(float64[::1], str['clip'])",
        "numpy.float64(float64[::1], str['edge'])",
    ]


def test_only_the_live_branch_is_typed() -> None:
    assert jit.by_rank(np.ones((2, 3)), "2d") == py.by_rank(np.ones((2, 3)), "2d") == 4.0
    assert jit.by_rank(np.ones(3), "1d") == py.by_rank(np.ones(3), "1d") == 1.0


@given(scale=st.one_of(st.none(), st.floats(-4, 4)), axis=st.one_of(st.none(), st.integers(0, 3)))
@SETTINGS
def test_none_checks(scale: object, axis: object) -> None:
    assert_same(py.total, jit.total, np.arange(4.0), axis, scale)


@given(s=modes, t=modes)
@SETTINGS
def test_comparisons(s: str, t: str) -> None:
    assert_same(py.compare, jit.compare, s, t)
    assert_same(py.truth, jit.truth, s)


def test_a_known_conditional_expression_is_its_live_side() -> None:
    assert_same(py.chooses, jit.chooses, "float")
    assert_same(py.chooses, jit.chooses, "int")


@given(s=modes, x=st.floats(-100, 100))
@SETTINGS
def test_print_and_messages(s: str, x: float) -> None:
    outputs = []
    for fn in (py.shows, jit.shows):
        saved, sys.stdout = sys.stdout, io.StringIO()
        try:
            try:
                result: object = ("value", fn(s, x))
            except KeyError as error:
                result = ("raised", repr(error))
            outputs.append((sys.stdout.getvalue(), result))
        finally:
            sys.stdout = saved
    assert outputs[0] == outputs[1]


@given(s=modes, x=st.floats(-10, 10))
@SETTINGS
def test_strs_are_returned(s: str, x: float) -> None:
    assert_same(py.returns_strs, jit.returns_strs, s, x)


def test_what_is_refused() -> None:
    with pytest.raises(plait.TypingError, match="'<' not supported between instances of 'str' and 'int'"):
        jit.ordering_mixed("a")
    with pytest.raises(plait.UnsupportedError, match="'is' compares with None in compiled code"):
        jit.identity_of_values(1, 2)


def test_long_strs_are_values_of_the_run_time() -> None:
    # (Longer than a dispatch key holds: passed as a run-time str.)
    for mode in ("x" * 65, "wrap" * 20):
        assert_same(py.boundary, jit.boundary, np.arange(1.0, 5.0), mode)
    assert_same(py.boundary, jit.boundary, np.arange(1.0, 5.0), "clip" + " " * 70)


@given(x=st.integers(-3, 3), mode=st.sampled_from(["a", "b"]))
@SETTINGS
def test_calls_and_pruned_returns(x: int, mode: str) -> None:
    assert_same(py.calls_for_effect, jit.calls_for_effect, x)
    assert_same(py.ends_in_a_pruned_branch, jit.ends_in_a_pruned_branch, x, mode)
