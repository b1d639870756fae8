"""Selection and statistics: np.clip, np.where, np.cov."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from .._overload import UfuncLoop, overload, overload_method
from ..errors import TypingError, UnsupportedError
from ._errors import raise_if
from ._util import absent, need_array, result_dtype


def _clip_kernel(x, lo, hi):
    # NumPy's clip of array bounds: max then min, equal values giving the
    # bound (its SIMD loop's order), a NaN x or bound propagating.
    v = x if x != x or x > lo else lo
    return v if v != v or v < hi else hi


def _clip_scalar_bounds(x, lo, hi):
    # Its loop for scalar bounds keeps x when equal to a bound.
    v = x if x != x or x >= lo else lo
    return v if v != v or v <= hi else hi


def _clip_copy(a, a_min=None, a_max=None, out=None):
    return a.copy()


def _clip_below(a, a_min=None, a_max=None, out=None):
    return np.maximum(a, a_min)


def _clip_above(a, a_min=None, a_max=None, out=None):
    return np.minimum(a, a_max)


def _clip_typer(a, a_min=None, a_max=None, out=None, **kwargs):
    if not absent(out) or kwargs:
        raise UnsupportedError("np.clip() with out=, min=, max= or ufunc keywords is not supported yet")
    for name, bound in (("a_min", a_min), ("a_max", a_max)):
        if bound is None:  # not passed (None passed is types.none)
            raise TypingError(f"clip() missing 1 required positional argument: '{name}'")
    if absent(a_min) and absent(a_max):
        return _clip_copy
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
    scalar_bounds = not isinstance(a_min, types.Array) and not isinstance(a_max, types.Array)
    return UfuncLoop(_clip_scalar_bounds if scalar_bounds else _clip_kernel, resolved[:3], resolved[3])


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
    if not any(isinstance(t, types.Array) for t in (condition, x, y)):
        raise UnsupportedError("np.where() of three scalars makes a 0-d array, which plait does not support yet")
    dt = result_dtype(x, y)
    return UfuncLoop(_where_kernel, [np.bool_, dt, dt], dt, check_python_ints=False)


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


_HISTOGRAM_BLOCK = 65536  # NumPy's: counts are added up block by block


def _histogram_range(a):
    if a.size == 0:
        return 0.0, 1.0
    first = float(a.min())
    last = float(a.max())
    raise_if(
        not (first - first == 0.0 and last - last == 0.0),
        "ValueError",
        "autodetected range of [{0!f}, {1!f}] is not finite",
        first,
        last,
    )
    if first == last:
        first -= 0.5
        last += 0.5
    return first, last


def _histogram_edges(first, last, bins):
    edges = np.linspace(first, last, bins + 1)
    for i in range(bins):
        raise_if(
            edges[i] >= edges[i + 1],
            "ValueError",
            "Too many bins for data range. Cannot create {0} finite-sized bins.",
            bins,
        )
    return edges


def _histogram_bin(x, first, last, edges, bins):
    # NumPy's uniform-bin fast path: the index computed from the value, then
    # corrected against the edges themselves.
    index = int((x - first) / (last - first) * bins)
    if index == bins:
        index -= 1
    if x < edges[index]:
        index -= 1
    if x >= edges[index + 1] and index != bins - 1:
        index += 1
    return index


def _histogram_counts(a, bins=10, range=None, density=None, weights=None):
    return _count_into_bins(a, bins)


def _count_into_bins(a, bins):
    raise_if(bins < 1, "ValueError", "`bins` must be positive, when an integer")
    first, last = _histogram_range(a)
    edges = _histogram_edges(first, last, bins)
    counts = np.zeros(bins, np.int64)
    for i in range(a.size):
        x = float(a[i])
        if x >= first and x <= last:
            counts[_histogram_bin(x, first, last, edges, bins)] += 1
    return counts, edges


def _histogram_weighted(a, bins=10, range=None, density=None, weights=None):
    return _sum_into_bins(a, bins, weights)


def _sum_into_bins(a, bins, weights):
    raise_if(bins < 1, "ValueError", "`bins` must be positive, when an integer")
    raise_if(weights.shape[0] != a.shape[0], "ValueError", "weights should have the same shape as a.")
    first, last = _histogram_range(a)
    edges = _histogram_edges(first, last, bins)
    sums = np.zeros(bins)
    block = np.zeros(bins)
    for start in range(0, a.size, _HISTOGRAM_BLOCK):
        block[:] = 0.0
        for i in range(start, min(start + _HISTOGRAM_BLOCK, a.size)):
            x = float(a[i])
            if x >= first and x <= last:
                block[_histogram_bin(x, first, last, edges, bins)] += weights[i]
        sums += block
    return sums, edges


@overload(np.histogram, family="statistics")
def _histogram(a, bins=None, range=None, density=None, weights=None):
    a = need_array("histogram", a, (1,))
    if a.dtype.kind not in "iuf" or (a.dtype.kind == "f" and a.dtype != np.float64):
        raise UnsupportedError(f"np.histogram() of {a.dtype.name} values is not supported yet")
    if not absent(bins) and not types.is_integral(bins):
        raise UnsupportedError("np.histogram() with bins other than a number of bins is not supported yet")
    if not absent(range) or not absent(density):
        raise UnsupportedError("np.histogram() with range= or density= is not supported yet")
    if absent(weights):
        return _histogram_counts
    weights = need_array("histogram", weights, (1,))
    if weights.dtype != np.float64:
        raise UnsupportedError(f"np.histogram() with {weights.dtype.name} weights is not supported yet")
    return _histogram_weighted
