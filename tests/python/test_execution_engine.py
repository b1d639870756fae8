"""plait.execution_engine: compile, marshal by signature, call."""

from __future__ import annotations

import array
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ADD_MODULE
from plait import ir
from plait.execution_engine import ExecutionEngine
from plait.passmanager import LOWER_TO_LLVM, PassManager

SCALARS = """
func.func @add(%a: i64, %b: i64) -> i64 {
  %0 = arith.addi %a, %b : i64
  return %0 : i64
}
func.func @narrow(%a: i8, %b: i16, %c: i32) -> i32 {
  %a32 = arith.extsi %a : i8 to i32
  %b32 = arith.extsi %b : i16 to i32
  %s = arith.addi %a32, %b32 : i32
  %r = arith.addi %s, %c : i32
  return %r : i32
}
func.func @hyp(%x: f64, %y: f64) -> f64 {
  %xx = arith.mulf %x, %x : f64
  %yy = arith.mulf %y, %y : f64
  %s = arith.addf %xx, %yy : f64
  %r = math.sqrt %s : f64
  return %r : f64
}
func.func @half(%x: f32) -> f32 {
  %c = arith.constant 0.5 : f32
  %r = arith.mulf %x, %c : f32
  return %r : f32
}
func.func @negate(%b: i1) -> i1 {
  %t = arith.constant true
  %r = arith.xori %b, %t : i1
  return %r : i1
}
func.func @divmod(%a: index, %b: index) -> (index, index) {
  %q = arith.floordivsi %a, %b : index
  %r = arith.remsi %a, %b : index
  return %q, %r : index, index
}
func.func @nothing() {
  return
}
func.func @libm(%x: f64) -> f64 {
  %r = math.atan2 %x, %x : f64
  return %r : f64
}
"""

ARRAYS = """
func.func @sum2d(%a: memref<?x?xf64, strided<[?, ?], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  %m = memref.dim %a, %c1 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %row = scf.for %j = %c0 to %m step %c1 iter_args(%acc2 = %acc) -> f64 {
      %x = memref.load %a[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
      %s = arith.addf %acc2, %x : f64
      scf.yield %s : f64
    }
    scf.yield %row : f64
  }
  return %r : f64
}
func.func @scale(%a: memref<?xi32, strided<[?], offset: ?>>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xi32, strided<[?], offset: ?>>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32, strided<[?], offset: ?>>
    %y = arith.muli %x, %k : i32
    memref.store %y, %a[%i] : memref<?xi32, strided<[?], offset: ?>>
  }
  return
}
func.func @fixed(%a: memref<3xf32>) -> f32 {
  %c2 = arith.constant 2 : index
  %x = memref.load %a[%c2] : memref<3xf32>
  return %x : f32
}
func.func @iota(%n: index) -> memref<?xi64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xi64>
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    memref.store %v, %a[%i] : memref<?xi64>
  }
  return %a : memref<?xi64>
}
func.func @same(%a: memref<?xf64>) -> memref<?xf64> {
  return %a : memref<?xf64>
}
func.func @first(%a: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %a[%c0, %c1] : memref<?x?xf64>
  return %x : f64
}
"""


@pytest.fixture(scope="module")
def scalars() -> ExecutionEngine:
    module = ir.Module.parse(SCALARS, context=ir.Context())
    return ExecutionEngine(module, pipeline="plait-lower-to-llvm")


@pytest.fixture(scope="module")
def arrays() -> ExecutionEngine:
    module = ir.Module.parse(ARRAYS, context=ir.Context())
    return ExecutionEngine(module, opt_level=3, pipeline=LOWER_TO_LLVM)


@pytest.fixture(autouse=True)
def no_context_leaks() -> None:
    """Module-scoped engines own contexts across tests in this file; the leak
    check of conftest runs in test_engines_leave_no_context instead."""


def test_scalar_calls(scalars: ExecutionEngine) -> None:
    assert scalars.invoke("add", 40, 2) == 42
    assert scalars.invoke("add", -(2**63), 2**63 - 1) == -1
    assert scalars.invoke("narrow", -128, 30000, 7) == 29879
    assert scalars.invoke("hyp", 3.0, 4) == 5.0
    assert scalars.invoke("half", 3.0) == 1.5
    assert scalars.invoke("negate", True) is False
    assert scalars.invoke("divmod", -7, 2) == (-4, -1)
    assert scalars.invoke("nothing") is None
    assert scalars.invoke("libm", 1.0) == pytest.approx(math.atan2(1.0, 1.0))
    assert set(scalars.functions) >= {"add", "narrow", "hyp", "nothing"}
    assert scalars.lookup("add") > 0


