"""Functions calling NumPy through plait.numpy (the plait.overload
library), run interpreted and compiled by test_numpy_library.py."""

import numpy as np

# -- ufuncs, one function each (compiled code cannot take a ufunc as a value) --
def u_negative(x):
    return np.negative(x)

def u_positive(x):
    return np.positive(x)

def u_square(x):
    return np.square(x)

def u_isnan(x):
    return np.isnan(x)

def u_isinf(x):
    return np.isinf(x)

def u_isfinite(x):
    return np.isfinite(x)

def u_signbit(x):
    return np.signbit(x)

def u_sign(x):
    return np.sign(x)

def u_logical_not(x):
    return np.logical_not(x)

def u_invert(x):
    return np.invert(x)

def u_floor(x):
    return np.floor(x)

def u_ceil(x):
    return np.ceil(x)

def u_trunc(x):
    return np.trunc(x)

def u_rint(x):
    return np.rint(x)

def u_fabs(x):
    return np.fabs(x)

def u_reciprocal(x):
    return np.reciprocal(x)

def u_deg2rad(x):
    return np.deg2rad(x)

def u_rad2deg(x):
    return np.rad2deg(x)

def u_radians(x):
    return np.radians(x)

def u_degrees(x):
    return np.degrees(x)

def u_sinh(x):
    return np.sinh(x)

def u_cosh(x):
    return np.cosh(x)

def u_tanh(x):
    return np.tanh(x)

def u_arcsin(x):
    return np.arcsin(x)

def u_arccos(x):
    return np.arccos(x)

def u_arcsinh(x):
    return np.arcsinh(x)

def u_arccosh(x):
    return np.arccosh(x)

def u_arctanh(x):
    return np.arctanh(x)

def u_exp(x):
    return np.exp(x)


def u_exp2(x):
    return np.exp2(x)

def u_expm1(x):
    return np.expm1(x)

def u_log2(x):
    return np.log2(x)

def u_log10(x):
    return np.log10(x)

def u_log1p(x):
    return np.log1p(x)

def u_cbrt(x):
    return np.cbrt(x)

def b_add(x, y):
    return np.add(x, y)

def b_subtract(x, y):
    return np.subtract(x, y)

def b_multiply(x, y):
    return np.multiply(x, y)

def b_divide(x, y):
    return np.divide(x, y)

def b_floor_divide(x, y):
    return np.floor_divide(x, y)

def b_remainder(x, y):
    return np.remainder(x, y)

def b_maximum(x, y):
    return np.maximum(x, y)

def b_minimum(x, y):
    return np.minimum(x, y)

def b_fmax(x, y):
    return np.fmax(x, y)

def b_fmin(x, y):
    return np.fmin(x, y)

def b_logical_and(x, y):
    return np.logical_and(x, y)

def b_logical_or(x, y):
    return np.logical_or(x, y)

def b_logical_xor(x, y):
    return np.logical_xor(x, y)

def b_bitwise_and(x, y):
    return np.bitwise_and(x, y)

def b_bitwise_or(x, y):
    return np.bitwise_or(x, y)

def b_bitwise_xor(x, y):
    return np.bitwise_xor(x, y)

def b_greater(x, y):
    return np.greater(x, y)

def b_greater_equal(x, y):
    return np.greater_equal(x, y)

def b_less(x, y):
    return np.less(x, y)

def b_less_equal(x, y):
    return np.less_equal(x, y)

def b_equal(x, y):
    return np.equal(x, y)

def b_not_equal(x, y):
    return np.not_equal(x, y)

def b_copysign(x, y):
    return np.copysign(x, y)

def b_nextafter(x, y):
    return np.nextafter(x, y)

def b_fmod(x, y):
    return np.fmod(x, y)

def b_arctan2(x, y):
    return np.arctan2(x, y)

def b_hypot(x, y):
    return np.hypot(x, y)

def b_power(x, y):
    return np.power(x, y)

def b_float_power(x, y):
    return np.float_power(x, y)

UNARY_EXACT = ['negative', 'positive', 'square', 'isnan', 'isinf', 'isfinite', 'signbit', 'sign', 'logical_not', 'invert', 'floor', 'ceil', 'trunc', 'rint', 'fabs', 'reciprocal', 'deg2rad', 'rad2deg', 'radians', 'degrees']
UNARY_CLOSE = ['sinh', 'cosh', 'tanh', 'arcsin', 'arccos', 'arcsinh', 'arccosh', 'arctanh', 'exp2', 'expm1', 'log2', 'log10', 'log1p', 'cbrt']
BINARY_EXACT = ['add', 'subtract', 'multiply', 'divide', 'floor_divide', 'remainder', 'maximum', 'minimum', 'fmax', 'fmin', 'logical_and', 'logical_or', 'logical_xor', 'bitwise_and', 'bitwise_or', 'bitwise_xor', 'greater', 'greater_equal', 'less', 'less_equal', 'equal', 'not_equal', 'copysign', 'nextafter', 'fmod']
BINARY_CLOSE = ['arctan2', 'hypot', 'power', 'float_power']


