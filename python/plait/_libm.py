"""The C library's math functions as compiled code calls them in NumPy's
loops: IEEE results, no Python exceptions (log(0.0) is -inf, sqrt(-1.0)
nan). Calling them from the interpreter computes the same with NumPy."""

from __future__ import annotations

from typing import Any, Callable

_C_TO_NUMPY = {
    "asin": "arcsin",
    "acos": "arccos",
    "atan": "arctan",
    "asinh": "arcsinh",
    "acosh": "arccosh",
    "atanh": "arctanh",
    "atan2": "arctan2",
    "pow": "power",
    "fabs": "fabs",
}


def _as_intrinsic(name: str, interpreted: Callable[..., Any]) -> Callable[..., Any]:
    """`interpreted` (what the intrinsic computes, run by Python) as the
    intrinsic `name` compiled code calls."""
    interpreted.__name__ = name
    interpreted._plait_intrinsic = name  # type: ignore[attr-defined]
    return interpreted


def _intrinsic(name: str) -> Callable[..., Any]:
    def interpreted(*args: Any) -> Any:
        import numpy

        return getattr(numpy, _C_TO_NUMPY.get(name, name))(*(numpy.float64(a) for a in args))

    return _as_intrinsic(name, interpreted)


sin, cos, tan = _intrinsic("sin"), _intrinsic("cos"), _intrinsic("tan")
asin, acos, atan = _intrinsic("asin"), _intrinsic("acos"), _intrinsic("atan")
sinh, cosh, tanh = _intrinsic("sinh"), _intrinsic("cosh"), _intrinsic("tanh")
asinh, acosh, atanh = _intrinsic("asinh"), _intrinsic("acosh"), _intrinsic("atanh")
exp, exp2, expm1 = _intrinsic("exp"), _intrinsic("exp2"), _intrinsic("expm1")
log, log2, log10, log1p = _intrinsic("log"), _intrinsic("log2"), _intrinsic("log10"), _intrinsic("log1p")
cbrt, sqrt, fabs = _intrinsic("cbrt"), _intrinsic("sqrt"), _intrinsic("fabs")
floor, ceil, trunc, rint = _intrinsic("floor"), _intrinsic("ceil"), _intrinsic("trunc"), _intrinsic("rint")
atan2, hypot, pow, fmod = _intrinsic("atan2"), _intrinsic("hypot"), _intrinsic("pow"), _intrinsic("fmod")
copysign, nextafter = _intrinsic("copysign"), _intrinsic("nextafter")


def _round(x: Any) -> float:
    # C's round: halves away from zero (x - floor(x) is exact).
    import math

    x = float(x)
    if x != x or x in (math.inf, -math.inf):
        return x
    whole = math.floor(abs(x))
    return math.copysign(whole + 1.0 if abs(x) - whole >= 0.5 else float(whole), x)


def _logb(x: Any) -> float:
    import math

    x = float(x)
    if x != x or x in (math.inf, -math.inf):
        return abs(x)
    return -math.inf if x == 0.0 else float(math.frexp(x)[1] - 1)


def _fma(x: Any, y: Any, z: Any) -> float:
    # x * y + z rounded once (exact rationals; IEEE specials as C's).
    from fractions import Fraction

    x, y, z = float(x), float(y), float(z)
    try:
        return float(Fraction(x) * Fraction(y) + Fraction(z))
    except (OverflowError, ValueError):
        return x * y + z


def _ldexp(x: Any, k: Any) -> Any:
    # The exponent is a whole float; compiled code clamps it (a NaN to the
    # lowest) to +-3225, beyond which every result is the same.
    import numpy

    limit = 3225.0
    k = float(k)
    if not -limit <= k <= limit:
        k = limit if k > 0 else -limit
    return numpy.ldexp(numpy.float64(x), int(k))


round = _as_intrinsic("round", _round)
ldexp = _as_intrinsic("ldexp", _ldexp)
logb = _as_intrinsic("logb", _logb)
fma = _as_intrinsic("fma", _fma)


def _nextafterf(x: Any, y: Any) -> Any:
    import numpy

    return numpy.nextafter(numpy.float32(x), numpy.float32(y))


nextafterf = _as_intrinsic("nextafterf", _nextafterf)


_COMPLEX_TO_NUMPY = {
    "cexp": "exp", "clog": "log", "csqrt": "sqrt", "csin": "sin", "ccos": "cos", "ctan": "tan",
    "csinh": "sinh", "ccosh": "cosh", "ctanh": "tanh", "casin": "arcsin", "cacos": "arccos",
    "catan": "arctan", "casinh": "arcsinh", "cacosh": "arccosh", "catanh": "arctanh",
}


def _complex_intrinsic(name: str) -> Callable[..., Any]:
    """The C library's complex function (NumPy's complex loops call it):
    complex128, or complex64 for the name ending in f."""
    single = name.endswith("f") and name[:-1] in _COMPLEX_TO_NUMPY
    ufunc_name = _COMPLEX_TO_NUMPY[name[:-1] if single else name]

    def interpreted(z: Any) -> Any:
        import numpy

        return getattr(numpy, ufunc_name)((numpy.complex64 if single else numpy.complex128)(z))

    return _as_intrinsic(name, interpreted)


cexp, clog, csqrt = _complex_intrinsic("cexp"), _complex_intrinsic("clog"), _complex_intrinsic("csqrt")
csin, ccos, ctan = _complex_intrinsic("csin"), _complex_intrinsic("ccos"), _complex_intrinsic("ctan")
csinh, ccosh, ctanh = _complex_intrinsic("csinh"), _complex_intrinsic("ccosh"), _complex_intrinsic("ctanh")
casin, cacos, catan = _complex_intrinsic("casin"), _complex_intrinsic("cacos"), _complex_intrinsic("catan")
casinh, cacosh, catanh = _complex_intrinsic("casinh"), _complex_intrinsic("cacosh"), _complex_intrinsic("catanh")
cexpf, clogf, csqrtf = _complex_intrinsic("cexpf"), _complex_intrinsic("clogf"), _complex_intrinsic("csqrtf")
csinf, ccosf, ctanf = _complex_intrinsic("csinf"), _complex_intrinsic("ccosf"), _complex_intrinsic("ctanf")
csinhf, ccoshf, ctanhf = _complex_intrinsic("csinhf"), _complex_intrinsic("ccoshf"), _complex_intrinsic("ctanhf")
casinf, cacosf, catanf = _complex_intrinsic("casinf"), _complex_intrinsic("cacosf"), _complex_intrinsic("catanf")
casinhf, cacoshf, catanhf = _complex_intrinsic("casinhf"), _complex_intrinsic("cacoshf"), _complex_intrinsic("catanhf")
