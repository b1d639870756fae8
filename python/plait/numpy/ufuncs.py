"""NumPy's ufuncs: scalar kernels in NumPy's loop dtypes, broadcast by the
compiler (plait.UfuncLoop). NumPy itself resolves the loop
(ufunc.resolve_dtypes, with Python numbers weak as NEP 50 says), so the
result dtypes are NumPy's by construction."""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

import numpy as np

from .. import types
from .._overload import UfuncLoop, overload
from ..errors import TypingError, UnsupportedError
from .. import _libm
from .._libm import (
    acos as c_acos,
    acosh as c_acosh,
    asin as c_asin,
    asinh as c_asinh,
    atan as c_atan,
    atan2 as c_atan2,
    atanh as c_atanh,
    cbrt as c_cbrt,
    ceil as c_ceil,
    copysign as c_copysign,
    cos as c_cos,
    cosh as c_cosh,
    exp as c_exp,
    exp2 as c_exp2,
    expm1 as c_expm1,
    fabs as c_fabs,
    floor as c_floor,
    fmod as c_fmod,
    hypot as c_hypot,
    ldexp as c_ldexp,
    log as c_log,
    log10 as c_log10,
    log1p as c_log1p,
    log2 as c_log2,
    nextafter as c_nextafter,
    nextafterf as c_nextafterf,
    pow as c_pow,
    rint as c_rint,
    sin as c_sin,
    sinh as c_sinh,
    sqrt as c_sqrt,
    tan as c_tan,
    tanh as c_tanh,
    trunc as c_trunc,
)

_INF = math.inf
_NAN = math.nan
_DEGREES = 180.0 / math.pi
_RADIANS = math.pi / 180.0


def ufunc_loop(ufunc: Any, kernels: dict[str, Callable[..., Any]], args: tuple[types.Type, ...], kwargs: dict[str, Any]) -> Optional[UfuncLoop]:
    """The loop of a call of NumPy's `ufunc` (out= and where= taken): the
    dtypes NumPy resolves for the operands' types, and the kernel for the
    loop (`kernels` by dtype name or kind of its first input)."""
    name = ufunc.__name__
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    where = kwargs.pop("where", None)
    if kwargs:
        raise UnsupportedError(f"np.{name}() with {', '.join(kwargs)}= is not supported yet (out= and where= are)")
    if len(args) == ufunc.nin + 1 and out is None:  # out, positionally
        args, out = args[: ufunc.nin], args[ufunc.nin]
    if len(args) != ufunc.nin:
        raise TypingError(f"{name}() takes from {ufunc.nin} to {ufunc.nin + 1} positional arguments but {len(args)} were given")
    if out is not None and not isinstance(out, types.Array):
        raise TypingError("return arrays must be of ArrayType" if not isinstance(out, types.Tuple)
                          else f"np.{name}() with a tuple out= is not supported yet (pass the array)")
    if where is not None and types.operand_dtype(where) is None:
        raise TypingError(f"np.{name}(): where= takes a boolean array or a bool, not {where}")
    dtypes = [types.operand_dtype(a) for a in args]
    for arg, dtype in zip(args, dtypes):
        if dtype is None:
            raise TypingError(f"np.{name}() of {arg} is not supported (arrays and numbers are)")
    if ufunc in _COMPARISONS and int in dtypes and all(
        d in (int, bool) or (isinstance(d, np.dtype) and d.kind in "bi") or d == np.dtype(np.uint8)
        or d == np.dtype(np.uint16) or d == np.dtype(np.uint32) for d in dtypes
    ):
        # NumPy 2 compares a Python int with any int type by value, even out
        # of the type's range (np.int8(0) < 128): int64 holds both exactly.
        dtypes = [np.dtype(np.int64)] * len(dtypes)
    if all(isinstance(d, type) for d in dtypes):
        # Only Python numbers: NumPy converts them to arrays first (int64,
        # float64, complex128), so none of them is weak.
        dtypes = [np.dtype(d) for d in dtypes]
    try:
        # With out=, NumPy picks the loop for it and checks the cast to it
        # ('same_kind').
        resolved = ufunc.resolve_dtypes(tuple(dtypes) + ((out.dtype,) if out is not None else (None,)))
    except TypeError as error:  # numpy's UFuncTypeError: no loop for the types
        raise TypingError(str(error)) from None
    inputs, output = resolved[: ufunc.nin], resolved[ufunc.nin]
    kernel = kernels.get(inputs[0].name) or kernels.get(inputs[0].kind) or kernels.get("*")
    if kernel is None:
        raise UnsupportedError(f"np.{name}() of {inputs[0].name} values is not supported yet")
    return UfuncLoop(kernel, inputs, output, simd_products=kernel not in _PLAIN_C_LOOPS)


