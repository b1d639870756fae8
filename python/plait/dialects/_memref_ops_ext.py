"""Hand-written conveniences of plait.dialects.memref."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..ir import MemRefType, OpView


class LoadOp:
    def __init__(self, memref: Any, indices: Optional[Sequence[Any]] = None, *, loc: Any = None, ip: Any = None) -> None:
        """memref.load of `memref` at `indices`; the result type is the
        memref's element type."""
        memref_type = MemRefType(memref.type)
        OpView.__init__(
            self,
            self.build_generic(
                results=[memref_type.element_type], operands=[memref, list(indices or [])], loc=loc, ip=ip
            ),
        )
