"""Functions for test_jit_narrow_dtypes: float16 and complex64 code, run
interpreted (the reference) and compiled."""

import numpy as np


def arithmetic(a, b):
    return a + b, a - b, a * b, a / b


def real_arithmetic(a, b):
    return a // b, a % b, a**b, a < b, a == b, np.abs(a)


def with_python_scalars(a):
    return a * 2.5, a + 1, a - 1j, 3 / (a + 0.5)


def with_numpy_scalars(a):
    return a * np.float32(2), a + np.int16(3), a + np.int8(3), a * np.float64(0.5)


def element_arithmetic(a, i, j):
    x = a[i]
    y = a[j]
    return x + y, x * y, x - y, x / y, x == y


def real_element_arithmetic(a, i, j):
    x = a[i]
    y = a[j]
    return x // y, x % y, x**y, x < y, x * 2, x + 1.5, float(x), int(x) if -1e4 < x < 1e4 else 0


def ufuncs(a):
    return np.sqrt(a), np.exp(a), np.log(a), np.sin(a), np.cos(a), np.tan(a), np.arctan(a)


def absolute(a):
    return np.abs(a), np.abs(a[0])


def reductions(a):
    return a.sum(), a.prod(), a.mean(), a.min(), a.max(), a.argmin(), a.argmax(), a.std(), a.var()


def complex_reductions(a):
    return a.sum(), a.prod(), a.mean(), a.std(), a.var(), np.cumsum(a)


def axis0_reductions(a):
    return a.sum(axis=0), a.mean(axis=0), a.std(axis=0), a.var(axis=0, ddof=1)


def axis1_reductions(a):
    return a.sum(axis=1), a.mean(axis=1), a.std(axis=1), a.var(axis=1, ddof=1)


def axis_extremes(a):
    return a.min(axis=0), a.max(axis=1), a.argmin(axis=0), a.prod(axis=1)


def float32_sum(a):
    return a.sum(dtype=np.float32), a.sum(axis=0, dtype=np.float32)


def cumulative(a):
    return np.cumsum(a), np.cumprod(a[:3])


def created(n):
    h = np.zeros(n, dtype=np.float16)
    c = np.ones((n, 2), dtype="complex64")
    h += 0.1
    c[:, 1] = 2.5 - 1j
    return h, c, np.empty_like(h).shape, np.full(n, 1.5, dtype=np.float16)


def converted(a):
    return a.astype(np.float16), a.astype(np.complex64), a.astype(np.float16).astype(np.float64)


def scalars(x, z):
    h = np.float16(x)
    c = np.complex64(z)
    return h, c, h * 3, c / 3, h + c, c.real, c.imag, abs(c)


def returns_element(a, i):
    return a[i]


def parts(z):
    return z.real, z.imag, z.conj(), z.real.itemsize


def write_parts(z, v):
    z.real[:] = v
    z.imag[0] = 1.5


def in_place(a, b):
    a += b
    a[a > 1] = 0
    a *= 2


def promoted(a, b):
    return a + b
