"""Helpers of plait.numpy's type-level functions."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from ..errors import TypingError, UnsupportedError


def absent(t: Any) -> bool:
    """An argument left out (the type-level default None) or passed as None."""
    return t is None or isinstance(t, types.NoneType)


def dtype_class(t: Any, default: Any) -> Any:
    """The NumPy scalar type a dtype= argument names (default when absent)."""
    if absent(t):
        return default
    if isinstance(t, types.DType):
        return t.dtype.type
    if isinstance(t, types.String):  # dtype='f4'
        try:
            return np.dtype(t.literal_value).type
        except TypeError:
            raise TypingError(f"data type {t.literal_value!r} not understood") from None
    raise TypingError(f"dtype= takes a dtype such as np.float32, float or a.dtype, not {t}")


def need_array(name: str, t: Any, ndims: tuple[int, ...] = ()) -> types.Array:
    if not isinstance(t, types.Array):
        raise UnsupportedError(f"np.{name}() of {t} is not supported yet (arrays are)")
    if ndims and t.ndim not in ndims:
        shown = " or ".join(f"{n}-D" for n in ndims)
        raise UnsupportedError(f"np.{name}() of a {t.ndim}-D array is not supported yet ({shown} arrays are)")
    return t


def need_integral(name: str, what: str, t: Any) -> None:
    if not types.is_integral(t):
        raise TypingError(f"np.{name}(): {what} must be an integer, not {t}")


def literal_axis(name: str, axis: Any, ndim: int) -> Any:
    """The axis a constant axis= names (None for None), normalised, with
    NumPy's AxisError; UnsupportedError for an axis that is no constant."""
    if absent(axis):
        return None
    if not axis.has_literal or not isinstance(axis.literal_value, int) or isinstance(axis.literal_value, bool):
        raise UnsupportedError(f"np.{name}() takes axis= as an int constant here")
    value = axis.literal_value
    if not -ndim <= value < ndim:
        raise TypingError(f"axis {value} is out of bounds for array of dimension {ndim}")
    return value % ndim


def literal_flag(name: str, what: str, t: Any) -> bool:
    """The value of a constant bool argument (False when absent)."""
    if absent(t):
        return False
    if not t.has_literal or not isinstance(t.literal_value, (bool, int)):
        raise UnsupportedError(f"np.{name}() takes {what}= as a constant here")
    return bool(t.literal_value)


def result_dtype(*operands: Any) -> Any:
    """NumPy's result type of array and number operands (NEP 50)."""
    # np.result_type takes a Python number's value as weak, its type not.
    weak = {int: 0, float: 0.0, complex: 0j}
    return np.result_type(*[weak.get(d, d) for d in (types.operand_dtype(t) for t in operands)])
