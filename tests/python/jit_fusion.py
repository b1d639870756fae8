"""Whole-array expressions that plait-fuse-elementwise computes in one loop,
and the cases it must leave apart, run interpreted and compiled by
test_jit_fusion.py."""

from __future__ import annotations

import numpy as np


def rosenbrock_terms(a, b):
    return 100 * (a[1:] - b[:-1] ** 2) ** 2 + (1 - a[:-1]) ** 2


def rosenbrock(x):
    return np.sum(100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)


def broadcast_chain(a, b):
    return np.sqrt(np.abs(a[:, None] - b[None, :])) * 0.5 + a[:, None]


def squared_distance(a, b):
    return np.sum((a - b) ** 2)


def row_norms(x):
    return np.sqrt(np.sum(np.abs(x) ** 2, 1))


def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def pairwise_distances(a, b):
    return np.sqrt(np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1))


def int_chain(a, b):
    return (a * 3 - b) // 2 + a % 5 - abs(b)


def comparisons(a, b):
    return (a > b) & (a < 2 * b) | ~(a == b)


def transposed_chain(a):
    return (a.T * 2.0 + 1.0) ** 2 - a.T


def written_between(a, b):
    t = a * 2.0
    a[0] = 7.0
    return t + b


def scale_in_place(a):
    a *= 2.0
    return 3.0


def called_between(a, b):
    # Python computes a - b before the call changes a.
    return (a - b) * scale_in_place(a)


def reused_temporary(a, b):
    d = a - b
    return d * d + d


def power(x, e):
    return x**e


def constant_powers(x):
    return x**0.5 + x**2 - x**-1


def cast_then_scale(x, dtype):
    return x.astype(dtype) * 2


def cast_of_chain(x):
    return (x * 3).astype(np.float32) + np.float32(1)


def shifted_store(a):
    # The right side is a new array: stored directly, after it is complete.
    a[1:] = a[:-1] * 2.0 + a[1:]
    a[:-1] = a[1:]
    return a


def sum_of_expression(a, b):
    return np.sum(a * b - 0.5 * a)


def mean_of_expression(a, b):
    return np.mean(np.abs(a - b))


def sum_of_negative_zeros(a):
    return np.sum(-np.abs(a) * 0.0)


def sum_of_strided(a):
    return np.sum(a[::2] ** 2) + np.sum(a[::-3] * 3.0)


def broadcast_reads(x, v, w):
    # A column known to repeat along the last axis (`[:, None]`, keepdims),
    # a row of lower rank and x itself: the innermost loop's fast copy reads
    # each its own way, the general one through broadcast views.
    return (x - v[:, None]) * w + np.max(x, axis=1, keepdims=True)
