"""The math module's float functions that CPython computes with its own
algorithms rather than the C library's (math.gamma, lgamma, hypot, dist,
fsum, prod, remainder, and frexp, ldexp, modf, isclose, ulp around the C
library's), ported from CPython's Modules/mathmodule.c operation for
operation so that compiled results match the interpreter's bit for bit.
The C library functions they call are plait._libm's intrinsics (the
same C library CPython calls). Registered on plait.overload."""

from __future__ import annotations

import math
import sys
from typing import Any

from . import types
from ._overload import overload, with_numpy
from .errors import TypingError, UnsupportedError
from ._libm import cbrt, copysign, cos, exp, fabs, floor, fma, fmod, log, logb, nextafter, pow, sin, sqrt
from ._libm import round as c_round

#: NumPy, for the implementations that make arrays (bound by with_numpy).
np: Any = None

# -- gamma and lgamma (m_tgamma, m_lgamma: Lanczos, N=13, g=6.0246...) ----

_LANCZOS_G = 6.024680040776729583740234375
_LANCZOS_G_MINUS_HALF = 5.524680040776729583740234375
_LANCZOS_NUM = (
    23531376880.410759688572007674451636754734846804940,
    42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843,
    17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708,
    1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801,
    31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768,
    186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024,
    210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
)
_LANCZOS_DEN = (
    0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0,
    13339535.0, 2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0,
)
# Gamma of 1 through 23: exact.
_GAMMA_INTEGRAL = (
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0, 362880.0,
    3628800.0, 39916800.0, 479001600.0, 6227020800.0, 87178291200.0,
    1307674368000.0, 20922789888000.0, 355687428096000.0,
    6402373705728000.0, 121645100408832000.0, 2432902008176640000.0,
    51090942171709440000.0, 1124000727777607680000.0,
)
_PI = 3.141592653589793238462643383279502884197
_LOGPI = 1.144729885849400174143427351353058711647


def _sinpi(x):
    """sin(pi * x) for finite x, exact at the integers and half-integers."""
    y = fmod(fabs(x), 2.0)
    n = int(c_round(2.0 * y))
    if n == 0:
        r = sin(_PI * y)
    elif n == 1:
        r = cos(_PI * (y - 0.5))
    elif n == 2:
        r = sin(_PI * (1.0 - y))
    elif n == 3:
        r = -cos(_PI * (y - 1.5))
    else:
        r = sin(_PI * (y - 2.0))
    return copysign(1.0, x) * r


def _lanczos_sum(x):
    num = 0.0
    den = 0.0
    # Small x: the rational function in x; large: in 1/x (no overflow).
    if x < 5.0:
        for i in range(12, -1, -1):
            num = num * x + _LANCZOS_NUM[i]
            den = den * x + _LANCZOS_DEN[i]
    else:
        for i in range(13):
            num = num / x + _LANCZOS_NUM[i]
            den = den / x + _LANCZOS_DEN[i]
    return num / den


def _gamma_domain_names_value() -> bool:
    """Whether this CPython's gamma and lgamma name the argument of a domain
    error ("expected a noninteger or positive integer, got 0.0", 3.14 on)
    or not ("math domain error")."""
    try:
        math.gamma(0.0)
    except ValueError as error:
        return str(error) != "math domain error"
    return False


_GAMMA_DOMAIN_NAMES_VALUE = _gamma_domain_names_value()


