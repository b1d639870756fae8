"""Functions for test_jit_overload.py: targets a user implements with
plait.overload, and jitted callers of them."""

import numpy as np

import plait
from plait import types

#: The argument types the type-level functions were called with.
SEEN: list = []


def scale(x, factor=2.0):
    """Interpreted: any number or array times factor."""
    return x * factor


@plait.overload(scale)
def _scale_typer(x, factor=None):
    SEEN.append((x, factor))
    if isinstance(x, types.Array) and x.ndim == 1:
        dt = np.result_type(x.dtype, 2.0).type  # decided when compiling (factor is weak)

        def scale_array(x, factor=2.0):
            out = np.empty(x.shape[0], dt)
            for i in range(x.shape[0]):
                out[i] = x[i] * factor
            return out

        return scale_array
    if types.is_number(x):

        def scale_number(x, factor=2.0):
            return x * factor

        return scale_number
    return None


def checked_sqrt(x):
    if isinstance(x, bool):
        raise TypeError("checked_sqrt() does not take a bool")
    return x**0.5


@plait.overload(checked_sqrt)
def _checked_sqrt_typer(x):
    if isinstance(x, types.Boolean):
        raise plait.TypingError("checked_sqrt() does not take a bool")

    def checked_sqrt_impl(x):
        return x**0.5

    return checked_sqrt_impl


def relu(x):
    return np.maximum(x, 0)


def _relu_kernel(x):
    return x if x > 0 or x != x else 0


@plait.overload(relu)
def _relu_typer(x):
    dtype = types.operand_dtype(x)
    if dtype is None:
        return None
    if isinstance(dtype, type):  # a Python number: NumPy's default dtype
        dtype = np.dtype(dtype)
    return plait.UfuncLoop(_relu_kernel, [dtype], dtype)


@plait.overload_method(np.ndarray, "trace")
def _trace_typer(a, offset=None):
    if not isinstance(a, types.Array) or a.ndim != 2 or a.dtype.kind not in "iu":
        raise plait.UnsupportedError("trace() of integer matrices only, here")
    dt = np.zeros(1, a.dtype).sum().dtype.type  # the sum's dtype, as NumPy's

    def trace(a, offset=0):
        total = np.zeros(1, dt)[0]
        if offset >= 0:
            for i in range(min(a.shape[0], a.shape[1] - offset)):
                total += a[i, i + offset]
        else:
            for i in range(min(a.shape[0] + offset, a.shape[1])):
                total += a[i - offset, i]
        return total

    return trace


def uses_scale(x):
    return scale(x)


def uses_scale_keyword(x, f):
    return scale(x, factor=f)


def uses_scale_of_tuple(x):
    return scale((x, x))


def uses_scale_wrongly(x):
    return scale(x, fudge=3)


def uses_checked_sqrt(x):
    return checked_sqrt(x)


def uses_relu(x):
    return relu(x)


def uses_trace(a):
    return a.trace(), a.trace(1), a.trace(offset=-1)


def _bump(x):
    y = x + 1
    return y


def calls_in_a_loop(n):
    total = 0
    for i in range(n):
        total = _bump(total)
    return total


def clip_for_threads(a):
    return np.clip(a, 0.25, 0.75).sum()


def tanh_for_threads(a):
    return np.tanh(a).sum()


#: Bound by a test to a target it registers.
GLOBAL_TARGET = None


def uses_global_target(x):
    return GLOBAL_TARGET(x)
