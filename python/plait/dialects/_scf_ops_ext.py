"""Hand-written conveniences of plait.dialects.scf."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..ir import Block, IndexType, OpView, Type, Value


class ForOp:
    def __init__(
        self,
        lower_bound: Any,
        upper_bound: Any,
        step: Any,
        iter_args: Optional[Sequence[Any]] = None,
        *,
        loc: Any = None,
        ip: Any = None,
    ) -> None:
        """scf.for from lower_bound to upper_bound by step, carrying iter_args;
        its body block takes the induction variable and the carried values."""
        iter_args = list(iter_args or [])
        results = [v.type if isinstance(v, Value) else v.result.type for v in iter_args]
        OpView.__init__(
            self,
            self.build_generic(
                regions=1, results=results, operands=[lower_bound, upper_bound, step, iter_args], loc=loc, ip=ip
            ),
        )
        self.regions[0].blocks.append(IndexType.get(), *results)

    @property
    def body(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def induction_variable(self) -> Value:
        return self.body.arguments[0]

    @property
    def inner_iter_args(self) -> list:
        return self.body.arguments[1:]


class IfOp:
    def __init__(
        self,
        cond: Any,
        results_: Optional[Sequence[Type]] = None,
        *,
        hasElse: bool = False,
        loc: Any = None,
        ip: Any = None,
    ) -> None:
        """scf.if on `cond` yielding values of `results_`; an else block when
        hasElse."""
        OpView.__init__(
            self, self.build_generic(regions=2, results=list(results_ or []), operands=[cond], loc=loc, ip=ip)
        )
        self.regions[0].blocks.append()
        if hasElse:
            self.regions[1].blocks.append()

    @property
    def then_block(self) -> Block:
        return self.regions[0].blocks[0]

    @property
    def else_block(self) -> Block:
        return self.regions[1].blocks[0]
