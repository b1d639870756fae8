"""plait.dialects.bufferization: op classes of MLIR's `bufferization` dialect (generated from its
ODS definitions at build time)."""

from ._bufferization_ops_gen import *  # noqa: F401,F403
from ._bufferization_ops_gen import _Dialect  # noqa: F401
