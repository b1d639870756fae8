"""Pickling jitted functions: by reference when importable, by value otherwise.

A dispatcher whose module and qualified name find it again (a function
decorated at the top level of an importable module) pickles as that name,
as functions do. Any other (defined in `__main__` for a Dask worker, in a
function, by exec) pickles by value: its source text, the names it reads
from its globals and their values (modules as their names, other jitted
functions as themselves, recursively), its defaults and closure values, its
options and its explicit signatures. The receiving process rebuilds the
function from the text and compiles it again there, on first call (explicit
signatures at once, as at decoration). Machine code is not shipped: the
other side's CPU may differ, and a small function compiles in milliseconds.
"""

from __future__ import annotations

import ast
import builtins
import dis
import importlib
import types
from typing import Any

from .errors import CompileError


class _ModuleByName:
    """A module among a pickled function's globals: imported again by name."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __reduce__(self) -> tuple:
        return (_ModuleByName, (self.name,))


def _names_read(code: types.CodeType) -> set[str]:
    """Global names the code (and its nested functions) may read."""
    names: set[str] = set()
    for instruction in dis.get_instructions(code):
        if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(instruction.argval, str):
            names.add(instruction.argval)
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            names |= _names_read(constant)
    return names


def importable(dispatcher: Any) -> bool:
    """Whether `module.qualname` finds this very dispatcher again."""
    module_name = getattr(dispatcher, "__module__", None)
    qualname = getattr(dispatcher, "__qualname__", "")
    if not module_name or "<locals>" in qualname or module_name == "__main__":
        return False
    try:
        found: Any = importlib.import_module(module_name)
        for part in qualname.split("."):
            found = getattr(found, part)
    except Exception:  # noqa: BLE001 - not importable, for whatever reason
        return False
    return found is dispatcher


def _global_value(value: Any) -> Any:
    if isinstance(value, types.ModuleType):
        return _ModuleByName(value.__name__)
    return value


def payload(dispatcher: Any, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What rebuilds the dispatcher in another process: the function's text
    and defaults (needed to make the dispatcher), and its state, pickled
    after it (globals and closure values may refer back to it)."""
    from ._snapshot import function_definition

    fn = dispatcher.py_func
    try:
        definition, line_offset, indent, lines = function_definition(fn)
    except CompileError as error:
        raise TypeError(f"cannot pickle {fn.__qualname__} by value: {error}") from None
    # From the def line on: decorators (such as the @plait.jit that made
    # this dispatcher) are not applied again.
    source = "".join(lines[definition.lineno - 1 :])
    globals_read = {}
    for name in sorted(_names_read(fn.__code__)):
        if name in fn.__globals__:
            globals_read[name] = _global_value(fn.__globals__[name])
    closure = [_global_value(cell.cell_contents) for cell in fn.__closure__ or ()]
    shell = {
        "source": source,
        "first_line": line_offset + definition.lineno,
        "filename": fn.__code__.co_filename,
        "name": fn.__name__,
        "qualname": fn.__qualname__,
        "module": fn.__module__,
        "defaults": fn.__defaults__,
        "kwdefaults": fn.__kwdefaults__,
        "freevars": fn.__code__.co_freevars,
        "doc": fn.__doc__,
        "options": options,
    }
    return shell, {"globals": globals_read, "closure": closure, "signatures": list(options.get("signatures", ()))}


def _restore(value: Any) -> Any:
    if isinstance(value, _ModuleByName):
        return importlib.import_module(value.name)
    return value


def _without_def_time_expressions(tree: ast.Module, name: str) -> None:
    """Default values and annotations are evaluated when the def runs, from
    globals that are only restored afterwards: the defaults are set from the
    pickle instead, and annotations do not matter to compiled code."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            arguments = node.args
            arguments.defaults = [ast.copy_location(ast.Constant(None), d) for d in arguments.defaults]
            arguments.kw_defaults = [
                None if d is None else ast.copy_location(ast.Constant(None), d) for d in arguments.kw_defaults
            ]
            for argument in arguments.posonlyargs + arguments.args + arguments.kwonlyargs:
                argument.annotation = None
            for argument in (arguments.vararg, arguments.kwarg):
                if argument is not None:
                    argument.annotation = None
            node.returns = None
            node.decorator_list = []
            return


def rebuild(data: dict[str, Any]) -> Any:
    """The dispatcher of a pickled payload (its function made from source);
    restore() then brings its globals, closure values and signatures."""
    import textwrap

    from . import _sources
    from ._jit import Dispatcher

    text = textwrap.dedent(data["source"])
    freevars = data["freevars"]
    name = data["name"]
    if freevars:
        # A closure: an outer function binds the free variables to cells.
        body = textwrap.indent(text, "    ")
        text = f"def __plait_outer({', '.join(freevars)}):\n{body}    return {name}\n"
        first_line = data["first_line"] - 1
    else:
        first_line = data["first_line"]
    # Padded so that lines (and so error locations) are the original ones,
    # and kept as the text of this code (many functions of one file may be
    # unpickled: each finds its own text by its code, docs/design/sources.md).
    padded = "\n" * max(first_line - 1, 0) + text
    filename = f"<plait: pickled from {data['filename']}>"
    _sources.keep(filename, padded)
    tree = ast.parse(padded, filename)
    _without_def_time_expressions(tree, name)
    namespace: dict[str, Any] = {"__name__": data["module"], "__builtins__": builtins}
    exec(compile(tree, filename, "exec"), namespace)
    if freevars:
        fn = namespace.pop("__plait_outer")(*[None] * len(freevars))
    else:
        fn = namespace.pop(name)
    fn.__defaults__ = data["defaults"]
    fn.__kwdefaults__ = data["kwdefaults"]
    fn.__qualname__ = data["qualname"]
    fn.__module__ = data["module"]
    fn.__doc__ = data["doc"]
    _sources.source_lines(fn)  # found now, and remembered for its code
    options = dict(data["options"])
    signatures = options.pop("signatures")
    return Dispatcher(fn, signatures=signatures, _compile_signatures=False, **options)


def restore(dispatcher: Any, state: dict[str, Any]) -> None:
    """Dispatcher.__setstate__: the globals and closure values, then the
    explicit signatures are compiled."""
    fn = dispatcher.py_func
    for key, value in state["globals"].items():
        fn.__globals__[key] = _restore(value)
    for cell, value in zip(fn.__closure__ or (), state["closure"]):
        cell.cell_contents = _restore(value)
    for signature in state["signatures"]:
        dispatcher.compile(signature)


def reduce(dispatcher: Any, options: dict[str, Any]) -> Any:
    """Dispatcher.__reduce__."""
    if importable(dispatcher):
        return (_by_reference, (dispatcher.__module__, dispatcher.__qualname__))
    shell, state = payload(dispatcher, options)
    return (rebuild, (shell,), state)


def _by_reference(module_name: str, qualname: str) -> Any:
    found: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        found = getattr(found, part)
    return found
