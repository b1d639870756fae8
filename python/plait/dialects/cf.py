"""plait.dialects.cf: op classes of MLIR's `cf` dialect (generated from its
ODS definitions at build time)."""

from ._cf_ops_gen import *  # noqa: F401,F403
from ._cf_ops_gen import _Dialect  # noqa: F401