def _gamma(x):
    x = float(x)
    if x != x:
        return x
    if x == math.inf:
        return x
    if x == -math.inf:
        if _GAMMA_DOMAIN_NAMES_VALUE:
            raise ValueError(f"expected a noninteger or positive integer, got {x!r}")
        raise ValueError("math domain error")
    if x == 0.0:
        if _GAMMA_DOMAIN_NAMES_VALUE:
            raise ValueError(f"expected a noninteger or positive integer, got {x!r}")
        raise ValueError("math domain error")
    if x == floor(x):
        if x < 0.0:
            if _GAMMA_DOMAIN_NAMES_VALUE:
                raise ValueError(f"expected a noninteger or positive integer, got {x!r}")
            raise ValueError("math domain error")
        if x <= 23.0:
            return _GAMMA_INTEGRAL[int(x) - 1]
    absx = fabs(x)
    if absx < 1e-20:
        r = 1.0 / x
        if r == math.inf or r == -math.inf:
            raise OverflowError("math range error")
        return r
    if absx > 200.0:
        if x < 0.0:
            return 0.0 / _sinpi(x)
        raise OverflowError("math range error")
    y = absx + _LANCZOS_G_MINUS_HALF
    # The error of y, corrected for below.
    if absx > _LANCZOS_G_MINUS_HALF:
        q = y - absx
        z = q - _LANCZOS_G_MINUS_HALF
    else:
        q = y - _LANCZOS_G_MINUS_HALF
        z = q - absx
    z = z * _LANCZOS_G / y
    if x < 0.0:
        r = -_PI / _sinpi(absx) / absx * exp(y) / _lanczos_sum(absx)
        r -= z * r
        if absx < 140.0:
            r /= pow(y, absx - 0.5)
        else:
            sqrtpow = pow(y, absx / 2.0 - 0.25)
            r /= sqrtpow
            r /= sqrtpow
    else:
        r = _lanczos_sum(absx) / exp(y)
        r += z * r
        if absx < 140.0:
            r *= pow(y, absx - 0.5)
        else:
            sqrtpow = pow(y, absx / 2.0 - 0.25)
            r *= sqrtpow
            r *= sqrtpow
    if r == math.inf or r == -math.inf:
        raise OverflowError("math range error")
    return r


def _lgamma(x):
    x = float(x)
    if x != x:
        return x
    if x == math.inf or x == -math.inf:
        return math.inf
    if x == floor(x) and x <= 2.0:
        if x <= 0.0:
            if _GAMMA_DOMAIN_NAMES_VALUE:
                raise ValueError(f"expected a noninteger or positive integer, got {x!r}")
            raise ValueError("math domain error")
        return 0.0
    absx = fabs(x)
    if absx < 1e-20:
        return -log(absx)
    r = log(_lanczos_sum(absx)) - _LANCZOS_G
    r += (absx - 0.5) * (log(absx + _LANCZOS_G - 0.5) - 1)
    if x < 0.0:
        # The reflection formula.
        r = _LOGPI - log(fabs(_sinpi(absx))) - log(absx) - r
    if r == math.inf or r == -math.inf:
        raise OverflowError("math range error")
    return r


# -- hypot and dist (vector_norm) -------------------------------------------

_DBL_MIN = 2.2250738585072014e-308
_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's constant


def _frexp_exponent(x):
    """frexp(x)[1] of a finite x > 0: x = m * 2**e with 0.5 <= m < 1."""
    return int(logb(x)) + 1


def _fast_sum(a, b):
    """a + b and its rounding error, for |a| >= |b| (CPython's dl_fast_sum)."""
    total = a + b
    return total, (a - total) + b


def _product(a, b):
    """a * b and its rounding error, by fma (CPython 3.12+'s dl_mul)."""
    product = a * b
    return product, fma(a, b, -product)


def _split(x):
    """x as hi + lo, halves of its bits (Veltkamp-Dekker, CPython 3.11)."""
    t = x * _SPLIT
    hi = t - (t - x)
    return hi, x - hi


def _scale_of(largest):
    """The power of two that brings `largest` into [0.5, 1): exact."""
    return pow(2.0, float(-_frexp_exponent(largest)))


def _norm_fma(vec, divisor, largest):
    """CPython 3.12+'s vector_norm of |v| / divisor for v in vec: squares
    made exact with fma, sums compensated, a differential correction of
    the root. `largest` is the largest |v| / divisor."""
    scale = _scale_of(largest)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for v in vec:
        x = fabs(float(v)) / divisor
        x *= scale
        hi, lo = _product(x, x)
        csum, error = _fast_sum(csum, hi)
        frac1 += lo
        frac2 += error
    h = sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = _product(-h, h)
    csum, error = _fast_sum(csum, hi)
    frac1 += lo
    frac2 += error
    x = csum - 1.0 + (frac1 + frac2)
    h += x / (2.0 * h)
    return h / scale


