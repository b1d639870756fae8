"""plait.dialects.affine: op classes of MLIR's `affine` dialect (generated from its
ODS definitions at build time)."""

from ._affine_ops_gen import *  # noqa: F401,F403
from ._affine_ops_gen import _Dialect  # noqa: F401
