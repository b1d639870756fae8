"""Dialects and operations defined in Python.

    class Toy(ext.Dialect, name="toy"):
        pass

    class AddOp(Toy.Operation, name="add", traits=[ext.Pure, ext.SameOperandsAndResultType]):
        lhs = ext.Operand()
        rhs = ext.Operand()
        result = ext.Result()

    class StoreOp(Toy.Operation, name="store"):
        value = ext.Operand("f64")

        def get_effects(self):          # MemoryEffectsOpInterface, in Python
            return [ir.MemoryEffectInstance(ir.MemoryEffect.Write)]

        def verify_invariants(self):    # raise to reject the operation
            ...

    Toy.load()                          # registers the operations in the current Context
    with ir.InsertionPoint(block):
        total = AddOp(x, y)             # result type from SameOperandsAndResultType
        other = AddOp(x, y, result=f64) # or given by name

Operations are registered in a context at run time (MLIR's dynamic dialects):
generic assembly form, verifiers (operand/result/region counts, fixed types,
traits, then `verify_invariants`), and the interfaces below. Native passes query
`get_effects` and `get_speculatability` while a pipeline runs detached from
the interpreter; each query re-attaches for its own duration, and an exception
in one fails the pipeline with a diagnostic naming the operation.
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional, Sequence

from .. import ir
from .._core import ir as _native_ir
from ._ods_common import get_op_result_or_value as _value


class _Trait:
    def __init__(self, *native: str) -> None:
        self.native = native

    def __repr__(self) -> str:
        return f"ext.{'+'.join(self.native)}"


#: Traits an operation defined in Python can have.
IsTerminator = _Trait("IsTerminator")
IsCommutative = _Trait("IsCommutative")
NoTerminator = _Trait("NoTerminator")
IsolatedFromAbove = _Trait("IsolatedFromAbove")
SameOperandsAndResultType = _Trait("SameOperandsAndResultType")
NoMemoryEffect = _Trait("NoMemoryEffect")
AlwaysSpeculatable = _Trait("AlwaysSpeculatable")
Pure = _Trait("NoMemoryEffect", "AlwaysSpeculatable")


class _Field:
    kind = ""

    def __init__(self, type: Optional[str] = None) -> None:
        """`type`: the MLIR text of the only type allowed (None: any)."""
        self.type = type
        self.name = ""
        self.index = -1

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def expected_type(self, context: ir.Context) -> Optional[ir.Type]:
        return None if self.type is None else ir.Type.parse(self.type, context=context)


class Operand(_Field):
    """An operand of an operation defined in Python (read: `op.<name>`)."""

    kind = "operand"

    def __get__(self, op: Any, owner: type) -> Any:
        return self if op is None else op.operands[self.index]


class Result(_Field):
    """A result of an operation defined in Python."""

    kind = "result"

    def __get__(self, op: Any, owner: type) -> Any:
        return self if op is None else op.results[self.index]


class Region(_Field):
    """A region of an operation defined in Python."""

    kind = "region"

    def __get__(self, op: Any, owner: type) -> Any:
        return self if op is None else op.regions[self.index]


class Operation(ir.OpView):
    """Base of operations defined in Python; subclass `<Dialect>.Operation`."""

    _dialect: ClassVar[Optional[type]] = None
    _operands: ClassVar[list] = []
    _results: ClassVar[list] = []
    _regions: ClassVar[list] = []
    _traits: ClassVar[tuple] = ()
    _op_name: ClassVar[str] = ""

    def __init_subclass__(cls, name: Optional[str] = None, traits: Sequence[_Trait] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if name is None:  # an intermediate base, e.g. <Dialect>.Operation
            return
        dialect = cls._dialect
        if dialect is None:
            raise TypeError("derive operations from <Dialect>.Operation")
        for trait in traits:
            if not isinstance(trait, _Trait):
                raise TypeError(f"unknown trait {trait!r}: use the traits of plait.dialects.ext")
        fields = [value for value in vars(cls).values() if isinstance(value, _Field)]
        cls._operands = [f for f in fields if isinstance(f, Operand)]
        cls._results = [f for f in fields if isinstance(f, Result)]
        cls._regions = [f for f in fields if isinstance(f, Region)]
        for group in (cls._operands, cls._results, cls._regions):
            for index, field in enumerate(group):
                field.index = index
        cls._traits = tuple(traits)
        cls._op_name = name
        cls.OPERATION_NAME = f"{dialect.DIALECT_NAMESPACE}.{name}"
        cls._ODS_REGIONS = (len(cls._regions), True)
        _native_ir._register_operation_class(cls.OPERATION_NAME, cls, True)
        dialect._operations.append(cls)

    def __init__(self, *operands: Any, loc: Any = None, ip: Any = None, **named: Any) -> None:
        """Operands in field order; result types by result field name (unless
        fixed by the field or SameOperandsAndResultType); attributes as other
        keyword arguments (Attributes)."""
        cls = type(self)
        if len(operands) != len(cls._operands):
            raise TypeError(f"{cls.__name__} takes {len(cls._operands)} operands, got {len(operands)}")
        same_type = SameOperandsAndResultType in cls._traits
        context = loc.context if loc is not None else None
        result_types = []
        for field in cls._results:
            given = named.pop(field.name, None)
            if given is None and field.type is not None:
                given = ir.Type.parse(field.type, context=context)
            if given is None and same_type and operands:
                given = _value(operands[0]).type
            if given is None:
                raise TypeError(f"{cls.__name__} needs the type of its result '{field.name}' ({field.name}=...)")
            result_types.append(given)
        attributes = {}
        for key, value in named.items():
            if not isinstance(value, ir.Attribute):
                raise TypeError(f"{cls.__name__}: unknown argument {key!r} (attributes must be plait.ir.Attribute)")
            attributes[key] = value
        ir.OpView.__init__(
            self,
            ir.Operation.create(
                cls.OPERATION_NAME,
                results=result_types,
                operands=[_value(v) for v in operands],
                attributes=attributes,
                regions=len(cls._regions),
                loc=loc,
                ip=ip,
            ),
        )

    def verify_invariants(self) -> None:
        """Override to check the operation: raise (any exception) to reject
        it. Runs after the checks of the fields and traits."""


def _verifier(cls: type) -> Any:
    def verify(op: Any) -> None:
        context = op.context
        for group, values in ((cls._operands, op.operands), (cls._results, op.results)):
            for field in group:
                expected = field.expected_type(context)
                if expected is not None and values[field.index].type != expected:
                    raise ValueError(
                        f"{field.kind} '{field.name}' must be {field.type}, not {values[field.index].type}"
                    )
        op.verify_invariants()

    return verify


class Dialect(ir.Dialect):
    """Base of dialects defined in Python: `class Toy(ext.Dialect, name="toy")`.
    Its `Operation` attribute is the base of its operations."""

    Operation: ClassVar[type]
    _operations: ClassVar[list]

    def __init_subclass__(cls, name: Optional[str] = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not name:
            raise TypeError("a dialect needs a name: class MyDialect(ext.Dialect, name='my')")
        cls.DIALECT_NAMESPACE = name
        cls._operations = []
        cls.Operation = type(f"{cls.__name__}Operation", (Operation,), {"_dialect": cls})

    @classmethod
    def load(cls, context: Optional[ir.Context] = None) -> None:
        """Registers the dialect's operations in `context` (the current one by
        default). ValueError when one is registered there already."""
        for op_class in cls._operations:
            _register(op_class, context)


def _register(cls: type, context: Optional[ir.Context]) -> None:
    traits = [native for trait in cls._traits for native in trait.native]
    overrides = lambda name: getattr(cls, name) is not getattr(Operation, name, None)  # noqa: E731
    has_effects = hasattr(cls, "get_effects")
    has_speculation = hasattr(cls, "get_speculatability")
    if has_effects and "NoMemoryEffect" in traits:
        raise TypeError(f"{cls.__name__}: get_effects contradicts the NoMemoryEffect trait")
    if has_speculation and "AlwaysSpeculatable" in traits:
        raise TypeError(f"{cls.__name__}: get_speculatability contradicts the AlwaysSpeculatable trait")
    needs_verify = overrides("verify_invariants") or any(f.type for f in cls._operands + cls._results)
    _native_ir._register_dynamic_op(
        context,
        cls._dialect.DIALECT_NAMESPACE,
        cls._op_name,
        len(cls._operands),
        len(cls._results),
        len(cls._regions),
        traits,
        _verifier(cls) if needs_verify else None,
        (lambda op: list(op.get_effects())) if has_effects else None,
        (lambda op: op.get_speculatability()) if has_speculation else None,
    )
