"""Plain Python functions compiled by the tests (they need real source files)."""

from __future__ import annotations

import math
from math import sqrt

LIMIT = 10
SCALE = 2.5
PAIR = (3, 4.5)
FLAG = True


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def truediv(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def divisible(a, b):
    # Remainders only compared with zero: compiled without the sign fix-up.
    if a % b == 0:
        return 1
    return 2 if 0 != a % b else 3


def remainder_tested_and_used(a, b):
    r = a % b
    return r if r != 0 else -1


def power(a, b):
    return a ** b


def square(a):
    return a ** 2


def neg(a):
    return -a


def pos(a):
    return +a


def invert(a):
    return ~a


def logical_not(a):
    return not a


def bits(a, b):
    return a & b, a | b, a ^ b


def shifts(a, b):
    return a << b, a >> b


def compare_all(a, b):
    return a < b, a <= b, a == b, a != b, a > b, a >= b


def chained(a, b, c):
    return a < b <= c


def and_or(a, b):
    return a and b, a or b


def ternary(a, b):
    return a if a > b else b


def truthy(a):
    if a:
        return 1
    return 0


def builtins_unary(a):
    return abs(a), int(a), float(a), bool(a)


def rounding(a):
    return round(a)


def min_max(a, b, c):
    return min(a, b, c), max(a, b, c), min((a, b)), max((b, c))


def div_mod(a, b):
    return divmod(a, b)


def power3(a, b, m):
    return pow(a, b, m)


def math_one(x):
    return (
        math.sqrt(x),
        math.exp(x),
        math.log(x),
        math.sin(x),
        math.atan(x),
        math.tanh(x),
    )


def math_more(x):
    return (
        math.exp2(x),
        math.expm1(x),
        math.cos(x),
        math.tan(x),
        math.sinh(x),
        math.cosh(x),
        math.asinh(x),
        math.erf(x),
        math.erfc(x),
        math.fabs(x),
    )


def math_inverse(x):
    return math.asin(x), math.acos(x), math.atanh(x), math.acosh(x)


def math_sqrt(x):
    return sqrt(x)


def math_log(x):
    return math.log(x), math.log2(x), math.log10(x), math.log1p(x)


def math_two(x, y):
    return math.atan2(x, y), math.copysign(x, y), math.fmod(x, y), math.pow(x, y)


def math_int(x):
    return math.floor(x), math.ceil(x), math.trunc(x)


def math_predicates(x):
    return math.isnan(x), math.isinf(x), math.isfinite(x), math.degrees(x), math.radians(x)


def math_constants():
    return math.pi, math.e, math.tau, math.inf


def sum_range(start, stop, step):
    total = 0
    for i in range(start, stop, step):
        total += i
    return total


def range_walk(start, stop, step):
    count = 0
    last = 0
    for i in range(start, stop, step):
        count += 1
        last = i
    return count, last


def last_index(n):
    i = -1
    for i in range(n):
        pass
    return i


def while_loop(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 50:
            break
        total += i * i
    else:
        total = -total
    return total


def for_else(n):
    for i in range(n):
        if i == 5:
            break
    else:
        return -1
    return i


def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def swap(a, b):
    a, b = b, a
    return a, b


def unpack(t_a, t_b):
    pair = (t_a, t_b)
    x, y = pair
    return y, x, pair[0], pair[-1], len(pair)


def early_return(x):
    if x > 10:
        return 1.5
    elif x > 0:
        return 2
    return 0


def no_return(x):
    x += 1


def globals_read(x):
    return x * LIMIT + SCALE + PAIR[0] + PAIR[1] if FLAG else 0.0


def unbound(x):
    if x > 0:
        y = x
    return y


def docstring(x):
    """A docstring is a no-op statement."""
    return x


def mixed_var(x):
    acc = 0
    for i in range(x):
        acc += 0.5
    return acc


def cube(x):
    return x * x * x


def helper_default(x, scale=3):
    return x * scale


def uses_helpers(x):
    return cube(x) + helper_default(x) + helper_default(x, scale=2) + helper_default(scale=1, x=x)


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def runaway(n):
    return runaway(n + 1)


def long_loop(n):
    s = 0
    for i in range(n):
        s = (s + i * i) % 1000003
    return s


def read_before_assigned_in_a_loop(n, k):
    # y is bound from the second iteration on: read on the first when k == 0.
    total = 0
    for i in range(n):
        if i >= k:
            total += y  # noqa: F821 - may be unbound: CPython's UnboundLocalError
        y = i * 2
    return total


def bound_by_the_loop(n):
    for i in range(n):
        last = i
    return last  # unbound when the loop does not run
