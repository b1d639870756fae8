"""MLIR contexts, modules, operations, types, attributes and builders.

Names and behaviour follow MLIR's upstream Python bindings. Every call that
works on IR takes the context's lock with the GIL released, so threads sharing
a Context serialise safely and independent Contexts run in parallel.
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Optional, Sequence

from ._core import ir as _ir
from ._core.ir import (
    Attribute,
    ArrayAttr,
    BF16Type,
    Block,
    BlockArgument,
    BlockArgumentList,
    BlockList,
    BoolAttr,
    ComplexType,
    Context,
    DenseBoolArrayAttr,
    DenseElementsAttr,
    DenseF32ArrayAttr,
    DenseI8ArrayAttr,
    DenseI16ArrayAttr,
    DenseF64ArrayAttr,
    DenseI32ArrayAttr,
    DenseI64ArrayAttr,
    DenseFPElementsAttr,
    DenseIntElementsAttr,
    Diagnostic,
    DiagnosticHandler,
    DiagnosticSeverity,
    DictAttr,
    F16Type,
    F32Type,
    F64Type,
    FlatSymbolRefAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    InferTypeOpInterface,
    InsertionPoint,
    IntegerAttr,
    IntegerType,
    Location,
    MemRefType,
    Module,
    NamedAttribute,
    NoneType,
    OpAttributeMap,
    OpOperand,
    OpOperandList,
    OpResult,
    OpResultList,
    Operation,
    OperationList,
    RankedTensorType,
    Region,
    ShapedType,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    SymbolTable,
    TupleType,
    Type,
    TypeAttr,
    UnitAttr,
    UnrankedMemRefType,
    UnrankedTensorType,
    Value,
    VectorType,
)

__all__ = [
    "ConditionallySpeculatable",
    "MemoryEffectsOpInterface",
    "Speculatability",
    "SideEffectResource",
    "MemoryEffectInstance",
    "MemoryEffect",
    "ArrayAttr",
    "AttrBuilder",
    "Attribute",
    "BF16Type",
    "Block",
    "BlockArgument",
    "BlockArgumentList",
    "BlockList",
    "BoolAttr",
    "ComplexType",
    "Context",
    "DenseBoolArrayAttr",
    "DenseElementsAttr",
    "DenseF32ArrayAttr",
    "DenseI8ArrayAttr",
    "DenseI16ArrayAttr",
    "Dialect",
    "DenseF64ArrayAttr",
    "DenseI32ArrayAttr",
    "DenseI64ArrayAttr",
    "DenseFPElementsAttr",
    "DenseIntElementsAttr",
    "Diagnostic",
    "DiagnosticHandler",
    "DiagnosticSeverity",
    "DictAttr",
    "F16Type",
    "F32Type",
    "F64Type",
    "FlatSymbolRefAttr",
    "FloatAttr",
    "FunctionType",
    "IndexType",
    "InferTypeOpInterface",
    "InsertionPoint",
    "IntegerAttr",
    "IntegerType",
    "Location",
    "MLIRError",
    "MemRefType",
    "Module",
    "NamedAttribute",
    "NoneType",
    "OpAttributeMap",
    "OpOperand",
    "OpOperandList",
    "OpResult",
    "OpResultList",
    "OpView",
    "Operation",
    "OperationList",
    "RankedTensorType",
    "Region",
    "ShapedType",
    "StridedLayoutAttr",
    "StringAttr",
    "SymbolRefAttr",
    "SymbolTable",
    "TupleType",
    "Type",
    "TypeAttr",
    "UnitAttr",
    "UnrankedMemRefType",
    "UnrankedTensorType",
    "Value",
    "VectorType",
    "register_attribute_builder",
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


def _operation_print(
    self: Operation,
    file: Any = None,
    binary: bool = False,
    large_elements_limit: Optional[int] = None,
    enable_debug_info: bool = False,
    print_generic_op_form: bool = False,
    **unsupported: Any,
) -> None:
    """Prints the operation (to `file`, default stdout), as upstream's
    Operation.print. `binary` writes bytes."""
    import sys

    if unsupported:
        raise TypeError(f"print() got unsupported options {sorted(unsupported)}")
    text = self.get_asm(
        print_generic_op_form=print_generic_op_form,
        enable_debug_info=enable_debug_info,
        large_elements_limit=large_elements_limit,
    )
    target = file if file is not None else sys.stdout
    target.write(text.encode() if binary else text)


def _operation_parse(source: str, source_name: str = "", context: Optional[Context] = None) -> Operation:
    """Parses one operation (in no block afterwards); a module text gives the
    module's operation."""
    name = source_name or "<string>"
    module = Module.parse(source, context=context, source_name=name)
    top = module.operation
    # A module the parser made to hold the text's operations sits at line 0.
    if top.location != Location.file(name, 0, 0, context=module.context):
        return top.opview
    operations = list(module.body.operations)
    if len(operations) != 1:
        raise ValueError(f"expected one operation, found {len(operations)}")
    op = operations[0].operation
    op.detach_from_parent()
    return op.opview


