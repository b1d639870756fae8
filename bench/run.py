"""plait's benchmark suite: `make bench`.

Every comparison is measured side by side in one run, A and B interleaved
round by round; figures are medians of the rounds with the spread (min-max)
shown. Writes bench/results/latest.md and PNG plots beside it. Components that
are not installed (Numba, matplotlib, g++) are reported as skipped, with the
reason, never silently dropped.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import types
from pathlib import Path
from typing import Any, Callable, Optional

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))
# NumPy, Numba and plait all call OpenBLAS for matrix products. Its worker
# threads make timings on a small machine swing by 10x from round to round;
# one thread each keeps the comparison steady and equal (set before NumPy
# loads it).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import array_kernels  # noqa: E402
import parallel_kernels  # noqa: E402
import whole_array_kernels  # noqa: E402
import kernels  # noqa: E402

import plait  # noqa: E402
from plait import ir  # noqa: E402
from plait.execution_engine import ExecutionEngine  # noqa: E402
from plait.passmanager import PassManager  # noqa: E402

try:
    import numba  # type: ignore[import-untyped]
except Exception as error:  # noqa: BLE001 - reported as a skip
    numba = None
    NUMBA_MISSING = f"Numba not importable ({type(error).__name__}: {error})"
else:
    NUMBA_MISSING = ""


class Report:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.plots: list[str] = []

    def add(self, text: str = "") -> None:
        self.lines.append(text)
        print(text, flush=True)

    def table(self, header: list[str], rows: list[list[str]]) -> None:
        self.add("| " + " | ".join(header) + " |")
        self.add("|" + "|".join("---" for _ in header) + "|")
        for row in rows:
            self.add("| " + " | ".join(row) + " |")
        self.add()


def median_spread(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e9:.0f} ns"


def fmt_ratio(values: list[float]) -> str:
    m, lo, hi = median_spread(values)
    return f"{m:.2f}x ({lo:.2f}-{hi:.2f})"


def time_call(fn: Callable[[], Any], min_time: float = 0.05) -> float:
    """Seconds per call, looping until at least `min_time` has passed."""
    count = 1
    while True:
        start = time.perf_counter()
        for _ in range(count):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_time or count >= 1 << 24:
            return elapsed / count
        count *= 2 if elapsed > min_time / 8 else 8


def compiled_copies(module: types.ModuleType, decorate: Callable[[Any], Any]) -> types.SimpleNamespace:
    """Compiled copies of a module's functions whose globals name the compiled
    copies (so recursive kernels call compiled code)."""
    namespace: dict[str, Any] = dict(vars(module))
    for name, value in vars(module).items():
        if isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
            namespace[name] = decorate(types.FunctionType(value.__code__, namespace, name, value.__defaults__))
    return types.SimpleNamespace(**namespace)


def compile_time(dispatcher: Any) -> str:
    """The native compile time of a plait dispatcher, all its signatures."""
    return fmt_time(sum(dispatcher.compile_times(signature)["total"] for signature in dispatcher.signatures))


def build_reference(report: Report) -> Optional[ctypes.CDLL]:
    compiler = shutil.which("g++")
    if not compiler:
        report.add("C++ reference skipped: g++ not found.")
        return None
    library = Path(tempfile.mkdtemp()) / "libkernels.so"
    subprocess.run(
        [compiler, "-O3", "-march=native", "-shared", "-fPIC", "-o", str(library), str(HERE / "reference" / "kernels.cpp")],
        check=True,
    )
    lib = ctypes.CDLL(str(library))
    for name in ("sum_of_squares", "fib", "mandelbrot", "prime_count"):
        getattr(lib, name).restype = ctypes.c_int64
        getattr(lib, name).argtypes = None
    for name in ("harmonic", "gauss_legendre_pi"):
        getattr(lib, name).restype = ctypes.c_double
    return lib


def reference_call(lib: ctypes.CDLL, symbol: str, args: tuple[Any, ...]) -> Callable[[], Any]:
    fn = getattr(lib, symbol)
    c_args = [ctypes.c_int64(a) for a in args]
    return lambda: fn(*c_args)


# -- 1. kernels -------------------------------------------------------------
def section_kernels(report: Report, rounds: int, reference: Optional[ctypes.CDLL]) -> dict[str, Any]:
    report.add("## 1. Kernels")
    report.add()
    report.add(f"Median time per call over {rounds} interleaved rounds; ratios are per-round medians with their min-max.")
    report.add()
    plait_ns = compiled_copies(kernels, plait.jit)
    numba_ns = compiled_copies(kernels, numba.njit) if numba else None
    rows, plot = [], {}
    for label, (fn, args, symbol) in kernels.KERNELS.items():
        impls: dict[str, Callable[[], Any]] = {"CPython": lambda fn=fn, args=args: fn(*args)}
        if numba_ns:
            impls["Numba"] = lambda f=getattr(numba_ns, fn.__name__), args=args: f(*args)
        impls["plait"] = lambda f=getattr(plait_ns, fn.__name__), args=args: f(*args)
        if reference is not None:
            impls["C++ -O3"] = reference_call(reference, symbol, args)
        expected = impls["CPython"]()
        for name, impl in impls.items():  # warm-up: compile, and check results
            got = impl()
            assert abs(got - expected) <= 1e-9 * max(1.0, abs(expected)), (label, name, got, expected)
        times: dict[str, list[float]] = {name: [] for name in impls}
        for _ in range(rounds):
            for name, impl in impls.items():
                times[name].append(time_call(impl, 0.02 if name == "CPython" else 0.05))
        med = {name: statistics.median(values) for name, values in times.items()}
        plot[label] = med
        vs_numba = fmt_ratio([p / n for p, n in zip(times["plait"], times["Numba"])]) if "Numba" in times else "skipped"
        vs_cpp = fmt_ratio([p / c for p, c in zip(times["plait"], times["C++ -O3"])]) if "C++ -O3" in times else "skipped"
        speedup = med["CPython"] / med["plait"]
        rows.append(
            [
                label,
                fmt_time(med["CPython"]),
                "n/a (scalar loop)",
                fmt_time(med["Numba"]) if "Numba" in med else "skipped",
                fmt_time(med["plait"]),
                fmt_time(med["C++ -O3"]) if "C++ -O3" in med else "skipped",
                f"{speedup:.0f}x",
                vs_numba,
                vs_cpp,
                compile_time(getattr(plait_ns, fn.__name__)),
            ]
        )
    report.table(
        ["kernel", "CPython", "NumPy", "Numba", "plait", "C++ -O3", "plait speed-up vs CPython", "plait/Numba time", "plait/C++ time", "plait compile"],
        rows,
    )
    return plot


# -- 1b. array kernels ---------------------------------------------------------
def reference_array_call(lib: ctypes.CDLL, name: str, args: tuple[Any, ...]) -> Callable[[], Any]:
    """The C++ kernel over the same (C-contiguous) arrays."""
    import numpy as np

    c_args: list[Any] = []
    for a in args:
        if isinstance(a, np.ndarray):
            c_args.append(ctypes.c_void_p(a.ctypes.data))
        elif isinstance(a, float):
            c_args.append(ctypes.c_double(a))
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    if name in ("laplace",):
        c_args += [ctypes.c_int64(arrays[0].shape[0]), ctypes.c_int64(arrays[0].shape[1])]
    else:
        c_args.append(ctypes.c_int64(arrays[0].shape[0]))
    fn = getattr(lib, name)
    fn.restype = {"dot": ctypes.c_double, "sum_of_squares_array": ctypes.c_double, "sieve": ctypes.c_int64}.get(name)
    return lambda: fn(*c_args)


def section_array_kernels(report: Report, rounds: int, reference: Optional[ctypes.CDLL]) -> dict[str, Any]:
    import numpy as np

    report.add("### 1b. Array kernels")
    report.add()
    report.add("Loops over preallocated NumPy arrays (the same source for CPython, Numba and plait); NumPy is the vectorised equivalent; C++ runs the same loops over the same memory. Every implementation's outputs are checked against CPython's before timing. plait checks array bounds by default (Numba does not): where that matters, a second row shows plait with boundscheck=False.")
    report.add()
    numba_ns = compiled_copies(array_kernels, numba.njit) if numba else None
    rows, plot = [], {}
    for label, (name, written, plait_options) in array_kernels.ARRAY_KERNELS.items():
        plait_ns = compiled_copies(array_kernels, lambda f: plait.jit(f, **plait_options))
        candidates: dict[str, Callable[..., Any]] = {
            "CPython": getattr(array_kernels, name),
            "NumPy": getattr(array_kernels, "np_" + name),
        }
        if numba_ns:
            candidates["Numba"] = getattr(numba_ns, name)
        candidates["plait"] = getattr(plait_ns, name)
        # Correctness first, on fresh inputs for each implementation.
        expected_args = array_kernels.make_inputs(name)
        expected = candidates["CPython"](*expected_args)
        for impl, fn in candidates.items():
            args = array_kernels.make_inputs(name)
            got = fn(*args)
            if expected is not None:
                assert np.isclose(got, expected, rtol=1e-6), (label, impl, got, expected)
            for index in written:
                assert np.allclose(args[index], expected_args[index], rtol=1e-6), (label, impl)
        impls: dict[str, Callable[[], Any]] = {}
        for impl, fn in candidates.items():
            args = array_kernels.make_inputs(name)
            impls[impl] = lambda fn=fn, args=args: fn(*args)
        if reference is not None and name not in array_kernels.NO_REFERENCE:
            args = array_kernels.make_inputs(name)
            reference_fn = reference_array_call(reference, name, args)
            reference_fn()
            if expected is not None:
                assert np.isclose(reference_fn(), expected, rtol=1e-6), (label, "C++")
            impls["C++ -O3"] = reference_fn
        times: dict[str, list[float]] = {impl: [] for impl in impls}
        for r in range(rounds):
            for impl, call in impls.items():
                if impl == "CPython" and r >= 2:
                    continue  # slow and stable: two rounds are enough
                times[impl].append(time_call(call, 0.01 if impl == "CPython" else 0.05))
        med = {impl: statistics.median(values) for impl, values in times.items()}
        plot[label] = med
        vs_numba = fmt_ratio([p / n for p, n in zip(times["plait"], times["Numba"])]) if "Numba" in times else "skipped"
        vs_cpp = fmt_ratio([p / c for p, c in zip(times["plait"], times["C++ -O3"])]) if "C++ -O3" in times else "skipped"
        vs_numpy = fmt_ratio([p / n for p, n in zip(times["plait"], times["NumPy"])])
        rows.append(
            [
                label,
                fmt_time(med["CPython"]),
                fmt_time(med["NumPy"]),
                fmt_time(med["Numba"]) if "Numba" in med else "skipped",
                fmt_time(med["plait"]),
                fmt_time(med["C++ -O3"]) if "C++ -O3" in med else "skipped",
                f"{med['CPython'] / med['plait']:.0f}x",
                vs_numpy,
                vs_numba,
                vs_cpp,
                compile_time(getattr(plait_ns, name)),
            ]
        )
    report.table(
        ["kernel", "CPython", "NumPy", "Numba", "plait", "C++ -O3", "plait speed-up vs CPython", "plait/NumPy time", "plait/Numba time", "plait/C++ time", "plait compile"],
        rows,
    )
    return plot


def geomean(values: list[float]) -> float:
    return statistics.geometric_mean(values) if values else float("nan")


def section_whole_array_kernels(report: Report, rounds: int) -> dict[str, Any]:
    import numpy as np

    report.add("### 1c. Whole-array kernels")
    report.add()
    report.add("NumPy code, the same source for NumPy, Numba and plait. Outputs are checked against NumPy's first. plait's compile time is its native compilation (the compile column in every section: typing to linked code, without the snapshot). The plait/NumPy geomean is over every kernel, the plait/Numba one over those Numba compiles.")
    report.add()
    numba_ns = compiled_copies(whole_array_kernels, numba.njit) if numba else None
    plait_ns = compiled_copies(whole_array_kernels, plait.jit)
    rows, plot = [], {}
    vs_numpy_all, vs_numba_all = [], []
    for label, name in whole_array_kernels.WHOLE_ARRAY_KERNELS.items():
        candidates: dict[str, Callable[..., Any]] = {"NumPy": getattr(whole_array_kernels, name)}
        numba_failure = "skipped"
        if numba_ns:
            try:
                getattr(numba_ns, name)(*whole_array_kernels.make_inputs(name))
                candidates["Numba"] = getattr(numba_ns, name)
            except Exception as error:  # noqa: BLE001 - reported in the table
                numba_failure = f"fails ({type(error).__name__})"
        candidates["plait"] = getattr(plait_ns, name)
        candidates["plait"](*whole_array_kernels.make_inputs(name))
        expected = candidates["NumPy"](*whole_array_kernels.make_inputs(name))
        for impl, fn in candidates.items():
            got = fn(*whole_array_kernels.make_inputs(name))
            assert np.allclose(got, expected, rtol=1e-9, atol=1e-12), (label, impl)
        impls = {}
        for impl, fn in candidates.items():
            args = whole_array_kernels.make_inputs(name)
            impls[impl] = lambda fn=fn, args=args: fn(*args)
        times: dict[str, list[float]] = {impl: [] for impl in impls}
        for _ in range(rounds):
            for impl, call in impls.items():
                times[impl].append(time_call(call))
        med = {impl: statistics.median(values) for impl, values in times.items()}
        plot[label] = med
        vs_numpy = [p / n for p, n in zip(times["plait"], times["NumPy"])]
        vs_numpy_all.append(statistics.median(vs_numpy))
        if "Numba" in times:
            vs_numba = [p / n for p, n in zip(times["plait"], times["Numba"])]
            vs_numba_all.append(statistics.median(vs_numba))
        rows.append(
            [
                label,
                fmt_time(med["NumPy"]),
                fmt_time(med["Numba"]) if "Numba" in med else numba_failure,
                fmt_time(med["plait"]),
                fmt_ratio(vs_numpy),
                fmt_ratio(vs_numba) if "Numba" in times else numba_failure,
                compile_time(getattr(plait_ns, name)),
            ]
        )
    report.table(["kernel", "NumPy", "Numba", "plait", "plait/NumPy time", "plait/Numba time", "plait compile"], rows)
    report.add(
        f"Geomean plait/NumPy time: {geomean(vs_numpy_all):.2f}x over {len(vs_numpy_all)} kernels; "
        f"plait/Numba time: {geomean(vs_numba_all):.2f}x over the {len(vs_numba_all)} Numba compiles."
    )
    report.add()
    return plot


def parallel_copies(decorate: Callable[[Any], Any], prange: Any) -> types.SimpleNamespace:
    """parallel_kernels compiled by `decorate`, with `prange` in their globals."""
    namespace: dict[str, Any] = dict(vars(parallel_kernels))
    namespace["prange"] = prange
    for name, value in vars(parallel_kernels).items():
        if isinstance(value, types.FunctionType) and value.__module__ == parallel_kernels.__name__:
            namespace[name] = decorate(types.FunctionType(value.__code__, namespace, name, value.__defaults__))
    return types.SimpleNamespace(**namespace)


def section_parallel_kernels(report: Report, rounds: int) -> dict[str, Any]:
    import numpy as np

    threads = list(range(1, plait.thread_pool_size() + 1))
    report.add("### 1d. Parallel kernels")
    report.add()
    report.add(
        "prange loops (and one whole-array expression) written once, compiled by plait and by Numba with "
        "parallel=True. Each runs with 1 thread (plait's own serial time) and with every thread of the pool "
        f"({threads[-1]} here), thread counts interleaved in each of {rounds} rounds: times are medians, "
        "ratios medians of each round's ratio; outputs are checked against the interpreted code first."
    )
    report.add()
    plait_ns = parallel_copies(lambda f: plait.jit(f, parallel=True), plait.prange)
    numba_ns = parallel_copies(lambda f: numba.njit(f, parallel=True), numba.prange) if numba else None
    rows, scaling = [], {}
    speedups, vs_numba_all = [], []
    for label, name in parallel_kernels.PARALLEL_KERNELS.items():
        expected = getattr(parallel_kernels, name)(*parallel_kernels.make_inputs(name))
        impls: dict[str, Callable[..., Any]] = {"plait": getattr(plait_ns, name)}
        if numba_ns:
            impls["Numba"] = getattr(numba_ns, name)
        for impl, fn in impls.items():
            got = fn(*parallel_kernels.make_inputs(name))
            assert np.allclose(got, expected, rtol=1e-9, atol=1e-12), (label, impl)
        # Thread counts interleave within each round, so a machine that gets
        # busier or quieter during the run shifts both sides of a speed-up.
        times: dict[str, dict[int, list[float]]] = {impl: {count: [] for count in threads} for impl in impls}
        for _ in range(rounds):
            for count in threads:
                plait.set_num_threads(count)
                if numba:
                    numba.set_num_threads(count)
                for impl, fn in impls.items():
                    args = parallel_kernels.make_inputs(name)
                    # Numba's OpenMP workers spin a while after a loop: let
                    # them go idle before the other column runs.
                    time.sleep(0.05)
                    times[impl][count].append(time_call(lambda fn=fn, args=args: fn(*args)))
        med = {impl: {count: statistics.median(values) for count, values in by_count.items()} for impl, by_count in times.items()}
        plait.set_num_threads(threads[-1])
        if numba:
            numba.set_num_threads(threads[-1])
        for impl in impls:
            scaling[f"{impl}: {name}"] = {
                count: statistics.median(one / more for one, more in zip(times[impl][1], times[impl][count]))
                for count in threads
            }
        all_threads = threads[-1]
        # Ratios are medians of each round's ratio (its times were taken
        # moments apart), as in the other sections.
        plait_times = times["plait"]
        speedup = statistics.median(one / every for one, every in zip(plait_times[1], plait_times[all_threads]))
        speedups.append(speedup)
        vs_numba = (
            statistics.median(p / n for p, n in zip(plait_times[all_threads], times["Numba"][all_threads]))
            if "Numba" in times
            else None
        )
        if vs_numba is not None:
            vs_numba_all.append(vs_numba)
        rows.append(
            [
                label,
                fmt_time(med["plait"][1]),
                fmt_time(med["plait"][all_threads]),
                f"{speedup:.2f}x",
                fmt_time(med["Numba"][all_threads]) if "Numba" in med else "skipped",
                f"{vs_numba:.2f}x" if vs_numba is not None else "skipped",
                compile_time(getattr(plait_ns, name)),
            ]
        )
    report.table(
        ["kernel", "plait 1 thread", f"plait {threads[-1]} threads", "plait speed-up", f"Numba {threads[-1]} threads", "plait/Numba time", "plait compile"],
        rows,
    )
    report.add(
        f"Geomean plait speed-up over its own serial time: {geomean(speedups):.2f}x; "
        f"plait/Numba time with {threads[-1]} threads: {geomean(vs_numba_all):.2f}x over {len(vs_numba_all)} kernels."
    )
    report.add()
    return scaling


# -- 2. start-up and compile latency -----------------------------------------
LATENCY_SCRIPT = """
import sys, time
t0 = time.perf_counter()
import {module}
t_import = time.perf_counter() - t0
sys.path.insert(0, {folder!r})
import latency_functions as lf
f = {decorate}(lf.first)
g = {decorate}(lf.second)
t1 = time.perf_counter(); f(1.5, 3); t_cold = time.perf_counter() - t1
t2 = time.perf_counter(); g(2.5, 4); t_warm = time.perf_counter() - t2
print(t_import, t_cold, t_warm)
"""

LATENCY_FUNCTIONS = """
def first(x, n):
    total = 0.0
    for i in range(n):
        total += x * i
    return total