@given(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**63), 2**63 - 1))
@settings(max_examples=200, deadline=None)
def test_add_wraps_like_int64(scalars: ExecutionEngine, a: int, b: int) -> None:
    expected = (a + b + 2**63) % 2**64 - 2**63
    assert scalars.invoke("add", a, b) == expected


@given(st.floats(allow_nan=False, allow_infinity=False, width=64), st.floats(allow_nan=False, width=64))
@settings(max_examples=200, deadline=None)
def test_hypot_matches_python(scalars: ExecutionEngine, x: float, y: float) -> None:
    assert scalars.invoke("hyp", x, y) == math.sqrt(x * x + y * y)


def test_wrong_arguments_are_type_errors(scalars: ExecutionEngine) -> None:
    with pytest.raises(TypeError, match="takes 2 arguments but 1"):
        scalars.invoke("add", 1)
    with pytest.raises(TypeError, match="argument 2 of add"):
        scalars.invoke("add", 1, "two")
    with pytest.raises(TypeError, match="argument 1 of add"):
        scalars.invoke("add", 1.5, 2)
    with pytest.raises(TypeError, match="argument 1 of hyp"):
        scalars.invoke("hyp", None, 1.0)
    with pytest.raises(TypeError):
        scalars.invoke("negate", 2)
    with pytest.raises(OverflowError):
        scalars.invoke("narrow", 128 * 2, 0, 0)
    with pytest.raises(OverflowError):
        scalars.invoke("add", 2**80, 0)
    with pytest.raises(KeyError, match="no_such_function"):
        scalars.invoke("no_such_function")
    with pytest.raises(KeyError):
        scalars.lookup("no_such_function")
    assert scalars.invoke("add", np.int64(5), True) == 6


def test_arrays_are_passed_zero_copy_with_strides(arrays: ExecutionEngine) -> None:
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert arrays.invoke("sum2d", a) == a.sum()
    assert arrays.invoke("sum2d", a.T) == a.sum()
    assert arrays.invoke("sum2d", a[::2, 1::2]) == a[::2, 1::2].sum()
    assert arrays.invoke("sum2d", np.asfortranarray(a)) == a.sum()
    assert arrays.invoke("sum2d", np.empty((0, 5))) == 0.0
    b = np.arange(10, dtype=np.int32)
    view = b[1::3]
    arrays.invoke("scale", view, -2)
    assert b.tolist() == [0, -2, 2, 3, -8, 5, 6, -14, 8, 9], "written in place"
    buffer = array.array("i", [1, 2, 3])
    arrays.invoke("scale", buffer, 10)
    assert buffer.tolist() == [10, 20, 30]
    assert arrays.invoke("fixed", np.array([1, 2, 3.5], dtype=np.float32)) == 3.5


def test_identity_layout_takes_contiguous_rows_only(arrays: ExecutionEngine) -> None:
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert arrays.invoke("first", a) == 1.0
    assert arrays.invoke("first", a[1:]) == 5.0, "row slices stay row-contiguous"
    with pytest.raises(ValueError, match="strided layout"):
        arrays.invoke("first", a.T)
    with pytest.raises(ValueError, match="stride 2 in dimension 1"):
        arrays.invoke("first", a[:, ::2])


def test_bad_array_arguments(arrays: ExecutionEngine) -> None:
    with pytest.raises(TypeError, match="dtype float64"):
        arrays.invoke("sum2d", np.zeros((2, 2), dtype=np.float32))
    with pytest.raises(TypeError, match="2 dimensions"):
        arrays.invoke("sum2d", np.zeros(3))
    with pytest.raises(TypeError, match="needs 3"):
        arrays.invoke("fixed", np.zeros(4, dtype=np.float32))
    with pytest.raises(TypeError, match="must be an array"):
        arrays.invoke("sum2d", [[1.0]])
    readonly = np.zeros(3, dtype=np.int32)
    readonly.setflags(write=False)
    with pytest.raises(ValueError, match="writable"):
        arrays.invoke("scale", readonly, 2)


