"""cache=True: machine code kept on disk and loaded by later processes; safe
under concurrent writers, corrupted entries rejected and recompiled, edits
to the function or what it depends on never load stale code."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import plait

KERNELS = '''
import math

import numpy as np

import plait

SCALE = {scale}


def helper(x):
    return math.sqrt(x) * SCALE


@plait.jit(cache=True)
def kernel(x, n):
    total = 0.0
    for i in range(n):
        total += helper(x + i)
    return total


@plait.jit(cache=True)
def int_kernel(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


@plait.jit(cache=True)
def array_kernel(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * 2.0 + {offset}
    return out
'''

RUN = """
import json, sys
import numpy as np
import plait
import cached_kernels as k
results = [k.kernel(2.0, 5), k.int_kernel(1000), k.array_kernel(np.arange(4.0)).tolist()]
info = plait.cache_info()
print(json.dumps({"results": results, "compilations": plait.stats()["compilations"],
                  "hits": info["hits"], "misses": info["misses"], "writes": info["writes"],
                  "rejected": info["rejected"]}))
"""


def write_kernels(folder: Path, scale: float = 3.0, offset: float = 1.0) -> None:
    (folder / "cached_kernels.py").write_text(KERNELS.format(scale=scale, offset=offset))


def expected(scale: float = 3.0, offset: float = 1.0) -> list[Any]:
    import math

    return [
        sum(math.sqrt(2.0 + i) * scale for i in range(5)),
        sum(i * i for i in range(1000)),
        [v * 2.0 + offset for v in range(4)],
    ]


def run(folder: Path, cache: Path) -> dict[str, Any]:
    env = dict(os.environ, PLAIT_CACHE_DIR=str(cache), PYTHONPATH=os.pathsep.join([str(folder), *sys.path]))
    out = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.fixture()
def folders(tmp_path: Path) -> tuple[Path, Path]:
    source, cache = tmp_path / "src", tmp_path / "cache"
    source.mkdir()
    write_kernels(source)
    return source, cache


def test_a_second_process_loads_instead_of_compiling(folders: tuple[Path, Path]) -> None:
    source, cache = folders
    first = run(source, cache)
    assert first["results"] == expected()
    assert first["compilations"] == 3 and first["writes"] == 3 and first["hits"] == 0
    assert len(list(cache.glob("*.plait"))) == 3
    second = run(source, cache)
    assert second["results"] == expected()
    assert second["compilations"] == 0 and second["hits"] == 3 and second["writes"] == 0


def test_edits_to_the_function_or_its_dependencies_compile_again(folders: tuple[Path, Path]) -> None:
    source, cache = folders
    run(source, cache)
    # A global the code froze (SCALE, read by the plain callee) and the
    # array kernel's own body: their two entries miss, the int kernel's hits.
    write_kernels(source, scale=4.0, offset=-2.5)
    edited = run(source, cache)
    assert edited["results"] == expected(4.0, -2.5)
    assert edited["compilations"] == 2 and edited["hits"] == 1
    # Back to the first text: its entries are still there.
    write_kernels(source)
    again = run(source, cache)
    assert again["results"] == expected() and again["compilations"] == 0


def damaged(data: bytes) -> list[bytes]:
    """Truncations and flipped bytes across the whole file."""
    variants = [b"", data[:10], data[: len(data) // 2], data[:-1], data + b"x"]
    for position in sorted({0, 5, 20, 40, 60, len(data) // 3, len(data) // 2, len(data) - 1}):
        flipped = bytearray(data)
        flipped[position] ^= 0x5A
        variants.append(bytes(flipped))
    return variants


def test_corrupted_entries_are_rejected_and_compiled_again(folders: tuple[Path, Path]) -> None:
    source, cache = folders
    run(source, cache)
    entries = sorted(cache.glob("*.plait"))
    originals = {path: path.read_bytes() for path in entries}
    for path in entries:
        for bad in damaged(originals[path]):
            path.write_bytes(bad)
            result = run(source, cache)
            assert result["results"] == expected()
            assert result["rejected"] == 1 and result["compilations"] == 1 and result["hits"] == 2
            # The rejected entry was replaced by a whole one.
            assert path.read_bytes()[:14] == originals[path][:14]
            assert len(path.read_bytes()) == len(originals[path])


def compile_and_store_together(arguments: tuple[str, str, Any]) -> list[Any]:
    """One of six processes: compiles the cached kernels, and holds each
    entry's temporary file until every process has written its own, so the
    six renames onto the same names happen together."""
    folder, cache, barrier = arguments
    os.environ["PLAIT_CACHE_DIR"] = cache
    sys.path.insert(0, folder)
    from plait import _cache

    rename = os.replace

    def replace_after_all_wrote(source: Any, target: Any) -> None:
        barrier.wait(timeout=120)
        rename(source, target)

    _cache.os.replace = replace_after_all_wrote  # type: ignore[attr-defined]
    import numpy as np

    import cached_kernels as k

    return [k.kernel(2.0, 5), k.int_kernel(1000), k.array_kernel(np.arange(4.0)).tolist()]


def test_six_processes_write_the_same_entries_at_once(folders: tuple[Path, Path]) -> None:
    source, cache = folders
    context = multiprocessing.get_context("spawn")
    barrier = context.Manager().Barrier(6)
    with context.Pool(6) as pool:
        results = pool.map(compile_and_store_together, [(str(source), str(cache), barrier)] * 6)
    assert results == [expected()] * 6
    assert not list(cache.glob(".*.tmp")), "every temporary file was renamed"
    loaded = run(source, cache)
    assert loaded["results"] == expected() and loaded["compilations"] == 0 and loaded["hits"] == 3


def test_an_unwritable_folder_warns_and_still_runs(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    program = textwrap.dedent(
        """
        import warnings, plait
        def f(x):
            return x + 1
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            g, h = plait.jit(cache=True)(f), plait.jit(cache=True)(f)
            print(g(1), h(2.5), len([w for w in caught if "cannot write its cache" in str(w.message)]))
        """
    )
    env = dict(os.environ, PLAIT_CACHE_DIR=str(blocker / "cache"), PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["2", "3.5", "1"], "one warning, and the code runs"


def test_cache_info_and_clear_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAIT_CACHE_DIR", str(tmp_path))
    before = plait.cache_info()
    assert before["directory"] == str(tmp_path) and before["entries"] == 0

    def cube(x):
        return x * x * x

    assert plait.jit(cache=True)(cube)(3) == 27
    info = plait.cache_info()
    assert info["entries"] == 1 and info["bytes"] > 0 and info["writes"] == before["writes"] + 1
    assert plait.jit(cache=True)(cube)(4) == 64, "a new dispatcher loads the entry"
    assert plait.cache_info()["hits"] == info["hits"] + 1
    assert plait.clear_cache() == 1 and plait.cache_info()["entries"] == 0


OVERLOADS = '''
import math
import os

import numpy as np

import plait

PERIOD = float(os.environ.get("PERIOD", "1.0"))  # configuration read at start-up


def myscale(x):
    return x * 2.0


def scale_impl(x):
    return x * {factor}


@plait.overload(myscale)
def _scale(x):
    return scale_impl


def sinc_impl(x):
    y = math.pi * x / PERIOD
    return 1.0 if y == 0.0 else math.sin(y) / y


@plait.overload(np.sinc)
def _sinc(x):
    return sinc_impl


@plait.jit(cache=True)
def uses_overloads(x):
    return myscale(x) + np.sinc(x)
'''

RUN_OVERLOADS = """
import json, plait
import user_overloads as u
print(json.dumps({"result": u.uses_overloads(0.5), "expected": u.scale_impl(0.5) + u.sinc_impl(0.5),
                  "compilations": plait.stats()["compilations"], "hits": plait.cache_info()["hits"]}))
