"""Lambdas and inner defs as values, run interpreted and compiled by
test_jit_closures.py."""

import numpy as np


def lambda_called(x, y):
    f = lambda a: a * y + 1  # noqa: E731
    return f(x) + f(2)


def inner_def_with_default(a, k):
    def scale(v, by=2):
        return v * by + k

    return scale(a), scale(a, 3), scale(v=a, by=-1)


def late_binding(x):
    g = lambda: x * 2  # noqa: E731
    x = x + 5
    return g()


def defined_before_its_variable(n):
    def g():
        return total * 2

    total = n + 1
    return g()


def closure_per_iteration(n):
    s = 0
    for i in range(n):
        f = lambda v: v + i  # noqa: E731
        s += f(10)
    return s


def captures_an_array(a, k):
    g = lambda i: a[i] * k  # noqa: E731
    s = 0.0
    for i in range(a.shape[0]):
        s += g(i)
    return float(s)


def closure_calls_closure(x):
    f = lambda a: a + x  # noqa: E731
    g = lambda b: f(b) * 2  # noqa: E731
    return g(3)


def returns_a_closure(x):
    adder = lambda u: lambda v: u + v  # noqa: E731
    return adder(x)(1)


def writes_through_a_closure(a):
    def bump(i):
        a[i] += 1

    bump(0)
    bump(a.shape[0] - 1)
    return a


def apply_to_each(f, a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = f(a[i])
    return out


def passes_a_lambda(a, shift):
    return apply_to_each(lambda v: v * v + shift, a)


def square(v):
    return v * v


def passes_a_function(a):
    return apply_to_each(square, a)


def passes_a_writer(a):
    def bump(i):
        a[i] = -1.0

    call_with(bump, 0)
    return a


def call_with(f, v):
    f(v)


def raises_inside(x):
    f = lambda d: x // d  # noqa: E731
    return f(0)


def fromfunction_2d(n, m):
    return np.fromfunction(lambda i, j: i * 10 + j, (n, m))


def fromfunction_int(a, k):
    return np.fromfunction(lambda i: a[i] * k, (a.shape[0],), dtype=int)


def fromfunction_3d(n):
    return np.fromfunction(lambda i, j, k: i + j * k, (n, 2, 3), dtype=np.float32)


def zeros_with_dtype_default(n, dtype=float):
    return np.zeros(n, dtype)


def dtype_default_used(n):
    return zeros_with_dtype_default(n), zeros_with_dtype_default(n, np.int8)


def calls_itself(n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)

    return fact(n)


def fibonacci_scaled(n, c, a):
    # Recursion reading the enclosing function's variables and writing an
    # array it captured.
    def fib(k):
        a[k % a.shape[0]] += 1.0
        if k < 2:
            return k * c
        return fib(k - 1) + fib(k - 2)

    return fib(n), a


def call_each_other(n):
    def even(k):
        return True if k == 0 else odd(k - 1)

    def odd(k):
        return False if k == 0 else even(k - 1)

    return even(n)


def calls_itself_rebound(n):
    def f(k):
        return 0 if k == 0 else f(k - 1) + 1

    g = f
    f = lambda k: -1  # noqa: E731 - f is rebound: g's recursive call sees it
    return g(n)


def returns_a_function(x):
    return lambda: x


def integrate(f, a, b, n):
    h = (b - a) / n
    s = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        s += f(a + i * h)
    return s * h


def cube(x):
    return x * x * x
