"""Parallel kernels: prange loops, and a whole-array expression, written
once. `prange` is a global the suite binds to plait.prange or numba.prange
(the compiled copies' own globals); both compile with parallel=True."""

from __future__ import annotations

import math

import numpy as np

prange = range  # rebound per compiler by bench/run.py


def mandelbrot(xs, ys, max_iterations, out):
    for i in prange(ys.shape[0]):
        for j in range(xs.shape[0]):
            zr = 0.0
            zi = 0.0
            k = 0
            while k < max_iterations and zr * zr + zi * zi < 4.0:
                zr, zi = zr * zr - zi * zi + xs[j], 2.0 * zr * zi + ys[i]
                k += 1
            out[i, j] = k
    return out[0, 0]


def pairwise_distances(points, out):
    for i in prange(points.shape[0]):
        for j in range(points.shape[0]):
            d = 0.0
            for k in range(points.shape[1]):
                t = points[i, k] - points[j, k]
                d += t * t
            out[i, j] = math.sqrt(d)
    return out[0, 1]


def gaussian_integral(n):
    # A reduction: the midpoint rule for the integral of exp(-x^2) cos(x).
    h = 8.0 / n
    total = 0.0
    for i in prange(n):
        x = -4.0 + (i + 0.5) * h
        total += math.exp(-x * x) * math.cos(x)
    return total * h


def row_softmax(x, out):
    for i in prange(x.shape[0]):
        top = x[i, 0]
        for j in range(x.shape[1]):
            top = max(top, x[i, j])
        s = 0.0
        for j in range(x.shape[1]):
            e = math.exp(x[i, j] - top)
            out[i, j] = e
            s += e
        for j in range(x.shape[1]):
            out[i, j] /= s
    return out[0, 0]


def damped_wave_energy(x):
    # A fused whole-array expression and its sum (parallel=True runs both).
    return np.sum(np.exp(-x * x) * np.sin(3.0 * x) ** 2)


PARALLEL_KERNELS = {
    "Mandelbrot 400x600 (prange rows)": "mandelbrot",
    "pairwise distances 1000x3 (prange rows)": "pairwise_distances",
    "Gaussian integral 4e6 (prange reduction)": "gaussian_integral",
    "row softmax 2000x500 (prange rows)": "row_softmax",
    "exp*sin^2 sum 4e6 (whole-array, fused)": "damped_wave_energy",
}


def make_inputs(name: str) -> tuple:
    rng = np.random.default_rng(7)
    if name == "mandelbrot":
        return (np.linspace(-2.0, 1.0, 600), np.linspace(-1.2, 1.2, 400), 200, np.zeros((400, 600), dtype=np.int64))
    if name == "pairwise_distances":
        return (rng.random((1000, 3)), np.zeros((1000, 1000)))
    if name == "gaussian_integral":
        return (4_000_000,)
    if name == "row_softmax":
        return (rng.standard_normal((2000, 500)), np.zeros((2000, 500)))
    if name == "damped_wave_energy":
        return (rng.standard_normal(4_000_000),)
    raise KeyError(name)
