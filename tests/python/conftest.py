"""Shared fixtures: every test ends by checking that no native Context leaked."""

from __future__ import annotations

import gc
import os
import threading
from typing import Callable, Iterator, TypeVar

import pytest

# Verify the IR after every MLIR pass of plait.jit's pipelines (users get one
# verification at the end): a pass that breaks the IR is then named.
os.environ.setdefault("PLAIT_VERIFY_EACH_PASS", "1")

from plait import ir  # noqa: E402

T = TypeVar("T")


@pytest.fixture(autouse=True)
def no_context_leaks() -> Iterator[None]:
    yield
    gc.collect()
    assert ir.Context._get_live_count() == 0, "a native Context outlived its test"


def run_in_threads(count: int, body: Callable[[int], T], timeout: float = 120.0) -> list[T]:
    """Runs body(i) on `count` threads; returns results in order, re-raising the
    first exception a thread raised. Joins are bounded by `timeout`."""
    results: list[object] = [None] * count
    errors: list[BaseException] = []

    def target(i: int) -> None:
        try:
            results[i] = body(i)
        except BaseException as error:  # noqa: BLE001 - re-raised below
            errors.append(error)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a worker thread hung"
    if errors:
        raise errors[0]
    return results  # type: ignore[return-value]


class BackgroundThread:
    """One thread beside the test's own: join() fails the test when the
    thread raised (re-raising its exception) or hung; `result` is what its
    body returned."""

    def __init__(self, body: Callable[[], object]) -> None:
        self.result: object = None
        self.error: BaseException | None = None

        def target() -> None:
            try:
                self.result = body()
            except BaseException as error:  # noqa: BLE001 - re-raised by join()
                self.error = error

        self.thread = threading.Thread(target=target)

    def start(self) -> "BackgroundThread":
        self.thread.start()
        return self

    def join(self, timeout: float = 120.0) -> object:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "a background thread hung"
        if self.error is not None:
            raise self.error
        return self.result


def rss_kib() -> int:
    """Resident set size of this process, in KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


ADD_MODULE = """
func.func @add(%a: i64, %b: i64) -> i64 {
  %0 = arith.addi %a, %b : i64
  return %0 : i64
}
"""