def _block_append(self: Block, operation: Operation) -> None:
    """Moves `operation` (from any block, or none) to the end of this block."""
    op = operation.operation
    if op.block is not None:
        op.detach_from_parent()
    InsertionPoint(self).insert(op)


Block.append = _block_append  # type: ignore[attr-defined]
Operation.print = _operation_print  # type: ignore[attr-defined]
Operation.parse = staticmethod(_operation_parse)  # type: ignore[attr-defined]


class Dialect:
    """Base of the dialect classes in plait.dialects (one per dialect module);
    DIALECT_NAMESPACE names the dialect."""

    DIALECT_NAMESPACE: str = ""


class OpView(Operation):
    """Base of the op classes in plait.dialects: an Operation of one name with
    named accessors and a builder. `build_generic` creates the operation from
    the groups of operands and results the generated builders collect."""

    OPERATION_NAME: Optional[str] = None
    #: (number of regions, whether that number is fixed)
    _ODS_REGIONS: tuple[int, bool] = (0, True)
    #: per operand/result group: 1 single, 0 optional, -1 variadic; None when
    #: the operation has no segment-size attribute.
    _ODS_OPERAND_SEGMENTS: Optional[Sequence[int]] = None
    _ODS_RESULT_SEGMENTS: Optional[Sequence[int]] = None

    def __init__(self, operation: Operation) -> None:
        Operation.__init__(self, operation)

    @classmethod
    def parse(cls, source: str, *, source_name: str = "", context: Optional[Context] = None) -> "OpView":
        """Parses one operation of this class."""
        op = _operation_parse(source, source_name, context)
        if op.operation.name != cls.OPERATION_NAME:
            raise ValueError(f"expected a '{cls.OPERATION_NAME}' operation, not '{op.operation.name}'")
        return op

    @classmethod
    def build_generic(
        cls,
        results: Optional[Sequence[Any]] = None,
        operands: Optional[Sequence[Any]] = None,
        attributes: Optional[dict] = None,
        successors: Optional[Sequence[Block]] = None,
        regions: Optional[int] = None,
        loc: Optional[Location] = None,
        ip: Optional[InsertionPoint] = None,
    ) -> Operation:
        name = cls.OPERATION_NAME
        if name is None:
            raise TypeError(f"{cls.__name__} has no OPERATION_NAME")
        min_regions, fixed = cls._ODS_REGIONS
        if regions is None:
            regions = min_regions
        elif regions < min_regions or (fixed and regions != min_regions):
            raise ValueError(
                f'Operation "{name}" requires {"exactly" if fixed else "at least"} '
                f"{min_regions} regions but was built with regions={regions}"
            )
        attributes = dict(attributes or {})
        flat_results = _flatten_groups(
            name, "result", results or [], cls._ODS_RESULT_SEGMENTS, attributes, "result_segment_sizes"
        )
        flat_operands = _flatten_groups(
            name, "operand", operands or [], cls._ODS_OPERAND_SEGMENTS, attributes, "operand_segment_sizes"
        )
        return Operation.create(
            name,
            results=flat_results,
            operands=flat_operands,
            attributes=attributes,
            successors=successors,
            regions=regions,
            loc=loc,
            ip=ip,
        )