def _norm_split(vec, divisor, largest):
    """CPython 3.11's vector_norm: the same with squares made exact by
    Veltkamp-Dekker splitting and three compensation terms."""
    scale = _scale_of(largest)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    frac3 = 0.0
    for v in vec:
        x = fabs(float(v)) / divisor
        x *= scale
        hi, lo = _split(x)
        csum, error = _fast_sum(csum, hi * hi)
        frac1 += error
        csum, error = _fast_sum(csum, 2.0 * hi * lo)
        frac2 += error
        frac3 += lo * lo
    h = sqrt(csum - 1.0 + (frac1 + frac2 + frac3))
    hi, lo = _split(h)
    csum, error = _fast_sum(csum, -hi * hi)
    frac1 += error
    csum, error = _fast_sum(csum, -2.0 * hi * lo)
    frac2 += error
    csum, error = _fast_sum(csum, -lo * lo)
    frac3 += error
    x = csum - 1.0 + (frac1 + frac2 + frac3)
    return (h + x / (2.0 * h)) / scale


def _norm_divided(vec, largest):
    """CPython 3.11's vector_norm where scaling by a power of two would
    overflow (largest below 2**-1024): each divided by the largest."""
    csum = 1.0
    frac = 0.0
    for v in vec:
        x = fabs(float(v)) / largest
        csum, error = _fast_sum(csum, x * x)
        frac += error
    return largest * sqrt(csum - 1.0 + frac)


def _norm_tiny_rescaled(vec, largest):
    """CPython 3.12+'s: subnormals made normal first (dividing by DBL_MIN
    is exact)."""
    return _DBL_MIN * _norm_fma(vec, _DBL_MIN, largest / _DBL_MIN)


# The interpreter's algorithms, chosen when plait is imported.
_norm = _norm_split if sys.version_info < (3, 12) else _norm_fma
_norm_tiny = _norm_divided if sys.version_info < (3, 12) else _norm_tiny_rescaled


def _vector_norm(vec):
    """sqrt(sum of squares) of vec's numbers (a tuple or 1-D array) as
    CPython's vector_norm computes it."""
    n = 0
    largest = 0.0
    found_nan = False
    for v in vec:
        x = fabs(float(v))
        found_nan |= x != x
        if x > largest:
            largest = x
        n += 1
    if largest == math.inf:
        return largest
    if found_nan:
        return math.nan
    if largest == 0.0 or n <= 1:
        return largest
    if _frexp_exponent(largest) < -1023:
        return _norm_tiny(vec, largest)
    return _norm(vec, 1.0, largest)


def _hypot(*coordinates):
    return _vector_norm(coordinates)


def _hypot_any(*coordinates):
    return _vector_norm(np.array(coordinates, np.float64))


def _dist(p, q):
    if len(p) != len(q):
        raise ValueError("both points must have the same number of dimensions")
    n = len(p)
    diffs = np.empty(n)
    for i in range(n):
        diffs[i] = float(p[i]) - float(q[i])
    return _vector_norm(diffs)


def _dist_any(p, q):
    return _dist(np.array(p, np.float64), np.array(q, np.float64))


# -- fsum (Shewchuk's exact partials) and prod ------------------------------


