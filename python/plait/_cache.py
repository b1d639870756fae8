"""cache=True: compiled functions kept on disk, shared by processes.

An entry is one executor's record (machine code and what the dispatcher needs
to call it, lib/JIT/ExecutorRecord.cpp) under a key that covers everything
that decides the code:

- the snapshot: the function's source and its jitted and plain callees',
  the values of the globals they read (frozen into the code), with the
  process-specific function numbers renumbered by first appearance;
- the argument types and every compile option;
- plait itself (its version, and the size and time of its native module and
  Python files as this process loaded them) and the `plait.overload`
  implementations registered (their typers' code, their modules' files);
- the record format, LLVM's version, the host CPU and its features.

Files are written to a temporary name and renamed into place (atomic: a
reader sees a whole entry or none), and start with a SHA-256 of the record:
a truncated or altered entry is rejected, removed and compiled again. Many
processes may compile and write the same entry at once; the last rename
wins, and every version of it is complete.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Optional

from . import _overload, _sources
from ._core import jit as _native

_MAGIC = b"plait-cache-2\n"
_SUFFIX = ".plait"

_lock = threading.Lock()
_counters = {"hits": 0, "misses": 0, "writes": 0, "rejected": 0}
_fingerprints: dict[str, Any] = {}
_warned = False

#: A quoted string (skipped), or a function number in the snapshot: the
#: numbers differ between processes, the structure they name does not.
_NUMBERED = re.compile(
    r'\(Overload "([^"#]*)#(\d+)"|"(?:[^"\\]|\\.)*"|\((Function|Jit) (\d+)|\(Closure (\d+ \d+ \d+ \d+) (\d+)'
    r"|function\[(\d+)\]"
)


def directory() -> Path:
    """PLAIT_CACHE_DIR, or the platform's user cache folder's plait/."""
    chosen = os.environ.get("PLAIT_CACHE_DIR")
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local"))
        return base / "plait" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "plait"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "plait"


def _renumbered(program: str, entry: int, types: list[str]) -> tuple[str, Optional[int], str]:
    numbers: dict[str, int] = {}

    def number(ident: str) -> int:
        return numbers.setdefault(ident, len(numbers) + 1)

    def replace(match: "re.Match[str]") -> str:
        # An overloaded object's key ends in its id (overload targets that
        # are not NumPy's or math's), numbered like the functions.
        if match.group(2):
            return f'(Overload "{match.group(1)}#{number("object " + match.group(2))}"'
        if match.group(3):
            return f"({match.group(3)} {number(match.group(4))}"
        if match.group(5):
            return f"(Closure {match.group(5)} {number(match.group(6))}"
        if match.group(7):
            return f"function[{number(match.group(7))}]"
        return match.group(0)

    text = _NUMBERED.sub(replace, program)
    typed = _NUMBERED.sub(replace, ", ".join(types))
    return text, numbers.get(str(entry)), typed


def _plait_fingerprint() -> str:
    """plait as this process loaded it (computed once: files changed later
    are not the code running here)."""
    with _lock:
        if "plait" not in _fingerprints:
            from . import __version__

            package = Path(__file__).parent
            parts = [__version__, _native._code_fingerprint()]
            for path in sorted(package.rglob("*.py")) + sorted(package.glob("_core*")):
                stat = path.stat()
                parts.append(f"{path.relative_to(package)} {stat.st_size} {stat.st_mtime_ns}")
            _fingerprints["plait"] = "\n".join(parts)
        return _fingerprints["plait"]


def _overloads_fingerprint() -> str:
    """The plait.overload registrations: each typer's code (its nested
    implementations included) and the file of its module."""
    generation = _overload._generation["registrations"]
    with _lock:
        cached = _fingerprints.get("overloads")
        if cached is not None and cached[0] is generation:
            return cached[1]
    digest = hashlib.sha256()
    with _overload._lock:
        # Keys of objects end in '#<id>', which differs between processes.
        registry = sorted((key.split("#", 1)[0], list(typers)) for key, typers in _overload._registry.items())
    for key, typers in registry:
        digest.update(key.encode())
        for typer in typers:
            code = getattr(typer, "__code__", None)
            if code is not None:
                digest.update(repr(_sources.code_identity(code)).encode())
            else:
                digest.update(f"{type(typer).__module__}.{type(typer).__qualname__}".encode())
            module = sys.modules.get(getattr(typer, "__module__", "") or "")
            filename = getattr(module, "__file__", None)
            if filename and not filename.startswith(str(Path(__file__).parent)):
                try:
                    stat = os.stat(filename)
                    digest.update(f"{filename} {stat.st_size} {stat.st_mtime_ns}".encode())
                except OSError:
                    pass
    text = digest.hexdigest()
    with _lock:
        _fingerprints["overloads"] = (generation, text)
    return text


def key(program: str, entry: int, types: list[str], options: dict[str, Any]) -> str:
    """The entry's name: a SHA-256 of everything that decides the code."""
    text, entry_number, typed = _renumbered(program, entry, types)
    # The overloaded keys are the registry's (fingerprinted above), with ids.
    stable = {name: value for name, value in options.items() if name != "overloaded"}
    digest = hashlib.sha256()
    for part in (
        _plait_fingerprint(),
        _overloads_fingerprint(),
        repr(sorted(stable.items())),
        f"entry {entry_number}",
        typed,
        text,
    ):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def _count(name: str) -> None:
    with _lock:
        _counters[name] += 1


