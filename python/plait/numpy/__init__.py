"""plait.numpy: NumPy's functions for compiled code, written in Python on
plait.overload (one module per family). Importing it registers the
implementations; each compiles only when a jitted function calls it, for
the argument types of that call, and is inlined there."""

from . import creation, shape, statistics, ufuncs  # noqa: F401  (register on import)
