"""Generator expressions and list comprehensions that sum(), min(), max(),
any() and all() consume, and those builtins over tuples and arrays; run
interpreted and compiled by test_jit_generators.py."""

import numpy as np


def sums(a, n, start):
    return (
        sum(x * x for x in a),
        sum(i for i in range(n)),
        sum((x * 0.1 for x in a), start),
        sum([j * 0.1 for j in range(n)], start=start),
        sum(np.float64(i) for i in range(n)),
        sum(i % 3 == 0 for i in range(n)),
    )


def sum_of_floats(t, start):
    # Python floats: CPython 3.12+ compensates (from the first float after
    # an int start), 3.11 adds plainly.
    return sum(t), sum(t, start), sum(x for x in t), sum((x for x in t), start)


def builtins_over_sequences(a, t):
    return sum(a), sum(t), sum(t, 10), any(a), all(a), any(t), all(t), sum(()), any(()), all(())


def min_max(a, n):
    return (
        min(x for x in a),
        max(x for x in a if x == x),
        min((i * i - 3 * i for i in range(n)), default=-100),
        max([-x for x in a]),
        min(abs(i - 2.5) for i in range(n + 1)),
    )


def min_of_nothing(n):
    return min(i for i in range(n))


def max_of_nothing(a):
    return max(x for x in a if x > 1e300)


def stops_at_the_first(n):
    # CPython stops at k == 1: the division by zero at k == 3 never runs.
    return any(10 // (k - 3) > 100 or k == 1 for k in range(n)), all(k < 1 or 10 // (k - 3) > 100 for k in range(n))


def list_comprehension_makes_every_item(n):
    # A list comprehension makes all its items first: the division by zero
    # runs even though an earlier item decides.
    return any([k == 1 or 10 // (k - 3) > 0 for k in range(n)])


def nested_and_captured(a, n, scale):
    offset = n // 2
    return (
        sum(i * j for i in range(n) for j in range(i) if (i + j) % 2 == 0),
        sum(scale * (x + offset) for x in a),
        max(sum(k for k in range(i)) for i in range(1, n + 1)),
        sum(x * y for x, y in zip(a, a[::-1])),
        sum(i * x for i, x in enumerate(a)),
    )


def iterable_once(a):
    # The outermost iterable is evaluated once, where it is written.
    return sum(v for v in a * 2.0) + sum(v for v in a[1:])


def sum_of_rows(m, start):
    return sum(m), sum(m, start)


def any_of_rows(m):
    return any(m)


def sum_of_mixed(a, b):
    return sum((a, b))


def generator_value(a):
    g = (x for x in a)
    return sum(g)


def extremes_by_key(a, limit):
    return (min((x for x in a), key=lambda v: abs(v - limit)),
            max((x * 2 for x in a if x > limit), key=lambda v: -v, default=limit - 1),
            max((x for x in a), key=None))


sum = sum  # noqa: PLW0127 - a global named sum: still the builtin


def shadowed(n):
    def sum(values):  # a local sum is not the builtin: not rewritten
        return -1

    return sum(i for i in range(n))
