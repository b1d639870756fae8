"""@plait.jit's API: errors with locations, dispatch, eager signatures,
inspect, options, thread safety and detached execution."""

from __future__ import annotations

import sys
import types
from typing import Any

import numpy as np
import pytest

import jit_bad_code as bad
import plait
from conftest import run_in_threads
from plait.testing import jit_rendezvous, unique_barrier_id

BAD_FILE = bad.__file__


def compile_error(fn: Any, *args: Any) -> plait.CompileError:
    with pytest.raises(plait.CompileError) as info:
        plait.jit(fn)(*args)
    return info.value


@pytest.mark.parametrize(
    "fn, cls, line, column, fragment",
    [
        (bad.uses_list, plait.TypingError, 8, 18, "cannot put a tuple[int, int] into a list[int]"),
        (bad.returns_a_dtype, plait.UnsupportedError, 13, 5, "returns a dtype or a function"),
        (bad.calls_open, plait.UnsupportedError, 17, 5, "calling 'open'"),
        (bad.uses_with, plait.UnsupportedError, 22, 5, "With statements are not supported"),
        (bad.int_or_tuple, plait.TypingError, 31, 9, "variable 'y' is tuple[int, int] here but int at"),
        (bad.returns_int_or_tuple, plait.TypingError, 38, 5, "returns tuple[int, int] here but int at"),
        (bad.float_bit_and, plait.TypingError, 42, 12, "unsupported operand type(s) for &: 'int' and 'float'"),
        (bad.unknown_name, plait.TypingError, 46, 16, "name 'undefined_name' is not defined"),
        (bad.huge_constant, plait.UnsupportedError, 50, 16, "does not fit in int64"),
        (bad.uses_comprehension, plait.UnsupportedError, 54, 10, "Set expressions are not supported"),
        (bad.math_of_an_int, plait.TypingError, 59, 12, "fsum() takes a tuple or a 1-D array of real numbers, not int"),
        (bad.attribute_of_value, plait.UnsupportedError, 63, 12, "attribute access"),
        (bad.maybe_none, plait.TypingError, 68, 9, "may also end without a return"),
        (bad.wrong_arity, plait.TypingError, 72, 12, "helper_for_arity() takes 1"),
    ],
)
def test_unsupported_code_fails_at_the_right_place(fn: Any, cls: type, line: int, column: int, fragment: str) -> None:
    namespace = dict(vars(bad))
    copy = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__)
    namespace["helper_for_arity"] = plait.jit(bad.helper_for_arity)
    error = compile_error(copy, 1)
    assert isinstance(error, cls), error
    text = str(error)
    assert text.startswith(f"{BAD_FILE}:{line}:{column}: "), text
    assert fragment in text, text
    source_line, caret_line = text.splitlines()[1:3]
    original = open(BAD_FILE).read().splitlines()[line - 1]
    assert source_line == "    " + original
    assert caret_line.index("^") == 4 + column - 1, (caret_line, column)


def test_functions_without_source_are_compile_errors() -> None:
    # (exec'd functions have their source: test_jit_sources.py.) Code that
    # names a text nobody kept:
    namespace: dict[str, Any] = {}
    exec("def f(x):\n    return x\n", namespace)
    f = namespace["f"]
    orphan = types.FunctionType(f.__code__.replace(co_filename="<gone>"), namespace, "f")
    with pytest.raises(plait.CompileError, match="source code is not available.*linecache"):
        plait.jit(orphan)(1)
    with pytest.raises(TypeError):
        plait.jit(len)  # type: ignore[arg-type]


def add(a, b=2):
    """Adds."""
    return a + b


def loop(n):
    total = 0
    for i in range(n):
        total += i
    return total


def test_wrapper_attributes_and_dispatch() -> None:
    f = plait.jit(add)
    assert f.__name__ == "add" and f.__doc__ == "Adds." and f.__wrapped__ is add
    assert f.py_func is add
    assert f(1) == 3 and f(1, 2.5) == 3.5 and f(b=4, a=1) == 5 and f(True, True) == 2
    assert sorted(f.signatures) == ["float(int64, float64)", "int(bool, bool)", "int(int64, int64)"]
    with pytest.raises(TypeError, match=r"argument 1 \('a'\) must be int, float, bool, complex, None, a str, a tuple, a list, a dict, a dtype, a jitted function or an array, not set"):
        f({1})
    # A bad call's TypeError is CPython's, word for word.
    for args, kwargs in (((), {}), ((1,), {"c": 2}), ((1, 2, 3), {}), ((), {"b": 1})):
        with pytest.raises(TypeError) as expected:
            add(*args, **kwargs)
        with pytest.raises(TypeError) as got:
            f(*args, **kwargs)
        assert str(got.value) == str(expected.value)
    with pytest.raises(OverflowError, match="does not fit in int64"):
        f(2**64, 1)
    import numpy as np

    assert f(np.int64(3), np.float32(0.5)) == 3.5


