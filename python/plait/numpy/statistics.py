"""Selection and statistics: np.clip, np.where, np.isclose, np.allclose,
np.cov, np.histogram, np.average, np.median, np.percentile, np.bincount,
np.trace."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from .. import types
from .._overload import UfuncLoop, overload, overload_method
from .ufuncs import ufunc_loop
from ..errors import TypingError, UnsupportedError
from ._errors import raise_if
from ._sequences import array_from_sequence
from ._views import c_strides, moved_axes, strided_view
from .shape import _diagonal
from ._util import absent, literal_axis, literal_flag, need_array, need_integral, result_dtype


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
    # NumPy's clip is the ufunc umath.clip: its loop, as the others'.
    scalar_bounds = not isinstance(a_min, types.Array) and not isinstance(a_max, types.Array)
    kernel = _clip_scalar_bounds if scalar_bounds else _clip_kernel
    return ufunc_loop(np._core.umath.clip, {kind: kernel for kind in "biuf"}, (a, a_min, a_max), {})


overload(np.clip, family="selection")(_clip_typer)
overload_method(np.ndarray, "clip", family="selection")(_clip_typer)


def _where_nonzero(condition, x=None, y=None):
    return np.nonzero(condition)


def _where_kernel(condition, x, y):
    return x if condition else y


def _where_checks_python_ints() -> bool:
    """Whether the installed NumPy's np.where raises OverflowError for a
    Python int its dtype cannot hold (2.5 on), or casts it as C (earlier)."""
    try:
        np.where(np.ones(1, np.bool_), np.zeros(1, np.int8), 128)
    except OverflowError:
        return True
    return False


_WHERE_CHECKS_PYTHON_INTS = _where_checks_python_ints()


@overload(np.where, family="selection")
def _where(condition, x=None, y=None):
    if absent(x) and absent(y):
        if not isinstance(condition, types.Array):
            raise UnsupportedError("np.where() of one scalar argument (a 0-d np.nonzero) is not supported yet")
        return _where_nonzero
    if absent(x) or absent(y):
        raise TypingError("either both or neither of x and y should be given")
    for t in (condition, x, y):
        if types.operand_dtype(t) is None:
            raise UnsupportedError(f"np.where() of {t} is not supported (arrays and numbers are)")
    if not any(isinstance(t, types.Array) for t in (condition, x, y)):
        raise UnsupportedError("np.where() of three scalars makes a 0-d array, which plait does not support yet")
    dt = result_dtype(x, y)
    return UfuncLoop(_where_kernel, [np.bool_, dt, dt], dt, check_python_ints=_WHERE_CHECKS_PYTHON_INTS)


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
_INFINITY = float("inf")


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


def _histogram_bin(x, first, last, scale, edges, bins):
    # NumPy's uniform-bin fast path: an index computed from the value, then
    # corrected against the edges themselves. NumPy computes the index as
    # (x - first) / (last - first) * bins; any value within one bin of the
    # right one ends in the same bin after the corrections, so a product by
    # `scale` = bins / (last - first) (no division per value) gives NumPy's
    # counts. (A range below bins * 2**-1024 leaves `scale` infinite.)
    if scale < _INFINITY:
        index = int((x - first) * scale)
    else:
        index = int((x - first) / (last - first) * bins)
    if index >= bins:
        index = bins - 1
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
    scale = bins / (last - first)
    for i in range(a.size):
        x = float(a[i])
        if x >= first and x <= last:
            counts[_histogram_bin(x, first, last, scale, edges, bins)] += 1
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
    scale = bins / (last - first)
    for start in range(0, a.size, _HISTOGRAM_BLOCK):
        block[:] = 0.0
        for i in range(start, min(start + _HISTOGRAM_BLOCK, a.size)):
            x = float(a[i])
            if x >= first and x <= last:
                block[_histogram_bin(x, first, last, scale, edges, bins)] += weights[i]
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


def _average_weighted(a, axis=None, weights=None, returned=False, keepdims=False):
    raise_if(weights.shape[0] != a.shape[0], "ValueError", "Length of weights not compatible with specified axis.")
    scale = np.sum(weights)
    raise_if(scale == 0.0, "ZeroDivisionError", "Weights sum to zero, can't be normalized")
    return np.sum(np.multiply(a, weights)) / scale


def _average(a, axis=None, weights=None, returned=False, keepdims=False):
    return np.mean(a)


@overload(np.average, family="statistics")
def _average_typer(a, axis=None, weights=None, returned=None, keepdims=None):
    a = need_array("average", a)
    if not absent(returned) and literal_flag("average", "returned", returned):
        raise UnsupportedError("np.average() with returned=True is not supported yet")
    along = literal_axis("average", axis, a.ndim)
    keep = literal_flag("average", "keepdims", keepdims)
    if absent(weights):
        if along is None and not keep:
            return _average

        def average_along(a, axis=None, weights=None, returned=False, keepdims=False):
            result = np.mean(a, axis=along, keepdims=keep)
            # NumPy divides a.size by the result's size (for `returned`).
            raise_if(result.size == 0, "ZeroDivisionError", "division by zero")
            return result

        return average_along
    if along is not None or keep:
        raise UnsupportedError("np.average() with weights and axis= or keepdims= is not supported yet")
    weights = need_array("average", weights, (1,))
    if a.ndim != 1:
        raise UnsupportedError("np.average() with weights of a 2-D array is not supported yet")
    if a.dtype.kind not in "biuf" or weights.dtype.kind not in "biuf":
        raise UnsupportedError("np.average() of complex values is not supported yet")
    dt = np.result_type(a.dtype, weights.dtype, np.float64).type

    def average(a, axis=None, weights=None, returned=False, keepdims=False):
        return _average_weighted(a.astype(dt), None, weights.astype(dt))

    return average


def _sorted_flat(a):
    return np.sort(a.ravel())


def _median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    values = _sorted_flat(a)
    n = values.shape[0]
    if n == 0:
        return np.mean(values)
    if values[n - 1] != values[n - 1]:  # a NaN sorts last: the median is NaN
        return np.mean(values[n - 1 :])
    if n % 2 == 1:
        return np.mean(values[n // 2 : n // 2 + 1])
    return np.mean(values[n // 2 - 1 : n // 2 + 1])


def _percentile_of_sorted(values, q, inexact):
    # NumPy's 'linear' method: the virtual index (n - 1) * (q / 100), its
    # neighbours (both the last element from n - 1 on), and _lerp's two
    # formulas either side of t = 0.5, in the array's own arithmetic.
    n = values.shape[0]
    quantile = q / 100.0
    raise_if(not (quantile >= 0.0 and quantile <= 1.0), "ValueError", "Percentiles must be in the range [0, 100]")
    virtual = (n - 1) * quantile
    # (No values: NumPy first reads the last one for a NaN check of floats,
    # else indexes 0 below the first and -1 from the last on.)
    raise_if(n == 0 and virtual < 0 and not inexact, "IndexError",
             "index 0 is out of bounds for axis 0 with size 0")
    raise_if(n == 0, "IndexError", "index -1 is out of bounds for axis 0 with size 0")
    below = int(np.floor(virtual))
    above = below + 1
    if virtual >= n - 1:
        below = -1
        above = -1
    t = virtual - below
    lower = values[below]
    upper = values[above]
    difference = upper - lower
    if t >= 0.5:
        result = upper - difference * (1.0 - t)
    else:
        result = lower + difference * t
    if values[n - 1] != values[n - 1]:  # a NaN sorts last: the result is NaN
        return np.float64(values[n - 1])
    return np.float64(result)


def _quantiles(q):
    """q as a 1-D float64 array (a number counts as one)."""
    return np.asarray(q, np.float64).ravel()


def _quantile_array(q):
    return q.astype(np.float64)


def _quantile_tuple(q):
    return array_from_sequence(q, np.float64)


def _quantile_number(q):
    qs = np.empty(1)
    qs[0] = q
    return qs


@overload(_quantiles)
def _quantiles_typer(q):
    if isinstance(q, types.Array):
        return _quantile_array
    return _quantile_tuple if isinstance(q, types.Tuple) else _quantile_number


@overload(np.percentile, family="statistics")
def _percentile_typer(a, q, axis=None, out=None, overwrite_input=None, method=None, keepdims=None,
                      weights=None, interpolation=None):
    a = need_array("percentile", a)
    if a.dtype.kind not in "biu" and a.dtype != np.float64:
        raise UnsupportedError(f"np.percentile() of {a.dtype.name} values is not supported yet")
    several = isinstance(q, types.Tuple) or isinstance(q, types.Array)
    if isinstance(q, types.Array) and (q.ndim != 1 or q.dtype.kind not in "biuf"):
        raise UnsupportedError("np.percentile() of q other than a number or a 1-D array is not supported yet")
    if isinstance(q, types.Tuple) and not all(types.is_number(t) and not isinstance(t, types.Complex) for t in q.elements):
        raise TypingError(f"np.percentile(): q must be numbers, not {q}")
    if not several and (not types.is_number(q) or isinstance(q, types.Complex)):
        raise TypingError(f"np.percentile(): q must be a number or an array of numbers, not {q}")
    if not absent(method) and not (method.has_literal and method.literal_value == "linear"):
        raise UnsupportedError("np.percentile() with a method= other than 'linear' is not supported yet")
    if not all(absent(t) for t in (out, overwrite_input, weights, interpolation)):
        raise UnsupportedError("np.percentile() with out=, overwrite_input=, weights= or interpolation= is not supported yet")
    inexact = a.dtype.kind == "f"
    plan = _Lines("percentile", a, axis, keepdims)
    if plan.out_rank == 0 and not several:

        def percentile(a, q, axis=None, out=None, overwrite_input=False, method=None, keepdims=False,
                       weights=None, interpolation=None):
            return _percentile_of_sorted(_sorted_flat(a), float(q), inexact)

        return percentile
    order, rank, kept, reduced, keep = plan.order, plan.rank, plan.kept, plan.reduced, plan.keep
    leading = 1 if several else 0
    out_rank = plan.out_rank + leading

    def percentile_along(a, q, axis=None, out=None, overwrite_input=False, method=None, keepdims=False,
                         weights=None, interpolation=None):
        qs = _quantiles(q)
        sizes, steps, count, n = _lines_of(a, order, rank, kept)
        lines = strided_view(a, 0, sizes, steps, rank).reshape((count, n))
        flat = np.empty((qs.shape[0], count))
        for i in range(count):
            values = np.sort(lines[i, :])
            for j in range(qs.shape[0]):
                flat[j, i] = _percentile_of_sorted(values, qs[j], inexact)
        shape = _reduced_shape(a, reduced, keep, rank, out_rank, leading)
        if leading:
            shape[0] = qs.shape[0]
        return strided_view(flat, 0, shape, c_strides(shape, out_rank), out_rank)

    return percentile_along


def _bincount_values(x, minlength):
    raise_if(minlength < 0, "ValueError", "'minlength' must not be negative")
    size = minlength
    for i in range(x.shape[0]):
        raise_if(x[i] < 0, "ValueError", "'list' argument must have no negative elements")
        size = max(size, int(x[i]) + 1)
    return size


def _bincount(x, weights=None, minlength=0):
    counts = np.zeros(_bincount_values(x, minlength), np.int64)
    for i in range(x.shape[0]):
        counts[x[i]] += 1
    return counts


def _bincount_weighted(x, weights=None, minlength=0):
    size = _bincount_values(x, minlength)  # (its errors come first, as NumPy's)
    raise_if(weights.shape[0] != x.shape[0], "ValueError", "The weights and list don't have the same length.")
    sums = np.zeros(size)
    for i in range(x.shape[0]):
        sums[x[i]] += weights[i]
    return sums


@overload(np.bincount, family="statistics")
def _bincount_typer(x, weights=None, minlength=None):
    x = need_array("bincount", x, (1,))
    if x.dtype.kind not in "biu":
        raise TypingError("Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'"
                          if x.dtype == np.float64 else f"np.bincount() of {x.dtype.name} values")
    if not absent(minlength):
        need_integral("bincount", "minlength", minlength)
    if absent(weights):
        return _bincount
    need_array("bincount", weights, (1,))
    return _bincount_weighted


def _trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return np.sum(_diagonal(a, offset))


@overload(np.trace, family="statistics")
def _trace_typer(a, offset=None, axis1=None, axis2=None, dtype=None, out=None):
    need_array("trace", a, (2,))
    if not all(absent(t) for t in (axis1, axis2, dtype, out)):
        raise UnsupportedError("np.trace() with axis1=, axis2=, dtype= or out= is not supported yet")
    if not absent(offset):
        need_integral("trace", "offset", offset)
    return _trace


def _isclose_kernel(x, y, rtol, atol, equal_nan):
    # NumPy 2's isclose: |x - y| <= atol + rtol * |y| for finite y, or
    # x == y (infinities), or both NaN with equal_nan.
    finite = y == y and y - y == 0
    close = (abs(x - y) <= atol + rtol * abs(y) and finite) or x == y
    return close or (equal_nan and x != x and y != y)


def _isclose_elements(a, b, rtol, atol, equal_nan):
    """Interpreted: numpy.isclose."""
    return np.isclose(a, b, rtol, atol, equal_nan)


@overload(_isclose_elements)
def _isclose_loop(a, b, rtol, atol, equal_nan):
    for t in (a, b):
        if types.operand_dtype(t) is None or isinstance(t, types.Complex) or (
            isinstance(t, (types.Array, types.NumPyScalar)) and t.dtype.kind == "c"
        ):
            raise UnsupportedError(f"np.isclose() of {t} is not supported yet (real arrays and numbers are)")
    weak = {int: 0, float: 0.0}
    y_dtype = np.result_type(weak.get(types.operand_dtype(b), types.operand_dtype(b)), 1.0)
    x_dtype = np.result_type(weak.get(types.operand_dtype(a), types.operand_dtype(a)), y_dtype)
    return UfuncLoop(_isclose_kernel, [x_dtype, y_dtype, y_dtype, y_dtype, np.bool_], np.bool_, check_python_ints=False)


def _isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _isclose_elements(a, b, rtol, atol, equal_nan)


def _allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(_isclose_elements(a, b, rtol, atol, equal_nan)))


def _allclose_scalars(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(_isclose_elements(a, b, rtol, atol, equal_nan))


def _close_arguments(name: str, rtol: Any, atol: Any, equal_nan: Any) -> None:
    for what, t in (("rtol", rtol), ("atol", atol)):
        if not absent(t) and not (types.is_number(t) and not isinstance(t, types.Complex)):
            raise UnsupportedError(f"np.{name}() with {what} of {t} is not supported yet (a number is)")
    if not absent(equal_nan) and not isinstance(equal_nan, (types.Boolean, types.Integer)):
        raise UnsupportedError(f"np.{name}() with equal_nan of {equal_nan} is not supported yet")


@overload(np.isclose, family="selection")
def _isclose_typer(a, b, rtol=None, atol=None, equal_nan=None):
    _close_arguments("isclose", rtol, atol, equal_nan)
    return _isclose


@overload(np.allclose, family="selection")
def _allclose_typer(a, b, rtol=None, atol=None, equal_nan=None):
    _close_arguments("allclose", rtol, atol, equal_nan)
    if isinstance(a, types.Array) or isinstance(b, types.Array):
        return _allclose
    return _allclose_scalars


def _corrcoef_rows(x, y=None, rowvar=True, bias=None, ddof=None, dtype=None):
    # np.corrcoef's steps: the covariance, divided by the standard
    # deviations of both variables, clipped to [-1, 1].
    c = _cov_rows(x)
    stddev = np.sqrt(_diagonal(c, 0))
    c /= stddev.reshape((stddev.shape[0], 1))
    c /= stddev.reshape((1, stddev.shape[0]))
    return np.clip(c, -1, 1)


@overload(np.corrcoef, family="statistics")
def _corrcoef(x, y=None, rowvar=None, bias=None, ddof=None, dtype=None):
    x = need_array("corrcoef", x, (2,))
    if not all(absent(t) for t in (y, rowvar, bias, ddof, dtype)):
        raise UnsupportedError("np.corrcoef() with keywords is not supported yet (of a 2-D array of variables in rows)")
    if x.dtype.kind not in "biuf":
        raise UnsupportedError(f"np.corrcoef() of {x.dtype.name} values is not supported yet")
    return _corrcoef_rows


def _literal_axes(name: str, axis: Any, ndim: int) -> Optional[tuple[int, ...]]:
    """The axes a constant axis= (an int or a tuple of ints) names, sorted
    and normalised with NumPy's errors; None for None."""
    if absent(axis):
        return None
    if not axis.has_literal:
        raise UnsupportedError(f"np.{name}() takes axis= as a constant here")
    value = axis.literal_value
    listed = value if isinstance(value, tuple) else (value,)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in listed):
        raise TypingError(f"np.{name}(): axis must be an int or a tuple of ints")
    axes = []
    for v in listed:
        if not -ndim <= v < ndim:
            raise TypingError(f"axis {v} is out of bounds for array of dimension {ndim}")
        if v % ndim in axes:
            raise TypingError("repeated axis")
        axes.append(v % ndim)
    return tuple(sorted(axes))


