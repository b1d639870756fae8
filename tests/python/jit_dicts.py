"""Typed dicts: built, looked up, changed, iterated in insertion order,
passed in and returned; run interpreted and compiled by test_jit_dicts.py."""

import numpy as np


def counted(values):
    counts = {}
    for v in values:
        if v in counts:
            counts[v] += 1
        else:
            counts[v] = 1
    return counts


def built(n, x):
    display = {1: x, 2: x + 1.0, -3: -x}
    squares = {i: i * i for i in range(n)}
    kept = {k: v for k, v in display.items() if v > 0}
    empty = dict()
    empty[n] = x
    return display, squares, kept, empty, {}


def looked_up(d, k, fallback):
    return d.get(k, fallback), k in d, k not in d, len(d), bool(d)


def item(d, k):
    return d[k]


def changed(d, k, v):
    d[k] = v
    first = d.pop(k)
    second = d.pop(k, v)
    third = d.setdefault(k, v)
    d[k] += v
    return first, second, third, d


def deleted(d, k):
    del d[k]
    return d


def iterated(d):
    keys = [k for k in d]
    values = [v for v in d.values()]
    pairs = 0.0
    for k, v in d.items():
        pairs += k * v
    view = list(d.keys())
    return keys, values, pairs, view


def reinserted(n):
    # A key deleted and put back goes to the end, as in CPython.
    d = {}
    for i in range(n):
        d[i] = i * 0.5
    for i in range(0, n, 2):
        del d[i]
    for i in range(0, n, 3):
        d[i] = -1.0
    return d, list(d.keys())


def methods(d, other):
    copy = d.copy()
    copy.update(other)
    cleared = d.copy()
    cleared.clear()
    return copy, cleared, d


def grows_while_looping(d):
    for k in d:
        d[k + 1000] = 0.0
    return d


def signed_zero_keys(values):
    d = {}
    for v in values:
        d[v] = d.get(v, 0) + 1
    return d


def numpy_keys(a):
    d = {}
    for v in a:
        d[v] = d.get(v, 0) + 1
    return d


def printed(d):
    print(d, {1.5: True}, {}, sep=" | ")


def mixed_keys(x):
    d = {1: 0.5}
    d[x] = 1.0
    return d


def complex_keys(x):
    return {complex(x, x): 1}


def summed_over_itself(d):
    # The loop's dict is a parameter the body reads too.
    total = 0.0
    for k in d:
        total += d[k]
        if k in d:
            d[k] = 2.0
    return total, d


def add_item(d, k):
    d[k] = 1.0


def filled_by_a_helper(k):
    d = {}
    add_item(d, k)
    return d


def never_filled(k):
    d = {}
    found = k in d, d.get(k, 1.5), d.pop(k, 2.0)
    try:
        del d[k]
    except KeyError:
        found = (True, 0.0, 0.0)
    return found, d.copy()


def int_key_into_float_dict(d):
    d[1] = 5
    return d


def pair_counts(n, m):
    counts = {}
    for i in range(n):
        for j in range(i):
            key = (i % m, j % 2)
            counts[key] = counts.get(key, 0) + 1
    total = 0
    for (a, b), c in counts.items():
        total += (a * 10 + b) * c
    return counts, total, (1, 0) in counts, counts[1, 1] if (1, 1) in counts else -1


def tuple_keys_changed(d, i, x):
    # Float tuples: -0.0 and 0.0 are one element, an int finds its float.
    d[(x, i)] = d.get((x, i), 0.0) + 1.0
    d.setdefault((-x, i), 2.5)
    found = (float(i), i) in d, d.get((i, i), -1.0)
    if (0.0, 0) in d:
        del d[(0.0, 0)]
    popped = d.pop((x, i), 9.0)
    return found, popped, [k for k in d], sorted([v for v in d.values()])


def tuple_key_missing(d, i):
    return d[(i, i + 1)]


def nested_tuple_keys(n):
    d = {((i, i * 0.5), i % 2 == 0): i for i in range(n)}
    print(d)
    return d


def grouped(values, n):
    groups = {}
    for v in values:
        groups.setdefault(v % n, []).append(v)
    by_index = {}
    for i, v in enumerate(values):
        k = v % n
        if k not in by_index:
            by_index[k] = []
        by_index[k].append(i)
    return groups, by_index


def array_values(n, m):
    cache = {}
    for i in range(n):
        cache[i % m] = np.arange(3.0) * i  # replaced values are released
    if 0 in cache:
        cache[0] += 1.0  # in place, as ndarray's +=
    total = 0.0
    for k, a in cache.items():
        total += float(a.sum())
    fallback = cache.get(m + 1, np.zeros(3))
    popped = cache.pop(m - 1) if m - 1 in cache else np.ones(3)
    return cache, total, fallback, popped


def tuple_values(n):
    d = {i: (i, i * 0.5) for i in range(n)}
    if n:
        d[0] = (9, 9.5)
    best = max([v for v in d.values()], key=lambda t: t[1]) if n else (0, 0.0)
    print(d)
    return d, best


def churned_values(n):
    # Values replaced, deleted and put back many times: each freed once.
    d = {}
    for k in range(n):
        d[k % 5] = [float(k)] * (k % 3 + 1)
        if k % 4 == 3 and (k + 1) % 5 in d:
            del d[(k + 1) % 5]
    return d


def grouped_rows(values, n):
    # A list display appended to setdefault's result stays a list.
    groups = {}
    for v in values:
        groups.setdefault(v % n, []).append([v, v * 10])
    return groups


def displays_with_empty_lists(x):
    return {0: [x], 1: []}, {1: [], 0: [x]}, [[x], []]


def array_defaults(n):
    d = {0: np.ones(2)}
    total = 0.0
    for i in range(n):
        total += float(d.get(i % 2, np.zeros(2) + i).sum())
    return total


def tuple_key_errors(i, j):
    d = {}
    d.pop((i, j))


def tuple_value_error(x):
    raise ValueError((x, 2))
