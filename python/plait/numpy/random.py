"""np.random in compiled code: NumPy's legacy RandomState streams (MT19937),
one state per thread (the runtime's), seeded from the OS on a thread's first
draw. After np.random.seed(s) in compiled code, the calling thread draws
what NumPy draws after np.random.seed(s): seed, rand, randn, random,
random_sample, standard_normal, randint, uniform, normal, choice (with
and without replacement, p= too), shuffle and permutation match NumPy's values bit for bit.
The interpreter's np.random state is a different one (as in Numba)."""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from .. import types
from .._overload import overload
from ..errors import TypingError, UnsupportedError
from ._errors import raise_if
from ._random import random_double, random_gauss, random_integer, random_interval, random_seed
from ._util import absent, need_integral
from .sorting import _search_right


# -- filling arrays in C order, one draw per element ---------------------
def _doubles(out):
    flat = out.ravel()
    for i in range(flat.shape[0]):
        flat[i] = random_double()
    return out


def _gausses(out):
    flat = out.ravel()
    for i in range(flat.shape[0]):
        flat[i] = random_gauss()
    return out


def _dims(name: str, dims: tuple[Any, ...]) -> int:
    for t in dims:
        need_integral(name, "each dimension", t)
    if len(dims) > 3:
        raise UnsupportedError(f"np.random.{name}() of more than 3 dimensions is not supported yet")
    return len(dims)


def _size_rank(name: str, size: Any) -> Optional[int]:
    """None for size=None (one scalar), else the number of axes."""
    if absent(size):
        return None
    if types.is_integral(size):
        return 1
    if isinstance(size, types.Tuple) and 1 <= len(size) <= 3 and all(types.is_integral(t) for t in size.elements):
        return len(size)
    raise UnsupportedError(f"np.random.{name}() with size of {size} is not supported yet (an int or a tuple of ints)")


@overload(np.random.seed, family="random")
def _seed_typer(seed=None):
    if not types.is_integral(seed):
        raise UnsupportedError("np.random.seed() takes an int here (a seed from the OS: do not seed)")

    def seed_impl(seed=None):
        random_seed(seed)

    return seed_impl


def _rand0():
    return random_double()


def _rand1(d0):
    return _doubles(np.empty(d0))


def _rand2(d0, d1):
    return _doubles(np.empty((d0, d1)))


def _rand3(d0, d1, d2):
    return _doubles(np.empty((d0, d1, d2)))


def _randn0():
    return random_gauss()


def _randn1(d0):
    return _gausses(np.empty(d0))


def _randn2(d0, d1):
    return _gausses(np.empty((d0, d1)))


def _randn3(d0, d1, d2):
    return _gausses(np.empty((d0, d1, d2)))


@overload(np.random.rand, family="random")
def _rand_typer(*dims):
    return (_rand0, _rand1, _rand2, _rand3)[_dims("rand", dims)]


@overload(np.random.randn, family="random")
def _randn_typer(*dims):
    return (_randn0, _randn1, _randn2, _randn3)[_dims("randn", dims)]


def _sample_scalar(size=None):
    return random_double()


def _sample_array(size=None):
    return _doubles(np.empty(size))


def _normal_scalar(size=None):
    return random_gauss()


def _normal_array(size=None):
    return _gausses(np.empty(size))


def _sampler(name: str, scalar: Callable[..., Any], array: Callable[..., Any]) -> Callable[..., Any]:
    def typer(size=None):
        return scalar if _size_rank(name, size) is None else array

    return typer


overload(np.random.random, family="random")(_sampler("random", _sample_scalar, _sample_array))
overload(np.random.random_sample, family="random")(_sampler("random_sample", _sample_scalar, _sample_array))
overload(np.random.standard_normal, family="random")(_sampler("standard_normal", _normal_scalar, _normal_array))


def _uniform_scalar(low=0.0, high=1.0, size=None):
    span = float(high) - float(low)
    raise_if(not (span - span == 0.0), "OverflowError", "Range exceeds valid bounds")
    return float(low) + span * random_double()


