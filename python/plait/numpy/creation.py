"""Array creation: np.array, np.asarray, np.eye, np.identity,
np.linspace, np.logspace, np.meshgrid, np.full_like, np.copy."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import types
from .._overload import overload
from ..errors import TypingError, UnsupportedError
from ._errors import raise_if
from ._sequences import array_from_sequence
from ._views import c_strides, strided_view
from ._util import absent, dtype_class, need_integral, result_dtype


def _eye_fill(rows, cols, k, dt):
    out = np.zeros((rows, cols), dt)
    first = 0 if k >= 0 else -k
    last = min(rows, cols - k)
    for i in range(first, last):
        out[i, i + k] = 1
    return out


@overload(np.eye, family="creation")
def _eye(N, M=None, k=None, dtype=None, order=None):
    need_integral("eye", "N", N)
    if not absent(order):
        raise UnsupportedError("np.eye() with order= is not supported yet")
    dt = dtype_class(dtype, np.float64)
    if absent(M):

        def eye_square(N, M=None, k=0, dtype=None, order=None):
            return _eye_fill(N, N, k, dt)

        return eye_square
    need_integral("eye", "M", M)

    def eye(N, M=None, k=0, dtype=None, order=None):
        return _eye_fill(N, M, k, dt)

    return eye


@overload(np.identity, family="creation")
def _identity(n, dtype=None):
    need_integral("identity", "n", n)
    dt = dtype_class(dtype, np.float64)

    def identity(n, dtype=None):
        return _eye_fill(n, n, 0, dt)

    return identity


def _linspace_fill(start, stop, num, endpoint):
    # NumPy's steps: arange(num) * step + start, or (i / div) * delta where
    # the step underflows to 0; the last sample is stop itself.
    raise_if(num < 0, "ValueError", "Number of samples, {0}, must be non-negative.", num)
    div = num - 1 if endpoint else num
    y = np.empty(num)
    delta = float(stop) - float(start)
    first = float(start)
    if div > 0:
        step = delta / div
        if step == 0:
            for i in range(num):
                y[i] = i / div * delta + first
        else:
            for i in range(num):
                y[i] = i * step + first
    else:
        for i in range(num):
            y[i] = i * delta + first
    if endpoint and num > 1:
        y[num - 1] = stop
    return y


@overload(np.linspace, family="creation")
def _linspace(start, stop, num=None, endpoint=None, retstep=None, dtype=None, axis=None):
    for name, t in (("start", start), ("stop", stop)):
        if not isinstance(t, (types.Boolean, types.Integer, types.Float)) and not (
            isinstance(t, types.NumPyScalar) and t.dtype == np.float64
        ):
            raise UnsupportedError(f"np.linspace() with {name} of {t} is not supported yet (Python numbers are)")
    if not absent(num):
        need_integral("linspace", "num", num)
    if not absent(retstep) or not absent(axis):
        raise UnsupportedError("np.linspace() with retstep= or axis= is not supported yet")
    dt = dtype_class(dtype, np.float64)
    if np.dtype(dt).kind == "f" and np.dtype(dt) != np.float64:

        def linspace_cast(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
            return _linspace_fill(start, stop, num, endpoint).astype(dt)

        return linspace_cast
    if np.dtype(dt).kind in "iu":

        def linspace_int(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
            return np.floor(_linspace_fill(start, stop, num, endpoint)).astype(dt)

        return linspace_int
    if np.dtype(dt) != np.float64:
        raise UnsupportedError(f"np.linspace() with dtype={np.dtype(dt).name} is not supported yet")

    def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
        return _linspace_fill(start, stop, num, endpoint)

    return linspace


def _meshgrid_xy(x, y):
    nx = x.shape[0]
    ny = y.shape[0]
    xs = np.empty((ny, nx), x.dtype)
    ys = np.empty((ny, nx), y.dtype)
    for i in range(ny):
        xs[i, :] = x
        for j in range(nx):
            ys[i, j] = y[i]
    return xs, ys


def _meshgrid_ij(x, y):
    ys, xs = _meshgrid_xy(y, x)
    return xs, ys


@overload(np.meshgrid, family="creation")
def _meshgrid(*xi, **kwargs):
    indexing = kwargs.pop("indexing", None)
    if kwargs:
        raise UnsupportedError(f"np.meshgrid() with {', '.join(kwargs)}= is not supported yet (indexing= is)")
    if len(xi) != 2 or not all(isinstance(t, types.Array) and t.ndim == 1 for t in xi):
        raise UnsupportedError("np.meshgrid() of other than two 1-D arrays is not supported yet")
    mode = "xy"
    if indexing is not None:
        if not isinstance(indexing, types.String):
            raise UnsupportedError("np.meshgrid() takes indexing= as a constant string here")
        mode = indexing.literal_value
        if mode not in ("xy", "ij"):
            raise TypingError("Valid values for `indexing` are 'xy' and 'ij'.")
    if mode == "ij":

        def meshgrid_ij(x, y, indexing="ij"):
            return _meshgrid_ij(x, y)

        return meshgrid_ij

    def meshgrid(x, y, indexing="xy"):
        return _meshgrid_xy(x, y)

    return meshgrid


@overload(np.logspace, family="creation")
def _logspace(start, stop, num=None, endpoint=None, base=None, dtype=None, axis=None):
    if not absent(dtype) or not absent(axis):
        raise UnsupportedError("np.logspace() with dtype= or axis= is not supported yet")
    for name, t in (("start", start), ("stop", stop), ("base", base)):
        if t is not None and not isinstance(t, (types.Boolean, types.Integer, types.Float)):
            raise UnsupportedError(f"np.logspace() with {name} of {t} is not supported yet (Python numbers are)")

    def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
        return np.power(base, _linspace_fill(start, stop, num, endpoint))

    return logspace


def _full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, device=None):
    out = np.empty_like(a)
    out.fill(fill_value)
    return out


@overload(np.full_like, family="creation")
def _full_like_typer(a, fill_value, dtype=None, order=None, subok=None, shape=None, device=None):
    if not isinstance(a, types.Array):
        raise UnsupportedError(f"np.full_like() of {a} is not supported yet (arrays are)")
    if not all(absent(t) for t in (dtype, order, subok, shape, device)):
        raise UnsupportedError("np.full_like() with keywords is not supported yet")
    if not types.is_number(fill_value):
        raise UnsupportedError(f"np.full_like() with fill_value of {fill_value} is not supported yet")
    return _full_like


def _copy(a, order="K", subok=False):
    return a.copy()


def _sequence_dtype(t: Any) -> np.dtype:
    """The dtype np.array discovers for a (nested) sequence: NumPy's
    promotion of its leaves' dtypes, Python's numbers as int64, float64,
    complex128 and bool (not weak, as in array coercion)."""
    leaves: list[np.dtype] = []

    def walk(node: Any) -> None:
        if isinstance(node, types.Tuple):
            for element in node.elements:
                walk(element)
        elif isinstance(node, (types.Array, types.NumPyScalar)):
            leaves.append(node.dtype)
        elif isinstance(node, types.List) and node.item is not None:
            walk(node.item)
        elif isinstance(node, types.Boolean):
            leaves.append(np.dtype(np.bool_))
        elif isinstance(node, types.Integer):
            leaves.append(np.dtype(np.int64))
        elif isinstance(node, types.Float):
            leaves.append(np.dtype(np.float64))
        elif isinstance(node, types.Complex):
            leaves.append(np.dtype(np.complex128))
        else:
            raise UnsupportedError(f"np.array() of a sequence holding {node} is not supported (numbers and arrays are)")

    walk(t)
    return np.result_type(*leaves) if leaves else np.dtype(np.float64)


def _from_sequence(name: str, object: Any, dtype: Any) -> Any:
    """The implementation making a new array of a sequence (a tuple, or a
    list display)."""
    found = _sequence_dtype(object)
    dt = dtype_class(dtype, found.type)
    if found.kind == "c" and np.dtype(dt).kind != "c":
        raise TypingError("float() argument must be a string or a real number, not 'complex'")

    def from_sequence(object, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
        return array_from_sequence(object, dt)

    return from_sequence


def _list_items_into(items, out):
    for k in range(len(items)):
        out[k] = items[k]
    return out


def _ragged(n):
    # NumPy's error for n rows whose lengths differ.
    raise ValueError(f"setting an array element with a sequence. The requested array has an inhomogeneous "
                     f"shape after 1 dimensions. The detected shape was {(n,)} + inhomogeneous part.")


def _agreeing_1d(n, first, a):
    if a.shape[0] != first.shape[0]:
        _ragged(n)


def _agreeing_2d(n, first, a):
    _agreeing_1d(n, first, a)
    if a.shape[1] != first.shape[1]:
        raise ValueError(f"setting an array element with a sequence. The requested array has an inhomogeneous "
                         f"shape after 2 dimensions. The detected shape was {(n, first.shape[0])} + inhomogeneous "
                         "part.")


def _agreeing_3d(n, first, a):
    _agreeing_2d(n, first, a)
    if a.shape[2] != first.shape[2]:
        raise ValueError(f"setting an array element with a sequence. The requested array has an inhomogeneous "
                         f"shape after 3 dimensions. The detected shape was {(n, first.shape[0], first.shape[1])} + "
                         "inhomogeneous part.")


def _from_list_of_arrays(items: Any, dt: Any) -> Any:
    """np.array of a list of arrays of one shape: the arrays stacked (NumPy's
    ValueError naming the axes they agree on when their shapes differ)."""
    if items.item.ndim > 3:
        raise UnsupportedError("np.array() of a list of arrays of more than 3 dimensions is not supported yet")
    agreeing = (_agreeing_1d, _agreeing_2d, _agreeing_3d)[items.item.ndim - 1]

    def from_arrays(items):
        n = len(items)
        if n == 0:
            raise ValueError("plait: np.array() of an empty list of arrays has no shape to take (NumPy's is (0,))")
        first = items[0]
        out = np.empty((n, *first.shape), dt)
        for k in range(n):
            a = items[k]
            if a.shape != first.shape:
                agreeing(n, first, a)
            out[k] = a
        return out

    return from_arrays


def _from_list_of_tuples(items, out):
    if len(items) == 0:
        raise ValueError("plait: np.array() of an empty list of tuples has no shape to take (NumPy's is (0,))")
    for k in range(len(items)):
        out[k] = np.array(items[k])
    return out


def _from_list_of_rows(items, out_dtype):
    n = len(items)
    if n == 0:
        raise ValueError("plait: np.array() of an empty list of lists has no shape to take (NumPy's is (0,))")
    m = len(items[0])
    out = np.empty((n, m), out_dtype)
    for k in range(n):
        row = items[k]
        if len(row) != m:
            _ragged(n)
        for j in range(m):
            out[k, j] = row[j]
    return out


def _from_list(name: str, items: Any, dtype: Any) -> Any:
    """The implementation making a new array of a list's items (as
    np.array(list) discovers their dtype: float64 for an empty list): 1-D of
    numbers, 2-D of tuples or lists of numbers, arrays stacked."""
    found = np.dtype(np.float64) if items.item is None else _sequence_dtype(types.Tuple([items.item]))
    dt = dtype_class(dtype, found.type)
    if found.kind == "c" and np.dtype(dt).kind != "c":
        raise TypingError("float() argument must be a string or a real number, not 'complex'")

    if items.item is None:  # (nothing is ever put into it: empty)

        def from_empty_list(items):
            return np.empty(0, dt)

        return from_empty_list

    if isinstance(items.item, types.Array):
        return _from_list_of_arrays(items, dt)
    if isinstance(items.item, types.List):
        if items.item.item is None or isinstance(items.item.item, (types.Tuple, types.Array, types.List)):
            raise UnsupportedError(f"np.array() of a {items} is not supported (lists of lists of numbers are)")

        def from_rows(items):
            return _from_list_of_rows(items, dt)

        return from_rows
    if isinstance(items.item, types.Tuple):
        width = len(items.item.elements)
        if any(isinstance(e, (types.Tuple, types.Array, types.List)) for e in items.item.elements):
            raise UnsupportedError(f"np.array() of a list of {items.item} is not supported (tuples of numbers are)")

        def from_tuples(items):
            return _from_list_of_tuples(items, np.empty((len(items), width), dt))

        return from_tuples

    def from_list(items):
        return _list_items_into(items, np.empty(len(items), dt))

    return from_list


def _array_options(name: str, order: Any, subok: Any, ndmin: Any, like: Any) -> None:
    if not absent(order) and not (order.has_literal and order.literal_value in ("K", "A", "C")):
        raise UnsupportedError(f"np.{name}() with order= other than 'K', 'A' or 'C' is not supported yet")
    if not absent(subok) and subok.has_literal and subok.literal_value:
        raise UnsupportedError(f"np.{name}() with subok=True is not supported (plait's arrays are ndarrays)")
    if not absent(ndmin) and not (ndmin.has_literal and ndmin.literal_value == 0):
        raise UnsupportedError(f"np.{name}() with ndmin= is not supported yet")
    if not absent(like):
        raise UnsupportedError(f"np.{name}() with like= is not supported")


def _copied(a, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    return a.copy()


def _same(a, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    return a


@overload(np.array, family="creation")
def _array_typer(object, dtype=None, copy=None, order=None, subok=None, ndmin=None, like=None):
    _array_options("array", order, subok, ndmin, like)
    never = not absent(copy) and copy.has_literal and copy.literal_value is False
    if isinstance(object, types.List):
        if never:
            raise TypingError("Unable to avoid copy while creating an array as requested.")
        made = _from_list("array", object, dtype)

        def array_of_list(object, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
            return made(object)

        return array_of_list
    if isinstance(object, types.Tuple):
        if never:
            raise TypingError("Unable to avoid copy while creating an array as requested.")
        return _from_sequence("array", object, dtype)
    if not isinstance(object, types.Array):
        raise UnsupportedError(f"np.array() of {object} is not supported yet (arrays, tuples and lists are; a number would make a 0-d array)")
    if not absent(copy) and not copy.has_literal:
        raise UnsupportedError("np.array() takes copy= as a constant here")
    same = absent(dtype) or np.dtype(dtype_class(dtype, object.dtype.type)) == object.dtype
    if same:
        return _same if never else _copied
    if never:
        raise TypingError("Unable to avoid copy while creating an array as requested.")
    target = dtype_class(dtype, None)

    def array_cast(a, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
        return a.astype(target)

    return array_cast


def _asarray(a, dtype=None, order=None, device=None, copy=None, like=None):
    return a


@overload(np.copy, family="creation")
def _copy_typer(a, order=None, subok=None):
    if not isinstance(a, types.Array) or not absent(order) or not absent(subok):
        raise UnsupportedError("np.copy() of other than an array (without keywords) is not supported yet")
    return _copy


@overload(np.asarray, family="creation")
def _asarray_typer(a, dtype=None, order=None, device=None, copy=None, like=None):
    if isinstance(a, (types.Tuple, types.List)) and all(absent(t) for t in (order, device, copy, like)):
        sequence = (_from_list if isinstance(a, types.List) else _from_sequence)("asarray", a, dtype)

        def asarray_sequence(a, dtype=None, order=None, device=None, copy=None, like=None):
            return sequence(a)

        return asarray_sequence
    if not isinstance(a, types.Array):
        raise UnsupportedError(f"np.asarray() of {a} is not supported yet (arrays, tuples and lists are)")
    if not all(absent(t) for t in (order, device, copy, like)):
        raise UnsupportedError("np.asarray() with order=, device=, copy= or like= is not supported yet")
    if absent(dtype) or (isinstance(dtype, types.DType) and dtype.dtype == a.dtype):
        return _asarray
    target = dtype_class(dtype, None)

    def asarray_cast(a, dtype=None, order=None, device=None, copy=None, like=None):
        return a.astype(target)

    return asarray_cast


def _grid_fill(flat, sizes, begins, steps, rank, total):
    # flat[k, p] = index_k(p) * step_k + begin_k, p in C order.
    inner = total
    for k in range(rank):
        inner = inner // sizes[k] if sizes[k] > 0 else 0
        for p in range(total):
            index = (p // inner) % sizes[k]
            flat[k * total + p] = index * steps[k] + begins[k]


@overload(np.indices, family="creation")
def _indices(dimensions, dtype=None, sparse=None):
    if not isinstance(dimensions, types.Tuple) or not 1 <= len(dimensions) <= 7 or not all(
        types.is_integral(t) for t in dimensions.elements
    ):
        raise UnsupportedError(f"np.indices() of {dimensions} is not supported yet (a tuple of 1 to 7 ints)")
    if not absent(sparse) and not (sparse.has_literal and sparse.literal_value is False):
        raise UnsupportedError("np.indices() with sparse=True is not supported yet")
    dt = dtype_class(dtype, np.int64)
    rank = len(dimensions)
    grid_rank = rank + 1  # (a constant: the view's rank)

    def indices(dimensions, dtype=None, sparse=False):
        sizes = np.empty(grid_rank, np.int64)
        sizes[0] = rank
        total = 1
        for k in range(rank):
            raise_if(dimensions[k] < 0, "ValueError", "negative dimensions are not allowed")
            sizes[k + 1] = dimensions[k]
            total *= dimensions[k]
        flat = np.empty(rank * total, dt)
        _grid_fill(flat, sizes[1:], np.zeros(rank, np.int64), np.ones(rank, np.int64), rank, total)
        return strided_view(flat, 0, sizes, c_strides(sizes, grid_rank), grid_rank)

    return indices


# -- np.mgrid[...]: NumPy's nd_grid.__getitem__ ---------------------------
def _grid_point_step(start, stop, points):
    # A complex step counts points: the step between them (1 for one).
    if points == 1:
        return 1.0
    return (stop - start) / float(points - 1)


@overload(np.mgrid.__getitem__, family="creation")
def _mgrid(starts, stops, steps, single):
    """np.mgrid[a:b:c, ...]: the compiler passes the slices' starts, stops
    and steps (0 and 1 where left out) and whether the subscript was one
    slice (NumPy then returns np.arange's result)."""
    for t in starts.elements + stops.elements + steps.elements:
        if not types.is_number(t):
            raise TypingError(f"np.mgrid[] takes numbers in its slices, not {t}")
    points = tuple(types.operand_dtype(t) in (complex,) or (isinstance(t, types.NumPyScalar) and t.dtype.kind == "c")
                   for t in steps.elements)
    # NumPy's result_type(0, start, stop, step...), a complex step counted
    # as its absolute value (a float).
    operands = [types.integer]
    for k in range(len(points)):
        operands += [starts[k], stops[k], types.float64 if points[k] else steps[k]]
    typ = result_dtype(*operands).type
    rank = len(points)
    if single.literal_value:
        if points[0]:

            def mgrid_points(starts, stops, steps, single):
                count = int(abs(steps[0]))
                step = _grid_point_step(starts[0], stops[0], count)
                return np.arange(0, count, 1).astype(typ) * step + starts[0]

            return mgrid_points

        def mgrid_range(starts, stops, steps, single):
            return np.arange(starts[0], stops[0], steps[0])

        return mgrid_range
    grid_rank = rank + 1  # (a constant: the view's rank)
    if any(points):

        def step_values(steps):
            # A point count's absolute value, the other steps' real parts.
            z = array_from_sequence(steps, np.complex128)
            out = np.empty(rank)
            for k in range(rank):
                out[k] = abs(z[k]) if points[k] else z[k].real
            return out

    else:

        def step_values(steps):
            return array_from_sequence(steps, typ)

    def mgrid(starts, stops, steps, single):
        begins = array_from_sequence(starts, typ)
        ends = array_from_sequence(stops, typ)
        given = step_values(steps)
        sizes = np.empty(rank + 1, np.int64)
        sizes[0] = rank
        spacing = np.empty(rank, typ)
        total = 1
        for k in range(rank):
            if points[k]:
                count = int(given[k])
                spacing[k] = _grid_point_step(begins[k], ends[k], count)
            else:
                count = int(np.ceil((ends[k] - begins[k]) / (given[k] * 1.0)))
                spacing[k] = given[k]
            raise_if(count < 0, "ValueError", "negative dimensions are not allowed")
            sizes[k + 1] = count
            total *= count
        flat = np.empty(rank * total, typ)
        _grid_fill(flat, sizes[1:], begins, spacing, rank, total)
        return strided_view(flat, 0, sizes, c_strides(sizes, grid_rank), grid_rank)

    return mgrid


# -- np.fromfunction --------------------------------------------------------
@overload(np.fromfunction, family="creation")
def _fromfunction(function, shape, dtype=None, like=None):
    """np.fromfunction(f, shape): f called once with the index arrays of
    `shape` (NumPy's indices, in `dtype`), its result as it is."""
    if not isinstance(function, types.Function):
        raise UnsupportedError(f"np.fromfunction() of {function} is not supported (a lambda or an inner def is)")
    if not absent(like):
        raise UnsupportedError("np.fromfunction() with like= is not supported")
    rank = _fromfunction_rank(shape)
    dt = dtype_class(dtype, np.float64)
    if rank == 1 and types.is_integral(shape):
        raise UnsupportedError("np.fromfunction() takes its shape as a tuple")
    if rank == 1:

        def fromfunction1(function, shape, dtype=None, like=None):
            index = np.indices(shape, dt)
            return function(index[0])

        return fromfunction1
    if rank == 2:

        def fromfunction2(function, shape, dtype=None, like=None):
            index = np.indices(shape, dt)
            return function(index[0], index[1])

        return fromfunction2
    if rank == 3:

        def fromfunction3(function, shape, dtype=None, like=None):
            index = np.indices(shape, dt)
            return function(index[0], index[1], index[2])

        return fromfunction3

    def fromfunction4(function, shape, dtype=None, like=None):
        index = np.indices(shape, dt)
        return function(index[0], index[1], index[2], index[3])

    return fromfunction4


def _fromfunction_rank(shape: Any) -> int:
    if types.is_integral(shape):
        return 1
    if isinstance(shape, types.Tuple) and 1 <= len(shape) <= 4 and all(types.is_integral(t) for t in shape.elements):
        return len(shape)
    raise UnsupportedError(f"np.fromfunction() with a shape of {shape} is not supported yet (1 to 4 ints)")
