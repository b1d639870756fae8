"""Executors shared by all threads: one compilation per key (single flight),
no global compiler lock (proved with a native rendezvous inside compilation),
invalidation under load, guards on code and globals, bounded memory."""

from __future__ import annotations

import gc
import sys
import sysconfig
import threading
import types
from typing import Any

import pytest

import jit_shared
import plait
from conftest import rss_kib, run_in_threads
from plait.testing import compile_rendezvous, unique_barrier_id


def fresh(fn: Any, namespace: dict[str, Any] | None = None, **options: Any) -> Any:
    """A new dispatcher over a copy of `fn` (so each test starts cold)."""
    namespace = namespace if namespace is not None else dict(vars(jit_shared))
    copy = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__)
    return plait.jit(copy, **options)


def test_single_flight_sixteen_threads_one_compilation() -> None:
    f = fresh(jit_shared.fresh_add)
    barrier = threading.Barrier(16)

    def call(i: int) -> int:
        barrier.wait()
        return f(i, 3)

    assert run_in_threads(16, call) == [i + 6 for i in range(16)]
    stats = f.stats()
    assert stats["compilations"] == 1, stats
    assert stats["single_flight_waits"] <= 15
    assert stats["live_executors"] == 1 and stats["jit_code_bytes"] > 0


def test_single_flight_shares_the_compile_error() -> None:
    f = fresh(jit_shared.fresh_broken)
    barrier = threading.Barrier(16)

    def call(i: int) -> tuple[type, str]:
        barrier.wait()
        try:
            f(1, 2)
        except plait.CompileError as error:
            return type(error), str(error)
        return type(None), ""

    outcomes = run_in_threads(16, call)
    assert all(kind is plait.TypingError for kind, _ in outcomes), outcomes
    assert len({message for _, message in outcomes}) == 1
    assert "variable 'y'" in outcomes[0][1]
    assert f.stats()["compilations"] == 1
    # The error is remembered for the signature until something changes.
    with pytest.raises(plait.TypingError):
        f(1, 2)
    assert f.stats()["compilations"] == 1
    f.py_func.__code__ = jit_shared.fresh_add.__code__
    assert f(1, 2) == 5
    assert f.stats()["compilations"] == 2


def test_different_functions_compile_in_parallel() -> None:
    # Both compilations must be inside the native compiler at the same time
    # to meet; a global compiler lock would make them time out.
    f = fresh(jit_shared.first_function)
    g = fresh(jit_shared.second_function)
    with compile_rendezvous(unique_barrier_id(), 2, timeout_seconds=60):
        results = run_in_threads(2, lambda i: (f, g)[i](10))
    assert results == [51, 69]


def test_compile_rendezvous_alone_times_out() -> None:
    # The negative control: one compilation cannot meet a 2-party barrier.
    f = fresh(jit_shared.first_function)
    with compile_rendezvous(unique_barrier_id(), 2, timeout_seconds=0.2):
        with pytest.raises(RuntimeError, match="timed out with 1 of 2"):
            f(1)
    assert f(1) == 6, "the failed compilation left nothing behind"


def test_signatures_of_one_function_compile_in_parallel() -> None:
    f = fresh(jit_shared.fresh_add)
    with compile_rendezvous(unique_barrier_id(), 2, timeout_seconds=60):
        results = run_in_threads(2, lambda i: f(1, 2) if i == 0 else f(1.5, 2.0))
    assert results == [5, 5.5]
    assert f.stats()["compilations"] == 2


def test_rebinding_a_global_recompiles() -> None:
    namespace = dict(vars(jit_shared))
    f = fresh(jit_shared.reads_offset, namespace)
    assert f(1) == 11
    namespace["OFFSET"] = 100
    assert f(1) == 101
    namespace["UNRELATED"] = 5  # other changes to the dict do not invalidate
    assert f(1) == 101
    assert f.stats()["invalidations"] == 1
    assert f.stats()["compilations"] == 2


def test_replacing_code_changes_the_result() -> None:
    f = fresh(jit_shared.first_function)
    assert f(2) == 11
    f.py_func.__code__ = jit_shared.second_function.__code__
    assert f(2) == 13
    assert f.stats()["invalidations"] == 1


def test_callers_are_invalidated_with_their_callee() -> None:
    namespace = dict(vars(jit_shared))
    callee = fresh(jit_shared.callee, namespace)
    namespace["callee"] = callee
    caller = fresh(jit_shared.caller, namespace)
    assert caller(1) == 4
    callee.invalidate()
    assert caller.stats()["invalidations"] == 1
    assert caller(1) == 4
    # Changing the callee's code is seen through the caller's guard too.
    callee.py_func.__code__ = jit_shared.first_function.__code__  # x * 5 + 1
    assert caller(1) == 12


def test_invalidation_under_load() -> None:
    namespace = dict(vars(jit_shared))
    f = fresh(jit_shared.reads_offset, namespace)
    f(0)
    seen: list[set[int]] = []

    def call(i: int) -> None:
        values: set[int] = set()
        for k in range(3000):
            values.add(f(0))
        seen.append(values)

    def rebind() -> None:
        for k in range(200):
            namespace["OFFSET"] = 10 if k % 2 else 20
            if k % 3 == 0:
                f.invalidate()

    writer = threading.Thread(target=rebind)
    writer.start()
    run_in_threads(4, call)
    writer.join(60)
    # Every result is the value the global had at some point: old or new.
    assert set().union(*seen) <= {10, 20}
    namespace["OFFSET"] = 7
    assert f(0) == 7



def test_compiling_and_invalidating_ten_thousand_times_is_bounded() -> None:
    f = fresh(jit_shared.churn)
    assert f(1) == 4
    gc.collect()
    base = plait.stats()
    rss = []
    for i in range(10_000):
        f.invalidate()
        assert f(i) == 3 * i + 1
        if i in (1_000, 9_999):
            gc.collect()
            rss.append(rss_kib())
    stats = plait.stats()
    assert stats["live_executors"] == base["live_executors"]
    assert stats["jit_code_bytes"] == base["jit_code_bytes"]
    assert stats["retired_pending"] == 0
    assert stats["compilations"] - base["compilations"] == 10_000
    growth = rss[1] - rss[0]
    print(f"RSS after 1,000 cycles {rss[0]} KiB, after 10,000 {rss[1]} KiB (+{growth} KiB)")
    assert growth < 64 * 1024, f"RSS grew by {growth} KiB over 9,000 compile/invalidate cycles"


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="needs a free-threaded CPython")
def test_gil_stays_disabled() -> None:
    assert not sys._is_gil_enabled()  # type: ignore[attr-defined]
    f = fresh(jit_shared.fresh_add)
    assert run_in_threads(4, lambda i: f(i, 1)) == [2, 3, 4, 5]
    assert not sys._is_gil_enabled()  # type: ignore[attr-defined]
