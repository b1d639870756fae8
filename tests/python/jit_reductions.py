"""Reductions with NumPy's keywords (compiled by test_jit_reductions.py and
run by CPython on the same arrays): axis as an int or a tuple, keepdims,
dtype, ddof, in function and method forms."""

import numpy as np


def sums(a):
    return (
        np.sum(a, axis=(1, 2)),
        np.sum(a, axis=(0, 2), keepdims=True),
        a.sum(axis=(-1, 0)),
        np.sum(a, keepdims=True),
        np.sum(a, 1),
        a.sum(axis=(0, 1, 2)),
        np.prod(a, axis=(0, 1)),
    )


def line_sums(a):
    # The last axis of a C-contiguous array: each line summed pairwise.
    return np.sum(a, axis=-1), a.sum(-1, keepdims=True), np.mean(a, axis=-1)


def line_extremes(a):
    return np.max(a), np.min(a), a.max(), np.amin(a)


def row_extremes(a):
    return np.max(a, axis=-1), np.min(a, axis=1, keepdims=True)


def extremes(a):
    return (
        np.max(a, axis=-1, keepdims=True),
        np.min(a, axis=(0, 1)),
        a.max(axis=(1, 2), keepdims=True),
        np.amin(a, 0, None, True),
    )


def means(a):
    return np.mean(a, axis=(0, 2)), a.mean(axis=1, keepdims=True), np.mean(a, axis=(0, 1), dtype=np.float64)


def variances(a):
    return (
        np.var(a),
        np.std(a, axis=0),
        a.var(axis=(0, -1), ddof=1),
        a.std(axis=1, keepdims=True, ddof=0),
        np.std(a, (1, 2), None, None, 2, True),
    )


def variances_with_ddof(a, ddof):
    return np.var(a, ddof=ddof), np.std(a, axis=-1, ddof=ddof)


def accumulations(a):
    return np.cumsum(a), np.cumprod(a, axis=0), a.cumsum(axis=-1), np.cumsum(a, axis=1, dtype=np.float64), a.cumprod()


def positions(a):
    return np.argmax(a, axis=0), a.argmin(axis=-1), np.argmax(a, axis=1, keepdims=True), a.argmin(keepdims=True)


def truths(a):
    return np.any(a, axis=(0, 2)), a.all(axis=1), np.all(a, axis=(0, 1, 2), keepdims=True), np.any(a > 0, axis=-1)


def softmax(x):
    # The numerically stable softmax of deep-learning code (np.exp itself is
    # compared separately: its last bit may differ from NumPy's SIMD exp).
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted / np.sum(shifted, axis=-1, keepdims=True)


def narrow_sums(a):
    return np.sum(a, axis=0, dtype=np.int8), np.sum(a, dtype=np.int16), a.prod(axis=-1, dtype=np.int32)


def normalise_columns(data):
    # The start of a correlation kernel: centre and scale each column.
    mean = np.mean(data, axis=0)
    stddev = np.std(data, axis=0)
    stddev[stddev <= 0.1] = 1.0
    data -= mean
    data /= np.sqrt(np.float64(data.shape[0])) * stddev
    return data


def bad_axis(a):
    return np.sum(a, axis=(0, 3))


def duplicate_axis(a):
    return np.sum(a, axis=(1, -2))


def tuple_axis_for_argmax(a):
    return np.argmax(a, axis=(0, 1))


def unknown_keyword(a):
    return np.sum(a, axes=0)


def dtype_for_max(a):
    return np.max(a, dtype=np.float64)


def dynamic_keepdims(a, k):
    return np.sum(a, axis=0, keepdims=k)


def out_argument(a, b):
    return np.sum(a, axis=0, out=b)


def empty_maximum(a):
    return np.max(a, axis=(0, 1))


def empty_axis_tuple(a):
    return np.sum(a, axis=())
