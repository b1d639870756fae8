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


def _intrinsic(name: str) -> Callable[..., Any]:
    def interpreted(*args: Any) -> Any:
        import numpy

        return getattr(numpy, _C_TO_NUMPY.get(name, name))(*(numpy.float64(a) for a in args))

    interpreted.__name__ = name
    interpreted._plait_intrinsic = name  # type: ignore[attr-defined]
    return interpreted


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


def nextafterf(x: Any, y: Any) -> Any:
    import numpy

    return numpy.nextafter(numpy.float32(x), numpy.float32(y))


nextafterf._plait_intrinsic = "nextafterf"  # type: ignore[attr-defined]
