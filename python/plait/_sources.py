"""Source text of functions whose code is not in a file.

plait compiles from source, which `inspect` reads through `linecache` from
the function's file. Names that are not files are shared (every exec is
`<string>`), so for those the text is accepted only if it defines the
function's own code: linecache's (IPython cells, Python 3.13's REPL and
`-c`), or one kept here. Three common kinds of function have no file:

- made by `exec(text)` or `exec(compile(text, "<name>", "exec"))` (code
  generators): CPython raises the audit event `compile` with the text and
  the name before it compiles; the hook installed when plait is imported
  keeps the most recent of these texts (for names that are not files);
- typed after `python -c`: the text is in `sys.orig_argv`;
- typed into the interactive interpreter (`<stdin>`): the lines are in
  readline's history, where the interpreter keeps it.

A text is accepted only if compiling it again yields the function's own
code object (same name, first line, bytecode, constants and names), so a name used for many
texts (every `exec` is `<string>`) never yields the wrong source.
"""

from __future__ import annotations

import __future__
import collections
import functools
import inspect
import io
import linecache
import operator
import re
import sys
import threading
import tokenize
import weakref
from types import CodeType, FunctionType
from typing import Iterator, Optional

#: How many texts compiled under names that are not files are kept (the
#: newest; dataclasses and namedtuples exec small texts too), and at most
#: how many characters in all.
_KEPT = 512
_KEPT_CHARACTERS = 64 << 20
_kept_size = 0
#: Names that are never a function's: ast.parse's default.
_NOT_KEPT = frozenset({"<unknown>"})

_lock = threading.Lock()
#: Texts found for code objects (weakly: code dies with its functions).
_found: "weakref.WeakKeyDictionary[CodeType, tuple[list[str], int]]" = weakref.WeakKeyDictionary()
_texts: "collections.OrderedDict[tuple[str, str], None]" = collections.OrderedDict()
_local = threading.local()


def _audit(event: str, args: tuple) -> None:
    if event != "compile" or getattr(_local, "searching", False):
        return
    source, filename = args
    # <unknown> is ast.parse's name (plait's own snapshots among others).
    if not isinstance(filename, str) or not filename.startswith("<") or filename in _NOT_KEPT:
        return
    if filename.startswith("<frozen"):
        return
    if isinstance(source, bytes):
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
            source = source.decode(encoding)
        except (SyntaxError, LookupError, UnicodeDecodeError):
            return
    if not isinstance(source, str) or "def " not in source and "lambda" not in source:
        return
    keep(filename, source)


def keep(filename: str, source: str) -> None:
    """Keeps `source` as a candidate text for code named `filename`."""
    key = (filename, source)
    global _kept_size
    with _lock:
        if key not in _texts:
            _kept_size += len(source)
        _texts[key] = None
        _texts.move_to_end(key)
        while len(_texts) > _KEPT or _kept_size > _KEPT_CHARACTERS:
            (_, dropped), _ = _texts.popitem(last=False)
            _kept_size -= len(dropped)


def install() -> None:
    """Starts keeping the texts of exec and compile (once per process; an
    audit hook cannot be removed)."""
    with _lock:
        if getattr(sys, "_plait_sources_hook", False):
            return
        sys.addaudithook(_audit)
        sys._plait_sources_hook = True  # type: ignore[attr-defined]


def _kept_texts(filename: str) -> list[str]:
    with _lock:
        return [source for name, source in reversed(_texts) if name == filename]


#: The interactive interpreter's name for its inputs: <stdin> up to 3.13,
#: <stdin-N> (the Nth input) from 3.14.
_NUMBERED_STDIN = re.compile(r"<stdin-\d+>")

#: Interpreter options followed by a separate argument.
_OPTIONS_WITH_ARGUMENT = frozenset({"-W", "-X", "-Q"})


def _command_text() -> Optional[str]:
    """The program of `python [options] -c program`."""
    argv = getattr(sys, "orig_argv", [])
    i = 1
    while i < len(argv) - 1:
        arg = argv[i]
        if arg == "-c":
            return argv[i + 1]
        if arg in _OPTIONS_WITH_ARGUMENT:
            i += 2
            continue
        if not arg.startswith("-") or arg in ("-m", "-"):
            return None
        i += 1
    return None


