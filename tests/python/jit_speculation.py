"""Functions whose loops plait versions speculatively (nothing observable
happens before them) or not (something does), run interpreted and compiled
by test_jit_speculation.py."""

import math

LIMIT = 10


def sum_of_squares(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def fill(out, n):
    # Past len(out) the guard fails: the compiled code runs again without
    # speculation, writes every element in range, then raises IndexError.
    for i in range(n):
        out[i] = i * 2.0


def note_then_sum(note, n):
    # The increment would repeat if the function ran again: no speculation.
    note[0] += 1
    total = 0
    for i in range(n):
        total += i * i
    return total


def read_then_fill(a, out, n):
    # Reads before the loop are fine to repeat.
    first = a[0] + math.sqrt(abs(a[0]))
    for i in range(n):
        out[i] = first + i
    return first


def two_loops(out, n, m):
    total = 0
    for i in range(n):
        total += i * i
    for j in range(m):
        out[j] = total + j
    return total


def guarded_sum(n):
    try:
        total = 0
        for i in range(n):
            total += i * i
        return total
    except OverflowError:
        return -1


def calls_sum_of_squares(n):
    return sum_of_squares(n) + 1


def sum_below_limit(n):
    total = 0
    for i in range(n):
        total += i * LIMIT
    return total
