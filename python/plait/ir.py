"""MLIR contexts, modules, operations and diagnostics.

Every call that works on IR takes the context's lock with the GIL released, so
threads sharing a Context serialise safely and independent Contexts run in
parallel.
"""

from __future__ import annotations

from typing import Sequence

from ._core import ir as _ir
from ._core.ir import (
    Attribute,
    Block,
    Context,
    Diagnostic,
    DiagnosticHandler,
    DiagnosticSeverity,
    Module,
    OpAttributeMap,
    Operation,
    Region,
)

__all__ = [
    "Attribute",
    "Block",
    "Context",
    "Diagnostic",
    "DiagnosticHandler",
    "DiagnosticSeverity",
    "MLIRError",
    "Module",
    "OpAttributeMap",
    "Operation",
    "Region",
]


class MLIRError(Exception):
    """An MLIR operation failed; `error_diagnostics` holds what it reported."""

    def __init__(self, message: str, error_diagnostics: Sequence[Diagnostic] = ()) -> None:
        super().__init__(message, list(error_diagnostics))
        self.message = message
        self.error_diagnostics: list[Diagnostic] = list(error_diagnostics)

    def __str__(self) -> str:
        lines = [self.message]
        lines.extend(f"  {diagnostic}" for diagnostic in self.error_diagnostics)
        return "\n".join(lines)


_ir._set_mlir_error_class(MLIRError)