def _uniform_array(low=0.0, high=1.0, size=None):
    span = float(high) - float(low)
    raise_if(not (span - span == 0.0), "OverflowError", "Range exceeds valid bounds")
    out = np.empty(size)
    flat = out.ravel()
    for i in range(flat.shape[0]):
        flat[i] = float(low) + span * random_double()
    return out


def _normal_scalar_of(loc=0.0, scale=1.0, size=None):
    raise_if(scale < 0, "ValueError", "scale < 0")
    return float(loc) + float(scale) * random_gauss()


def _normal_array_of(loc=0.0, scale=1.0, size=None):
    raise_if(scale < 0, "ValueError", "scale < 0")
    out = np.empty(size)
    flat = out.ravel()
    for i in range(flat.shape[0]):
        flat[i] = float(loc) + float(scale) * random_gauss()
    return out


def _real_parameters(name: str, *parameters: Any) -> None:
    for t in parameters:
        if t is not None and not isinstance(t, (types.Boolean, types.Integer, types.Float)) and not (
            isinstance(t, types.NumPyScalar) and t.dtype.kind in "biuf"
        ):
            raise UnsupportedError(f"np.random.{name}() with parameters of {t} is not supported yet (numbers are)")


@overload(np.random.uniform, family="random")
def _uniform_typer(low=None, high=None, size=None):
    _real_parameters("uniform", low, high)
    return _uniform_scalar if _size_rank("uniform", size) is None else _uniform_array


@overload(np.random.normal, family="random")
def _normal_typer(loc=None, scale=None, size=None):
    _real_parameters("normal", loc, scale)
    return _normal_scalar_of if _size_rank("normal", size) is None else _normal_array_of


def _randint_bounds(low, high):
    # (high None: [0, low).)
    raise_if(high <= low and low == 0, "ValueError", "high <= 0")
    raise_if(high <= low, "ValueError", "low >= high")


def _randint_below(low, high=None, size=None, dtype=None):
    _randint_bounds(0, low)
    return random_integer(0, low)


def _randint_between(low, high=None, size=None, dtype=None):
    _randint_bounds(low, high)
    return random_integer(low, high)


def _integers_into(out, low, high):
    flat = out.ravel()
    for i in range(flat.shape[0]):
        flat[i] = random_integer(low, high)
    return out


def _randint_below_array(low, high=None, size=None, dtype=None):
    _randint_bounds(0, low)
    return _integers_into(np.empty(size, np.int64), 0, low)


def _randint_between_array(low, high=None, size=None, dtype=None):
    _randint_bounds(low, high)
    return _integers_into(np.empty(size, np.int64), low, high)


@overload(np.random.randint, family="random")
def _randint_typer(low, high=None, size=None, dtype=None):
    if not absent(dtype):
        raise UnsupportedError("np.random.randint() with dtype= is not supported yet (int64)")
    need_integral("random.randint", "low", low)
    below = absent(high)
    if not below:
        need_integral("random.randint", "high", high)
    if _size_rank("randint", size) is None:
        return _randint_below if below else _randint_between
    return _randint_below_array if below else _randint_between_array


def _shuffle_vector(x):
    for i in range(x.shape[0] - 1, 0, -1):
        j = random_interval(i)
        kept = x[i]
        x[i] = x[j]
        x[j] = kept


def _shuffle_rows(x):
    row = np.empty(x.shape[1], x.dtype)
    for i in range(x.shape[0] - 1, 0, -1):
        j = random_interval(i)
        row[:] = x[i, :]
        x[i, :] = x[j, :]
        x[j, :] = row


@overload(np.random.shuffle, family="random")
def _shuffle_typer(x):
    if not isinstance(x, types.Array) or x.ndim not in (1, 2):
        raise UnsupportedError(f"np.random.shuffle() of {x} is not supported yet (1-D and 2-D arrays are)")
    return _shuffle_vector if x.ndim == 1 else _shuffle_rows


def _permutation_of_n(x):
    order = np.arange(x)
    _shuffle_vector(order)
    return order


def _permutation_of_vector(x):
    order = x.copy()
    _shuffle_vector(order)
    return order


def _permutation_of_rows(x):
    order = x.copy()
    _shuffle_rows(order)
    return order


