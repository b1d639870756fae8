"""raise and assert in compiled code, run interpreted and compiled by
test_jit_exceptions.py."""


class DomainError(ValueError):
    """A user's exception class, defined at module level."""


def checks_sign(x):
    if x < 0:
        raise ValueError(f"x must be non-negative, got {x} ({x / 3:.3f}, {x!r}, {x > -5})")
    return x * 2


def asserts(x):
    assert x != 3, f"x is {x:>5}"
    assert x != 4
    assert x < 100, "too big: {not a field}"
    return x


def raises_in_a_loop(a):
    total = 0.0
    for i in range(a.shape[0]):
        if a[i] < 0:
            raise DomainError(f"negative value {a[i]} at {i}")
        total += a[i]
    return float(total)


def raises_in_a_while(n):
    k = 0
    while True:
        k += 1
        if k * k > n:
            raise OverflowError(f"{k}^2 > {n:,}")


def bare_class(x):
    if x > 1:
        raise KeyError
    raise ZeroDivisionError("always {braces}")


def message_is_a_number(x):
    if x != 0:
        raise IndexError(x)
    return 0


def numpy_scalars(a):
    if a[0] > 0:
        raise ArithmeticError(f"{a[0]} {a[0]!r} {a[0]:.2e}")
    return 1


def returns_or_raises(x):
    # Every path returns or raises: the result is an int, never None.
    if x > 0:
        return x + 1
    raise ValueError("not positive")


def asserts_an_array(a):
    assert a
    return 1


def bare_raise(x):
    raise


def raise_from(x):
    raise ValueError("a") from None


def message_of_a_string_value(x):
    raise ValueError("x" + str(x))
