"""Plain Python functions (no decorator) called from jitted code, which
compiles them with it; test_jit_implicit_calls.py runs them."""

import numpy as np


def scale(a, k):
    return a * k + 1


def relu(x):
    return x * (x > 0)


def layer(x, w):
    return relu(x @ w)


def network(x, w1, w2):
    return layer(layer(x, w1), w2)


def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


def even(n):
    return True if n == 0 else odd(n - 1)


def odd(n):
    return False if n == 0 else even(n - 1)


def entry(a, n):
    return np.sum(scale(a, 2.0)), factorial(n), even(n)


def add_one(x):
    return x + 1


def add_two(x):
    return x + 2


def calls_add_one(x):
    return add_one(x)


make_lambda = lambda x: x + 1  # noqa: E731 - a lambda has no def to read


def calls_a_lambda(x):
    return make_lambda(x)
