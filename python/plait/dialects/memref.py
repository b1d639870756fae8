"""plait.dialects.memref: op classes of MLIR's `memref` dialect (generated from its
ODS definitions at build time)."""

from ._memref_ops_gen import *  # noqa: F401,F403
from ._memref_ops_gen import _Dialect  # noqa: F401
