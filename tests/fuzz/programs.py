"""Random programs inside plait.jit's documented subset, for differential
fuzzing against CPython and NumPy.

A program is a module with a few functions (`main` and helpers it calls) and
`cases()`, the argument tuples to call `main` with. Variables keep one type
each (the subset's rule), so any difference between the interpreter and the
compiled code is a finding. Result types of NumPy operations are taken from
NumPy itself, by evaluating the operation on sample values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

INT, FLOAT, BOOL, COMPLEX = "int", "float", "bool", "complex"
DTYPES = ["float64", "float32", "int64", "int32", "int16", "int8", "uint8", "uint64", "bool", "complex128"]
#: Python operators by the types they accept; ** only with small constant
#: exponents (int ** negative int is a float in Python, refused by plait).
ARITH = ["+", "-", "*", "//", "%"]
INT_ONLY = ["&", "|", "^"]
COMPARE = ["<", "<=", "==", "!=", ">", ">="]
MATH_FLOAT = ["sqrt", "exp", "log", "sin", "cos", "atan", "fabs", "tanh", "log1p", "expm1"]
MATH_INT = ["floor", "ceil", "trunc"]


def scalar_type(t: str) -> bool:
    return not t.startswith("A")


def array_type(dtype: str, ndim: int) -> str:
    return f"A{dtype}:{ndim}"


def array_parts(t: str) -> tuple[str, int]:
    dtype, ndim = t[1:].split(":")
    return dtype, int(ndim)


def numpy_scalar(dtype: str) -> str:
    return f"np.{dtype}"


def _sample(t: str, nonzero: bool = True) -> object:
    if t == INT:
        return 3
    if t == FLOAT:
        return 2.5
    if t == BOOL:
        return True
    if t == COMPLEX:
        return 1.5 - 2j
    if t.startswith("np."):
        return np.dtype(t[3:]).type(1 if nonzero else 0)
    dtype, ndim = array_parts(t)
    return np.ones((2,) * ndim, dtype=dtype)


def _type_of(value: object) -> Optional[str]:
    if isinstance(value, np.ndarray):
        if value.dtype.name not in DTYPES or value.ndim == 0:
            return None
        return array_type(value.dtype.name, value.ndim)
    if isinstance(value, np.generic):
        return numpy_scalar(value.dtype.name) if value.dtype.name in DTYPES else None
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, complex):
        return COMPLEX
    return None


_result_cache: dict[tuple[str, str, str], Optional[str]] = {}


def result_type(op: str, left: str, right: str) -> Optional[str]:
    """The type of `left op right` as CPython and NumPy compute it, or None
    when the combination raises (or gives a type outside the subset)."""
    key = (op, left, right)
    complex_operand = "complex" in left or "complex" in right
    if complex_operand and op in ("**", "<", "<=", ">", ">=", "//", "%"):
        return None  # documented: not supported for complex numbers
    if key not in _result_cache:
        try:
            with np.errstate(all="ignore"):
                value = eval(f"l {op} r", {"l": _sample(left), "r": _sample(right)})
            _result_cache[key] = _type_of(value)
        except Exception:  # noqa: BLE001 - a TypeError means "not this pair"
            _result_cache[key] = None
    return _result_cache[key]


@dataclass
class Function:
    name: str
    params: list[tuple[str, str]]  # (name, type)
    result: str
    body: list[str] = field(default_factory=list)


class Generator:
    """One random program; `rng` decides everything (a seed reproduces it)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.functions: list[Function] = []
        self.variables: dict[str, str] = {}  # of the function being generated
        self.arrays: set[str] = set()
        self.loop_depth = 0
        self.counter = 0
        #: The source of a value to return early, if the function allows it.
        self.function_result: Optional[callable] = None  # type: ignore[valid-type]

    # -- names and leaves -----------------------------------------------------
    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def literal(self, t: str) -> str:
        r = self.rng
        if t == INT:
            return str(r.choice([0, 1, 2, 3, -1, -2, 5, 7, 10, -7, 100, 2**31, -(2**40), 2**62]))
        if t == FLOAT:
            return r.choice(["0.0", "-0.0", "0.5", "1.5", "2.0", "-3.25", "1e300", "1e-300", "7.0",
                             "math.inf", "-math.inf", "math.nan", "0.1", "-2.5"])
        if t == BOOL:
            return r.choice(["True", "False"])
        if t == COMPLEX:
            return r.choice(["1j", "(1.5-2j)", "(-0.0+0j)", "complex(2, 3)", "(3+0j)", "(1e300+1e300j)"])
        if t.startswith("np."):
            dtype = t[3:]
            if dtype == "complex128":
                return f"np.complex128({r.choice(['1j', '(2-1j)', '0.5', '3'])})"
            if dtype == "bool":
                return f"np.bool_({r.choice(['True', 'False'])})"
            if dtype.startswith("float"):
                return f"np.{dtype}({r.choice(['0.5', '-1.5', '3.0', '0.0', '-0.0', '100.25'])})"
            low = 0 if dtype.startswith("u") else -5
            return f"np.{dtype}({r.randint(low, 9)})"
        raise AssertionError(t)

    def names_of(self, t: str) -> list[str]:
        return [name for name, vt in self.variables.items() if vt == t]

    # -- expressions ----------------------------------------------------------
    def expr(self, t: str, depth: int = 0) -> str:
        """An expression of type `t` (a scalar type)."""
        for _ in range(8):
            candidate = self._try_expr(t, depth)
            if candidate is not None:
                return candidate
        return self.leaf(t)

    def leaf(self, t: str) -> str:
        names = self.names_of(t)
        if names and self.chance(0.7):
            return self.rng.choice(names)
        return self.literal(t)

    def any_scalar_type(self) -> str:
        r = self.rng.random()
        if r < 0.35:
            return INT
        if r < 0.6:
            return FLOAT
        if r < 0.7:
            return BOOL
        if r < 0.75:
            return COMPLEX
        return numpy_scalar(self.rng.choice(DTYPES))

    def _try_expr(self, t: str, depth: int) -> Optional[str]:
        r = self.rng
        if depth >= 3 or r.random() < 0.25:
            return self.leaf(t)
        kind = r.randint(0, 9)
        if kind <= 3:  # a binary operator whose NumPy/CPython result type is t
            op = r.choice(ARITH + INT_ONLY + ["/", "**"])
            left, right = self.any_scalar_type(), self.any_scalar_type()
            if r.random() < 0.5:
                left = t if t != BOOL else left
            if op == "**":
                right = INT
                if result_type(op, left, right) != t:
                    return None
                return f"({self.expr(left, depth + 1)} ** {r.randint(0, 3)})"
            if result_type(op, left, right) != t:
                return None
            if op in ("<<", ">>"):
                return None
            return f"({self.expr(left, depth + 1)} {op} {self.expr(right, depth + 1)})"
        if kind == 4 and t in (BOOL,) or (t.startswith("np.") and t[3:] == "bool" and kind == 4):
            op = r.choice(COMPARE)
            left, right = self.any_scalar_type(), self.any_scalar_type()
            if result_type(op, left, right) != t:
                return None
            return f"({self.expr(left, depth + 1)} {op} {self.expr(right, depth + 1)})"
        if kind == 5:  # an element of an array of this dtype
            if not t.startswith("np."):
                return None
            arrays = [name for name, vt in self.variables.items()
                      if not scalar_type(vt) and array_parts(vt)[0] == t[3:]]
            if not arrays:
                return None
            name = r.choice(arrays)
            return f"{name}[{self.index_expr(name)}]"
        if kind == 6:  # builtins and math
            if t == INT:
                choice = r.randint(0, 5)
                if choice == 0:
                    return f"abs({self.expr(INT, depth + 1)})"
                if choice == 1:
                    return f"{r.choice(['min', 'max'])}({self.expr(INT, depth + 1)}, {self.expr(INT, depth + 1)})"
                if choice == 2:
                    return f"int({self.expr(FLOAT, depth + 1)})"
                if choice == 3:
                    return f"round({self.expr(FLOAT, depth + 1)})"
                if choice == 4:
                    return f"math.{r.choice(MATH_INT)}({self.expr(FLOAT, depth + 1)})"
                arrays = [name for name, vt in self.variables.items() if not scalar_type(vt)]
                if arrays:
                    name = r.choice(arrays)
                    return r.choice([f"len({name})", f"{name}.size", f"{name}.shape[0]", f"{name}.ndim"])
                return None
            if t == FLOAT:
                choice = r.randint(0, 3)
                if choice == 0:
                    return f"math.{r.choice(MATH_FLOAT)}({self.expr(FLOAT, depth + 1)})"
                if choice == 1:
                    return f"float({self.expr(r.choice([INT, BOOL, FLOAT]), depth + 1)})"
                if choice == 2:
                    return f"abs({self.expr(FLOAT, depth + 1)})"
                return f"round({self.expr(FLOAT, depth + 1)}, {r.randint(-3, 3)})"
            if t == FLOAT and r.random() < 0.3:
                return f"{self.expr(COMPLEX, depth + 1)}.{r.choice(['real', 'imag'])}"
            if t == BOOL:
                if r.random() < 0.3:
                    a, b, c = (self.expr(INT, depth + 1) for _ in range(3))
                    return f"({a} {r.choice(COMPARE)} {b} {r.choice(COMPARE)} {c})"
                return f"(not {self.expr(r.choice([INT, FLOAT, BOOL]), depth + 1)})"
            if t == COMPLEX:
                return r.choice([f"complex({self.expr(FLOAT, depth + 1)}, {self.expr(INT, depth + 1)})",
                                 f"{self.expr(COMPLEX, depth + 1)}.conjugate()"])
            if t.startswith("np.") and not t.endswith("bool") and r.random() < 0.5:
                source = r.choice([INT, FLOAT]) if not t[3:].startswith("u") else INT
                return f"np.{t[3:]}({self.expr(source, depth + 1)})"
            return None
        if kind == 7 and t.startswith("np.") and r.random() < 0.5:  # a reduction
            arrays = [name for name, vt in self.variables.items() if not scalar_type(vt)]
            if not arrays:
                return None
            name = r.choice(arrays)
            function = r.choice(["sum", "prod", "mean"] + (["min", "max"] if "complex" not in self.variables[name] else []))
            value = f"np.{function}({name})"
            try:
                with np.errstate(all="ignore"):
                    produced = _type_of(eval(value, {"np": np, name: _sample(self.variables[name])}))
            except Exception:  # noqa: BLE001 - complex min/max and the like
                return None
            return value if produced == t else None
        if kind == 7:  # a conditional expression
            return f"({self.expr(t, depth + 1)} if {self.expr(BOOL, depth + 1)} else {self.expr(t, depth + 1)})"
        if kind == 8 and t == INT:  # shifts with small counts
            return f"({self.expr(INT, depth + 1)} {r.choice(['<<', '>>'])} {r.randint(0, 8)})"
        if kind == 9:  # a helper's result
            helpers = [f for f in self.functions if f.result == t and
                       all(scalar_type(pt) or pt in self.variables.values() for _, pt in f.params)]
            if helpers:
                f = r.choice(helpers)
                args = ", ".join(self.argument(pt) for _, pt in f.params)
                return f"{f.name}({args})"
        return None

    def argument(self, t: str) -> Optional[str]:
        if scalar_type(t):
            return self.expr(t, 2)
        candidates = [name for name, vt in self.variables.items() if vt == t]
        return self.rng.choice(candidates)

    def index_expr(self, array: str) -> str:
        """One or more indices for an element of `array` (may be out of range:
        IndexError is compared too)."""
        _, ndim = array_parts(self.variables[array])
        loops = [name for name in self.names_of(INT) if name.startswith("i")]
        parts = []
        for _ in range(ndim):
            r = self.rng.random()
            if loops and r < 0.5:
                parts.append(self.rng.choice(loops) + self.rng.choice(["", " - 1", " + 1", ""]))
            elif r < 0.8:
                parts.append(str(self.rng.choice([0, 1, -1, 2, 3, -2])))
            else:
                parts.append(self.expr(INT, 2))
        return ", ".join(parts)

    # -- array expressions ----------------------------------------------------
    def array_expr(self) -> Optional[tuple[str, str]]:
        """A whole-array expression and its type."""
        arrays = [name for name, vt in self.variables.items() if not scalar_type(vt)]
        if not arrays:
            return None
        name = self.rng.choice(arrays)
        t = self.variables[name]
        choice = self.rng.randint(0, 5)
        if choice == 0:
            other = self.rng.choice(arrays)
            op = self.rng.choice(ARITH + COMPARE + INT_ONLY)
            rt = result_type(op, t, self.variables[other])
            return (f"({name} {op} {other})", rt) if rt else None
        if choice in (1, 2):
            st = self.rng.choice([INT, FLOAT, BOOL, numpy_scalar(self.rng.choice(DTYPES))])
            op = self.rng.choice(ARITH + COMPARE)
            rt = result_type(op, t, st)
            return (f"({name} {op} {self.expr(st, 2)})", rt) if rt else None
        if choice == 3:
            rt = result_type("+", t, t)  # -x keeps the dtype (not for bool)
            return (f"(-{name})", t) if array_parts(t)[0] != "bool" and rt else None
        if choice == 4:
            dtype, ndim = array_parts(t)
            if dtype in ("float64", "float32"):
                return f"np.sqrt({name})", t
            if dtype == "bool" or dtype.startswith("u"):
                return None
            return f"np.abs({name})", t
        dtype, ndim = array_parts(t)
        if ndim == 1:
            return f"{name}[{self.rng.choice(['1:', ':-1', '::2', '::-1', '1:3'])}]", array_type(dtype, 1)
        index = self.rng.choice(['0', '1:', ':, 0', '::-1', '-1, 1:'])
        return f"{name}[{index}]", _type_of(eval(f"x[{index}]", {"x": _sample(t)}))

    # -- statements -----------------------------------------------------------
    def statement(self, indent: int, depth: int) -> list[str]:
        pad = "    " * indent
        r = self.rng
        # Loop variables and while counters are never assigned in bodies
        # (a re-assigned counter could loop forever).
        scalars = [name for name, t in self.variables.items()
                   if scalar_type(t) and not name.startswith(("i", "w"))]
        choice = r.randint(0, 16)
        if choice == 15 and self.arrays:  # re-bind an array variable (a view, a copy, a new array)
            name = r.choice(sorted(self.arrays))
            dtype, ndim = array_parts(self.variables[name])
            values = [f"{name}[::-1]", f"{name}.copy()", f"{name}[1:]" if ndim == 1 else f"{name}[:, ::-1]"]
            if dtype not in ("bool", "complex128"):
                values.append(f"{name} * 1")
            return [f"{pad}{name} = {r.choice(values)}"]
        if choice == 16 and len(self.arrays) >= 2:  # swap two array variables of one type
            first = r.choice(sorted(self.arrays))
            same = [n for n in sorted(self.arrays) if n != first and self.variables[n] == self.variables[first]]
            if not same:
                return []
            second = r.choice(same)
            return [f"{pad}{first}, {second} = {second}, {first}"]
        if choice <= 2 and scalars:  # re-assign a scalar (same type)
            name = r.choice(scalars)
            return [f"{pad}{name} = {self.expr(self.variables[name])}"]
        if choice == 3 and scalars:
            name = r.choice(scalars)
            t = self.variables[name]
            op = r.choice(["+", "-", "*"]) if t != BOOL else r.choice(["&", "|", "^"])
            rhs_type = t if r.random() < 0.6 else (INT if t in (INT, FLOAT) else t)
            if result_type(op, t, rhs_type) != t:
                return []
            return [f"{pad}{name} {op}= {self.expr(rhs_type, 1)}"]
        if choice in (4, 5) and depth < 3:  # if / else
            lines = [f"{pad}if {self.expr(BOOL)}:"] + self.block(indent + 1, depth + 1)
            if r.random() < 0.5:
                lines += [f"{pad}else:"] + self.block(indent + 1, depth + 1)
            return lines
        if choice == 6 and depth < 3:  # for over a range
            loop = self.fresh("i")
            self.variables[loop] = INT
            bound = r.choice([str(r.randint(0, 6)), f"len({r.choice(sorted(self.arrays))})" if self.arrays else "3",
                              f"{self.expr(INT, 2)} % 7"])
            header = r.choice([f"range({bound})", f"range(1, {bound})", f"range({bound}, -1, -1)",
                               f"range(0, {bound}, 2)"])
            self.loop_depth += 1
            body = self.block(indent + 1, depth + 1)
            if r.random() < 0.3:
                body += [f"{pad}    if {self.expr(BOOL, 2)}:", f"{pad}        {r.choice(['break', 'continue'])}"]
            self.loop_depth -= 1
            lines = [f"{pad}for {loop} in {header}:"] + body
            if r.random() < 0.15:
                lines += [f"{pad}else:"] + self.block(indent + 1, depth + 1)
            return lines
        if choice == 7 and depth < 3:  # a bounded while
            counter = self.fresh("w")
            self.variables[counter] = INT
            body = self.block(indent + 1, depth + 1)
            return [f"{pad}{counter} = 0", f"{pad}while {counter} < {r.randint(0, 5)} and {self.expr(BOOL, 2)}:"] + body + [
                f"{pad}    {counter} += 1"]
        if choice in (8, 9) and self.arrays:  # an element store
            name = r.choice(sorted(self.arrays))
            dtype, ndim = array_parts(self.variables[name])
            source = r.choice([INT, FLOAT, BOOL, numpy_scalar(dtype), numpy_scalar(r.choice(DTYPES))])
            if dtype != "bool" and source in (BOOL, "np.bool") and r.random() < 0.5:
                source = INT
            if "complex" in source and dtype != "complex128":
                source = FLOAT  # complex into real arrays: refused (NumPy raises or warns)
            op = r.choice(["=", "=", "+=", "-="]) if dtype != "bool" else "="
            if op != "=" and result_type(op[0], numpy_scalar(dtype), source) is None:
                op = "="
            return [f"{pad}{name}[{self.index_expr(name)}] {op} {self.expr(source, 1)}"]
        if choice == 10 and self.arrays:  # a slice fill or copy
            name = r.choice(sorted(self.arrays))
            dtype, ndim = array_parts(self.variables[name])
            target = f"{name}[{r.choice(['1:', ':', '::2', '::-1', ':-1'])}]" if ndim == 1 else f"{name}[{r.choice(['0', '1:', ':'])}]"
            if r.random() < 0.5:
                return [f"{pad}{target} = {self.expr(r.choice([INT, FLOAT, numpy_scalar(dtype)]), 2)}"]
            expression = self.array_expr()
            if expression is None or expression[1] is None:
                return []
            if array_parts(expression[1])[0] == "bool" and dtype != "bool":
                return []
            if "complex" in expression[1] and dtype != "complex128":
                return []
            return [f"{pad}{target} = {expression[0]}"]
        if choice == 12 and len(scalars) >= 2:  # swap two variables of one type
            first = r.choice(scalars)
            same_type = [name for name in scalars if name != first and self.variables[name] == self.variables[first]]
            if same_type:
                second = r.choice(same_type)
                return [f"{pad}{first}, {second} = {second}, {first}"]
            return []
        if choice == 13 and depth < 3 and self.arrays:  # over an array's elements or rows
            name = r.choice(sorted(self.arrays))
            dtype, ndim = array_parts(self.variables[name])
            if ndim != 1:
                return []
            item = self.fresh("x")
            self.variables[item] = numpy_scalar(dtype)
            body = self.block(indent + 1, depth + 1)
            del self.variables[item]  # (elements are NumPy scalars of the dtype)
            return [f"{pad}for {item} in {name}:"] + body
        if choice == 14 and self.function_result and depth > 0:  # an early return
            return [f"{pad}if {self.expr(BOOL, 2)}:", f"{pad}    return {self.function_result()}"]
        if choice == 11 and self.arrays:  # in place on a whole array
            name = r.choice(sorted(self.arrays))
            t = self.variables[name]
            dtype, _ = array_parts(t)
            source = r.choice([INT, FLOAT, numpy_scalar(dtype)])
            op = r.choice(["+", "-", "*"])
            if dtype == "bool" or result_type(op, t, source) != t:
                return []
            return [f"{pad}{name} {op}= {self.expr(source, 2)}"]
        return []

    def block(self, indent: int, depth: int) -> list[str]:
        lines: list[str] = []
        for _ in range(self.rng.randint(1, 3)):
            lines += self.statement(indent, depth)
        return lines or ["    " * indent + "pass"]

    # -- functions and the program -------------------------------------------
    def helper(self, array_types: list[str]) -> Function:
        params = [(self.fresh("p"), self.rng.choice([INT, FLOAT, BOOL, COMPLEX])) for _ in range(self.rng.randint(1, 3))]
        if array_types and self.rng.random() < 0.4:  # reads and writes an array of main's
            params.append((self.fresh("a"), self.rng.choice(array_types)))
        result = self.rng.choice([INT, FLOAT, FLOAT, COMPLEX])
        f = Function(self.fresh("helper"), params, result)
        self.variables = dict(params)
        self.arrays = {name for name, t in params if not scalar_type(t)}
        self.function_result = lambda: self.expr(result, 2)
        for _ in range(self.rng.randint(0, 2)):
            local = self.fresh("v")
            t = self.rng.choice([INT, FLOAT])
            f.body.append(f"    {local} = {self.expr(t)}")
            self.variables[local] = t
        f.body += self.block(1, 1)
        f.body.append(f"    return {self.expr(result)}")
        self.function_result = None
        return f

    def main(self, array_params: list[str]) -> Function:
        scalar_params = [(self.fresh("p"), self.rng.choice([INT, INT, FLOAT, BOOL, "np.float32", "np.int8"]))
                         for _ in range(self.rng.randint(1, 3))]
        params = scalar_params + [(self.fresh("a"), t) for t in array_params]
        f = Function("main", params, "")
        self.variables = dict(params)
        self.arrays = {name for name, t in params if not scalar_type(t)}
        # Array locals: bound once, at the top level.
        if self.rng.random() < 0.3:
            local = self.fresh("b")
            dtype = self.rng.choice(DTYPES)
            size = self.rng.choice(["3", "0", f"{self.leaf(INT)} % 5"])
            constructor = self.rng.choice([f"np.zeros({size}, dtype=np.{dtype})", f"np.ones({size}, np.{dtype})",
                                           f"np.full({size}, {self.literal(numpy_scalar(dtype))})",
                                           f"np.empty({size}, np.{dtype})" if dtype != "bool" else "np.zeros(2, bool)"])
            try:
                with np.errstate(all="ignore"):
                    made = eval(constructor.replace(self.leaf(INT), "3"), {"np": np})
            except Exception:  # noqa: BLE001
                made = None
            if isinstance(made, np.ndarray) and _type_of(made):
                f.body.append(f"    {local} = {constructor}")
                if constructor.startswith("np.empty("):
                    # Its contents are whatever the memory held (NaN * 0 is
                    # NaN): filled before use.
                    f.body.append(f"    {local}.fill(0)")
                self.variables[local] = _type_of(made)
                self.arrays.add(local)
        for _ in range(self.rng.randint(0, 2)):
            expression = self.array_expr()
            if expression is None or expression[1] is None:
                continue
            local = self.fresh("b")
            f.body.append(f"    {local} = {expression[0]}")
            self.variables[local] = expression[1]
            self.arrays.add(local)
        scalars = []
        for _ in range(self.rng.randint(1, 4)):
            local = self.fresh("s")
            t = self.any_scalar_type()
            f.body.append(f"    {local} = {self.expr(t)}")
            self.variables[local] = t
            scalars.append(local)
        f.body += self.block(1, 0)
        for _ in range(self.rng.randint(0, 3)):
            f.body += self.statement(1, 1)
        returned = list(scalars)
        if self.arrays and self.rng.random() < 0.5:
            name = self.rng.choice(sorted(self.arrays))
            dtype, _ = array_parts(self.variables[name])
            if dtype != "bool":
                returned.append(self.rng.choice([f"np.sum({name})", f"{name}.shape[0]", name]))
        final = f"return {', '.join(returned)}" + ("," if len(returned) == 1 else "")
        if self.rng.random() < 0.2:  # both paths of an if/else return
            f.body += [f"    if {self.expr(BOOL, 2)}:", f"        {final}", "    else:", f"        {final}"]
        else:
            f.body.append(f"    {final}")
        return f

    def array_arguments(self) -> list[str]:
        types = []
        for _ in range(self.rng.randint(0, 2)):
            types.append(array_type(self.rng.choice(DTYPES), self.rng.choice([1, 1, 2])))
        return types

    def value(self, t: str) -> str:
        """Source of an argument value of type `t`."""
        r = self.rng
        if scalar_type(t):
            if t == INT:
                return str(r.choice([0, 1, -1, 2, 5, -3, 7, 100, 2**40, -(2**62), 9223372036854775807]))
            if t == FLOAT:
                return r.choice(["0.0", "-0.0", "1.5", "-2.25", "float('inf')", "float('nan')", "1e308", "3.0"])
            if t == BOOL:
                return r.choice(["True", "False"])
            if t == COMPLEX:
                return r.choice(["1j", "(2.5-1j)", "complex('nan')", "0j"])
            return self.literal(t)
        dtype, ndim = array_parts(t)
        shape = tuple(r.randint(0, 4) for _ in range(ndim))
        size = int(np.prod(shape))
        if dtype == "bool":
            values = [r.choice([True, False]) for _ in range(size)]
        elif dtype == "complex128":
            values = [r.choice([1 + 2j, -0.5j, 3 + 0j, -2.25 + 1j, 0j]) for _ in range(size)]
        elif dtype.startswith("float"):
            values = [r.choice([0.0, -0.0, 1.5, -2.0, 3.25, 100.0, 0.5]) for _ in range(size)]
        elif dtype.startswith("u"):
            values = [r.randint(0, 200) for _ in range(size)]
        else:
            values = [r.randint(-100, 100) for _ in range(size)]
        layout = r.choice(["", "", ".copy(order='F')", "[::-1]"]) if ndim == 2 else r.choice(["", "", "[::-1]"])
        return f"np.array({values!r}, dtype=np.{dtype}).reshape({shape!r}){layout}"

    def program(self) -> str:
        arrays = self.array_arguments()
        for _ in range(self.rng.randint(0, 2)):
            self.functions.append(self.helper(arrays))
        main = self.main(arrays)
        lines = ["import math", "", "import numpy as np", ""]
        for f in self.functions + [main]:
            params = ", ".join(name for name, _ in f.params)
            lines += ["", f"def {f.name}({params}):"] + f.body + [""]
        cases = []
        for _ in range(4):
            cases.append("(" + ", ".join(self.value(t) for _, t in main.params) + ",)")
        lines += ["", "def cases():", "    return [", *[f"        {c}," for c in cases], "    ]", ""]
        return "\n".join(lines)


def generate(seed: int) -> str:
    return Generator(random.Random(seed)).program()


if __name__ == "__main__":
    import sys

    print(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
