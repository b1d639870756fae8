"""print() in compiled code: what CPython and NumPy print, through
sys.stdout with the interpreter attached (in order with Python's own
output, from detached threads too), and print's own exceptions."""

from __future__ import annotations

import io
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_print as py
import plait
from conftest import run_in_threads
from jit_support import floats, ints, jitted_copies, outcome, quiet
from plait.testing import unique_barrier_id

jit = jitted_copies(py)
SETTINGS = settings(max_examples=60, deadline=None)


def printed(fn, *args):
    """What fn(*args) writes to sys.stdout, and its outcome."""
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        with quiet():
            result = outcome(fn, *args)
        return sys.stdout.getvalue(), result
    finally:
        sys.stdout = saved


def assert_prints_the_same(name, *args):
    expected = printed(getattr(py, name), *args)
    got = printed(getattr(jit, name), *args)
    assert got == expected, (args, expected, got)


@given(i=st.integers(-(2**62), 2**62), x=floats, b=st.booleans(), z=st.complex_numbers())
@SETTINGS
def test_numbers(i: int, x: float, b: bool, z: complex) -> None:
    assert_prints_the_same("numbers", i, x, b, z)


@given(i=st.integers(0, 10**9), x=st.one_of(floats, st.floats(-1e4, 1e4)))
@SETTINGS
def test_numpy_scalars(i: int, x: float) -> None:
    assert_prints_the_same("numpy_scalars", i, x)


@given(values=st.lists(st.one_of(st.floats(-1e3, 1e3), st.sampled_from([0.0, -0.0, 1e9, 1e-300, 0.5])), min_size=4, max_size=4).map(sorted))
@SETTINGS
def test_arrays(values: list) -> None:
    assert_prints_the_same("arrays", np.array(values * 3))
    assert_prints_the_same("arrays", np.arange(12.0) * 0.1)


@given(i=ints, x=floats)
@SETTINGS
def test_strings_tuples_keywords_and_fstrings(i: int, x: float) -> None:
    assert_prints_the_same("strings_and_tuples", i, x)
    assert_prints_the_same("keywords", i, x)
    assert_prints_the_same("fstrings", i, x)


def test_in_order_with_python_output(capsys: pytest.CaptureFixture[str]) -> None:
    print("before")
    assert jit.prints_in_a_loop(3) == 3
    print("after")
    assert jit.result_of_print(7) is None
    assert capsys.readouterr().out == "before\nstep 0 0\nstep 1 1\nstep 2 3\nafter\n7\n"


def test_detached_threads_print_through_the_interpreter(capsys: pytest.CaptureFixture[str]) -> None:
    barrier = unique_barrier_id()
    assert run_in_threads(2, lambda i: jit.print_twice_meeting(barrier, i)) == [True, True]
    lines = sorted(capsys.readouterr().out.split("\n"))
    assert lines == ["", "thread 0 met True", "thread 1 met True"]


def test_an_exception_print_raises_propagates() -> None:
    closed = io.StringIO()
    closed.close()
    saved = sys.stdout
    sys.stdout = closed
    try:
        expected = outcome(py.numbers, 1, 2.0, True, 1j)
        got = outcome(jit.numbers, 1, 2.0, True, 1j)
    finally:
        sys.stdout = saved
    assert expected[:2] == ("raised", ValueError)
    assert got == expected
    # The next call prints again.
    assert printed(jit.numbers, 1, 2.0, True, 1j) == printed(py.numbers, 1, 2.0, True, 1j)


def test_print_to_sys_stderr_follows_its_redirection() -> None:
    def both(fn, *args):
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        try:
            fn(*args)
            return sys.stdout.getvalue(), sys.stderr.getvalue()
        finally:
            sys.stdout, sys.stderr = saved

    for args in [(1, 0.5), (-3, 2.125)]:
        assert both(jit.to_the_streams, *args) == both(py.to_the_streams, *args)


def test_what_print_cannot_show_is_an_error() -> None:
    with pytest.raises(plait.UnsupportedError, match=r"print\(file=...\) in compiled code takes sys.stdout or sys.stderr"):
        jit.to_a_file(1, None)
    with pytest.raises(plait.UnsupportedError, match="print\\(\\) in compiled code shows numbers"):
        jit.a_function(1)


def test_print_failures_and_except_clauses() -> None:
    closed = io.StringIO()
    closed.close()
    saved = sys.stdout
    sys.stdout = closed
    try:
        results = [outcome(fn, 1) for fn in (py.print_failure_caught, jit.print_failure_caught,
                                              py.print_failure_in_finally, jit.print_failure_in_finally)]
    finally:
        sys.stdout = saved
    assert results[0] == results[1] == ("value", -1)
    assert results[2][:2] == results[3][:2] == ("raised", ValueError)
