"""Bounded stress: many threads parse, lower, compile and call, on private and
shared contexts; results must be right and memory must not grow."""

from __future__ import annotations

import gc

import numpy as np

from conftest import rss_kib, run_in_threads
from plait import ir
from plait.execution_engine import ExecutionEngine
from plait.passmanager import PassManager

KERNEL = """
func.func @axpy(%a: f64, %x: memref<?xf64>, %y: memref<?xf64>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {{
    %xi = memref.load %x[%i] : memref<?xf64>
    %yi = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %a, %xi : f64
    %s = arith.addf %p, %yi : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }}
  return
}}
func.func @offset(%v: i64) -> i64 {{
  %k = arith.constant {k} : i64
  %r = arith.addi %v, %k : i64
  return %r : i64
}}
"""



def one_round(threads: int, iterations: int, shared: ir.Context) -> None:
    def body(t: int) -> int:
        checked = 0
        for i in range(iterations):
            ctx = shared if (t + i) % 2 else ir.Context()
            k = t * 1000 + i
            module = ir.Module.parse(KERNEL.format(k=k), context=ctx)
            if i % 2:
                PassManager.parse("builtin.module(plait-lower-to-llvm)", context=ctx).run(module)
                engine = ExecutionEngine(module)
            else:
                engine = ExecutionEngine(module, pipeline="plait-lower-to-llvm")
            assert engine.invoke("offset", 5) == 5 + k
            x = np.arange(64, dtype=np.float64)
            y = np.ones(64)
            engine.invoke("axpy", 2.0, x, y)
            assert np.array_equal(y, 2.0 * x + 1.0)
            checked += 1
        return checked

    assert run_in_threads(threads, body) == [iterations] * threads


def test_sixteen_threads_parse_lower_compile_invoke() -> None:
    shared = ir.Context()
    one_round(16, 3, shared)  # warm-up: allocator pools, code caches
    gc.collect()
    before = rss_kib()
    one_round(16, 6, shared)
    gc.collect()
    after = rss_kib()
    # 96 engines were created and dropped; a leak of their code or contexts
    # would grow by far more than this.
    assert after - before < 64 * 1024, f"RSS grew by {after - before} KiB"
    del shared
