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
from conftest import BackgroundThread, rss_kib, run_in_threads
from plait.testing import compile_rendezvous, rendezvous, unique_barrier_id


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


def test_globals_named_like_a_functions_locals_are_not_guarded() -> None:
    # Scripts re-bind module-level names such as `total` and `i` in their own
    # loops: that must not recompile a function whose variables have those
    # names (it never reads the globals), while OFFSET, which it reads, does.
    namespace = dict(vars(jit_shared))
    namespace.update(total=-1.0, i=-1, scale=-1.0)
    f = fresh(jit_shared.locals_named_like_globals, namespace)
    expected = jit_shared.locals_named_like_globals(4)
    assert f(4) == expected
    for k in range(3):
        namespace.update(total=float(k), i=str(k), scale=[k])
        assert f(4) == expected
    assert f.stats()["invalidations"] == 0
    assert f.stats()["compilations"] == 1
    namespace["OFFSET"] = 100
    assert f(4) == types.FunctionType(jit_shared.locals_named_like_globals.__code__, namespace)(4)
    assert f.stats()["invalidations"] == 1


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

    writer = BackgroundThread(rebind).start()
    run_in_threads(4, call)
    writer.join(60)
    # Every result is the value the global had at some point: old or new.
    assert set().union(*seen) <= {10, 20}
    namespace["OFFSET"] = 7
    assert f(0) == 7



def test_a_global_rebound_while_compiling_is_seen() -> None:
    # The compilation holds at two barriers inside the native compiler: the
    # main thread re-binds the global after the snapshot was taken and before
    # the compilation ends (the executor then assumes the old value).
    namespace = dict(vars(jit_shared))
    f = fresh(jit_shared.reads_offset, namespace)
    entry, leave = unique_barrier_id(), unique_barrier_id()
    with compile_rendezvous(entry, 2, timeout_seconds=60, exit_barrier_id=leave):
        caller = BackgroundThread(lambda: f(1)).start()
        rendezvous(str(entry), 2, 60)  # the snapshot (OFFSET = 10) is taken
        namespace["OFFSET"] = 20
    # The hook is cleared: only the held compilation still meets `leave`.
    rendezvous(str(leave), 2, 60)
    assert caller.join(60) in (11, 21)  # the call overlapped the re-binding
    assert f(1) == 21, "the executor compiled from the old snapshot stayed in use"
    assert f(1) == 21


def test_calls_never_fail_while_another_thread_rebinds_a_global() -> None:
    # Every call returns what CPython could: the value the global had at
    # some moment of the call. When compiled code keeps being invalidated,
    # the call runs in the interpreter (counted in stats).
    namespace = dict(vars(jit_shared))
    f = fresh(jit_shared.reads_offset, namespace)
    f(0)
    stop = threading.Event()

    def rebind() -> None:
        k = 0
        while not stop.is_set():
            namespace["OFFSET"] = 10 if k % 2 else 20
            k += 1

    writer = BackgroundThread(rebind).start()
    try:
        results = run_in_threads(4, lambda i: {f(0) for _ in range(2000)})
    finally:
        stop.set()
        writer.join(60)
    assert set().union(*results) <= {10, 20}
    assert 0 <= f.stats()["interpreter_fallbacks"] <= plait.stats()["interpreter_fallbacks"]
    namespace["OFFSET"] = 7
    assert f(0) == 7


def test_a_call_whose_code_keeps_going_stale_runs_in_the_interpreter() -> None:
    # Each compilation of the call is held inside the native compiler while
    # the global is re-bound, so each executor is stale before it is used.
    # A call tries twice (compile, find it stale, invalidate), then runs
    # the function in the interpreter instead of failing.
    namespace = dict(vars(jit_shared))
    f = fresh(jit_shared.reads_offset, namespace)
    barriers = [(unique_barrier_id(), unique_barrier_id()) for _ in range(2)]
    caller = BackgroundThread(lambda: f(1))
    plait._jit._native._set_compile_rendezvous(str(barriers[0][0]), 2, 60.0, str(barriers[0][1]))
    try:
        caller.start()
        for k, (entry, leave) in enumerate(barriers):
            rendezvous(str(entry), 2, 60)
            namespace["OFFSET"] = 100 + k
            if k + 1 < len(barriers):  # the next compilation meets the next pair
                plait._jit._native._set_compile_rendezvous(str(barriers[k + 1][0]), 2, 60.0, str(barriers[k + 1][1]))
            else:
                plait._jit._native._set_compile_rendezvous("", 0, 0.0, "")
            rendezvous(str(leave), 2, 60)
    finally:
        plait._jit._native._set_compile_rendezvous("", 0, 0.0, "")
        result = caller.join(60)
    assert result == 102  # the interpreter read the global as it is now
    assert f.stats()["interpreter_fallbacks"] == 1
    assert f.stats()["compilations"] == 2
    assert f(1) == 102 and f.stats()["interpreter_fallbacks"] == 1


