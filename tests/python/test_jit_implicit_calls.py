"""Jitted code calls plain Python functions: they compile with it (as if
decorated), are guarded like jitted callees, and a function plait cannot
read stays an error that names it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jit_implicit as py
import plait

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@given(values=st.lists(st.floats(-100, 100), max_size=8), n=st.integers(0, 12))
@SETTINGS
def test_plain_callees_compile_with_their_caller(values: list[float], n: int) -> None:
    a = np.array(values)
    assert plait.jit(py.entry)(a, n) == py.entry(a, n)


def test_a_small_network_of_plain_helpers() -> None:
    rng = np.random.default_rng(1)
    x, w1, w2 = rng.standard_normal((4, 3)), rng.standard_normal((3, 5)), rng.standard_normal((5, 2))
    np.testing.assert_allclose(plait.jit(py.network)(x, w1, w2), py.network(x, w1, w2), rtol=1e-12)


def test_the_helper_is_not_called_through_python() -> None:
    f = plait.jit(py.entry)
    f(np.ones(3), 3)
    # One compilation for the whole program; the helpers were not called
    # through their own dispatchers (they have none compiled).
    helper = py.scale.__dict__["_plait_implicit"]
    assert helper.signatures == []
    assert "scale" in f.inspect(stage="plait")


def test_re_binding_a_plain_callee_recompiles_the_caller() -> None:
    f = plait.jit(py.calls_add_one)
    assert f(1) == 2
    original = py.add_one
    try:
        py.add_one = py.add_two
        assert f(1) == 3
    finally:
        py.add_one = original
    assert f(1) == 2


def test_editing_a_plain_callees_code_recompiles_the_caller() -> None:
    f = plait.jit(py.calls_add_one)
    assert f(1) == 2
    code = py.add_one.__code__
    try:
        py.add_one.__code__ = py.add_two.__code__
        assert f(1) == 3
    finally:
        py.add_one.__code__ = code
    assert f(1) == 2


def test_a_callee_plait_cannot_read_is_named_in_the_error() -> None:
    with pytest.raises(plait.UnsupportedError, match=r"calling 'make_lambda' \(function\) is not supported"):
        plait.jit(py.calls_a_lambda)(1)