def second(x, n):
    total = 1.0
    while n > 0:
        total = total * x + n
        n -= 1
    return total

def int_loop(n):
    total = 0
    for i in range(n):
        total += i * i
    return total

def array_loop(a):
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i]
    return total
"""

#: The small functions whose warm compile time section 2 breaks down.
PHASE_FUNCTIONS = {
    "float loop (first)": ("first", (1.5, 3)),
    "while loop (second)": ("second", (2.5, 4)),
    "int loop": ("int_loop", (5,)),
    "array loop": ("array_loop", None),
}


def section_latency(report: Report, rounds: int) -> dict[str, Any]:
    report.add("## 2. Start-up and compile latency")
    report.add()
    report.add("Fresh processes, interleaved. Cold: the first call of a small function in a fresh process (compile + call); warm: the first call of another function afterwards.")
    report.add()
    folder = tempfile.mkdtemp()
    Path(folder, "latency_functions.py").write_text(LATENCY_FUNCTIONS)
    systems = {"plait": ("plait", "plait.jit")}
    if numba:
        systems["Numba"] = ("numba", "numba.njit")
    samples: dict[str, list[tuple[float, float, float]]] = {name: [] for name in systems}
    for _ in range(rounds):
        for name, (module, decorate) in systems.items():
            script = LATENCY_SCRIPT.format(module=module, folder=folder, decorate=decorate)
            out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, env=dict(os.environ))
            samples[name].append(tuple(float(v) for v in out.stdout.split()))  # type: ignore[arg-type]
    rows, plot = [], {}
    for name, values in samples.items():
        cols = [median_spread([v[i] for v in values]) for i in range(3)]
        plot[name] = [c[0] for c in cols]
        rows.append([name] + [f"{fmt_time(m)} ({fmt_time(lo)}-{fmt_time(hi)})" for m, lo, hi in cols])
    if not numba:
        rows.append(["Numba", NUMBA_MISSING, "", ""])
    report.table(["system", "import", "first call, cold", "first call, warm"], rows)
    if numba:
        ratios = [[p[i] / n[i] for p, n in zip(samples["plait"], samples["Numba"])] for i in range(3)]
        report.add(f"plait/Numba: import {fmt_ratio(ratios[0])}, cold first call {fmt_ratio(ratios[1])}, warm first call {fmt_ratio(ratios[2])}.")
        report.add()
    compile_phases(report, folder, rounds)
    return plot


def compile_phases(report: Report, folder: str, rounds: int) -> None:
    """Warm compile time of small functions by phase, in this process."""
    import importlib

    import numpy as np

    sys.path.insert(0, folder)
    try:
        functions = importlib.import_module("latency_functions")
    finally:
        sys.path.remove(folder)
    plait.jit(functions.first)(1.0, 1)  # warm: the first compilation of the process is cold
    rows, phase_names = [], []
    for label, (name, args) in PHASE_FUNCTIONS.items():
        first_calls, phases = [], {}
        for _ in range(max(5, rounds * 3)):
            dispatcher = plait.jit(getattr(functions, name))
            call_args = args if args is not None else (np.ones(3),)
            started = time.perf_counter()
            dispatcher(*call_args)
            first_calls.append(time.perf_counter() - started)
            for phase, seconds in dispatcher.compile_times().items():
                phases.setdefault(phase, []).append(seconds)
        phase_names = [phase for phase in phases if phase != "total"]
        rows.append(
            [label, fmt_time(statistics.median(first_calls)), fmt_time(statistics.median(phases["total"]))]
            + [fmt_time(statistics.median(phases[phase])) for phase in phase_names]
        )
    report.add("### 2b. Warm compile time by phase")
    report.add()
    report.add(
        "Small functions compiled afresh in this process (medians of repeated compilations): the first call "
        "(snapshot, compile, call), the native compilation, and its phases (`Dispatcher.compile_times()`)."
    )
    report.add()
    report.table(["function", "first call", "native compile"] + phase_names, rows)
    # cache=True: the first dispatcher compiles and writes, later ones load.
    hits, misses = [], []
    previous = os.environ.get("PLAIT_CACHE_DIR")
    with tempfile.TemporaryDirectory() as cache:
        os.environ["PLAIT_CACHE_DIR"] = cache
        try:
            for label, (name, args) in PHASE_FUNCTIONS.items():
                call_args = args if args is not None else (np.ones(3),)
                for attempt in range(max(5, rounds * 3) + 1):
                    dispatcher = plait.jit(cache=True)(getattr(functions, name))
                    started = time.perf_counter()
                    dispatcher(*call_args)
                    (misses if attempt == 0 else hits).append(time.perf_counter() - started)
        finally:
            if previous is None:
                del os.environ["PLAIT_CACHE_DIR"]
            else:
                os.environ["PLAIT_CACHE_DIR"] = previous
    report.add(
        f"With `cache=True`, the first call of a new dispatcher of these functions loading from the disk cache "
        f"(snapshot, key, read, link, call): median {fmt_time(statistics.median(hits))}, max {fmt_time(max(hits))}; "
        f"compiling and writing the entry: median {fmt_time(statistics.median(misses))}."
    )
    report.add()


# -- 3. call overhead ---------------------------------------------------------
def empty():
    return 0


def identity(x):
    return x


def first_of(a):
    return a[0]


def first_of_three(a, b, c):
    return a[0] + b[0] + c[0]


def section_call_overhead(report: Report, rounds: int) -> dict[str, Any]:
    report.add("## 3. Call overhead")
    report.add()
    report.add("Nanoseconds per call (loop overhead subtracted), median of interleaved rounds.")
    report.add()
    callers: dict[str, tuple[Callable[[], Any], Callable[[Any], Any]]] = {
        "Python function": (empty, identity),
        "builtin (int(), abs)": (int, abs),
        "plait": (plait.jit(empty), plait.jit(identity)),
    }
    if numba:
        callers["Numba"] = (numba.njit(empty), numba.njit(identity))
    for zero, one in callers.values():
        zero(), one(1.0)
    n = 200_000

    def per_call(fn: Callable[..., Any], arg: Any) -> float:
        best = []
        for _ in range(3):
            if arg is None:
                start = time.perf_counter()
                for _ in range(n):
                    fn()
            else:
                start = time.perf_counter()
                for _ in range(n):
                    fn(arg)
            best.append(time.perf_counter() - start)
        return min(best) / n

    def baseline() -> float:
        start = time.perf_counter()
        for _ in range(n):
            pass
        return (time.perf_counter() - start) / n

    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in callers}
    for _ in range(rounds):
        for name, (zero, one) in callers.items():
            base = baseline()
            samples[name].append((per_call(zero, None) - base, per_call(one, 1.0) - base))
    rows, plot = [], {}
    for name, values in samples.items():
        zero_ns = median_spread([v[0] * 1e9 for v in values])
        one_ns = median_spread([v[1] * 1e9 for v in values])
        plot[name] = (zero_ns[0], one_ns[0])
        rows.append([name, f"{zero_ns[0]:.0f} ({zero_ns[1]:.0f}-{zero_ns[2]:.0f})", f"{one_ns[0]:.0f} ({one_ns[1]:.0f}-{one_ns[2]:.0f})"])
    if not numba:
        rows.append(["Numba", NUMBA_MISSING, ""])
    report.table(["callee", "no arguments (ns)", "one float argument (ns)"], rows)
    import numpy as np

    a, b, c = np.zeros(8), np.zeros(8), np.zeros(8)
    array_callers = {"plait": (plait.jit(first_of), plait.jit(first_of_three))}
    if numba:
        array_callers["Numba"] = (numba.njit(first_of), numba.njit(first_of_three))
    array_samples: dict[str, list[tuple[float, float]]] = {name: [] for name in array_callers}
    for one_array, three_arrays in array_callers.values():
        one_array(a), three_arrays(a, b, c)
    for _ in range(rounds):
        for name, (one_array, three_arrays) in array_callers.items():
            base = baseline()
            start = time.perf_counter()
            for _ in range(n):
                one_array(a)
            t1 = (time.perf_counter() - start) / n - base
            start = time.perf_counter()
            for _ in range(n):
                three_arrays(a, b, c)
            t3 = (time.perf_counter() - start) / n - base
            array_samples[name].append((t1, t3))
    array_rows = []
    for name, values in array_samples.items():
        one = median_spread([v[0] * 1e9 for v in values])
        three = median_spread([v[1] * 1e9 for v in values])
        array_rows.append([name, f"{one[0]:.0f} ({one[1]:.0f}-{one[2]:.0f})", f"{three[0]:.0f} ({three[1]:.0f}-{three[2]:.0f})"])
    if not numba:
        array_rows.append(["Numba", NUMBA_MISSING, ""])
    report.table(["callee", "one array argument (ns)", "three array arguments (ns)"], array_rows)
    if numba:
        ratio1 = [p[0] / q[0] for p, q in zip(array_samples["plait"], array_samples["Numba"])]
        ratio3 = [p[1] / q[1] for p, q in zip(array_samples["plait"], array_samples["Numba"])]
        report.add(f"plait/Numba call overhead with arrays: one {fmt_ratio(ratio1)}, three {fmt_ratio(ratio3)}.")
        report.add()
    if numba:
        ratio = [p[1] / q[1] for p, q in zip(samples["plait"], samples["Numba"])]
        report.add(f"plait/Numba call overhead (one argument): {fmt_ratio(ratio)}.")
        report.add()
    return plot


# -- 3b. dispatch with many signatures -----------------------------------------
def three(a, b, c):
    return a


def section_dispatch_signatures(report: Report, rounds: int) -> dict[str, Any]:
    report.add("### Dispatch with 1 and with 20 compiled signatures")
    report.add()
    report.add("Nanoseconds per call of a three-argument function; with 20 signatures the call matches the last one installed (the longest scan).")
    report.add()
    import itertools

    samples = {"kinds": [True, 1, 1.5]}
    one = plait.jit(three)
    one(1.5, 1.5, 1.5)
    many = plait.jit(three)
    combos = list(itertools.product(samples["kinds"], repeat=3))[:20]
    for combo in combos:
        many(*combo)
    last = combos[-1]
    n = 200_000

    def per_call(f: Callable[..., Any], args: tuple[Any, ...]) -> float:
        best = []
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(n):
                f(*args)
            best.append(time.perf_counter() - start)
        return min(best) / n

    ones, manys = [], []
    for _ in range(rounds):
        ones.append(per_call(one, (1.5, 1.5, 1.5)) * 1e9)
        manys.append(per_call(many, last) * 1e9)
    m1, m20 = statistics.median(ones), statistics.median(manys)
    report.table(
        ["compiled signatures", "ns per call"],
        [["1", f"{m1:.0f} ({min(ones):.0f}-{max(ones):.0f})"], ["20", f"{m20:.0f} ({min(manys):.0f}-{max(manys):.0f})"]],
    )
    report.add(f"20 signatures / 1 signature: {fmt_ratio([b / a for a, b in zip(ones, manys)])} (loop overhead included).")
    report.add()
    return {"1": m1, "20": m20}


# -- 4. parallel compilation --------------------------------------------------
def distinct_functions(count: int, tag: str) -> list[Any]:
    folder = Path(tempfile.mkdtemp())
    source = []
    for i in range(count):
        source.append(
            textwrap.dedent(
                f"""
                def f{i}(x, n):
                    total = {i}.5
                    for k in range(n):
                        if k % {i + 2} == 0:
                            total += x * k - {i}
                        else:
                            total -= x / (k + {i + 1})
                    return total
                """
            )
        )
    name = f"compile_{tag}_{count}_{time.monotonic_ns()}"
    (folder / f"{name}.py").write_text("\n".join(source))
    sys.path.insert(0, str(folder))
    module = importlib.import_module(name)
    sys.path.remove(str(folder))
    return [getattr(module, f"f{i}") for i in range(count)]


def compile_wall_time(decorate: Callable[[Any], Any], functions: list[Any], threads: int) -> float:
    compiled = [decorate(f) for f in functions]
    start = time.perf_counter()
    if threads == 1:
        for f in compiled:
            f(1.5, 10)
    else:
        workers = [threading.Thread(target=f, args=(1.5, 10)) for f in compiled]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    return time.perf_counter() - start


def section_parallel_compilation(report: Report, rounds: int) -> dict[str, Any]:
    report.add("## 4. Parallel compilation")
    report.add()
    report.add("N distinct functions, each compiled by its first call: by N threads at once vs one after another in one thread (fresh functions each time). Speed-up = sequential time / threaded time.")
    report.add()
    systems: dict[str, Callable[[Any], Any]] = {"plait": plait.jit}
    if numba:
        systems["Numba"] = numba.njit
    rows, plot = [], {name: {} for name in systems}
    for n in (1, 2, 4, 8):
        row = [str(n)]
        for name, decorate in systems.items():
            speedups, parallel_times = [], []
            for r in range(rounds):
                sequential = compile_wall_time(decorate, distinct_functions(n, f"{name}s{r}"), 1)
                parallel = compile_wall_time(decorate, distinct_functions(n, f"{name}p{r}"), n)
                speedups.append(sequential / parallel)
                parallel_times.append(parallel)
            plot[name][n] = statistics.median(speedups)
            row += [fmt_time(statistics.median(parallel_times)), fmt_ratio(speedups)]
        if not numba:
            row += [NUMBA_MISSING, ""]
        rows.append(row)
    report.table(["N", "plait: N threads", "plait speed-up", "Numba: N threads", "Numba speed-up"], rows)
    return plot


# -- 5. threaded execution ----------------------------------------------------
def long_kernel(n):
    total = 0
    for i in range(n):
        total = (total + i * i) % 1000003
    return total


def section_threaded_execution(report: Report, rounds: int) -> dict[str, Any]:
    report.add("## 5. Threaded execution")
    report.add()
    report.add("One long kernel called by T threads at once (GIL build): speed-up = T x (time of one call alone) / wall time.")
    report.add()
    systems: dict[str, Callable[[int], Any]] = {"plait": plait.jit(long_kernel)}
    if numba:
        systems["Numba (nogil=True)"] = numba.njit(nogil=True)(long_kernel)
    n = 20_000_000
    for f in systems.values():
        f(1000)
    rows, plot = [], {name: {} for name in systems}
    for threads in (1, 2, 4):
        row = [str(threads)]
        for name, f in systems.items():
            speedups = []
            for _ in range(rounds):
                start = time.perf_counter()
                f(n)
                alone = time.perf_counter() - start
                workers = [threading.Thread(target=f, args=(n,)) for _ in range(threads)]
                start = time.perf_counter()
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
                speedups.append(threads * alone / (time.perf_counter() - start))
            plot[name][threads] = statistics.median(speedups)
            row.append(fmt_ratio(speedups))
        if not numba:
            row.append(NUMBA_MISSING)
        rows.append(row)
    report.table(["threads"] + list(systems) + ([] if numba else ["Numba (nogil=True)"]), rows)
    return plot


# -- 6. engine room -----------------------------------------------------------
ENGINE_MODULE = """
func.func @kernel(%n: i64) -> i64 {{
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


def section_engine_room(report: Report, rounds: int) -> dict[str, Any]:
    report.add("## 6. Engine room")
    report.add()
    report.add("Modules per second from T threads, each thread with its own Context: pass pipeline (parse + plait-lower-to-llvm) and ExecutionEngine creation (parse + lower + LLVM -O2 + codegen).")
    report.add()
    per_thread = 8

    def pipeline_work(i: int) -> None:
        ctx = ir.Context()
        for k in range(per_thread):
            module = ir.Module.parse(ENGINE_MODULE.format(k=i * 100 + k), context=ctx)
            PassManager.parse("builtin.module(plait-lower-to-llvm)", context=ctx).run(module)

    def engine_work(i: int) -> None:
        ctx = ir.Context()
        for k in range(per_thread):
            module = ir.Module.parse(ENGINE_MODULE.format(k=i * 100 + k), context=ctx)
            assert ExecutionEngine(module, pipeline="plait-lower-to-llvm").invoke("kernel", 3) == 3 * (i * 100 + k)

    rows, plot = [], {"pipeline": {}, "engine": {}}
    for threads in (1, 2, 4):
        row = [str(threads)]
        for label, work in (("pipeline", pipeline_work), ("engine", engine_work)):
            rates = []
            for _ in range(rounds):
                workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
                start = time.perf_counter()
                for w in workers:
                    w.start()
                for w in workers:
                    w.join()
                rates.append(threads * per_thread / (time.perf_counter() - start))
            m, lo, hi = median_spread(rates)
            plot[label][threads] = m
            row.append(f"{m:.0f} ({lo:.0f}-{hi:.0f})")
        rows.append(row)
    report.table(["threads", "pipelines/s", "engines/s"], rows)
    return plot


# -- report -------------------------------------------------------------------
def machine_facts(report: Report) -> None:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    llvm = subprocess.run([str(HERE.parent / "scripts" / "llvm-version.sh")], capture_output=True, text=True).stdout.strip()
    gpp = subprocess.run(["g++", "--version"], capture_output=True, text=True).stdout.splitlines()[0] if shutil.which("g++") else "not found"
    import numpy

    report.add("# plait benchmark report")
    report.add()
    report.table(
        ["fact", "value"],
        [
            ["date", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())],
            ["cores", str(os.cpu_count())],
            ["CPU", cpu],
            ["Python", sys.version.split()[0] + (" (free-threaded)" if not getattr(sys, "_is_gil_enabled", lambda: True)() else "")],
            ["LLVM/MLIR", llvm],
            ["NumPy", numpy.__version__],
            ["BLAS threads (OPENBLAS_NUM_THREADS)", os.environ.get("OPENBLAS_NUM_THREADS", "default")],
            ["Numba", numba.__version__ if numba else NUMBA_MISSING],
            ["C++ reference", gpp],
        ],
    )


def plots(results: dict[str, Any], report: Report) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except Exception as error:  # noqa: BLE001
        report.add(f"Plots skipped: matplotlib not importable ({error}).")
        return
    for key, title in (("kernels", "Kernels"), ("array_kernels", "Array kernels"), ("whole_array_kernels", "Whole-array kernels")):
        if key not in results:
            continue
        data = results[key]
        labels = list(data)
        systems = list(next(iter(data.values())))
        fig, ax = plt.subplots(figsize=(12, 5))
        width = 0.8 / len(systems)
        for i, system in enumerate(systems):
            # (a kernel without a C++ reference has no bar for it)
            ax.bar([x + i * width for x in range(len(labels))], [data[k].get(system, 0.0) for k in labels], width, label=system)
        ax.set_yscale("log")
        ax.set_ylabel("seconds per call (log)")
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(labels))], labels, rotation=20, ha="right", fontsize=8)
        ax.legend()
        ax.set_title(title)
        fig.tight_layout()
        fig.savefig(RESULTS / f"{key}.png", dpi=110)
        report.plots.append(f"{key}.png")
    for key, title, ylabel in (
        ("parallel_compilation", "Parallel compilation speed-up", "sequential / threaded"),
        ("threaded_execution", "Threaded execution speed-up", "speed-up vs 1 thread"),
        ("parallel_kernels", "Parallel kernels: speed-up over 1 thread", "speed-up vs 1 thread"),
        ("engine_room", "Engine room throughput", "modules per second"),
    ):
        if key not in results:
            continue
        fig, ax = plt.subplots(figsize=(6, 4))
        for name, series in results[key].items():
            xs = sorted(series)
            ax.plot(xs, [series[x] for x in xs], marker="o", label=name)
        ax.set_xlabel("threads")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.legend()
        fig.tight_layout()
        fig.savefig(RESULTS / f"{key}.png", dpi=110)
        report.plots.append(f"{key}.png")
    for key, title in (("latency", "Start-up and first-call latency"), ("call_overhead", "Call overhead")):
        if key not in results:
            continue
        fig, ax = plt.subplots(figsize=(7, 4))
        names = list(results[key])
        columns = ["import", "cold first call", "warm first call"] if key == "latency" else ["no arguments", "one argument"]
        width = 0.8 / len(names)
        for i, name in enumerate(names):
            values = results[key][name]
            scale = 1e3 if key == "latency" else 1.0
            ax.bar([x + i * width for x in range(len(columns))], [v * scale for v in values], width, label=name)
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(columns))], columns)
        ax.set_ylabel("milliseconds" if key == "latency" else "nanoseconds per call")
        ax.set_title(title)
        ax.legend()
        fig.tight_layout()
        fig.savefig(RESULTS / f"{key}.png", dpi=110)
        report.plots.append(f"{key}.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None, help="sections to run")
    options = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    report = Report()
    machine_facts(report)
    if NUMBA_MISSING:
        report.add(f"Numba comparisons skipped: {NUMBA_MISSING}.")
        report.add()
    started = time.perf_counter()
    results: dict[str, Any] = {}
    reference = build_reference(report)
    sections = {
        "kernels": lambda: section_kernels(report, options.rounds, reference),
        "array_kernels": lambda: section_array_kernels(report, options.rounds, reference),
        "whole_array_kernels": lambda: section_whole_array_kernels(report, options.rounds),
        # Short kernels on every core are the most sensitive to a busy
        # machine: more rounds steady their medians.
        "parallel_kernels": lambda: section_parallel_kernels(report, max(9, options.rounds)),
        "latency": lambda: section_latency(report, options.rounds),
        "call_overhead": lambda: section_call_overhead(report, options.rounds),
        "dispatch_signatures": lambda: section_dispatch_signatures(report, options.rounds),
        "parallel_compilation": lambda: section_parallel_compilation(report, max(2, options.rounds // 2)),
        "threaded_execution": lambda: section_threaded_execution(report, max(2, options.rounds // 2)),
        "engine_room": lambda: section_engine_room(report, max(2, options.rounds // 2)),
    }
    for name, run in sections.items():
        if options.only is None or name in options.only:
            results[name] = run()
    plots(results, report)
    report.add(f"Suite time: {time.perf_counter() - started:.0f} s. Reproduce with `make bench`.")
    report.add()
    for plot in report.plots:
        report.add(f"![{plot}]({plot})")
    (RESULTS / "latest.md").write_text("\n".join(report.lines) + "\n")


if __name__ == "__main__":
    main()
