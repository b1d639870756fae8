"""Hand-written conveniences of plait.dialects.arith."""

from __future__ import annotations

from typing import Any, Union

from ..ir import Attribute, FloatAttr, IndexType, IntegerAttr, Type


class ConstantOp:
    def __init__(self, result: Type, value: Union[int, float, Attribute], *, loc: Any = None, ip: Any = None) -> None:
        """arith.constant of type `result`: an int, a float, or an Attribute."""
        if isinstance(value, Attribute):
            attribute = value
        elif isinstance(value, int) and not isinstance(value, bool):
            attribute = IntegerAttr.get(result, value)
        elif isinstance(value, bool):
            attribute = IntegerAttr.get(result, int(value))
        elif isinstance(value, float):
            attribute = FloatAttr.get(result, value)
        else:
            raise TypeError(f"ConstantOp value must be an int, float or Attribute, not {type(value).__name__}")
        super().__init__(attribute, loc=loc, ip=ip)  # type: ignore[call-arg]

    @classmethod
    def create_index(cls, value: int, *, loc: Any = None, ip: Any = None) -> "ConstantOp":
        return cls(IndexType.get(), value, loc=loc, ip=ip)

    @property
    def type(self) -> Type:
        return self.results[0].type  # type: ignore[attr-defined]

    @property
    def literal_value(self) -> Union[int, float]:
        value = self.attributes["value"]  # type: ignore[attr-defined]
        if isinstance(value, (IntegerAttr, FloatAttr)):
            return value.value
        raise ValueError(f"only integer and float constants have a literal value, not {value}")


