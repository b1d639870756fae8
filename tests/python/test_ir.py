"""plait.ir: contexts, modules, operations, handles."""

from __future__ import annotations


import pytest

from conftest import ADD_MODULE, BackgroundThread
from plait import ir


def test_context_manager_sets_thread_current_context() -> None:
    with pytest.raises(ValueError):
        ir.Context.current
    with ir.Context() as outer:
        assert ir.Context.current is outer
        with ir.Context() as inner:
            assert ir.Context.current is inner
        assert ir.Context.current is outer

        def other_thread() -> str:
            try:
                ir.Context.current
            except ValueError:
                return "none"
            return "a context"

        assert BackgroundThread(other_thread).start().join() == "none", "the current context is per thread"
    with pytest.raises(ValueError):
        ir.Context.current


def test_parse_print_and_context() -> None:
    with ir.Context() as ctx:
        module = ir.Module.parse(ADD_MODULE)
        assert module.context is ctx
        text = str(module)
        assert "func.func @add" in text and "arith.addi" in text
        # The printed form parses again to the same text.
        assert str(ir.Module.parse(text)) == text
    other = ir.Context()
    module = ir.Module.parse(ADD_MODULE, context=other)
    assert module.context is other


def test_parse_without_context_is_value_error() -> None:
    with pytest.raises(ValueError, match="no Context"):
        ir.Module.parse(ADD_MODULE)


def test_operation_tree_and_walk() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        top = module.operation
        assert top.name == "builtin.module"
        [region] = top.regions
        [block] = region.blocks
        [func] = block.operations
        # block.operations gives the dialect's class when plait.dialects.func
        # is imported (whose `.name` is the symbol): .operation is the Operation.
        assert func.operation.name == "func.func"
        body_ops = [op.name for op in func.regions[0].blocks[0].operations]
        assert body_ops == ["arith.addi", "func.return"]
        assert func.regions[0].blocks[0].num_arguments == 2
        names: list[str] = []
        top.walk(lambda op: names.append(op.name))
        assert names == ["builtin.module", "func.func", "arith.addi", "func.return"]
        assert top.verify() is True
        assert "arith.addi" in str(func)


def test_location_carries_source_name_line_and_column() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE, source_name="kernels.mlir")
        addi = module.operation.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations[0]
        assert str(addi.location) == 'loc("kernels.mlir":3:8)'
        assert addi.location == ir.Location.file("kernels.mlir", 3, 8)


def test_attributes_read_and_set() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        func = module.operation.regions[0].blocks[0].operations[0]
        attrs = func.attributes
        assert isinstance(attrs["sym_name"], ir.StringAttr) and attrs["sym_name"].value == "add"
        assert isinstance(attrs["function_type"], ir.TypeAttr)
        assert str(attrs["function_type"]) == "(i64, i64) -> i64"
        attrs["plait.count"] = 3
        attrs["plait.ratio"] = 0.25
        attrs["plait.flag"] = True
        attrs["plait.label"] = "hot"
        attrs["plait.shape"] = ir.Attribute.parse("array<i64: 1, 2>")
        # Python values become i64, f64, bool and string attributes.
        assert attrs["plait.count"] == ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 3)
        assert attrs["plait.count"].value == 3 and type(attrs["plait.count"].value) is int
        assert attrs["plait.ratio"].value == 0.25 and str(attrs["plait.ratio"].type) == "f64"
        assert attrs["plait.flag"].value is True
        assert attrs["plait.label"].value == "hot"
        assert list(attrs["plait.shape"]) == [1, 2]
        assert str(attrs["plait.shape"]) == "array<i64: 1, 2>"
        assert "plait.count" in attrs and "nope" not in attrs
        assert set(attrs.keys()) >= {"sym_name", "function_type", "plait.count"}
        del attrs["plait.count"]
        assert "plait.count" not in attrs
        with pytest.raises(KeyError):
            attrs["nope"]
        with pytest.raises(TypeError):
            attrs["bad"] = [1, 2]
        with pytest.raises(ValueError):
            attrs["huge"] = 2**70
        with pytest.raises(ir.MLIRError, match="Unable to parse attribute"):
            attrs["broken"] = ir.Attribute.parse("array<i64: ")
        assert 'plait.label = "hot"' in str(module)
        func.verify()


def test_handles_are_invalidated_by_pipelines_not_dangling() -> None:
    from plait.passmanager import PassManager

    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        func = module.operation.regions[0].blocks[0].operations[0]
        assert func.is_valid
        PassManager.parse("builtin.module(plait-lower-to-llvm)").run(module)
        assert not func.is_valid
        with pytest.raises(RuntimeError, match="no longer valid"):
            func.name
        with pytest.raises(RuntimeError, match="no longer valid"):
            str(func)
        assert "invalidated" in repr(func)
        # The module's own operation survives every pipeline.
        assert module.operation.name == "builtin.module"
        assert "llvm.func @add" in str(module)


def test_module_outlives_dropped_context_references() -> None:
    module = ir.Module.parse(ADD_MODULE, context=ir.Context())
    # The only reference to the Context is the module's own.
    assert ir.Context._get_live_count() == 1
    assert module.operation.name == "builtin.module"
    assert "func.func @add" in str(module)
    del module


def test_verify_failure_raises_with_diagnostics() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        func = module.operation.regions[0].blocks[0].operations[0]
        func.attributes["function_type"] = ir.TypeAttr.get(ir.Type.parse("(i64) -> i64"))
        with pytest.raises(ir.MLIRError) as info:
            module.operation.verify()
        assert info.value.error_diagnostics
        assert "Verification failed" in str(info.value)
