"""Differential fuzzer for plait.jit: random programs inside the documented
subset, each run under CPython and compiled, in a child process (a crash is a
finding), comparing results, in-place effects and exceptions.

    python tests/fuzz/fuzz.py --seed 1 --programs 200 --seconds 60   # make test
    python tests/fuzz/fuzz.py --seconds 3600                         # make fuzz

Exits 1 when it finds something; each finding is printed with its program
(also written to --findings). Compile errors count as "refused" unless
--strict: the generator stays inside the subset, so a refusal is worth a look
but not always a bug. Internal errors are always findings.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from programs import generate  # noqa: E402


class Worker:
    """A child process that runs programs; restarted after a crash."""

    def __init__(self) -> None:
        self.process: Optional[subprocess.Popen[str]] = None

    def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in sys.path if p)
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "worker.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env,
        )

    def run(self, path: Path, timeout: float) -> dict[str, Any]:
        if self.process is None or self.process.poll() is not None:
            self.start()
        assert self.process and self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        # No answer: the worker died (a crash) or hangs.
        hung = self.process.poll() is None
        self.process.kill()
        self.process.wait()
        stderr = self.process.stderr.read() if self.process.stderr else ""
        self.process = None
        return {"status": "finding", "kind": "hang" if hung else "crash",
                "detail": stderr[-2000:]}

    def close(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.stdin.close()  # type: ignore[union-attr]
            self.process.wait(30)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: from the clock)")
    parser.add_argument("--programs", type=int, default=10**9, help="stop after this many programs")
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds one program may take")
    parser.add_argument("--strict", action="store_true", help="refused programs are findings too")
    parser.add_argument("--findings", type=Path, default=None, help="folder to write findings to")
    args = parser.parse_args(argv)

    seed = args.seed if args.seed is not None else int(time.time())
    deadline = time.monotonic() + args.seconds
    counts: dict[str, int] = {}
    refusals: dict[str, int] = {}
    findings: list[tuple[int, dict[str, Any], str]] = []
    worker = Worker()
    with tempfile.TemporaryDirectory(prefix="plait-fuzz-") as folder:
        n = 0
        while n < args.programs and time.monotonic() < deadline:
            program_seed = seed + n
            n += 1
            source = generate(program_seed)
            path = Path(folder) / f"program_{program_seed}.py"
            path.write_text(source)
            result = worker.run(path, args.timeout)
            status = result["status"]
            counts[status] = counts.get(status, 0) + 1
            if status == "refused":
                reason = result["got"][2].split("\n")[0].split(": ", 1)[-1]
                refusals[reason] = refusals.get(reason, 0) + 1
            if status == "finding" or (args.strict and status == "refused") or status == "error":
                findings.append((program_seed, result, source))
    worker.close()

    summary = ", ".join(f"{count} {status}" for status, count in sorted(counts.items()))
    print(f"plait fuzz: seeds {seed}..{seed + n - 1}: {summary}")
    for reason, count in sorted(refusals.items(), key=lambda item: -item[1]):
        print(f"  refused {count}x: {reason}")
    for program_seed, result, source in findings:
        print(f"\n=== finding: seed {program_seed} ===\n{json.dumps(result, indent=1)}\n--- program ---\n{source}")
        if args.findings:
            args.findings.mkdir(parents=True, exist_ok=True)
            (args.findings / f"finding_{program_seed}.py").write_text(
                source + "\n# " + json.dumps(result).replace("\n", "\n# ") + "\n")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
