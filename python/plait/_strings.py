"""strs computed when compiled code runs, on plait.overload.

A run-time str is a list's box of int code points (docs/design/strings.md).
Its operators, indexing, conversions and methods are written here in the
Python plait compiles, on a few primitives: `_codes(s)` (the str's code
points as a list[int], the same box: read it, never change it),
`_text(codes)` (a list[int] as a str: the list must not change afterwards),
and the runtime's spelling of numbers (repr of a float, format() with a
spec), so results are CPython's. Strs known when compiling (a literal, a
str argument) become run-time strs where they meet one."""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from . import types
from ._core import jit as _native
from ._libm import _as_intrinsic
from . import _lists
from ._lists import _position as _clamp  # (CPython's ADJUST_INDICES for an end)
from ._overload import _register
from .errors import TypingError

# -- primitives (compiled code: EmitStrings.cpp; the interpreter: these) -----


def _interpreted_format(value: Any, fill: int, align: int, sign: int, alternate: int, width: int,
                        grouping: int, precision: int = -1, kind: int = 0, z: int = 0) -> str:
    spec = chr(fill) + chr(align) + chr(sign) + ("z" if z else "") + ("#" if alternate else "")
    spec += str(width) if width else ""
    spec += chr(grouping) if grouping else ""
    spec += f".{precision}" if precision >= 0 else ""
    return format(value, spec + (chr(kind) if kind else ""))


_codes = _as_intrinsic("str_codes", lambda s: [ord(c) for c in s])
_text = _as_intrinsic("str_of_codes", lambda codes: "".join(map(chr, codes)))
_of_int = _as_intrinsic("str_of_int", lambda i: str(int(i)))
_of_float = _as_intrinsic("str_of_float", lambda x: repr(float(x)))
_format_int = _as_intrinsic(
    "str_format_int",
    lambda v, fill, align, sign, alt, width, grouping, kind: _interpreted_format(
        int(v), fill, align, sign, alt, width, grouping, -1, kind),
)
_format_float = _as_intrinsic(
    "str_format_float",
    lambda v, fill, align, sign, alt, width, grouping, precision, kind, z: _interpreted_format(
        float(v), fill, align, sign, alt, width, grouping, precision, kind, z),
)
_format_str = _as_intrinsic(
    "str_format_str",
    lambda s, fill, align, width, precision: format(
        s, chr(fill) + chr(align) + (str(width) if width else "") + (f".{precision}" if precision >= 0 else "")),
)


def _interpreted_number_text(s: str) -> str:
    import unicodedata

    def ascii_of(c: str) -> str:
        if ord(c) < 128:
            return c
        if c.isspace():
            return " "
        digit = unicodedata.decimal(c, None)
        return "?" if digit is None else str(digit)

    return "".join(map(ascii_of, s))


_number_text = _as_intrinsic("str_number_text", _interpreted_number_text)


def _keep_known_decimal_digits() -> None:
    """Compiled float() and int() of a str read the decimal digits this
    interpreter's Unicode version has (14.0 in 3.11, 16.0 in 3.14), no more."""
    import unicodedata

    candidates = _native._decimal_zero_candidates()
    _native._set_known_decimal_zeros([z for z in candidates if unicodedata.decimal(chr(z), None) == 0])


_keep_known_decimal_digits()


def _interpreted_to_float(s: str) -> tuple:
    try:
        return (0, float(s))
    except ValueError:
        return (1, 0.0)


_to_float = _as_intrinsic("str_to_float", _interpreted_to_float)


