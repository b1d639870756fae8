"""Matrix products and np.linalg (compiled by test_jit_linalg.py and run by
CPython on the same arrays)."""

import numpy as np

from plait.testing import jit_rendezvous


def matmul(a, b):
    return a @ b


def matmul_function(a, b):
    return np.matmul(a, b)


def dot(a, b):
    return np.dot(a, b)


def outer(a, b):
    return np.outer(a, b)


def gram(a):
    # A matrix times its own transpose: NumPy uses syrk and mirrors it.
    return a @ a.T, a.T @ a


def power_iteration(a, x, steps):
    # Rebinds the vector each step: products of new arrays in a loop.
    for _ in range(steps):
        x = a @ x
        x = x / np.sqrt(np.sum(x * x))
    return x


def mvt(a, x1, x2, y1, y2):
    # polybench's mvt: products added in place.
    x1 += a @ y1
    x2 += y2 @ a


def chain(a, b, c, d):
    return a @ b @ c @ d, 1.5 * a @ b + 0.5 * c


def solve(a, b):
    return np.linalg.solve(a, b)


def inv(a):
    return np.linalg.inv(a)


def det(a):
    return np.linalg.det(a)


def cholesky(a):
    return np.linalg.cholesky(a), np.linalg.cholesky(a, upper=True)


def eigh(a):
    return np.linalg.eigh(a)


def eigh_fields(a):
    # NumPy's EighResult: fields by name and by position, and unpacking.
    r = np.linalg.eigh(a)
    w, v = r
    return r.eigenvalues, r.eigenvectors[..., 0], v - r[1], w.sum() - r[0].sum()


def eigh_upper(a):
    return np.linalg.eigh(a, UPLO="U")


def lstsq(a, b):
    return np.linalg.lstsq(a, b)


def lstsq_rcond(a, b, rcond):
    x, residuals, rank, s = np.linalg.lstsq(a, b, rcond=rcond)
    return x, residuals, rank, s


def vector_norms(x):
    return (
        np.linalg.norm(x),
        np.linalg.norm(x, 2),
        np.linalg.norm(x, 1),
        np.linalg.norm(x, np.inf),
        np.linalg.norm(x, -np.inf),
        np.linalg.norm(x, 0),
        np.linalg.norm(x, 3),
        np.linalg.norm(x, ord=-1.5),
    )


def matrix_norms(x):
    return (
        np.linalg.norm(x),
        np.linalg.norm(x, "fro"),
        np.linalg.norm(x, 1),
        np.linalg.norm(x, -1),
        np.linalg.norm(x, np.inf),
        np.linalg.norm(x, -np.inf),
        np.linalg.norm(x, 2),
        np.linalg.norm(x, -2),
        np.linalg.norm(x, "nuc"),
    )


def norm_of_stack(x):
    return np.linalg.norm(x)


def contour_step(t, y, eye):
    # npbench's contour_integral: complex solves and inverses in a loop.
    total = np.zeros_like(y)
    for k in range(3):
        z = 1.0 + 0.5j * k
        tz = t - z * eye
        total += np.linalg.solve(tz, y) + np.linalg.inv(tz) @ y
    return total


def norms_along_axes(x):
    # Vector norms of each row and each column (x is 2-D).
    return (
        np.linalg.norm(x, axis=1),
        np.linalg.norm(x, axis=0, keepdims=True),
        np.linalg.norm(x, 1, axis=-1),
        np.linalg.norm(x, np.inf, axis=0),
        np.linalg.norm(x, -np.inf, axis=1, keepdims=True),
        np.linalg.norm(x, 0, axis=0),
        np.linalg.norm(x, ord=2, axis=(1,)),
    )


def powered_norms_along_axes(x):
    return np.linalg.norm(x, 3, axis=1), np.linalg.norm(x, -1.5, axis=0)


def matrix_norms_of_stacks(x):
    # Matrix norms of the matrices two axes hold (x is 3-D).
    return (
        np.linalg.norm(x, axis=(1, 2)),
        np.linalg.norm(x, "fro", axis=(0, 1)),
        np.linalg.norm(x, 1, axis=(0, 2)),
        np.linalg.norm(x, -1, axis=(2, 1), keepdims=True),
        np.linalg.norm(x, np.inf, axis=(-1, 0)),
        np.linalg.norm(x, -np.inf, axis=(1, 2)),
        np.linalg.norm(x, 2, axis=(1, 2)),
        np.linalg.norm(x, -2, axis=(0, 2)),
        np.linalg.norm(x, "nuc", axis=(2, 0), keepdims=True),
    )


def norms_keeping_dims(x):
    return np.linalg.norm(x, keepdims=True), np.linalg.norm(x, 1, keepdims=True), np.linalg.norm(x, -2, keepdims=True)


def matrix_norm_of_two_axes(x):
    return np.linalg.norm(x, axis=(0, 1)), np.linalg.norm(x, 1, axis=(1, 0)), np.linalg.norm(x, 2, axis=(0, -1))


def norm_of_a_vector_along_its_axis(v):
    return np.linalg.norm(v, axis=0)


def product_then_meet(a, b, barrier):
    # BLAS and LAPACK calls inside a compiled call that runs detached: both
    # threads can be inside at once.
    c = a @ b
    met = jit_rendezvous(barrier, 2, 60.0)
    return met, np.linalg.solve(a, c)


def solve_many(a, b, steps):
    x = b
    for _ in range(steps):
        x = np.linalg.solve(a, x) + np.linalg.inv(a) @ b
        x = x / np.linalg.norm(x)
    return x