def _reduced_shape(a, reduced, keep, rank, out_rank, leading):
    # The result's sizes (after `leading` sizes the caller fills) and its
    # C-order strides.
    sizes = np.empty(out_rank, np.int64)
    k = leading
    for axis in range(rank):
        dropped = False
        for r in range(len(reduced)):
            if reduced[r] == axis:
                dropped = True
        if not dropped:
            sizes[k] = a.shape[axis]
            k += 1
        elif keep:
            sizes[k] = 1
            k += 1
    return sizes


class _Lines:
    """How a reduction along constant axes sees an array: its kept axes
    then its reduced ones (`order`), as `count` lines of `n` values."""

    def __init__(self, name: str, a: types.Array, axis: Any, keepdims: Any) -> None:
        self.reduced = _literal_axes(name, axis, a.ndim)
        self.keep = literal_flag(name, "keepdims", keepdims)
        self.rank = a.ndim
        reduced = self.reduced if self.reduced is not None else tuple(range(a.ndim))
        kept = tuple(k for k in range(a.ndim) if k not in reduced)
        self.order = kept + reduced
        self.reduced = reduced
        self.kept = len(kept)
        self.out_rank = a.ndim if self.keep else len(kept)


def _lines_of(a, order, rank, kept):
    sizes, steps = moved_axes(a, order, rank)
    count = 1
    for k in range(kept):
        count *= sizes[k]
    n = 1
    for k in range(kept, rank):
        n *= sizes[k]
    return sizes, steps, count, n


