"""Kernels for the Dask test: an importable one, and a factory of jitted
closures (pickled by value on their way to the workers)."""

import numpy as np

import plait


@plait.jit
def smooth_block(block):
    out = np.empty_like(block)
    n = block.shape[0]
    for i in range(n):
        left = block[i - 1] if i > 0 else block[i]
        right = block[i + 1] if i < n - 1 else block[i]
        out[i] = 0.25 * left + 0.5 * block[i] + 0.25 * right
    return out


@plait.jit(cache=True)
def cached_block_energy(block):
    total = 0.0
    for i in range(block.shape[0]):
        total += block[i] * block[i]
    return total


def make_scaled_sum(scale):
    @plait.jit
    def scaled_sum(x, n):
        total = 0.0
        for i in range(n):
            total += (x + i) * scale
        return total

    return scaled_sum


def worker_compilations():
    """plait.stats() as a worker sees it."""
    return plait.stats()["compilations"]
