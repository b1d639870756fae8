"""Functions compiled with options of their own, and callers compiled with
other options (test_jit_options.py). Callers are plain functions here; the
tests compile them with the options each case needs."""

from __future__ import annotations

import plait

FNV_PRIME = 1099511628211
OFFSET = 1469598103934665603  # below 2**63: the first step leaves int64


@plait.jit(overflow="wrap")
def wrapping_step(h, x):
    return h * FNV_PRIME + x


@plait.jit
def checked_step(h, x):
    return h * FNV_PRIME + x


@plait.jit
def checked_read(a, i):
    return a[i]


def plain_step(h, x):
    # No options of its own: it compiles with its caller's compilation's.
    return h * FNV_PRIME + x


def hash_with(step, values):
    # `step` is a jitted function passed in: it keeps its own options.
    h = OFFSET
    for x in values:
        h = step(h, x)
    return h


def hash_with_plain_step(values):
    h = OFFSET
    for x in values:
        h = plain_step(h, x)
    return h


def hash_inline(values):
    h = OFFSET
    for x in values:
        h = h * FNV_PRIME + x
    return h


def read_through_checked_callee(a, i):
    return checked_read(a, i)


@plait.jit(overflow="wrap")
def hash_with_inner_step(values):
    def step(h, x):
        return h * FNV_PRIME + x

    h = OFFSET
    for x in values:
        h = step(h, x)
    return h
