"""The types plait.jit infers, as plait.overload's type-level functions see them.

A type-level function (see plait.overload) is called with one of these per
argument: Python's ``bool``, ``int``, ``float``, ``complex`` and ``None``,
NumPy scalars, arrays (dtype, number of axes, layout), tuples, dtypes and
string constants. Types compare equal by value (their literal values
aside) and print as signatures spell them (``float64[:, ::1]``).

An argument written as a constant (``axis=1``, ``(0, 1)``, ``None``,
``'left'``, a global bound to one) carries its value as the type's
``literal_value`` (``NO_LITERAL`` otherwise), as Numba's literal types do:
the type-level function may build its implementation around it.
"""

from __future__ import annotations

import ast
import copy

import re
from typing import Any, Optional

__all__ = [
    "Type",
    "Boolean",
    "Integer",
    "Float",
    "Complex",
    "Function",
    "NoneType",
    "NumPyScalar",
    "DType",
    "String",
    "NO_LITERAL",
    "with_literal",
    "Array",
    "Tuple",
    "boolean",
    "integer",
    "float64",
    "complex128",
    "none",
    "parse",
    "is_number",
    "is_integral",
    "operand_dtype",
]


class _NoLiteral:
    def __repr__(self) -> str:
        return "NO_LITERAL"


#: literal_value of an argument that is not a constant.
NO_LITERAL: Any = _NoLiteral()


class Type:
    """A type of compiled code; compares and hashes by its spelling."""

    name: str = "?"
    #: The argument's value when the call wrote a constant, else NO_LITERAL.
    literal_value: Any = NO_LITERAL

    @property
    def has_literal(self) -> bool:
        return self.literal_value is not NO_LITERAL

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"plait.types.parse({str(self)!r})"


class Boolean(Type):
    """Python's bool."""

    name = "bool"


class Integer(Type):
    """Python's int (64-bit in compiled code)."""

    name = "int"


class Float(Type):
    """Python's float."""

    name = "float"


class Complex(Type):
    """Python's complex."""

    name = "complex"


class NoneType(Type):
    """None (an omitted optional argument, too)."""

    name = "None"


class NumPyScalar(Type):
    """A NumPy scalar such as numpy.float32 (what array elements load as)."""

    def __init__(self, dtype: Any) -> None:
        import numpy

        self.dtype = numpy.dtype(dtype)
        self.name = f"numpy.{self.dtype.name}"


class DType(Type):
    """A dtype as a value (np.float32, a.dtype, float as dtype=)."""

    def __init__(self, dtype: Any) -> None:
        import numpy

        self.dtype = numpy.dtype(dtype)
        self.name = f"dtype[{self.dtype.name}]"


class Function(Type):
    """A lambda or an inner def passed as a value: `ident` names its code,
    `captured` the types of the values it captured. Implementations call it
    as compiled code calls any function."""

    def __init__(self, ident: int, captured: "list[Type] | tuple[Type, ...]") -> None:
        self.ident = ident
        self.captured = tuple(captured)
        self.name = f"function[{ident}]({', '.join(str(c) for c in self.captured)})"


class String(Type):
    """A string constant passed to an implementation (side='left'): its
    value is its literal_value; implementations receive it as a constant
    of the code (plait's str primitives make it a run-time str where needed)."""

    def __init__(self, value: str) -> None:
        self.literal_value = value
        self.name = f"str[{value!r}]"


class Str(Type):
    """A str computed when the code runs (its code points in a list's box)."""

    name = "str"


def is_str(t: Any) -> bool:
    """A str: a constant (String) or one computed when the code runs (Str)."""
    return isinstance(t, (String, Str))


class Array(Type):
    """A NumPy array: its dtype, its number of axes, and its layout: 'C'
    (C-contiguous), 'F' (Fortran-contiguous) or 'A' (any strides)."""

    def __init__(self, dtype: Any, ndim: int, layout: str = "A") -> None:
        import numpy

        if layout not in ("C", "F", "A"):
            raise ValueError("layout must be 'C', 'F' or 'A'")
        self.dtype = numpy.dtype(dtype)
        self.ndim = int(ndim)
        self.layout = "A" if self.ndim == 0 else layout
        axes = []
        for axis in range(self.ndim):
            last_c = self.layout == "C" and axis == self.ndim - 1
            first_f = self.layout == "F" and axis == 0 and self.ndim > 1
            axes.append("::1" if last_c or first_f else ":")
        if self.layout == "F" and self.ndim == 1:
            self.layout = "C"
            axes = ["::1"]
        self.name = f"{self.dtype.name}[{', '.join(axes)}]"


