"""@plait.jit: compile numeric Python functions to native code per argument types.

The decorated object is a native dispatcher (vectorcall): it classifies the
arguments, finds the compiled executor for their types without a lock, and
calls it. A new combination of types is compiled on first use: the function is
snapshotted (with the GIL held, microseconds) and compiled by the C++ core with
the GIL released.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import re
import sys
import threading
import time
import weakref
from types import FunctionType
from typing import Any, Callable, Literal, Optional, Sequence, Union, overload

from . import _cache, _messages, _overload, _pickling
from ._core import jit as _native
from ._snapshot import Snapshotter, parameters
from .errors import CompileError, TypingError, UnsupportedError

__all__ = ["jit", "stats", "Dispatcher", "CompileError", "TypingError", "UnsupportedError"]

_native._set_error_classes(TypingError, UnsupportedError)
_MESSAGES = _messages.sample()
_ids = itertools.count(1)
#: Jitted functions by id, for the ones passed as arguments (a dispatch key
#: names them by id: `function[7]`).
_by_id: "weakref.WeakValueDictionary[int, Any]" = weakref.WeakValueDictionary()
_STAGES = ("plait", "optimized-plait", "mlir", "optimized-mlir", "llvm", "asm")
_NOGIL = {False: 0, True: 1, "auto": 2}
#: Native frames are small but threads' stacks are not unbounded: the depth
#: guard follows sys.getrecursionlimit() up to this cap.
_MAX_NATIVE_DEPTH = 3000


def stats() -> dict[str, Any]:
    """Process-wide counters: compilations (attempts), cache_hits (calls served
    by a compiled executor), single_flight_waits, invalidations,
    interpreter_fallbacks (calls the interpreter ran because another thread
    kept invalidating the compiled code), live_executors, jit_code_bytes,
    compile_seconds, retired_pending."""
    return dict(_native.stats())


def blas_library() -> str:
    """The file of the BLAS and LAPACK that compiled code calls for products
    and np.linalg: the one NumPy loaded (or PLAIT_BLAS, or a system
    OpenBLAS); "" when there is none, and products use plain loops."""
    import numpy  # noqa: F401  (loads NumPy's BLAS)

    return _native.blas_library()


class _Flight:
    """One compilation in progress; the other callers of the same signature
    wait for it (the wait releases the GIL)."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.error: Optional[tuple[type, str]] = None


#: Result spellings that convert alike.
_RESULT_ALIASES = {"float": "float64", "int": "int64", "complex": "complex128"}
_SCALAR_NAMES = ("int64", "int", "int32", "float64", "float", "float32", "bool", "complex128", "complex")


def _top_level_names(text: str) -> list[str]:
    """'float64[:, :], tuple[int64, float64]' -> its two type names."""
    names, depth, start = [], 0, 0
    for i, char in enumerate(text + ","):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            if text[start:i].strip():
                names.append(text[start:i].strip())
            start = i + 1
    return names


def _parse_signature(text: str) -> tuple[Optional[str], list[str], str, str]:
    """'float64(float64[:, :], int64)' -> ('float64', ['float64[:, :]',
    'int64'], key, kinds): the declared result (None for a bare '(int64)'),
    the argument types, the dispatch key calls must match and how each
    argument is unboxed (see DispatchKey.h)."""
    match = re.fullmatch(r"\s*([A-Za-z0-9_]*)\s*\((.*)\)\s*", text)
    if not match:
        raise TypeError(f"malformed signature {text!r}: expected e.g. 'float64(float64[:], int64)'")
    result = match.group(1) or None
    args = _top_level_names(match.group(2))
    key, kinds = "", ""
    for name in args:
        try:
            # NumPy scalars arrive as the Python scalar they equal.
            if name.startswith("numpy."):
                raise ValueError(name)
            part, kind = _native._signature_key([name])
        except ValueError:
            raise TypeError(f"unknown type {name!r} in signature {text!r} (use int64, float64, bool, complex128, int32, float32, arrays like float64[:, :], tuples like tuple[int64, float64], or dtypes like dtype[float32])") from None
        key, kinds = key + part, kinds + kind
    if result and result not in _SCALAR_NAMES:
        raise TypeError(f"unknown result type {result!r} in signature {text!r}")
    return result, args, key, kinds