@overload(np.median, family="statistics")
def _median_typer(a, axis=None, out=None, overwrite_input=None, keepdims=None):
    a = need_array("median", a)
    if a.dtype.kind not in "biuf":
        raise UnsupportedError(f"np.median() of {a.dtype.name} values is not supported yet")
    if not absent(out) or not absent(overwrite_input):
        raise UnsupportedError("np.median() with out= or overwrite_input= is not supported yet")
    plan = _Lines("median", a, axis, keepdims)
    if plan.out_rank == 0:
        return _median
    dt = np.median(np.zeros((1, 1), a.dtype), axis=0).dtype.type  # NumPy's result dtype
    order, rank, kept, reduced, keep, out_rank = plan.order, plan.rank, plan.kept, plan.reduced, plan.keep, plan.out_rank

    def median_along(a, axis=None, out=None, overwrite_input=False, keepdims=False):
        sizes, steps, count, n = _lines_of(a, order, rank, kept)
        lines = strided_view(a, 0, sizes, steps, rank).reshape((count, n))
        flat = np.empty(count, dt)
        for i in range(count):
            flat[i] = _median(lines[i, :])
        shape = _reduced_shape(a, reduced, keep, rank, out_rank, 0)
        return strided_view(flat, 0, shape, c_strides(shape, out_rank), out_rank)

    return median_along
