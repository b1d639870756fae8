"""Array kernels for the tests: plain Python that also runs on NumPy arrays
in CPython, which is the reference."""

import numpy as np

from plait.testing import jit_rendezvous


def total(a):
    # float(): compiled code loads float32 elements as Python floats, while
    # NumPy keeps float32 arithmetic in float32 (documented difference).
    s = 0.0
    for i in range(len(a)):
        s += float(a[i])
    return s


def int_total(a):
    s = 0
    for i in range(a.shape[0]):
        s += int(a[i])
    return s


def total2d(m):
    s = 0.0
    rows, cols = m.shape
    for i in range(rows):
        for j in range(cols):
            s += float(m[i, j]) * (i + 1) - j
    return s


def total3d(t):
    s = 0.0
    for i in range(t.shape[0]):
        for j in range(t.shape[1]):
            for k in range(t.shape[2]):
                s += float(t[i, j, k])
    return s


def describe(m):
    return m.ndim, m.size, m.shape, len(m)


def count_true(flags):
    c = 0
    for f in flags:
        if f:
            c += 1
    return c


def fill(out, start, step):
    for i in range(len(out)):
        out[i] = start + i * step


def store(a, i, v):
    a[i] = v


def load(a, i):
    return a[i]


def load2(m, i, j):
    return m[i, j]


def scale_in_place(a, k):
    for i in range(len(a)):
        a[i] *= k


def saxpy(alpha, x, y, out):
    for i in range(len(x)):
        out[i] = alpha * x[i] + y[i]


def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def reads_only(a):
    return a[0] + a[len(a) - 1]


def calls_helper(a):
    return dot(a, a) + reads_only(a)


def writes_through_helper(a):
    fill(a, 1.0, 0.5)


def meet_and_fill(out, barrier):
    met = jit_rendezvous(barrier, 2, 60.0)
    for i in range(len(out)):
        out[i] = i * 2.0
    return met


def make_scaled(n, k):
    a = np.zeros(n)
    for i in range(n):
        a[i] = i * k
    return a


def make_grid(rows, cols):
    g = np.empty((rows, cols), dtype=np.int32)
    for i in range(rows):
        for j in range(cols):
            g[i, j] = i * 10 + j
    return g


def make_variants(n):
    return (
        np.ones(n, np.int64),
        np.full((2, n), 2.5),
        np.arange(n),
        np.arange(1.0, 2.0, 0.25),
        np.zeros(n, dtype=bool),
        np.zeros_like(np.ones((n, 2), np.float32)),
    )


def like(a):
    b = np.empty_like(a)
    for i in range(len(a)):
        b[i] = a[i] * 2
    return b


def ranges(start, stop, step):
    return np.arange(start, stop, step)


def same(a):
    return a


def fails_after_allocating(n):
    a = np.zeros(n)
    return a[n]


def twice(n):
    a = make_scaled(n, 1.0)
    return a, a


def reductions(a):
    return np.sum(a), np.min(a), np.max(a), np.mean(a), np.prod(a)


def dot_of(a, b):
    return np.dot(a, b)


def elementwise(a):
    return np.sqrt(a), np.abs(a), np.exp(a), np.log(a), np.sin(a), np.cos(a)


def scalar_ufuncs(x):
    return np.sqrt(x), np.abs(x), np.exp(x)


def sliced_total(a, start, stop, step):
    return total(a[start:stop:step])


def open_slices(a):
    return total(a[1:]) + total(a[:-1]) + total(a[::3]) + total(a[::-1])


def row_of(m, i):
    return m[i, :]


def column_times(m, j, k):
    c = m[:, j]
    for i in range(len(c)):
        c[i] = c[i] * k


def zero_step(a):
    return total(a[::0])


def fill_slice(a, v):
    a[1:-1] = v


def copy_into(a, b):
    a[::2] = b


def shift_right(a):
    a[1:] = a[:-1]


def set_row(m, i, row):
    m[i, :] = row


def set_column(m, j, v):
    m[:, j] = v


def row_totals(m, out):
    # for row in m: the rows of a 2-D array are 1-D views.
    k = 0
    for row in m:
        s = 0.0
        for x in row:
            s += float(x)
        out[k] = s
        k += 1
    return k