def _register(ufunc: Any, family: str = "ufuncs", **kernels: Callable[..., Any]) -> None:
    """kernels: by the loop's first input dtype, as kind letters ("iu": every
    int loop) or one dtype's name ("float64", which takes precedence)."""
    by_kind = {}
    for kinds, kernel in kernels.items():
        for kind in [kinds] if kinds in _DTYPE_NAMES else kinds:
            by_kind[kind] = kernel

    def typer(*args: types.Type, **kwargs: Any) -> Optional[UfuncLoop]:
        return ufunc_loop(ufunc, by_kind, args, kwargs)

    overload(ufunc, family=family)(typer)
    if ufunc.nin == 2:
        overload(ufunc.outer, family=family)(_outer_typer(ufunc))


def _outer_typer(ufunc: Any) -> Callable[..., Any]:
    """ufunc.outer(A, B): the ufunc of every pair, shape A.shape + B.shape."""

    def typer(A: types.Type, B: types.Type, **kwargs: Any) -> Callable[..., Any]:
        if kwargs:
            raise UnsupportedError(f"np.{ufunc.__name__}.outer() with {', '.join(kwargs)}= is not supported yet")
        for operand in (A, B):
            if not isinstance(operand, types.Array) or operand.ndim != 1:
                raise UnsupportedError(f"np.{ufunc.__name__}.outer() of {operand} is not supported yet (1-D arrays are)")

        def outer(A, B):
            return ufunc(A[:, None], B[None, :])

        return outer

    return typer


def _complex_kernels(double: Any, single: Any) -> dict[str, Callable[..., Any]]:
    """The kernels of a complex loop: the C library's function NumPy's
    complex128 loop calls, and its float version for complex64."""

    def complex128_kernel(x):
        return double(x)

    def complex64_kernel(x):
        return single(x)

    return {"complex128": complex128_kernel, "complex64": complex64_kernel}


# -- kernels (each runs on one element, in the loop's dtypes) --------------
def _add(x, y):
    return x + y


def _subtract(x, y):
    return x - y


def _multiply(x, y):
    return x * y


def _divide(x, y):
    return x / y


def _floor_divide(x, y):
    return x // y


def _remainder(x, y):
    return x % y


def _power(x, y):
    return x**y


def _power_complex(x, y):
    # NumPy's complex power (npy_cpow): exact products for small integral
    # real exponents, exp(y * log(x)) otherwise.
    br = y.real
    bi = y.imag
    if br == 0.0 and bi == 0.0:
        return 1.0 + 0j
    if x.real == 0.0 and x.imag == 0.0:
        # NumPy 2: zero to a power of positive real part is zero, whatever
        # its imaginary part.
        if br > 0.0:
            return 0j
        return complex(_NAN, _NAN)
    if bi == 0.0 and br > -100.0 and br < 100.0 and c_floor(br) == br:
        n = int(br)
        if n == 1:
            return 1.0 * x
        if n == 2:
            return x * x
        if n == 3:
            return x * (x * x)
        if n < 0:
            n = -n
        product = 1.0 + 0j
        p = x
        mask = 1
        while True:
            if n & mask:
                product = product * p
            mask = mask << 1
            if n < mask:
                break
            p = p * p
        if br < 0.0:
            return 1.0 / product
        return product
    # cpow(x, y) = cexp(y * clog(x)), as the C library computes it.
    log_abs = c_log(c_hypot(x.real, x.imag))
    angle = c_atan2(x.imag, x.real)
    zr = br * log_abs - bi * angle
    zi = br * angle + bi * log_abs
    scale = c_exp(zr)
    return complex(scale * c_cos(zi), scale * c_sin(zi))