def _is_group(item: Any) -> bool:
    return isinstance(item, (list, tuple, OpResultList, OpOperandList, BlockArgumentList))


def _flatten_groups(
    name: str, kind: str, groups: Sequence[Any], segments: Optional[Sequence[int]], attributes: dict, key: str
) -> list:
    flat: list = []
    if segments is None:
        for index, item in enumerate(groups):
            if item is None:
                raise ValueError(f'Operation "{name}" {kind} #{index} must not be None')
            flat.extend(item) if _is_group(item) else flat.append(item)
        return flat
    if len(groups) != len(segments):
        raise ValueError(
            f'Operation "{name}" requires {len(segments)} {kind} groups but was built with {len(groups)}'
        )
    sizes = []
    for index, (item, spec) in enumerate(zip(groups, segments)):
        if spec == 1:
            if item is None or _is_group(item):
                raise ValueError(f'Operation "{name}" {kind} #{index} must be a single {kind}')
            flat.append(item)
            sizes.append(1)
        elif spec == 0:
            if _is_group(item):
                raise ValueError(f'Operation "{name}" {kind} #{index} is optional, not a list')
            if item is not None:
                flat.append(item)
            sizes.append(0 if item is None else 1)
        else:
            if item is None:
                item = []
            if not _is_group(item):
                raise ValueError(f'Operation "{name}" {kind} #{index} must be a list')
            flat.extend(item)
            sizes.append(len(item))
    attributes[key] = DenseI32ArrayAttr.get(sizes)
    return flat


class AttrBuilder:
    """Builders of attributes from Python values, by ODS attribute kind (what
    the generated op classes call for arguments that are not Attributes)."""

    _builders: dict[str, Callable[..., Attribute]] = {}

    @staticmethod
    def contains(kind: str) -> bool:
        return kind in AttrBuilder._builders

    @staticmethod
    def get(kind: str) -> Callable[..., Attribute]:
        try:
            return AttrBuilder._builders[kind]
        except KeyError:
            raise KeyError(f"no attribute builder registered for '{kind}'") from None

    @staticmethod
    def insert(kind: str, builder: Callable[..., Attribute], replace: bool = False) -> None:
        if kind in AttrBuilder._builders and not replace:
            raise RuntimeError(f"an attribute builder for '{kind}' is already registered")
        AttrBuilder._builders[kind] = builder


def register_attribute_builder(kind: str, replace: bool = False) -> Callable:
    """Decorator: `builder(value, context)` builds attributes of ODS kind `kind`."""

    def decorate(builder: Callable[..., Attribute]) -> Callable[..., Attribute]:
        AttrBuilder.insert(kind, builder, replace)
        return builder

    return decorate


