"""Raising NumPy's errors from plait.numpy's implementations."""

from __future__ import annotations

from typing import Any


def raise_if(condition: Any, exception: str, message: str, *values: Any) -> None:
    """Raises `exception` (a builtin's name, or module.Class) with `message`,
    whose {0}, {1}... show `values` (ints; {k!f} shows a float as Python
    does; a tuple's elements count one by one), when `condition` holds. In
    compiled code the class and message must be constant strings (literals,
    or names bound to them)."""
    if not condition:
        return
    values = tuple(v for value in values for v in (value if isinstance(value, tuple) else (value,)))
    module, _, name = exception.rpartition(".")
    import builtins
    import importlib

    cls = getattr(importlib.import_module(module) if module else builtins, name)
    for index, value in enumerate(values):
        message = message.replace("{" + str(index) + "!f}", repr(float(value)))
        message = message.replace("{" + str(index) + "}", str(int(value)))
    raise cls(message)


raise_if._plait_intrinsic = "raise_if"  # type: ignore[attr-defined]


def check_axis(axis: int, ndim: int) -> None:
    """NumPy's AxisError for an axis out of [-ndim, ndim) (compiled too)."""
    raise_if(
        axis < -ndim or axis >= ndim,
        "numpy.exceptions.AxisError",
        "axis {0} is out of bounds for array of dimension {1}",
        axis,
        ndim,
    )
