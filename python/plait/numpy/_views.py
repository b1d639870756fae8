"""Views of an array's memory for plait.numpy's implementations."""

from __future__ import annotations

from typing import Any

import numpy as np


class _Memory:
    """Exposes a view's layout to NumPy and keeps the viewed array alive."""

    def __init__(self, array: np.ndarray, interface: dict[str, Any]) -> None:
        self.array = array
        self.__array_interface__ = interface


def strided_view(a: Any, offset: Any, shape: Any, strides: Any, ndim: Any = None) -> np.ndarray:
    """A view of `a`'s memory starting `offset` elements past its first
    element, with the given sizes and strides (counted in elements, tuples
    of ints or 1-D integer arrays). In compiled code the view's rank is the
    length of a tuple shape or strides, or the constant `ndim`."""
    interface = dict(a.__array_interface__)
    address, _ = interface["data"]
    itemsize = a.dtype.itemsize
    interface["data"] = (address + int(offset) * itemsize, not a.flags.writeable)
    interface["shape"] = tuple(int(n) for n in shape)
    interface["strides"] = tuple(int(step) * itemsize for step in strides)
    interface.pop("mask", None)
    return np.asarray(_Memory(a, interface))


strided_view._plait_intrinsic = "strided_view"  # type: ignore[attr-defined]


def c_strides(sizes: Any, rank: int) -> np.ndarray:
    """The strides (in elements) of a C-contiguous array of `sizes` (a 1-D
    int array of `rank` sizes), for strided_view."""
    steps = np.empty(rank, np.int64)
    step = 1
    for k in range(rank - 1, -1, -1):
        steps[k] = step
        step *= sizes[k]
    return steps


def moved_axes(a: Any, order: Any, rank: int) -> tuple[np.ndarray, np.ndarray]:
    """The sizes and strides (in elements) of `a` with its axes in `order`
    (normalised axes), for strided_view."""
    sizes = np.empty(rank, np.int64)
    steps = np.empty(rank, np.int64)
    for k in range(rank):
        sizes[k] = a.shape[order[k]]
        steps[k] = a.strides[order[k]] // a.itemsize
    return sizes, steps