def _register_builtin_attribute_builders() -> None:
    def integer(width: int, signedness: str = "signless") -> Callable[..., Attribute]:
        make = {
            "signless": IntegerType.get_signless,
            "signed": IntegerType.get_signed,
            "unsigned": IntegerType.get_unsigned,
        }[signedness]
        return lambda x, context=None: IntegerAttr.get(make(width, context=context), x)

    builders: dict[str, Callable[..., Attribute]] = {
        "BoolAttr": lambda x, context=None: BoolAttr.get(x, context=context),
        "IndexAttr": lambda x, context=None: IntegerAttr.get(IndexType.get(context=context), x),
        "F32Attr": lambda x, context=None: FloatAttr.get_f32(x, context=context),
        "F64Attr": lambda x, context=None: FloatAttr.get_f64(x, context=context),
        "StrAttr": lambda x, context=None: StringAttr.get(x, context=context),
        "SymbolNameAttr": lambda x, context=None: StringAttr.get(x, context=context),
        "FlatSymbolRefAttr": lambda x, context=None: FlatSymbolRefAttr.get(x, context=context),
        "SymbolRefAttr": lambda x, context=None: (
            FlatSymbolRefAttr.get(x, context=context)
            if isinstance(x, str)
            else SymbolRefAttr.get(list(x), context=context)
        ),
        "UnitAttr": lambda x, context=None: UnitAttr.get(context=context),
        "TypeAttr": lambda x, context=None: TypeAttr.get(x),
        "ArrayAttr": lambda x, context=None: ArrayAttr.get(list(x), context=context),
        "DenseI32ArrayAttr": lambda x, context=None: DenseI32ArrayAttr.get(list(x), context=context),
        "DenseI64ArrayAttr": lambda x, context=None: DenseI64ArrayAttr.get(list(x), context=context),
        "TypeArrayAttr": lambda x, context=None: ArrayAttr.get([TypeAttr.get(t) for t in x], context=context),
        "StrArrayAttr": lambda x, context=None: ArrayAttr.get(
            [StringAttr.get(v, context=context) for v in x], context=context
        ),
        "DictArrayAttr": lambda x, context=None: ArrayAttr.get(
            [d if isinstance(d, Attribute) else DictAttr.get(d, context=context) for d in x], context=context
        ),
        "FlatSymbolRefArrayAttr": lambda x, context=None: ArrayAttr.get(
            [FlatSymbolRefAttr.get(v, context=context) for v in x], context=context
        ),
        "SymbolRefArrayAttr": lambda x, context=None: ArrayAttr.get(
            [FlatSymbolRefAttr.get(v, context=context) if isinstance(v, str) else v for v in x],
            context=context,
        ),
        "BoolArrayAttr": lambda x, context=None: ArrayAttr.get(
            [BoolAttr.get(v, context=context) for v in x], context=context
        ),
    }
    for width in (1, 8, 16, 32, 64):
        builders[f"I{width}Attr"] = integer(width)
        builders[f"SI{width}Attr"] = integer(width, "signed")
        builders[f"UI{width}Attr"] = integer(width, "unsigned")
    for width in (32, 64):
        element = integer(width)
        builders[f"I{width}ArrayAttr"] = lambda x, context=None, element=element: ArrayAttr.get(
            [element(v, context=context) for v in x], context=context
        )
    builders["F32ArrayAttr"] = lambda x, context=None: ArrayAttr.get(
        [FloatAttr.get_f32(v, context=context) for v in x], context=context
    )
    builders["F64ArrayAttr"] = lambda x, context=None: ArrayAttr.get(
        [FloatAttr.get_f64(v, context=context) for v in x], context=context
    )
    for kind, builder in builders.items():
        AttrBuilder.insert(kind, builder)


_register_builtin_attribute_builders()


# --- side effects and speculation: queried from Python, implemented in Python ---


class MemoryEffect(enum.Enum):
    """The kinds of MLIR memory effects."""

    Read = 0
    Write = 1
    Allocate = 2
    Free = 3


class SideEffectResource:
    """What an effect acts on: MLIR's default resource, the automatic
    allocation scope, or a resource known by name (one per name)."""

    def __init__(self, name: str) -> None:
        self.name = name

    @staticmethod
    def default() -> "SideEffectResource":
        return SideEffectResource("<Default>")

    @staticmethod
    def automatic_allocation_scope() -> "SideEffectResource":
        return SideEffectResource("AutomaticAllocationScope")

    @staticmethod
    def get(name: str) -> "SideEffectResource":
        return SideEffectResource(name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SideEffectResource) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"SideEffectResource({self.name!r})"


