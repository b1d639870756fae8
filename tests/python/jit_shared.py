"""Functions for the executor-sharing tests (they need real source files)."""

OFFSET = 10


def fresh_add(a, b):
    return a + b * 2


def fresh_broken(a, b):
    y = 1
    if a:
        y = (a, b)
    return y


def first_function(x):
    return x * 5 + 1


def second_function(x):
    return x * 7 - 1


def reads_offset(x):
    return x + OFFSET


def locals_named_like_globals(n):
    # `total`, `i` and `scale` are this function's own variables; the
    # module's globals of the same names are never read.
    total = 0.0
    for i in range(n):
        scale = i * 0.5
        total += scale + OFFSET
    inner = lambda: total + i  # noqa: E731 (cells of the locals)
    return inner()


def callee(x):
    return x + 1


def caller(x):
    return callee(x) * 2


def churn(x):
    return x * 3 + 1
