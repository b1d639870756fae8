"""plait against spcl/npbench: coverage and speed beside Numba, in one run.

    python bench/npbench.py --npbench DIR [--preset S] [--only NAME ...]

DIR is a checkout of https://github.com/spcl/npbench (not part of this
repository: its kernels are its authors' code). For every benchmark in
DIR/bench_info, a child process builds the inputs with the benchmark's own
initialiser, runs the NumPy kernel interpreted, through `plait.jit`, and the
authors' Numba version (`*_numba_n.py`, nopython mode), and compares outputs
with npbench's tolerances. Each child has a time limit, so a hang or a crash
is reported as such and the run goes on. Timings are medians of rounds that
interleave the three implementations. Writes bench/results/npbench.md.
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


# --- child: one benchmark -----------------------------------------------------------------------


def _load_inputs(root: Path, info: dict, preset: str) -> dict:
    data = dict(info["parameters"][preset])
    init = info.get("init")
    if init:
        module = _import(root, info, "")
        outputs = getattr(module, init["func_name"])(*(data[name] for name in init["input_args"]))
        if len(init["output_args"]) == 1:
            outputs = (outputs,)
        data.update(zip(init["output_args"], outputs))
    return data


def _import(root: Path, info: dict, suffix: str):
    package = "npbench.benchmarks." + info["relative_path"].replace("/", ".")
    return importlib.import_module(f"{package}.{info['module_name']}{suffix}")


def _outputs(info: dict, args: dict, result: Any) -> list:
    outputs = [args[name] for name in info.get("output_args", [])]
    if result is not None:
        outputs.extend(result if isinstance(result, tuple) else (result,))
    return outputs


def _matches(info: dict, reference: list, candidate: list) -> str:
    import numpy as np

    if len(reference) != len(candidate):
        return f"{len(candidate)} outputs, expected {len(reference)}"
    rtol = info.get("rtol", 1e-5)
    atol = info.get("atol", 1e-8)
    for position, (want, got) in enumerate(zip(reference, candidate)):
        want, got = np.asarray(want), np.asarray(got)
        if want.shape != got.shape:
            return f"output {position}: shape {got.shape}, expected {want.shape}"
        if not np.allclose(want, got, rtol=rtol, atol=atol, equal_nan=True):
            error = np.linalg.norm(want - got) / max(np.linalg.norm(want), 1e-300)
            if error > info.get("norm_error", 1e-5):
                return f"output {position}: values differ (relative norm error {error:.2e})"
    return ""


def _run_one(root: Path, name: str, preset: str, rounds: int) -> dict:
    import numpy as np

    sys.path.insert(0, str(root))
    info = json.loads((root / "bench_info" / f"{name}.json").read_text())["benchmark"]
    pristine = _load_inputs(root, info, preset)
    call_args = info["input_args"]

    def fresh() -> dict:
        return {key: copy.deepcopy(value) if isinstance(value, np.ndarray) else value
                for key, value in pristine.items()}

    def call(function: Callable, args: dict) -> Any:
        return function(*(args[arg] for arg in call_args))

    report: dict[str, Any] = {"name": name}
    kernel = getattr(_import(root, info, "_numpy"), info["func_name"])
    args = fresh()
    reference = _outputs(info, args, call(kernel, args))

    candidates: dict[str, Callable] = {"numpy": kernel}
    try:
        import plait

        candidates["plait"] = plait.jit(kernel)
    except Exception as error:  # noqa: BLE001 - reported per benchmark
        report["plait"] = {"status": "error", "error": f"{type(error).__name__}: {error}"}
    try:
        import numba  # noqa: F401

        candidates["numba"] = getattr(_import(root, info, "_numba_n"), info["func_name"])
    except ImportError as error:
        report["numba"] = {"status": "missing", "error": str(error)}
    except Exception as error:  # noqa: BLE001
        report["numba"] = {"status": "error", "error": f"{type(error).__name__}: {error}"}

    # First call: compiles (timed as compile + run), then checks the outputs.
    for label in [label for label in candidates if label != "numpy"]:
        args = fresh()
        start = time.perf_counter()
        try:
            result = call(candidates[label], args)
        except Exception as error:  # noqa: BLE001
            kind = type(error).__name__
            stage = "compile" if kind in ("TypingError", "UnsupportedError", "CompileError") else "run"
            message = str(error).strip().splitlines()
            # The first line only: later ones quote the benchmark's source.
            report[label] = {"status": f"{stage} error", "error": f"{kind}: {message[0] if message else ''}"}
            del candidates[label]
            continue
        first = time.perf_counter() - start
        mismatch = _matches(info, reference, _outputs(info, args, result))
        if mismatch:
            report[label] = {"status": "wrong result", "error": mismatch}
            del candidates[label]
            continue
        report[label] = {"status": "ok", "first_call_s": first}
        if label == "plait":
            compiled = candidates[label]
            report[label]["compile_s"] = sum(compiled.compile_times(sig)["total"] for sig in compiled.signatures)

    # Interleaved timing rounds.
    samples: dict[str, list[float]] = {label: [] for label in candidates}
    for _ in range(rounds):
        for label, function in candidates.items():
            args = fresh()
            start = time.perf_counter()
            call(function, args)
            samples[label].append(time.perf_counter() - start)
    for label, times in samples.items():
        report.setdefault(label, {"status": "ok"})["median_s"] = statistics.median(times)
    return report


# --- parent: every benchmark, then the report ---------------------------------------------------


def _child(root: Path, name: str, preset: str, rounds: int, timeout: float) -> dict:
    command = [sys.executable, __file__, "--npbench", str(root), "--preset", preset,
               "--rounds", str(rounds), "--child", name]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"name": name, "plait": {"status": "timeout", "error": f"over {timeout:.0f} s"}}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"name": name, "plait": {"status": "crash", "error": f"exit {done.returncode}: {tail}"}}
    return json.loads(lines[-1])


def _ratio(report: dict, label: str, base: str) -> str:
    a, b = report.get(label, {}), report.get(base, {})
    if "median_s" not in a or "median_s" not in b:
        return ""
    return f"{a['median_s'] / b['median_s']:.2f}"


def _geomean(values: list[float]) -> float:
    import math

    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--npbench", type=Path, default=os.environ.get("NPBENCH_DIR"), required=False)
    parser.add_argument("--preset", default="S")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--child")
    parser.add_argument("--output", type=Path, default=RESULTS / "npbench.md")
    options = parser.parse_args()
    if options.npbench is None:
        parser.error("give --npbench DIR (a checkout of spcl/npbench) or set NPBENCH_DIR")
    root = options.npbench.resolve()

    if options.child:
        print(json.dumps(_run_one(root, options.child, options.preset, options.rounds)), flush=True)
        return 0

    names = sorted(path.stem for path in (root / "bench_info").glob("*.json"))
    if options.only:
        names = [name for name in names if name in options.only]
    reports = []
    for name in names:
        report = _child(root, name, options.preset, options.rounds, options.timeout)
        reports.append(report)
        plait_status = report.get("plait", {}).get("status")
        print(f"{name:24} plait: {plait_status:14} numba: {report.get('numba', {}).get('status')}"
              f"  {report.get('plait', {}).get('error', '')[:110]}", flush=True)

    def counted(label: str) -> int:
        return sum(1 for report in reports if report.get(label, {}).get("status") == "ok")

    both = [r for r in reports if "median_s" in r.get("plait", {}) and "median_s" in r.get("numba", {})]
    compile_times = [r["plait"]["compile_s"] for r in reports if "compile_s" in r.get("plait", {})]
    lines = [
        f"# plait on spcl/npbench (preset {options.preset})",
        "",
        f"Compiled and matching NumPy: plait {counted('plait')} of {len(reports)}, "
        f"Numba {counted('numba')} of {len(reports)}.",
        "",
        f"Where both run ({len(both)} kernels), plait/Numba time, geometric mean: "
        f"{_geomean([r['plait']['median_s'] / r['numba']['median_s'] for r in both]):.2f}; "
        f"plait/NumPy: {_geomean([r['plait']['median_s'] / r['numpy']['median_s'] for r in both]):.2f}.",
        "",
        f"plait's compile time (native, every signature of the kernel): median "
        f"{statistics.median(compile_times) * 1e3 if compile_times else float('nan'):.1f} ms, "
        f"max {max(compile_times, default=float('nan')) * 1e3:.1f} ms over {len(compile_times)} kernels.",
        "",
        "| kernel | plait | numba | plait/numpy | plait/numba | plait first call (s) | plait compile (ms) | plait error |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        mine = report.get("plait", {})
        first = f"{mine['first_call_s']:.3f}" if "first_call_s" in mine else ""
        compiled = f"{mine['compile_s'] * 1e3:.1f}" if "compile_s" in mine else ""
        error = mine.get("error", "").replace("|", "\\|")[:160]
        lines.append(f"| {report['name']} | {mine.get('status', '')} | {report.get('numba', {}).get('status', '')}"
                     f" | {_ratio(report, 'plait', 'numpy')} | {_ratio(report, 'plait', 'numba')} | {first} | {compiled} | {error} |")
    options.output.parent.mkdir(parents=True, exist_ok=True)
    options.output.write_text("\n".join(lines) + "\n")
    print("\n".join(lines[:5]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
