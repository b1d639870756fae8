"""plait.ir as a builder: locations, insertion points, types, attributes,
values, blocks, and operations created, moved, cloned and erased, with handles
that follow the IR or refuse to be used, never dangle."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ADD_MODULE, run_in_threads
from plait import ir
from plait.dialects import arith, func, memref, scf
from plait.execution_engine import ExecutionEngine
from plait.passmanager import LOWER_TO_LLVM, PassManager


def custom_context() -> ir.Context:
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    return ctx


# --- locations and insertion points -------------------------------------------


def test_locations_print_compare_and_nest() -> None:
    with ir.Context() as ctx:
        unknown = ir.Location.unknown()
        assert str(unknown) == "loc(unknown)"
        file = ir.Location.file("k.py", 3, 7)
        assert str(file) == 'loc("k.py":3:7)'
        assert file == ir.Location.file("k.py", 3, 7) and file != ir.Location.file("k.py", 3, 8)
        assert hash(file) == hash(ir.Location.file("k.py", 3, 7))
        assert str(ir.Location.name("x", file)) == 'loc("x"("k.py":3:7))'
        assert str(ir.Location.name("y")) == 'loc("y")'
        assert str(ir.Location.fused([file, ir.Location.file("a.py", 1, 1)])) == 'loc(fused["k.py":3:7, "a.py":1:1])'
        assert ir.Location.fused([file, unknown]) == file, "MLIR drops unknown parts"
        assert str(ir.Location.callsite(file, [ir.Location.file("a.py", 1, 1)])) == (
            'loc(callsite("k.py":3:7 at "a.py":1:1))'
        )
        assert file.context is ctx


def test_entering_a_location_makes_it_and_its_context_current() -> None:
    ctx = ir.Context()
    with pytest.raises(ValueError, match="no current Location"):
        ir.Location.current
    loc = ir.Location.file("k.py", 1, 1, context=ctx)
    with loc:
        assert ir.Location.current is loc
        assert ir.Context.current is ctx
        module = ir.Module.create()
        assert module.operation.location == loc
    with pytest.raises(ValueError):
        ir.Context.current
    with ctx, pytest.raises(ValueError, match="no loc given"):
        ir.Module.create()


def test_insertion_points_place_operations() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.create()
        body = module.body
        with ir.InsertionPoint(body):
            first = ir.Operation.create("t.first")
            last = ir.Operation.create("t.last")
        with ir.InsertionPoint(last):
            ir.Operation.create("t.before_last")
        with ir.InsertionPoint.at_block_begin(body):
            ir.Operation.create("t.begin")
        names = [op.name for op in body.operations]
        assert names == ["t.begin", "t.first", "t.before_last", "t.last"]
        ip = ir.InsertionPoint(first)
        assert ip.block == body and ip.ref_operation == first
        with ip:
            assert ir.InsertionPoint.current is ip
        with pytest.raises(ValueError, match="Block has no terminator"):
            ir.InsertionPoint.at_block_terminator(body)
        detached = ir.Operation.create("t.detached")
        assert detached.block is None and detached.parent is None
        ir.InsertionPoint(body).insert(detached)
        assert body.operations[-1] == detached and detached.parent == module.operation
        with pytest.raises(ValueError, match="already in a block"):
            ir.InsertionPoint(body).insert(detached)


def test_at_block_terminator_inserts_before_the_terminator() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(ADD_MODULE)
        add = module.body.operations[0]
        block = add.regions[0].blocks[0]
        with ir.InsertionPoint.at_block_terminator(block):
            arith.ConstantOp(ir.IntegerType.get_signless(64), 5)
        assert [op.name for op in block.operations] == ["arith.addi", "arith.constant", "func.return"]


# --- types ---------------------------------------------------------------------


def test_types_build_read_cast_and_compare() -> None:
    with ir.Context() as ctx:
        i32 = ir.IntegerType.get_signless(32)
        assert str(i32) == "i32" and repr(i32) == "IntegerType(i32)"
        assert i32.width == 32 and i32.is_signless and not i32.is_signed
        assert str(ir.IntegerType.get_signed(8)) == "si8" and ir.IntegerType.get_signed(8).is_signed
        assert str(ir.IntegerType.get_unsigned(16)) == "ui16" and ir.IntegerType.get_unsigned(16).is_unsigned
        assert [str(t.get()) for t in (ir.IndexType, ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type, ir.NoneType)] == [
            "index", "f16", "bf16", "f32", "f64", "none",
        ]
        f64 = ir.F64Type.get()
        assert str(ir.ComplexType.get(f64)) == "complex<f64>" and ir.ComplexType.get(f64).element_type == f64
        fn = ir.FunctionType.get([i32, f64], [f64])
        assert str(fn) == "(i32, f64) -> f64" and fn.inputs == [i32, f64] and fn.results == [f64]
        dyn = ir.ShapedType.get_dynamic_size()
        memref_type = ir.MemRefType.get([2, dyn], f64)
        assert str(memref_type) == "memref<2x?xf64>"
        assert memref_type.shape == [2, dyn] and memref_type.rank == 2 and not memref_type.has_static_shape
        assert memref_type.is_dynamic_dim(1) and memref_type.get_dim_size(0) == 2
        assert memref_type.element_type == f64
        strided = ir.MemRefType.get([4], f64, layout=ir.StridedLayoutAttr.get(dyn, [dyn]))
        assert str(strided) == "memref<4xf64, strided<[?], offset: ?>>"
        assert str(ir.RankedTensorType.get([3, 4], i32)) == "tensor<3x4xi32>"
        assert str(ir.UnrankedTensorType.get(i32)) == "tensor<*xi32>"
        assert str(ir.UnrankedMemRefType.get(f64)) == "memref<*xf64>"
        assert str(ir.VectorType.get([4], f64)) == "vector<4xf64>"
        tuple_type = ir.TupleType.get_tuple([i32, f64])
        assert tuple_type.num_types == 2 and tuple_type.get_type(1) == f64
        parsed = ir.Type.parse("memref<2x?xf64>")
        assert parsed == memref_type and hash(parsed) == hash(memref_type)
        assert isinstance(parsed, ir.MemRefType) and isinstance(parsed, ir.ShapedType)
        assert ir.IntegerType.isinstance(i32) and not ir.IntegerType.isinstance(f64)
        assert ir.IntegerType(ir.Type(i32)) == i32
        with pytest.raises(ValueError, match=r"Cannot cast type to IntegerType \(from f64\)"):
            ir.IntegerType(f64)
        with pytest.raises(ValueError, match="non-negative"):
            ir.MemRefType.get([-2], f64)
        with pytest.raises(ValueError, match="invalid element type"):
            ir.VectorType.get([2], fn)
        with pytest.raises(ir.MLIRError, match="Unable to parse type"):
            ir.Type.parse("memref<2x")
        assert i32.context is ctx


# --- attributes ----------------------------------------------------------------


def test_attributes_build_and_read() -> None:
    with ir.Context():
        i32 = ir.IntegerType.get_signless(32)
        assert ir.IntegerAttr.get(i32, -5).value == -5 and str(ir.IntegerAttr.get(i32, -5)) == "-5 : i32"
        assert ir.IntegerAttr.get(ir.IntegerType.get_unsigned(64), 2**64 - 1).value == 2**64 - 1
        big = ir.IntegerType.get_signless(128)
        assert ir.IntegerAttr.get(big, -(2**100)).value == -(2**100)
        assert ir.FloatAttr.get_f64(0.5).value == 0.5 and str(ir.FloatAttr.get_f32(1.5).type) == "f32"
        assert ir.FloatAttr.get(ir.F16Type.get(), 2.0).value == 2.0
        assert ir.BoolAttr.get(True).value is True
        assert ir.StringAttr.get("hé").value == "hé" and ir.StringAttr.get("hé").value_bytes == "hé".encode()
        assert ir.TypeAttr.get(i32).value == i32
        assert str(ir.UnitAttr.get()) == "unit"
        array = ir.ArrayAttr.get([ir.BoolAttr.get(False), ir.StringAttr.get("x")])
        assert len(array) == 2 and array[1].value == "x" and [str(a) for a in array] == ["false", '"x"']
        assert len(array + [ir.UnitAttr.get()]) == 3
        dictionary = ir.DictAttr.get({"a": ir.IntegerAttr.get(i32, 1), "b": ir.UnitAttr.get()})
        assert len(dictionary) == 2 and "a" in dictionary and dictionary["a"].value == 1
        assert dictionary[0].name == "a" and isinstance(dictionary[0].attr, ir.IntegerAttr)
        assert ir.FlatSymbolRefAttr.get("f").value == "f" and str(ir.FlatSymbolRefAttr.get("f")) == "@f"
        assert ir.SymbolRefAttr.get(["m", "f"]).value == ["m", "f"]
        assert list(ir.DenseI64ArrayAttr.get([1, -2])) == [1, -2]
        parsed = ir.Attribute.parse("{x = 1 : i8}")
        assert isinstance(parsed, ir.DictAttr) and parsed["x"].type == ir.IntegerType.get_signless(8)
        assert ir.IntegerAttr(ir.Attribute(parsed["x"])).value == 1
        with pytest.raises(ValueError, match="Cannot cast attribute to FloatAttr"):
            ir.FloatAttr(parsed)
        with pytest.raises(OverflowError, match="does not fit in i8"):
            ir.IntegerAttr.get(ir.IntegerType.get_signless(8), 256)
        with pytest.raises(ValueError, match="integer or index type"):
            ir.IntegerAttr.get(ir.F32Type.get(), 1)


@settings(max_examples=60, deadline=None)
@given(width=st.sampled_from([1, 8, 16, 32, 64]), signedness=st.sampled_from(["signless", "signed", "unsigned"]),
       value=st.integers(-(2**65), 2**65))
def test_integer_attributes_accept_exactly_their_range(width: int, signedness: str, value: int) -> None:
    with ir.Context():
        make = {"signless": ir.IntegerType.get_signless, "signed": ir.IntegerType.get_signed,
                "unsigned": ir.IntegerType.get_unsigned}[signedness]
        lower = 0 if signedness == "unsigned" else -(2 ** (width - 1))
        upper = 2 ** (width - 1) if signedness == "signed" else 2**width
        if not lower <= value < upper:
            with pytest.raises(OverflowError):
                ir.IntegerAttr.get(make(width), value)
            return
        read = ir.IntegerAttr.get(make(width), value).value
        # Signless integers read back as signed, as in MLIR.
        expected = value
        if signedness != "unsigned" and value >= 2 ** (width - 1):
            expected = value - 2**width
        assert read == expected


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(["int8", "int16", "int32", "int64", "uint8", "uint32", "float16", "float32",
                              "float64", "complex64", "complex128", "bool"]),
       shape=st.lists(st.integers(1, 4), min_size=0, max_size=3), seed=st.integers(0, 2**16))
def test_dense_elements_round_trip_numpy(dtype: str, shape: list[int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    array = (rng.standard_normal(shape) * 50).astype(dtype)
    if dtype.startswith("complex"):
        array = array + 1j * array[::-1].astype(dtype) if array.ndim else array
    with ir.Context():
        attr = ir.DenseElementsAttr.get(array)
        assert list(attr.type.shape) == shape
        back = np.asarray(attr)
        # Signless integers read back signed, as MLIR has no unsigned signless.
        expected = array.astype(array.dtype.str.replace("u", "i")) if array.dtype.kind == "u" else array
        assert back.dtype == expected.dtype and back.shape == array.shape
        np.testing.assert_array_equal(back, expected)
        if array.dtype.kind in "iu":
            exact = np.asarray(ir.DenseElementsAttr.get(array, signless=False))
            assert exact.dtype == array.dtype
            np.testing.assert_array_equal(exact, array)
        assert len(attr) == array.size
        if dtype.startswith(("int", "uint")) and array.size:
            assert isinstance(attr, ir.DenseIntElementsAttr)
            assert attr[0] == expected.reshape(-1)[0]


def test_dense_elements_view_context_storage_without_copying() -> None:
    ctx = ir.Context()
    attr = ir.DenseElementsAttr.get(np.arange(12.0).reshape(3, 4), context=ctx)
    view = np.asarray(attr)
    assert not view.flags.writeable
    again = np.asarray(attr)
    assert np.shares_memory(view, again), "both views read the context's storage"
    del attr, ctx, again
    gc.collect()
    # The view keeps the context (and its storage) alive.
    assert ir.Context._get_live_count() == 1
    assert view.sum() == 66.0
    del view
    gc.collect()
    assert ir.Context._get_live_count() == 0


def test_dense_splats_and_typed_construction() -> None:
    with ir.Context():
        f32 = ir.F32Type.get()
        splat = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([2, 3], f32), ir.FloatAttr.get(f32, 1.5))
        assert splat.is_splat and str(splat) == "dense<1.500000e+00> : tensor<2x3xf32>"
        np.testing.assert_array_equal(np.asarray(splat), np.full((2, 3), 1.5, np.float32))
        signed = ir.DenseElementsAttr.get(np.array([1, -1], np.int32), signless=False)
        assert str(signed.type) == "tensor<2xsi32>"
        reshaped = ir.DenseElementsAttr.get(np.arange(6, dtype=np.int64), shape=[2, 3])
        assert str(reshaped.type) == "tensor<2x3xi64>"
        with pytest.raises(ValueError, match="does not match"):
            ir.DenseElementsAttr.get(np.arange(6, dtype=np.int64), shape=[4])
        with pytest.raises(ValueError, match="element type"):
            ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([2], f32), ir.FloatAttr.get_f64(1.0))


# --- operations, values, blocks ----------------------------------------------------


def test_create_operations_with_everything() -> None:
    with custom_context(), ir.Location.file("b.py", 2, 3):
        module = ir.Module.create()
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(module.body):
            producer = ir.Operation.create("t.produce", results=[i32, i32], attributes={"n": ir.IntegerAttr.get(i32, 2)})
            holder = ir.Operation.create("t.hold", regions=2)
            block = holder.regions[0].blocks.append(i32)
            target = holder.regions[0].blocks.append()
            with ir.InsertionPoint(target):
                ir.Operation.create("t.end")
            with ir.InsertionPoint(block):
                ir.Operation.create("t.branch", operands=[block.arguments[0]], successors=[target])
            consumer = ir.Operation.create("t.consume", operands=list(producer.results))
        assert module.operation.verify()
        assert len(producer.results) == 2 and producer.results.types == [i32, i32]
        assert consumer.operands[1] == producer.results[1]
        assert isinstance(producer.results[0], ir.OpResult) and producer.results[1].result_number == 1
        argument = block.arguments[0]
        assert isinstance(argument, ir.BlockArgument) and argument.arg_number == 0 and argument.owner == block
        assert producer.results[0].owner == producer
        assert [(use.owner, use.operand_number) for use in producer.results[1].uses] == [(consumer, 1)]
        branch = block.operations[0]
        assert branch.successors == [target] and len(holder.regions) == 2
        assert block.region == holder.regions[0] and block.owner == holder
        assert producer.attributes["n"].value == 2
        assert producer.location == ir.Location.file("b.py", 2, 3)
        with pytest.raises(ValueError, match="Cannot call .result on operation t.produce which has 2 results"):
            producer.result
        assert "t.produce" in producer.get_asm(print_generic_op_form=True)
        with pytest.raises(ValueError, match="is unknown"):
            with ir.Context(), ir.Location.unknown():
                ir.Operation.create("t.unregistered")
        with pytest.raises(TypeError):
            ir.Operation.create("t.bad", operands=[i32])


def test_values_replace_and_retype() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.create()
        i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
        with ir.InsertionPoint(module.body):
            a = ir.Operation.create("t.a", results=[i32])
            b = ir.Operation.create("t.b", results=[i32])
            user = ir.Operation.create("t.user", operands=[a.result, a.result])
        a.result.replace_all_uses_with(b.result)
        assert list(user.operands) == [b.result, b.result] and not list(a.result.uses)
        a.result.replace_all_uses_with(a.result)  # a no-op, not a hang
        user.operands[0] = a.result
        assert user.operands[0] == a.result
        b.result.set_type(i64)
        assert b.result.type == i64 and isinstance(b.result.type, ir.IntegerType)
        assert {a.result, a.result} == {a.result}
        with pytest.raises(IndexError):
            user.operands[5] = a.result
        assert user.operands[0:2] == [a.result, b.result]


def test_blocks_are_created_before_after_and_at_start() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.create()
        i1 = ir.IntegerType.get_signless(1)
        with ir.InsertionPoint(module.body):
            holder = ir.Operation.create("t.hold", regions=1)
        region = holder.regions[0]
        middle = ir.Block.create_at_start(region, [i1])
        first = ir.Block.create_at_start(region)
        last = middle.create_after(i1, i1)
        between = middle.create_before()
        assert list(region.blocks) == [first, between, middle, last]
        assert len(last.arguments) == 2 and last.arguments.types == [i1, i1]
        extra = first.add_argument(i1, ir.Location.unknown())
        assert extra.arg_number == 0 and first.num_arguments == 1
        assert "^bb" in str(middle)


def test_blocks_move_between_operations_with_their_handles() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.create()
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(module.body):
            first = ir.Operation.create("t.first", regions=1)
            second = ir.Operation.create("t.second", regions=1)
        block = first.regions[0].blocks.append(i32)
        other_handle = first.regions[0].blocks[0]
        with ir.InsertionPoint(block):
            inner = ir.Operation.create("t.inner", operands=[block.arguments[0]])
        block.append_to(second.regions[0])
        assert block.owner == second and len(first.regions[0].blocks) == 0
        assert inner.is_valid and inner.parent == second
        with pytest.raises(RuntimeError, match="moved to another operation"):
            len(other_handle.operations)
        second.erase()
        assert not inner.is_valid
        with pytest.raises(RuntimeError, match="no longer valid"):
            len(block.operations)
        with ir.InsertionPoint(module.body):
            holder = ir.Operation.create("t.holder", regions=1)
        outer_block = holder.regions[0].blocks.append()
        with ir.InsertionPoint(outer_block):
            nested = ir.Operation.create("t.nested", regions=1)
        with pytest.raises(ValueError, match="into an operation it holds"):
            outer_block.append_to(nested.regions[0])


def test_erase_invalidates_only_what_was_erased() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.create()
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(module.body):
            keep = ir.Operation.create("t.keep", results=[i32])
            outer = ir.Operation.create("t.outer", regions=1)
            with ir.InsertionPoint(outer.regions[0].blocks.append()):
                inner = ir.Operation.create("t.inner", operands=[keep.result])
            after = ir.Operation.create("t.after")
        ops = list(module.body.operations)
        with pytest.raises(ValueError, match="its results, block arguments or blocks are still used"):
            keep.erase()
        outer.erase()
        assert not outer.is_valid and not inner.is_valid
        with pytest.raises(RuntimeError, match="no longer valid"):
            inner.name
        assert keep.is_valid and after.is_valid and ops[0].is_valid and ops[2].is_valid
        assert [op.name for op in module.body.operations] == ["t.keep", "t.after"]
        keep.erase()  # no uses left
        assert [op.name for op in module.body.operations] == ["t.after"]


def test_move_clone_and_detach_keep_handles_on_their_operations() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            a = ir.Operation.create("t.a")
            b = ir.Operation.create("t.b")
            c = ir.Operation.create("t.c")
        c.move_before(a)
        a.move_after(b)
        assert [op.name for op in module.body.operations] == ["t.c", "t.b", "t.a"]
        copy = b.clone()
        assert copy.block is None and copy != b and copy.name == "t.b"
        copy.move_after(a)
        assert [op.name for op in module.body.operations] == ["t.c", "t.b", "t.a", "t.b"]
        b.detach_from_parent()
        assert b.block is None and b.is_valid and b.name == "t.b"
        with pytest.raises(ValueError, match="not in a block"):
            b.detach_from_parent()
        with ir.InsertionPoint(module.body):
            cloned_in_place = a.clone()
        assert module.body.operations[-1] == cloned_in_place
        with pytest.raises(ValueError, match="into itself"):
            with ir.InsertionPoint(module.body):
                holder = ir.Operation.create("t.holder", regions=1)
            inner_block = holder.regions[0].blocks.append()
            with ir.InsertionPoint(inner_block):
                inner = ir.Operation.create("t.inner")
            holder.move_before(inner)


def test_operations_moved_between_modules_follow_and_outlive_their_source() -> None:
    with custom_context(), ir.Location.unknown():
        source = ir.Module.create()
        target = ir.Module.create()
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(source.body):
            producer = ir.Operation.create("t.produce", results=[i32])
        with ir.InsertionPoint(target.body):
            anchor = ir.Operation.create("t.anchor")
        producer.move_before(anchor)
        del source
        gc.collect()
        assert producer.is_valid and producer.parent == target.operation
        assert "t.produce" in str(target)
        # A pipeline on the new module invalidates the moved handle too.
        PassManager("builtin.module").run(target)
        assert not producer.is_valid


def test_detached_users_keep_definitions_alive_and_block_pipelines() -> None:
    ctx = custom_context()
    with ctx, ir.Location.unknown():
        module = ir.Module.create()
        i32 = ir.IntegerType.get_signless(32)
        with ir.InsertionPoint(module.body):
            producer = ir.Operation.create("t.produce", results=[i32])
        user = ir.Operation.create("t.use", operands=[producer.result])  # in no block
        with pytest.raises(ValueError, match="operations outside this module use values defined in it"):
            PassManager("builtin.module").run(module)
        del module, producer
        gc.collect()
        # The detached user keeps the module that defines its operand alive.
        assert "t.use" in str(user) and user.operands[0].owner.name == "t.produce"
        user.erase()
        assert not user.is_valid
    del ctx, user
    gc.collect()


def test_symbol_tables() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(ADD_MODULE)
        table = ir.SymbolTable(module.operation)
        assert "add" in table and table["add"].operation.name == "func.func"
        assert isinstance(table["add"], func.FuncOp)
        duplicate = table["add"].clone()
        name = table.insert(duplicate)
        assert isinstance(name, ir.StringAttr) and name.value != "add"
        assert ir.SymbolTable.get_symbol_name(duplicate) == name
        ir.SymbolTable.set_visibility(duplicate, "private")
        assert ir.SymbolTable.get_visibility(duplicate).value == "private"
        assert ir.SymbolTable.get_visibility(table["add"]) is None
        del table[name.value]
        assert name.value not in table and not duplicate.is_valid
        with pytest.raises(KeyError):
            table["missing"]
        with pytest.raises(ValueError, match="not a symbol table"):
            ir.SymbolTable(table["add"])["x"]


# --- dialect classes ---------------------------------------------------------------


def test_dialect_classes_come_back_from_navigation() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        add_func = module.body.operations[0]
        assert isinstance(add_func, func.FuncOp) and isinstance(add_func, ir.OpView)
        assert add_func.sym_name.value == "add" and add_func.name.value == "add"
        assert isinstance(add_func.operation, ir.Operation) and not isinstance(add_func.operation, ir.OpView)
        assert add_func.operation.opview == add_func
        addi = add_func.entry_block.operations[0]
        assert isinstance(addi, arith.AddIOp) and addi.lhs == add_func.arguments[0]
        assert isinstance(addi.result.owner, arith.AddIOp)


def test_generated_builders_check_their_groups() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.create()
        f32 = ir.F32Type.get()
        with ir.InsertionPoint(module.body):
            x = arith.ConstantOp(f32, 2.0)
            assert x.literal_value == 2.0 and x.type == f32
            assert ir.InferTypeOpInterface(arith.AddFOp).inferReturnTypes(operands=[x, x]) == [f32]
            with pytest.raises(ValueError, match='requires exactly 0 regions'):
                arith.AddFOp.build_generic(operands=[x, x], results=[f32], regions=1)
            with pytest.raises(TypeError, match="ConstantOp value"):
                arith.ConstantOp(f32, "two")


def test_function_built_op_by_op_compiles_and_runs() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.create()
        f64, index = ir.F64Type.get(), ir.IndexType.get()
        buffer_type = ir.MemRefType.get([ir.ShapedType.get_dynamic_size()], f64)
        with ir.InsertionPoint(module.body):

            @func.FuncOp.from_py_func(buffer_type, index)
            def positive_sum(buffer: ir.Value, n: ir.Value) -> ir.Value:
                zero = arith.ConstantOp(f64, 0.0)
                loop = scf.ForOp(arith.ConstantOp.create_index(0), n, arith.ConstantOp.create_index(1), [zero])
                with ir.InsertionPoint(loop.body):
                    x = memref.LoadOp(buffer, [loop.induction_variable])
                    positive = arith.CmpFOp(ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 2), x, zero)
                    branch = scf.IfOp(positive, [f64], hasElse=True)
                    with ir.InsertionPoint(branch.then_block):
                        scf.YieldOp([arith.AddFOp(loop.inner_iter_args[0], x)])
                    with ir.InsertionPoint(branch.else_block):
                        scf.YieldOp([loop.inner_iter_args[0]])
                    scf.YieldOp([branch.results[0]])
                return loop.results[0]

            @func.FuncOp.from_py_func(buffer_type, index)
            def twice(buffer: ir.Value, n: ir.Value) -> ir.Value:
                once = func.CallOp(positive_sum.func_op, [buffer, n])
                return arith.MulFOp(once.result, arith.ConstantOp(f64, 2.0))

        assert module.operation.verify()
        assert str(twice.func_op.type) == "(memref<?xf64>, index) -> f64"
        engine = ExecutionEngine(module, pipeline=LOWER_TO_LLVM)
        data = np.array([1.5, -2.0, 3.0, -0.5])
        assert engine.invoke("positive_sum", data, 4) == 4.5
        assert engine.invoke("twice", data, 4) == 9.0


# --- Python passes that rewrite ----------------------------------------------------


MULTIPLY_MODULE = """
func.func @scale(%x: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %0 = arith.muli %x, %c2 : i64
  %1 = arith.muli %0, %c2 : i64
  return %1 : i64
}
"""


def double_to_add(op: ir.Operation) -> None:
    """Rewrites `x * 2` as `x + x` (a Python pass)."""
    for nested in list_ops(op):
        if not isinstance(nested, arith.MulIOp):
            continue
        constant = nested.rhs.owner
        if not (isinstance(constant, arith.ConstantOp) and constant.literal_value == 2):
            continue
        with ir.InsertionPoint(nested), nested.location:
            doubled = arith.AddIOp(nested.lhs, nested.lhs)
        nested.result.replace_all_uses_with(doubled.result)
        nested.erase()


def list_ops(op: ir.Operation) -> list:
    """Every operation inside `op`, as its dialect class (walk gives plain
    Operations; .opview gives the class)."""
    found: list = []
    op.walk(lambda nested: found.append(nested.opview))
    return found


def test_python_pass_rewrites_and_native_passes_follow() -> None:
    with ir.Context():
        module = ir.Module.parse(MULTIPLY_MODULE)
        before = module.body.operations[0]
        pm = PassManager()
        pm.add(double_to_add)
        pm.add("canonicalize")
        pm.run(module)
        assert not before.is_valid, "handles made before a pipeline go invalid"
        text = str(module)
        assert "arith.muli" not in text and text.count("arith.addi") == 2
        assert "arith.constant" not in text, "canonicalize removed the dead constant"
        engine = ExecutionEngine(module, pipeline=LOWER_TO_LLVM)
        assert engine.invoke("scale", 5) == 20


def test_handles_kept_by_a_python_pass_go_invalid_afterwards() -> None:
    kept: list = []
    with ir.Context():
        module = ir.Module.parse(MULTIPLY_MODULE)

        def keep(op: ir.Operation) -> None:
            kept.extend(list_ops(op))

        pm = PassManager()
        pm.add(keep)
        pm.run(module)
        assert kept and all(not op.is_valid for op in kept[1:])
        assert kept[0].is_valid  # the module's own operation


def test_a_python_pass_that_breaks_the_ir_fails_the_pipeline_cleanly() -> None:
    with ir.Context():
        module = ir.Module.parse(MULTIPLY_MODULE)

        def break_types(op: ir.Operation) -> None:
            for nested in list_ops(op):
                if isinstance(nested, arith.MulIOp):
                    nested.result.set_type(ir.F32Type.get())

        pm = PassManager()
        pm.add(break_types)
        with pytest.raises(ir.MLIRError):
            pm.run(module)


# --- threads --------------------------------------------------------------------


def build_and_run(i: int) -> float:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.create()
        f64 = ir.F64Type.get()
        with ir.InsertionPoint(module.body):

            @func.FuncOp.from_py_func(f64)
            def shift(x: ir.Value) -> ir.Value:
                return arith.AddFOp(x, arith.ConstantOp(f64, float(i)))

        engine = ExecutionEngine(module, pipeline=LOWER_TO_LLVM)
        return engine.invoke("shift", 0.5)


def test_threads_build_ir_on_their_own_contexts() -> None:
    assert run_in_threads(6, build_and_run) == [0.5 + i for i in range(6)]


def test_threads_building_in_one_context_serialise() -> None:
    ctx = custom_context()
    with ctx, ir.Location.unknown():
        module = ir.Module.create()

    def body(i: int) -> None:
        with ir.Location.unknown(context=ctx):
            for _ in range(50):
                op = ir.Operation.create("t.op", attributes={"thread": ir.IntegerAttr.get(ir.IntegerType.get_signless(64, context=ctx), i)})
                ir.InsertionPoint(module.body).insert(op)

    run_in_threads(4, body)
    counts = [0] * 4
    for op in module.body.operations:
        counts[op.attributes["thread"].value] += 1
    assert counts == [50] * 4


def test_upstream_conveniences_print_parse_and_convert(capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from plait.dialects import builtin

    with ir.Context(), ir.Location.unknown():
        op = ir.Operation.parse("%c = arith.constant 1 : i32")
        assert op.name == "arith.constant" and op.block is None and not op.attached
        constant = arith.ConstantOp.parse("%c = arith.constant 2 : i32")
        assert isinstance(constant, arith.ConstantOp) and int(constant.attributes["value"]) == 2
        with pytest.raises(ValueError, match="expected a 'arith.addi' operation"):
            arith.AddIOp.parse("%c = arith.constant 2 : i32")
        with pytest.raises(ValueError, match="expected one operation, found 2"):
            ir.Operation.parse("%a = arith.constant 1 : i32\n%b = arith.constant 1 : i32")
        assert ir.Operation.parse("module {}").name == "builtin.module"
        out = io.StringIO()
        constant.print(file=out, print_generic_op_form=True)
        assert out.getvalue().startswith('%0 = "arith.constant"()')
        constant.print()
        assert capsys.readouterr().out.startswith("%c2_i32 = arith.constant 2 : i32")
        assert float(ir.FloatAttr.get_f64(1.5)) == 1.5
        assert str(ir.Location.fused([ir.Location.file("a", 1, 1)])) == 'loc("a":1:1)'
        assert str(ir.Location.fused([])) == "loc(unknown)"
        module_op = builtin.ModuleOp()
        assert isinstance(module_op, builtin.ModuleOp) and len(module_op.body.operations) == 0
        assert list(ir.DenseBoolArrayAttr.get([True, False])) == [True, False]
        assert list(ir.DenseI8ArrayAttr.get([-1, 2])) == [-1, 2]
        dense_bool = ir.DenseElementsAttr.get(np.array([True, False]))
        assert [dense_bool[i] for i in range(2)] == [1, 0]
        assert constant.get_asm(binary=True) == str(constant).encode()
        assert [a.value for a in constant.attributes.values()] == [2]
        assert ir.UnrankedMemRefType.get(ir.F32Type.get(), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)).memory_space.value == 1
        dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
        assert ir.MemRefType.get([2], ir.F32Type.get()).is_dynamic_stride_or_offset(dynamic)
        target = ir.Module.create()
        target.body.append(constant)  # from no block
        source = ir.Module.parse("%x = arith.constant 3 : i64")
        moved = source.body.operations[0]
        target.body.append(moved)  # from another module's block
        assert [op.operation.name for op in target.body.operations] == ["arith.constant"] * 2
        assert moved.is_valid and len(source.body.operations) == 0
    with ir.Context():
        region_holder = ir.Module.parse("module {}")
        # Block arguments without a current Location are at an unknown one.
        block = region_holder.operation.regions[0].blocks.append(ir.F32Type.get(context=region_holder.context))
        assert len(block.arguments) == 1


# --- regressions found in review ------------------------------------------------


def test_erase_is_refused_while_block_arguments_or_blocks_are_used_outside() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f(%x: i64) { return }\nfunc.func @g() { cf.br ^bb1\n^bb1:\n return }")
        f, g = module.body.operations[0], module.body.operations[1]
        argument = f.regions[0].blocks[0].arguments[0]
        outside = ir.Operation.create("arith.addi", results=[argument.type], operands=[argument, argument])
        with pytest.raises(ValueError, match="block arguments or blocks are still used"):
            f.erase()
        target = g.regions[0].blocks[1]
        branch = ir.Operation.create("cf.br", successors=[target])
        with pytest.raises(ValueError, match="block arguments or blocks are still used"):
            g.erase()
        outside.erase()
        branch.erase()
        f.erase()
        g.erase()
        assert len(module.body.operations) == 0


def test_a_successor_keeps_its_module_alive() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f() { cf.br ^bb1\n^bb1:\n return }")
        target = module.body.operations[0].regions[0].blocks[1]
        branch = ir.Operation.create("cf.br", successors=[target])
        del module, target
        gc.collect()
        ir.Module.create()  # takes the context lock: dead modules are destroyed
        assert branch.is_valid and branch.successors[0].owner.operation.name == "func.func"
        branch.erase()


def test_blocks_and_arguments_erased_by_a_pipeline_are_invalid() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse(
            "func.func @f(%c: i1) -> i64 {\n  %z = arith.constant 0 : i64\n  cf.br ^bb2(%z : i64)\n"
            "^bb1(%x: i64):\n  cf.br ^bb2(%x : i64)\n^bb2(%y: i64):\n  return %y : i64\n}"
        )
        f = module.body.operations[0].operation.detach_from_parent()  # a top-level operation
        dead_block = f.regions[0].blocks[1]
        dead_argument = dead_block.arguments[0]
        PassManager.parse("func.func(canonicalize)", context=f.context).run(f)
        assert f.is_valid
        with pytest.raises(RuntimeError, match="no longer valid"):
            dead_argument.type
        with pytest.raises(RuntimeError, match="no longer valid"):
            str(dead_block)


def test_a_python_pass_changes_only_what_lies_inside_its_operation() -> None:
    with ir.Context():
        module = ir.Module.parse("func.func @f() { return }\nfunc.func @g() { return }")

        def erase_self(op: ir.Operation) -> None:
            op.erase()

        pm = PassManager("func.func")
        pm.add(erase_self)
        with pytest.raises(ir.MLIRError, match="may only change what lies inside"):
            pm.run(module.body.operations[0])
        # Inside its own operation it may change anything.
        def add_attribute(op: ir.Operation) -> None:
            op.attributes["plait.seen"] = True

        pm = PassManager("func.func")
        pm.add(add_attribute)
        pm.run(module.body.operations[1])
        assert "plait.seen" in str(module)


def test_an_outside_user_made_by_a_python_pass_fails_it() -> None:
    kept: list = []

    def make_outside_user(module_op: ir.Operation) -> None:
        g = module_op.regions[0].blocks[0].operations[0]
        argument = g.regions[0].blocks[0].arguments[0]
        with ir.Location.unknown():
            kept.append(ir.Operation.create("arith.addi", results=[argument.type], operands=[argument, argument]))

    with ir.Context():
        module = ir.Module.parse("func.func private @g(%x: i64) { return }")
        pm = PassManager()
        pm.add(make_outside_user)
        pm.add("symbol-dce")
        with pytest.raises(ir.MLIRError, match="left operations outside the module using values"):
            pm.run(module)
        assert "func.func private @g" in str(module), "symbol-dce did not run"
        kept.clear()


def test_ir_of_another_context_is_refused() -> None:
    other = ir.Context()
    with ir.Context(), ir.Location.unknown():
        foreign = ir.IntegerType.get_signless(32, context=other)
        with pytest.raises(ValueError, match="result type belongs to a different Context"):
            ir.Operation.create("arith.constant", results=[foreign])
        module = ir.Module.create()
        with pytest.raises(ValueError, match="belongs to a different Context"):
            module.operation.attributes["x"] = ir.UnitAttr.get(context=other)
        with pytest.raises(ValueError, match="belongs to a different Context"):
            module.body.add_argument(foreign)
        with pytest.raises(ValueError, match="belongs to a different Context"):
            ir.FunctionType.get([foreign], [])
        with pytest.raises(TypeError, match="not of the expected plait.ir type"):
            ir.Operation.create("arith.constant", loc=3)
    del other


def detach_and_maybe_reinsert(reinsert: bool, replace: bool) -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f(%a: i64) -> i64 {\n  %b = arith.addi %a, %a : i64\n  return %b : i64\n}")
        block = module.body.operations[0].regions[0].blocks[0]
        add, ret = block.operations[0], block.operations[1]
        if replace:
            # The rewrite pattern: a replacement built in no block, then used.
            twice = ir.Operation.create("arith.muli", results=[add.result.type], operands=[add.lhs, add.lhs])
            add.result.replace_all_uses_with(twice.result)
            add.erase()
            if reinsert:
                ir.InsertionPoint(ret).insert(twice)
            return
        add.detach_from_parent()  # uses %a of the function, %b is used by return
        if reinsert:
            add.move_before(ret)


@pytest.mark.parametrize("reinsert", [False, True])
@pytest.mark.parametrize("replace", [False, True])
def test_modules_that_need_each_other_are_freed(reinsert: bool, replace: bool) -> None:
    # The conftest fixture checks that no native Context outlives the test:
    # the detached operation and its module must not keep each other alive.
    detach_and_maybe_reinsert(reinsert, replace)


# --- regressions found in the second review -------------------------------------------


def test_an_extra_operation_moves_with_the_module_it_belongs_to() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f(%a: i64) -> i64 {\n  %b = arith.addi %a, %a : i64\n  return %b : i64\n}")
        add = module.body.operations[0].regions[0].blocks[0].operations[0]
        add.operation.detach_from_parent()  # needs the function and is needed by it
        holder = ir.Module.create()
        ir.InsertionPoint(holder.body).insert(module.operation)
        del module, holder
        gc.collect()
        ir.Module.create()  # takes the context lock: dead modules are destroyed
        assert add.is_valid and add.operands[0].owner.owner.operation.name == "func.func"


def test_references_follow_a_fold_made_while_inserting() -> None:
    ctx = custom_context()
    with ctx, ir.Location.unknown():
        i64 = ir.IntegerType.get_signless(64)
        first = ir.Module.parse('%c = "t.c"() : () -> i64\n"t.sink"(%c) : (i64) -> ()')
        c, sink = first.body.operations[0], first.body.operations[1]
        holder = ir.Operation.create("t.holder", results=[i64], regions=1)
        holder_block = holder.regions[0].blocks.append()
        sink.operands[0] = holder.result
        produced = ir.Operation.create("t.p", results=[i64], operands=[c.result])
        second = ir.Module.parse('%x = "t.x"() : () -> i64\n"t.sink2"(%x) : (i64) -> ()')
        second.body.operations[1].operands[0] = produced.result
        ir.InsertionPoint(holder_block).insert(produced)  # folds the holder into `first`
        del first, c, sink, holder, holder_block, produced
        gc.collect()
        ir.Module.create()
        user = second.body.operations[1]
        assert user.operands[0].owner.name == "t.p"  # still there: kept alive by `second`
        del second, user
    del ctx
    gc.collect()


def test_a_moved_block_stays_alive_for_its_branches() -> None:
    with custom_context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f() {\n  cf.br ^bb1\n^bb1:\n  return\n}")
        block = module.body.operations[0].regions[0].blocks[1]
        holder = ir.Operation.create("t.holder", regions=1)
        block.append_to(holder.regions[0])
        del block, holder
        gc.collect()
        ir.Module.create()
        branch = module.body.operations[0].regions[0].blocks[0].operations[0]
        assert branch.successors[0].owner.name == "t.holder"


def test_a_python_pass_may_make_and_drop_temporaries() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func private @g(%x: i64) { return }")

        def temporaries(op: ir.Operation) -> None:
            g = op.regions[0].blocks[0].operations[0]
            x = g.regions[0].blocks[0].arguments[0]
            erased = ir.Operation.create("arith.addi", results=[x.type], operands=[x, x])
            erased.erase()
            dropped = ir.Operation.create("arith.addi", results=[x.type], operands=[x, x])
            del dropped
            gc.collect()  # destroyed at once: native passes come next

        pm = PassManager()
        pm.add(temporaries)
        pm.add("symbol-dce")
        pm.run(module)
        assert "@g" not in str(module)


def test_values_shared_from_outside_a_module_refuse_pipelines() -> None:
    with ir.Context(), ir.Location.unknown():
        module = ir.Module.parse("func.func @f() {\n  return\n}\nfunc.func @g() {\n  return\n}")
        shared = arith.ConstantOp(ir.IntegerType.get_signless(64), 1)  # in no block
        for f in list(module.body.operations):
            with ir.InsertionPoint.at_block_terminator(f.regions[0].blocks[0]):
                ir.Operation.create("arith.addi", results=[shared.result.type], operands=[shared, shared])
        with pytest.raises(ValueError, match="use values defined outside it"):
            PassManager.parse("builtin.module(func.func(canonicalize))").run(module)


def test_diagnostic_handlers_and_nested_pipelines_cannot_change_walked_ir() -> None:
    with ir.Context() as ctx, ir.Location.unknown():
        module = ir.Module.parse("func.func @f() {\n  return\n}\nfunc.func private @dead() {\n  return\n}")
        refused: list = []

        def handler(diagnostic: ir.Diagnostic) -> bool:
            try:
                module.operation.attributes["plait.touched"] = True
            except ValueError as error:
                refused.append(str(error))
            return True

        with ctx.attach_diagnostic_handler(handler):
            module.operation.emit_warning("look")
        assert refused and "diagnostic handler" in refused[0]

        def escape(op: ir.Operation) -> None:
            PassManager.parse("builtin.module(symbol-dce)").run(op.parent)

        pm = PassManager("func.func")
        pm.add(escape)
        with pytest.raises(ir.MLIRError, match="may only change what lies inside"):
            pm.run(module.body.operations[1])
