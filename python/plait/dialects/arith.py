"""plait.dialects.arith: op classes of MLIR's `arith` dialect (generated from its
ODS definitions at build time)."""

from ._arith_ops_gen import *  # noqa: F401,F403
from ._arith_ops_gen import _Dialect  # noqa: F401