def normalise_rows(m):
    # Writes through the row views reach m.
    for row in m:
        peak = 0.0
        for x in row:
            if abs(x) > peak:
                peak = abs(x)
        if peak > 0:
            for j in range(len(row)):
                row[j] = row[j] / peak


def planes(t):
    n = 0
    total = 0.0
    for plane in t:
        for row in plane:
            n += len(row)
            total += np.sum(row)
    return n, total


def assign_broadcast(m, v):
    m[:] = v


def assign_rows_below_first(m, v):
    m[1:] = v


def reductions_along_axes(m):
    return (np.sum(m, axis=0), np.sum(m, axis=-1), np.mean(m, 0), np.min(m, axis=1), np.max(m, axis=0))


def product_along_rows(m):
    return np.prod(m, axis=1)


def window_sum(a, start, stop, step, shift):
    s = 0.0
    for j in range(start, stop, step):
        s += a[j + shift] * (j - shift)
    return s


def row_differences(m, r, lo, hi):
    s = 0.0
    for j in range(lo, hi):
        s += m[r, j] - m[r - 1, j - 1]
    return s


def sum_until(a, n, limit):
    s = 0.0
    for j in range(n):
        if s > limit:
            break
        s += a[j]
    return s


def laplace(u, out):
    rows, cols = u.shape
    for i in range(1, rows - 1):
        for j in range(1, cols - 1):
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


def array_expression(x, y, k):
    # Whole-array arithmetic: elementwise, broadcasting, NumPy's dtypes.
    return (x * k + y, x - y, x / (y + 1.5), -x, x > y, x == k, np.sqrt(x * x * 1.0) + 0.5)


