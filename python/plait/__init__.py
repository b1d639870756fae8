"""plait: a JIT compiler for Python on MLIR and LLVM, built for many threads.

  plait.jit -- @plait.jit compiles numeric functions to native code
  plait.prange -- loops whose iterations run in parallel (jit(parallel=True))
  plait.overload -- implement functions (NumPy's, your own) for compiled code
  plait.ir, plait.passmanager, plait.execution_engine -- MLIR from Python
  plait.testing -- deterministic concurrency hooks for tests
"""

from .errors import CompileError, TypingError, UnsupportedError
from ._jit import Dispatcher, blas_library, jit, stats
from ._cache import cache_info, clear_cache
from ._overload import UfuncLoop, overload, overload_method
from ._parallel import get_num_threads, prange, set_num_threads, thread_pool_size
from . import types
from . import _mathlib  # noqa: F401  (registers the math module's integer functions)
from . import _mathfloat  # noqa: F401  (and its float functions with CPython's algorithms)
from . import _builtins  # noqa: F401  (sum, any and all)
from . import _lists  # noqa: F401  (the methods of lists, sorted(), list(), `in`)
from . import _dicts  # noqa: F401  (the methods of dicts)
from . import _strings  # noqa: F401  (strs computed at run time: operators, methods, format())
from . import _sources

_sources.install()  # keeps the source passed to exec() and compile() from now on

__version__ = "0.1.0"
__all__ = [
    "CompileError",
    "Dispatcher",
    "TypingError",
    "UfuncLoop",
    "UnsupportedError",
    "blas_library",
    "cache_info",
    "clear_cache",
    "jit",
    "overload",
    "overload_method",
    "prange",
    "get_num_threads",
    "set_num_threads",
    "thread_pool_size",
    "stats",
    "types",
    "__version__",
]
