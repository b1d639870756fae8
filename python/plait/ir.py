"""MLIR contexts, modules, operations, types, attributes and builders.

Names and behaviour follow MLIR's upstream Python bindings. Every call that
works on IR takes the context's lock with the GIL released, so threads sharing
a Context serialise safely and independent Contexts run in parallel.
"""

from __future__ import annotations

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
    DenseElementsAttr,
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
    "DenseElementsAttr",
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
