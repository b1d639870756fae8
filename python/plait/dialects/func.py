"""plait.dialects.func: op classes of MLIR's `func` dialect (generated from its
ODS definitions at build time)."""

from ._func_ops_gen import *  # noqa: F401,F403
from ._func_ops_gen import _Dialect  # noqa: F401
