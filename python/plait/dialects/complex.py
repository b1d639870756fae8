"""plait.dialects.complex: op classes of MLIR's `complex` dialect (generated from its
ODS definitions at build time)."""

from ._complex_ops_gen import *  # noqa: F401,F403
from ._complex_ops_gen import _Dialect  # noqa: F401
