"""prange loops, run interpreted (prange is range there) and compiled with
parallel=True by test_jit_parallel.py."""

from __future__ import annotations

import numpy as np

import plait
from plait import prange
from plait.testing import jit_rendezvous


def float_sum(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


def int_reductions(a):
    total = 0
    product = 1
    low = 2**62
    high = -(2**62)
    ored = 0
    anded = -1
    for i in prange(a.shape[0]):
        v = a[i]
        total += v
        product *= v % 3 + 1
        low = min(low, v)
        high = max(high, v)
        ored |= v
        anded &= v
    return total, product, low, high, ored, anded


def python_int_sum(a):
    s = 0
    for i in prange(len(a)):
        s += int(a[i])
    return s


def float_min_max_sub(a):
    low = np.inf
    high = -np.inf
    down = 100.0
    for i in prange(a.shape[0]):
        low = min(low, a[i])
        high = max(high, a[i])
        down -= a[i]
    return low, high, down


def bool_reductions(a, limit):
    anything = False
    everything = True
    for i in prange(len(a)):
        anything |= a[i] > limit
        everything &= a[i] > limit
    return anything, everything


def row_sums(a, out):
    for i in prange(a.shape[0]):
        t = 0.0
        for j in range(a.shape[1]):
            t += a[i, j]
        out[i] = t


def last_values(n):
    # After the loop: the last iteration's private variables, as range leaves them.
    k = -1
    for i in prange(n):
        k = i * i
    return i, k


def stepped(start, stop, step, out):
    count = 0
    for i in prange(start, stop, step):
        out[i] = i
        count += 1
    return count


def array_privates(a):
    # Arrays made per iteration (a private array variable) and read after.
    out = np.zeros(a.shape[0])
    row = a[0] * 0.0
    for i in prange(a.shape[0]):
        row = a[i] * 2.0 + 1.0
        out[i] = np.sum(row)
    return out, row


def nested(a):
    total = 0.0
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):  # nested: runs serially on its thread
            total += a[i, j] * (i + 1)
    return total


def nested_outer_only(a, out):
    for i in prange(a.shape[0]):
        for j in prange(a.shape[1]):
            out[i, j] = a[i, j] * 2.0


def out_of_bounds(a, at):
    for i in prange(a.shape[0]):
        a[i] = 1.0
        if i == at:
            a[i + a.shape[0]] = 2.0


def raises_value_error(n, at):
    s = 0
    for i in prange(n):
        if i == at:
            raise ValueError("bad iteration")
        s += i
    return s


def caught_in_caller(a, at):
    try:
        out_of_bounds(a, at)
    except IndexError:
        return -1
    return 0


def catches_inside(n):
    bad = 0
    for i in prange(n):
        try:
            if i % 3 == 0:
                raise KeyError(i)
        except KeyError:
            bad += 1
    return bad


def serial_break(a, limit):
    found = -1
    for i in prange(a.shape[0]):
        if a[i] > limit:
            found = i
            break
    return found


def serial_return(a, limit):
    for i in prange(a.shape[0]):
        if a[i] > limit:
            return i
    return -1


def serial_chain(n):
    x = 1
    for i in prange(n):
        x = x * 3 % 1000003 + i
    return x


def serial_list(n):
    values = []
    for i in prange(n):
        values.append(i * i)
    return values


def loop_else(n):
    s = 0
    for i in prange(n):
        s += i
    else:
        s = -s
    return s


try:  # (Numba has no free-threaded builds: there these two are not tested)
    import numba
    from numba import prange as numba_prange
except ImportError:
    numba = numba_prange = None


def with_numba_prange(a):
    s = 0.0
    for i in numba_prange(a.shape[0]):
        s += a[i] * a[i]
    return s


def with_module_prange(a, out):
    for i in numba.prange(a.shape[0]):
        out[i] = a[i] + 1.0
    for i in plait.prange(a.shape[0]):
        out[i] *= 2.0