def outer_add(a, b):
    return np.add.outer(a, b)


def outer_minimum(a, b):
    return np.minimum.outer(a, b)


def complex_power(z, e):
    return np.power(z, e), z ** e, z ** 2


def clip3(a, lo, hi):
    return np.clip(a, lo, hi)


def clip_method(a, lo, hi):
    return a.clip(lo, hi)


def clip_below(a, lo):
    return np.clip(a, lo, None)


def clip_above(a, hi):
    return np.clip(a, a_max=hi)


def where3(c, x, y):
    return np.where(c, x, y)


def where_mask(a, limit):
    return np.where(a > limit, a, 0.0)


def eye(n, m, k):
    return np.eye(n, m, k)


def eye_square(n, k):
    return np.eye(n, k=k)


def eye_typed(n):
    return np.eye(n, dtype=np.float32), np.eye(n, dtype=int), np.identity(n, dtype=np.int8)


def eye_like(a):
    return np.eye(a.shape[0], dtype=a.dtype)


def identity(n):
    return np.identity(n)


def linspace(start, stop, num):
    return np.linspace(start, stop, num)


def linspace_open(start, stop, num):
    return np.linspace(start, stop, num, endpoint=False)


def linspace_typed(start, stop, num):
    return np.linspace(start, stop, num, dtype=np.float32), np.linspace(start, stop, num, dtype=np.int64)


def flip(a):
    return np.flip(a)


def flip_axis(a, axis):
    return np.flip(a, axis)


def flip_write(a):
    b = np.flip(a)
    b[0] = -1.0
    return a


def triu(a, k):
    return np.triu(a, k)


def tril(a, k):
    return np.tril(a, k=k)


def triu_default(a):
    return np.triu(a), np.tril(a)


def hstack2(a, b):
    return np.hstack((a, b))


def hstack3(a, b, c):
    return np.hstack((a, b, c))


def vstack2(a, b):
    return np.vstack((a, b))


def concatenate3(a, b, c):
    return np.concatenate((a, b, c))


def cov(m):
    return np.cov(m)


def histogram(a, bins):
    return np.histogram(a, bins)


def histogram_weighted(a, bins, w):
    return np.histogram(a, bins, weights=w)


def sort_all(a):
    return np.sort(a), np.argsort(a), np.sort(a, axis=None), np.argsort(a, axis=None)


def sort_axis(a, axis):
    return np.sort(a, axis), np.argsort(a, axis=axis)


def unique(a):
    return np.unique(a)


def searchsorted(a, v):
    return np.searchsorted(a, v)


def nonzeros(a):
    return np.nonzero(a), np.flatnonzero(a), np.count_nonzero(a)


def roll(a, shift):
    return np.roll(a, shift)


def roll_axis(a, shift, axis):
    return np.roll(a, shift, axis=axis)


def repeat(a, n):
    return np.repeat(a, n)


def tile(a, n):
    return np.tile(a, n)


def tile2(a, rows, cols):
    return np.tile(a, (rows, cols))


def expand_dims(a, axis):
    return np.expand_dims(a, axis)


def stack2(a, b):
    return np.stack((a, b))


def stack3(a, b, c):
    return np.stack((a, b, c))


def diag(v, k):
    return np.diag(v, k)


def trace(a, offset):
    return np.trace(a, offset)


def average(a):
    return np.average(a)


def average_weighted(a, w):
    return np.average(a, weights=w)


def median(a):
    return np.median(a)


def percentile(a, q):
    return np.percentile(a, q)


def bincount(x, minlength):
    return np.bincount(x, minlength=minlength)


def bincount_weighted(x, w):
    return np.bincount(x, weights=w)


def isclose(a, b):
    return np.isclose(a, b), np.isclose(a, b, rtol=0.01, atol=0.5), np.isclose(a, b, equal_nan=True)


def allclose(a, b):
    return np.allclose(a, b), np.allclose(a, b, 0.01, 0.5, True)


def meshgrid(x, y):
    return np.meshgrid(x, y)


def logspace(start, stop, num):
    return np.logspace(start, stop, num)


def add_out(a, b, c):
    return np.add(a, b, out=c)


def maximum_out_where(a, b, c, mask):
    np.maximum(a, b, out=c, where=mask)
    return c


def multiply_positional_out(a, b, c):
    return np.multiply(a, b, c)


def average_axis(a):
    return np.average(a, axis=0), np.average(a, axis=-1, keepdims=True)


def searchsorted_right(a, v):
    return np.searchsorted(a, v, side="right"), np.searchsorted(a, v, "left")


def concatenate_axis1(a, b):
    return np.concatenate((a, b), axis=1), np.concatenate((a, a), 0)


def stack_axis1(a, b):
    return np.stack((a, b), axis=1), np.stack((a, b), -1)


def meshgrid_ij(x, y):
    return np.meshgrid(x, y, indexing="ij")


