"""Hand-written conveniences of plait.dialects.builtin."""

from __future__ import annotations

from typing import Any

from ..ir import Block, OpView


class ModuleOp:
    def __init__(self, *, loc: Any = None, ip: Any = None) -> None:
        """An empty builtin.module (with its body block)."""
        OpView.__init__(self, self.build_generic(results=[], operands=[], regions=1, loc=loc, ip=ip))
        self.regions[0].blocks.append()

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]
