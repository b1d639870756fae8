"""Pickling jitted functions: by reference when importable, by value
otherwise (source, globals read, options, signatures), compiled again where
they are unpickled; with pickle, cloudpickle and process pools."""

from __future__ import annotations

import math
import multiprocessing
import pickle
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jit_pickling
import plait

LIMIT = 2.5


def test_an_importable_function_pickles_by_reference() -> None:
    data = pickle.dumps(jit_pickling.importable_kernel)
    assert b"importable_kernel" in data and b"def importable_kernel" not in data
    assert pickle.loads(data) is jit_pickling.importable_kernel


@settings(max_examples=30, deadline=None)
@given(st.floats(0, 1e6), st.integers(-1, 200))
def test_a_closure_pickles_by_value_and_computes_the_same(x: float, offset: int) -> None:
    shifted = jit_pickling.make_closure(offset)
    copy = pickle.loads(pickle.dumps(shifted))
    assert copy is not shifted and isinstance(copy, plait.Dispatcher)
    assert copy(x) == shifted.py_func(x) == shifted(x)
    assert copy.__qualname__ == shifted.__qualname__ and copy.__module__ == "jit_pickling"


def test_by_value_keeps_options_signatures_globals_and_defaults() -> None:
    @plait.jit(["float64(float64, int64)"], overflow="wrap", boundscheck=False)
    def clipped(x, n=4):
        total = 0.0
        for i in range(n):
            total += min(math.exp(-x * i), LIMIT)
        return total + (n * 2**62) * 4

    copy = pickle.loads(pickle.dumps(clipped))
    assert copy.signatures == ["float64(float64, int64)"], "explicit signatures compile at once"
    assert copy(0.5) == clipped(0.5)
    # overflow="wrap" travelled: 4 * 2**62 * 4 wraps to 0 in both.
    assert copy(0.5, 4) == clipped(0.5, 4) == sum(min(math.exp(-0.5 * i), LIMIT) for i in range(4))


def test_functions_made_by_exec_pickle_by_value() -> None:
    namespace: dict = {}
    exec("import math\ndef f(x):\n    return math.floor(x) * 2\n", namespace)
    copy = pickle.loads(pickle.dumps(plait.jit(namespace["f"])))
    assert [copy(v) for v in (0.5, -1.5, 7.25)] == [0, -4, 14]


def test_errors_in_the_copy_keep_the_original_lines() -> None:
    @plait.jit
    def fails(a, i):
        return a[i]

    copy = pickle.loads(pickle.dumps(fails))
    with pytest.raises(IndexError):
        copy((1, 2), 5)
    line = fails.py_func.__code__.co_firstlineno + 2
    with pytest.raises(plait.CompileError, match=f"test_jit_pickling.py>:{line}"):
        copy("text", 1.5)


def test_cloudpickle_round_trip() -> None:
    cloudpickle = pytest.importorskip("cloudpickle")
    shifted = jit_pickling.make_closure(7)
    copy = cloudpickle.loads(cloudpickle.dumps(shifted))
    assert copy(2.0) == shifted(2.0)
    assert cloudpickle.loads(cloudpickle.dumps(jit_pickling.importable_kernel)) is jit_pickling.importable_kernel


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_process_pools_run_jitted_functions(method: str) -> None:
    if method not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {method} here")
    if method == "fork" and not getattr(sys, "_is_gil_enabled", lambda: True)():
        pytest.skip("fork with threads running is unsafe on free-threaded builds")
    context = multiprocessing.get_context(method)
    shifted = jit_pickling.make_closure(5)
    with context.Pool(2) as pool:
        by_reference = pool.starmap(jit_pickling.call, [(jit_pickling.importable_kernel, 2.0, n) for n in range(4)])
        by_value = pool.starmap(jit_pickling.call, [(shifted, float(x)) for x in range(4)])
    assert [r for r, _ in by_reference] == [jit_pickling.importable_kernel(2.0, n) for n in range(4)]
    assert [r for r, _ in by_value] == [shifted(float(x)) for x in range(4)]
    # The workers ran compiled code: each compiled at least once.
    assert any(compiled for _, compiled in by_reference + by_value)


def test_recursive_functions_and_def_time_expressions_pickle_by_value() -> None:
    fib, even = jit_pickling.make_recursive()
    for dumps, loads in [(pickle.dumps, pickle.loads)] + (
        [(cloudpickle.dumps, cloudpickle.loads)] if (cloudpickle := pytest.importorskip("cloudpickle")) else []
    ):
        fib_copy, even_copy = loads(dumps((fib, even)))
        assert fib_copy(20) == fib(20) == 6765.0
        assert [even_copy(n) for n in range(6)] == [even(n) for n in range(6)] == [True, False] * 3
        assert fib_copy.py_func.__defaults__ == (jit_pickling.EPS,)


SCRIPT = '''
import multiprocessing
import plait

EPS = 1e-3


@plait.jit
def fib(n, eps=EPS):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        print(pool.map(fib, [10, 20]))
'''


def test_a_script_with_a_recursive_function_and_a_spawn_pool(tmp_path) -> None:
    import os
    import subprocess

    script = tmp_path / "script.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=240)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[55, 6765]"


def test_many_functions_of_one_file_unpickle_each_with_its_own_text() -> None:
    # Both made in jit_pickling.py: unpickled first, compiled later.
    copies = pickle.loads(pickle.dumps([jit_pickling.make_closure(k) for k in range(3)] + list(jit_pickling.make_recursive())))
    assert [c(1.0) for c in copies[:3]] == [jit_pickling.make_closure(k)(1.0) for k in range(3)]
    assert copies[3](10) == 55.0 and copies[4](7) is False
