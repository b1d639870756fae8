"""Functions whose for loops run over range(), arrays, tuples, list
displays, enumerate(), zip(), np.ndindex() and np.ndenumerate(), run
interpreted and compiled by test_jit_iteration.py."""

import numpy as np


def enumerate_elements(a, start):
    total = 0.0
    for i, x in enumerate(a, start):
        total += i * x
    return float(total)  # (a NumPy float once an element is added)


def enumerate_keyword_start(a):
    last = -1
    for i, x in enumerate(a, start=10):
        last = i
    return last


def enumerate_rows(m):
    out = np.zeros(m.shape[0])
    for i, row in enumerate(m):
        out[i] = row.sum() * (i + 1)
    return out


def enumerate_rows_written(m):
    # Rows are views: writes through them reach m.
    for i, row in enumerate(m):
        row[0] = i
    return m


def zip_arrays(a, b):
    total = 0.0
    for x, y in zip(a, b[1:]):
        total += x * y
    return float(total)  # (a NumPy float once an element is added)


def zip_three(a, n, t):
    total = 0
    count = 0
    for x, i, v in zip(a, range(n), t):
        total += x * i + v
        count += 1
    return int(total), count


def zip_as_tuple(a, b):
    total = 0.0
    for pair in zip(a, b):
        total += pair[0] - pair[1]
    return float(total)  # (a NumPy float once an element is added)


def enumerate_range(n, step):
    total = 0
    for k, i in enumerate(range(n, -n, step), 3):
        total += k * i
    return total


def ndindex_sizes(n, m):
    total = 0
    for i, j in np.ndindex(n, m):
        total = total * 3 + i * 10 + j
    return total


def ndindex_shape(shape):
    count = 0
    last = (-1, -1, -1)
    for index in np.ndindex(shape):
        count += 1
        last = index
    return count, last


def ndindex_of_array(a):
    out = np.zeros(a.shape)
    for i, j in np.ndindex(a.shape):
        out[i, j] = a[i, j] * (i - j)
    return out


def ndenumerate_weights(a):
    total = 0.0
    for (i, j), v in np.ndenumerate(a):
        total += (i + 1) * v - j
    return float(total)  # (a NumPy float once an element is added)


def ndenumerate_3d(a):
    best = -1
    for index, v in np.ndenumerate(a):
        if v > 0:
            best = index[0] * 100 + index[1] * 10 + index[2]
    return best


def over_tuple(t):
    total = 0
    for v in t:
        total = total * 2 + v
    return total


def over_list_display(x, y):
    total = 0.0
    for v in [x, y, x * y]:
        total += v
    return float(total)  # (a NumPy float once an element is added)


def over_shape(a):
    product = 1
    for n in a.shape:
        product *= n
    return product


def for_else_break(a, stop):
    for i, x in enumerate(a):
        if x == stop:
            break
    else:
        return -1
    return i


def returns_from_zip(a, b):
    for x, y in zip(a, b):
        if x > y:
            return float(x - y)
    return 0.0


def tuple_index(t, k):
    return t[k]


def tuple_index_in_loop(t):
    total = 0
    for k in range(len(t)):
        total += t[k] * t[-k - 1]
    return total


def temporary_iterable(a):
    total = 0.0
    for x in a * 2 + 1:
        total += x
    return float(total)  # (a NumPy float once an element is added)


def range_of_its_own_variable(n):
    total = 0
    for i in range(i % 7, n):  # noqa: F821 - read before assignment: UnboundLocalError
        total += i
    return total


def zip_of_its_own_variable(a):
    total = 0.0
    for x, y in zip(a, b):  # noqa: F821
        b = a
        total += x * y
    return total
