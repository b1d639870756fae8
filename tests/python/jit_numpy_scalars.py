"""Functions over NumPy scalars (array elements, NumPy scalar arguments):
CPython running them on NumPy values is the reference, NEP 50 included."""

import math

import numpy as np


def add(a, b, i):
    return a[i] + b[i]


def sub(a, b, i):
    return a[i] - b[i]


def mul(a, b, i):
    return a[i] * b[i]


def truediv(a, b, i):
    return a[i] / b[i]


def floordiv(a, b, i):
    return a[i] // b[i]


def mod(a, b, i):
    return a[i] % b[i]


def power(a, b, i):
    return a[i] ** b[i]


def bit_and(a, b, i):
    return a[i] & b[i]


def bit_or(a, b, i):
    return a[i] | b[i]


def bit_xor(a, b, i):
    return a[i] ^ b[i]


def shift_left(a, b, i):
    return a[i] << b[i]


def shift_right(a, b, i):
    return a[i] >> b[i]


def compare(a, b, i):
    x, y = a[i], b[i]
    return (x < y, x <= y, x == y, x != y, x > y, x >= y)


def weak_add(a, i, x):
    return a[i] + x


def weak_rsub(a, i, x):
    return x - a[i]


def weak_mul(a, i, x):
    return a[i] * x


def weak_div(a, i, x):
    return a[i] / x


def weak_floordiv(a, i, x):
    return a[i] // x


def weak_mod(a, i, x):
    return x % a[i]


def weak_compare(a, i, x):
    return (a[i] < x, a[i] == x, x >= a[i])


def negate(a, i):
    return -a[i]


def invert(a, i):
    return ~a[i]


def absolute(a, i):
    return abs(a[i])


def conversions(a, i):
    return (float(a[i]), bool(a[i]), not a[i])


def to_int(a, i):
    return int(a[i])


def rounded(a, i):
    return round(a[i])


def math_of_element(a, i):
    return (math.floor(a[i]), math.fabs(a[i]), math.copysign(1.0, a[i]))


def ufuncs_of_element(a, i):
    return (np.abs(a[i]), np.sqrt(a[i]), np.exp(a[i]), np.sin(a[i]))


def accumulate_from_float(a):
    s = 0.0
    for x in a:
        s += x
    return s


def accumulate_from_int(a):
    s = 0
    for x in a:
        s = s + x * 3
    return s


def accumulate_float32(a):
    s = np.float32(0)
    for i in range(len(a)):
        s += a[i] * np.float32(0.1)
    return s


def reductions(a):
    return (np.sum(a), np.prod(a), np.min(a), np.max(a), np.mean(a))


def dot(a, b):
    return np.dot(a, b)


def construct_int8(x):
    return np.int8(x)


def construct_uint64(x):
    return np.uint64(x)


def construct_float32(x):
    return np.float32(x)


def construct_bool(x):
    return np.bool_(x)


def scalar_arithmetic(x, y):
    return (x + y, x * y, x / y, x // y, x - y, x < y)


def identity(x):
    return x


def store(a, i, x):
    a[i] = x
    return a[i]


def count_above(a, limit):
    n = 0
    for x in a:
        if x > limit:
            n += 1
    return n


def complex_arithmetic(z, w):
    return (z + w, z - w, z * w, -z, +z, z == w, z != w, abs(z), bool(z))


def complex_division(z, w):
    return z / w


def complex_parts(z):
    return (z.real, z.imag, z.conjugate(), complex(z.real, -z.imag), z * 1j + 2)


def complex_elements(a, i):
    x = a[i]
    return (x * x + 1j, abs(x), x.real, x.imag, x / 2, x == a[0])


def complex_ufunc_abs(a, i):
    return np.abs(a[i])


def complex_reductions(a):
    return (np.sum(a), np.mean(a))


def complex_product(a):
    return np.prod(a)


def mandelbrot_counts(c, limit):
    out = np.zeros(len(c), dtype=np.int64)
    for i in range(len(c)):
        z = 0j
        n = 0
        while abs(z) <= 2.0 and n < limit:
            z = z * z + c[i]
            n += 1
        out[i] = n
    return out


def rotate(a, angle):
    # Complex arrays in and out: a new array of complex128.
    out = np.empty_like(a)
    w = complex(np.cos(angle), np.sin(angle))
    for i in range(len(a)):
        out[i] = a[i] * w
    return out


def identity_of_first(a):
    return a[0]