def test_eager_signatures_compile_at_decoration() -> None:
    f = plait.jit(["float64(float64, float64)", "int64(int64, int64)"])(add)
    assert f.signatures == ["float64(float64, float64)", "int64(int64, int64)"]
    assert f(1, 2) == 3 and type(f(1, 2)) is int
    assert f(1.5, 2) == 3.5  # converted to a compiled signature
    assert f(True, 2) == 3
    narrow = plait.jit("float32(float32, float32)")(add)
    assert narrow(0.1, 0.2) == float(np_float32(np_float32(0.1) + np_float32(0.2)))
    with pytest.raises(plait.TypingError):
        plait.jit("int64(int64)")(bad.int_or_tuple)
    with pytest.raises(TypeError, match="malformed signature"):
        plait.jit("float64 float64")(add)
    with pytest.raises(TypeError, match="unknown result type 'str'"):
        plait.jit("str(float64)")(add)
    with pytest.raises(TypeError, match="unknown type 'float16'"):
        plait.jit("(float16, float64)")(add)
    with pytest.raises(plait.TypingError, match="cannot be returned as int64"):
        plait.jit("int64(float64, float64)")(add)
    strict = plait.jit("int64(int64, int64)")(add)
    with pytest.raises(TypeError, match="no compiled signature"):
        strict(1.5, 2.0)


@pytest.mark.parametrize("bad_type", ["float64[:, ::1, :]", "float64[::1, ::1]", "float64[]", "uint8[" + ", ".join([":"] * 9) + "]", "float128[:]", "bool_", "numpy.float32"])
def test_signatures_reject_malformed_types(bad_type: str) -> None:
    with pytest.raises(TypeError, match=r"unknown type"):
        plait.jit(f"({bad_type}, float64)")(add)


def test_signatures_spell_layouts() -> None:
    import numpy as np

    f = plait.jit(["(float64[::1,:], int64)", "(float64[:, ::1], int64)"])(first_plus)
    assert f.signatures == ["numpy.float64(float64[::1,:], int64)", "numpy.float64(float64[:, ::1], int64)"]
    fortran = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    assert f(fortran, 1) == first_plus(fortran, 1) == 1.0
    assert f(np.ascontiguousarray(fortran), 1) == 1.0
    with pytest.raises(TypeError, match="no compiled signature"):
        f(fortran[:, ::2], 1)  # neither layout
    g = plait.jit("(float32, int32)")(add)
    result = g(np.float32(1.5), 2)  # NumPy scalars count as Python's
    assert type(result) is float and result == 3.5


def first_plus(x, n):
    return x[0, 0] + n


def np_float32(x: float) -> float:
    import numpy as np

    return float(np.float32(x))


def test_inspect_every_stage() -> None:
    f = plait.jit(loop)
    with pytest.raises(ValueError, match="not been compiled"):
        f.inspect()
    assert f(10) == 45
    stages = ("plait", "optimized-plait", "mlir", "optimized-mlir", "llvm", "asm")
    texts = {stage: f.inspect(stage=stage) for stage in stages}
    assert "plait.for" in texts["plait"] and "plait.add check" in texts["plait"]
    assert "scf.if" in texts["optimized-plait"], "the loop's counter is versioned"
    lowered = [op for op in ("plait.for", "plait.add", "plait.raise_if", "plait.continue") if op in texts["mlir"]]
    assert not lowered, f"lowered: no plait operations are left, but {lowered}"
    assert "func.func" in texts["mlir"] and "cf.cond_br" in texts["mlir"]
    assert "func.func" in texts["optimized-mlir"]
    assert "define" in texts["llvm"]
    assert "plait_entry" in texts["asm"]
    assert f.inspect("int(int64)", stage="llvm") == texts["llvm"]
    assert f.inspect("(int64)") == texts["mlir"]
    with pytest.raises(ValueError, match="stage"):
        f.inspect(stage="bytecode")
    with pytest.raises(KeyError):
        f.inspect("(float64)")


