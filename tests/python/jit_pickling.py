"""Jitted functions for the pickling tests: importable ones pickle by name."""

import math

import plait

SCALE = 3.0


@plait.jit
def importable_kernel(x, n):
    total = 0.0
    for i in range(n):
        total += math.sqrt(x + i) * SCALE
    return total


@plait.jit(overflow="wrap")
def wrapping_square(x):
    return x * x


def make_closure(offset):
    """A jitted closure: not importable, so pickled by value."""

    @plait.jit
    def shifted(x):
        return importable_kernel(x, 3) + offset

    return shifted


def call(fn, *args):
    """Calls `fn` in a worker process; returns the result and whether the
    worker compiled it there."""
    before = plait.stats()["compilations"]
    result = fn(*args)
    return result, plait.stats()["compilations"] > before


EPS = 1e-3


def make_recursive():
    """Local (so pickled by value) recursive and mutually recursive
    functions, with a default that reads a global and an annotation."""

    @plait.jit
    def fib(n: "Unresolvable", eps=EPS) -> "AlsoUnresolvable":  # noqa: F821 - never evaluated
        return n if n < 2 else fib(n - 1) + fib(n - 2) + eps * 0

    @plait.jit
    def even(n):
        return True if n == 0 else odd(n - 1)

    @plait.jit
    def odd(n):
        return False if n == 0 else even(n - 1)

    return fib, even
