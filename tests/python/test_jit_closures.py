"""Lambdas and inner defs: called where they are made, passed to jitted
functions and to plait.numpy (np.fromfunction), writing through what they
capture; jitted functions as values. Compiled and interpreted give the same
values, effects and exceptions (closures read their variables when they
run, as Python's do)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_closures as py
import plait
from jit_support import assert_same, assert_same_effects, jitted_copies, small_ints

jit = jitted_copies(py)
SETTINGS = settings(max_examples=40, deadline=None)
vectors = hnp.arrays(np.float64, st.integers(1, 6), elements=st.floats(-100, 100))


@given(x=small_ints, y=st.one_of(small_ints, st.floats(-10, 10)), n=st.integers(-2, 6))
@SETTINGS
def test_lambdas_and_inner_defs(x: int, y: float, n: int) -> None:
    assert_same(py.lambda_called, jit.lambda_called, x, y)
    assert_same(py.late_binding, jit.late_binding, x)
    assert_same(py.defined_before_its_variable, jit.defined_before_its_variable, x)
    assert_same(py.closure_per_iteration, jit.closure_per_iteration, n)
    assert_same(py.closure_calls_closure, jit.closure_calls_closure, x)
    assert_same(py.returns_a_closure, jit.returns_a_closure, x)
    assert_same(py.raises_inside, jit.raises_inside, x)  # ZeroDivisionError


@given(a=vectors, k=small_ints)
@SETTINGS
def test_closures_over_arrays(a: np.ndarray, k: int) -> None:
    assert_same(py.inner_def_with_default, jit.inner_def_with_default, a, k)
    assert_same(py.captures_an_array, jit.captures_an_array, a, k)
    assert_same_effects(py.writes_through_a_closure, jit.writes_through_a_closure, a)
    assert_same(py.passes_a_lambda, jit.passes_a_lambda, a, k)
    assert_same(py.passes_a_function, jit.passes_a_function, a)
    assert_same_effects(py.passes_a_writer, jit.passes_a_writer, a)


def test_writes_through_closures_count_as_writes() -> None:
    frozen = np.zeros(3)
    frozen.flags.writeable = False
    for name in ("writes_through_a_closure", "passes_a_writer"):
        with pytest.raises(ValueError, match="is read-only, but .* writes to it"):
            getattr(jit, name)(frozen)
    assert jit.captures_an_array(frozen, 2) == 0.0  # reading is fine


@given(n=st.integers(0, 4), m=st.integers(0, 4), a=vectors, k=small_ints)
@SETTINGS
def test_fromfunction(n: int, m: int, a: np.ndarray, k: int) -> None:
    assert_same(py.fromfunction_2d, jit.fromfunction_2d, n, m)
    assert_same(py.fromfunction_int, jit.fromfunction_int, a, k)
    assert_same(py.fromfunction_3d, jit.fromfunction_3d, n)


def test_dtype_defaults() -> None:
    assert_same(py.dtype_default_used, jit.dtype_default_used, 3)


@given(n=st.integers(0, 12), c=st.floats(-4, 4), size=st.integers(1, 4))
@SETTINGS
def test_inner_functions_that_call_themselves(n: int, c: float, size: int) -> None:
    assert_same(py.calls_itself, jit.calls_itself, n)
    assert_same_effects(py.fibonacci_scaled, jit.fibonacci_scaled, n, c, np.zeros(size))


def test_closure_limits_are_explained() -> None:
    with pytest.raises(plait.CompileError, match=r"jit_closures.py:\d+:5: cannot compile call_each_other.even: "
                                                 "inner functions that call each other are not supported"):
        jit.call_each_other(3)
    with pytest.raises(plait.CompileError, match="calls itself is supported when nothing else binds the name 'f'"):
        jit.calls_itself_rebound(3)
    with pytest.raises(plait.UnsupportedError, match="returns a dtype or a function"):
        jit.returns_a_function(3)


@given(a=st.floats(-10, 10), b=st.floats(-10, 10), n=st.integers(1, 50))
@SETTINGS
def test_jitted_functions_passed_from_python(a: float, b: float, n: int) -> None:
    # Each function passed is part of the call's key: the code calls it
    # directly (as Numba's first-class functions, jitted ones only).
    for f in (jit.square, jit.cube):
        assert jit.integrate(f, a, b, n) == py.integrate(f.py_func, a, b, n)


def test_functions_as_arguments_are_keys_and_plain_ones_are_refused() -> None:
    integrate = plait.jit(py.integrate)
    integrate(jit.square, 0.0, 1.0, 4)
    integrate(jit.cube, 0.0, 1.0, 4)
    assert integrate.signatures == [f"float(function[{jit.square._plait_id}], float64, float64, int64)",
                                    f"float(function[{jit.cube._plait_id}], float64, float64, int64)"]
    with pytest.raises(TypeError, match="must be .* a jitted function or an array, not function"):
        integrate(py.cube, 0.0, 1.0, 4)
    explicit = plait.jit(f"float64(function[{jit.cube._plait_id}], float64, float64, int64)")(py.integrate)
    assert explicit(jit.cube, 0.0, 2.0, 8) == py.integrate(py.cube, 0.0, 2.0, 8)
