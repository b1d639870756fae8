"""plait.dialects.tensor: op classes of MLIR's `tensor` dialect (generated from its
ODS definitions at build time)."""

from ._tensor_ops_gen import *  # noqa: F401,F403
from ._tensor_ops_gen import _Dialect  # noqa: F401
