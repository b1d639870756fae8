//===- PlaitDialect.td - the plait dialect -----------------*- tablegen -*-===//
//
// Python's semantics as MLIR operations: what the frontend says, before
// plait's passes decide how (which checks a loop needs, which remainders are
// unsigned) and the lowering turns it into arith, cf and LLVM intrinsics.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DIALECT_PLAIT_PLAITDIALECT_TD
#define PLAIT_DIALECT_PLAIT_PLAITDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"

def Plait_Dialect : Dialect {
  let name = "plait";
  let cppNamespace = "::plait::dialect";
  let summary = "Python's semantics for plait.jit";
  let description = [{
    Operations that carry CPython's meaning rather than a machine's: int64
    arithmetic that raises OverflowError (or wraps, when asked), Python's
    floor division and modulo, NumPy's wrapped and bounds-checked indices,
    raising an exception, and `range` loops with `break` and `continue` that
    stay loops until they are lowered. Values are builtin types (i64, i1,
    index, memrefs); scalar variables live in memref slots, array variables
    in `!plait.array_slot`s, and arrays plait allocates are reference-counted
    (`plait.retain`, `plait.release`).

    Raising is modelled as a write to one resource (the Python error state),
    so that passes neither drop nor reorder operations that may raise.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect"];
  let useFoldAPI = kEmitFoldAdaptorFolder;
  let hasConstantMaterializer = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

def Plait_OverflowMode : I32EnumAttr<"OverflowMode", "what an int64 overflow does", [
    I32EnumAttrCase<"check", 0>, // raises OverflowError, CPython's result does not fit
    I32EnumAttrCase<"wrap", 1>,  // two's complement (overflow='wrap')
    // Proven not to overflow (by ranges, or by a loop version's guard):
    // lowered with LLVM's nsw, which lets LLVM assume the result fits.
    I32EnumAttrCase<"proven", 2>,
  ]> {
  let cppNamespace = "::plait::dialect";
}

class Plait_Op<string mnemonic, list<Trait> traits = []>
    : Op<Plait_Dialect, mnemonic, traits>;

#endif // PLAIT_DIALECT_PLAIT_PLAITDIALECT_TD
