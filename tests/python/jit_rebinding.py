"""Functions that re-bind array variables, run by test_jit_rebinding.py under
CPython and under plait.jit (plait reads their source from this file)."""

import numpy as np


def relax(u, steps):
    for _ in range(steps):
        u = u * 0.5 + 1.0
    return u


def relax_while(u, tolerance):
    change = 1.0
    while change > tolerance:
        v = u * 0.5 + 1.0
        change = np.max(np.abs(v - u))
        u = v
    return u


def either_path(a, c):
    if c > 0:
        r = a + 1
    elif c < 0:
        r = a[::2] - 1
    else:
        r = a
    return r


def swap_buffers(a, b, steps):
    for _ in range(steps):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a, b = b, a
    return a


def shrink(a):
    total = 0.0
    while a.shape[0] > 1:
        a = a[::2]
        total += np.sum(a)
    return float(total)


def rebind_then_write(a, b):
    x = a
    x[0] = 7
    x = b
    x[0] = 8
    return x


def returned_from_a_loop(a, n):
    b = a * 2
    for i in range(n):
        b = b + i
        if i == 3:
            return b
    return b


def arrays_in_a_tuple(a, b):
    t = (a, b * 2)
    t = (t[1], t[0])
    return t


def halve(x):
    return x[: x.shape[0] // 2]


def through_callee(a, steps):
    for _ in range(steps):
        a = halve(a + 1)
    return a


def fresh_or_argument(a, fresh):
    x = a * 3 if fresh else a
    x = x + 1 if fresh else x
    return x


def int_then_float_array(n):
    # Two values no read can mix up: two variables (flow-sensitive types).
    x = np.zeros(n, np.int64)
    x = np.ones(n)
    return x


def dtype_by_branch(n, c):
    # Both values reach the return: one variable, two dtypes.
    if c:
        x = np.zeros(n, np.int64)
    else:
        x = np.ones(n)
    return x


def int_then_array(n):
    x = 0
    for i in range(n):
        x += i
    total = x * 2
    x = np.zeros(n + 1)
    x[0] = total
    return x


def scalar_then_array_then_joined(a, c):
    t = a.sum()
    t = a * t
    if c:
        t = t + 1.0
    return t


def unbound_second_value(a, c):
    x = 1
    y = x + 1
    if c:
        x = a * y
    return x[0]


def used_before_assignment(a, c):
    if c:
        x = a + 1
    return x


def constant_memory(u, steps):
    for _ in range(steps):
        u = u + 1.0
        w = u[1:]
        w = w * 1.0
    return u[0]


def raise_midway(a, steps):
    for i in range(steps):
        a = a + 1
        if i == steps // 2:
            a = a[:2] + a[:3]  # ValueError unless a has fewer than 3 elements
    return a


def unpack_rows(p):
    # nbody-style: a difference of two rows unpacked into its components.
    dx, dy = p[1] - p[0]
    first, second = p
    first[0] = dx + dy  # a row is a view: writes reach p
    return dx, dy, second


def unpack_matrix_rows(m, steps):
    total = np.zeros(m.shape[1])
    for _ in range(steps):
        top, bottom = m * 2.0  # rows of a temporary: each keeps it alive
        total = total + top - bottom
    return total


def unpack_three(v):
    a, b, c = v
    return a * b + c
