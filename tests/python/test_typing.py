"""plait is typed for editors and mypy (py.typed, and a stub for the native
module): correct uses of the public API check, wrong option types do not."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import plait

USER_CODE = textwrap.dedent(
    """
    import numpy as np

    import plait


    @plait.jit(fastmath=True, cache=True, parallel=True, overflow="wrap", nogil="auto")
    def total(a: np.ndarray) -> float:
        s = 0.0
        for i in plait.prange(a.shape[0]):
            s += a[i]
        return s


    eager = plait.jit(["float64(float64)"], boundscheck=False)(lambda x: x)
    info: dict = plait.cache_info()
    removed: int = plait.clear_cache()
    plait.set_num_threads(2)
    times: dict = total.compile_times()
    wrong_parallel = plait.jit(parallel="yes")
    wrong_overflow = plait.jit(overflow="saturate")
    wrong_level = plait.jit(opt_level="high")
    """
)


def test_mypy_checks_the_public_api(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    user = tmp_path / "user.py"
    user.write_text(USER_CODE)
    package = str(Path(plait.__file__).parent.parent)
    env = dict(os.environ, PYTHONPATH=package, MYPY_CACHE_DIR=str(tmp_path / "cache"))
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental", "--no-error-summary", str(user)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600,
    )
    errors = sorted({line.split(":")[1] for line in out.stdout.splitlines() if ": error:" in line})
    lines = USER_CODE.splitlines()
    wrong = sorted(str(i + 1) for i, line in enumerate(lines) if line.startswith("wrong_"))
    assert errors == wrong, out.stdout + out.stderr


def test_python_dash_m_plait_reports_versions_target_cache_and_threads() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-m", "plait", "--version", "--info"], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(":", 1) for line in out.stdout.splitlines()[1:])
    assert out.stdout.startswith(f"plait {plait.__version__}\n")
    assert lines["llvm"].strip().split(".")[0].isdigit()
    assert lines["target"].strip().startswith(("x86_64", "aarch64", "arm64"))
    assert lines["cache folder"].strip() == plait.cache_info()["directory"]
    assert lines["thread pool"].strip() == f"{plait.thread_pool_size()} threads"
    assert lines["cpu features"].strip()
