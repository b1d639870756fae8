"""plait.dialects.math: op classes of MLIR's `math` dialect (generated from its
ODS definitions at build time)."""

from ._math_ops_gen import *  # noqa: F401,F403
from ._math_ops_gen import _Dialect  # noqa: F401