def reduce_family(a):
    return (np.add.reduce(a), np.multiply.reduce(a, axis=None), np.maximum.reduce(a, axis=-1),
            np.minimum.reduce(a, 0, keepdims=True), np.logical_and.reduce(a > 0, axis=(0, 1)),
            np.logical_or.reduce(a > 3), np.add.accumulate(a), np.multiply.accumulate(a, 1))


def count_nonzero_axis(a):
    return np.count_nonzero(a, axis=0), np.count_nonzero(a, axis=-1, keepdims=True)


def sort_kinds(a):
    return np.sort(a, kind="mergesort"), np.argsort(a, kind="stable")


def full_copy_asarray(a):
    return np.full_like(a, 7), np.copy(a), np.asarray(a), np.asarray(a, dtype=np.float32)


def random_draws(seed, n):
    np.random.seed(seed)
    return (np.random.rand(n), np.random.randn(2, n), np.random.random(3), np.random.rand(), np.random.randn(),
            np.random.randint(0, 10, size=n), np.random.randint(5), np.random.randint(-3, 2**40, size=(2, 2)),
            np.random.uniform(-1.0, 2.0, size=n), np.random.normal(3.0, 0.5), np.random.normal(size=(2, 3)),
            np.random.choice(7, size=4), np.random.choice(np.arange(5.0) * 2), np.random.choice(9, 3, False),
            np.random.permutation(6), np.random.standard_normal(2), np.random.random_sample(),
            np.random.uniform(), np.random.choice(np.arange(4), size=n, replace=False))


def random_shuffle(seed, x):
    np.random.seed(seed)
    np.random.shuffle(x)
    return x


def random_seed_only(seed):
    np.random.seed(seed)
    return np.random.rand()


def random_randint(low, high, n):
    np.random.seed(0)
    return np.random.randint(low, high, size=n)


def corrcoef(m):
    return np.corrcoef(m)


def median_axes(a):
    return np.median(a, axis=0), np.median(a, axis=-1)


def indices(n, m):
    return np.indices((n, m)), np.indices((n,)), np.indices((2, n, m))


def swap_and_squeeze(a):
    return np.swapaxes(a, 0, 1), np.swapaxes(a, 1, -1), np.squeeze(a[:1], axis=0), np.squeeze(a[None], 0)


def squeeze_axis(a):
    return np.squeeze(a, axis=1)


def where_one(a):
    return np.where(a > 1)


def random_weighted_choice(seed, p, a):
    np.random.seed(seed)
    return np.random.choice(3, p=p), np.random.choice(3, 5, p=p), np.random.choice(a, p=p), np.random.choice(a, 4, True, p)


def transpose_axes(a, axes):
    return np.transpose(a, axes)


def transpose_method(a):
    return a.transpose(1, 0, 2), a.transpose((2, 1, 0)), a.transpose()


def transpose_written(a):
    t = np.transpose(a, (1, 0, 2))
    t[0, 0, 0] = 7
    return a


def broadcast_to_shape(a, shape):
    return np.broadcast_to(a, shape)


def broadcast_to_length(a, n):
    return np.broadcast_to(a, n) * 2


def broadcast_number(x, n):
    return np.broadcast_to(x, (n, 2))


def median_nd(a):
    return (np.median(a, axis=(0, 2)), np.median(a, axis=1, keepdims=True), np.median(a, axis=-1),
            np.median(a, axis=(0, 1, 2), keepdims=True))


def percentile_nd(a, q):
    return np.percentile(a, q, axis=1), np.percentile(a, q, axis=(0, 2), keepdims=True), np.percentile(a, q)


def percentile_several(a):
    return np.percentile(a, (10, 50.5, 90)), np.percentile(a, [0, 100], axis=0)


def random_choice_without_replacement(seed, p, size, a):
    np.random.seed(seed)
    return (np.random.choice(p.shape[0], size, False, p), np.random.choice(a, size, replace=False, p=p),
            np.random.choice(p.shape[0], replace=False, p=p))


def mgrid_ints(n, m):
    return np.mgrid[0:n, 0:m], np.mgrid[1:n:2, m:-3:-2], np.mgrid[0:n]


def mgrid_points(n):
    return np.mgrid[0:1:5j, 0:n:2], np.mgrid[-1:1:3j], np.mgrid[0:2.5:0.5, 0:n]


def mgrid_unpacked(n):
    i, j = np.mgrid[0:n, 0:n]
    return i * 10 + j


def repeat_axis(a, n):
    return np.repeat(a, n, axis=1), np.repeat(a, n, axis=-1), np.repeat(a, n, 0)


def complex_functions(z):
    return (np.exp(z), np.log(z), np.sqrt(z), np.sin(z), np.cos(z), np.tan(z), np.sinh(z), np.cosh(z),
            np.tanh(z), np.arcsin(z), np.arccos(z), np.arctan(z), np.arcsinh(z), np.arccosh(z), np.arctanh(z))


def numpy_constants(x):
    return np.pi * x, np.e * x, np.inf, np.nan, np.euler_gamma * x, -2.0j * np.pi * x


def logical_not_in_place(z, horizon):
    mask = abs(z) > horizon
    np.logical_not(mask, mask)
    return mask
