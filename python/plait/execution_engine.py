"""JIT-compile LLVM-dialect modules and call their functions from any thread."""

from ._core.execution_engine import ExecutionEngine

__all__ = ["ExecutionEngine"]