class Dispatcher(_native.DispatcherBase):
    """A @plait.jit function. Call it like the original; see `signatures`,
    `inspect()` and `py_func`."""

    def __init__(
        self,
        py_func: FunctionType,
        *,
        nogil: Union[bool, Literal["auto"]] = "auto",
        overflow: Literal["check", "wrap"] = "check",
        fastmath: bool = False,
        parallel: bool = False,
        opt_level: int = 2,
        boundscheck: bool = True,
        cache: bool = False,
        signatures: Sequence[str] = (),
        _compile_signatures: bool = True,
    ) -> None:
        if not isinstance(py_func, FunctionType):
            raise TypeError(f"@plait.jit needs a Python function, not {type(py_func).__name__}")
        if nogil not in _NOGIL:
            raise ValueError("nogil must be True, False or 'auto'")
        if overflow not in ("check", "wrap"):
            raise ValueError("overflow must be 'check' or 'wrap'")
        functools.update_wrapper(self, py_func)
        self.py_func = py_func
        #: What pickling by value passes to Dispatcher() on the other side.
        self._constructor_options = {
            "nogil": nogil,
            "overflow": overflow,
            "fastmath": fastmath,
            "parallel": parallel,
            "opt_level": opt_level,
            "boundscheck": boundscheck,
            "cache": cache,
            "signatures": list(signatures),
        }
        self._plait_id = next(_ids)
        _by_id[self._plait_id] = self
        #: Made for a plain function called from jitted code (which compiles
        #: with its caller's options, having none of its own).
        self._implicit = False
        self._options = {
            "check_overflow": overflow == "check",
            "fastmath": bool(fastmath),
            "parallel": bool(parallel),
            "opt_level": int(opt_level),
            "boundscheck": bool(boundscheck),
            "cache": bool(cache),
        }
        #: Guards _compiled and _flights; held only for dictionary updates,
        #: never while compiling.
        self._lock = threading.Lock()
        self._compiled: dict[str, tuple[str, Any]] = {}  # codes -> (signature text, executor)
        #: codes -> compiles the same snapshot again keeping the stages' IR;
        #: and the executors it made, for inspect().
        self._with_stages: dict[str, Callable[[], Any]] = {}
        self._staged: dict[str, Any] = {}
        #: codes -> (signature text, executor) compiled without speculation,
        #: attached to the speculative executor of the same codes.
        self._fallbacks: dict[str, tuple[str, Any]] = {}
        self._flights: dict[str, _Flight] = {}
        #: Signatures whose compilation failed with a CompileError (type and
        #: message): raised again without recompiling until invalidated.
        self._failed: dict[str, tuple[type, str]] = {}
        #: Dispatchers whose compiled code includes this function's, by id,
        #: as weak references without callbacks (a WeakSet's callbacks mutate
        #: it from whichever thread drops a dependent, which free-threaded
        #: builds let race with iteration). Guarded by _lock.
        self._dependents: dict[int, "weakref.ref[Dispatcher]"] = {}
        varargs = bool(py_func.__code__.co_flags & inspect.CO_VARARGS)
        _native._configure(
            self, py_func.__name__, parameters(py_func), varargs, list(py_func.__defaults__ or ()), _NOGIL[nogil], not signatures
        )
        # (Unpickling compiles them once the function's globals are back.)
        if _compile_signatures:
            for signature in signatures:
                self.compile(signature)

    # -- compilation -------------------------------------------------------
    def _function_snapshot(self, snapshotter: Snapshotter) -> str:
        # A function decorated with its own options compiles with them
        # wherever it is called from (and its inner functions too); a plain
        # function called from jitted code takes the compilation's.
        if self._implicit:
            return snapshotter.function(self._plait_id, self.py_func)
        return snapshotter.function(
            self._plait_id,
            self.py_func,
            options=(
                ("check_overflow", self._options["check_overflow"]),
                ("fastmath", self._options["fastmath"]),
                ("boundscheck", self._options["boundscheck"]),
            ),
        )

    def _snapshot(self, types: list[str]) -> tuple[Snapshotter, str]:
        """The snapshotter with this function (and jitted functions passed
        as arguments) added, and its program."""
        snapshotter = Snapshotter(lambda value: isinstance(value, Dispatcher), _implicit_dispatcher)
        snapshotter.add(self)
        for name in types:  # jitted functions passed as arguments: their code too
            for ident in re.findall(r"function\[(\d+)\]", name):
                passed = _by_id.get(int(ident))
                if passed is None:
                    raise CompileError(f"{self.__name__}(): the jitted function passed as an argument no longer exists")
                snapshotter.add(passed)
        return snapshotter, snapshotter.program()

    def _build(self, types: list[str], look_in_cache: bool = True, speculate: bool = True) -> tuple[Any, Callable[[], Any]]:
        """Snapshot (GIL held), compile (detached), and record the guard.
        Returns the executor and a function that compiles the same code
        again keeping each stage's IR (for inspect(): printing every stage
        on each compilation would cost a tenth of its time)."""
        _overload.load_numpy_library()
        snapshotter, program = self._snapshot(types)
        options = dict(
            check_overflow=self._options["check_overflow"],
            fastmath=self._options["fastmath"],
            parallel=self._options["parallel"],
            recursion_limit=min(sys.getrecursionlimit(), _MAX_NATIVE_DEPTH),
            messages=_MESSAGES,
            opt_level=self._options["opt_level"],
            boundscheck=self._options["boundscheck"],
            overloaded=_overload.overloaded_keys(),
            speculate=speculate,
        )

        # Kept in this dispatcher's own tables: a strong reference to it
        # would make a cycle, which only a collection frees (after the
        # interpreter's last one at exit, nanobind reports its executors
        # as leaked).
        this = weakref.ref(self)

        def compile_with_stages() -> Any:
            # A fresh snapshot: the compilation's resolver added the
            # overload implementations to the first one.
            dispatcher = this()
            assert dispatcher is not None, "called through the dispatcher's own inspect()"
            again, text = dispatcher._snapshot(types)
            resolver = _overload.Resolver(again, _implicit_dispatcher)
            return _native.compile(text, dispatcher._plait_id, types, resolver=resolver, keep_stages=True, **options)

        cache_key = _cache.key(program, self._plait_id, types, options) if self._options["cache"] else None
        start = time.perf_counter()
        resolver = _overload.Resolver(snapshotter, _implicit_dispatcher)
        executor = None
        if cache_key and look_in_cache:
            # A hit replays the entry's overload resolutions through
            # `resolver` (the same implementations and guards as a
            # compilation); if they differ now, it is compiled afresh, from
            # a fresh snapshot.
            executor = _cache.load(cache_key, program, resolver)
            if executor is _cache.STALE:
                return self._build(types, look_in_cache=False, speculate=speculate)
        try:
            if executor is None:
                recording = _cache.RecordingResolver(resolver) if cache_key else resolver
                executor = _native.compile(
                    program, self._plait_id, types, resolver=recording, keep_object=cache_key is not None, **options
                )
                if cache_key:
                    _cache.store(cache_key, executor, program, recording.calls)  # type: ignore[union-attr]
        finally:
            _native._record(self, "compile", time.perf_counter() - start)
            # Also after a failure: changing the code or a global it read
            # must clear the remembered error.
            _native._set_guard(self, snapshotter.guard_functions, snapshotter.guard_reads)
        for callee in snapshotter.dispatchers:
            if callee is not self:
                with callee._lock:
                    callee._add_dependent(self)
        return executor, compile_with_stages

    def _add_dependent(self, dependent: "Dispatcher") -> None:
        """Records a dependent (with _lock held); drops dead ones now and then."""
        self._dependents[id(dependent)] = weakref.ref(dependent)
        if len(self._dependents) > 16 and len(self._dependents) & (len(self._dependents) - 1) == 0:
            self._live_dependents()

    def _live_dependents(self) -> "list[Dispatcher]":
        """The dependents still alive (with _lock held); forgets the others."""
        live = []
        for key, ref in list(self._dependents.items()):
            dependent = ref()
            if dependent is None:
                del self._dependents[key]
            else:
                live.append(dependent)
        return live

    def _compile_once(self, codes: str, build: Callable[[], tuple[str, Any, Callable[[], Any]]], fallback: bool = False) -> None:
        """Single flight: one compilation per signature; concurrent callers of
        the same signature wait for it and share its result or its error.
        Different signatures (and functions) compile in parallel. `fallback`:
        the signature's compilation without speculation."""
        table = self._fallbacks if fallback else self._compiled
        flight_key = "fallback " + codes if fallback else codes
        with self._lock:
            if codes in table:
                return
            failed = self._failed.get(flight_key)
            if failed is not None:
                raise failed[0](failed[1])
            flight = self._flights.get(flight_key)
            leader = flight is None
            if leader:
                flight = self._flights[flight_key] = _Flight()
        assert flight is not None
        if not leader:
            _native._record(self, "wait", 0.0)
            flight.done.wait()
            if flight.error is not None:
                cls, message = flight.error
                raise cls(message)
            return
        try:
            text, executor, with_stages = build()
            with self._lock:
                table[codes] = (text, executor)
                if not fallback:
                    self._with_stages[codes] = with_stages
        except BaseException as error:
            flight.error = (type(error), str(error))
            if isinstance(error, CompileError):
                with self._lock:
                    self._failed[flight_key] = flight.error
            raise
        finally:
            with self._lock:
                del self._flights[flight_key]
            flight.done.set()

    def _miss(self, codes: str) -> None:
        """Called by the native dispatcher for argument classes `codes` that
        have no executor: compile and install one."""

        def build() -> tuple[str, Any, Callable[[], Any]]:
            types = _native._key_type_names(codes)
            executor, with_stages = self._build(types)
            _native._install(self, codes, _native._signature_key(types)[1], "", executor)
            return f"{executor.result_type}({', '.join(types)})", executor, with_stages

        self._compile_once(codes, build)

    def _speculation_failed(self, codes: str) -> None:
        """Called by the native dispatcher when the executor for `codes` ran
        speculative code whose guard failed, having changed nothing: compiles
        the function without speculation (once) and attaches it to that
        executor, which runs it whenever its guard fails."""
        with self._lock:
            compiled = self._compiled.get(codes)
        if compiled is None:  # invalidated meanwhile: the call compiles afresh
            return
        speculative = compiled[1]

        def build() -> tuple[str, Any, Callable[[], Any]]:
            fallback, with_stages = self._build(_native._key_type_names(codes), speculate=False)
            speculative.set_fallback(fallback)
            return compiled[0], fallback, with_stages

        self._compile_once(codes, build, fallback=True)

    def _stale(self) -> None:
        """Called by the dispatcher when a guard failed: __code__ replaced or a
        global the compiled code read was re-bound."""
        self.invalidate()

    def invalidate(self) -> None:
        """Unlinks every executor of this function (and of the jitted functions
        whose compiled code includes it); the next call recompiles. Code is
        freed once no running call can still be in it."""
        seen: set[int] = set()
        pending: list[Dispatcher] = [self]
        while pending:
            dispatcher = pending.pop()
            if id(dispatcher) in seen:
                continue
            seen.add(id(dispatcher))
            with dispatcher._lock:
                dispatcher._compiled.clear()
                dispatcher._fallbacks.clear()
                dispatcher._with_stages.clear()
                dispatcher._staged.clear()
                dispatcher._failed.clear()
                # A snapshot: other threads' compilations add dependents.
                dependents = dispatcher._live_dependents()
            _native._invalidate(dispatcher)
            pending.extend(dependents)

    def stats(self) -> dict[str, Any]:
        """This function's counters (see plait.stats())."""
        return dict(_native._stats(self))

    def compile(self, signature: str) -> None:
        """Compiles an explicit signature such as 'float64(float64, int64)' now."""
        result, args, codes, kinds = _parse_signature(signature)

        def build() -> tuple[str, Any, Callable[[], Any]]:
            executor, with_stages = self._build(args)
            cast = ""
            if result:
                produced = executor.result_type
                # NumPy scalars (numpy.float64, ...) are returned as the
                # declared Python type.
                scalar = produced.removeprefix("numpy.")
                integral = scalar in ("int", "bool", "int64", "int32", "int16", "int8", "uint8", "uint64")
                if result in ("float64", "float", "float32") and (integral or scalar in ("float", "float64", "float32")):
                    cast = "F" if result == "float32" else ("f" if produced != "float" else "")
                elif result in ("int64", "int", "int32") and integral:
                    cast = "I" if result == "int32" else ("i" if produced != scalar else "")
                elif result in ("complex128", "complex") and scalar in ("complex", "complex128"):
                    cast = "c" if produced != "complex" else ""
                elif result == "bool" and scalar == "bool":
                    cast = "b" if produced != scalar else ""
                else:
                    raise TypingError(f"{self.__name__}() returns {produced}, which cannot be returned as {result}")
            _native._install(self, codes, kinds, cast, executor)
            return f"{result or executor.result_type}({', '.join(args)})", executor, with_stages

        self._compile_once(codes, build)
        # One executor per argument types: a second result type for the same
        # arguments would be silently ignored.
        with self._lock:
            compiled = self._compiled[codes][0]
        if result and _RESULT_ALIASES.get(result, result) != _RESULT_ALIASES.get(
            compiled[: compiled.index("(")], compiled[: compiled.index("(")]
        ):
            raise TypeError(
                f"{self.__name__}() already has the signature {compiled} for these argument types, "
                f"so {signature!r} cannot also be compiled"
            )

    # -- introspection -----------------------------------------------------
    @property
    def signatures(self) -> list[str]:
        """The compiled signatures, e.g. ['int(int64, int64)']."""
        with self._lock:
            return [text for text, _ in self._compiled.values()]

    def inspect(self, signature: Optional[str] = None, stage: str = "mlir") -> str:
        """The text of a compilation stage: 'plait' (the plait dialect as
        emitted), 'optimized-plait' (after inlining and plait's passes:
        versioned loops, checks proven unneeded removed), 'mlir' (lowered to
        func/arith/cf/memref), 'optimized-mlir', 'llvm' (optimised LLVM IR)
        or 'asm'. Compilations do not keep these texts (printing them would
        cost a tenth of a small function's compile time): the first inspect()
        of a signature compiles it once more, keeping them."""
        if stage not in _STAGES:
            raise ValueError(f"stage must be one of {', '.join(_STAGES)}")
        codes = self._codes_of(signature)
        with self._lock:
            executor = self._staged.get(codes)
            with_stages = self._with_stages.get(codes)
        if executor is None:
            if with_stages is None:  # invalidated meanwhile
                raise KeyError(f"no compiled signature {signature!r}; have {self.signatures}")
            executor = with_stages()
            with self._lock:
                # Kept only if the signature was not compiled again meanwhile
                # (its stages would be another snapshot's).
                if self._with_stages.get(codes) is with_stages:
                    executor = self._staged.setdefault(codes, executor)
        if stage == "plait":
            return executor.plait
        if stage == "optimized-plait":
            return executor.optimized_plait
        if stage == "mlir":
            return executor.mlir
        if stage == "optimized-mlir":
            return executor.optimized_mlir
        if stage == "llvm":
            return executor.llvm
        return executor.asm()

    def compile_times(self, signature: Optional[str] = None) -> dict[str, float]:
        """Seconds the native compilation of a signature took, by phase in
        order (typing and emission, plait passes, lowering to MLIR, lowering
        to LLVM IR, LLVM optimisation, code generation, linking, ...), and
        'total'. The snapshot (Python side) is not included."""
        codes = self._codes_of(signature)
        with self._lock:
            executor = self._compiled[codes][1]
        times = dict(executor.phase_seconds)
        times["total"] = executor.compile_seconds
        return times

    def _codes_of(self, signature: Optional[str]) -> str:
        """The dispatch codes of a compiled signature (the first one when
        None): 'float64(float64, int64)', '(float64, int64)' or a signature
        with other spellings of the same types."""
        with self._lock:
            compiled = list(self._compiled.items())
        if not compiled:
            raise ValueError(f"{self.__name__}() has not been compiled yet: call it or pass a signature")
        if signature is None:
            return compiled[0][0]
        for codes, (text, _) in compiled:
            if signature in (text, text[text.index("(") :]):
                return codes
        codes = _parse_signature(signature)[2]
        if codes not in dict(compiled):
            raise KeyError(f"no compiled signature {signature!r}; have {self.signatures}")
        return codes

    def __repr__(self) -> str:
        return f"<plait.jit {self.__qualname__}>"

    def __reduce__(self) -> Any:
        """By reference when `module.qualname` finds this dispatcher again;
        otherwise by value (source, globals read, options, signatures),
        compiled again where it is unpickled (see plait/_pickling.py)."""
        return _pickling.reduce(self, self._constructor_options)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The second half of unpickling by value: globals and closure
        values (pickled after the dispatcher, so that they may refer to it,
        as recursive functions do), then the explicit signatures."""
        _pickling.restore(self, state)


_native._enable_vectorcall(Dispatcher)


@overload
def jit(fn: Callable[..., Any]) -> Dispatcher: ...
@overload
def jit(
    fn: Union[str, Sequence[str], None] = None,
    *,
    nogil: Union[bool, Literal["auto"]] = "auto",
    overflow: Literal["check", "wrap"] = "check",
    fastmath: bool = False,
    parallel: bool = False,
    opt_level: int = 2,
    boundscheck: bool = True,
    cache: bool = False,
) -> Callable[[Callable[..., Any]], Dispatcher]: ...


def _implicit_dispatcher(function: FunctionType) -> Optional[Dispatcher]:
    """The dispatcher that compiles a plain Python function called from
    jitted code, made once per function object and kept on it (its __code__
    and the globals it reads are guarded like any callee's). Two threads may
    both make one; setdefault keeps the first."""
    existing = function.__dict__.get("_plait_implicit")
    if isinstance(existing, Dispatcher):
        return existing
    try:
        made = Dispatcher(function)
    except (TypeError, ValueError):
        return None
    made._implicit = True
    return function.__dict__.setdefault("_plait_implicit", made)


def jit(
    fn: Union[Callable[..., Any], str, Sequence[str], None] = None,
    *,
    nogil: Union[bool, Literal["auto"]] = "auto",
    overflow: Literal["check", "wrap"] = "check",
    fastmath: bool = False,
    parallel: bool = False,
    opt_level: int = 2,
    boundscheck: bool = True,
    cache: bool = False,
) -> Any:
    """Compile a numeric Python function to native code.

    - ``@jit``: lazy, compiles on the first call for each new combination of
      argument types.
    - ``@jit("float64(float64, int64)")`` or a list of signatures: compiled at
      decoration (errors raised there); calls convert bool -> int -> float to
      a compiled signature and compile nothing new.
    - ``nogil``: release the GIL while compiled code runs: ``"auto"`` (when it
      loops or calls other jitted functions), ``True`` or ``False``.
    - ``overflow``: ``"check"`` (int64 overflow raises OverflowError) or
      ``"wrap"`` (two's complement).
    - ``fastmath``: allow LLVM to reassociate float arithmetic.
    - ``parallel``: run ``prange`` loops on the process's thread pool
      (``plait.prange``; ``numba.prange`` too); without it they run as
      ``range``. See ``plait.set_num_threads``.
    - ``boundscheck``: array indices raise IndexError when out of range
      (default); ``False`` removes the checks.
    - ``cache``: keep the machine code on disk (``PLAIT_CACHE_DIR``, or the
      user cache folder) and load it in later processes instead of
      compiling; see ``plait.cache_info()`` and ``plait.clear_cache()``.
    """
    signatures: Sequence[str] = ()
    if isinstance(fn, str):
        signatures, fn = [fn], None
    elif isinstance(fn, (list, tuple)):
        signatures, fn = list(fn), None

    def decorate(function: Callable[..., Any]) -> Dispatcher:
        return Dispatcher(
            function,  # type: ignore[arg-type]
            nogil=nogil,
            overflow=overflow,
            fastmath=fastmath,
            parallel=parallel,
            opt_level=opt_level,
            boundscheck=boundscheck,
            cache=cache,
            signatures=signatures,
        )

    return decorate(fn) if fn is not None else decorate
