"""plait: a JIT compiler for Python on MLIR and LLVM, built for many threads.

Submodules:
  plait.ir, plait.passmanager, plait.execution_engine -- MLIR from Python
  plait.testing -- deterministic concurrency hooks for tests
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