def _history_texts(name: str) -> Iterator[str]:
    """Definitions of `name` in the interactive interpreter's history (one
    item per line typed), newest first, with their decorators."""
    try:
        import readline
    except ImportError:
        return
    items = [readline.get_history_item(i) or "" for i in range(1, readline.get_current_history_length() + 1)]
    for at in range(len(items) - 1, -1, -1):
        if not items[at].startswith(f"def {name}("):
            continue
        start, end = at, at + 1
        while start > 0 and items[start - 1].startswith("@"):
            start -= 1
        while end < len(items) and items[end][:1] in (" ", "\t"):
            end += 1
        yield "\n".join(items[start:end]) + "\n"


def _codes(code: CodeType) -> Iterator[CodeType]:
    yield code
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            yield from _codes(constant)


#: The compiler flags of `from __future__` imports, which a text's code
#: objects carry.
_FUTURE_FLAGS = functools.reduce(
    operator.or_, (getattr(__future__, name).compiler_flag for name in __future__.all_feature_names), 0
)


def _typed(value: object) -> object:
    """A constant with its type: 1, 1.0 and True are equal, but not the same
    code (tuples and frozensets are compared item by item; a frozenset's
    items sorted, since their order follows string hashing, which varies by
    process)."""
    if isinstance(value, tuple):
        return ("tuple",) + tuple(_typed(item) for item in value)
    if isinstance(value, frozenset):
        return ("frozenset",) + tuple(sorted((_typed(item) for item in value), key=repr))
    if isinstance(value, CodeType):
        return ("code", code_identity(value))
    return (type(value).__qualname__, repr(value))


def code_identity(code: CodeType) -> tuple:
    """What a code object is: name, first line, bytecode, typed constants
    (nested code included) and names. Its repr() is the same in every
    process (marshal's bytes are not: they depend on reference counts)."""
    return (
        code.co_name,
        code.co_firstlineno,
        code.co_code,
        _typed(code.co_consts),
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        code.co_cellvars,
    )


def _defines(text: str, filename: str, wanted: CodeType) -> bool:
    """Whether compiling `text` makes `wanted` (nested code included)."""
    _local.searching = True
    try:
        compiled = compile(text, filename, "exec", flags=wanted.co_flags & _FUTURE_FLAGS, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    finally:
        _local.searching = False
    identity = code_identity(wanted)
    return any(code_identity(code) == identity for code in _codes(compiled))


def not_a_file(fn: object) -> bool:
    """Whether `fn`'s code names no file (`<string>`, `<stdin>`, ...)."""
    return isinstance(fn, FunctionType) and fn.__code__.co_filename.startswith("<")


def source_lines(fn: FunctionType) -> Optional[tuple[list[str], int]]:
    """(lines, first line) of `fn`'s definition, from the text linecache
    has under its name (IPython cells, Python 3.13's REPL and -c) or for its
    code (Python 3.14's basic REPL), or a text kept here, whichever defines
    the function's own code; or None."""
    code = fn.__code__
    with _lock:
        known = _found.get(code)
    if known is not None:
        return known
    filename = code.co_filename
    candidates: list[str] = []
    registered = "".join(linecache.getlines(filename))
    if registered:
        candidates.append(registered)
    # Python 3.14's basic REPL names each input <stdin-N> and registers its
    # text by code object (linecache._register_code), not under the name.
    by_code = "".join(getattr(linecache, "_getlines_from_code", lambda code: [])(code))
    if by_code:
        candidates.append(by_code)
    if filename == "<string>":
        command = _command_text()
        if command is not None:
            candidates.append(command)
    candidates += _kept_texts(filename)
    if filename == "<stdin>" or _NUMBERED_STDIN.fullmatch(filename):
        candidates += list(_history_texts(code.co_name))
    for text in candidates:
        if _defines(text, filename, code):
            lines = python_lines(text)
            found = inspect.getblock(lines[code.co_firstlineno - 1 :]), code.co_firstlineno
            with _lock:
                _found[code] = found
            return found
    return None


def python_lines(text: str) -> list[str]:
    """`text`'s lines as Python's compiler counts them (\\n, \\r\\n, \\r;
    str.splitlines also breaks at form feeds, U+2028 and others)."""
    return io.StringIO(text, newline=None).readlines()


def unavailable_hint(fn: FunctionType) -> str:
    """How to make the source of `fn` available, for the error message."""
    filename = fn.__code__.co_filename
    if filename.startswith("<"):
        return (
            "plait keeps the source passed to exec() or compile() only from `import plait` on: import plait "
            "before running the code that defines it, or register the text with linecache "
            f"(linecache.cache[{filename!r}] = (len(text), None, io.StringIO(text).readlines(), {filename!r}))"
        )
    return "define it in a file"
