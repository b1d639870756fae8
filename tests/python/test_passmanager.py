"""plait.passmanager: pipelines, Python passes, bad pipelines."""

from __future__ import annotations

import pytest

from conftest import ADD_MODULE
from plait import ir
from plait.passmanager import LOWER_TO_LLVM, PassManager

FOLDABLE = """
func.func @f() -> i64 {
  %a = arith.constant 2 : i64
  %b = arith.constant 3 : i64
  %c = arith.muli %a, %b : i64
  return %c : i64
}
"""


def test_parse_and_run_canonicalize_folds_constants() -> None:
    with ir.Context():
        module = ir.Module.parse(FOLDABLE)
        pm = PassManager.parse("builtin.module(func.func(canonicalize))")
        assert "canonicalize" in str(pm)
        pm.run(module.operation)
        text = str(module)
        assert "arith.muli" not in text
        assert "arith.constant 6 : i64" in text


def test_add_textual_pipeline_with_implicit_nesting() -> None:
    with ir.Context():
        module = ir.Module.parse(FOLDABLE)
        pm = PassManager()
        pm.add("canonicalize,cse")
        pm.run(module)
        assert "arith.constant 6 : i64" in str(module)


def test_lower_to_llvm_pipeline() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        PassManager.parse(LOWER_TO_LLVM).run(module)
        text = str(module)
        assert "llvm.func @add" in text and "llvm.add" in text
        assert "func.func" not in text and "arith." not in text


@pytest.mark.parametrize(
    "pipeline, named",
    [
        ("builtin.module(no-such-pass)", "no-such-pass"),
        ("builtin.module(canonicalize{no-such-option=1})", "no-such-option"),
        ("builtin.module(canonicalize{max-iterations=lots})", "max-iterations"),
        ("builtin.module(canonicalize", "builtin.module(canonicalize"),
    ],
)
def test_bad_pipelines_are_value_errors_naming_the_problem(pipeline: str, named: str) -> None:
    with ir.Context():
        with pytest.raises(ValueError, match=named.replace("(", r"\(").replace("{", r"\{")):
            PassManager.parse(pipeline)
        pm = PassManager()
        with pytest.raises(ValueError):
            pm.add("no-such-pass")


def test_python_pass_sees_operation_and_can_set_attributes() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        seen: list[str] = []

        def tag_functions(op: ir.Operation) -> None:
            seen.append(op.name)
            op.walk(lambda nested: nested.name == "func.func" and nested.attributes.__setitem__("plait.tagged", True))

        pm = PassManager()
        pm.add(tag_functions)
        pm.add("canonicalize")
        pm.run(module)
        assert seen == ["builtin.module"]
        assert "plait.tagged = true" in str(module)


def test_python_pass_exception_fails_pipeline_with_its_text() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)

        def broken(op: ir.Operation) -> None:
            raise ValueError("this pass refuses")

        pm = PassManager()
        pm.add(broken)
        with pytest.raises(ir.MLIRError) as info:
            pm.run(module)
        [diagnostic] = info.value.error_diagnostics
        assert "broken" in diagnostic.message
        assert "ValueError: this pass refuses" in diagnostic.message
        # The process and the module are fine afterwards.
        assert module.operation.verify()


def test_python_pass_may_emit_diagnostics_captured_on_failure() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)

        def complain(op: ir.Operation) -> None:
            op.emit_error("first problem")
            raise RuntimeError("second problem")

        pm = PassManager()
        pm.add(complain)
        with pytest.raises(ir.MLIRError) as info:
            pm.run(module)
        messages = [d.message for d in info.value.error_diagnostics]
        assert messages[0] == "first problem"
        assert "RuntimeError: second problem" in messages[1]


def test_verifier_catches_broken_ir_from_a_python_pass() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)

        def corrupt(op: ir.Operation) -> None:
            func = op.regions[0].blocks[0].operations[0]
            func.attributes["function_type"] = ir.TypeAttr.get(ir.Type.parse("(i64) -> i64"))

        pm = PassManager()
        pm.add(corrupt)
        with pytest.raises(ir.MLIRError):
            pm.run(module)
        module = ir.Module.parse(ADD_MODULE)
        pm = PassManager()
        pm.enable_verifier(False)
        pm.add(corrupt)
        pm.run(module)  # no verifier, no error


def test_ir_printing_and_timing_write_to_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    with ir.Context():
        module = ir.Module.parse(FOLDABLE)
        pm = PassManager.parse("builtin.module(func.func(canonicalize))")
        pm.enable_ir_printing()
        pm.enable_timing()
        pm.run(module)
        del pm
        err = capfd.readouterr().err
        assert "IR Dump After Canonicalizer" in err
        assert "Execution time report" in err


def test_module_of_another_context_is_rejected() -> None:
    first, second = ir.Context(), ir.Context()
    module = ir.Module.parse(ADD_MODULE, context=first)
    pm = PassManager(context=second)
    with pytest.raises(ValueError, match="different Context"):
        pm.run(module)


def test_wrong_anchor_is_an_mlir_error() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        pm = PassManager("func.func")
        pm.add("canonicalize")
        with pytest.raises(ir.MLIRError):
            pm.run(module)


def test_run_rejects_non_ir_objects() -> None:
    with ir.Context():
        with pytest.raises(TypeError):
            PassManager().run("not a module")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            PassManager().add(42)  # type: ignore[arg-type]
