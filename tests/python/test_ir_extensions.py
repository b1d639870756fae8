"""Dialects and operations defined in Python, and MemoryEffectsOpInterface /
ConditionallySpeculatable implemented in Python: queried from Python and by
native passes (cse, canonicalize, loop-invariant-code-motion) while a pipeline
runs detached, re-attaching for each call."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from conftest import run_in_threads
from plait import ir
from plait.dialects import arith, ext, func, memref, scf
from plait.passmanager import PassManager
from plait.testing import rendezvous, unique_barrier_id


class Toy(ext.Dialect, name="toy"):
    pass


class SquareOp(Toy.Operation, name="square", traits=[ext.Pure, ext.SameOperandsAndResultType]):
    x = ext.Operand()
    result = ext.Result()


class PrintOp(Toy.Operation, name="print"):
    value = ext.Operand("f64")

    def get_effects(self) -> list:
        return [ir.MemoryEffectInstance(ir.MemoryEffect.Write, resource=ir.SideEffectResource.get("stdout"))]


class LoadOp(Toy.Operation, name="load"):
    """Reads memory: removable when unused, never hoisted (not speculatable)."""

    source = ext.Operand()
    result = ext.Result("f64")

    def get_effects(self) -> list:
        return [ir.MemoryEffectInstance(ir.MemoryEffect.Read, value=self.source)]

    def get_speculatability(self) -> ir.Speculatability:
        return ir.Speculatability.NotSpeculatable


class CallCounterOp(Toy.Operation, name="count_call"):
    """Writes a global known by symbol, and allocates in the scope."""

    def get_effects(self) -> list:
        return [
            ir.MemoryEffectInstance(ir.MemoryEffect.Write, symbol=ir.FlatSymbolRefAttr.get("counter")),
            ir.MemoryEffectInstance(ir.MemoryEffect.Allocate, resource=ir.SideEffectResource.automatic_allocation_scope()),
        ]


class PositiveOp(Toy.Operation, name="positive"):
    value = ext.Operand()
    result = ext.Result()

    def verify_invariants(self) -> None:
        if "strict" in self.attributes and not ir.BoolAttr(self.attributes["strict"]).value:
            raise ValueError("strict must be true when given")


class ReturnOp(Toy.Operation, name="return", traits=[ext.IsTerminator]):
    value = ext.Operand()


class BoomOp(Toy.Operation, name="boom"):
    x = ext.Operand()
    result = ext.Result()

    def get_effects(self) -> list:
        raise RuntimeError("boom")


def body_names(func_op: func.FuncOp) -> list[str]:
    return [op.operation.name for op in func_op.entry_block.operations]


def build(body, *inputs: ir.Type) -> tuple[ir.Module, func.FuncOp]:
    """A module with one function `f` whose body `body` emits."""
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        built = func.FuncOp.from_py_func(*inputs, name="f")(body)
    return module, built.func_op


def run(module: ir.Module, pipeline: str) -> None:
    PassManager.parse(f"builtin.module({pipeline})", context=module.context).run(module)


# --- Python-defined operations -----------------------------------------------------


def test_python_defined_operations_build_print_parse_and_verify() -> None:
    with ir.Context(), ir.Location.unknown():
        Toy.load()
        f64 = ir.F64Type.get()

        def body(x: ir.Value) -> None:
            squared = SquareOp(x)
            assert isinstance(squared, SquareOp) and squared.x == x and squared.result.type == f64
            PrintOp(squared)

        module, f = build(body, f64)
        assert module.operation.verify()
        text = str(module)
        assert '"toy.square"(%arg0) : (f64) -> f64' in text and '"toy.print"' in text
        again = ir.Module.parse(text)
        assert str(again) == text
        assert isinstance(again.body.operations[0].entry_block.operations[0], SquareOp)


def test_verifiers_check_counts_types_traits_and_python() -> None:
    with ir.Context(), ir.Location.file("toy.py", 4, 1):
        Toy.load()
        f64, i32 = ir.F64Type.get(), ir.IntegerType.get_signless(32)
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            x = arith.ConstantOp(f64, 1.0)
            n = arith.ConstantOp(i32, 1)
            wrong_count = ir.Operation.create("toy.square", results=[f64], operands=[x, x])
            wrong_type = PrintOp(n)
            mixed = ir.Operation.create("toy.square", results=[i32], operands=[x])
            rejected = PositiveOp(x, result=f64, strict=ir.BoolAttr.get(False))
            accepted = PositiveOp(x, result=f64, strict=ir.BoolAttr.get(True))
        checks = [
            (wrong_count, "'toy.square' op expects 1 operands, got 2"),
            (wrong_type, "operand 'value' must be f64, not i32"),
            (mixed, "requires the same type for all operands and results"),
            (rejected, "ValueError: strict must be true when given"),
        ]
        for op, message in checks:
            with pytest.raises(ir.MLIRError) as info:
                op.verify()
            assert any(message in d.message for d in info.value.error_diagnostics), info.value
            assert info.value.error_diagnostics[0].location == "toy.py:4:1"
        assert accepted.verify()
        with pytest.raises(TypeError, match="needs the type of its result 'result'"):
            PositiveOp(x)
        with pytest.raises(TypeError, match="takes 1 operands, got 2"):
            SquareOp(x, x)


def test_terminator_trait_ends_blocks() -> None:
    with ir.Context(), ir.Location.unknown():
        Toy.load()
        f64 = ir.F64Type.get()
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            f = func.FuncOp("f", ([f64], [f64]))
            with ir.InsertionPoint(f.add_entry_block()):
                ReturnOp(f.arguments[0])
        block = f.entry_block
        assert ir.InsertionPoint.at_block_terminator(block).ref_operation.operation.name == "toy.return"
        with pytest.raises(IndexError, match="already has a terminator"):
            with ir.InsertionPoint(block):
                PrintOp(f.arguments[0])
        # Put after the terminator another way, the verifier rejects it.
        with ir.InsertionPoint.at_block_terminator(block):
            late = PrintOp(f.arguments[0])
        late.operation.move_after(block.operations[1])
        with pytest.raises(ir.MLIRError, match="must be the last operation"):
            module.operation.verify()


def test_builders_take_the_context_of_an_explicit_location() -> None:
    ctx = ir.Context()
    Toy.load(ctx)
    loc = ir.Location.unknown(context=ctx)
    module = ir.Module.create(loc=loc)
    source = ir.Operation.create("arith.constant", results=[ir.F64Type.get(context=ctx)],
                                 attributes={"value": ir.FloatAttr.get_f64(1.0, context=ctx)}, loc=loc,
                                 ip=ir.InsertionPoint(module.body))
    loaded = LoadOp(source.result, loc=loc, ip=ir.InsertionPoint(module.body))  # no current context
    assert str(loaded.result.type) == "f64"
    del module, source, loaded, loc, ctx


def test_loading_twice_or_into_a_builtin_dialect_is_refused() -> None:
    class Arith(ext.Dialect, name="arith"):
        pass

    class Fake(Arith.Operation, name="fake"):
        pass

    with ir.Context():
        Toy.load()
        with pytest.raises(ValueError, match="'toy.square' is already registered"):
            Toy.load()
        with pytest.raises(ValueError, match="'arith' is a built-in dialect"):
            Arith.load()
    with pytest.raises(TypeError, match="unknown trait"):

        class Bad(Toy.Operation, name="bad", traits=["Pure"]):  # type: ignore[list-item]
            pass


# --- the interfaces, asked from Python ----------------------------------------------


def test_effects_and_speculatability_queried_from_python() -> None:
    with ir.Context(), ir.Location.unknown():
        Toy.load()
        f64, index = ir.F64Type.get(), ir.IndexType.get()
        buffer = ir.MemRefType.get([4], f64)

        def body(b: ir.Value, i: ir.Value) -> None:
            memref.LoadOp(b, [i])
            arith.DivSIOp(i, i)
            square = SquareOp(arith.ConstantOp(f64, 2.0))
            PrintOp(square)
            LoadOp(b)
            CallCounterOp()

        _, f = build(body, buffer, index)
        load, divide, constant, square, printer, toy_load, counter = list(f.entry_block.operations)[:7]
        write, allocate = ir.MemoryEffectsOpInterface(counter).get_effects()
        assert write.effect == ir.MemoryEffect.Write and write.symbol == ir.FlatSymbolRefAttr.get("counter")
        assert allocate.effect == ir.MemoryEffect.Allocate and allocate.value is None
        assert allocate.resource == ir.SideEffectResource.automatic_allocation_scope()
        [read] = ir.MemoryEffectsOpInterface(load).get_effects()
        assert read.effect == ir.MemoryEffect.Read and read.value == f.arguments[0]
        assert ir.MemoryEffectsOpInterface(square).get_effects() == []
        assert ir.MemoryEffectsOpInterface(printer).get_effects() == [
            ir.MemoryEffectInstance(ir.MemoryEffect.Write, resource=ir.SideEffectResource.get("stdout"))
        ]
        assert ir.MemoryEffectsOpInterface(toy_load).get_effects()[0].value == f.arguments[0]
        speculate = ir.ConditionallySpeculatable
        assert speculate(divide).get_speculatability() == ir.Speculatability.NotSpeculatable
        assert speculate(constant).get_speculatability() == ir.Speculatability.Speculatable
        assert speculate(square).get_speculatability() == ir.Speculatability.Speculatable
        assert speculate(toy_load).get_speculatability() == ir.Speculatability.NotSpeculatable
        with pytest.raises(ValueError, match="does not implement ConditionallySpeculatable"):
            speculate(printer)
        with pytest.raises(ValueError, match="does not implement MemoryEffectsOpInterface"):
            ir.MemoryEffectsOpInterface(f)


# --- the interfaces, asked by native passes -------------------------------------------


def test_native_passes_use_python_defined_effects() -> None:
    with ir.Context(), ir.Location.unknown():
        Toy.load()
        f64 = ir.F64Type.get()
        buffer = ir.MemRefType.get([4], f64)

        def body(b: ir.Value, x: ir.Value) -> None:
            first = SquareOp(x)
            second = SquareOp(x)  # cse: same as first
            SquareOp(x)  # unused and pure: removed
            PrintOp(first)
            PrintOp(second)  # a write: kept
            LoadOp(b)  # unused read: removed
            PrintOp(x)

        module, f = build(body, buffer, f64)
        run(module, "func.func(cse,canonicalize)")
        f = module.body.operations[0]
        assert body_names(f) == ["toy.square", "toy.print", "toy.print", "toy.print", "func.return"]


def test_loop_invariant_code_motion_hoists_only_speculatable_effect_free_ops() -> None:
    with ir.Context(), ir.Location.unknown():
        Toy.load()
        f64, index = ir.F64Type.get(), ir.IndexType.get()

        def body(x: ir.Value, n: ir.Value) -> None:
            c0, c1 = arith.ConstantOp.create_index(0), arith.ConstantOp.create_index(1)
            loop = scf.ForOp(c0, n, c1)
            with ir.InsertionPoint(loop.body):
                squared = SquareOp(x)  # pure: hoisted
                PrintOp(squared)  # writes: stays
                scf.YieldOp([])

        module, _ = build(body, f64, index)
        run(module, "func.func(loop-invariant-code-motion)")
        f = module.body.operations[0]
        names = body_names(f)
        assert names.index("toy.square") < names.index("scf.for"), names
        loop = [op for op in f.entry_block.operations if op.operation.name == "scf.for"][0]
        assert [op.operation.name for op in loop.regions[0].blocks[0].operations] == ["toy.print", "scf.yield"]


class PureCall(ir.MemoryEffectsOpInterface):
    """Declares every func.call free of memory effects."""

    def get_effects(self, op: ir.Operation) -> list:
        assert op.operation.name == "func.call"
        return []


class SpeculatableCall(ir.ConditionallySpeculatable):
    def get_speculatability(self, op: ir.Operation) -> ir.Speculatability:
        return ir.Speculatability.Speculatable


CALLS = """
func.func private @cost(f64) -> f64
func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = func.call @cost(%x) : (f64) -> f64
  %b = func.call @cost(%x) : (f64) -> f64
  %unused = func.call @cost(%x) : (f64) -> f64
  %s = arith.addf %a, %b : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s) -> (f64) {
    %c = func.call @cost(%x) : (f64) -> f64
    %t = arith.addf %acc, %c : f64
    scf.yield %t : f64
  }
  return %r : f64
}
"""


def call_counts(module: ir.Module) -> tuple[int, int]:
    text = str(module)
    loop_text = text[text.index("scf.for") :]
    return text.count("call @cost"), loop_text.count("call @cost")


def test_models_attached_to_a_registered_operation_drive_native_passes() -> None:
    pipeline = "func.func(cse,canonicalize,loop-invariant-code-motion)"
    with ir.Context():
        module = ir.Module.parse(CALLS)
        run(module, pipeline)
        assert call_counts(module) == (4, 1), "without models, calls are left alone"
    with ir.Context():
        model = PureCall.attach("func.call")
        SpeculatableCall.attach("func.call")
        module = ir.Module.parse(CALLS)
        run(module, pipeline)
        # cse merged the calls (the loop's too: the first dominates it), and
        # canonicalize dropped the unused one.
        assert call_counts(module) == (1, 0)
        module = ir.Module.parse(CALLS)
        run(module, "func.func(loop-invariant-code-motion)")
        assert call_counts(module) == (4, 0), "the loop's call was hoisted"
        assert isinstance(model, PureCall)
        with pytest.raises(ValueError, match="already implements MemoryEffectsOpInterface"):
            PureCall.attach("arith.addi")
        with pytest.raises(ValueError, match="not a registered operation"):
            PureCall.attach("nope.op")
        with pytest.raises(TypeError, match="overrides get_effects"):
            ir.MemoryEffectsOpInterface.attach("func.call")


def test_a_failing_model_fails_the_pipeline_and_leaves_the_process_healthy() -> None:
    with ir.Context(), ir.Location.unknown():
        Toy.load()
        f64 = ir.F64Type.get()
        def body(x: ir.Value) -> None:
            BoomOp(x, result=f64)

        module, _ = build(body, f64)
        with pytest.raises(ir.MLIRError) as info:
            run(module, "func.func(canonicalize)")
        messages = [d.message for d in info.value.error_diagnostics]
        assert any(
            "the Python model of MemoryEffectsOpInterface for 'toy.boom' failed: RuntimeError: boom" in m
            for m in messages
        ), messages
        # Conservative answer: the op stayed, and the context works on.
        assert "toy.boom" in str(module)
        with pytest.raises(ir.MLIRError, match="get_effects failed"):
            ir.MemoryEffectsOpInterface(module.body.operations[0].entry_block.operations[0]).get_effects()
        assert module.operation.verify()
        run(module, "func.func(loop-invariant-code-motion)")  # no loop: not asked


def test_model_objects_die_with_their_context() -> None:
    ctx = ir.Context()
    model = weakref.ref(PureCall.attach("func.call", context=ctx))
    assert model() is not None
    del ctx
    gc.collect()
    assert model() is None


# --- threads: models called from pipelines running detached ----------------------------


class MeetingCall(ir.MemoryEffectsOpInterface):
    """Meets the other thread's model inside a model call: proves that both
    pipelines are inside Python models at once."""

    barrier = ""

    def get_effects(self, op: ir.Operation) -> list:
        if not getattr(self, "met", False):  # once per model (per thread)
            self.met = True
            rendezvous(MeetingCall.barrier, 2, 30.0)
        return []


def test_two_pipelines_call_python_models_at_the_same_time() -> None:
    MeetingCall.barrier = str(unique_barrier_id())

    def body(i: int) -> int:
        with ir.Context():
            MeetingCall.attach("func.call")
            module = ir.Module.parse(CALLS)
            run(module, "func.func(canonicalize)")
            return call_counts(module)[0]

    assert run_in_threads(2, body) == [3, 3]


class HandshakeCall(ir.MemoryEffectsOpInterface):
    barrier = ""
    met = False

    def get_effects(self, op: ir.Operation) -> list:
        if not HandshakeCall.met:
            HandshakeCall.met = True
            rendezvous(HandshakeCall.barrier, 2, 30.0)
        return []


def test_a_model_call_cannot_deadlock_with_a_thread_holding_the_gil() -> None:
    """The pipeline thread holds the context lock and needs the GIL for each
    model call; the main thread holds the GIL and asks for the context lock.
    The main thread must wait without the GIL, or both would wait forever."""
    HandshakeCall.barrier = str(unique_barrier_id())
    HandshakeCall.met = False
    with ir.Context():
        HandshakeCall.attach("func.call")
        module = ir.Module.parse(CALLS)
        done = threading.Event()
        errors: list[BaseException] = []

        def pipeline() -> None:
            try:
                run(module, "func.func(canonicalize,cse)")
            except BaseException as error:  # noqa: BLE001 - reported below
                errors.append(error)
            done.set()

        worker = threading.Thread(target=pipeline)
        worker.start()
        # Meet the pipeline inside its first model call: it holds the context
        # lock from here until it finishes, and calls the model again.
        rendezvous(HandshakeCall.barrier, 2, 30.0)
        text = str(module)  # waits for the context lock
        worker.join(60)
        assert not worker.is_alive() and done.is_set()
        assert not errors, errors
        # str() waited for the whole pipeline: it saw the merged calls.
        assert text == str(module) and text.count("call @cost") == 1


# --- regressions found in review ---------------------------------------------------


class ScopeOp(Toy.Operation, name="scope", traits=[ext.IsolatedFromAbove, ext.NoTerminator]):
    body = ext.Region()


class KeepingLoad(ir.MemoryEffectsOpInterface):
    """Keeps the handles it is given, changes IR, or returns stale values,
    depending on `mode`."""

    mode = "keep"
    kept: list = []

    def get_effects(self, op: ir.Operation) -> list:
        if KeepingLoad.mode == "keep":
            KeepingLoad.kept.append(op)
            return [ir.MemoryEffectInstance(ir.MemoryEffect.Read)]
        if KeepingLoad.mode == "change":
            op.attributes["plait.touched"] = True
        if KeepingLoad.mode == "create":  # a new use of the IR being walked
            ir.Operation.create("func.return", operands=[op.operands[0]], loc=ir.Location.unknown(op.context))
        stale = KeepingLoad.kept[0].result
        return [ir.MemoryEffectInstance(ir.MemoryEffect.Read, value=stale)]


MANY_CALLS = "\n".join(
    ["func.func private @cost(f64) -> f64"]
    + [
        f"func.func @f{i}(%x: f64) -> f64 {{\n  %a = func.call @cost(%x) : (f64) -> f64\n"
        f"  %b = func.call @cost(%x) : (f64) -> f64\n  return %x : f64\n}}"
        for i in range(4)
    ]
)


def test_models_see_read_only_ir_and_handles_valid_only_during_the_call() -> None:
    with ir.Context():
        KeepingLoad.attach("func.call")
        module = ir.Module.parse(MANY_CALLS)
        KeepingLoad.mode, KeepingLoad.kept = "keep", []
        run(module, "func.func(canonicalize)")  # several functions: worker threads
        assert KeepingLoad.kept and not any(op.is_valid for op in KeepingLoad.kept)
        module = ir.Module.parse(MANY_CALLS)
        for mode, message in (("change", "IR cannot be changed from a verifier"),
                              ("create", "IR cannot be changed from a verifier"),
                              ("stale", "no longer valid")):
            KeepingLoad.mode = mode
            with pytest.raises(ir.MLIRError) as info:
                run(module, "func.func(canonicalize)")
            assert any(message in d.message for d in info.value.error_diagnostics), info.value
        KeepingLoad.kept = []


def test_isolated_from_above_is_verified() -> None:
    with ir.Context():
        Toy.load()
        with pytest.raises(ir.MLIRError, match="using value defined outside the region"):
            ir.Module.parse('func.func @f(%a: i64) {\n  "toy.scope"() ({\n    %b = arith.addi %a, %a : i64\n  }) : () -> ()\n  return\n}')
        ir.Module.parse('func.func @f(%a: i64) {\n  "toy.scope"() ({\n    %b = arith.constant 1 : i64\n  }) : () -> ()\n  return\n}')
