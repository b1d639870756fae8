"""CPython's own error messages, sampled from the running interpreter so that
compiled code raises exactly what CPython would (they differ across versions)."""

from __future__ import annotations

import math
from typing import Callable


def _message(action: Callable[[], object], fallback: str) -> str:
    try:
        action()
    except (ArithmeticError, ValueError) as error:
        return str(error)
    except UnboundLocalError as error:  # pragma: no cover - listed for clarity
        return str(error)
    return fallback


def _unbound_local_template() -> str:
    def probe() -> None:
        if False:  # noqa: SIM108 - the assignment must exist but not run
            plait_variable = 0
        plait_variable  # noqa: B018 - raises UnboundLocalError

    try:
        probe()
    except UnboundLocalError as error:
        return str(error).replace("plait_variable", "{name}")
    return "local variable '{name}' referenced before assignment"


def _unpack_templates() -> tuple[str, str]:
    """Unpacking an iterable that is not a list or tuple (as a NumPy array
    unpacks): "{expected}" for the number of names, "{0}" for the length."""
    too_many, not_enough = "too many values to unpack (expected 2)", "not enough values to unpack (expected 3, got 2)"
    try:
        first, second = range(3)
    except ValueError as error:
        too_many = str(error)
    try:
        first, second, third = range(2)
    except ValueError as error:
        not_enough = str(error)
    return (
        too_many.replace("expected 2", "expected {expected}"),
        not_enough.replace("expected 3", "expected {expected}").replace("got 2", "got {0}"),
    )


def _domain_templates() -> dict[str, str]:
    """The math functions' domain errors, "{0!f}" standing for the float
    argument: CPython 3.14 names the domain and the argument ("expected a
    positive input, got -1.5"; for an int argument of log, log2 and log10
    just "expected a positive input"), earlier versions say "math domain
    error" for all."""
    probes = {
        "sqrt": (math.sqrt, -1.5), "log": (math.log, -1.5), "log2": (math.log2, -1.5),
        "log10": (math.log10, -1.5), "log1p": (math.log1p, -2.5), "acos": (math.acos, 2.5),
        "asin": (math.asin, 2.5), "acosh": (math.acosh, 0.5), "atanh": (math.atanh, 2.5),
        "sin": (math.sin, math.inf), "cos": (math.cos, math.inf), "tan": (math.tan, math.inf),
    }
    templates = {}
    for name, (function, argument) in probes.items():
        text = _message(lambda: function(argument), "math domain error")
        shown = repr(argument)
        if text.endswith(shown):
            text = text[: -len(shown)] + "{0!f}"
        templates["math_domain_" + name] = text
    templates["math_domain_log_int"] = _message(lambda: math.log(-1), "math domain error")
    return templates


def sample() -> dict[str, str]:
    zero_int, zero_float, one, minus = 0, 0.0, 1.0, -1
    return {
        "int_division_by_zero": _message(lambda: 1 // zero_int, "integer division or modulo by zero"),
        "int_mod_by_zero": _message(lambda: 1 % zero_int, "integer division or modulo by zero"),
        "int_divmod_by_zero": _message(lambda: divmod(1, zero_int), "integer division or modulo by zero"),
        "int_truediv_by_zero": _message(lambda: 1 / zero_int, "division by zero"),
        "float_truediv_by_zero": _message(lambda: one / zero_float, "float division by zero"),
        "float_floordiv_by_zero": _message(lambda: one // zero_float, "float floor division by zero"),
        "float_mod_by_zero": _message(lambda: one % zero_float, "float modulo"),
        "float_divmod_by_zero": _message(lambda: divmod(one, zero_float), "float divmod()"),
        "zero_pow_negative": _message(lambda: zero_float ** -one, "0.0 cannot be raised to a negative power"),
        "float_pow_overflow": _message(lambda: 10.0 ** (400 * one), "(34, 'Numerical result out of range')"),
        "complex_pow_overflow": _message(lambda: (-1e308 * one) ** 1.5, "complex exponentiation"),
        # fmod's: CPython 3.14 gives sqrt, log, gamma... messages of their
        # own that name the argument ("expected a nonnegative input, got
        # -1.0"); the generic one stays "math domain error".
        "math_domain": _message(lambda: math.fmod(math.inf, one), "math domain error"),
        "math_range": _message(lambda: math.exp(1000 * one), "math range error"),
        "float_to_int_inf": _message(lambda: int(math.inf), "cannot convert float infinity to integer"),
        "float_to_int_nan": _message(lambda: int(math.nan), "cannot convert float NaN to integer"),
        "range_step_zero": _message(lambda: range(0, 1, zero_int), "range() arg 3 must not be zero"),
        "negative_shift": _message(lambda: 1 << minus, "negative shift count"),
        "powmod_zero": _message(lambda: pow(2, 3, zero_int), "pow() 3rd argument cannot be 0"),
        "complex_division_by_zero": _message(lambda: 1j / (zero_float * 1j), "complex division by zero"),
        # Not a message: whether a real operand of complex arithmetic stays
        # real (CPython 3.14, C99 Annex G: -0j + 0.0 is -0j) or becomes
        # complex first (up to 3.13: 0j); read by the emitter.
        "complex_real_operands": "real" if math.copysign(1.0, (complex(0.0, -0.0) + zero_float).imag) < 0 else "complex",
        "complex_abs_overflow": _message(lambda: abs(complex(1e308, 1e308 * one)), "absolute value too large"),
        "round_overflow": _message(lambda: round(1e308 * one, -308), "rounded value too large to represent"),
        "recursion": "maximum recursion depth exceeded",
        "unbound_local": _unbound_local_template(),
        "unpack_too_many": _unpack_templates()[0],
        "unpack_not_enough": _unpack_templates()[1],
        **_domain_templates(),
    }