class MemoryEffectInstance:
    """One effect: its kind, and optionally the value or symbol it acts on and
    its resource (the default one when None)."""

    def __init__(
        self,
        effect: MemoryEffect,
        value: Optional[Value] = None,
        symbol: Optional[Attribute] = None,
        resource: Optional[SideEffectResource] = None,
    ) -> None:
        if not isinstance(effect, MemoryEffect):
            raise TypeError(f"effect must be a MemoryEffect, not {type(effect).__name__}")
        if value is not None and symbol is not None:
            raise ValueError("an effect acts on a value or on a symbol, not both")
        self.effect = effect
        self.value = value
        self.symbol = symbol
        self.resource = resource if resource is not None else SideEffectResource.default()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryEffectInstance) and (
            (other.effect, other.value, other.symbol, other.resource)
            == (self.effect, self.value, self.symbol, self.resource)
        )

    def __repr__(self) -> str:
        parts = [self.effect.name]
        if self.value is not None:
            parts.append(f"value={self.value}")
        if self.symbol is not None:
            parts.append(f"symbol={self.symbol}")
        if self.resource != SideEffectResource.default():
            parts.append(f"resource={self.resource.name}")
        return f"MemoryEffectInstance({', '.join(parts)})"


class Speculatability(enum.IntEnum):
    NotSpeculatable = 0
    Speculatable = 1
    RecursivelySpeculatable = 2


class _OpInterface:
    """Asks an operation through an interface, or (in subclasses that override
    the interface's method) is a model of it implemented in Python."""

    _NAME = ""
    _METHOD = ""

    def __init__(self, op: Optional[Operation] = None) -> None:
        self._op = op
        if op is not None:
            self._ask(op)

    def _ask(self, op: Optional[Operation]) -> Any:
        target = op if op is not None else self._op
        if target is None:
            raise ValueError(f"no operation: use {self._NAME}(op).{self._METHOD}()")
        answer = self._native_query(target.operation)
        if answer is None:
            raise ValueError(f"'{target.operation.name}' does not implement {self._NAME}")
        return answer

    @staticmethod
    def _native_query(op: Operation) -> Any:
        raise NotImplementedError

    @staticmethod
    def _native_attach(op_name: str, method: Callable, context: Optional[Context]) -> None:
        raise NotImplementedError

    @classmethod
    def attach(cls, op_name: str, context: Optional[Context] = None) -> Any:
        """Makes an instance of this subclass the model of `op_name` in
        `context` (the current one by default) and returns it; it lives as
        long as the context."""
        interface = next(base for base in cls.__mro__ if "_NAME" in vars(base))
        if getattr(cls, cls._METHOD) is getattr(interface, cls._METHOD):
            raise TypeError(f"attach a subclass that overrides {cls._METHOD}(self, op)")
        model = cls()
        cls._native_attach(op_name, getattr(model, cls._METHOD), context)
        return model


class MemoryEffectsOpInterface(_OpInterface):
    """`MemoryEffectsOpInterface(op).get_effects()` asks any operation that
    implements the interface (natively or in Python). To implement it for a
    registered operation that lacks it, subclass this class, override
    `get_effects(self, op)`, and `attach` the subclass to the operation's name:
    native passes (cse, canonicalize, loop-invariant-code-motion) then call it,
    re-attaching to the interpreter for each call."""

    _NAME = "MemoryEffectsOpInterface"
    _METHOD = "get_effects"
    _native_query = staticmethod(_ir._memory_effects_of)

    @staticmethod
    def _native_attach(op_name: str, method: Callable, context: Optional[Context]) -> None:
        _ir._attach_memory_effects_model(op_name, lambda op: list(method(op)), context)

    def get_effects(self, op: Optional[Operation] = None) -> list[MemoryEffectInstance]:
        return [
            MemoryEffectInstance(MemoryEffect(kind), value, symbol, SideEffectResource(resource) if resource else None)
            for kind, value, symbol, resource in self._ask(op)
        ]


class ConditionallySpeculatable(_OpInterface):
    """`ConditionallySpeculatable(op).get_speculatability()`; subclass,
    override `get_speculatability(self, op)` and `attach` to implement it in
    Python (see MemoryEffectsOpInterface)."""

    _NAME = "ConditionallySpeculatable"
    _METHOD = "get_speculatability"
    _native_query = staticmethod(_ir._speculatability_of)
    _native_attach = staticmethod(_ir._attach_speculatability_model)

    def get_speculatability(self, op: Optional[Operation] = None) -> Speculatability:
        return Speculatability(self._ask(op))