def _key(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Registers a typer for "str.<name>" (the typer's routes: TyperStrings.cpp)."""

    def register(typer: Callable[..., Any]) -> Callable[..., Any]:
        _register(f"str.{name}", typer, None, f"str.{name}")
        return typer

    return register


def _python_name(t: Any) -> str:
    """The name CPython's messages give a value of type `t`."""
    if types.is_str(t):
        return "str"
    return "NoneType" if t == types.none else _lists._python_name(t)


def _needs_index(t: Any) -> None:
    if t is not None and t != types.none and not types.is_integral(t):
        raise TypingError("slice indices must be integers or None or have an __index__ method")


# -- helpers in compiled code ------------------------------------------------


def _empty():
    return [0][:0]


def _is_space(c):
    # str.isspace(): Unicode's whitespace (and the ASCII separators).
    return ((c >= 9 and c <= 13) or (c >= 28 and c <= 32) or c == 0x85 or c == 0xA0
            or c == 0x1680 or (c >= 0x2000 and c <= 0x200A) or c == 0x2028 or c == 0x2029
            or c == 0x202F or c == 0x205F or c == 0x3000)


def _clamp_start(i, n):
    # CPython's ADJUST_INDICES: a start past the end stays (nothing is found).
    if i < 0:
        i += n
        if i < 0:
            i = 0
    return i


def _find(h, n, start, end):
    m = len(n)
    i = start
    while i + m <= end:
        j = 0
        while j < m and h[i + j] == n[j]:
            j += 1
        if j == m:
            return i
        i += 1
    return -1


def _rfind(h, n, start, end):
    m = len(n)
    i = end - m
    while i >= start:
        j = 0
        while j < m and h[i + j] == n[j]:
            j += 1
        if j == m:
            return i
        i -= 1
    return -1


def _order(a, b):
    # -1, 0 or 1: code point by code point, then the shorter first.
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    if len(a) == len(b):
        return 0
    return -1 if len(a) < len(b) else 1


# -- operators ---------------------------------------------------------------


def _add(a, b):
    out = _codes(a)[:]
    out.extend(_codes(b))
    return _text(out)


@_key("__add__")
def _add_typer(a: Any, b: Any) -> Any:
    return _add


def _repeat(s, n):
    return _text(_codes(s) * n)


def _repeat_right(n, s):
    return _text(_codes(s) * n)


@_key("__mul__")
def _mul_typer(s: Any, n: Any) -> Any:
    return _repeat


@_key("__rmul__")
def _rmul_typer(n: Any, s: Any) -> Any:
    return _repeat_right


def _equal(a, b):
    return _codes(a) == _codes(b)


@_key("__eq__")
def _eq_typer(a: Any, b: Any) -> Any:
    return _equal


def _less(a, b):
    return _order(_codes(a), _codes(b)) < 0


def _less_equal(a, b):
    return _order(_codes(a), _codes(b)) <= 0


def _greater(a, b):
    return _order(_codes(a), _codes(b)) > 0


def _greater_equal(a, b):
    return _order(_codes(a), _codes(b)) >= 0


for _name, _implementation in (("__lt__", _less), ("__le__", _less_equal), ("__gt__", _greater),
                               ("__ge__", _greater_equal)):
    _key(_name)(lambda a, b, _implementation=_implementation: _implementation)


def _contains(x, s):
    h = _codes(s)
    return _find(h, _codes(x), 0, len(h)) >= 0


@_key("__contains__")
def _contains_typer(x: Any, s: Any) -> Any:
    return _contains


def _in_tuple(x, strs):
    choices = [*strs]  # (strs known when compiling: run-time ones in a list)
    for choice in choices:
        if x == choice:
            return True
    return False


@_key("__in_tuple__")
def _in_tuple_typer(x: Any, strs: Any) -> Any:
    return _in_tuple


def _item(s, i):
    c = _codes(s)
    n = len(c)
    if i < 0:
        i += n
    if i < 0 or i >= n:
        raise IndexError("string index out of range")
    return _text(c[i:i + 1])


@_key("__getitem__")
def _getitem_typer(s: Any, i: Any) -> Any:
    return _item


# -- conversions -------------------------------------------------------------


def _str_of_bool(x):
    return "True" if x else "False"


def _str_of_int(x):
    return _of_int(x)


def _str_of_float(x):
    return _of_float(x)


def _str_of_numpy_int(x):
    return _of_int(int(x))


def _str_of_uint64(x):
    # (Beyond int64 too: its digits one by one.)
    digits = _empty()
    while True:
        digits.append(48 + int(x % 10))
        x = x // 10
        if x == 0:
            break
    digits.reverse()
    return _text(digits)


def _str_of_none(x):
    return "None"


def _str_of_typer(x: Any) -> Optional[Callable[..., Any]]:
    if x == types.boolean or (isinstance(x, types.NumPyScalar) and x.dtype.kind == "b"):
        return _str_of_bool
    if x == types.integer:
        return _str_of_int
    if x == types.float64:
        return _str_of_float
    if isinstance(x, types.NumPyScalar) and x.dtype.name == "uint64":
        return _str_of_uint64
    if isinstance(x, types.NumPyScalar) and x.dtype.kind in "iu":
        return _str_of_numpy_int
    if isinstance(x, types.NumPyScalar) and x.dtype.name == "float64":
        return _str_of_float
    if x == types.none:
        return _str_of_none
    if isinstance(x, types.NumPyScalar) and x.dtype.kind == "f":
        raise TypingError(f"str() of {x} is not supported (NumPy spells it its own way): "
                          "write str(float(x))")
    raise TypingError(f"str() of {x} is not supported (of numbers, bools, strs and None it is)")


_key("__str_of__")(_str_of_typer)


def _repr_of_str(s):
    c = _codes(s)
    quote = 39  # '
    if 39 in c and 34 not in c:
        quote = 34
    out = [quote]
    hexdigits = _codes("0123456789abcdef")
    for ch in c:
        if ch == quote or ch == 92:
            out.append(92)
            out.append(ch)
        elif ch == 9:
            out.extend(_codes("\\t"))
        elif ch == 10:
            out.extend(_codes("\\n"))
        elif ch == 13:
            out.extend(_codes("\\r"))
        elif ch < 32 or (ch >= 127 and ch < 161) or ch == 173:
            out.extend(_codes("\\x"))
            out.append(hexdigits[ch // 16])
            out.append(hexdigits[ch % 16])
        else:
            out.append(ch)
    out.append(quote)
    return _text(out)


def _ascii_of_str(s):
    # ascii(s): repr(s) with its non-ASCII characters escaped.
    out = _empty()
    hexdigits = _codes("0123456789abcdef")
    for ch in _codes(_repr_of_str(s)):
        if ch < 128:
            out.append(ch)
            continue
        width = 2 if ch < 256 else 4 if ch < 65536 else 8
        out.append(92)
        out.append(120 if width == 2 else 117 if width == 4 else 85)  # x u U
        for k in range(width - 1, -1, -1):
            out.append(hexdigits[(ch >> (4 * k)) & 15])
    return _text(out)


def _ascii_of_typer(x: Any) -> Optional[Callable[..., Any]]:
    return _ascii_of_str if types.is_str(x) else _repr_of_typer(x)


@_key("__repr_of__")
def _repr_of_typer(x: Any) -> Optional[Callable[..., Any]]:
    if types.is_str(x):
        return _repr_of_str
    if isinstance(x, types.NumPyScalar):
        raise TypingError(f"repr() of {x} is not supported (NumPy spells it its own way)")
    return _str_of_typer(x)


def _digit(c, base):
    # The value of code point c as a digit of `base`, or -1.
    d = -1
    if c >= 48 and c <= 57:
        d = c - 48
    elif c >= 97 and c <= 122:
        d = c - 87
    elif c >= 65 and c <= 90:
        d = c - 55
    return d if d < base else -1


def _is_ascii_space(c):
    return (c >= 9 and c <= 13) or c == 32


def _parse_int(s, base):
    # CPython's PyLong_FromUnicodeObject: non-ASCII digits and spaces read
    # as ASCII ones, ASCII whitespace around.
    c = _codes(_number_text(s))
    i = 0
    n = len(c)
    while i < n and _is_ascii_space(c[i]):
        i += 1
    while n > i and _is_ascii_space(c[n - 1]):
        n -= 1
    negative = False
    if i < n and (c[i] == 43 or c[i] == 45):
        negative = c[i] == 45
        i += 1
    b = base
    prefixed = False
    if i + 1 < n and c[i] == 48:
        marker = c[i + 1] | 32
        if (marker == 120 and (b == 16 or b == 0)) or (marker == 111 and (b == 8 or b == 0)) \
                or (marker == 98 and (b == 2 or b == 0)):
            b = 16 if marker == 120 else 8 if marker == 111 else 2
            i += 2
            prefixed = True
    if b == 0:
        b = 10
        # Base 0: a decimal number has no leading zero (but 0 itself).
        k = i
        while k < n and (c[k] == 48 or c[k] == 95):
            k += 1
        if k < n and c[i] == 48 and _digit(c[k], 10) >= 0:
            raise ValueError(f"invalid literal for int() with base {base}: {s!r}")
    # (Accumulated below zero: -2**63 fits, and 2**63 overflows at the end.)
    value = 0
    digits = 0
    last_underscore = prefixed
    for k in range(i, n):
        if c[k] == 95:
            if last_underscore and not (prefixed and k == i) or digits == 0 and not prefixed:
                raise ValueError(f"invalid literal for int() with base {base}: {s!r}")
            last_underscore = True
            continue
        d = _digit(c[k], b)
        if d < 0:
            raise ValueError(f"invalid literal for int() with base {base}: {s!r}")
        value = value * b - d
        digits += 1
        last_underscore = False
    if digits == 0 or (last_underscore and n > i):
        raise ValueError(f"invalid literal for int() with base {base}: {s!r}")
    return value if negative else -value


def _int_of_str(s, base=10):
    if base != 0 and (base < 2 or base > 36):
        raise ValueError("int() base must be >= 2 and <= 36, or 0")
    return _parse_int(s, base)


@_key("__int__")
def _int_typer(s: Any, base: Any = None) -> Any:
    if not types.is_str(s):
        raise TypingError("int() can't convert non-string with explicit base")
    if base is not None and not types.is_integral(base):
        raise TypingError(f"'{_python_name(base)}' object cannot be interpreted as an integer")
    if base is not None and base.has_literal and not (base.literal_value == 0 or 2 <= base.literal_value <= 36):
        raise TypingError("int() base must be >= 2 and <= 36, or 0")
    return _int_of_str


def _float_of_str(s):
    status, value = _to_float(s)
    if status != 0:
        raise ValueError(f"could not convert string to float: {s!r}")
    return value


@_key("__float__")
def _float_typer(s: Any) -> Any:
    return _float_of_str


# -- format() and f-strings --------------------------------------------------

_SPEC = re.compile(
    r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?(?P<zero>0)?"
    r"(?P<width>\d+)?(?P<grouping>[,_])?(?:\.(?P<precision>\d+))?(?P<type>[a-zA-Z%])?",
    re.DOTALL,
)


class _Spec:
    """A format spec, checked by CPython's own format() when compiling."""

    def __init__(self, text: str, sample: Any) -> None:
        try:
            format(sample, text)
        except (ValueError, TypeError) as error:
            raise TypingError(str(error)) from None
        match = _SPEC.fullmatch(text)
        if match is None:
            raise TypingError(f"Invalid format specifier '{text}' for object of type "
                              f"'{type(sample).__name__}'")
        numeric = not isinstance(sample, str)
        align = match["align"]
        fill = match["fill"]
        if match["zero"] and fill is None:
            fill = "0"
            if align is None and numeric:
                align = "="
        self.fill = ord(fill or " ")
        self.align = ord(align or (">" if numeric else "<"))
        self.sign = ord(match["sign"] or "-")
        self.z = 1 if match["z"] else 0
        self.alternate = 1 if match["alt"] else 0
        self.width = int(match["width"] or 0)
        self.grouping = ord(match["grouping"]) if match["grouping"] else 0
        self.precision = int(match["precision"]) if match["precision"] is not None else -1
        self.type = match["type"] or ""


def _spec_text(spec: Any) -> str:
    if spec is None or spec == types.none:
        return ""
    if not isinstance(spec, types.String):
        raise TypingError("format specs computed when the code runs are not supported (write them out)")
    return spec.literal_value


def _format_typer(value: Any, spec: Any = None, conversion: str = "") -> Optional[Callable[..., Any]]:
    text = _spec_text(spec)
    if conversion in ("r", "a") or (conversion == "s" and not types.is_str(value)):
        convert = (_repr_of_typer(value) if conversion == "r" else
                   _ascii_of_typer(value) if conversion == "a" else _str_of_typer(value))
        if not text:
            def converted(value, spec=None):
                return convert(value)

            return converted
        s = _Spec(text, "")
        fill, align, width, precision = s.fill, s.align, s.width, s.precision

        def converted_padded(value, spec=None):
            return _format_str(convert(value), fill, align, width, precision)

        return converted_padded
    if types.is_str(value):
        if not text:
            def itself(value, spec=None):
                return value

            return itself
        s = _Spec(text, "")
        fill, align, width, precision = s.fill, s.align, s.width, s.precision

        def padded(value, spec=None):
            return _format_str(value, fill, align, width, precision)

        return padded
    is_bool = value == types.boolean or (isinstance(value, types.NumPyScalar) and value.dtype.kind == "b")
    is_int = value == types.integer or (isinstance(value, types.NumPyScalar) and value.dtype.kind in "iu")
    is_float = value == types.float64 or (isinstance(value, types.NumPyScalar) and value.dtype.kind == "f")
    if not text and (is_bool or is_int or is_float or value == types.none):
        return _str_of_typer(value)  # format(x, "") is str(x)
    if not (is_bool or is_int or is_float):
        raise TypingError(f"formatting {value} in an f-string is not supported "
                          "(numbers, bools and strs are)")
    s = _Spec(text, 0 if is_bool or is_int else 0.0)
    fill, align, sign, alternate, width, grouping = s.fill, s.align, s.sign, s.alternate, s.width, s.grouping
    precision, z = s.precision, s.z
    if (is_int or is_bool) and s.type not in ("e", "E", "f", "F", "g", "G", "%"):
        if s.type == "c":
            raise TypingError("format type 'c' is not supported in compiled code")
        kind = ord("d" if s.type in ("", "n") else s.type)

        def integer(value, spec=None):
            return _format_int(value, fill, align, sign, alternate, width, grouping, kind)

        return integer
    kind = 0 if s.type == "" else ord("g" if s.type == "n" else s.type)

    def floating(value, spec=None):
        return _format_float(value, fill, align, sign, alternate, width, grouping, precision, kind, z)

    return floating


_key("__format__")(lambda value, spec=None: _format_typer(value, spec))
_key("__format_str__")(lambda value, spec=None: _format_typer(value, spec, "s"))
_key("__format_repr__")(lambda value, spec=None: _format_typer(value, spec, "r"))
_key("__format_ascii__")(lambda value, spec=None: _format_typer(value, spec, "a"))


def _min_of(strs):
    items = [*strs]  # (strs known when compiling: run-time ones in a list)
    best = items[0]
    for s in items:
        if s < best:
            best = s
    return best


def _max_of(strs):
    items = [*strs]
    best = items[0]
    for s in items:
        if s > best:
            best = s
    return best


def _min_strs(*strs):
    return _min_of(strs)


def _max_strs(*strs):
    return _max_of(strs)


# min()/max() of strs: "str.__min__" of several, "str.__min_of__" of a tuple.
_key("__min__")(lambda *strs: _min_strs)
_key("__max__")(lambda *strs: _max_strs)
_key("__min_of__")(lambda strs: _min_of)
_key("__max_of__")(lambda strs: _max_of)


# -- methods -----------------------------------------------------------------


def _strip_chars(c, chars, left, right):
    i = 0
    n = len(c)
    while left and i < n and chars.count(c[i]) > 0:
        i += 1
    while right and n > i and chars.count(c[n - 1]) > 0:
        n -= 1
    return i, n


def _strip_space(c, left, right):
    i = 0
    n = len(c)
    while left and i < n and _is_space(c[i]):
        i += 1
    while right and n > i and _is_space(c[n - 1]):
        n -= 1
    return i, n


def _strip_typer(side: str) -> Callable[..., Any]:
    left, right = side in ("", "l"), side in ("", "r")
    name = side + "strip"

    def typer(s: Any, chars: Any = None) -> Any:
        if chars is not None and chars != types.none:
            if not types.is_str(chars):
                raise TypingError(f"{name} arg must be None or str")

            def strip_chars(s, chars=None):
                c = _codes(s)
                i, n = _strip_chars(c, _codes(chars), left, right)
                return _text(c[i:n])

            return strip_chars

        def strip(s, chars=None):
            c = _codes(s)
            i, n = _strip_space(c, left, right)
            return _text(c[i:n])

        return strip

    return typer


for _side in ("", "l", "r"):
    _key(_side + "strip")(_strip_typer(_side))


def _split_space(s, sep=None, maxsplit=-1):
    c = _codes(s)
    n = len(c)
    out = []
    i = 0
    splits = 0
    while True:
        while i < n and _is_space(c[i]):
            i += 1
        if i >= n:
            break
        if maxsplit >= 0 and splits >= maxsplit:
            out.append(_text(c[i:n]))  # (the rest as it is)
            break
        j = i
        while j < n and not _is_space(c[j]):
            j += 1
        out.append(_text(c[i:j]))
        splits += 1
        i = j
    return out


def _split_on(s, sep=None, maxsplit=-1):
    c = _codes(s)
    d = _codes(sep)
    if len(d) == 0:
        raise ValueError("empty separator")
    n = len(c)
    out = []
    i = 0
    splits = 0
    while maxsplit < 0 or splits < maxsplit:
        j = _find(c, d, i, n)
        if j < 0:
            break
        out.append(_text(c[i:j]))
        i = j + len(d)
        splits += 1
    out.append(_text(c[i:n]))
    return out


@_key("split")
def _split_typer(s: Any, sep: Any = None, maxsplit: Any = None) -> Any:
    if maxsplit is not None and not types.is_integral(maxsplit):
        raise TypingError(f"'{_python_name(maxsplit)}' object cannot be interpreted as an integer")
    if sep is None or sep == types.none:
        return _split_space
    if not types.is_str(sep):
        raise TypingError(f"must be str or None, not {_python_name(sep)}")
    return _split_on


def _join(sep, parts):
    d = _codes(sep)
    out = _empty()
    first = True
    for part in parts:
        if not first:
            out.extend(d)
        out.extend(_codes(part))
        first = False
    return _text(out)


def _join_tuple(sep, parts):
    items = [*parts]  # (strs known when compiling: run-time ones in a list)
    return _join(sep, items)


@_key("join")
def _join_typer(sep: Any, parts: Any) -> Any:
    if isinstance(parts, types.Tuple) and parts.elements and all(types.is_str(e) for e in parts.elements):
        return _join_tuple
    if not isinstance(parts, types.List) or (parts.item is not None and not types.is_str(parts.item)):
        raise TypingError(f"str.join() takes a list or tuple of strs, not {parts}")
    return _join


def _bounds_typer(start: Any, end: Any) -> None:
    for bound in (start, end):
        _needs_index(bound)


def _affix(s, affix, start, end, at_end):
    c = _codes(s)
    a = _codes(affix)
    n = len(c)
    i = 0 if start is None else _clamp_start(start, n)
    j = n if end is None else _clamp(end, n)
    if j - i < len(a):
        return False
    k = j - len(a) if at_end else i
    for m in range(len(a)):
        if c[k + m] != a[m]:
            return False
    return True


def _affix_typer(at_end: bool) -> Callable[..., Any]:
    name = "endswith" if at_end else "startswith"

    def typer(s: Any, affix: Any, start: Any = None, end: Any = None) -> Any:
        _bounds_typer(start, end)
        if isinstance(affix, types.Tuple):
            if not all(types.is_str(e) for e in affix.elements):
                raise TypingError(f"tuple for {name} must only contain str")

            def any_affix(s, affix, start=None, end=None):
                choices = [*affix]
                for one in choices:
                    if _affix(s, one, start, end, at_end):
                        return True
                return False

            return any_affix
        if not types.is_str(affix):
            raise TypingError(f"{name} first arg must be str or a tuple of str, not {_python_name(affix)}")

        def one_affix(s, affix, start=None, end=None):
            return _affix(s, affix, start, end, at_end)

        return one_affix

    return typer


_key("startswith")(_affix_typer(False))
_key("endswith")(_affix_typer(True))


def _search_typer(name: str) -> Callable[..., Any]:
    backwards = name in ("rfind", "rindex")
    raises = name in ("index", "rindex")

    def typer(s: Any, sub: Any, start: Any = None, end: Any = None) -> Any:
        _bounds_typer(start, end)
        if not types.is_str(sub):
            raise TypingError(f"must be str, not {_python_name(sub)}")

        def search(s, sub, start=None, end=None):
            c = _codes(s)
            n = len(c)
            i = 0 if start is None else _clamp_start(start, n)
            j = n if end is None else _clamp(end, n)
            k = -1
            if i <= n:
                k = _rfind(c, _codes(sub), i, j) if backwards else _find(c, _codes(sub), i, j)
            if raises and k < 0:
                raise ValueError("substring not found")
            return k

        return search

    return typer


for _search in ("find", "rfind", "index", "rindex"):
    _key(_search)(_search_typer(_search))


def _count(s, sub, start=None, end=None):
    c = _codes(s)
    d = _codes(sub)
    n = len(c)
    i = 0 if start is None else _clamp_start(start, n)
    j = n if end is None else _clamp(end, n)
    if i > n:
        return 0
    if len(d) == 0:
        return j - i + 1 if j >= i else 0
    found = 0
    while True:
        k = _find(c, d, i, j)
        if k < 0:
            return found
        found += 1
        i = k + len(d)


@_key("count")
def _count_typer(s: Any, sub: Any, start: Any = None, end: Any = None) -> Any:
    _bounds_typer(start, end)
    if not types.is_str(sub):
        raise TypingError(f"must be str, not {_python_name(sub)}")
    return _count


def _replace(s, old, new, count=-1):
    c = _codes(s)
    o = _codes(old)
    w = _codes(new)
    n = len(c)
    out = _empty()
    done = 0
    if len(o) == 0:
        # Between every two code points, and at both ends.
        for i in range(n + 1):
            if count < 0 or done < count:
                out.extend(w)
                done += 1
            if i < n:
                out.append(c[i])
        return _text(out)
    i = 0
    while count < 0 or done < count:
        k = _find(c, o, i, n)
        if k < 0:
            break
        out.extend(c[i:k])
        out.extend(w)
        i = k + len(o)
        done += 1
    out.extend(c[i:n])
    return _text(out)


@_key("replace")
def _replace_typer(s: Any, old: Any, new: Any, count: Any = None) -> Any:
    for t in (old, new):
        if not types.is_str(t):
            raise TypingError(f"replace() argument must be str, not {_python_name(t)}")
    if count is not None and not types.is_integral(count):
        raise TypingError(f"'{_python_name(count)}' object cannot be interpreted as an integer")
    return _replace


def _ascii_only(c, method):
    for ch in c:
        if ch > 127:
            raise NotImplementedError(f"plait: str.{method}() of non-ASCII text is not supported "
                                      "in compiled code")


def _upper(s):
    c = _codes(s)
    _ascii_only(c, "upper")
    return _text([ch - 32 if ch >= 97 and ch <= 122 else ch for ch in c])


def _lower(s):
    c = _codes(s)
    _ascii_only(c, "lower")
    return _text([ch + 32 if ch >= 65 and ch <= 90 else ch for ch in c])


_key("upper")(lambda s: _upper)
_key("lower")(lambda s: _lower)


def _all_are(c, test):
    # str.isdigit() and the like: not empty, and every code point passes.
    if len(c) == 0:
        return False
    for ch in c:
        if not test(ch):
            return False
    return True


def _is_digit_code(ch):
    return ch >= 48 and ch <= 57


def _is_alpha_code(ch):
    return (ch >= 65 and ch <= 90) or (ch >= 97 and ch <= 122)


def _is_digit(s):
    c = _codes(s)
    _ascii_only(c, "isdigit")
    return _all_are(c, _is_digit_code)


def _is_alpha(s):
    c = _codes(s)
    _ascii_only(c, "isalpha")
    return _all_are(c, _is_alpha_code)


def _is_all_space(s):
    return _all_are(_codes(s), _is_space)


_key("isdigit")(lambda s: _is_digit)
_key("isalpha")(lambda s: _is_alpha)
_key("isspace")(lambda s: _is_all_space)


def _pad_typer(name: str) -> Callable[..., Any]:
    def typer(s: Any, width: Any, fillchar: Any = None) -> Any:
        if not types.is_integral(width):
            raise TypingError(f"'{_python_name(width)}' object cannot be interpreted as an integer")
        if fillchar is not None and not types.is_str(fillchar):
            raise TypingError(f"{name}() argument 2 must be str, not {_python_name(fillchar)}")

        def pad(s, width, fillchar=" "):
            c = _codes(s)
            f = _codes(fillchar)
            if len(f) != 1:
                raise TypeError("The fill character must be exactly one character long")
            n = len(c)
            if width <= n:
                return s
            total = width - n
            left = total if name == "rjust" else 0
            if name == "center":
                # CPython's rounding: the extra character goes left when the
                # width and the length are both odd.
                left = total // 2 + (total & width & 1)
            out = f * left
            out.extend(c)
            out.extend(f * (total - left))
            return _text(out)

        return pad

    return typer


for _pad in ("ljust", "rjust", "center"):
    _key(_pad)(_pad_typer(_pad))


def _zfill(s, width):
    c = _codes(s)
    n = len(c)
    if width <= n:
        return s
    signed = n > 0 and (c[0] == 43 or c[0] == 45)
    out = c[0:1] if signed else _empty()
    out.extend([48] * (width - n))
    out.extend(c[1:] if signed else c)
    return _text(out)


@_key("zfill")
def _zfill_typer(s: Any, width: Any) -> Any:
    if not types.is_integral(width):
        raise TypingError(f"'{_python_name(width)}' object cannot be interpreted as an integer")
    return _zfill
