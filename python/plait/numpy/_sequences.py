"""New arrays from sequences for plait.numpy's implementations."""

from __future__ import annotations

from typing import Any

import numpy as np


def array_from_sequence(values: Any, dtype: Any) -> np.ndarray:
    """A new C-contiguous array of `dtype` holding the numbers and arrays of
    `values` (nested tuples), as np.array makes it. In compiled code
    `dtype` is known when compiling (a dtype class or constant)."""
    return np.array(values, dtype)


array_from_sequence._plait_intrinsic = "array_from_sequence"  # type: ignore[attr-defined]
