"""plait.overload: implement a function for compiled code, in Python.

The registry maps a target (a NumPy function, a math function, an array
method, a user's function) to type-level functions. While the native
compiler types a call of a target (detached), it re-attaches and asks
`Resolver` here: the type-level functions run on the arguments' plait.types
and return a Python implementation, which is snapshotted and compiled with
the caller (then inlined), or a ufunc loop over a scalar kernel.
"""

from __future__ import annotations

import threading
from types import FunctionType, ModuleType
from typing import Any, Callable, Optional, Sequence

from . import types
from .errors import CompileError, TypingError, UnsupportedError

__all__ = ["overload", "overload_method", "UfuncLoop", "registry_table"]

_lock = threading.Lock()
#: target key -> type-level functions, most recent first.
_registry: dict[str, list[Callable[..., Any]]] = {}
#: id(target object) -> (target object, key): the objects the snapshot
#: binds to (Overload key); the object is kept so that its id stays unique.
_objects: dict[int, tuple[Any, str]] = {}
#: (key, positional types, keyword types, literal values) -> resolution, so
#: that every compilation of the same call shares one implementation.
_resolved: dict[tuple[Any, ...], Any] = {}
#: Targets with a documented implementation: key -> (display name, family).
_documented: dict[str, tuple[str, str]] = {}
#: Re-bound on every registration; compiled code that resolved overloads
#: guards this read (as a global's), so a new registration recompiles it.
_generation: dict[str, object] = {"registrations": object()}


class UfuncLoop:
    """What a type-level function returns for a ufunc: NumPy's broadcast
    loop over the operands that calls `kernel` (a scalar function) with
    each element cast to `inputs` (dtypes) and stores its result as
    `output`."""

    def __init__(
        self,
        kernel: FunctionType,
        inputs: Sequence[Any],
        output: Any,
        simd_products: bool = True,
        check_python_ints: bool = True,
    ) -> None:
        import numpy

        self.kernel = kernel
        #: A Python int operand must fit its loop dtype (NEP 50's
        #: OverflowError); False where NumPy casts it as C does (np.where).
        self.check_python_ints = bool(check_python_ints)
        #: Complex products fused (FMA) as NumPy's SIMD loops compute them;
        #: False for loops NumPy runs in plain C (np.power's).
        self.simd_products = bool(simd_products)
        self.inputs = [numpy.dtype(d).name for d in inputs]
        self.output = numpy.dtype(output).name


def _key_of_target(target: Any) -> str:
    """The key compiled code names `target` by."""
    import sys

    numpy = sys.modules.get("numpy")
    name = getattr(target, "__name__", None)
    owner = getattr(target, "__self__", None)  # np.add.outer: a ufunc's method
    if numpy is not None and isinstance(owner, numpy.ufunc) and getattr(numpy, owner.__name__, None) is owner:
        return f"numpy.{owner.__name__}.{name}"
    if numpy is not None and owner is not None and name == "__getitem__":
        # np.mgrid.__getitem__: subscripts of an object of NumPy's namespace.
        for attribute in ("mgrid", "ogrid", "r_", "c_", "index_exp", "s_"):
            if getattr(numpy, attribute, None) is owner:
                return f"numpy.{attribute}.__getitem__"
    if numpy is not None and name and getattr(numpy.random, name, None) is target:
        return f"numpy.random.{name}"
    if numpy is not None and name:
        if getattr(numpy, name, None) is target:
            return f"numpy.{name}"
        if getattr(numpy.linalg, name, None) is target:
            return f"numpy.linalg.{name}"
    import math

    if name and getattr(math, name, None) is target:
        return f"math.{name}"
    if isinstance(target, ModuleType) or not callable(target):
        raise TypeError(f"plait.overload needs a function, not {type(target).__name__}")
    return f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', name)}#{id(target)}"


def _register(key: str, typer: Callable[..., Any], family: Optional[str], display: str) -> None:
    with _lock:
        _registry.setdefault(key, []).insert(0, typer)
        _resolved.clear()
        _generation["registrations"] = object()
        if family is not None:
            _documented[key] = (display, family)


def overload(target: Any, *, family: Optional[str] = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Implement `target` for plait.jit with a type-level function.

    The decorated function takes the call's arguments as plait.types (same
    parameter names, keywords included) when a jitted function calling
    `target` compiles, and returns a Python function that implements the
    call for those types (written in the Python plait.jit compiles; it is
    compiled with the caller and inlined), a `UfuncLoop`, or None when it
    does not handle the types. It may raise plait.TypingError with NumPy's
    message for arguments NumPy rejects. The most recent registration is
    tried first. `family` lists the target in the documented API table.
    """
    key = _key_of_target(target)

    def register(typer: Callable[..., Any]) -> Callable[..., Any]:
        _register(key, typer, family, _display(key))
        if not key.startswith(("numpy.", "math.")):
            with _lock:
                _objects[id(target)] = (target, key)
        return typer

    return register


def overload_method(cls: type, name: str, *, family: Optional[str] = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Implement the method `name` of `cls` (numpy.ndarray, list or dict)
    for plait.jit: as overload(), the receiver being the first argument."""
    if cls in (list, dict):
        key = f"{cls.__name__}.{name}"
    else:
        import numpy

        if cls is not numpy.ndarray:
            raise TypeError("plait.overload_method implements methods of numpy.ndarray, list and dict")
        key = f"ndarray.{name}"

    def register(typer: Callable[..., Any]) -> Callable[..., Any]:
        _register(key, typer, family, key)
        return typer

    return register