@overload(np.random.permutation, family="random")
def _permutation_typer(x):
    if types.is_integral(x):
        return _permutation_of_n
    if isinstance(x, types.Array) and x.ndim in (1, 2):
        return _permutation_of_vector if x.ndim == 1 else _permutation_of_rows
    raise UnsupportedError(f"np.random.permutation() of {x} is not supported yet")


def _population(size):
    raise_if(size <= 0, "ValueError", "a must be greater than 0 unless no samples are taken")


def _choice_index(pop, size, replace):
    # Legacy choice: randint for samples with replacement, a permutation's
    # first ones without.
    if replace:
        return _integers_into(np.empty(size, np.int64), 0, pop)
    raise_if(size > pop, "ValueError", "Cannot take a larger sample than population when 'replace=False'")
    return _permutation_of_n(pop)[:size].copy()


def _choice_int_scalar(a, size=None, replace=True, p=None):
    _population(a)
    if replace:
        return random_integer(0, a)
    return int(_permutation_of_n(a)[0])


def _choice_int_array(a, size=None, replace=True, p=None):
    raise_if(a <= 0 and size != 0, "ValueError", "a must be greater than 0 unless no samples are taken")
    return _choice_index(a, size, replace)


def _choice_vector_scalar(a, size=None, replace=True, p=None):
    raise_if(a.shape[0] == 0, "ValueError", "a cannot be empty unless no samples are taken")
    if replace:
        return a[random_integer(0, a.shape[0])]
    return a[_permutation_of_n(a.shape[0])[0]]


def _choice_vector_array(a, size=None, replace=True, p=None):
    raise_if(a.shape[0] == 0 and size != 0, "ValueError", "a cannot be empty unless no samples are taken")
    picked = _choice_index(a.shape[0], size, replace)
    out = np.empty(size, a.dtype)
    for i in range(size):
        out[i] = a[picked[i]]
    return out


def _kahan_sum(p):
    # NumPy's: the check that the probabilities sum to 1 uses it.
    if p.shape[0] <= 0:
        return 0.0
    total = p[0]
    carry = 0.0
    for i in range(1, p.shape[0]):
        y = p[i] - carry
        t = total + y
        carry = (t - total) - y
        total = t
    return total


def _weighted_cdf(p, pop, atol):
    """NumPy's checks of p, in its order, then the cumulative
    distribution choice searches (normalised by its last value)."""
    raise_if(p.shape[0] != pop, "ValueError", "'a' and 'p' must have same size")
    total = _kahan_sum(p)
    raise_if(total != total, "ValueError", "probabilities contain NaN")
    for i in range(p.shape[0]):
        raise_if(p[i] < 0, "ValueError", "probabilities are not non-negative")
    raise_if(abs(total - 1.0) > atol, "ValueError", "probabilities do not sum to 1")
    cdf = np.cumsum(p)
    cdf /= cdf[cdf.shape[0] - 1]
    return cdf


def _weighted_sample(p, pop, size, atol):
    # NumPy's legacy choice(replace=False, p=p): rounds of draws until
    # `size` distinct indices are found; the ones found get weight 0, and
    # each round keeps its new picks in order of first occurrence.
    _weighted_cdf(p, pop, atol)  # (its checks)
    raise_if(size > pop, "ValueError", "Cannot take a larger sample than population when 'replace=False'")
    raise_if(size < 0, "ValueError", "Negative dimensions are not allowed")
    positive = 0
    for i in range(pop):
        if p[i] > 0:
            positive += 1
    raise_if(positive < size, "ValueError", "Fewer non-zero entries in p than size")
    weights = p.copy()
    found = np.zeros(size, np.int64)
    n = 0
    while n < size:
        draws = np.empty(size - n)
        for i in range(size - n):
            draws[i] = random_double()
        for i in range(n):
            weights[found[i]] = 0
        cdf = np.cumsum(weights)
        cdf /= cdf[cdf.shape[0] - 1]
        start = n
        for i in range(draws.shape[0]):
            pick = _search_right(cdf, draws[i])
            repeated = False
            for j in range(start, n):
                if found[j] == pick:
                    repeated = True
            if not repeated:
                found[n] = pick
                n += 1
    return found