def test_memref_results_become_owning_arrays(arrays: ExecutionEngine) -> None:
    result = arrays.invoke("iota", 5)
    assert isinstance(result, np.ndarray) and result.dtype == np.int64
    assert result.tolist() == [0, 1, 2, 3, 4]
    for _ in range(2000):  # freed when dropped: no growth (checked in stress)
        arrays.invoke("iota", 1000)
    source = np.arange(4.0)
    alias = arrays.invoke("same", source)
    alias[0] = 42.0
    assert source[0] == 42.0, "a returned argument is a view, not a copy"
    del source
    assert alias[0] == 42.0, "the view keeps its argument alive"


def test_dump_to_object_file(scalars: ExecutionEngine, tmp_path: Path) -> None:
    path = tmp_path / "add.o"
    scalars.dump_to_object_file(path)
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF"
    with pytest.raises(OSError):
        scalars.dump_to_object_file(tmp_path / "missing-dir" / "x.o")


def test_engine_creation_errors() -> None:
    ctx = ir.Context()
    unlowered = ir.Module.parse(ADD_MODULE, context=ctx)
    with pytest.raises(ir.MLIRError):
        ExecutionEngine(unlowered)
    with pytest.raises(ValueError):
        ExecutionEngine(unlowered, pipeline="no-such-pass")
    with pytest.raises(ValueError, match="opt_level"):
        ExecutionEngine(unlowered, opt_level=7, pipeline="plait-lower-to-llvm")
    with pytest.raises(ValueError, match="shared library"):
        ExecutionEngine(unlowered, shared_libs=["/nonexistent/libx.so"], pipeline="plait-lower-to-llvm")
    with pytest.raises(TypeError):
        ExecutionEngine("not a module")  # type: ignore[arg-type]
    undefined = ir.Module.parse(
        "func.func private @missing_symbol_xyz(i64) -> i64\n"
        "func.func @f(%x: i64) -> i64 {\n"
        "  %r = func.call @missing_symbol_xyz(%x) : (i64) -> i64\n"
        "  return %r : i64\n}",
        context=ctx,
    )
    with pytest.raises(ir.MLIRError, match="missing_symbol_xyz"):
        ExecutionEngine(undefined, pipeline="plait-lower-to-llvm")


def test_prelowered_module_uses_its_llvm_signature() -> None:
    with ir.Context():
        module = ir.Module.parse(ADD_MODULE)
        PassManager.parse(LOWER_TO_LLVM).run(module)
        engine = ExecutionEngine(module)
        assert engine.invoke("add", 1, 2) == 3
        raw = ir.Module.parse("llvm.func @twice(%x: i32) -> i32 {\n %r = llvm.add %x, %x : i32\n llvm.return %r : i32\n}")
        assert ExecutionEngine(raw).invoke("twice", 21) == 42


def test_shared_libs_resolve_symbols(tmp_path: Path) -> None:
    import shutil
    import subprocess

    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler, "a C compiler is part of the build requirements"
    source = tmp_path / "triple.c"
    source.write_text("long plait_test_triple(long x) { return 3 * x; }\n")
    library = tmp_path / "libtriple.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    with ir.Context():
        module = ir.Module.parse(
            "func.func private @plait_test_triple(i64) -> i64\n"
            "func.func @f(%x: i64) -> i64 {\n"
            "  %r = func.call @plait_test_triple(%x) : (i64) -> i64\n"
            "  return %r : i64\n}"
        )
        engine = ExecutionEngine(module, shared_libs=[str(library)], pipeline="plait-lower-to-llvm")
        assert engine.invoke("f", 14) == 42


def test_engines_leave_no_context() -> None:
    import gc

    def make() -> None:
        module = ir.Module.parse(ADD_MODULE, context=ir.Context())
        engine = ExecutionEngine(module, pipeline="plait-lower-to-llvm")
        assert engine.invoke("add", 1, 1) == 2

    gc.collect()
    before = ir.Context._get_live_count()
    for _ in range(5):
        make()
    gc.collect()
    assert ir.Context._get_live_count() == before
