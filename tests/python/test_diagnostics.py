"""Diagnostics: handlers, capture onto MLIRError, severities."""

from __future__ import annotations

import pytest

from conftest import ADD_MODULE
from plait import ir


def test_parse_error_has_line_and_column() -> None:
    with ir.Context():
        with pytest.raises(ir.MLIRError) as info:
            ir.Module.parse("func.func @f() {\n  return %undefined : i64\n}", source_name="bad.mlir")
        error = info.value
        assert len(error.error_diagnostics) == 1
        diagnostic = error.error_diagnostics[0]
        assert diagnostic.severity == ir.DiagnosticSeverity.ERROR
        assert diagnostic.location.startswith("bad.mlir:2:")
        assert "undeclared SSA value" in diagnostic.message
        assert "bad.mlir:2:" in str(error)


def test_handler_receives_warnings_and_notes() -> None:
    with ir.Context() as ctx:
        seen: list[ir.Diagnostic] = []

        def handler(diagnostic: ir.Diagnostic) -> bool:
            seen.append(diagnostic)
            return True

        handle = ctx.attach_diagnostic_handler(handler)
        module = ir.Module.parse(ADD_MODULE)
        module.operation.emit_warning("watch out")
        module.operation.emit_error("broken on purpose")
        assert [(d.severity, d.message) for d in seen] == [
            (ir.DiagnosticSeverity.WARNING, "watch out"),
            (ir.DiagnosticSeverity.ERROR, "broken on purpose"),
        ]
        # The module's own location, as "file:line:col".
        assert seen[0].location == "<string>:0:0"
        assert module.operation.location == ir.Location.file("<string>", 0, 0)
        assert handle.attached and not handle.had_error
        handle.detach()
        handle.detach()  # idempotent
        assert not handle.attached
        module.operation.emit_warning("unseen")
        assert len(seen) == 2


def test_failing_call_captures_errors_instead_of_handlers() -> None:
    with ir.Context() as ctx:
        seen: list[ir.Diagnostic] = []
        with ctx.attach_diagnostic_handler(lambda d: seen.append(d) or True):
            with pytest.raises(ir.MLIRError) as info:
                ir.Module.parse("garbage")
        assert seen == []
        assert len(info.value.error_diagnostics) == 1


def test_emit_error_diagnostics_routes_errors_to_handlers() -> None:
    with ir.Context() as ctx:
        ctx.emit_error_diagnostics = True
        assert ctx.emit_error_diagnostics
        seen: list[ir.Diagnostic] = []
        handle = ctx.attach_diagnostic_handler(lambda d: seen.append(d) or True)
        with pytest.raises(ir.MLIRError) as info:
            ir.Module.parse("garbage")
        assert info.value.error_diagnostics == []
        assert len(seen) == 1 and seen[0].severity == ir.DiagnosticSeverity.ERROR
        assert not handle.had_error
        handle.detach()


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_raising_handler_sets_had_error_and_process_stays_healthy() -> None:
    with ir.Context() as ctx:

        def handler(diagnostic: ir.Diagnostic) -> bool:
            raise RuntimeError("handler bug")

        handle = ctx.attach_diagnostic_handler(handler)
        module = ir.Module.parse(ADD_MODULE)
        module.operation.emit_warning("trigger")
        assert handle.had_error
        handle.detach()
        assert module.operation.name == "builtin.module"


def test_notes_are_attached_to_their_diagnostic() -> None:
    with ir.Context():
        # A redefinition reports an error with a note pointing at the original.
        text = "func.func private @f()\nfunc.func private @f()"
        with pytest.raises(ir.MLIRError) as info:
            ir.Module.parse(text)
        [diagnostic] = info.value.error_diagnostics
        assert "redefinition" in diagnostic.message
        assert diagnostic.notes
        assert all(note.severity == ir.DiagnosticSeverity.NOTE for note in diagnostic.notes)
        assert any(note.location == "<string>:1:1" for note in diagnostic.notes), diagnostic.notes
