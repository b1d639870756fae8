"""math's integer functions, run interpreted and compiled by
test_jit_math_integers.py."""

import math


def gcd_lcm(a, b, c):
    return math.gcd(a, b), math.gcd(a, b, c), math.gcd(), math.gcd(a), math.lcm(a, b), math.lcm(a, b, c), math.lcm()


def isqrt(n):
    return math.isqrt(n)


def factorial(n):
    return math.factorial(n)


def comb(n, k):
    return math.comb(n, k)


def perm(n, k):
    return math.perm(n, k)


def perm_all(n):
    return math.perm(n)


def of_a_float(x):
    return math.factorial(x)
