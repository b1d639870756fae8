"""Deterministic proofs that long native work runs detached from the
interpreter, in parallel across contexts, and serialised within one.

Each proof is a rendezvous that can only be met if the threads really are
inside native code at the same time: if the GIL were held, or a lock
serialised them, the barrier would time out and the test would fail.
"""

from __future__ import annotations

import pytest

from conftest import ADD_MODULE, run_in_threads
from plait import ir
from plait.execution_engine import ExecutionEngine
from plait.passmanager import PassManager
from plait.testing import (
    RENDEZVOUS_DECLARATION,
    register_rendezvous_pass,
    rendezvous,
    rendezvous_pipeline,
    unique_barrier_id,
)

register_rendezvous_pass()
register_rendezvous_pass()  # idempotent

CALLS_RENDEZVOUS = f"""
{RENDEZVOUS_DECLARATION}
func.func @meet(%id: i64, %n: i64, %timeout: f64) -> i32 {{
  %r = func.call @plait_test_rendezvous(%id, %n, %timeout) : (i64, i64, f64) -> i32
  return %r : i32
}}
"""


def test_lone_rendezvous_times_out_as_mlir_error() -> None:
    barrier = unique_barrier_id()
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        pm = PassManager.parse(f"builtin.module({rendezvous_pipeline(barrier, 2, 0.1)})")
        with pytest.raises(ir.MLIRError) as info:
            pm.run(module)
        [diagnostic] = info.value.error_diagnostics
        assert diagnostic.message == f"rendezvous '{barrier}' timed out with 1 of 2 participants"
        # Poisoned: a late arrival fails at once, from Python too.
        with pytest.raises(RuntimeError, match="timed out with 1 of 2"):
            rendezvous(str(barrier), 2, 60.0)


@pytest.mark.parametrize("threads", [2, 8])
def test_pipelines_on_independent_contexts_meet(threads: int) -> None:
    barrier = unique_barrier_id()

    def body(i: int) -> str:
        with ir.Context():
            module = ir.Module.parse(ADD_MODULE)
            pm = PassManager.parse(
                f"builtin.module(canonicalize,{rendezvous_pipeline(barrier, threads, 60)},plait-lower-to-llvm)"
            )
            pm.run(module)
            return str(module)

    for text in run_in_threads(threads, body):
        assert "llvm.func @add" in text


def test_pipelines_sharing_one_context_serialise_safely() -> None:
    barrier = unique_barrier_id()
    ctx = ir.Context()

    def body(i: int) -> str:
        module = ir.Module.parse(ADD_MODULE, context=ctx)
        pm = PassManager.parse(f"builtin.module({rendezvous_pipeline(barrier, 2, 0.5)})", context=ctx)
        try:
            pm.run(module)
        except ir.MLIRError as error:
            return error.error_diagnostics[0].message
        return "met"

    outcomes = run_in_threads(2, body)
    # The per-context lock lets only one pipeline in at a time: they never meet.
    assert "met" not in outcomes
    assert all("timed out with 1 of 2" in outcome for outcome in outcomes)


def test_handler_receives_failure_while_run_is_detached() -> None:
    barrier = unique_barrier_id()
    with ir.Context() as ctx:
        ctx.emit_error_diagnostics = True
        seen: list[ir.Diagnostic] = []
        handle = ctx.attach_diagnostic_handler(lambda d: seen.append(d) or True)
        module = ir.Module.parse(ADD_MODULE)
        pm = PassManager.parse(f"builtin.module({rendezvous_pipeline(barrier, 2, 0.1)})")
        with pytest.raises(ir.MLIRError) as info:
            pm.run(module)
        assert info.value.error_diagnostics == []
        assert [d.message for d in seen] == [f"rendezvous '{barrier}' timed out with 1 of 2 participants"]
        assert not handle.had_error
        handle.detach()


def test_python_and_native_passes_mixed_in_many_threads() -> None:
    threads = 4
    barrier = unique_barrier_id()

    def body(i: int) -> list[str]:
        with ir.Context():
            module = ir.Module.parse(ADD_MODULE)
            names: list[str] = []

            def record(op: ir.Operation) -> None:
                names.append(op.name)
                op.attributes["plait.thread"] = i

            pm = PassManager()
            pm.add(record)
            pm.add(rendezvous_pipeline(barrier, threads, 60))
            pm.add(record)
            pm.run(module)
            assert module.operation.attributes["plait.thread"].value == i
            return names

    for names in run_in_threads(threads, body):
        assert names == ["builtin.module", "builtin.module"]


def test_engine_creation_is_detached() -> None:
    barrier = unique_barrier_id()

    def body(i: int) -> int:
        module = ir.Module.parse(ADD_MODULE, context=ir.Context())
        pipeline = f"builtin.module({rendezvous_pipeline(barrier, 2, 60)},plait-lower-to-llvm)"
        engine = ExecutionEngine(module, pipeline=pipeline)
        return engine.invoke("add", i, 10)

    assert run_in_threads(2, body) == [10, 11]


def test_invoke_is_detached() -> None:
    barrier = unique_barrier_id()
    module = ir.Module.parse(CALLS_RENDEZVOUS, context=ir.Context())
    engine = ExecutionEngine(module, pipeline="plait-lower-to-llvm")
    # One engine, two threads inside compiled code at once.
    assert run_in_threads(2, lambda i: engine.invoke("meet", barrier, 2, 60.0)) == [1, 1]
    # Alone, compiled code reports the timeout through its result.
    assert engine.invoke("meet", unique_barrier_id(), 2, 0.05) == 0
