"""plait.dialects.builtin: op classes of MLIR's `builtin` dialect (generated from its
ODS definitions at build time)."""

from ._builtin_ops_gen import *  # noqa: F401,F403
from ._builtin_ops_gen import _Dialect  # noqa: F401