def _fsum(iterable):
    partials = np.empty(32)
    n = 0
    special_sum = 0.0
    inf_sum = 0.0
    lo = 0.0
    for item in iterable:
        x = float(item)
        xsave = x
        i = 0
        for j in range(n):
            y = float(partials[j])
            if fabs(x) < fabs(y):
                x, y = y, x
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                partials[i] = lo
                i += 1
            x = hi
        n = i
        if x != 0.0:
            if not (x - x == 0.0):  # not finite
                if xsave - xsave == 0.0:
                    raise OverflowError("intermediate overflow in fsum")
                if xsave == math.inf or xsave == -math.inf:
                    inf_sum += xsave
                special_sum += xsave
                n = 0
            else:
                if n == len(partials):
                    grown = np.empty(2 * n)
                    grown[:n] = partials
                    partials = grown
                partials[n] = x
                n += 1
    if special_sum != 0.0:
        if inf_sum != inf_sum:
            raise ValueError("-inf + inf in fsum")
        return special_sum
    hi = 0.0
    if n > 0:
        n -= 1
        hi = float(partials[n])
        # Sum from the top while the sum stays exact.
        while n > 0:
            x = hi
            n -= 1
            y = float(partials[n])
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        # Half-even rounding across partials.
        if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or (lo > 0.0 and partials[n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


def _fsum_any(iterable):
    return _fsum(np.array(iterable, np.float64))


def _prod(iterable, start=1):
    result = start
    for item in iterable:
        result = result * item
    return result


def _prod_ints(iterable, start=1):
    # CPython's ints do not overflow: a zero factor makes any product 0,
    # and without one, a product that overflows int64 grows to the end.
    for item in iterable:
        if item == 0:
            return 0
    return _prod(iterable, start)


# -- the rest: frexp, ldexp, modf, remainder, isclose, ulp, cbrt, nextafter ---


def _frexp(x):
    x = float(x)
    if x != x or x - x != 0.0 or x == 0.0:
        return x, 0
    # Subnormals scaled up first: every step multiplies by a power of two
    # and gives a normal number, so each is exact.
    shift = 0
    if fabs(x) < 2.0**-1000:
        x *= 2.0**100
        shift = 100
    e = int(logb(x)) + 1
    return x * pow(2.0, float(-e)), e - shift


def _ldexp(x, i):
    # C's ldexp (musl's scalbn): one rounding, in the last multiplication;
    # a result bound for the subnormals is scaled so that it rounds once.
    x = float(x)
    if x == 0.0 or x - x != 0.0:
        return x
    n = int(i)
    if n > 1023:
        x *= 2.0**1023
        n -= 1023
        if n > 1023:
            x *= 2.0**1023
            n -= 1023
            if n > 1023:
                n = 1023
    elif n < -1022:
        x *= 2.0**-969  # 2**-1022 * 2**53
        n += 969
        if n < -1022:
            x *= 2.0**-969
            n += 969
            if n < -1022:
                n = -1022
    r = x * pow(2.0, float(n))
    if r - r != 0.0:
        raise OverflowError("math range error")
    return r


def _modf(x):
    x = float(x)
    if x != x:
        return x, x
    if x - x != 0.0:
        return copysign(0.0, x), x
    whole = floor(x) if x >= 0.0 else -floor(-x)
    return copysign(x - whole, x), whole


def _remainder(x, y):
    x = float(x)
    y = float(y)
    if x - x == 0.0 and y - y == 0.0:
        if y == 0.0:
            raise ValueError("math domain error")
        absx = fabs(x)
        absy = fabs(y)
        m = fmod(absx, absy)
        # m against its complement (0.5 * absy may not be representable).
        c = absy - m
        if m < c:
            r = m
        elif m > c:
            r = -c
        else:
            # Halfway: the even multiple (every step exact).
            r = m - 2.0 * fmod(0.5 * (absx - m), absy)
        return copysign(1.0, x) * r
    if x != x:
        return x
    if y != y:
        return y
    if x - x != 0.0:
        raise ValueError("math domain error")
    return x


def _isclose(a, b, rel_tol=1e-09, abs_tol=0.0):
    a = float(a)
    b = float(b)
    rel_tol = float(rel_tol)
    abs_tol = float(abs_tol)
    if rel_tol < 0.0 or abs_tol < 0.0:
        raise ValueError("tolerances must be non-negative")
    if a == b:
        return True
    if a == math.inf or a == -math.inf or b == math.inf or b == -math.inf:
        return False
    diff = fabs(b - a)
    return diff <= fabs(rel_tol * b) or diff <= fabs(rel_tol * a) or diff <= abs_tol


def _ulp(x):
    x = float(x)
    if x != x:
        return x
    x = fabs(x)
    if x == math.inf:
        return x
    above = nextafter(x, math.inf)
    if above == math.inf:
        # x is the largest float.
        return x - nextafter(x, -math.inf)
    return above - x


def _cbrt(x):
    return cbrt(float(x))


def _nextafter(x, y):
    return nextafter(float(x), float(y))


def _fma(x, y, z):
    x = float(x)
    y = float(y)
    z = float(z)
    r = fma(x, y, z)
    if r - r == 0.0:
        return r
    if r != r:
        if x == x and y == y and z == z:
            raise ValueError("invalid operation in fma")
    elif x - x == 0.0 and y - y == 0.0 and z - z == 0.0:
        raise OverflowError("overflow in fma")
    return r


# -- registration ------------------------------------------------------------


def _real(t: Any, name: str) -> None:
    if not types.is_number(t) or isinstance(t, types.Complex) or (
        isinstance(t, types.NumPyScalar) and t.dtype.kind == "c"
    ):
        raise TypingError(f"{name} argument must be a real number, not {t}")


def _uniform(elements: Any) -> bool:
    """Numbers a for loop can take one by one: of one type."""
    return len(elements) > 0 and all(e == elements[0] for e in elements)


def _sequence(t: Any, name: str) -> str:
    """What these functions iterate over in compiled code: a 1-D array of
    real numbers ("uniform"), or a tuple of them: "uniform" (one type),
    "empty" or "mixed"."""
    if isinstance(t, types.Array):
        if t.ndim != 1 or t.dtype.kind == "c":
            raise TypingError(f"{name} takes a 1-D array of real numbers, not {t}")
        return "uniform"
    if isinstance(t, types.Tuple):
        for element in t.elements:
            _real(element, name)
        return "uniform" if _uniform(t.elements) else "mixed" if t.elements else "empty"
    raise TypingError(f"{name} takes a tuple or a 1-D array of real numbers, not {t}")


@overload(math.gamma)
def _gamma_typer(x):
    _real(x, "gamma()")
    return _gamma


@overload(math.lgamma)
def _lgamma_typer(x):
    _real(x, "lgamma()")
    return _lgamma


@overload(math.hypot)
def _hypot_typer(*coordinates):
    for t in coordinates:
        _real(t, "hypot()")
    # (No coordinates: the loops run no times, as CPython's.)
    return _hypot if not coordinates or _uniform(coordinates) else with_numpy(globals(), _hypot_any)


@overload(math.dist)
def _dist_typer(p, q):
    kinds = {_sequence(p, "dist()"), _sequence(q, "dist()")}
    return with_numpy(globals(), _dist if kinds == {"uniform"} else _dist_any)


@overload(math.fsum)
def _fsum_typer(iterable):
    kind = _sequence(iterable, "fsum()")
    return with_numpy(globals(), _fsum_any if kind == "mixed" else _fsum)


@overload(math.prod)
def _prod_typer(iterable, start=1):
    if isinstance(start, types.Type) and not types.is_number(start):
        raise TypingError(f"prod() takes a number as start, not {start}")
    kind = _sequence(iterable, "prod()")
    if kind == "mixed":
        # Each product's type depends on the factors so far.
        raise UnsupportedError(
            f"prod() of {iterable}: the factors of a tuple must have one type (or pass an array)"
        )
    python_ints = (types.Integer, types.Boolean)
    if kind == "uniform" and isinstance(iterable, types.Tuple) and isinstance(iterable.elements[0], python_ints):
        if not isinstance(start, types.Type) or isinstance(start, python_ints):
            return _prod_ints
    return _prod


def _reals(name: str, implementation: Any) -> Any:
    """A type-level function of real numbers (floats, ints, bools, NumPy's
    real scalars) choosing `implementation`."""

    def typer(*args: Any) -> Any:
        for t in args:
            _real(t, name)
        return implementation

    return typer


overload(math.frexp)(_reals("frexp()", _frexp))
overload(math.modf)(_reals("modf()", _modf))
overload(math.remainder)(_reals("remainder()", _remainder))
overload(math.ulp)(_reals("ulp()", _ulp))
overload(math.nextafter)(_reals("nextafter()", _nextafter))
overload(math.cbrt)(_reals("cbrt()", _cbrt))
if hasattr(math, "fma"):  # (3.13+)
    overload(math.fma)(_reals("fma()", _fma))


@overload(math.ldexp)
def _ldexp_typer(x, i):
    _real(x, "ldexp()")
    if not isinstance(i, (types.Integer, types.Boolean)):
        raise TypingError("Expected an int as second argument to ldexp.")
    return _ldexp


@overload(math.isclose)
def _isclose_typer(a, b, rel_tol=1e-09, abs_tol=0.0):
    for t in (a, b, rel_tol, abs_tol):
        if isinstance(t, types.Type):
            _real(t, "isclose()")
    return _isclose
