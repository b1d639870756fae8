"""plait.dialects.llvm: op classes of MLIR's `llvm` dialect (generated from its
ODS definitions at build time)."""

from ._llvm_ops_gen import *  # noqa: F401,F403
from ._llvm_ops_gen import _Dialect  # noqa: F401
