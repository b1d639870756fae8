"""math's float functions with CPython's own algorithms (gamma, lgamma,
hypot, dist, fsum, prod), run interpreted and compiled by
test_jit_math_floats.py."""

import math


def gamma(x):
    return math.gamma(x)


def lgamma(x):
    return math.lgamma(x)


def hypot0():
    return math.hypot()


def hypot1(x):
    return math.hypot(x)


def hypot2(x, y):
    return math.hypot(x, y)


def hypot3(x, y, z):
    return math.hypot(x, y, z)


def hypot5(a, b, c, d, e):
    return math.hypot(a, b, c, d, e)


def dist(p, q):
    return math.dist(p, q)


def fsum(values):
    return math.fsum(values)


def fsum_of_three(a, b, c):
    return math.fsum((a, b, c))


def fsum_of_nothing():
    return math.fsum(())


def prod(values):
    return math.prod(values)


def prod_from(values, start):
    return math.prod(values, start=start)


def prod_of_nothing(start):
    return math.prod((), start=start)


def norm_of_rows(points):
    # hypot and dist in a loop, as a kernel uses them.
    total = 0.0
    for i in range(points.shape[0]):
        total += math.hypot(points[i, 0], points[i, 1]) + math.dist(points[i], points[0])
    return total


def gamma_of_complex(z):
    return math.gamma(z)


def fsum_of_matrix(m):
    return math.fsum(m)


def prod_of_mixed(a, b):
    return math.prod((a, b))


def frexp_ldexp(x, i):
    m, e = math.frexp(x)
    return m, e, math.ldexp(x, i), math.ldexp(m, e)


def modf(x):
    return math.modf(x)


def remainder(x, y):
    return math.remainder(x, y)


def isclose(a, b):
    return math.isclose(a, b), math.isclose(a, b, rel_tol=0.5), math.isclose(a, b, abs_tol=1.0)


def isclose_negative(a, b):
    return math.isclose(a, b, rel_tol=-1.0)


def ulp_cbrt_nextafter(x, y):
    return math.ulp(x), math.cbrt(x), math.nextafter(x, y)


def ldexp_of_a_float(x):
    return math.ldexp(x, 2.0)


def fma(x, y, z):
    return math.fma(x, y, z)


# One math function over an array, as a loop writes it: the compiled call
# tests its argument against the function's quiet range first.


def exp_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.exp(xs[i])


def exp2_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.exp2(xs[i])


def expm1_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.expm1(xs[i])


def sin_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.sin(xs[i])


def cos_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.cos(xs[i])


def tan_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.tan(xs[i])


def asin_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.asin(xs[i])


def acos_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.acos(xs[i])


def atan_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.atan(xs[i])


def sinh_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.sinh(xs[i])


def cosh_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.cosh(xs[i])


def tanh_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.tanh(xs[i])


def asinh_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.asinh(xs[i])


def acosh_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.acosh(xs[i])


def atanh_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.atanh(xs[i])


def erf_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.erf(xs[i])


def erfc_over(xs, out):
    for i in range(xs.shape[0]):
        out[i] = math.erfc(xs[i])


def exp_sum_over(xs, shift):
    # The call's result feeds a reduction, as in a softmax.
    total = 0.0
    for i in range(xs.shape[0]):
        total += math.exp(xs[i] - shift)
    return total
