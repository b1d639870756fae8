"""Minimal programs the differential fuzzer (and reviews) found plait getting
wrong, kept as regression tests: plain Python, run by CPython on NumPy as the
reference."""

import numpy as np


def write_through_alias(a):
    b = a
    b[0] = 7.0


def augment_through_alias(a):
    b = a
    b += 1.0


def write_through_conditional_alias(a, c, t):
    b = a if t else c
    b[0] = 1


def identity(x):
    return x


def write_through_returned_argument(a):
    b = identity(a)
    b[0] = 5


def copy_into_slice(a, b):
    a[:] = b
    return a


def copy_into_reversed_slice(a, b):
    a[::-1] = b
    return a


def copy_into_row(a, b):
    a[0] = b
    return a


def copy_into_rows(a, b):
    a[:, :] = b
    return a


def element_with_failing_index(a, n):
    return a[5, 1 % n]


def store_with_failing_index(a, n):
    a[5, 1 % n] = 1.0


def view_with_failing_index(a, n):
    return a[5, 1 // n :]


def scale(a, k):
    return a * k


def floor_divide(a, k):
    return a // k


def add(a, b):
    return a + b


def add_in_place(a, b):
    a += b
    return a


def dot(a, b):
    return np.dot(a, b)


def nothing(n):
    pass


def uses_nothing(n):
    r = nothing(n)
    return r


def argument_or_new_array(a, fresh):
    if fresh:
        return np.zeros(a.shape[0])
    return a


def smallest_int64():
    return -9223372036854775808


def largest_uint64():
    return np.uint64(18446744073709551615)


def round_to(x, ndigits):
    return round(x, ndigits)


def make(n):
    return np.zeros(n)


def shape_of_callee_result(n):
    a = make(n)
    return a.shape[0] + a.size


def store_element(a, v):
    a[0] = v
    return a


def power_in_place(a):
    a[0] **= 0.5
    return a


def slice_in_place(a, b):
    a[1:] += b
    return a


def round_with_none(x):
    return round(x, None)


def int16_of(x):
    return np.int16(x)


def returns_on_both_paths(a, b):
    if a + b == 3:
        return 1
    else:
        return 0


def calls_returns_on_both_paths(x):
    return returns_on_both_paths(x, x) + returns_on_both_paths(x, 3 - x)


def returns_on_every_path_of_nested_branches(x):
    if x > 0:
        if x > 10:
            return x * 2.0
        else:
            return x + 0.5
    elif x < -5:
        return -1.0
    else:
        return 0.0


def power_of_a_shift(x):
    return (x << 8) ** 3


def chained_slice_assignment(a, b):
    # Both targets get the temporary a * 2: the first store must not free it
    # (found by npbench's covariance).
    a[1:] = b[:-1] = a[:-1] * 2
    c = d = a + 1
    return c, d


def swap_then_write(a, b):
    a, b = b, a
    a[0] = 1


def tuple_then_write(a, b):
    t = (a, b)
    x, y = t
    y[0] = 1


def next_slot(log):
    # A call with an effect: how many times it ran shows in `log`.
    log.append(len(log))
    return len(log) - 1


def augment_at_computed_index(a, log):
    a[next_slot(log)] += 10.0
    return len(log)


def augment_at_computed_indices(a, log):
    a[next_slot(log), next_slot(log) - 1] += 10.0
    return len(log)


def augment_computed_slice(a, log):
    a[next_slot(log) : next_slot(log) + 2] += 1.0
    return len(log)


def augment_list_at_computed_index(values, log):
    values[next_slot(log)] += 5
    return len(log)


def augment_in_row_at_computed_index(a, log):
    a[next_slot(log)][1] += 3.0
    return len(log)


def augment_at_gathered_indices(a, log):
    a[np.array([next_slot(log), 0, next_slot(log)])] += 1.0
    return len(log)
