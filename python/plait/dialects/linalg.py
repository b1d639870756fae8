"""plait.dialects.linalg: op classes of MLIR's `linalg` dialect (generated from its
ODS definitions at build time)."""

from ._linalg_ops_gen import *  # noqa: F401,F403
from ._linalg_ops_gen import _Dialect  # noqa: F401
