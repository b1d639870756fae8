"""Whole-array kernels: NumPy code, the same source for NumPy itself, Numba
and plait (chains of elementwise operations, broadcasting and reductions
over them, where fusion and the absence of temporaries decide speed)."""

from __future__ import annotations

import numpy as np


def rosenbrock(x):
    return np.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def row_norms(x):
    return np.sqrt(np.sum(np.abs(x) ** 2, 1))


def harris_score(ix, iy, k):
    # The corner response from image gradients (their products, smoothed
    # by a 3x3 box sum, then det - k * trace**2).
    a = ix * ix
    b = iy * iy
    c = ix * iy
    sa = a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2] + a[1:-1, 1:-1] + a[1:-1, 2:] + a[2:, :-2] + a[2:, 1:-1] + a[2:, 2:]
    sb = b[:-2, :-2] + b[:-2, 1:-1] + b[:-2, 2:] + b[1:-1, :-2] + b[1:-1, 1:-1] + b[1:-1, 2:] + b[2:, :-2] + b[2:, 1:-1] + b[2:, 2:]
    sc = c[:-2, :-2] + c[:-2, 1:-1] + c[:-2, 2:] + c[1:-1, :-2] + c[1:-1, 1:-1] + c[1:-1, 2:] + c[2:, :-2] + c[2:, 1:-1] + c[2:, 2:]
    return sa * sb - sc * sc - k * (sa + sb) ** 2


def gray_scott(u, v, steps):
    # Reaction-diffusion steps on the interior, written back in place.
    for _ in range(steps):
        uc = u[1:-1, 1:-1]
        vc = v[1:-1, 1:-1]
        uvv = uc * vc * vc
        lu = u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * uc
        lv = v[:-2, 1:-1] + v[2:, 1:-1] + v[1:-1, :-2] + v[1:-1, 2:] - 4.0 * vc
        u[1:-1, 1:-1] = uc + 0.16 * lu - uvv + 0.035 * (1.0 - uc)
        v[1:-1, 1:-1] = vc + 0.08 * lv + uvv - 0.095 * vc
    return u[1, 1] + v[1, 1]


def pairwise_distances(a, b):
    return np.sqrt(np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=-1))


def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def make_inputs(name: str) -> tuple:
    """Fresh inputs for one call (gray_scott writes to its arrays)."""
    rng = np.random.default_rng(11)
    if name == "rosenbrock":
        return (rng.random(1_000_000),)
    if name == "row_norms":
        return (rng.random((1000, 1000)),)
    if name == "harris_score":
        return (rng.random((500, 500)), rng.random((500, 500)), 0.05)
    if name == "gray_scott":
        return (rng.random((256, 256)), rng.random((256, 256)) * 0.25, 10)
    if name == "pairwise_distances":
        return (rng.random((400, 3)), rng.random((300, 3)))
    if name == "softmax":
        return (rng.random((1000, 500)),)
    raise KeyError(name)


#: label -> kernel name
WHOLE_ARRAY_KERNELS = {
    "Rosenbrock (1e6)": "rosenbrock",
    "row norms (1000x1000)": "row_norms",
    "Harris corner score (500x500)": "harris_score",
    "Gray-Scott, 10 steps (256x256)": "gray_scott",
    "pairwise distances, broadcast (400x300x3)": "pairwise_distances",
    "softmax (1000x500)": "softmax",
}