class Tuple(Type):
    """A tuple of the element types (a named tuple keeps its class name)."""

    def __init__(self, elements: "list[Type] | tuple[Type, ...]", class_name: str = "tuple") -> None:
        self.elements = tuple(elements)
        self.class_name = class_name
        self.name = f"{class_name}[{', '.join(str(e) for e in self.elements)}]"

    def __len__(self) -> int:
        return len(self.elements)

    def __getitem__(self, index: int) -> Type:
        return self.elements[index]


class List(Type):
    """A typed list: its items are all of type `item` (a number, a bool or a
    NumPy scalar); `item` is None while nothing typed was put into it
    (`[]`), spelled list[<unknown>]."""

    def __init__(self, item: Optional[Type]) -> None:
        self.item = item
        self.name = f"list[{item if item is not None else '<unknown>'}]"


class Dict(Type):
    """A typed dict: keys of type `key` and values of type `value` (None
    while nothing typed was put into it: `{}`)."""

    def __init__(self, key: Optional[Type], value: Optional[Type]) -> None:
        self.key = key
        self.value = value
        shown = [str(t) if t is not None else "<unknown>" for t in (key, value)]
        self.name = f"dict[{shown[0]}, {shown[1]}]"


boolean = Boolean()
integer = Integer()
float64 = Float()
complex128 = Complex()
none = NoneType()
_SCALARS = {"bool": boolean, "int": integer, "float": float64, "complex": complex128, "None": none, "str": Str()}


def _split_top(text: str) -> list[str]:
    """'int, tuple[int, float]' -> ['int', 'tuple[int, float]']."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def parse(text: str) -> Type:
    """The type a spelling names: 'int', 'numpy.float32', 'float64[:, ::1]',
    'tuple[int, float]'."""
    text = text.strip()
    if text in _SCALARS:
        return _SCALARS[text]
    if text.startswith("numpy."):
        return NumPyScalar(text[len("numpy.") :])
    function = re.fullmatch(r"function\[(\d+)\](?:\((.*)\))?", text)
    if function:
        captured = function.group(2)
        return Function(int(function.group(1)), [parse(item) for item in _split_top(captured or "")])
    match = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]", text)
    if not match:
        raise ValueError(f"not a plait type: {text!r}")
    head, inner = match.groups()
    if head == "dtype":
        return DType(inner)
    if head == "str":
        return String(ast.literal_eval(inner))
    items = _split_top(inner)
    if head == "list":
        return List(None if inner == "<unknown>" else parse(inner))
    if head == "dict":
        key, value = (None if item == "<unknown>" else parse(item) for item in _split_top(inner))
        return Dict(key, value)
    if head == "tuple" or head[0].isupper():
        return Tuple([parse(item) for item in items], head)
    layout = "A"
    if items and items[-1] == "::1":
        layout = "C"
    elif len(items) > 1 and items[0] == "::1":
        layout = "F"
    return Array(head, len(items), layout)


def with_literal(t: Type, literal: str) -> Type:
    """A copy of `t` whose literal_value is `literal` (Python's syntax)."""
    marked = copy.copy(t)
    marked.literal_value = ast.literal_eval(literal)
    return marked


def is_number(t: Type) -> bool:
    """A Python number or a NumPy scalar."""
    return isinstance(t, (Boolean, Integer, Float, Complex, NumPyScalar))


def is_integral(t: Type) -> bool:
    """An integer index or size: Python's int or bool, or a NumPy integer."""
    if isinstance(t, (Boolean, Integer)):
        return True
    return isinstance(t, NumPyScalar) and t.dtype.kind in "iub"


def operand_dtype(t: Type) -> Optional[Any]:
    """What NumPy's type resolution takes for an operand of this type: the
    dtype of an array or NumPy scalar, numpy's bool for a Python bool, and
    the Python type of a weak int, float or complex (NEP 50); None for a
    type that is no operand."""
    import numpy

    if isinstance(t, (Array, NumPyScalar)):
        return t.dtype
    if isinstance(t, Boolean):
        return numpy.dtype(bool)
    return {Integer: int, Float: float, Complex: complex}.get(type(t))
