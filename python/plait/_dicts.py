"""The methods of typed dicts in compiled code, on plait.overload.

The compiler implements a dict's primitives (d[k], d[k] = v, del d[k],
`k in d`, len, get(k, default) and loops over the dict and its keys(),
values() and items()); the other methods are written here with them, with
CPython's results and errors."""

from __future__ import annotations

import builtins
from typing import Any, Callable

from . import types
from ._overload import overload, overload_method
from .errors import TypingError


def _method(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return overload_method(dict, name)


_MISSING = object()


def _never_filled(d: Any) -> bool:
    """A dict nothing is ever put into (always empty): implementations must
    not read its values, which have no type."""
    return isinstance(d, types.Dict) and (d.key is None or d.value is None)


@_method("pop")
def _pop_typer(d: Any, key: Any, default: Any = _MISSING) -> Any:
    if _never_filled(d):
        if default is _MISSING:

            def pop_missing(d, key):
                raise KeyError(key)

            return pop_missing

        def pop_default(d, key, default):
            return default

        return pop_default
    if default is _MISSING:

        def pop(d, key):
            value = d[key]  # (KeyError(key) when it is missing)
            del d[key]
            return value

        return pop

    def pop_or_default(d, key, default):
        if key in d:
            value = d[key]
            del d[key]
            return value
        return default

    return pop_or_default


@_method("setdefault")
def _setdefault_typer(d: Any, key: Any, default: Any = _MISSING) -> Any:
    if default is _MISSING:
        raise TypingError("dict.setdefault() without a default (None) is not supported: give one")

    def setdefault(d, key, default):
        if key not in d:
            d[key] = default
        return d[key]

    return setdefault


@_method("update")
def _update_typer(d: Any, other: Any) -> Any:
    if not isinstance(other, types.Dict):
        raise TypingError(f"dict.update() takes a dict in compiled code, not {other}")
    if _never_filled(other):

        def update_nothing(d, other):
            pass

        return update_nothing

    def update(d, other):
        for key, value in other.items():
            d[key] = value

    return update


@_method("clear")
def _clear_typer(d: Any) -> Any:
    if _never_filled(d):

        def clear_nothing(d):
            pass

        return clear_nothing

    def clear(d):
        keys = [k for k in d]
        for k in keys:
            del d[k]

    return clear


@_method("copy")
def _copy_typer(d: Any) -> Any:
    if _never_filled(d):

        def copy_nothing(d):
            return {}

        return copy_nothing

    def copy(d):
        made = {}
        for key, value in d.items():
            made[key] = value
        return made

    return copy


@overload(builtins.dict)
def _dict_typer(*items: Any) -> Any:
    if items:
        return None  # (dict(pairs) is not supported yet)

    def empty():
        return {}

    return empty