def test_inspect_compiles_again_keeping_the_stages() -> None:
    # Compilations do not print their stages; the first inspect() of a
    # signature compiles it once more, keeping them, and later ones reuse it.
    f = plait.jit(loop)
    assert f(10) == 45
    before = plait.stats()["compilations"]
    mlir = f.inspect()
    assert plait.stats()["compilations"] == before + 1
    assert f.inspect(stage="optimized-plait") and f.inspect() == mlir
    assert plait.stats()["compilations"] == before + 1
    assert f(11) == 55 and f.signatures == ["int(int64)"]
    # The entry is inlined into the one exported wrapper: its code is
    # optimised and generated once, not twice.
    defined = [line for line in f.inspect(stage="llvm").splitlines() if line.startswith("define")]
    assert len(defined) == 1 and "_packed" in defined[0], defined
    # A recompilation after invalidation prints afresh.
    f.invalidate()
    assert f(3) == 3
    assert f.inspect() != "" and plait.stats()["compilations"] == before + 3


def test_compile_times_by_phase() -> None:
    f = plait.jit(loop)
    with pytest.raises(ValueError, match="not been compiled"):
        f.compile_times()
    f(4)
    times = f.compile_times()
    phases = [name for name in times if name != "total"]
    assert phases[:3] == ["typing and emission", "plait passes", "lowering to MLIR"], phases
    assert {"LLVM optimisation", "code generation", "linking"} <= set(phases)
    assert "printing stages" not in phases, "stages are printed only for inspect()"
    assert all(seconds >= 0 for seconds in times.values())
    assert 0 < sum(times[name] for name in phases) <= times["total"]
    assert f.compile_times("(int64)") == times
    with pytest.raises(KeyError):
        f.compile_times("(float64)")


def test_options_are_validated() -> None:
    with pytest.raises(ValueError):
        plait.jit(nogil="sometimes")(add)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        plait.jit(overflow="saturate")(add)
    fast = plait.jit(fastmath=True)(add)
    assert fast(0.5, 0.25) == 0.75
    assert "fastmath" in fast.inspect(stage="mlir")


def meet(barrier, n):
    return jit_rendezvous(barrier, n, 60.0)


def test_long_running_calls_release_the_gil() -> None:
    # Two threads inside compiled code at once: only possible if the call
    # released the GIL (nogil="auto": the function may block).
    f = plait.jit(meet)
    barrier = unique_barrier_id()
    assert run_in_threads(2, lambda i: f(barrier, 2)) == [True, True]
    if not getattr(sys, "_is_gil_enabled", lambda: True)():
        return  # free-threaded: there is no GIL for nogil=False to hold
    held_barrier = unique_barrier_id()
    # With the GIL held during the call the other thread cannot enter: both
    # time out (60 s would be too long: use a short barrier).
    short = plait.jit(nogil=False)(short_meet)
    assert run_in_threads(2, lambda i: short(held_barrier, 2)) == [False, False]


def short_meet(barrier, n):
    return jit_rendezvous(barrier, n, 0.2)


def test_one_dispatcher_many_threads() -> None:
    f = plait.jit(loop)
    results = run_in_threads(8, lambda i: [f(n) for n in range(i, 200, 8)])
    for i, values in enumerate(results):
        assert values == [n * (n - 1) // 2 for n in range(i, 200, 8)]
    assert f.signatures == ["int(int64)"]


def clipped_total(a):
    return np.clip(a, 0.0, 1.0).sum() + sum([x * 2 for x in range(3)])


def test_inspect_of_code_with_overloaded_calls() -> None:
    # np.clip and sum() are implemented with plait.overload: inspect()'s
    # compilation resolves them again, into a snapshot of its own.
    f = plait.jit(clipped_total)
    a = np.array([-1.0, 0.5, 2.0])
    assert f(a) == clipped_total(a)
    assert "func.func" in f.inspect(stage="mlir") and f.inspect(stage="llvm").count("define") == 1


def test_two_result_types_for_the_same_arguments_are_an_error() -> None:
    with pytest.raises(TypeError, match=r"already has the signature float64\(int64, int64\)"):
        plait.jit(["float64(int64, int64)", "int64(int64, int64)"])(add)
    f = plait.jit(["float64(int64, int64)"])(add)
    f.compile("float64(int64, int64)")  # again: nothing to do
    f.compile("float(int64, int64)")  # the same conversion, spelled otherwise
    assert f(1, 2) == 3.0 and isinstance(f(1, 2), float) and f.signatures == ["float64(int64, int64)"]