def _negative(x):
    return -x


def _positive(x):
    return +x


def _square(x):
    return x * x


def _reciprocal(x):
    return 1.0 / x


def _maximum(x, y):
    # NaN propagates (either side), as NumPy's maximum does.
    return x if x >= y or x != x else y


def _minimum(x, y):
    return x if x <= y or x != x else y


# NumPy's float64 and float32 maximum and minimum run SIMD loops that give
# the second operand when the two are equal (maximum(0.0, -0.0) is -0.0).
def _maximum_simd(x, y):
    return x if x > y or x != x else y


def _minimum_simd(x, y):
    return x if x < y or x != x else y


def _fmax(x, y):
    # NaN is ignored unless both are NaN.
    return x if x >= y or y != y else y


def _fmin(x, y):
    return x if x <= y or y != y else y


def _isnan(x):
    return x != x


def _isinf(x):
    return x == _INF or x == -_INF


def _isfinite(x):
    return x == x and x != _INF and x != -_INF


def _never(x):
    return False


def _always(x):
    return True


def _signbit(x):
    return c_copysign(1.0, x) < 0.0


def _sign_float(x):
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    if x == 0:
        return 0.0  # +0.0 for -0.0 too
    return float(x)  # NaN


def _sign_int(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


def _logical_and(x, y):
    return bool(x) and bool(y)


def _logical_or(x, y):
    return bool(x) or bool(y)


def _logical_xor(x, y):
    return bool(x) != bool(y)


def _logical_not(x):
    return not x


def _bitwise_and(x, y):
    return x & y


def _bitwise_or(x, y):
    return x | y


def _bitwise_xor(x, y):
    return x ^ y


def _invert(x):
    return ~x


def _invert_bool(x):
    return not x


def _greater(x, y):
    return x > y


def _greater_equal(x, y):
    return x >= y


def _less(x, y):
    return x < y


def _less_equal(x, y):
    return x <= y


def _equal(x, y):
    return x == y


def _not_equal(x, y):
    return x != y


def _deg2rad(x):
    return x * _RADIANS


def _rad2deg(x):
    return x * _DEGREES


# float32 and float16 loops multiply in float32 by a float32 constant made
# as npy_math makes it (NPY_PIf / 180.0f, 180.0f / NPY_PIf).
def _deg2rad_single(x):
    return np.float32(x) * (np.float32(math.pi) / np.float32(180.0))


def _rad2deg_single(x):
    return np.float32(x) * (np.float32(180.0) / np.float32(math.pi))


def _identity(x):
    return x


def _sinh(x):
    return c_sinh(x)


def _cosh(x):
    return c_cosh(x)


def _tanh(x):
    return c_tanh(x)


def _arcsin(x):
    return c_asin(x)


def _arccos(x):
    return c_acos(x)


def _arcsinh(x):
    return c_asinh(x)


def _arccosh(x):
    return c_acosh(x)


def _arctanh(x):
    return c_atanh(x)


def _exp2(x):
    return c_exp2(x)


def _expm1(x):
    return c_expm1(x)


def _log2(x):
    return c_log2(x)


def _log10(x):
    return c_log10(x)


def _log1p(x):
    return c_log1p(x)


def _cbrt(x):
    return c_cbrt(x)


def _floor(x):
    return c_floor(x)


def _ceil(x):
    return c_ceil(x)


def _trunc(x):
    return c_trunc(x)


def _rint(x):
    return c_rint(x)


def _fabs(x):
    return c_fabs(x)


def _arctan2(y, x):
    return c_atan2(y, x)


def _hypot(x, y):
    return c_hypot(x, y)


def _fmod(x, y):
    return c_fmod(x, y)


def _fmod_int(x, y):
    # C's truncated remainder; NumPy gives 0 for a zero divisor.
    if y == 0:
        return x - x
    r = x % y
    if r != 0 and (r < 0) != (x < 0):
        r = r - y
    return r


def _nextafter_single(x, y):
    return c_nextafterf(x, y)


def _copysign(x, y):
    return c_copysign(x, y)


def _nextafter(x, y):
    return c_nextafter(x, y)


def _float_power(x, y):
    return c_pow(x, y)


_DTYPE_NAMES = {"float16", "float32", "float64", "complex64", "complex128"}
_NUMBERS = "biufc"
_REALS = "biuf"
_INTS = "biu"

_register(np.add, **{_NUMBERS: _add})
_register(np.subtract, **{"iufc": _subtract})
_register(np.multiply, **{_NUMBERS: _multiply})
_register(np.divide, **{"fc": _divide})
_register(np.floor_divide, **{"iuf": _floor_divide})
_register(np.remainder, **{"iuf": _remainder})
_register(np.power, **{"iuf": _power, "c": _power_complex})
_register(np.float_power, **{"f": _float_power})
_register(np.negative, **{"iufc": _negative})
_register(np.positive, **{"iufc": _positive})
_register(np.square, **{_NUMBERS: _square})
_register(np.reciprocal, **{"f": _reciprocal})
_register(np.maximum, **{"float64": _maximum_simd, "float32": _maximum_simd, _REALS: _maximum})
_register(np.minimum, **{"float64": _minimum_simd, "float32": _minimum_simd, _REALS: _minimum})
_register(np.fmax, **{_REALS: _fmax})
_register(np.fmin, **{_REALS: _fmin})
_register(np.isnan, **{"f": _isnan, "biu": _never})
_register(np.isinf, **{"f": _isinf, "biu": _never})
_register(np.isfinite, **{"f": _isfinite, "biu": _always})
_register(np.signbit, **{"f": _signbit})
_register(np.sign, **{"f": _sign_float, "iu": _sign_int})
_register(np.logical_and, family="logic", **{_NUMBERS: _logical_and})
_register(np.logical_or, family="logic", **{_NUMBERS: _logical_or})
_register(np.logical_xor, family="logic", **{_NUMBERS: _logical_xor})
_register(np.logical_not, family="logic", **{_NUMBERS: _logical_not})
_register(np.bitwise_and, family="logic", **{_INTS: _bitwise_and})
_register(np.bitwise_or, family="logic", **{_INTS: _bitwise_or})
_register(np.bitwise_xor, family="logic", **{_INTS: _bitwise_xor})
_register(np.invert, family="logic", **{"iu": _invert, "b": _invert_bool})
_register(np.greater, family="logic", **{_REALS: _greater})
_register(np.greater_equal, family="logic", **{_REALS: _greater_equal})
_register(np.less, family="logic", **{_REALS: _less})
_register(np.less_equal, family="logic", **{_REALS: _less_equal})
_register(np.equal, family="logic", **{_NUMBERS: _equal})
_register(np.not_equal, family="logic", **{_NUMBERS: _not_equal})
_register(np.deg2rad, **{"float64": _deg2rad, "f": _deg2rad_single})
_register(np.radians, **{"float64": _deg2rad, "f": _deg2rad_single})
_register(np.rad2deg, **{"float64": _rad2deg, "f": _rad2deg_single})
_register(np.degrees, **{"float64": _rad2deg, "f": _rad2deg_single})
_register(np.sinh, **{"f": _sinh, **_complex_kernels(_libm.csinh, _libm.csinhf)})
_register(np.cosh, **{"f": _cosh, **_complex_kernels(_libm.ccosh, _libm.ccoshf)})
_register(np.tanh, **{"f": _tanh, **_complex_kernels(_libm.ctanh, _libm.ctanhf)})
_register(np.arcsin, **{"f": _arcsin, **_complex_kernels(_libm.casin, _libm.casinf)})
_register(np.arccos, **{"f": _arccos, **_complex_kernels(_libm.cacos, _libm.cacosf)})
_register(np.arcsinh, **{"f": _arcsinh, **_complex_kernels(_libm.casinh, _libm.casinhf)})
_register(np.arccosh, **{"f": _arccosh, **_complex_kernels(_libm.cacosh, _libm.cacoshf)})
_register(np.arctanh, **{"f": _arctanh, **_complex_kernels(_libm.catanh, _libm.catanhf)})
_register(np.exp2, **{"f": _exp2})
_register(np.expm1, **{"f": _expm1})
_register(np.log2, **{"f": _log2})
_register(np.log10, **{"f": _log10})
_register(np.log1p, **{"f": _log1p})
_register(np.cbrt, **{"f": _cbrt})
_register(np.floor, **{"f": _floor, "biu": _identity})
_register(np.ceil, **{"f": _ceil, "biu": _identity})
_register(np.trunc, **{"f": _trunc, "biu": _identity})
_register(np.rint, **{"f": _rint})
_register(np.fabs, **{"f": _fabs})
_register(np.arctan2, **{"f": _arctan2})
_register(np.hypot, **{"f": _hypot})
_register(np.fmod, **{"f": _fmod, "biu": _fmod_int})
_register(np.copysign, **{"f": _copysign})
# (float16's nextafter steps in half precision: not supported yet.)
_register(np.nextafter, **{"float64": _nextafter, "float32": _nextafter_single})
#: Kernels of loops NumPy runs in plain C: complex products not fused.
_PLAIN_C_LOOPS = (_power_complex,)
_COMPARISONS = (np.greater, np.greater_equal, np.less, np.less_equal, np.equal, np.not_equal)


# -- ufunc.reduce and ufunc.accumulate: the compiler's reductions ---------
def _axis_value(name: str, axis: Any, default: Any) -> Any:
    """A reduce's axis: `default` when left out, else the constant given."""
    if axis is None:
        return default
    if not axis.has_literal:
        raise UnsupportedError(f"{name}() takes axis= as a constant here")
    value = axis.literal_value
    if value is not None and not isinstance(value, (int, tuple)):
        raise TypingError(f"{name}(): axis must be an integer, a tuple of integers or None")
    return value


def _reduce_typer(ufunc: Any, reduction: Any) -> Callable[..., Any]:
    name = f"np.{ufunc.__name__}.reduce"

    def typer(array: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: Any = None,
              initial: Any = None, where: Any = None) -> Callable[..., Any]:
        if not isinstance(array, types.Array):
            raise UnsupportedError(f"{name}() of {array} is not supported yet (arrays are)")
        if any(t is not None for t in (dtype, out, initial, where)):
            raise UnsupportedError(f"{name}() with dtype=, out=, initial= or where= is not supported yet")
        along = _axis_value(name, axis, 0)
        keep = bool(keepdims.literal_value) if keepdims is not None and keepdims.has_literal else False
        if keepdims is not None and not keepdims.has_literal:
            raise UnsupportedError(f"{name}() takes keepdims= as a constant here")

        def reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
            return reduction(array, axis=along, keepdims=keep)

        return reduce

    return typer


def _accumulate_typer(ufunc: Any, accumulation: Any) -> Callable[..., Any]:
    name = f"np.{ufunc.__name__}.accumulate"

    def typer(array: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> Callable[..., Any]:
        if not isinstance(array, types.Array):
            raise UnsupportedError(f"{name}() of {array} is not supported yet (arrays are)")
        if dtype is not None or out is not None:
            raise UnsupportedError(f"{name}() with dtype= or out= is not supported yet")
        along = _axis_value(name, axis, 0)
        if not isinstance(along, int):
            raise TypingError(f"{name}(): axis must be an integer")

        def accumulate(array, axis=0, dtype=None, out=None):
            return accumulation(array, axis=along)

        return accumulate

    return typer


for _ufunc, _reduction in ((np.add, np.sum), (np.multiply, np.prod), (np.maximum, np.max),
                           (np.minimum, np.min), (np.logical_and, np.all), (np.logical_or, np.any)):
    overload(_ufunc.reduce, family="ufuncs")(_reduce_typer(_ufunc, _reduction))
overload(np.add.accumulate, family="ufuncs")(_accumulate_typer(np.add, np.cumsum))
overload(np.multiply.accumulate, family="ufuncs")(_accumulate_typer(np.multiply, np.cumprod))


# The compiler's former elementwise functions, as ufuncs (out= and where=
# too); np.abs stays the compiler's (NumPy's algorithm for complex |z|).
def _sqrt(x):
    return c_sqrt(x)


# float64 exp(x) in operations only, so that loops over arrays vectorise (a
# call of the C library's exp does not): Cody and Waite's reduction
# x = k ln2 + r, |r| <= ln2/2, with ln2 in two parts (k * _LN2_HI is exact);
# e**r by its Taylor series to r**13 (the rest is below 2**-57 relative),
# with 1 + r added last and its rounding error (and r's) carried; ldexp
# scales by 2**k rounding once, to subnormals too. Within 0.78 ulp of exp(x)
# (NumPy's AVX-512 loop: 0.70, the C library's: 0.50), so never more than one
# ulp from either (docs/design/numpy-library.md).
_LOG2E = 1.4426950408889634
_LN2_HI = 0.6931471803691238  # 0x1.62e42fee00000p-1: 21 trailing zero bits
_LN2_LO = 1.9082149292705877e-10  # ln2 - _LN2_HI


def _exp_float64(x):
    t = min(max(x, -746.0), 710.0)  # beyond, exp is 0 or inf all the same
    k = c_rint(t * _LOG2E)
    hi = t - k * _LN2_HI
    lo = k * _LN2_LO
    r = hi - lo
    dr = (hi - r) - lo  # r's rounding error (exact unless |hi| < |lo|, then within 2**-75)
    # 1/13!, 1/12!, ... 1/3!, 1/2 by Horner's rule: q * r**2 is e**r - 1 - r.
    q = 1.6059043836821613e-10 * r + 2.08767569878681e-09
    q = q * r + 2.505210838544172e-08
    q = q * r + 2.755731922398589e-07
    q = q * r + 2.7557319223985893e-06
    q = q * r + 2.48015873015873e-05
    q = q * r + 0.0001984126984126984
    q = q * r + 0.001388888888888889
    q = q * r + 0.008333333333333333
    q = q * r + 0.041666666666666664
    q = q * r + 0.16666666666666666
    q = q * r + 0.5
    s = q * (r * r)
    one_plus_r = 1.0 + r
    carried = (1.0 - one_plus_r) + r  # 1 + r's rounding error, exactly
    p = one_plus_r + ((carried + dr) + s)
    e = c_ldexp(p, k)
    return e if x == x else x + x


def _exp(x):
    # float32 and float16: the C library's exp in double, rounded once.
    return c_exp(x)


def _log(x):
    return c_log(x)


def _sin(x):
    return c_sin(x)


def _cos(x):
    return c_cos(x)


def _tan(x):
    return c_tan(x)


def _arctan(x):
    return c_atan(x)


_register(np.sqrt, **{"f": _sqrt, **_complex_kernels(_libm.csqrt, _libm.csqrtf)})
_register(np.exp, **{"float64": _exp_float64, "f": _exp, **_complex_kernels(_libm.cexp, _libm.cexpf)})
_register(np.log, **{"f": _log, **_complex_kernels(_libm.clog, _libm.clogf)})
_register(np.sin, **{"f": _sin, **_complex_kernels(_libm.csin, _libm.csinf)})
_register(np.cos, **{"f": _cos, **_complex_kernels(_libm.ccos, _libm.ccosf)})
_register(np.tan, **{"f": _tan, **_complex_kernels(_libm.ctan, _libm.ctanf)})
_register(np.arctan, **{"f": _arctan, **_complex_kernels(_libm.catan, _libm.catanf)})
