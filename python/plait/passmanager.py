"""Pass pipelines: native passes run with the GIL released, Python passes
(callables taking the operation) re-acquire it for exactly their duration."""

from ._core.passmanager import PassManager

__all__ = ["PassManager", "LOWER_TO_LLVM"]

#: The pipeline lowering func/arith/scf/cf/math/memref to the LLVM dialect.
LOWER_TO_LLVM = "builtin.module(plait-lower-to-llvm)"
