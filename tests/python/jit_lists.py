"""Typed lists: built, indexed, sliced, changed by their methods and
operators, iterated, searched, sorted, passed in and returned; run
interpreted and compiled by test_jit_lists.py."""

import numpy as np


def built(n, x):
    squares = []
    for i in range(n):
        squares.append(i * i)
    display = [x, x + 1.0, -x]
    comprehension = [v * 2.0 for v in display if v > 0]
    nested = [i * j for i in range(n) for j in range(i) if (i + j) % 2 == 0]
    ranged = list(range(n, 0, -2))
    zipped = [i + v for i, v in zip(range(n), display)]
    counted = [i for i, _ in enumerate(display)]
    return squares, display, comprehension, nested, ranged, zipped, counted, list(), []


def indexed(items, i, j):
    first = items[i]
    items[j] = first + 1
    items[-1] += 2
    return first, items[j], items[-1], items, len(items)


def sliced(items, start, stop, step):
    return items[start:stop:step], items[start:], items[:stop], items[::step], items[:]


def methods(items, x, i):
    items.append(x)
    items.insert(i, x + 1)
    items.extend([x, x])
    items.extend((x + 2, x + 3))
    first = items.pop()
    second = items.pop(i)
    c = items.count(x)
    at = items.index(x)
    items.remove(x)
    kept = items.copy()
    items.reverse()
    return first, second, c, at, kept, items


def pop_at(items, i):
    return items.pop(i), items


def index_between(items, x, start, stop):
    return items.index(x, start, stop)


def remove_value(items, x):
    items.remove(x)
    return items


def insert_at(items, i, x):
    items.insert(i, x)
    return items


def cleared(items):
    n = len(items)
    items.clear()
    return n, items, len(items), bool(items)


def sorting(items, reverse):
    ordered = sorted(items)
    backwards = sorted(items, reverse=True)
    items.sort(reverse=reverse)
    return ordered, backwards, items


def sorted_sequences(t, a):
    return sorted(t), sorted(a, reverse=True)


def operators(items, other, n):
    joined = items + other
    repeated = items * n
    left = n * other
    grown = []
    grown += items
    grown += (7, 8)
    grown *= 2
    return joined, repeated, left, grown, items == other, items != other, items == items[:]


def searching(items, x, t, a):
    return x in items, x not in items, x in t, x not in t, x in a


def reductions(items):
    return sum(items), min(items), max(items), any(items), all(items), len(items), sum(items, 10)


def iterated(items):
    total = 0.0
    weighted = 0.0
    for v in items:
        total += v
    for i, v in enumerate(items):
        weighted += i * v
    backwards = []
    for v in reversed(items):
        backwards.append(v)
    for i in reversed(range(len(items))):
        backwards.append(items[i])
    return total, weighted, backwards


def truth(items):
    if items:
        return len(items)
    return -1


def arrays_of(items):
    a = np.array(items)
    b = np.asarray(items, dtype=np.float32)
    return a, b, a.sum()


def items_of_arrays(a):
    # A list of NumPy scalars (what array elements load as).
    picked = []
    for v in a:
        if v > 0:
            picked.append(v)
    return picked, [b for b in a > 0]


def complex_items(z, w):
    items = [z, w]
    items.append(z * w)
    return items, items[1], items.index(w)


def aliases(n):
    a = []
    b = a
    for i in range(n):
        b.append(i)
    grow(a, 100)
    return a, b


def grow(items, x):
    items.append(x)


def grown_argument(items, n):
    for i in range(n):
        items.append(items[i] * 2)
    return len(items)


def raises_after_change(items):
    items.append(99)
    return items[100]


def printed(items):
    print(items, [1.5, -0.0], [True], [np.int8(3)], [], sep=" | ")


def out_of_range(items, i):
    return items[i]


def assign_out_of_range(items, i):
    items[i] = items[0]
    return items


def empty_pop(n):
    items = [1.0]
    for _ in range(n):
        items.pop()
    return items


# -- refused ----------------------------------------------------------------


def mixed_display(x):
    return [1, x]


def mixed_append(x):
    items = [1]
    items.append(x)
    return items


def empty_parameter(items):
    items.append(1)
    return items


def slice_assignment(items):
    items[1:2] = [3]
    return items


def concatenate_int(items):
    return items + 1


# -- what a review found ------------------------------------------------------


def chained_names(n):
    a = b = []
    b.append(0.5)
    for i in range(n):
        a.append(0.5 * i)
    return a, b


def append_of_pop(items):
    items.append(items.pop())
    return items


def rebound_in_loop(n):
    items = [1, 2, 3, 4]
    total = 0
    for x in items:
        items = [100 + n] * 7
        total += x
    for x in reversed(items):
        items = [n]
        total += x
    return total, items


def same_list_twice(a, b):
    a.append(1)
    b.append(2)
    return len(a), len(b)


def tested_with_and(items, limit):
    if items and items[0] > limit:
        return 1
    while items and items[-1] < limit:
        items.pop()
    return len(items)


def never_filled(n):
    a = []
    b = sorted(a)
    a.sort()
    a.reverse()
    c = a + []
    d = a == []
    e = a * n
    total = 0
    for x in reversed(a):
        total += x
    for x in reversed(()):
        total += x
    return len(b), len(c), d, len(e), total, np.array(a).shape, 3 in a


def delete_items(items, i):
    del items[i]
    return items


def complex64_message(z):
    items = [np.complex64(z)]
    return items.index(np.complex64(z + 1))


def nested_loops_over_a_parameter(items):
    total = 0
    for a in items:
        for b in items:
            total += a * b + len(items)
    return total
