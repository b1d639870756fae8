"""Parallel loops: ``prange`` and the size of the thread pool they run on.

In ``@plait.jit(parallel=True)`` code, ``for i in prange(n)`` declares the
iterations independent, and they run on the process's pool of native
threads (``PLAIT_NUM_THREADS`` threads, default: the machine's cores). Outside
compiled code, or without ``parallel=True``, ``prange`` is ``range``.
"""

from __future__ import annotations

import operator
import sys
from typing import Any

from ._core import jit as _native


class prange:  # noqa: N801  (spelled as Numba spells it)
    """``range`` whose iterations may run in parallel in code compiled with
    ``@plait.jit(parallel=True)``: ``prange(stop)``, ``prange(start, stop[, step])``."""

    def __new__(cls, *args: Any) -> range:  # type: ignore[misc]
        return range(*args)


def is_prange(value: Any) -> bool:
    """Whether compiled code reads `value` as prange: plait's, or Numba's
    when the program imported Numba (code ported by changing the import)."""
    if value is prange:
        return True
    numba = sys.modules.get("numba")
    return numba is not None and getattr(numba, "prange", None) is value


def set_num_threads(n: int) -> None:
    """Limit the parallel loops this thread starts to `n` threads (the
    calling one included), 1 <= n <= the pool size. Per thread, as Numba's."""
    if isinstance(n, bool):
        raise TypeError("The number of threads specified must be an integer, not bool")
    try:
        n = operator.index(n)  # ints and NumPy ints
    except TypeError:
        raise TypeError(f"The number of threads specified must be an integer, not {type(n).__name__}") from None
    size = _native._parallel_pool_size()
    if not 1 <= n <= size or not _native._set_parallel_threads(n):
        raise ValueError(f"The number of threads must be between 1 and {size}")


def get_num_threads() -> int:
    """The number of threads this thread's parallel loops use."""
    return int(_native._parallel_threads())


def thread_pool_size() -> int:
    """The size of the process's thread pool (``PLAIT_NUM_THREADS``, or the
    machine's cores), fixed when the process first asks for it."""
    return int(_native._parallel_pool_size())
