"""Lists of tuples, of arrays and of lists, run interpreted (the reference)
and compiled by test_jit_list_items.py."""

import numpy as np


def pairs_below(n):
    out = []
    for i in range(n):
        for j in range(i):
            out.append((i, j * 0.5))
    return out


def weighted(pairs):
    total = 0.0
    for i, x in pairs:
        total += i * x
    pairs.append((len(pairs), total))
    return total


def tuple_methods(pairs, i, x):
    probe = (i, x)
    found = probe in pairs
    count = pairs.count(probe)
    pairs.insert(1, probe)
    pairs.remove(probe)
    first = pairs.pop(0) if pairs else (0, 0.0)
    pairs.sort()
    return found, count, first, sorted(pairs, reverse=True), pairs.index(probe) if probe in pairs else -1


def tuple_index_message(pairs, i, x):
    return pairs.index((i, x))


def tuple_compare(a, b, c, d):
    s, t = (a, b), (c, d)
    return s < t, s <= t, s > t, s >= t, s == t, s != t, (a,) < (a, b), (a, b, c) > (a, b), s == (a, b, 0)


def arrays_made(n, m):
    out = []
    for k in range(n):
        out.append(np.arange(m) * k)
    return out


def arrays_summed(arrays):
    total = np.zeros(arrays[0].shape)
    for a in arrays:
        total += a
    return total


def arrays_scaled(arrays, c):
    for a in arrays:
        a *= c
    return len(arrays)


def arrays_shuffled(arrays):
    arrays.append(arrays.pop(0))
    arrays[0] = arrays[0] * 2.0
    arrays.insert(1, arrays[-1] + 1.0)
    del arrays[-1]
    arrays.extend(arrays[:1])
    arrays.reverse()
    copied = arrays.copy()
    copied.clear()
    return arrays + [np.ones(arrays[0].shape)], len(copied)


def arrays_churned(n):
    # Items replaced, popped and dropped many times over: each array must be
    # freed exactly once.
    kept = []
    for k in range(n):
        kept.append(np.full(4, float(k)))
        if k % 3 == 0:
            kept[0] = kept[-1] + 1.0
        if k % 4 == 1:
            kept.pop()
        if len(kept) > 5:
            del kept[1]
    total = 0.0
    for a in kept:
        total += float(a.sum())
    return total, kept


def arrays_stacked(n, m):
    rows = []
    for k in range(n):
        rows.append(np.linspace(0.0, k, m))
    return np.array(rows)


def arrays_stacked_given(arrays):
    return np.array(arrays)


def tuples_to_array(n):
    return np.array([(k, k * 0.25) for k in range(n)])


def tuples_holding_arrays(n):
    out = [(k, np.zeros(k)) for k in range(n)]
    for k, z in out:
        z[:] = k
    return out


def grid(n, m):
    g = [[0] * m for _ in range(n)]
    for i in range(n):
        for j in range(m):
            g[i][j] += i * j - j
    g[0].append(7)
    return g, sum(len(row) for row in g)


def buckets(values, n):
    groups = [[] for _ in range(n)]
    for v in values:
        groups[v % n].append(v)
    return groups


def array_item_out_of_range(arrays, i):
    return arrays[i]


def tuple_message(pairs):
    raise ValueError(f"first pair {pairs[0]}, as repr {pairs[0]!r}, one element {(pairs[0][0],)}")


def print_items(pairs, arrays):
    print(pairs, arrays, [[1, 2], [3]])


def squared_norm(p):
    return p[0] * p[0] + p[1] * p[1]


def keyed(pairs, reverse):
    by_second = sorted(pairs, key=lambda p: p[1], reverse=reverse)
    pairs.sort(key=squared_norm, reverse=not reverse)
    return by_second, max(pairs, key=lambda p: p[1] - p[0]), min(pairs, key=squared_norm)


def keyed_array(a):
    return max(a, key=lambda v: abs(v - 1.0)), min(a, key=lambda v: -v), sorted(a, key=lambda v: v * v)


def keyed_empty(n):
    items = [n][:0]
    return min(items, key=lambda v: v)


def reversed_in_a_loop(a, n):
    # reverse() swaps items through a local of the inlined method: its
    # array slot must not take new stack space on each iteration.
    total = 0.0
    for i in range(n):
        items = [a * k for k in range(3)]
        items.reverse()
        total += items[0][0]
    return total


def numpy_pairs(pairs):
    first = pairs[0]
    pairs.append(first)
    return first[0] + first[0], first[1] * 3


def shared_rows(n):
    rows = [[0] * 3] * n
    rows[0].append(9)
    row = [n]
    return rows, [row, row]


def rows_to_array(n, m):
    rows = [[i * m + j * 0.5 for j in range(m)] for i in range(n)]
    return np.array(rows), np.asarray(rows, dtype=np.float32)


def ragged_to_array(n):
    rows = [[1.0] * (i + 1) for i in range(n)]
    return np.array(rows)


def rows_searched(n, row):
    grid = [[i, i + 1] for i in range(n)]
    found = row in grid, grid.count(row)
    return found, grid.index(row)  # ValueError naming the row, as CPython's


def list_in_message(values, limit):
    if len(values) > limit:
        raise ValueError(f"too many values: {values!r} (at most {limit}), {[(v, v * 2) for v in values]}")
    return len(values)


def breadth_first(adjacency, start):
    seen = [False] * len(adjacency)
    seen[start] = True
    order = [start]
    k = 0
    while k < len(order):
        v = order[k]
        k += 1
        for w in adjacency[v]:
            if not seen[w]:
                seen[w] = True
                order.append(w)
    return order


def rows_grown(rows, x):
    rows[0].append(x)
    rows.append([x])
    rows[-1].append(x + 1)
    if x > 3:
        rows[1].pop()  # (an exception after changes: they reach the caller too)
    return rows[0]


def rows_dropped_and_replaced(rows, x):
    # A row changed, then dropped or replaced: its changes still reach the
    # caller's row object; the new rows are new lists.
    rows[0].append(x)
    dropped = rows.pop(0)
    rows.append([x, x])
    if rows:
        rows[0] = [x + 1]
    return len(dropped)


def message_of_the_list_as_raised(values, x):
    try:
        raise ValueError(f"values {values} and rows {[values, [x]]}")
    finally:
        values.append(x)  # (after the message: not in it)


def grown_deeper(grid):
    grid[1].append([6])
    return len(grid[1])
