"""Selection and statistics: np.clip, np.where, np.cov."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from .._overload import UfuncLoop, overload, overload_method
from ..errors import TypingError, UnsupportedError
from ._util import absent, need_array, result_dtype


def _clip_kernel(x, lo, hi):
    # NumPy's _NPY_CLIP: max then min, a NaN x (or bound) propagating.
    v = x if x != x or x > lo else lo
    return v if v != v or v < hi else hi


def _clip_below(a, a_min=None, a_max=None, out=None):
    return np.maximum(a, a_min)


def _clip_above(a, a_min=None, a_max=None, out=None):
    return np.minimum(a, a_max)


def _clip_typer(a, a_min=None, a_max=None, out=None, **kwargs):
    if not absent(out) or kwargs:
        raise UnsupportedError("np.clip() with out= or ufunc keywords is not supported yet")
    if absent(a_min) and absent(a_max):
        raise TypingError("One of max or min must be given")
    if absent(a_min):
        return _clip_above
    if absent(a_max):
        return _clip_below
    operands = [types.operand_dtype(t) for t in (a, a_min, a_max)]
    if any(d is None for d in operands):
        raise UnsupportedError(f"np.clip() of {a}, {a_min}, {a_max} is not supported (arrays and numbers are)")
    try:
        resolved = np._core.umath.clip.resolve_dtypes(tuple(operands) + (None,))
    except TypeError as error:
        raise TypingError(str(error)) from None
    if resolved[0].kind not in "biuf":
        raise UnsupportedError(f"np.clip() of {resolved[0].name} values is not supported yet")
    return UfuncLoop(_clip_kernel, resolved[:3], resolved[3])


overload(np.clip, family="selection")(_clip_typer)
overload_method(np.ndarray, "clip", family="selection")(_clip_typer)


def _where_kernel(condition, x, y):
    return x if condition else y


@overload(np.where, family="selection")
def _where(condition, x=None, y=None):
    if absent(x) and absent(y):
        raise UnsupportedError("np.where() of one argument (np.nonzero) is not supported yet")
    if absent(x) or absent(y):
        raise TypingError("either both or neither of x and y should be given")
    for t in (condition, x, y):
        if types.operand_dtype(t) is None:
            raise UnsupportedError(f"np.where() of {t} is not supported (arrays and numbers are)")
    dt = result_dtype(x, y)
    return UfuncLoop(_where_kernel, [np.bool_, dt, dt], dt)


def _cov_rows(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, dtype=None):
    # np.cov's steps: centre each variable (a row), then X @ X.T / (N - 1).
    x = m.astype(np.float64)
    mean = np.mean(x, axis=1)
    x -= mean.reshape((x.shape[0], 1))
    # NumPy warns and divides by 0 (inf, nan) when there are no degrees
    # of freedom left.
    fact = max(x.shape[1] - 1, 0)
    c = np.dot(x, x.T)
    c *= np.float64(1.0) / fact
    return c


@overload(np.cov, family="statistics")
def _cov(m, y=None, rowvar=None, bias=None, ddof=None, fweights=None, aweights=None, dtype=None):
    m = need_array("cov", m, (2,))
    if not all(absent(t) for t in (y, rowvar, bias, ddof, fweights, aweights, dtype)):
        raise UnsupportedError("np.cov() with keywords is not supported yet (of a 2-D array of variables in rows)")
    if m.dtype.kind not in "biuf":
        raise UnsupportedError(f"np.cov() of {m.dtype.name} values is not supported yet")
    return _cov_rows
