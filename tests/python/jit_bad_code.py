"""Functions outside plait.jit's subset; the tests check each error's class
and location (the line numbers below are asserted: keep them stable)."""

import math


def uses_list(x):
    values = [x, (x, x)]
    return values


def returns_a_dtype(x):
    return float


def calls_open(x):
    open(x)
    return x


def uses_with(x):
    with open(x) as f:
        x = f
        return x
    return 0


def int_or_tuple(x):
    y = 1
    if x:
        y = (1, 2)
    return y


def returns_int_or_tuple(x):
    if x:
        return 1
    return (1, 2)


def float_bit_and(x):
    return x & 1.5


def unknown_name(x):
    return x + undefined_name  # noqa: F821


def huge_constant(x):
    return x + 100000000000000000000


def uses_comprehension(x):
    f = [{y} for y in range(x)]
    return f


def math_of_an_int(x):
    return math.fsum(x)


def attribute_of_value(x):
    return x.real


def maybe_none(x):
    if x:
        return 1


def wrong_arity(x):
    return helper_for_arity(x, x)


def helper_for_arity(a):
    return a
