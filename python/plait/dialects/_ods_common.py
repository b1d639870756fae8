"""What the generated op classes of plait.dialects call.

`_cext` stands in for the native extension the generated code expects: its
`ir` is plait.ir, and it registers dialect and op classes.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from .. import ir as _ir
from .._core import ir as _native_ir

_dialects: dict[str, type] = {}


class _Extension:
    ir = _ir

    @staticmethod
    def register_dialect(dialect_class: type) -> type:
        _dialects[dialect_class.DIALECT_NAMESPACE] = dialect_class
        return dialect_class

    @staticmethod
    def register_operation(dialect_class: type, *, replace: bool = False) -> Callable[[type], type]:
        def register(op_class: type) -> type:
            _native_ir._register_operation_class(op_class.OPERATION_NAME, op_class, replace)
            return op_class

        return register


_cext = _Extension()


def extend_opview_class(ext_module: Any) -> Callable[[type], type]:
    """Puts the hand-written class of the same name (if any) in front of a
    generated op class, so that its builder and properties come first."""

    def extend(op_class: type) -> type:
        mixin = getattr(ext_module, op_class.__name__, None) if ext_module else None
        if mixin is None:
            return op_class
        extended = type(op_class.__name__, (mixin, op_class), {"__module__": op_class.__module__})
        extended.__qualname__ = op_class.__qualname__
        return extended

    return extend


def get_default_loc_context(location: Optional[_ir.Location] = None) -> Optional[_ir.Context]:
    """The context builders should use: the location's, or None for the
    thread's current one."""
    return None if location is None else location.context


def get_op_result_or_value(arg: Any) -> _ir.Value:
    """A Value from a Value, or from an operation with exactly one result."""
    if isinstance(arg, _ir.Value):
        return arg
    if isinstance(arg, _ir.Operation):
        return arg.result
    raise TypeError(f"expected a Value or a one-result operation, got {type(arg).__name__}")


def get_op_results_or_values(arg: Any) -> Sequence[_ir.Value]:
    """Values from an operation (all its results) or a sequence of values."""
    if isinstance(arg, _ir.Operation):
        return list(arg.results)
    if isinstance(arg, _ir.OpResultList):
        return list(arg)
    return [get_op_result_or_value(element) for element in arg]


def segmented_accessor(elements: Sequence[Any], raw_segments: _ir.Attribute, index: int) -> list:
    """The `index`-th group of `elements`, sized by a segment-size attribute."""
    segments = list(_ir.DenseI32ArrayAttr(raw_segments))
    start = sum(segments[:index])
    return list(elements[start : start + segments[index]])


def equally_sized_accessor(
    elements: Sequence[Any], n_variadic: int, n_preceding_simple: int, n_preceding_variadic: int
) -> tuple[int, int]:
    """Part of the generated-code interface for operations whose variadic groups
    all have one size. MLIR 16's generator emits its call sites with an unbound
    name (`operation.`), so those accessors fail before reaching here; use
    `op.operands` / `op.results` directly for such operations."""
    raise NotImplementedError(
        "accessors of equally sized variadic groups are not generated correctly by "
        "mlir-tblgen 16: read op.operands / op.results instead"
    )