def meets_across_threads(n, barrier):
    # The first and the last iteration run in different chunks: with two
    # threads they meet; one thread alone would wait for the other forever.
    met = 0
    for i in prange(n):
        if i == 0 or i == n - 1:
            if jit_rendezvous(barrier, 2, 60.0):
                met += 1
    return met


def whole_array(a, b):
    # A fused expression, broadcast, and sums of expressions and of arrays.
    c = np.sqrt(np.abs(a - b)) * 0.5 + a * a
    return c, np.sum(c), np.sum(a), np.sum((a - b) ** 2)


def line_sums(m):
    # Sums along the last axis: each line on its thread, in NumPy's order.
    return m.sum(-1), np.mean(m, axis=1)


def whole_matrix(m, row):
    return np.sqrt(np.abs(m)) * 2.0 - m * row + row


def last_match(a, limit):
    # Only some iterations assign `found`, and it is read after the loop:
    # serially the last match, which the last chunk alone cannot know.
    found = -1
    for i in prange(a.shape[0]):
        if a[i] > limit:
            found = i
    return found


def temporaries_in_nested_loops(a, out):
    # `t` is assigned in a nested loop only, and never read after the loop.
    for i in prange(a.shape[0]):
        for j in range(a.shape[1]):
            t = a[i, j] * 2.0
            out[i, j] = t + 1.0


def column_sums(a):
    # An array reduction: each thread adds rows into an array of its own.
    acc = np.zeros(a.shape[1])
    for i in prange(a.shape[0]):
        acc += a[i]
    return acc


def int_histogram_planes(planes):
    # Integer arrays reduce exactly; -= adds negatives; the array is bound
    # twice, so it lives in a slot.
    counts = np.zeros((planes.shape[1], planes.shape[2]), dtype=np.int64)
    counts = counts + 1
    for k in prange(planes.shape[0]):
        counts += planes[k]
        counts -= 1
    return counts


def product_and_bits(a):
    p = np.ones(a.shape[1])
    bits = np.zeros(a.shape[1], dtype=np.int64)
    for i in prange(a.shape[0]):
        p *= a[i]
        bits |= np.int64(1) << (i % 60)
    return p, bits


def say(i):
    print("item", i)


def prints_through_a_callee(n):
    s = 0
    for i in prange(n):
        say(i)
        s += i
    return s


# Loops a review found run in parallel where the result would differ, or
# crashed: each must give range's results.


def concatenates(n):
    s = ""
    items = [0]
    for i in prange(n):
        s += "a"
        items += [i]
    return s, len(items)


def _add_to(values, i):
    values.append(i)


def changes_a_list_through_a_call_or_an_alias(n):
    values = [0]
    for i in prange(n):
        _add_to(values, i)
        other = values
        other.append(-i)
    return len(values), values[-1]


def continues_before_assigning(a):
    found = -1
    for i in prange(a.shape[0]):
        if a[i] <= 0:
            continue
        found = i
    return found


def unsigned_and_bool_extremes(a):
    low = a[0]
    high = a[0]
    any_odd = False
    all_odd = True
    for i in prange(a.shape[0]):
        low = min(low, a[i])
        high = max(high, a[i])
        any_odd = max(any_odd, a[i] % 2 == 1)
        all_odd = min(all_odd, a[i] % 2 == 1)
    return low, high, any_odd, all_odd


def closure_reads_the_variables(n):
    s = 1
    t = 0
    peek = lambda: s + t  # noqa: E731
    out = np.zeros(n)
    for i in prange(n):
        s += peek() % 7
        out[i] = t
        t = i
    return s, out


def read_in_the_loops_else(a):
    r = -1
    for i in prange(a.shape[0]):
        if a[i] > 0:
            found = i
    else:
        r = found
    return r


def annotation_without_value(a, out):
    t = -1
    for i in prange(a.shape[0]):
        t: int
        out[i] = t
        t = i


def array_reduction_maybe_unbound(n, a):
    if n > 0:
        acc = np.zeros(3)
    for i in prange(n):
        acc += a[i]
    return 0
