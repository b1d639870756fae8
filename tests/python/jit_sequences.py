"""Tuples and dtypes as arguments, list displays passed to NumPy, and
np.array/np.asarray of sequences, run interpreted and compiled by
test_jit_sequences.py."""

import numpy as np


def tuple_sum(t):
    return t[0] + t[1] * 2


def nested_tuple(t):
    (a, b), c = t
    return a * b - c


def tuple_returned(t):
    return t


def zeros_of(shape, dtype):
    return np.zeros(shape, dtype)


def full_like_dtype(a, dtype):
    return np.ones(a.shape, dtype=dtype) * 3


def arange_as(n, dtype):
    return np.arange(n).astype(dtype)


def zeros_of_list(n, m):
    return np.zeros([n, m], np.float32)


def array_of_numbers(x, y):
    return np.array([[x, y], [y, x]])


def array_of_mixed(x):
    return np.array((1, 2.5, x))


def array_with_dtype(x):
    return np.array([x, 2, 3], dtype=np.int8)


def array_of_arrays(a, b):
    return np.array([a, b * 2])


def array_of_array_rows(a, b):
    return np.array([[a, b], [b, a]])


def array_ragged():
    return np.array(((1, 2), (3,)))


def array_copy(a):
    b = np.array(a)
    b[0] = 99
    return b


def array_no_copy(a):
    return np.array(a, copy=False)


def array_cast(a):
    return np.array(a, dtype=np.float32)


def asarray_of_tuple(t):
    return np.asarray(t)


def asarray_of_list(x):
    return np.asarray([x, x + 1], dtype=np.float32)


def concatenate_list(a, b):
    return np.concatenate([a, b])


def list_built(x):
    return [x, x]


def starred_displays(a, t):
    # *t splices a tuple's elements into a tuple or list display.
    shape = (*a.shape, 3)
    return shape, np.zeros((*a.shape, 2)).shape, [*t, 9], (1, *t, *t), [*a.shape], (*t,)
