"""plait.dialects.scf: op classes of MLIR's `scf` dialect (generated from its
ODS definitions at build time)."""

from ._scf_ops_gen import *  # noqa: F401,F403
from ._scf_ops_gen import _Dialect  # noqa: F401
