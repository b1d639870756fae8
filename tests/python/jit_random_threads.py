"""Compiled code drawing from np.random on several threads (test_numpy_library.py)."""

import numpy as np

from plait.testing import jit_rendezvous


def seeded_draws_around_a_rendezvous(seed, barrier):
    np.random.seed(seed)
    first = np.random.rand(3)
    jit_rendezvous(barrier, 2, 30.0)  # both threads have seeded and drawn
    second = np.random.rand(3)
    return first, second