def _path(entry_key: str) -> Path:
    return directory() / (entry_key + _SUFFIX)


#: load()'s answer when an entry's overload resolutions differ now.
STALE = object()


class RecordingResolver:
    """Wraps a compilation's resolver and records its calls and answers:
    the overload implementations the code was compiled with."""

    def __init__(self, resolver: Any) -> None:
        self.resolver = resolver
        self.calls: list[tuple[list[Any], Any]] = []

    def __call__(self, key: str, positional: list[str], keywords: list[tuple[str, str]], literals: Any = ()) -> Any:
        answer = self.resolver(key, positional, keywords, literals)
        self.calls.append(([key, list(positional), [list(k) for k in keywords], list(literals)], answer))
        return answer


def _answer_text(answer: tuple) -> str:
    if answer[0] == "native":
        return "native"
    # The implementation's number as the snapshot spells it, so that it is
    # renumbered with the others.
    return f"{answer[0]} (Jit {answer[1]}) {answer[2]} {answer[3:]!r}"


def _answers_digest(program: str, answers: list[tuple]) -> str:
    text, _, _ = _renumbered(program + "\0" + "\0".join(_answer_text(a) for a in answers), 0, [])
    return hashlib.sha256(text.encode()).hexdigest()


def _current_key(recorded: str) -> Optional[str]:
    """The overload key of this process for a recorded one (whose object id
    was another process's), or None if it is ambiguous or unknown."""
    if "#" not in recorded:
        return recorded
    stem = recorded.split("#", 1)[0] + "#"
    with _overload._lock:
        matches = [key for key in _overload._registry if key.startswith(stem)]
    return matches[0] if len(matches) == 1 else None


def load(entry_key: str, program: str, resolver: Any) -> Any:
    """The executor of a valid entry; None if missing (or rejected and
    removed: truncated, altered, or not loadable); STALE if the overload
    implementations it was compiled with are not the ones `resolver` finds
    now (the replay adds them, and their guards, to the snapshot)."""
    path = _path(entry_key)
    try:
        data = path.read_bytes()
    except OSError:
        _count("misses")
        return None
    header = len(_MAGIC) + 32
    body = data[header:]
    if data[: len(_MAGIC)] != _MAGIC or hashlib.sha256(body).digest() != data[len(_MAGIC) : header]:
        return _reject(path)
    try:
        size = int.from_bytes(body[:8], "little")
        manifest = json.loads(body[8 : 8 + size].decode())
        record = body[8 + size :]
        calls, digest = manifest["calls"], manifest["answers"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return _reject(path)
    try:
        answers = []
        for key, positional, keywords, literals in calls:
            current = _current_key(key)
            if current is None:
                raise LookupError(key)
            answers.append(resolver(current, positional, [tuple(k) for k in keywords], literals))
    except Exception:  # noqa: BLE001 - any failure to resolve as before
        _count("misses")
        return STALE
    if _answers_digest(program, answers) != digest:
        _count("misses")
        return STALE
    try:
        executor = _native._load_executor(record)
    except (ValueError, RuntimeError):
        return _reject(path)
    _count("hits")
    return executor


def _reject(path: Path) -> None:
    _count("rejected")
    _count("misses")
    try:
        path.unlink()
    except OSError:
        pass
    return None


def store(entry_key: str, executor: Any, program: str, calls: list[tuple[list[Any], Any]]) -> None:
    """Writes the entry (the record, and the overload resolutions the code
    was compiled with): a temporary file renamed into place. A folder that
    cannot be written warns once; compiled code works regardless."""
    global _warned
    manifest = json.dumps(
        {"calls": [call for call, _ in calls], "answers": _answers_digest(program, [answer for _, answer in calls])}
    ).encode()
    body = len(manifest).to_bytes(8, "little") + manifest + executor.cache_record()
    data = _MAGIC + hashlib.sha256(body).digest() + body
    path = _path(entry_key)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError as error:
        try:
            temporary.unlink()
        except OSError:
            pass
        with _lock:
            warn, _warned = not _warned, True
        if warn:
            warnings.warn(f"plait cannot write its cache in {path.parent}: {error}", RuntimeWarning, stacklevel=5)
        return
    _count("writes")


def cache_info() -> dict[str, Any]:
    """The cache folder, its entries and bytes, and this process's hits,
    misses, writes and rejected (corrupted) entries."""
    folder = directory()
    entries = total = 0
    try:
        for path in folder.glob("*" + _SUFFIX):
            try:
                if path.is_file():
                    total += path.stat().st_size
                    entries += 1
            except OSError:
                pass
    except OSError:
        pass
    with _lock:
        counters = dict(_counters)
    return {"directory": str(folder), "entries": entries, "bytes": total, **counters}


def clear_cache() -> int:
    """Removes every entry of the cache folder; returns how many."""
    removed = 0
    for path in directory().glob("*" + _SUFFIX):
        try:
            path.unlink()
            removed += 1
        except OSError:
            pass
    return removed
