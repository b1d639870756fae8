"""Snapshot of a Python function for the native compiler: its AST, the globals
it reads and its defaults, as one S-expression string (see
include/plait/Frontend/SExpr.h). Runs with the GIL held; everything after it
runs detached."""

from __future__ import annotations

import ast
import builtins
import inspect
import itertools
import math
import sys
import textwrap
from types import FunctionType, ModuleType
from typing import Any, Callable, Optional, Sequence

from . import _overload
from ._core import jit as _native
from . import _generators
from . import _parallel
from . import _sources
from ._rewrites import SCOPE_NODES as _SCOPE_NODES
from ._rewrites import rewrite_shape_assignments
from ._rewrites import scope_walk as _scope_walk
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
    "finalbody": "Body",
    "handlers": "Handlers",
    "ops": "Ops",
    "comparators": "Comparators",
    "args": "Args",
    "keywords": "Keywords",
}

_SUPPORTED_BUILTINS = frozenset(_native.supported_builtins())


def _string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + "".join(c if c.isprintable() else "\\x%02x" % (ord(c) & 0xFF) for c in escaped) + '"'


def parameters(fn: FunctionType) -> list[str]:
    """A function's positional parameters, then its *args parameter if any."""
    code = fn.__code__
    return list(code.co_varnames[: code.co_argcount + bool(code.co_flags & inspect.CO_VARARGS)])


def _params(names: list[str], varargs: object) -> str:
    """(Params a b (Star rest)): the last name is *args when `varargs`."""
    named = names[:-1] if varargs else names
    star = f" (Star {names[-1]})" if varargs else ""
    return f"(Params {' '.join(named)}{star})"


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


def _exception_name(cls: type) -> str:
    """A built-in exception class's name, or another one's module.Class."""
    if getattr(builtins, cls.__name__, None) is cls:
        return cls.__name__
    return cls.__module__ + "." + cls.__qualname__


def _is_constant(value: object) -> bool:
    if isinstance(value, (bool, int, float, complex, str)) or value is None:
        return True
    return isinstance(value, tuple) and all(_is_constant(v) for v in value)


#: Ids of the functions lambdas and inner defs become (apart from the
#: dispatchers' ids, which count up from 1).
_nested_ids = itertools.count(1 << 30)



def _scope_body(node: ast.AST) -> list[ast.AST]:
    return [node.body] if isinstance(node, ast.Lambda) else list(node.body)  # type: ignore[attr-defined]


