"""Snapshot of a Python function for the native compiler: its AST, the globals
it reads and its defaults, as one S-expression string (see
include/plait/Frontend/SExpr.h). Runs with the GIL held; everything after it
runs detached."""

from __future__ import annotations

import ast
import builtins
import inspect
import math
import sys
import textwrap
from types import FunctionType, ModuleType
from typing import Any, Callable

from . import _overload
from ._core import jit as _native
from ._versions import rename_versions
from .errors import CompileError

#: Fields serialised per node type, in order (the native frontend's
#: definition, include/plait/Frontend/ASTNodes.def: '*' a list, '+' the
#: remaining items, '?' optional). Nodes not listed become (Unsupported ...)
#: so the native side reports them with their location.
_FIELDS: dict[str, tuple[str, ...]] = _native.snapshot_fields()

_LIST_HEADS = {
    "targets": "Targets",
    "body": "Body",
    "orelse": "Body",
    "ops": "Ops",
    "comparators": "Comparators",
    "args": "Args",
    "keywords": "Keywords",
}

_SUPPORTED_BUILTINS = frozenset(_native.supported_builtins())


def _string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + "".join(c if c.isprintable() else "\\x%02x" % (ord(c) & 0xFF) for c in escaped) + '"'


def _float(value: float) -> str:
    if value != value:
        return "#fnan"
    if value in (math.inf, -math.inf):
        return "#finf" if value > 0 else "#f-inf"
    return "#f" + value.hex()


def _atom(value: object) -> str:
    """A constant: bool, int, float, None, str or a tuple of them."""
    if value is True:
        return "#true"
    if value is False:
        return "#false"
    if value is None:
        return "#none"
    if value is Ellipsis:  # `...` in a subscript
        return "(Ellipsis)"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return _float(float(value))
    if isinstance(value, complex):
        return f"(Complex {_float(value.real)} {_float(value.imag)})"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, tuple):
        return "(Tuple " + " ".join(_atom(v) for v in value) + ")"
    return "(Unsupported " + _string(type(value).__name__) + ")"


def _is_constant(value: object) -> bool:
    if isinstance(value, (bool, int, float, complex, str)) or value is None:
        return True
    return isinstance(value, tuple) and all(_is_constant(v) for v in value)


class _Serializer:
    def __init__(self, line_offset: int, column_offset: int) -> None:
        self.line_offset = line_offset
        self.column_offset = column_offset

    def location(self, node: ast.AST) -> str:
        line = getattr(node, "lineno", 1) + self.line_offset
        end_line = (getattr(node, "end_lineno", None) or getattr(node, "lineno", 1)) + self.line_offset
        column = getattr(node, "col_offset", 0) + self.column_offset
        end_column = (getattr(node, "end_col_offset", None) or column) + self.column_offset
        return f"{line} {column} {end_line} {end_column}"

    def node(self, node: ast.AST) -> str:
        kind = type(node).__name__
        if kind == "Constant":
            return f"(Const {self.location(node)} {_atom(node.value)})"  # type: ignore[attr-defined]
        if kind == "keyword":
            arg = node.arg  # type: ignore[attr-defined]
            if arg is None:
                return f"(Keyword {_string('**')} (Unsupported 0 0 0 0 \"**kwargs\"))"
            return f"(Keyword {arg} {self.node(node.value)})"  # type: ignore[attr-defined]
        if isinstance(node, (ast.operator, ast.unaryop, ast.boolop, ast.cmpop)):
            return kind
        fields = _FIELDS.get(kind)
        if fields is None:
            return f"(Unsupported {self.location(node)} {_string(kind)})"
        parts = [kind, self.location(node)]
        for spec in fields:
            name = spec.rstrip("*+?")
            value = getattr(node, name)
            if spec.endswith("*"):
                head = _LIST_HEADS.get(name, "Items")
                parts.append("(" + " ".join([head] + [self.node(v) for v in value]) + ")")
            elif spec.endswith("+"):
                parts.extend(self.node(v) for v in value)
            elif spec.endswith("?"):
                parts.append("#none" if value is None else self.node(value))
            elif isinstance(value, ast.AST):
                parts.append(self.node(value))
            else:
                parts.append(str(value))
        return "(" + " ".join(parts) + ")"


def _read_names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def function_definition(fn: FunctionType) -> tuple[ast.FunctionDef, int, int, list[str]]:
    """The function's AST with its line and column offsets in its file."""
    try:
        lines, first_line = inspect.getsourcelines(fn)
    except (OSError, TypeError) as error:
        raise CompileError(f"cannot compile {fn.__qualname__}: its source code is not available ({error})") from None
    source = "".join(lines)
    dedented = textwrap.dedent(source)
    indent = len(lines[0]) - len(lines[0].lstrip()) if dedented != source else 0
    tree = ast.parse(dedented)
    definition = tree.body[0]
    if isinstance(definition, ast.AsyncFunctionDef) or not isinstance(definition, ast.FunctionDef):
        raise CompileError(f"cannot compile {fn.__qualname__}: only plain def functions are supported")
    return definition, first_line - 1, indent, lines


