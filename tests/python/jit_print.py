"""print() in compiled code, run interpreted and compiled by
test_jit_print.py."""

import sys

import numpy as np

from plait.testing import jit_rendezvous


def numbers(i, x, b, z):
    print(i, x, b, z)
    print(-i, x * 2.0, not b, z.conjugate(), None)


def numpy_scalars(i, x):
    print(np.int8(i % 100), np.uint8(i % 200), np.int16(i % 30000), np.int32(i % 10**9), np.uint64(i * i))
    print(np.float16(x), np.float32(x), np.float64(x), np.bool_(i > 0), np.complex64(x + 1j), np.complex128(1j * x))


def arrays(a):
    print(a)
    print(a[::-1], a.shape, a.size)
    print(a.reshape(2, -1), a.reshape(2, -1).T)
    print(a.astype(np.int32), a > 0, a.astype(np.complex128))


def strings_and_tuples(i, x):
    print("i =", i, "and x =", x, "done")
    print("unicode: π ≈", 3.14159, "✓")
    print((i, (x, i), ()))
    print()


def keywords(i, x):
    print(i, x, sep="")
    print(i, x, sep=", ", end=";\n")
    print(i, end="")
    print(x, end="\n", flush=True)
    print(i, x, sep=None, end=None)


def fstrings(i, x):
    print(f"{i}|{x}|{i:>5}|{x:.3f}|{x!r}|{i:x}|{x:e}|{i:+,}|{x:10.2%}")
    print(f"{i=} {x=:.2f}", f"{{literal}} {i!s:>4}", f"{x!a}")


def prints_in_a_loop(n):
    total = 0
    for k in range(n):
        total += k
        print("step", k, total)
    return total


def result_of_print(i):
    r = print(i)
    return r


def print_twice_meeting(barrier, i):
    # Both threads detached at once (the rendezvous), then each prints
    # through the interpreter, re-attaching.
    met = jit_rendezvous(barrier, 2, 60.0)
    print(f"thread {i} met {met}\n", end="")  # (one write: lines stay whole)
    return met


def to_the_streams(i, x):
    print(i, file=None)
    print("error", i, x, file=sys.stderr)
    print(f"{x:.2f}", sep="-", end="|", file=sys.stdout, flush=True)
    print(x, file=sys.stderr, flush=True)


def to_a_file(i, f):
    print(i, file=f)


def a_function(i):
    print(numbers)


def print_failure_caught(x):
    # (A closed stdout: print raises; except Exception catches it, the
    # finally's print keeps the first failure for the re-raise.)
    try:
        print(x)
    except Exception:
        return -1
    return 1


def print_failure_in_finally(x):
    try:
        print(x)
    finally:
        print(x + 1)
