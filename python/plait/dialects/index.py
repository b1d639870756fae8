"""plait.dialects.index: op classes of MLIR's `index` dialect (generated from its
ODS definitions at build time)."""

from ._index_ops_gen import *  # noqa: F401,F403
from ._index_ops_gen import _Dialect  # noqa: F401
