"""The math module's integer functions for compiled code, on plait.overload:
CPython's results and errors (math.gcd, lcm, isqrt, factorial, comb,
perm). Compiled ints are int64: a result beyond it raises OverflowError
where CPython would return a larger int; intermediate values never
overflow before the result does."""

from __future__ import annotations

import math
from typing import Any

from . import types
from ._overload import overload
from .errors import TypingError


def _need_ints(*args: Any) -> None:
    for t in args:
        if not types.is_integral(t):
            raise TypingError(f"'{t}' object cannot be interpreted as an integer")


def _gcd2(a, b):
    a = abs(a)
    b = abs(b)
    while b:
        a, b = b, a % b
    return a


def _lcm2(a, b):
    if a == 0 or b == 0:
        return 0
    return abs(a // _gcd2(a, b) * b)


def _gcd0():
    return 0


def _gcd1(a):
    return abs(int(a))


def _gcd_two(a, b):
    return _gcd2(int(a), int(b))


def _gcd_three(a, b, c):
    return _gcd2(_gcd2(int(a), int(b)), int(c))


def _lcm0():
    return 1


def _lcm_two(a, b):
    return _lcm2(int(a), int(b))


def _lcm_three(a, b, c):
    return _lcm2(_lcm2(int(a), int(b)), int(c))


def _by_arity(*implementations: Any) -> Any:
    """A type-level function of ints choosing the implementation of its
    number of arguments (up to three)."""

    def typer(*args: Any) -> Any:
        _need_ints(*args)
        return implementations[len(args)] if len(args) < len(implementations) else None

    return typer


overload(math.gcd)(_by_arity(_gcd0, _gcd1, _gcd_two, _gcd_three))
overload(math.lcm)(_by_arity(_lcm0, _gcd1, _lcm_two, _lcm_three))


def _isqrt(n):
    n = int(n)
    if n < 0:
        raise ValueError("isqrt() argument must be nonnegative")
    if n == 0:
        return 0
    # The double root is within one of the floor; correct it with
    # divisions (squares of it could overflow int64).
    x = int(math.sqrt(n))
    while x > n // x:
        x -= 1
    while x + 1 <= n // (x + 1):
        x += 1
    return x


@overload(math.isqrt)
def _isqrt_typer(n):
    _need_ints(n)
    return _isqrt


def _factorial(n):
    n = int(n)
    if n < 0:
        raise ValueError("factorial() not defined for negative values")
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


@overload(math.factorial)
def _factorial_typer(n):
    _need_ints(n)
    return _factorial


def _check_n_k(n, k):
    if n < 0:
        raise ValueError("n must be a non-negative integer")
    if k < 0:
        raise ValueError("k must be a non-negative integer")


def _comb(n, k):
    n = int(n)
    k = int(k)
    _check_n_k(n, k)
    if k > n:
        return 0
    if k > n - k:
        k = n - k
    # result = C(n - k + i, i) after step i: divide before multiplying so
    # no step exceeds the result.
    result = 1
    for i in range(1, k + 1):
        g = _gcd2(result, i)
        result = (result // g) * ((n - k + i) // (i // g))
    return result


@overload(math.comb)
def _comb_typer(n, k):
    _need_ints(n, k)
    return _comb


def _perm(n, k):
    n = int(n)
    k = int(k)
    _check_n_k(n, k)
    if k > n:
        return 0
    result = 1
    for i in range(n - k + 1, n + 1):
        result *= i
    return result


def _perm_all(n, k=None):
    return _factorial(n)  # (CPython: perm(n) is factorial(n), its errors too)


@overload(math.perm)
def _perm_typer(n, k=None):
    if isinstance(k, types.NoneType) or k is None:
        _need_ints(n)
        return _perm_all
    _need_ints(n, k)
    return _perm
