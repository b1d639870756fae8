"""plait demo: native code from Python, compiled and run by many threads.

1. @plait.jit: five kernels compiled concurrently from a thread pool (no global
   compiler lock), their speed-up over CPython, and compile latency beside
   Numba's when Numba is installed.
2. Threads: one compiled kernel run by 1 and 2 threads at once (the GIL is
   released while compiled code runs).
3. Parallel loops: a `prange` loop compiled with parallel=True, on 1 thread
   and on every thread of plait's pool.
4. The engine room: MLIR modules parsed, lowered and JIT-compiled from
   several threads, each with its own context.

Run with `make demo`; the full measurements are `make bench`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import demo_kernels  # noqa: E402

import plait  # noqa: E402
from plait import ir  # noqa: E402
from plait.execution_engine import ExecutionEngine  # noqa: E402

CASES = {
    "mandelbrot": (200, 100, 200),
    "prime_count": (30_000,),
    "harmonic": (2_000_000,),
    "integrate_sin": (0.0, 3.141592653589793, 2_000_000),
    "fib": (24,),
}


def jitted_copies() -> types.SimpleNamespace:
    namespace = dict(vars(demo_kernels))
    for name in CASES:
        fn = getattr(demo_kernels, name)
        namespace[name] = plait.jit(types.FunctionType(fn.__code__, namespace, name))
    return types.SimpleNamespace(**namespace)


def first_call_latency(system: str) -> float:
    """Seconds of the first call of a small function in a fresh process."""
    script = (
        "import sys, time; sys.path.insert(0, {folder!r}); import demo_kernels as k; "
        "import {module}; f = {module}.{decorator}(k.harmonic); "
        "t = time.perf_counter(); f(10); print(time.perf_counter() - t)"
    )
    module, decorator = ("plait", "jit") if system == "plait" else ("numba", "njit")
    out = subprocess.run(
        [sys.executable, "-c", script.format(folder=str(Path(__file__).resolve().parent), module=module, decorator=decorator)],
        capture_output=True, text=True, check=True, env=dict(os.environ),
    )
    return float(out.stdout)


def section_jit() -> None:
    jit = jitted_copies()
    print("1. @plait.jit: five kernels compiled at once by a thread pool")
    start = time.perf_counter()
    with ThreadPoolExecutor(len(CASES)) as pool:
        list(pool.map(lambda name: getattr(jit, name)(*CASES[name]), CASES))
    print(f"   compiled and ran all five in {time.perf_counter() - start:.2f} s\n")
    print(f"   {'kernel':<14} {'CPython':>10} {'plait':>10} {'speed-up':>9}")
    for name, args in CASES.items():
        start = time.perf_counter()
        expected = getattr(demo_kernels, name)(*args)
        interpreted = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(5):
            result = getattr(jit, name)(*args)
        compiled = (time.perf_counter() - start) / 5
        assert result == expected or abs(result - expected) <= 1e-9 * abs(expected), (name, result, expected)
        print(f"   {name:<14} {interpreted * 1e3:>8.1f}ms {compiled * 1e3:>8.2f}ms {interpreted / compiled:>8.0f}x")
    plait_latency = first_call_latency("plait")
    try:
        import numba  # noqa: F401

        numba_latency = f"{first_call_latency('numba') * 1e3:.0f} ms"
    except ImportError:
        numba_latency = "Numba not installed"
    print(f"\n   first call of a small function in a fresh process (compile + run):")
    print(f"   plait {plait_latency * 1e3:.0f} ms, Numba {numba_latency}\n")


def section_threads() -> None:
    print("2. One compiled kernel run by several threads at once")
    harmonic = plait.jit(demo_kernels.harmonic)
    n = 300_000_000
    harmonic(10)
    for threads in (1, 2):
        workers = [threading.Thread(target=harmonic, args=(n,)) for _ in range(threads)]
        start = time.perf_counter()
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        elapsed = time.perf_counter() - start
        print(f"   {threads} thread(s): {elapsed:.2f} s for {threads} call(s)")
    print()


def section_parallel() -> None:
    print("3. A prange loop with @plait.jit(parallel=True), on plait's thread pool")
    import numpy as np

    mandelbrot = plait.jit(demo_kernels.mandelbrot_rows, parallel=True)
    out = np.zeros((400, 600), dtype=np.int64)
    expected = mandelbrot(600, 400, 200, out)
    serial = None
    for threads in sorted({1, plait.thread_pool_size()}):
        plait.set_num_threads(threads)
        start = time.perf_counter()
        for _ in range(5):
            assert mandelbrot(600, 400, 200, out) == expected
        elapsed = (time.perf_counter() - start) / 5
        serial = serial or elapsed
        print(f"   {threads} thread(s): {elapsed * 1e3:.1f} ms per call ({serial / elapsed:.2f}x)")
    plait.set_num_threads(plait.thread_pool_size())
    print()


MODULE = """
func.func @scaled_sum(%n: i64) -> i64 {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant {k} : i64
  %end = arith.index_cast %n : i64 to index
  %zero = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %end step %c1 iter_args(%acc = %zero) -> i64 {{
    %v = arith.index_cast %i : index to i64
    %w = arith.muli %v, %k : i64
    %s = arith.addi %acc, %w : i64
    scf.yield %s : i64
  }}
  return %r : i64
}}
"""


def compile_module(k: int) -> ExecutionEngine:
    module = ir.Module.parse(MODULE.format(k=k), context=ir.Context())
    return ExecutionEngine(module, pipeline="plait-lower-to-llvm")


def section_engine_room() -> None:
    print("4. The engine room: 16 MLIR modules parsed, lowered and compiled")
    compile_module(0)
    base = 0.0
    for threads in (1, 2):
        start = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            engines = list(pool.map(compile_module, range(16)))
        rate = 16 / (time.perf_counter() - start)
        base = base or rate
        assert engines[5].invoke("scaled_sum", 10) == 5 * 45
        print(f"   {threads} thread(s): {rate:6.1f} modules/s ({rate / base:.2f}x)")
    print()


def main() -> None:
    print(f"plait demo ({os.cpu_count()} cores, Python {sys.version.split()[0]})\n")
    section_jit()
    section_threads()
    section_parallel()
    section_engine_room()
    print("Full measurements (Numba, C++ -O3, plots): make bench -> bench/results/latest.md")


if __name__ == "__main__":
    main()
