"""plait demo: the engine room compiling and running MLIR from many threads.

1. Compiles 16 distinct modules (parse -> plait-lower-to-llvm -> LLVM -O2 ->
   machine code) on 1, 2 and 4 threads and reports throughput: every step runs
   with the GIL released, so threads compile in parallel.
2. Runs one compiled kernel from 1 and 2 threads at once: invoke() is detached
   too, so the calls overlap.

Run with `make demo`.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

from plait import ir
from plait.execution_engine import ExecutionEngine

KERNEL = """
func.func @sum_of_squares(%n: i64) -> i64 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant {k} : i64
  %end = arith.index_cast %n : i64 to index
  %zero = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %end step %c1 iter_args(%acc = %zero) -> i64 {{
    %v = arith.index_cast %i : index to i64
    %w = arith.addi %v, %k : i64
    %sq = arith.muli %w, %w : i64
    %m = arith.remsi %sq, %n : i64
    %s = arith.addi %acc, %m : i64
    scf.yield %s : i64
  }}
  return %r : i64
}}
"""


def compile_one(k: int) -> ExecutionEngine:
    # A private context per compilation: contexts never contend.
    module = ir.Module.parse(KERNEL.format(k=k), context=ir.Context())
    return ExecutionEngine(module, pipeline="plait-lower-to-llvm")


def reference(n: int, k: int) -> int:
    return sum(((i + k) * (i + k)) % n for i in range(n))


def compile_throughput(threads: int, count: int) -> float:
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        engines = list(pool.map(compile_one, range(count)))
    elapsed = time.perf_counter() - start
    for k, engine in enumerate(engines[:3]):
        assert engine.invoke("sum_of_squares", 1000) == reference(1000, k)
    return count / elapsed


def run_concurrently(engine: ExecutionEngine, threads: int, n: int) -> float:
    start = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(lambda _: engine.invoke("sum_of_squares", n), range(threads)))
    elapsed = time.perf_counter() - start
    assert len(set(results)) == 1
    return elapsed


def main() -> None:
    cores = os.cpu_count() or 1
    print(f"plait engine room demo ({cores} cores)\n")
    compile_one(0)  # warm-up: registries, target initialisation

    count = 16
    print(f"Compiling {count} modules (parse, lower, -O2, codegen):")
    print(f"  {'threads':>7}  {'modules/s':>9}  {'speed-up':>8}")
    base = 0.0
    for threads in (1, 2, 4):
        rate = compile_throughput(threads, count)
        base = base or rate
        print(f"  {threads:>7}  {rate:>9.1f}  {rate / base:>7.2f}x")

    engine = compile_one(7)
    n = 300_000_000
    small = 200_000
    start = time.perf_counter()
    expected = reference(small, 7)
    interpreted = time.perf_counter() - start
    start = time.perf_counter()
    result = engine.invoke("sum_of_squares", small)
    compiled = time.perf_counter() - start
    assert result == expected
    print(f"\nOne kernel call, n={small}: CPython {interpreted * 1e3:.1f} ms, "
          f"compiled {compiled * 1e3:.2f} ms ({interpreted / compiled:.0f}x)")

    print(f"\nRunning the kernel (n={n:,}) from several threads at once:")
    print(f"  {'threads':>7}  {'seconds':>7}  {'calls/s':>7}")
    for threads in (1, 2):
        elapsed = run_concurrently(engine, threads, n)
        print(f"  {threads:>7}  {elapsed:>7.2f}  {threads / elapsed:>7.2f}")
    print("\nThe GIL is released while compiling and while compiled code runs,")
    print("so threads overlap. `make test` proves it deterministically with")
    print("native rendezvous barriers; see docs/user-guide.md.")


if __name__ == "__main__":
    main()
