"""A jitted function compiles with its own options (overflow, boundscheck,
fastmath) wherever it is called from, its inner functions with them too;
plain functions called from jitted code take the compilation's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_options as py
import plait

SETTINGS = settings(max_examples=30, deadline=None)
values_lists = st.lists(st.integers(-(2**20), 2**20), min_size=3, max_size=12)


def wrapped_hash(values: list[int]) -> int:
    """The hash with int64 wrap-around, computed with Python ints."""
    h = py.OFFSET
    for x in values:
        h = (h * py.FNV_PRIME + x + 2**63) % 2**64 - 2**63
    return h


@given(values=values_lists)
@SETTINGS
def test_a_wrapping_callee_wraps_inside_a_checking_caller(values: list[int]) -> None:
    caller = plait.jit(py.hash_with)
    assert caller(py.wrapping_step, values) == wrapped_hash(values)
    # The caller's own arithmetic still checks.
    with pytest.raises(OverflowError, match="int64 overflow"):
        plait.jit(py.hash_inline)(values)


@given(values=values_lists)
@SETTINGS
def test_a_checking_callee_checks_inside_a_wrapping_caller(values: list[int]) -> None:
    caller = plait.jit(overflow="wrap")(py.hash_with)
    with pytest.raises(OverflowError, match="int64 overflow"):
        caller(py.checked_step, values)
    assert plait.jit(overflow="wrap")(py.hash_inline)(values) == wrapped_hash(values)


@given(values=values_lists)
@SETTINGS
def test_plain_and_inner_functions_take_the_options_they_compile_with(values: list[int]) -> None:
    assert plait.jit(overflow="wrap")(py.hash_with_plain_step)(values) == wrapped_hash(values)
    with pytest.raises(OverflowError, match="int64 overflow"):
        plait.jit(py.hash_with_plain_step)(values)
    assert py.hash_with_inner_step(values) == wrapped_hash(values)


def test_a_bounds_checking_callee_checks_inside_an_unchecked_caller() -> None:
    caller = plait.jit(boundscheck=False)(py.read_through_checked_callee)
    a = np.arange(5.0)
    assert caller(a, 4) == 4.0 and caller(a, -1) == 4.0
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 5"):
        caller(a, 5)
    assert caller(a, 2) == 2.0, "the process is healthy after the error"