def key_of_object(value: Any) -> Optional[str]:
    """The key of an overloaded object a global is bound to, if any."""
    try:
        entry = _objects.get(id(value))
    except TypeError:
        return None
    return entry[1] if entry is not None and entry[0] is value else None


def overloaded_keys() -> list[str]:
    with _lock:
        return list(_registry)


def _display(key: str) -> str:
    name = key.split("#")[0].replace(".__getitem__", "[]")  # np.mgrid[]
    return "np." + name[len("numpy.") :] if name.startswith("numpy.") else name


#: What resolve() answers when no type-level function applies and the
#: compiler implements the target itself (np.transpose without axes).
_NATIVE = object()


def _compiler_implements(key: str) -> bool:
    from ._core import jit as _native

    family, _, name = key.partition(".")
    if family == "numpy":
        return name in _native.native_numpy_functions()
    return family == "ndarray" and name in _native.native_array_methods()


def resolve(
    key: str,
    positional: Sequence[str],
    keywords: Sequence[tuple[str, str]],
    literals: Sequence[Optional[str]] = (),
) -> Any:
    """Runs the type-level functions of `key` on the argument types (with
    the literal values of constant arguments: `literals`, per positional
    then keyword argument); returns the first implementation (a function
    or a UfuncLoop)."""
    cache_key = (key, tuple(positional), tuple(keywords), tuple(literals))
    with _lock:
        if cache_key in _resolved:
            return _resolved[cache_key]
        typers = list(_registry.get(key, ()))
        generation = _generation["registrations"]
    marks = list(literals) + [None] * (len(positional) + len(keywords) - len(literals))

    def typed(text: str, literal: Optional[str]) -> types.Type:
        parsed = types.parse(text)
        return types.with_literal(parsed, literal) if literal is not None and not parsed.has_literal else parsed

    args = [typed(t, marks[i]) for i, t in enumerate(positional)]
    kwargs = {name: typed(t, marks[len(positional) + i]) for i, (name, t) in enumerate(keywords)}
    found = None
    for typer in typers:
        try:
            found = typer(*args, **kwargs)
        except TypeError as error:
            # The call does not fit the type-level function's parameters:
            # Python's message names them as NumPy's own would.
            if "argument" not in str(error):
                raise
            raise TypingError(f"{_display(key)}(): {error}".replace(f"{typer.__name__}() ", "")) from None
        if found is not None:
            break
    if found is None and _compiler_implements(key):
        return _NATIVE
    if found is None:
        shown = [str(a) for a in args] + [f"{n}={t}" for n, t in kwargs.items()]
        raise UnsupportedError(f"{_display(key)}() is not supported for arguments ({', '.join(shown)})")
    if not isinstance(found, (FunctionType, UfuncLoop)):
        raise TypingError(f"the plait.overload of {_display(key)}() returned {type(found).__name__}, not a function")
    with _lock:
        # (Not remembered if a registration came meanwhile: it may win.)
        if _generation["registrations"] is generation:
            found = _resolved.setdefault(cache_key, found)
    return found


class Resolver:
    """The resolver one compilation passes to the native compiler: it adds
    the implementations to that compilation's snapshot (their functions,
    guards and dependents) and answers with their ids and new functions."""

    def __init__(self, snapshotter: Any, implicit_dispatcher: Callable[[FunctionType], Any]) -> None:
        self.snapshotter = snapshotter
        self.implicit_dispatcher = implicit_dispatcher
        self.guarded = False

    def _compiled(self, function: FunctionType) -> tuple[int, str]:
        dispatcher = self.implicit_dispatcher(function)
        if dispatcher is None:
            raise CompileError(f"cannot compile the implementation {function.__qualname__}")
        before = set(self.snapshotter.functions)
        self.snapshotter.add(dispatcher)
        added = [text for ident, text in self.snapshotter.functions.items() if ident not in before]
        return dispatcher._plait_id, "(Program " + " ".join(added) + ")" if added else ""

    def __call__(
        self,
        key: str,
        positional: list[str],
        keywords: list[tuple[str, str]],
        literals: Sequence[Optional[str]] = (),
    ) -> tuple[Any, ...]:
        if not self.guarded:
            self.guarded = True
            self.snapshotter.guard_reads.append((_generation, "registrations", _generation["registrations"]))
        found = resolve(key, positional, keywords, literals)
        if found is _NATIVE:
            return ("native",)
        if isinstance(found, UfuncLoop):
            ident, program = self._compiled(found.kernel)
            return ("ufunc", ident, program, found.inputs, found.output, found.simd_products,
                    found.check_python_ints)
        ident, program = self._compiled(found)
        return ("function", ident, program)


_library_loaded = False


def with_numpy(namespace: dict[str, Any], implementation: Any) -> Any:
    """`implementation`, with `np` bound to NumPy in its module's globals
    `namespace`: modules plait imports at import time do not import NumPy
    (it takes longer than plait); their type-level functions bind it before
    returning implementations that make arrays."""
    if namespace.get("np") is None:
        import numpy

        namespace["np"] = numpy
    return implementation


def load_numpy_library() -> None:
    """Registers plait.numpy's implementations once the program uses NumPy
    (they are compiled only when a call needs them)."""
    global _library_loaded
    import sys

    if _library_loaded or "numpy" not in sys.modules:
        return
    from . import numpy as _library  # noqa: F401  (registers on import)

    _library_loaded = True


def registry_table() -> list[tuple[str, str]]:
    """(family, name) of every documented implementation, sorted."""
    with _lock:
        return sorted((family, display) for display, family in _documented.values())
