"""Deterministic concurrency hooks.

A rendezvous is met only when `participants` threads are inside it at once, so
meeting one proves those threads ran concurrently (detached from the
interpreter). Barriers are process-global, named and one-shot: use a fresh
name per test (see `unique_barrier_id`).
"""

from __future__ import annotations

import itertools
import os

from ._core.jit import _set_compile_rendezvous
from ._core.testing import register_rendezvous_pass, rendezvous

__all__ = [
    "RENDEZVOUS_DECLARATION",
    "register_rendezvous_pass",
    "rendezvous",
    "rendezvous_pipeline",
    "compile_rendezvous",
    "jit_rendezvous",
    "unique_barrier_id",
]

#: Declaration to paste into a module whose compiled code calls the barrier:
#: `call @plait_test_rendezvous(%id, %participants, %timeout_seconds)` returns
#: 1 when met and 0 on timeout. Integer ids name the barrier str(id).
RENDEZVOUS_DECLARATION = "func.func private @plait_test_rendezvous(i64, i64, f64) -> i32"

_counter = itertools.count(1)


def jit_rendezvous(barrier_id: int, participants: int, timeout_seconds: float) -> bool:
    """The barrier as a function @plait.jit code can call (it compiles to the
    native barrier, so meeting it proves jitted calls ran detached). Returns
    True when met. Callable from Python too."""
    try:
        rendezvous(str(int(barrier_id)), int(participants), float(timeout_seconds))
    except RuntimeError:
        return False
    return True


jit_rendezvous._plait_runtime = "rendezvous"  # type: ignore[attr-defined]


class compile_rendezvous:
    """Context manager: while active, every plait.jit compilation in this
    process waits (detached, inside the native compiler) until `participants`
    compilations have arrived at barrier `barrier_id`; a compilation that
    does not meet within `timeout_seconds` fails. Meeting proves compilations
    ran in parallel (no global compiler lock).

    With `exit_barrier_id`, each compilation also waits there just before it
    leaves the native compiler: a thread that meets it from Python (with
    `rendezvous`) knows the compilation has not finished before then, so it
    can act in the middle of a compilation (re-bind a global, say)."""

    def __init__(self, barrier_id: object, participants: int, timeout_seconds: float = 30.0,
                 exit_barrier_id: object = None) -> None:
        exit_id = "" if exit_barrier_id is None else str(exit_barrier_id)
        self.args = (str(barrier_id), int(participants), float(timeout_seconds), exit_id)

    def __enter__(self) -> "compile_rendezvous":
        _set_compile_rendezvous(*self.args)
        return self

    def __exit__(self, *exc: object) -> None:
        _set_compile_rendezvous("", 0, 0.0, "")


def unique_barrier_id() -> int:
    """A barrier id not used before in this process (an int, usable by both the
    pass and compiled code)."""
    return (os.getpid() % 100_000) * 1_000_000 + next(_counter)


def rendezvous_pipeline(barrier_id: object, participants: int, timeout_seconds: float = 10.0) -> str:
    """The textual pass for `PassManager.add`/`ExecutionEngine(pipeline=...)`."""
    return (
        f"test-rendezvous{{barrier-id={barrier_id} participants={participants} "
        f"timeout-seconds={timeout_seconds}}}"
    )