class Snapshotter:
    """Builds (Program ...) for an entry dispatcher and everything it calls."""

    def __init__(
        self,
        is_dispatcher: Callable[[object], bool],
        implicit_dispatcher: Callable[[FunctionType], Any] = lambda function: None,
    ) -> None:
        self.is_dispatcher = is_dispatcher
        #: The dispatcher compiled code uses for a plain Python function it
        #: calls (None: the function stays an unsupported value).
        self.implicit_dispatcher = implicit_dispatcher
        self.functions: dict[int, str] = {}
        #: What the compiled code will assume, for the dispatcher's guard:
        #: every compiled Python function (its __code__ is checked) and every
        #: (dict, name, value) global read (re-binding invalidates).
        self.guard_functions: list[FunctionType] = []
        self.guard_reads: list[tuple[dict[str, Any], str, Any]] = []
        self.dispatchers: list[Any] = []

    def classify(self, value: Any) -> str:
        if _is_constant(value):
            return _atom(value)
        if self.is_dispatcher(value):
            self.add(value)
            return f"(Jit {value._plait_id})"
        if getattr(value, "_plait_runtime", None) == "rendezvous":
            return "(Rendezvous)"
        overloaded = _overload.key_of_object(value)
        if overloaded is not None:
            return f"(Overload {_string(overloaded)})"
        intrinsic = getattr(value, "_plait_intrinsic", None)
        if isinstance(intrinsic, str):
            return f"(Intrinsic {intrinsic})"
        if isinstance(value, ModuleType):
            return f"(Module {value.__name__.replace('.', '_')})"
        name = getattr(value, "__name__", None)
        if name and getattr(math, name, None) is value and callable(value):
            return f"(MathFunction {name})"
        numpy = sys.modules.get("numpy")  # only if the program imported it
        if numpy is not None:
            if isinstance(value, type) and issubclass(value, numpy.generic):
                return f"(DType {numpy.dtype(value).name})"
            if name and getattr(numpy, name, None) is value and callable(value):
                return f"(NumPyFunction {name})"
            if name and getattr(numpy.linalg, name, None) is value and callable(value):
                return f"(NumPyFunction linalg.{name})"
        if name in _SUPPORTED_BUILTINS and getattr(builtins, name, None) is value:
            return f"(Builtin {name})"
        if isinstance(value, FunctionType):
            # A plain Python function the code calls compiles with it, as if
            # decorated, when its source can be read (a def, not a lambda).
            dispatcher = self.implicit_dispatcher(value)
            if dispatcher is not None:
                try:
                    self.add(dispatcher)
                except CompileError:
                    self.functions.pop(dispatcher._plait_id, None)
                    self.dispatchers.remove(dispatcher)
                else:
                    return f"(Jit {dispatcher._plait_id})"
        return f"(Other {_string(type(value).__name__)})"

    def add(self, dispatcher: Any) -> None:
        ident = dispatcher._plait_id
        if ident in self.functions:
            return
        self.functions[ident] = ""  # mark first: recursion terminates
        self.dispatchers.append(dispatcher)
        self.functions[ident] = dispatcher._function_snapshot(self)

    def function(self, ident: int, fn: FunctionType) -> str:
        definition, line_offset, indent, lines = function_definition(fn)
        code = fn.__code__
        if code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS) or code.co_kwonlyargcount:
            raise CompileError(
                f"cannot compile {fn.__qualname__}: *args, **kwargs and keyword-only parameters are not supported"
            )
        if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
            raise CompileError(f"cannot compile {fn.__qualname__}: generators and coroutines are not supported")
        params = list(code.co_varnames[: code.co_argcount])
        rename_versions(definition, params)
        serializer = _Serializer(line_offset, indent)
        body = "(Body " + " ".join(serializer.node(s) for s in definition.body) + ")"
        self.guard_functions.append(fn)
        closure = dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
        builtins_dict = fn.__builtins__ if isinstance(fn.__builtins__, dict) else vars(builtins)
        globals_ = []
        for name in sorted(_read_names(definition) - set(params)):
            if name in closure:
                value = closure[name]  # closure cells are read once, not watched
            elif name in fn.__globals__:
                value = fn.__globals__[name]
                self.guard_reads.append((fn.__globals__, name, value))
            elif name in builtins_dict:
                value = builtins_dict[name]
                self.guard_reads.append((builtins_dict, name, value))
            else:
                continue  # undefined: reported with its location by the compiler
            globals_.append(f"(G {name} {self.classify(value)})")
        # (A string default is a constant of plait.overload implementations.)
        defaults = " ".join(
            _atom(v) if _is_constant(v) or isinstance(v, str) else "(Unsupported 0 0 0 0 \"default\")"
            for v in fn.__defaults__ or ()
        )
        source_lines = " ".join(
            f"(L {line_offset + i + 1} {_string(text.rstrip(chr(10)))})" for i, text in enumerate(lines)
        )
        return (
            f"(Function {ident} {fn.__name__} {_string(code.co_filename)} (Params {' '.join(params)}) "
            f"(Defaults {defaults}) (Globals {' '.join(globals_)}) (Lines {source_lines}) "
            f"(FunctionDef {serializer.location(definition)} {body}))"
        )

    def program(self) -> str:
        return "(Program " + " ".join(self.functions.values()) + ")"
