"""The methods of typed lists in compiled code, and `x in seq`, on
plait.overload.

The compiler implements a list's primitives (len, l[i], l[i] = v, append
and pop() of the last item); the other methods are written here with them,
with CPython's results and errors. A list compiled code changes marks
itself changed, so the dispatcher writes a list argument's new items back
to the caller's list."""

from __future__ import annotations

import builtins
from typing import Any, Callable

from . import types
from ._builtins import MAX_EMPTY, MIN_EMPTY
from ._overload import _register, overload, overload_method
from .errors import TypingError


def _is_list(t: Any) -> bool:
    return isinstance(t, types.List)


def _never_filled(t: Any) -> bool:
    """A list nothing is ever put into (always empty): implementations must
    not read its items, which have no type."""
    return _is_list(t) and t.item is None


def _nothing(*args):
    pass


def _method(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return overload_method(list, name)


def _needs_int(name: str, t: Any) -> None:
    if t is not None and not types.is_integral(t):
        raise TypingError(f"'{t}' object cannot be interpreted as an integer")


# -- searching ---------------------------------------------------------------


def _contains(x, seq):
    for item in seq:
        if item == x:
            return True
    return False


def _in_typer(x: Any, seq: Any) -> Any:
    return _contains


_register("builtins.in", _in_typer, None, "in")


@_method("count")
def _count_typer(l: Any, x: Any) -> Any:
    if _never_filled(l):

        def count_none(l, x):
            return 0

        return count_none

    def count(l, x):
        n = 0
        for item in l:
            if item == x:
                n += 1
        return n

    return count


def _take_out(l, i, n):
    # Item i goes: the n - 1 - i after it move down one place, the last slot
    # is popped (list.remove, pop(i), del l[i]).
    for k in range(i, n - 1):
        l[k] = l[k + 1]
    l.pop()


def _position(i, n):
    # CPython's slice-index clamping of index()'s start and stop.
    if i < 0:
        i += n
        if i < 0:
            i = 0
    elif i > n:
        i = n
    return i


def _index_names_value() -> bool:
    """Whether this CPython's list.index names a missing value ("0 is not in
    list", up to 3.13) or not ("list.index(x): x not in list", 3.14 on)."""
    try:
        [].index(0)
    except ValueError as error:
        return str(error) == "0 is not in list"
    return True


_INDEX_NAMES_VALUE = _index_names_value()


@_method("index")
def _index_typer(l: Any, x: Any, start: Any = None, stop: Any = None) -> Any:
    _needs_int("index", start)
    _needs_int("index", stop)
    if _never_filled(l):

        def index_none(l, x, start=0, stop=9223372036854775807):
            if _INDEX_NAMES_VALUE:
                raise ValueError(f"{x!r} is not in list")
            raise ValueError("list.index(x): x not in list")

        return index_none

    def index(l, x, start=0, stop=9223372036854775807):
        n = len(l)
        i = _position(start, n)
        end = _position(stop, n)
        while i < end and i < len(l):
            if l[i] == x:
                return i
            i += 1
        if _INDEX_NAMES_VALUE:
            raise ValueError(f"{x!r} is not in list")
        raise ValueError("list.index(x): x not in list")

    return index


@_method("remove")
def _remove_typer(l: Any, x: Any) -> Any:
    if _never_filled(l):

        def remove_none(l, x):
            raise ValueError("list.remove(x): x not in list")

        return remove_none

    def remove(l, x):
        n = len(l)
        for i in range(n):
            if l[i] == x:
                _take_out(l, i, n)
                return
        raise ValueError("list.remove(x): x not in list")

    return remove


# -- adding and taking items -------------------------------------------------


@_method("pop")
def _pop_typer(l: Any, index: Any = None) -> Any:
    _needs_int("pop", index)
    if _never_filled(l):
        raise TypingError("pop() of a list nothing is ever put into (it always raises IndexError)")

    def pop(l, index=-1):
        n = len(l)
        if n == 0:
            raise IndexError("pop from empty list")
        i = index + n if index < 0 else index
        if i < 0 or i >= n:
            raise IndexError("pop index out of range")
        item = l[i]
        _take_out(l, i, n)
        return item

    return pop


@_method("__delitem__")
def _delitem_typer(l: Any, index: Any) -> Any:
    _needs_int("del", index)
    if _never_filled(l):

        def delete_none(l, index):
            raise IndexError("list assignment index out of range")

        return delete_none

    def delete(l, index):
        n = len(l)
        i = index + n if index < 0 else index
        if i < 0 or i >= n:
            raise IndexError("list assignment index out of range")
        _take_out(l, i, n)

    return delete


@_method("insert")
def _insert_typer(l: Any, index: Any, x: Any) -> Any:
    _needs_int("insert", index)

    def insert(l, index, x):
        n = len(l)
        i = index
        if i < 0:
            i += n
            if i < 0:
                i = 0
        elif i > n:
            i = n
        l.append(x)
        k = n
        while k > i:
            l[k] = l[k - 1]
            k -= 1
        l[i] = x

    return insert


@_method("extend")
def _extend_typer(l: Any, other: Any) -> Any:
    if not isinstance(other, (types.List, types.Tuple, types.Array)):
        raise TypingError(f"'{other}' object is not iterable")

    if _never_filled(other):
        return _nothing
    if _is_list(other):

        def extend_list(l, other):
            # l.extend(l) adds the items it had: count them first.
            n = len(other)
            for k in range(n):
                l.append(other[k])

        return extend_list

    def extend(l, other):
        for item in other:
            l.append(item)

    return extend


@_method("clear")
def _clear_typer(l: Any) -> Any:
    if _never_filled(l):
        return _nothing

    def clear(l):
        while len(l) > 0:
            l.pop()

    return clear


@_method("copy")
def _copy_typer(l: Any) -> Any:
    def copy(l):
        return l[:]

    return copy


@_method("reverse")
def _reverse_typer(l: Any) -> Any:
    if _never_filled(l):
        return _nothing

    def reverse(l):
        i = 0
        k = len(l) - 1
        while i < k:
            item = l[i]
            l[i] = l[k]
            l[k] = item
            i += 1
            k -= 1

    return reverse


# -- sorting -----------------------------------------------------------------


def _insertion_sort(keys, l, low, high):
    # Stable: an item moves left past items of greater keys only.
    for i in range(low + 1, high):
        key = keys[i]
        item = l[i]
        k = i
        while k > low and key < keys[k - 1]:
            keys[k] = keys[k - 1]
            l[k] = l[k - 1]
            k -= 1
        keys[k] = key
        l[k] = item


def _merge(keys, l, scratch_keys, scratch, low, middle, high):
    for k in range(low, middle):
        scratch_keys[k] = keys[k]
        scratch[k] = l[k]
    i = low
    j = middle
    k = low
    while i < middle and j < high:
        # Stable: on ties the left run's item comes first.
        if keys[j] < scratch_keys[i]:
            keys[k] = keys[j]
            l[k] = l[j]
            j += 1
        else:
            keys[k] = scratch_keys[i]
            l[k] = scratch[i]
            i += 1
        k += 1
    while i < middle:
        keys[k] = scratch_keys[i]
        l[k] = scratch[i]
        i += 1
        k += 1


def _stable_sort(keys, l):
    # Sorts `l` by `keys` (one per item, moved along with it). Runs of 32
    # sorted by insertion, then merged bottom-up (stable, as CPython's sort;
    # items whose keys compare equal keep their order).
    n = len(l)
    width = 32
    for low in range(0, n, width):
        _insertion_sort(keys, l, low, min(low + width, n))
    if n <= width:
        return
    scratch_keys = keys[:]
    scratch = l[:]
    while width < n:
        for low in range(0, n - width, 2 * width):
            _merge(keys, l, scratch_keys, scratch, low, low + width, min(low + 2 * width, n))
        width *= 2


def _no_key(key: Any) -> bool:
    return key is None or isinstance(key, types.NoneType)


def _ordered(item: Any) -> None:
    if isinstance(item, types.Complex) or (isinstance(item, types.NumPyScalar) and item.dtype.kind == "c"):
        raise TypingError("'<' not supported between instances of 'complex' and 'complex'")


@_method("sort")
def _sort_typer(l: Any, key: Any = None, reverse: Any = None) -> Any:
    if not _no_key(key) and not isinstance(key, types.Function):
        raise TypingError(f"list.sort() takes a function as key=, not {key}")
    if _no_key(key):
        _ordered(l.item)
    if _never_filled(l):

        def sort_nothing(l, key=None, reverse=False):
            pass

        return sort_nothing

    if _no_key(key):

        def sort(l, key=None, reverse=False):
            if reverse:
                # As CPython: reversed, sorted, reversed again, so that
                # equal items keep their order.
                l.reverse()
                _stable_sort(l[:], l)
                l.reverse()
            else:
                _stable_sort(l[:], l)

        return sort

    def sort_by_key(l, key=None, reverse=False):
        # Each item's key computed once, in order, as CPython does.
        keys = [key(item) for item in l]
        if reverse:
            keys.reverse()
            l.reverse()
            _stable_sort(keys, l)
            keys.reverse()
            l.reverse()
        else:
            _stable_sort(keys, l)

    return sort_by_key


# -- builtins over lists -----------------------------------------------------


def _extreme_by(items, key, largest):
    # Each key computed once; the first of equal keys wins (strict).
    n = len(items)
    if n == 0:
        if largest:
            raise ValueError(MAX_EMPTY)
        raise ValueError(MIN_EMPTY)
    best = items[0]
    best_key = key(best)
    for k in range(1, n):
        item = items[k]
        item_key = key(item)
        if (item_key > best_key) if largest else (item_key < best_key):
            best = item
            best_key = item_key
    return best


def _min(items):
    # CPython keeps the first of equal items: a strict comparison.
    n = len(items)
    if n == 0:
        raise ValueError(MIN_EMPTY)
    best = items[0]
    for k in range(1, n):
        if items[k] < best:
            best = items[k]
    return best


def _max(items):
    n = len(items)
    if n == 0:
        raise ValueError(MAX_EMPTY)
    best = items[0]
    for k in range(1, n):
        if items[k] > best:
            best = items[k]
    return best


def _empty_min(items, key=None):
    raise ValueError(MIN_EMPTY)


def _empty_max(items, key=None):
    raise ValueError(MAX_EMPTY)


def _extreme_typer(implementation: Any, largest: bool, empty: Any) -> Callable[..., Any]:
    def typer(items: Any, key: Any = None) -> Any:
        if _no_key(key):
            if _never_filled(items):
                return empty
            if _is_list(items):
                _ordered(items.item)
            return implementation
        if not isinstance(key, types.Function):
            raise TypingError(f"key= takes a function, not {key}")
        if _never_filled(items):
            return empty

        def extreme_by_key(items, key=None):
            return _extreme_by(items, key, largest)

        return extreme_by_key

    return typer


# min() and max() of one list or 1-D array (the compiler types the others).
_register("builtins.min_of", _extreme_typer(_min, False, _empty_min), None, "min")
_register("builtins.max_of", _extreme_typer(_max, True, _empty_max), None, "max")


@overload(builtins.sorted)
def _sorted_typer(iterable: Any, key: Any = None, reverse: Any = None) -> Any:
    if not isinstance(iterable, (types.List, types.Tuple, types.Array)):
        return None

    def sorted_(iterable, key=None, reverse=False):
        items = []
        for x in iterable:
            items.append(x)
        items.sort(key=key, reverse=reverse)
        return items

    return sorted_


@overload(builtins.list)
def _list_typer(*iterable: Any) -> Any:
    # (The snapshot writes list(iterable) as [x for x in iterable].)
    if iterable:
        return None

    def empty():
        return []

    return empty


# -- operators ---------------------------------------------------------------


def _python_name(t: Any) -> str:
    """The name CPython's messages give a value of type `t`."""
    if isinstance(t, types.List):
        return "list"
    if isinstance(t, types.Tuple):
        return "tuple"
    if isinstance(t, types.Array):
        return "numpy.ndarray"
    if isinstance(t, types.NumPyScalar):
        return f"numpy.{t.dtype.name}"
    return str(t)


def _check_same_items(l: Any, other: Any, operation: str) -> None:
    if l.item is not None and other.item is not None and l.item != other.item:
        raise TypingError(
            f"{l} {operation} {other} would mix item types in one list: a compiled list "
            "holds items of one type (convert the items first)"
        )


@_method("__eq__")
def _eq_typer(l: Any, other: Any) -> Any:
    if not (_is_list(l) and _is_list(other)):

        def never(l, other):
            return False  # (a list equals only a list)

        return never
    if _never_filled(l) or _never_filled(other):

        def both_empty(l, other):
            return len(l) == 0 and len(other) == 0

        return both_empty

    def eq(l, other):
        n = len(l)
        if len(other) != n:
            return False
        for k in range(n):
            if not (l[k] == other[k]):
                return False
        return True

    return eq


@_method("__add__")
def _add_typer(l: Any, other: Any) -> Any:
    if not _is_list(other):
        raise TypingError(f'can only concatenate list (not "{_python_name(other)}") to list')
    _check_same_items(l, other, "+")
    if _never_filled(other):

        def add_nothing(l, other):
            return l[:]

        return add_nothing
    if _never_filled(l):

        def add_to_nothing(l, other):
            return other[:]

        return add_to_nothing

    def add(l, other):
        n = len(other)  # (other may be l)
        out = l[:]
        for k in range(n):
            out.append(other[k])
        return out

    return add


@_method("__iadd__")
def _iadd_typer(l: Any, other: Any) -> Any:
    if not isinstance(other, (types.List, types.Tuple, types.Array)):
        raise TypingError(f"'{_python_name(other)}' object is not iterable")
    if _is_list(other):
        _check_same_items(l, other, "+=")
    if _never_filled(other):

        def iadd_nothing(l, other):
            return l

        return iadd_nothing

    def iadd(l, other):
        l.extend(other)
        return l

    return iadd


def _repeat_nothing(l, n):
    return l[:]


def _repeat(l, n):
    if n > 0 and len(l) > 0 and n > 1152921504606846975 // len(l):
        raise MemoryError  # (as CPython, before trying)
    out = l[:]
    out.clear()
    for _ in range(n):
        for k in range(len(l)):
            out.append(l[k])
    return out


def _needs_count(l: Any, n: Any) -> None:
    if not types.is_integral(n):
        raise TypingError(f"can't multiply sequence by non-int of type '{_python_name(n)}'")


@_method("__mul__")
def _mul_typer(l: Any, n: Any) -> Any:
    _needs_count(l, n)
    if _never_filled(l):
        return _repeat_nothing

    def mul(l, n):
        return _repeat(l, n)

    return mul


@_method("__rmul__")
def _rmul_typer(n: Any, l: Any) -> Any:
    _needs_count(l, n)
    if _never_filled(l):

        def rmul_nothing(n, l):
            return l[:]

        return rmul_nothing

    def rmul(n, l):
        return _repeat(l, n)

    return rmul


@_method("__imul__")
def _imul_typer(l: Any, n: Any) -> Any:
    _needs_count(l, n)
    if _never_filled(l):

        def imul_nothing(l, n):
            return l

        return imul_nothing

    def imul(l, n):
        count = len(l)
        if n > 0 and count > 0 and n > 1152921504606846975 // count:
            raise MemoryError
        if n <= 0:
            l.clear()
        for _ in range(n - 1):
            for k in range(count):
                l.append(l[k])
        return l

    return imul
