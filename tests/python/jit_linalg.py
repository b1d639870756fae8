"""Matrix products and np.linalg (compiled by test_jit_linalg.py and run by
CPython on the same arrays)."""

import numpy as np


def matmul(a, b):
    return a @ b


def matmul_function(a, b):
    return np.matmul(a, b)


def dot(a, b):
    return np.dot(a, b)


def outer(a, b):
    return np.outer(a, b)


def gram(a):
    # A matrix times its own transpose: NumPy uses syrk and mirrors it.
    return a @ a.T, a.T @ a


def power_iteration(a, x, steps):
    # Rebinds the vector each step: products of new arrays in a loop.
    for _ in range(steps):
        x = a @ x
        x = x / np.sqrt(np.sum(x * x))
    return x


def mvt(a, x1, x2, y1, y2):
    # polybench's mvt: products added in place.
    x1 += a @ y1
    x2 += y2 @ a


def chain(a, b, c, d):
    return a @ b @ c @ d, 1.5 * a @ b + 0.5 * c
