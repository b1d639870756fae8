"""plait.overload and plait.overload_method, as a user writes them: the
type-level function sees the call's argument types (plait.types) while the
caller compiles, its implementation runs compiled (and gives what the
interpreted target gives), its refusals and errors carry the call's
location, and compilations that resolve overloads run in parallel (the
resolver re-attaches to the interpreter from the detached compiler)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import jit_overload as py
import plait
from conftest import run_in_threads
from jit_support import assert_same, floats, quiet
from plait import types
from plait.testing import compile_rendezvous, unique_barrier_id

SETTINGS = settings(max_examples=50, deadline=None)
# The callers, compiled; the targets (scale, relu, ...) stay the plain
# functions the overloads are registered for.
jit = SimpleNamespace(
    **{name: plait.jit(getattr(py, name)) for name in dir(py) if name.startswith(("uses_", "calls_"))}
)


@given(
    x=st.one_of(
        floats,
        st.integers(-(2**40), 2**40),
        hnp.arrays(st.sampled_from([np.float64, np.float32, np.int32]), st.integers(0, 6)),
    )
)
@SETTINGS
def test_an_overload_implements_the_call_per_argument_types(x: Any) -> None:
    with quiet():
        assert_same(py.uses_scale, jit.uses_scale, x)
        assert_same(py.uses_scale_keyword, jit.uses_scale_keyword, x, 0.5)


def test_the_type_level_function_sees_plait_types() -> None:
    # (Types no other test passes: resolutions are remembered per types.)
    py.SEEN.clear()
    jit.uses_scale(np.ones(3, dtype=np.uint16))
    jit.uses_scale_keyword(np.int8(3), np.float32(1.5))
    assert py.SEEN == [
        (types.Array(np.uint16, 1, "C"), None),
        (types.NumPyScalar(np.int8), types.NumPyScalar(np.float32)),
    ]
    assert str(types.Array(np.uint16, 1, "C")) == "uint16[::1]"


def test_no_implementation_for_the_types_is_refused_at_the_call() -> None:
    with pytest.raises(plait.UnsupportedError) as raised:
        jit.uses_scale_of_tuple(1.0)
    message = str(raised.value)
    assert "jit_overload.py:" in message and "scale() is not supported for arguments (tuple[float, float])" in message
    assert "return scale((x, x))" in message  # the source line, with a caret


def test_a_keyword_the_type_level_function_lacks_is_a_typing_error() -> None:
    with pytest.raises(plait.TypingError, match="got an unexpected keyword argument 'fudge'"):
        jit.uses_scale_wrongly(1.0)


def test_a_type_level_error_reaches_the_caller_with_its_location() -> None:
    assert jit.uses_checked_sqrt(2.25) == 1.5
    with pytest.raises(plait.TypingError, match=r"jit_overload.py:\d+:\d+: checked_sqrt\(\) does not take a bool"):
        jit.uses_checked_sqrt(True)


@given(x=hnp.arrays(st.sampled_from([np.float64, np.int16, np.float32]), hnp.array_shapes(min_dims=0, max_dims=3, max_side=4)))
@SETTINGS
def test_a_user_ufunc_loop_broadcasts_its_kernel(x: np.ndarray) -> None:
    value = x if x.ndim else x[()]  # a NumPy scalar for 0-d
    with quiet():
        assert_same(py.uses_relu, jit.uses_relu, value)


@given(a=hnp.arrays(np.int32, st.tuples(st.integers(0, 4), st.integers(0, 4))))
@SETTINGS
def test_overload_method_implements_an_array_method(a: np.ndarray) -> None:
    assert_same(py.uses_trace, jit.uses_trace, a)


def test_overload_method_is_for_ndarrays_lists_and_dicts() -> None:
    with pytest.raises(TypeError, match="numpy.ndarray, list and dict"):
        plait.overload_method(set, "add")


def test_calls_inside_long_loops_do_not_grow_the_stack() -> None:
    # Inlined callees' stack slots are allocated once, not per iteration.
    assert jit.calls_in_a_loop(3_000_000) == 3_000_000


def test_compilations_resolving_overloads_run_in_parallel() -> None:
    # Both compilations meet inside the native compiler (detached), then
    # each resolves its NumPy calls by re-attaching to the interpreter.
    first = plait.jit(py.clip_for_threads)
    second = plait.jit(py.tanh_for_threads)
    a = np.linspace(0.0, 1.0, 101)
    with compile_rendezvous(unique_barrier_id(), 2, timeout_seconds=60):
        results = run_in_threads(2, lambda i: (first, second)[i](a))
    assert results[0] == py.clip_for_threads(a)
    np.testing.assert_allclose(results[1], py.tanh_for_threads(a), rtol=1e-14)


def test_types_parse_the_signature_spellings() -> None:
    for text in ("int", "float", "bool", "complex", "None", "numpy.uint8", "float64[:, ::1]",
                 "int32[::1, :]", "complex64[:]", "tuple[int, float64[::1]]", "dtype[float32]"):
        assert str(types.parse(text)) == text
    assert types.parse("float64[:, ::1]").layout == "C"
    assert types.parse("int32[::1, :]").layout == "F"
    with pytest.raises(ValueError):
        types.parse("list[int]x")


def test_the_guide_lists_the_registry() -> None:
    import plait.numpy

    names = {name for names in plait.numpy.supported().values() for name in names}
    for name in ("np.clip", "np.linspace", "np.tanh", "np.add.outer", "ndarray.clip", "np.histogram",
                 "np.sum", "np.linalg.solve"):
        assert name in names
    guide = Path(__file__).resolve().parents[2] / "docs" / "jit-guide.md"
    assert plait.numpy.guide_table(str(guide)) == plait.numpy.api_table(), (
        "docs/jit-guide.md's NumPy table is out of date: run "
        "`PYTHONPATH=build/python python -m plait.numpy docs/jit-guide.md`"
    )


def test_a_new_registration_recompiles_its_callers() -> None:
    def shout(x):
        return x

    @plait.overload(shout)
    def _first(x):
        def first(x):
            return x + 1

        return first

    caller = plait.jit(py.uses_global_target)
    py.GLOBAL_TARGET = shout
    try:
        assert caller(1) == 2

        @plait.overload(shout)
        def _second(x):
            def second(x):
                return x + 100

            return second

        assert caller(1) == 101  # the newest registration is tried first
        assert caller.stats()["compilations"] == 2
    finally:
        py.GLOBAL_TARGET = None