def _scope_locals(params: list[str], body: list[ast.AST]) -> set[str]:
    """The names a scope binds: its parameters, assignment targets and the
    names of the functions it defines."""
    bound = set(params)
    for node in _scope_walk(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
    return bound


def _free_names(scope: ast.AST) -> set[str]:
    """The names a lambda or def reads from outside it (its nested scopes'
    too)."""
    params = [a.arg for a in scope.args.args]  # type: ignore[attr-defined]
    body = _scope_body(scope)
    bound = _scope_locals(params, body)
    free: set[str] = set()
    for node in _scope_walk(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            free.add(node.id)
        elif isinstance(node, _SCOPE_NODES):
            free |= _free_names(node)
    return free - bound


def _default(value: object) -> str:
    """A default value as the compiler reads it: a constant (strings too,
    as plait.overload implementations take them), or a dtype (dtype=float)."""
    if _is_constant(value) or isinstance(value, str):
        return _atom(value)
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, type) and (
        value in (bool, int, float, complex) or issubclass(value, numpy.generic)
    ):
        try:
            return f"(DType {numpy.dtype(value).name})"
        except TypeError:
            pass
    return '(Unsupported 0 0 0 0 "default")'


class _Serializer:
    def __init__(
        self,
        line_offset: int,
        column_offset: int,
        nested: Optional[Callable[[ast.AST], tuple[int, list[str]]]] = None,
        is_builtin: Optional[Callable[[str], bool]] = None,
    ) -> None:
        self.line_offset = line_offset
        self.column_offset = column_offset
        #: Registers a lambda or inner def as a function of the program:
        #: its id and the names it captures.
        self.nested = nested
        #: Whether a name the code reads is the builtin of that name.
        self.is_builtin = is_builtin

    def closure(self, node: ast.AST) -> str:
        """(Closure ...) of a lambda or inner def: its function and the
        variables it captures, read where it is made."""
        if self.nested is None:
            return f"(Unsupported {self.location(node)} {_string(type(node).__name__)})"
        ident, captured = self.nested(node)
        names = " ".join(f"(Name {self.location(node)} {name})" for name in captured)
        return f"(Closure {self.location(node)} {ident} (Captures {names}))"

    def location(self, node: ast.AST) -> str:
        line = getattr(node, "lineno", 1) + self.line_offset
        end_line = (getattr(node, "end_lineno", None) or getattr(node, "lineno", 1)) + self.line_offset
        column = getattr(node, "col_offset", 0) + self.column_offset
        end_column = (getattr(node, "end_col_offset", None) or column) + self.column_offset
        return f"{line} {column} {end_line} {end_column}"

    def node(self, node: ast.AST) -> str:
        kind = type(node).__name__
        if kind == "Lambda":
            return self.closure(node)
        if kind == "Call" and self.is_builtin is not None and self.nested is not None:
            # sum(x * x for x in a) and the like: a call of a function made
            # for it (see _generators).
            made = _generators.rewrite(node, self.is_builtin)  # type: ignore[arg-type]
            if made is None:  # list(range(n)), list(zip(a, b)): as [x for x in ...]
                made = _generators.list_of_iterable(node, self.is_builtin)  # type: ignore[arg-type]
            if made is not None:
                arguments = " ".join(self.node(a) for a in made.args)
                return f"(Call {self.location(made)} {self.closure(made.function)} (Args {arguments}) (Keywords))"
        if kind == "Dict" and any(key is None for key in node.keys):  # type: ignore[attr-defined]
            return f"(Unsupported {self.location(node)} {_string('dict unpacking')})"
        if kind in ("ListComp", "DictComp") and self.nested is not None:
            # [x * x for x in a], {k: v for ...}: a call of a function made
            # to build it.
            made = (_generators.list_comprehension(node) if kind == "ListComp"  # type: ignore[arg-type]
                    else _generators.dict_comprehension(node))  # type: ignore[arg-type]
            arguments = " ".join(self.node(a) for a in made.args)
            return f"(Call {self.location(made)} {self.closure(made.function)} (Args {arguments}) (Keywords))"
        if kind == "FunctionDef" and self.nested is not None:
            # def g(...): ... inside a function is g = <its closure>.
            where = self.location(node)
            return f"(Assign {where} (Targets (Name {where} {node.name})) {self.closure(node)})"  # type: ignore[attr-defined]
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
                parts.append("#none" if value is None else str(value) if isinstance(value, str) else self.node(value))
            elif isinstance(value, ast.AST):
                parts.append(self.node(value))
            else:
                parts.append(str(value))
        return "(" + " ".join(parts) + ")"


def _read_names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _local_names(fn: FunctionType) -> set[str]:
    """The names that are a function's own variables, as CPython's compiler
    scoped them: reading one never reads a global of that name (before its
    first assignment it raises UnboundLocalError), so a global of the same
    name is neither bound nor guarded (re-binding it must not invalidate)."""
    code = fn.__code__
    # (co_varnames starts with the parameters. Nested functions cannot
    # declare one of these `global`: plait refuses `global` statements.)
    return set(code.co_varnames) | set(code.co_cellvars)


def function_definition(fn: FunctionType) -> tuple[ast.FunctionDef, int, int, list[str]]:
    """The function's AST with its line and column offsets in its file."""
    if _sources.not_a_file(fn):
        # Texts without a file share names (every exec is <string>, and
        # python -c too): only one whose code is the function's will do.
        found = _sources.source_lines(fn)
        if found is None:
            raise CompileError(
                f"cannot compile {fn.__qualname__}: its source code is not available; " + _sources.unavailable_hint(fn)
            )
        lines, first_line = found
    else:
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


class _Scope:
    """A snapshotted function, as its lambdas and inner defs see it."""

    def __init__(self, fn: FunctionType, line_offset: int, indent: int, source_lines: str,
                 tree: ast.AST, options: str) -> None:
        self.fn = fn
        self.line_offset = line_offset
        self.indent = indent
        self.source_lines = source_lines
        #: The function's (Options ...) item, which its inner functions share.
        self.options = options
        #: The function's AST (its nested scopes too).
        self.tree = tree

    def binds_once(self, name: str) -> bool:
        """Whether `name` is bound in exactly one place of the function, its
        nested scopes included (an inner def that is never rebound)."""
        count = 0
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                count += 1
            elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
                count += 1
            elif isinstance(node, ast.arg) and node.arg == name:
                count += 1
            elif isinstance(node, ast.alias) and (node.asname or node.name) == name:
                count += 1
            elif isinstance(node, ast.ExceptHandler) and node.name == name:
                count += 1
        return count == 1

    def in_a_cycle(self, name: str) -> bool:
        """Whether the inner def `name` calls itself through other inner
        defs (even calls odd, odd calls even)."""
        defs = {node.name: node for node in ast.walk(self.tree)
                if isinstance(node, ast.FunctionDef) and node is not self.tree}
        calls = {d: (_free_names(node) & set(defs)) - {d} for d, node in defs.items()}
        seen: set[str] = set()
        pending = list(calls.get(name, ()))
        while pending:
            current = pending.pop()
            if current == name:
                return True
            if current not in seen:
                seen.add(current)
                pending.extend(calls.get(current, ()))
        return False


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
        if isinstance(value, type) and issubclass(value, BaseException):
            # Raised by name: a builtin, or a class its module names.
            if getattr(builtins, value.__name__, None) is value:
                return f"(ExceptionClass {_string(value.__name__)})"
            module = sys.modules.get(value.__module__)
            if module is not None and "." not in value.__qualname__ and getattr(module, value.__qualname__, None) is value:
                # Its bases by name, for `except Base:` in compiled code.
                bases = " ".join(_string(_exception_name(base)) for base in value.__mro__[1:-1])
                return f"(ExceptionClass {_string(_exception_name(value))} (Bases {bases}))"
        name = getattr(value, "__name__", None)
        if name and getattr(math, name, None) is value and callable(value):
            return f"(MathFunction {name})"
        numpy = sys.modules.get("numpy")  # only if the program imported it
        # (A builtin such as str is not looked up in numpy: numpy.str warns.)
        if numpy is not None and not (name and getattr(builtins, name, None) is value):
            if isinstance(value, type) and issubclass(value, numpy.generic):
                return f"(DType {numpy.dtype(value).name})"
            if name and getattr(numpy, name, None) is value and callable(value):
                return f"(NumPyFunction {name})"
            if name and getattr(numpy.linalg, name, None) is value and callable(value):
                return f"(NumPyFunction linalg.{name})"
        if _parallel.is_prange(value):
            return "(Builtin prange)"
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

    def function(self, ident: int, fn: FunctionType, options: Sequence[tuple[str, bool]] = ()) -> str:
        """(Function ...) of `fn`, with its own compile `options` (name,
        value) when it has them (else it compiles with the compilation's)."""
        definition, line_offset, indent, lines = function_definition(fn)
        code = fn.__code__
        if code.co_flags & inspect.CO_VARKEYWORDS or code.co_kwonlyargcount:
            raise CompileError(
                f"cannot compile {fn.__qualname__}: **kwargs and keyword-only parameters are not supported"
            )
        if inspect.isgeneratorfunction(fn) or inspect.iscoroutinefunction(fn):
            raise CompileError(f"cannot compile {fn.__qualname__}: generators and coroutines are not supported")
        params = parameters(fn)
        rewrite_shape_assignments(definition, params)
        rename_versions(definition, params)
        self.guard_functions.append(fn)
        source_lines = " ".join(
            f"(L {line_offset + i + 1} {_string(text.rstrip(chr(10)))})" for i, text in enumerate(lines)
        )
        own = " ".join(f"({name} {int(value)})" for name, value in options)
        scope = _Scope(fn, line_offset, indent, source_lines, definition, f" (Options {own})" if options else "")
        serializer = self._serializer(scope, _scope_locals(params, definition.body))
        body = "(Body " + " ".join(serializer.node(s) for s in definition.body) + ")"
        defaults = " ".join(_default(v) for v in fn.__defaults__ or ())
        return (
            f"(Function {ident} {fn.__name__} {_string(code.co_filename)} {_params(params, code.co_flags & inspect.CO_VARARGS)} "
            f"(Defaults {defaults}) (Globals {self._globals(fn, _read_names(definition) - _local_names(fn))}) "
            f"(Lines {source_lines}) (FunctionDef {serializer.location(definition)} {body}){scope.options})"
        )

    def _globals(self, fn: FunctionType, names: set[str]) -> str:
        """(G name value) of the names a function's code reads that are not
        its locals: its closure cells, globals and builtins (guarded)."""
        code = fn.__code__
        closure = dict(zip(code.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
        builtins_dict = fn.__builtins__ if isinstance(fn.__builtins__, dict) else vars(builtins)
        bindings = []
        for name in sorted(names):
            if name in closure:
                value = closure[name]  # closure cells are read once, not watched
            elif name in fn.__globals__:
                value = fn.__globals__[name]
                self.guard_reads.append((fn.__globals__, name, value))
            elif name in builtins_dict:
                value = builtins_dict[name]
                self.guard_reads.append((builtins_dict, name, value))
            elif name in _generators.HELPERS:
                value = _generators.HELPERS[name]  # (what rewritten code calls)
            else:
                continue  # undefined: reported with its location by the compiler
            bindings.append(f"(G {name} {self.classify(value)})")
        return " ".join(bindings)

    def _serializer(self, scope: "_Scope", enclosing: set[str]) -> _Serializer:
        """A serializer of a scope whose enclosing functions bind `enclosing`:
        its lambdas and inner defs become functions of the program."""
        fn = scope.fn
        builtins_dict = fn.__builtins__ if isinstance(fn.__builtins__, dict) else vars(builtins)

        def is_builtin(name: str) -> bool:
            if name in enclosing or name in fn.__code__.co_freevars:
                return False
            return fn.__globals__.get(name, builtins_dict.get(name)) is getattr(builtins, name, None)

        return _Serializer(
            scope.line_offset, scope.indent, lambda node: self._nested(scope, node, enclosing), is_builtin
        )

    def _nested(self, scope: "_Scope", node: ast.AST, enclosing: set[str]) -> tuple[int, list[str]]:
        """Adds a lambda or inner def as a function of the program. Its first
        parameter is the closure, which it unpacks into the variables it
        captures (read where the closure is made); names it reads that no
        enclosing function binds are the globals of the function that
        holds it."""
        fn = scope.fn
        name = "lambda" if isinstance(node, ast.Lambda) else node.name  # type: ignore[attr-defined]
        where = f"{fn.__qualname__}.{name}"
        arguments = node.args  # type: ignore[attr-defined]
        if arguments.kwarg or arguments.kwonlyargs or arguments.posonlyargs:
            raise CompileError(f"cannot compile {where}: **kwargs and keyword-only parameters are not supported")
        if isinstance(node, ast.AsyncFunctionDef) or getattr(node, "decorator_list", None):
            raise CompileError(f"cannot compile {where}: decorated and async inner functions are not supported")
        if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Nonlocal, ast.Global)) for n in ast.walk(node)):
            raise CompileError(f"cannot compile {where}: generators, nonlocal and global are not supported")
        defaults = []
        for default in arguments.defaults:
            try:
                value = ast.literal_eval(default)
            except ValueError:
                raise CompileError(f"cannot compile {where}: its defaults must be constants") from None
            defaults.append(_atom(value))
        params = [a.arg for a in arguments.args] + ([arguments.vararg.arg] if arguments.vararg else [])
        body = _scope_body(node)
        captured = sorted(_free_names(node) & enclosing)
        # An inner def that calls itself reads itself from the enclosing
        # function; never rebound there, that is its own closure.
        calls_itself = name in captured and not isinstance(node, ast.Lambda)
        at = f"{fn.__code__.co_filename}:{node.lineno + scope.line_offset}:{node.col_offset + scope.indent + 1}"
        if calls_itself and not scope.binds_once(name):
            raise CompileError(
                f"{at}: cannot compile {where}: an inner function that calls itself is supported when "
                f"nothing else binds the name '{name}'"
            )
        if calls_itself:
            captured.remove(name)
        if not isinstance(node, ast.Lambda) and scope.in_a_cycle(name):
            raise CompileError(
                f"{at}: cannot compile {where}: inner functions that call each other are not supported "
                "(define them at module level, where they may)"
            )
        ident = next(_nested_ids)
        inner = self._serializer(scope, enclosing | _scope_locals(params, body))
        location = inner.location(node)
        statements = []
        if captured:
            targets = " ".join(f"(Name {location} {n})" for n in captured)
            statements.append(f"(Assign {location} (Targets (Tuple {location} {targets})) (Name {location} $closure))")
        if calls_itself:
            statements.append(f"(Assign {location} (Targets (Name {location} {name})) (Name {location} $closure))")
        if isinstance(node, ast.Lambda):
            statements.append(f"(Return {location} {inner.node(node.body)})")
        else:
            statements.extend(inner.node(statement) for statement in body)
        reads = _free_names(node) - set(captured)
        self.functions[ident] = (
            f"(Function {ident} {name} {_string(fn.__code__.co_filename)} {_params(['$closure'] + params, arguments.vararg)} "
            f"(Defaults {' '.join(defaults)}) (Globals {self._globals(fn, reads)}) (Lines {scope.source_lines}) "
            f"(FunctionDef {location} (Body {' '.join(statements)})){scope.options})"
        )
        return ident, captured

    def program(self) -> str:
        return "(Program " + " ".join(self.functions.values()) + ")"
