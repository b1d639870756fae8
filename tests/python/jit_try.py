"""try/except/else/finally, compiled and interpreted (test_jit_try.py
compares them)."""

from __future__ import annotations

import numpy as np


class SolverError(ValueError):
    pass


class Diverged(SolverError):
    pass


def floor_div_or(a, b, fallback):
    try:
        r = a // b
    except ZeroDivisionError:
        r = fallback
    return r


def catches_by_base(x):
    try:
        if x > 10:
            raise Diverged(f"diverged at {x}")
        if x > 5:
            raise SolverError("no progress")
        if x < 0:
            raise KeyError(x)
        return 0
    except SolverError:  # Diverged too
        return 1
    except LookupError:
        return 2


def first_matching_clause(a, b):
    try:
        return a % b
    except ArithmeticError:
        return -1
    except ZeroDivisionError:
        return -2


def tuple_of_classes(x, a):
    try:
        if x == 0:
            raise KeyError
        return float(a[x])
    except (KeyError, IndexError):
        return -1.0


def not_caught(a, b):
    try:
        return a // b
    except KeyError:
        return -1


def else_and_finally(x, log):
    # log records what ran, in order.
    n = 0
    try:
        if x < 0:
            raise ValueError("negative")
        log[n] = 1
        n += 1
    except ValueError:
        log[n] = 2
        n += 1
    else:
        log[n] = 3
        n += 1
    finally:
        log[n] = 4
        n += 1
    return n


def finally_runs_on_return(x, log):
    try:
        if x > 0:
            return x * 2
        log[0] += 1
    finally:
        log[1] += 1
    return -x


def return_in_finally_wins(x):
    try:
        if x > 0:
            raise ValueError("lost")
        return 1
    finally:
        if x > 1:
            return 3
    return 2


def loops_with_finally(n, log):
    total = 0
    for i in range(n):
        try:
            if i % 3 == 0:
                continue
            if i == 10:
                break
            total += i
        finally:
            log[0] += 1
    k = 0
    while k < n:
        k += 1
        try:
            if k == 7:
                break
        finally:
            log[1] += 1
    return total


def reraises(x):
    try:
        if x > 0:
            raise SolverError(f"bad {x}")
        return 0
    except SolverError:
        if x > 5:
            raise
        return 1


def reraises_by_name(x):
    try:
        return 10 // x
    except ZeroDivisionError as error:
        raise error


def nested(x):
    try:
        try:
            if x > 2:
                raise KeyError(x)
            return 10 // x
        except ZeroDivisionError:
            raise ValueError("zero")
        finally:
            x = x + 100
    except ValueError:
        return -1
    except KeyError:
        return x


def raises_in_finally(x):
    try:
        return 10 // x
    finally:
        if x < 0:
            raise OverflowError("in finally")


def helper(a, i):
    return float(a[i]) * 2.0


def catches_from_callee(a, i):
    try:
        return helper(a, i)
    except IndexError:
        return -1.0


def depth(n):
    if n == 0:
        raise RecursionError("bottom")
    if n < 0:
        return 0
    return depth(n - 1) + 1


def catches_from_recursion(n):
    try:
        return depth(n)
    except RuntimeError:
        return -n


def counts_failures(a):
    failures = 0
    total = 0.0
    for i in range(a.shape[0]):
        try:
            if a[i] < 0:
                raise ValueError("negative")
            total += 1.0 / float(a[i])
        except ZeroDivisionError:
            failures += 100
        except ValueError:
            failures += 1
    return total, failures


def catches_numpy_errors(a, b):
    try:
        c = a + b
        return float(c.sum())
    except ValueError:
        return -1.0


def raise_from_none(x):
    try:
        return 1 // x
    except ZeroDivisionError:
        raise ValueError(f"x was {x}") from None


def bare_raise_outside_handler(x):
    if x > 0:
        raise
    return x


def catches_everything(x):
    try:
        if x == 1:
            raise KeyError(x)
        if x == 2:
            raise OverflowError
        return 100 // (x - 3)
    except:  # noqa: E722 - the bare form is what is tested
        return -1


def in_place_before_raise(a, i):
    try:
        a[0] = 1.0
        a[i] = 2.0
        a[1] = 3.0
    except IndexError:
        a[0] += 10.0
    return a.sum()


def raises_where(x):
    y = x + 1
    if y > 3:
        raise ValueError(f"too big: {y}")
    return y


def calls_raises_where(x):
    return raises_where(x) * 2


def never_returns(n):
    return never_returns(n + 1) + 1


def uses_caught_value(x):
    try:
        return 1 // x
    except ZeroDivisionError as error:
        return str(error)


def raise_from_error(x):
    try:
        return 1 // x
    except ZeroDivisionError as error:
        raise ValueError("x") from error


def except_not_a_class(x):
    try:
        return 1 // x
    except np:
        return 0


KEEP = (np,)
