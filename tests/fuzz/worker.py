"""Runs generated programs under CPython and under plait.jit and compares them.

A child process of the fuzzer (a crash here is a finding): it reads program
paths on stdin, one per line, and writes one JSON result per program.
The reference run uses an instrumented copy of the program that notes when
an int leaves int64 anywhere (CPython's ints are unbounded; compiled code
raises OverflowError there, which is documented).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import math
import sys
import traceback
import types
import warnings
from typing import Any

import numpy as np

import plait

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


class _Overflow:
    seen = False


def _checked(value: Any) -> Any:
    if type(value) is int and not INT64_MIN <= value <= INT64_MAX:
        _Overflow.seen = True
    elif type(value) is tuple:
        for item in value:
            _checked(item)
    return value


class _Instrument(ast.NodeTransformer):
    """Wraps every operator, call and name store so that an int leaving int64
    anywhere is noticed."""

    def _wrap(self, node: ast.expr) -> ast.expr:
        return ast.copy_location(ast.Call(func=ast.Name("_checked", ast.Load()), args=[node], keywords=[]), node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        return self._wrap(self.generic_visit(node))  # type: ignore[arg-type]

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        return self._wrap(self.generic_visit(node))  # type: ignore[arg-type]

    def visit_Call(self, node: ast.Call) -> ast.expr:
        return self._wrap(self.generic_visit(node))  # type: ignore[arg-type]

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        self.generic_visit(node)
        if isinstance(node.target, ast.Name):
            check = ast.Expr(self._wrap(ast.Name(node.target.id, ast.Load())))
            return [node, ast.copy_location(check, node)]
        return node


def plain(value: Any) -> Any:
    """A comparable form: NumPy scalars and arrays carry their dtype."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.name, value.shape, tuple(plain(v) for v in value.ravel().tolist()))
    if isinstance(value, np.generic):
        return ("numpy", value.dtype.name, plain(value.item()))
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    return value


def same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


class _UndefinedCast:
    """Whether the reference run cast NaN, inf or an out-of-range float to
    an integer (NumPy warns "invalid value encountered in cast": the result
    is undefined there, and compiled code saturates, as documented)."""

    seen = False


def outcome(fn: Any, args: list[Any]) -> tuple[Any, ...]:
    try:
        with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore", invalid="warn"):
            warnings.simplefilter("always")
            try:
                return ("value", plain(fn(*args)))
            finally:
                _UndefinedCast.seen = any("encountered in cast" in str(w.message) for w in caught)
    except plait.CompileError as error:
        return ("refused", type(error).__name__, str(error))
    except Exception as error:  # noqa: BLE001 - the comparison is the point
        return ("raised", type(error).__name__, str(error))


def load(path: str) -> tuple[types.ModuleType, dict[str, Any], dict[str, Any]]:
    spec = importlib.util.spec_from_file_location(f"fuzz_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    # Jitted copies whose globals name each other: calls are native.
    jitted: dict[str, Any] = dict(vars(module))
    for name, value in vars(module).items():
        if isinstance(value, types.FunctionType) and name != "cases":
            jitted[name] = plait.jit(types.FunctionType(value.__code__, jitted, name, value.__defaults__))
    # The instrumented reference.
    with open(path) as source:
        tree = _Instrument().visit(ast.parse(source.read()))
    ast.fix_missing_locations(tree)
    reference: dict[str, Any] = {"_checked": _checked, "__name__": "reference"}
    exec(compile(tree, path, "exec"), reference)
    return module, jitted, reference


def compare(path: str) -> dict[str, Any]:
    module, jitted, reference = load(path)
    cases_ref, cases_jit, cases_original = reference["cases"](), module.cases(), module.cases()
    for index, (ref_args, jit_args, original) in enumerate(zip(cases_ref, cases_jit, cases_original)):
        ref_args, jit_args = list(ref_args), list(jit_args)
        _Overflow.seen = False
        expected = outcome(reference["main"], ref_args)
        overflowed, undefined_cast = _Overflow.seen, _UndefinedCast.seen
        got = outcome(jitted["main"], jit_args)
        if got[0] == "refused":
            internal = "internal" in got[2]
            return {"status": "finding" if internal else "refused", "case": index, "got": list(got)}
        if got[0] == "raised" and got[1] == "OverflowError" and overflowed:
            continue  # documented: int64 instead of unbounded ints
        if undefined_cast and got[0] != "refused" and "internal" not in str(got[-1]):
            continue  # documented: undefined in NumPy, saturating here
        if got[0] == "raised" and "internal" in got[2]:
            return {"status": "finding", "case": index, "expected": repr(expected), "got": repr(got)}
        if expected[0] != got[0] or not same(expected[1:], got[1:]):
            return {"status": "finding", "case": index, "args": repr(original), "expected": repr(expected),
                    "got": repr(got)}
        for before, after_ref, after_jit in zip(original, ref_args, jit_args):
            if isinstance(before, np.ndarray) and not same(plain(after_ref), plain(after_jit)):
                return {"status": "finding", "case": index, "args": repr(original), "kind": "in-place effect",
                        "expected": repr(after_ref), "got": repr(after_jit)}
    return {"status": "ok"}


def main() -> None:
    for line in sys.stdin:
        path = line.strip()
        if not path:
            continue
        try:
            result = compare(path)
        except SyntaxError as error:
            result = {"status": "invalid", "detail": str(error)}
        except Exception:  # noqa: BLE001 - reported to the driver
            result = {"status": "error", "detail": traceback.format_exc()}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
