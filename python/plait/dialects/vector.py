"""plait.dialects.vector: op classes of MLIR's `vector` dialect (generated from its
ODS definitions at build time)."""

from ._vector_ops_gen import *  # noqa: F401,F403
from ._vector_ops_gen import _Dialect  # noqa: F401