def _weighted_choice_typer(a: Any, size: Any, replace: Any, p: Any) -> Callable[..., Any]:
    if not isinstance(p, types.Array) or p.ndim != 1 or p.dtype.kind not in "biuf":
        raise UnsupportedError(f"np.random.choice() with p of {p} is not supported yet (a 1-D array)")
    if not absent(replace) and not isinstance(replace, (types.Boolean, types.Integer)):
        raise TypingError(f"np.random.choice(): replace must be a bool, not {replace}")
    atol = float(np.sqrt(np.finfo(np.float64).eps))
    if p.dtype.kind == "f":
        atol = max(atol, float(np.sqrt(np.finfo(p.dtype).eps)))
    rank = _size_rank("choice", size)
    if types.is_integral(a):
        if rank is None:

            def choice_int(a, size=None, replace=True, p=None):
                _population(a)
                if not replace:  # (NumPy's .item(0): a Python int)
                    return int(_weighted_sample(p.astype(np.float64), a, 1, atol)[0])
                cdf = _weighted_cdf(p.astype(np.float64), a, atol)
                return _search_right(cdf, random_double())

            return choice_int

        def choice_ints(a, size=None, replace=True, p=None):
            raise_if(a <= 0 and size != 0, "ValueError", "a must be greater than 0 unless no samples are taken")
            if not replace:
                return _weighted_sample(p.astype(np.float64), a, size, atol)
            cdf = _weighted_cdf(p.astype(np.float64), a, atol)
            out = np.empty(size, np.int64)
            for i in range(size):
                out[i] = _search_right(cdf, random_double())
            return out

        return choice_ints
    if rank is None:

        def choice_element(a, size=None, replace=True, p=None):
            raise_if(a.shape[0] == 0, "ValueError", "a cannot be empty unless no samples are taken")
            if not replace:
                return a[_weighted_sample(p.astype(np.float64), a.shape[0], 1, atol)[0]]
            cdf = _weighted_cdf(p.astype(np.float64), a.shape[0], atol)
            return a[_search_right(cdf, random_double())]

        return choice_element

    def choice_elements(a, size=None, replace=True, p=None):
        raise_if(a.shape[0] == 0 and size != 0, "ValueError", "a cannot be empty unless no samples are taken")
        out = np.empty(size, a.dtype)
        if not replace:
            picked = _weighted_sample(p.astype(np.float64), a.shape[0], size, atol)
            for i in range(size):
                out[i] = a[picked[i]]
            return out
        cdf = _weighted_cdf(p.astype(np.float64), a.shape[0], atol)
        for i in range(size):
            out[i] = a[_search_right(cdf, random_double())]
        return out

    return choice_elements


@overload(np.random.choice, family="random")
def _choice_typer(a, size=None, replace=None, p=None):
    if not absent(p):
        rank = _size_rank("choice", size)
        if rank not in (None, 1) or (rank == 1 and not types.is_integral(size)):
            raise UnsupportedError("np.random.choice() with a size other than an int is not supported yet")
        if not (types.is_integral(a) or (isinstance(a, types.Array) and a.ndim == 1)):
            raise UnsupportedError(f"np.random.choice() of {a} is not supported yet (an int or a 1-D array)")
        return _weighted_choice_typer(a, size, replace, p)
    if not absent(replace) and not isinstance(replace, (types.Boolean, types.Integer)):
        raise TypingError(f"np.random.choice(): replace must be a bool, not {replace}")
    rank = _size_rank("choice", size)
    if rank not in (None, 1) or (rank == 1 and not types.is_integral(size)):
        raise UnsupportedError("np.random.choice() with a size other than an int is not supported yet")
    if types.is_integral(a):
        return _choice_int_scalar if rank is None else _choice_int_array
    if isinstance(a, types.Array) and a.ndim == 1:
        return _choice_vector_scalar if rank is None else _choice_vector_array
    raise UnsupportedError(f"np.random.choice() of {a} is not supported yet (an int or a 1-D array)")
