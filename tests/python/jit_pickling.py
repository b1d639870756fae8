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