def test_invalidation_reaches_dependents_compiled_meanwhile() -> None:
    # A dependent is inside the native compiler while its callee is
    # invalidated: invalidation completes (no error), and the dependent,
    # registered once compiled, is reached by the next one.
    namespace = dict(vars(jit_shared))
    callee = fresh(jit_shared.callee, namespace)
    namespace["callee"] = callee
    first = fresh(jit_shared.caller, namespace)
    assert first(1) == 4
    second = fresh(jit_shared.caller, namespace)
    entry, leave = unique_barrier_id(), unique_barrier_id()
    with compile_rendezvous(entry, 2, timeout_seconds=60, exit_barrier_id=leave):
        compiling = BackgroundThread(lambda: second(2)).start()
        rendezvous(str(entry), 2, 60)
        callee.invalidate()  # while `second` compiles
    rendezvous(str(leave), 2, 60)
    assert compiling.join(60) == 6
    assert first.stats()["invalidations"] == 1
    callee.invalidate()
    assert first.stats()["invalidations"] == 2 and second.stats()["invalidations"] == 1
    assert first(1) == 4 and second(2) == 6


def test_invalidating_while_dependents_compile_never_raises() -> None:
    # Many threads add dependents while others invalidate the callee: every
    # call and every invalidation succeeds (a bounded storm).
    namespace = dict(vars(jit_shared))
    callee = fresh(jit_shared.callee, namespace)
    namespace["callee"] = callee
    stop = threading.Event()

    def invalidate_repeatedly() -> None:
        while not stop.is_set():
            callee.invalidate()

    invalidator = BackgroundThread(invalidate_repeatedly).start()
    try:
        def compile_dependents(i: int) -> list[int]:
            return [fresh(jit_shared.caller, namespace)(k) for k in range(30)]

        results = run_in_threads(4, compile_dependents)
    finally:
        stop.set()
        invalidator.join(60)
    assert all(r == [(k + 1) * 2 for k in range(30)] for r in results)


def test_compiling_and_invalidating_ten_thousand_times_is_bounded() -> None:
    f = fresh(jit_shared.churn)
    assert f(1) == 4
    gc.collect()
    base = plait.stats()
    base_own = f.stats()
    rss = []
    for i in range(10_000):
        f.invalidate()
        assert f(i) == 3 * i + 1
        if i in (1_000, 9_999):
            gc.collect()
            rss.append(rss_kib())
    stats = plait.stats()
    assert stats["live_executors"] == base["live_executors"]
    # Everything but f's one executor is as it was (f's own code may differ
    # by a few bytes: symbol names carry a module number that grows).
    own = f.stats()
    assert own["live_executors"] == base_own["live_executors"] == 1
    assert stats["jit_code_bytes"] - own["jit_code_bytes"] == base["jit_code_bytes"] - base_own["jit_code_bytes"]
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


def test_a_dropped_dispatcher_frees_its_executors_without_a_collection() -> None:
    # Nothing of a dispatcher refers back to it: dropping the last reference
    # frees its executors at once. (A cycle lived until a collection; at
    # exit, after the interpreter's last one, nanobind reported the
    # executors as leaked.)
    gc.collect()
    gc.disable()
    try:
        before = plait.stats()["live_executors"]
        f = fresh(jit_shared.churn)
        assert f(2) == 7
        f.inspect(stage="plait")  # the stages' compilation is kept too
        assert plait.stats()["live_executors"] == before + 2
        del f
        assert plait.stats()["live_executors"] == before
    finally:
        gc.enable()
