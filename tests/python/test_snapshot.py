"""The snapshot's node table is the native frontend's (ASTNodes.def): every
field it names must be a field of Python's own ast class, so that a
misspelt or reordered field fails here rather than miscompiling."""

from __future__ import annotations

import ast

import plait._snapshot as snapshot
from plait._core import jit as native


def test_snapshot_fields_are_python_ast_fields() -> None:
    fields = native.snapshot_fields()
    assert snapshot._FIELDS == fields
    assert {"For", "While", "Call", "Subscript", "Slice", "BoolOp"} <= set(fields)
    for kind, specs in fields.items():
        python_fields = getattr(ast, kind)._fields
        names = [spec.rstrip("*+?") for spec in specs]
        assert all(name in python_fields for name in names), (kind, names, python_fields)
        assert len(set(names)) == len(names), (kind, names)


def test_supported_builtins_come_from_the_compiler() -> None:
    assert snapshot._SUPPORTED_BUILTINS == frozenset(native.supported_builtins())
    assert {"abs", "min", "max", "range", "len"} <= snapshot._SUPPORTED_BUILTINS
