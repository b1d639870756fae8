"""Functions with *args parameters, run interpreted and compiled by
test_jit_varargs.py."""

import math

import numpy as np


def weighted(scale, *values):
    total = 0.0
    for v in values:
        total += v
    return scale * total, len(values)


def with_default(a, b=10, *rest):
    return a + b + len(rest), rest


def count(*items):
    return len(items)


def forwards(x, y):
    # A compiled caller packs the extra arguments as the interpreter does.
    return weighted(2.0, x, y, 1.5), count(), count(x, (x, y), np.zeros(2)), with_default(1), with_default(1, 2, 3, 4)


def star_by_keyword():
    return weighted(1.0, values=(1.0,))


def inner_star(x):
    # An inner function and a lambda with *args, capturing x.
    def shifted(*values):
        total = x
        for v in values:
            total += v
        return total

    spread = lambda *values: len(values) * x  # noqa: E731
    return shifted(), shifted(1, 2), spread(), spread(x, x, x)


def empty_loop_else(*values):
    # The loop over an empty tuple runs out at once: its else runs.
    found = -1
    for v in values:
        if v > 0:
            found = v
            break
    else:
        found = 0
    return found


def unpacks(t, a):
    # f(*t) in calls: of jitted and plain functions, builtins, math and NumPy.
    return (weighted(*t), weighted(1.0, *t, 2.0), count(*t, *t), with_default(*t),
            max(*t), min(*a.shape), math.hypot(*t), np.zeros(a.shape).sum(), count(*a.shape))


def unpacks_a_call(t):
    return count(*tuple_of(t))


def tuple_of(t):
    return t


def unpacks_a_number(x):
    return count(*x)


def biggest(t):
    return max(*t)


def unpacks_tuples_of_two_lengths(a, b):
    # One call site, specialised for a pair and for a triple.
    return biggest((a, b)) + biggest((a, b, 100))


def enumerates_no_arguments(a, *rest):
    for i, r in enumerate(rest):
        a += r * i
    return a
