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


def callee(x):
    return x + 1


def caller(x):
    return callee(x) * 2


def churn(x):
    return x * 3 + 1
