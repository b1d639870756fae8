"""Array kernels: loops over preallocated NumPy arrays (the same source for
CPython, Numba and plait), beside NumPy-vectorised versions; the C++
reference is in bench/reference/kernels.cpp."""

from __future__ import annotations

import math

import numpy as np


def saxpy(alpha, x, y, out):
    for i in range(len(x)):
        out[i] = alpha * x[i] + y[i]


def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def laplace(u, out):
    rows, cols = u.shape
    for i in range(1, rows - 1):
        for j in range(1, cols - 1):
            out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])


def sieve(flags):
    n = len(flags)
    for i in range(n):
        flags[i] = i >= 2
    i = 2
    while i * i < n:
        if flags[i]:
            for j in range(i * i, n, i):
                flags[j] = False
        i += 1
    count = 0
    for i in range(n):
        if flags[i]:
            count += 1
    return count


def pairwise(points, out):
    n = points.shape[0]
    for i in range(n):
        for j in range(n):
            dx = points[i, 0] - points[j, 0]
            dy = points[i, 1] - points[j, 1]
            dz = points[i, 2] - points[j, 2]
            out[i, j] = math.sqrt(dx * dx + dy * dy + dz * dz)


def nbody_step(pos, vel, mass, dt):
    n = pos.shape[0]
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            if i != j:
                dx = pos[j, 0] - pos[i, 0]
                dy = pos[j, 1] - pos[i, 1]
                dz = pos[j, 2] - pos[i, 2]
                d2 = dx * dx + dy * dy + dz * dz + 0.01
                inv = mass[j] / (d2 * math.sqrt(d2))
                ax += dx * inv
                ay += dy * inv
                az += dz * inv
        vel[i, 0] += ax * dt
        vel[i, 1] += ay * dt
        vel[i, 2] += az * dt
    for i in range(n):
        pos[i, 0] += vel[i, 0] * dt
        pos[i, 1] += vel[i, 1] * dt
        pos[i, 2] += vel[i, 2] * dt


def sum_of_squares_array(x):
    s = 0.0
    for v in x:
        s += v * v
    return s


def power_iteration(a, x, steps):
    # Whole-array code that rebinds its arrays: a matrix-vector product and
    # a normalisation per step, each a new array.
    for _ in range(steps):
        x = a @ x
        x = x / np.sqrt(np.sum(x * x))
    return x[0]


def matrix_chain(a, b, steps):
    # Matrix products rebinding one variable, scaled to stay finite.
    r = a
    for _ in range(steps):
        r = r @ b
        r = r / np.abs(r).max()
    return r.sum()


# -- NumPy-vectorised equivalents ---------------------------------------------
# (power_iteration and matrix_chain are NumPy code already: the same source.)
np_power_iteration = power_iteration
np_matrix_chain = matrix_chain


def np_saxpy(alpha, x, y, out):
    np.multiply(x, alpha, out=out)
    out += y


def np_dot(x, y):
    return float(np.dot(x, y))


def np_laplace(u, out):
    out[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])


def np_sieve(flags):
    n = len(flags)
    flags[:] = True
    flags[:2] = False
    i = 2
    while i * i < n:
        if flags[i]:
            flags[i * i :: i] = False
        i += 1
    return int(flags.sum())


def np_pairwise(points, out):
    diff = points[:, None, :] - points[None, :, :]
    np.sqrt((diff * diff).sum(axis=-1), out=out)


def np_nbody_step(pos, vel, mass, dt):
    d = pos[None, :, :] - pos[:, None, :]
    d2 = (d * d).sum(axis=-1) + 0.01
    inv = mass[None, :] / (d2 * np.sqrt(d2))
    np.fill_diagonal(inv, 0.0)
    vel += (d * inv[:, :, None]).sum(axis=1) * dt
    pos += vel * dt


def np_sum_of_squares_array(x):
    return float(np.dot(x, x))


def make_inputs(name: str) -> tuple:
    """Fresh inputs for one call (kernels may write to them)."""
    rng = np.random.default_rng(7)
    if name == "saxpy":
        n = 1_000_000
        return (2.5, rng.random(n), rng.random(n), np.zeros(n))
    if name == "dot":
        n = 1_000_000
        return (rng.random(n), rng.random(n))
    if name == "laplace":
        u = rng.random((500, 500))
        return (u, np.zeros_like(u))
    if name == "sieve":
        return (np.zeros(2_000_000, dtype=np.bool_),)
    if name == "pairwise":
        return (rng.random((400, 3)), np.zeros((400, 400)))
    if name == "nbody_step":
        n = 200
        return (rng.random((n, 3)), np.zeros((n, 3)), rng.random(n) + 0.5, 0.001)
    if name == "sum_of_squares_array":
        return (rng.random(1_000_000),)
    if name == "power_iteration":
        return (rng.random((300, 300)), rng.random(300), 200)
    if name == "matrix_chain":
        return (rng.random((200, 200)), rng.random((200, 200)), 20)
    raise KeyError(name)


#: label -> (kernel name, outputs to compare: indices of written arguments,
#: plait options). plait checks array bounds by default; Numba does not, so
#: the kernels where that matters are also run with boundscheck=False.
ARRAY_KERNELS = {
    "saxpy (1e6)": ("saxpy", (3,), {}),
    "dot (1e6)": ("dot", (), {}),
    "2-D Laplace stencil (500x500)": ("laplace", (1,), {}),
    "2-D Laplace stencil, plait boundscheck=False": ("laplace", (1,), {"boundscheck": False}),
    "prime sieve (2e6)": ("sieve", (0,), {}),
    "prime sieve, plait boundscheck=False": ("sieve", (0,), {"boundscheck": False}),
    "pairwise distances (400x3)": ("pairwise", (1,), {}),
    "n-body step (200 bodies)": ("nbody_step", (0, 1), {}),
    "reduction: sum of squares (1e6)": ("sum_of_squares_array", (), {}),
    "power iteration, a @ x rebound (300x300, 200 steps)": ("power_iteration", (), {}),
    "matrix chain, r @ b rebound (200x200, 20 steps)": ("matrix_chain", (), {}),
}

#: Kernels with no C++ reference (whole-array code calling BLAS).
NO_REFERENCE = {"power_iteration", "matrix_chain"}
