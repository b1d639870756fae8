"""Hand-written conveniences of plait.dialects.func (mixed into the
generated classes of the same name)."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence, Union

from ..ir import (
    Block,
    FlatSymbolRefAttr,
    FunctionType,
    InsertionPoint,
    OpView,
    Operation,
    StringAttr,
    Type,
    TypeAttr,
    Value,
)


class FuncOp:
    def __init__(
        self,
        name: str,
        type: Union[FunctionType, tuple[Sequence[Type], Sequence[Type]]],
        *,
        visibility: Optional[str] = None,
        body_builder: Optional[Callable[["FuncOp"], Any]] = None,
        loc: Any = None,
        ip: Any = None,
    ) -> None:
        """func.func `name` of `type` (a FunctionType, or (inputs, results)),
        external until a body is added."""
        if isinstance(type, tuple):
            type = FunctionType.get(inputs=type[0], results=type[1])
        attributes = {"sym_name": StringAttr.get(str(name)), "function_type": TypeAttr.get(type)}
        if visibility is not None:
            attributes["sym_visibility"] = StringAttr.get(str(visibility))
        OpView.__init__(self, self.build_generic(attributes=attributes, regions=1, loc=loc, ip=ip))
        if body_builder is not None:
            with InsertionPoint(self.add_entry_block()):
                body_builder(self)

    @property
    def is_external(self) -> bool:
        return len(self.regions[0].blocks) == 0

    @property
    def body(self) -> Any:
        return self.regions[0]

    @property
    def type(self) -> FunctionType:
        return FunctionType(TypeAttr(self.attributes["function_type"]).value)

    @property
    def name(self) -> StringAttr:  # type: ignore[override]
        return StringAttr(self.attributes["sym_name"])

    @property
    def visibility(self) -> Optional[StringAttr]:
        if "sym_visibility" not in self.attributes:
            return None
        return StringAttr(self.attributes["sym_visibility"])

    @property
    def entry_block(self) -> Block:
        if self.is_external:
            raise IndexError("External function does not have a body")
        return self.regions[0].blocks[0]

    def add_entry_block(self, arg_locs: Optional[Sequence[Any]] = None) -> Block:
        """Adds the entry block, with one argument per input type."""
        if not self.is_external:
            raise IndexError("The function already has an entry block!")
        self.body.blocks.append(*self.type.inputs, arg_locs=arg_locs)
        return self.body.blocks[0]

    @property
    def arguments(self) -> Any:
        return self.entry_block.arguments

    @classmethod
    def from_py_func(
        cls, *inputs: Type, results: Optional[Sequence[Type]] = None, name: Optional[str] = None
    ) -> Callable[[Callable], Callable]:
        """Decorator: builds a func.func whose body the decorated function
        emits, called with the block arguments. Without `results`, the values
        it returns are returned and make the function type."""

        def decorator(body: Callable) -> Callable:
            implicit_return = results is None
            function_type = FunctionType.get(inputs=inputs, results=[] if implicit_return else results)
            func_op = cls(name or body.__name__, function_type)
            with InsertionPoint(func_op.add_entry_block()):
                returned = body(*func_op.arguments)
                if implicit_return:
                    values = _returned_values(returned)
                    from ._func_ops_gen import ReturnOp

                    ReturnOp(values)
                    func_op.attributes["function_type"] = TypeAttr.get(
                        FunctionType.get(inputs=inputs, results=[v.type for v in values])
                    )
            body.func_op = func_op  # type: ignore[attr-defined]
            return body

        return decorator


def _returned_values(returned: Any) -> list:
    if returned is None:
        return []
    if isinstance(returned, Value):
        return [returned]
    if isinstance(returned, Operation):
        return list(returned.results)
    return [v.result if isinstance(v, Operation) else v for v in returned]


class CallOp:
    def __init__(
        self,
        callee_or_results: Any,
        arguments_or_callee: Any,
        arguments: Optional[Sequence[Any]] = None,
        *,
        loc: Any = None,
        ip: Any = None,
    ) -> None:
        """CallOp(func_op, arguments) or CallOp(result_types, callee, arguments)."""
        if isinstance(callee_or_results, FuncOp):
            if arguments is not None:
                raise ValueError("CallOp(func_op, arguments) takes no third argument")
            results = callee_or_results.type.results
            callee = FlatSymbolRefAttr.get(callee_or_results.name.value)
            arguments = arguments_or_callee
        else:
            results = list(callee_or_results)
            callee = arguments_or_callee
            if isinstance(callee, str):
                callee = FlatSymbolRefAttr.get(callee)
            if arguments is None:
                raise ValueError("CallOp(result_types, callee, arguments) needs the arguments")
        OpView.__init__(
            self,
            self.build_generic(
                results=results, operands=list(arguments), attributes={"callee": callee}, loc=loc, ip=ip
            ),
        )