"""


def run_overloads(folder: Path, cache: Path, period: str = "1.0") -> dict[str, Any]:
    env = dict(os.environ, PLAIT_CACHE_DIR=str(cache), PERIOD=period,
               PYTHONPATH=os.pathsep.join([str(folder), *sys.path]))
    out = subprocess.run([sys.executable, "-c", RUN_OVERLOADS], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["result"] == result["expected"], result
    return result


def test_overload_implementations_decide_whether_an_entry_is_used(tmp_path: Path) -> None:
    # The implementations an entry was compiled with are resolved again on
    # a hit (with the globals they read): the same ones load, others compile.
    source, cache = tmp_path / "src", tmp_path / "cache"
    source.mkdir()
    (source / "user_overloads.py").write_text(OVERLOADS.format(factor=2.0))
    assert run_overloads(source, cache)["compilations"] == 1
    assert run_overloads(source, cache) == {**run_overloads(source, cache), "compilations": 0, "hits": 1}
    # An implementation's global from the environment (sinc_impl's PERIOD).
    changed = run_overloads(source, cache, period="4.0")
    assert changed["compilations"] == 1 and changed["hits"] == 0
    # An implementation's body.
    (source / "user_overloads.py").write_text(OVERLOADS.format(factor=3.0))
    edited = run_overloads(source, cache)
    assert edited["compilations"] == 1 and edited["hits"] == 0
    assert run_overloads(source, cache)["compilations"] == 0


def overloaded_target(x):
    return x


def calls_overloaded_target(x):
    return overloaded_target(x) + 1.0


def test_an_overload_registered_after_a_hit_invalidates_as_after_a_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from plait import _overload

    monkeypatch.setenv("PLAIT_CACHE_DIR", str(tmp_path))

    def doubles(x):
        return 2.0 * x

    def negates(x):
        return -x

    plait.overload(overloaded_target)(lambda x: doubles)
    key = next(k for k in _overload._registry if k.startswith(f"{__name__}.overloaded_target#"))
    try:
        first = plait.jit(cache=True)(calls_overloaded_target)
        assert first(0.5) == 2.0
        loaded = plait.jit(cache=True)(calls_overloaded_target)
        hits = plait.cache_info()["hits"]
        assert loaded(0.5) == 2.0 and plait.cache_info()["hits"] == hits + 1
        plait.overload(overloaded_target)(lambda x: negates)
        # Both were guarded on the registry, the loaded one too: both
        # compile anew with the newer implementation.
        assert first(0.5) == 0.5 and loaded(0.5) == 0.5
    finally:
        with _overload._lock:
            del _overload._registry[key]
            _overload._generation["registrations"] = object()
            _overload._resolved.clear()