def integer_array_expression(x, y):
    return (x // (y | 1), x % 3, x & y, x ^ 5, ~x, x << 2)


def scale_and_shift_in_place(x, y, k):
    x *= k
    x += y
    x[1:] -= x[:-1]


def sum_of_temporaries(x, n):
    # Each iteration makes two temporary arrays; they are freed as the
    # statement ends, not when the call does.
    s = 0.0
    for i in range(n):
        s += np.sum(x * 2.0 + x)
    return s


def count_and_step(a, c0):
    # c moves by a constant per iteration: with a guard on its entry value
    # and the trip count its updates need no overflow checks.
    c = c0
    for i in range(len(a)):
        if a[i] > 0:
            c += 3
        else:
            c -= 1
    return c


def augment_unbound(n):
    for i in range(n):
        c += 1  # noqa: F821 - CPython raises UnboundLocalError when it runs
    return 0


def reassigned_loop_variable(a, n):
    s = 0.0
    for j in range(n):
        j: int = j + 100  # an annotated assignment re-binds j: no unchecked copy
        s += a[j]
    return s


def temporaries_in_branches(a, b):
    x = np.sum(a * 2.0) > 100.0 and np.sum(b * 3.0) > 0.0
    y = np.sum(a * 2.0) if a[0] > 5.0 else -1.0
    z = 100.0 < np.sum(a) < np.sum(b * 2.0)
    return x, y, z


def offset_window(a, k, n):
    s = 0.0
    for j in range(n):
        s += a[k + 1 + j]
    return s


def fill_local(n):
    u = np.zeros(n)
    u += 1.5
    return u


def complex_scale(z, a):
    return z * a, 1j + a, z / (a + 1.0)


def layout_of_results(a):
    return a * 2.0, -a, np.sqrt(np.abs(a)), np.zeros_like(a), a > 0.5


def layout_with_broadcast_rows(a, row, column):
    # A 1-D operand does not decide NumPy's K order; a 2-D C one does. The
    # sums then add in the result's memory order, as NumPy's do.
    r = a * row
    return r, (a + row).sum(axis=0), row - column[0] * a, a + a.T.T, (r * 3.0).sum()


def bounded_sums(n, k, t0):
    # total's terms are bounded over the loop's range: the guard drops their
    # overflow checks exactly when no intermediate value can leave int64.
    total = t0
    for i in range(-n, n, 3):
        total -= (i - k) * (2 * i + k) - 7
        total += i * i % 5 + (i - k) % 7  # Python's %: never negative here
    return total


def matmul(a, b):
    return a @ b


def chained_matmul(a, b, x):
    return (a @ b) @ x + a @ (b @ x)


def method_reductions(a):
    return a.sum(), a.sum(axis=0), a.mean(axis=-1), a.max(), a.min(0), a.prod(axis=1)


def copies_and_casts(a):
    b = a.copy()
    b[0, 0] = 100
    return b, a.astype(np.int32), a.astype("float32"), a.T.copy()


def transposes(a):
    t = a.T
    return t, a.transpose()[1], (a + 1).T.sum(axis=0), a.T.shape


def write_through_transpose(a):
    t = a.T
    t[1, 0] = -5


def like_by_dtype(u, n):
    v = np.empty(u.shape, dtype=u.dtype)
    v[:] = u
    w = np.zeros((n, 2), dtype=u.dtype)
    x = np.ndarray(n + 1, dtype=np.float64)
    x[:] = 1.5
    y = np.ndarray((n, 2), u.dtype)
    y[:] = 2
    return v, w, x, y


def reshape_and_write(a, m, n):
    b = a.reshape(m, n)
    b[0, 0] = 99
    return b


def reshape_forms(a, n):
    return np.reshape(a, (n, -1)), a.reshape(-1), a.reshape((n, -1)).T.reshape(-1), (a * 2).reshape(1, -1, 1)


def new_axes_and_ellipses(a, w, i):
    outer = w[None, :] * w[:, None]
    return a[np.newaxis, :, :], a[:, None], a[..., i], a[i, ...], a[..., None, 1:], a[...], w[None, i], outer


def write_through_new_axes(a, v):
    a[None, 0, ...] = v
    a[..., -1][None] = v + 1


def every_axis_and_ellipsis(w, i):
    return w[..., i]


def masked_reads(a, t):
    return a[a > t], a[a <= t].sum(), a[(a > t) == (a < t + 3)]


def masked_writes(a, t, v):
    a[a < t] = 0
    a[a > t + 5] = v
    a[a == 0] += 1


def masked_copy(a, mask, values):
    a[mask] = values


def indexed_reads(a, indices):
    return a[indices], a[indices][::-1]


def indexed_writes(a, indices, v):
    a[indices] = v
    a[indices] += 1


def indexed_copy(a, indices, values):
    a[indices] = values


def flat_forms(a):
    r = a.ravel()
    f = a.flatten()
    r[0] = 50  # a view when a is C-contiguous: writes reach a
    f[1] = 60  # always a copy
    return r, f, np.ravel(a.T), a.T.flatten()


def fill_all(a, v):
    a.fill(v)
    a[0].fill(v + 1)


def layout_attributes(a):
    return a.itemsize, a.nbytes, a.strides, a[::2].strides, a.T.strides


def only_item(a):
    return a.item()


def searches(a):
    return np.argmax(a), np.argmin(a), a.argmax(), a.argmin(), np.any(a), np.all(a), a.any(), a.all()


def complex_parts(z):
    # .real and .imag of complex arrays are float64 views.
    return z.real, z.imag, z.real.sum(), z.imag[::-1].copy(), z.T.imag


def write_complex_parts(z, r):
    z.real[:] = r
    z.imag[0] = -1.0
    z.imag[1:] *= 2.0


def write_row_through_transpose(a):
    a.T[0] = 7.0


def conjugates(z, x):
    return z.conj(), np.conj(z), np.conjugate(x), x.conj(), z.conjugate()


def parts_of_real_arrays(x):
    return x.real, x.imag, x.real + x.imag


def write_imag_of_real(x, how):
    # NumPy's .imag of a real array is a read-only array of zeros: every
    # kind of write raises (after the value is computed).
    if how == 0:
        x.imag[0] = 1.0
    elif how == 1:
        x.imag[1:] += 2.0
    elif how == 2:
        x.imag.fill(0.0)
    elif how == 3:
        x.imag[0] += 1.0
    else:
        x.imag.T[0] = 1.0 / x[0]
    return x.sum()


def gathers(a, i, j):
    # NumPy's advanced indexing beside other indices (a is 3-D).
    return a[i, j], a[:, i], a[i, :, j], a[1, :, j], a[:, i, j], a[i, 0], a[..., j]


def scatters(a, i, j, v):
    # Writes through advanced indexing (a is 3-D): numbers, broadcast
    # values, and augmented assignment (one update per repeated place).
    a[i, j] = 1.0
    a[:, i] = v
    a[i, :, j] += 2.0
    a[1, :, j] -= a[0, :, j]


def gathers_beside_slices(a, i, j, k):
    # Bounded slices beside index arrays (a is 3-D): NumPy slices first.
    return a[1:, i], a[k:, :, j], a[::-1, i, ::2], a[i, -2::-1], a[: k + 1, i, j]


def scatters_beside_slices(a, i, j, k, v):
    a[1:, i] = v
    a[k::2, :, j] += 1.0
    a[::-1, i, 1:] = 7.0


def rows_by_mask(a, m):
    # A mask of the first axes: the rows (sub-arrays) where it is true.
    return a[m]


def write_rows_by_mask(a, m, v):
    a[m] = v


def write_rows(a, i, v):
    a[i] = v


def add_to_rows(a, i, v):
    a[i] += v


def set_shapes(n, m):
    # a.shape = ... of arrays no other name holds: a view of the new shape
    # (the value evaluated once, the targets assigned left to right).
    X = np.arange(n * m * 1.0)
    Y = X * 2.0 + 1j
    X.shape = Y.shape = (n, m)
    mask = Y.real > 2.0
    np.logical_not(mask, mask)
    return X[n - 1, 0] + Y[0, m - 1].real, X.shape, mask


def set_shape_of_parameter(a):
    a.shape = (2, -1)
    return a


def set_shape_of_shared(n):
    a = np.zeros(n)
    b = a
    a.shape = (1, n)
    return b


def set_shape_wrong_size(n):
    a = np.zeros(n)
    a.shape = n + 1
    return a


def set_shape_of_views(n):
    # Not known C-contiguous: a view if NumPy's no-copy reshape finds one,
    # else NumPy's AttributeError.
    a = np.arange(4.0 * n).reshape(4, n)
    b = a[:, : n - 1]
    b.shape = (2, 2, n - 1)
    c = a[:, ::2]
    c.shape = c.size
    return b, c


def gather_by_nd_index(a, idx):
    return a[idx]


def scatter_by_nd_index(a, idx):
    a[idx] = 0.0


def set_shape_of_asarray(x):
    a = np.asarray(x)  # (x itself: the caller's array would change)
    a.shape = (1, -1)
    return a


def augmented_through_nd_index(a, idx):
    a[idx] += 1.0


# Indices that a loop's range keeps in bounds (plait-drop-index-checks
# removes their checks), next to ones one step beyond it, which must still
# raise IndexError or wrap as CPython does.


def stencil_within_the_range(a):
    n = a.shape[0]
    s = 0.0
    for i in range(1, n - 1):
        s += a[i - 1] * 3.0 + a[i + 1]
    for i in range(n - 1, -1, -1):
        s = s * 0.5 + a[i]
    return s


def triangles_within_the_range(a):
    s = 0.0
    for i in range(len(a)):
        for j in range(i):
            s += a[j] * a[j + 1]
        for j in range(i + 1, a.shape[0]):
            s -= a[j - 1] * 0.5
    return s


def one_past_the_end(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i + 1]
    return s


def one_before_the_start(a):
    s = 0.0
    for i in range(a.shape[0]):
        s = s * 2.0 + a[i - 1]  # a[-1]: the last element
    return s


def down_from_the_size(a):
    s = 0.0
    for i in range(a.shape[0], -1, -1):
        s += a[i]
    return s


def bound_reassigned(a):
    n = a.shape[0]
    n = n + 1
    s = 0.0
    for i in range(n):
        s += a[i]
    return s


def triangle_past_the_diagonal(a):
    s = 0.0
    for i in range(len(a)):
        for j in range(i):
            s += a[j + 2]
    return s


def other_axis_bound(m):
    s = 0.0
    for i in range(m.shape[0]):
        s += m[0, i]
    return s
