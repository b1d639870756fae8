//===- PlaitOps.td - operations of the plait dialect -------*- tablegen -*-===//
#ifndef PLAIT_DIALECT_PLAIT_PLAITOPS_TD
#define PLAIT_DIALECT_PLAIT_PLAITOPS_TD

include "plait/Dialect/Plait/PlaitDialect.td"
include "mlir/Interfaces/InferIntRangeInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

/// Raising writes the Python error state (and then leaves the function).
def Plait_ErrorState : Resource<"::plait::dialect::ErrorStateResource">;

//===----------------------------------------------------------------------===//
// Python ints (int64)
//===----------------------------------------------------------------------===//

class Plait_IntBinaryOp<string mnemonic, list<Trait> traits = []>
    : Plait_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<InferIntRangeInterface>])> {
  let arguments = (ins I64:$lhs, I64:$rhs, Plait_OverflowMode:$overflow);
  let results = (outs I64:$result);
  let assemblyFormat = "$overflow $lhs `,` $rhs attr-dict";
  let hasFolder = 1;
}

def Plait_AddOp : Plait_IntBinaryOp<"add", [Commutative]> {
  let summary = "Python int addition";
  let description = [{
    `lhs + rhs` in int64. With `check`, a result that does not fit raises
    OverflowError (CPython's ints would grow); with `wrap`, it wraps; with
    `proven` (shown to fit by a pass), LLVM may assume it fits (nsw).
    ```mlir
    %s = plait.add check %a, %b
    ```
  }];
}

def Plait_SubOp : Plait_IntBinaryOp<"sub"> {
  let summary = "Python int subtraction";
  let description = [{ `lhs - rhs` in int64, checked or wrapping as `add`. }];
}

def Plait_MulOp : Plait_IntBinaryOp<"mul", [Commutative]> {
  let summary = "Python int multiplication";
  let description = [{ `lhs * rhs` in int64, checked or wrapping as `add`. }];
}

def Plait_FloorDivOp : Plait_IntBinaryOp<"floordiv"> {
  let summary = "Python int floor division";
  let description = [{
    `lhs // rhs`, rounded toward negative infinity. A zero divisor raises
    ZeroDivisionError; `-2**63 // -1` raises OverflowError with `check` and
    wraps with `wrap`.
  }];
}

def Plait_ModOp : Plait_IntBinaryOp<"mod"> {
  let summary = "Python int modulo";
  let description = [{
    `lhs % rhs`, with the sign of the divisor. A zero divisor raises
    ZeroDivisionError. (Never overflows: `overflow` only matters to `floordiv`.)
  }];
}

def Plait_AssumeNonNegativeOp : Plait_Op<"assume_nonnegative", [
    Pure, SameOperandsAndResultType,
    DeclareOpInterfaceMethods<InferIntRangeInterface>]> {
  let summary = "a fact established at run time: the value is >= 0";
  let description = [{
    Returns its operand, which a guard has proved non-negative (the guard of
    a versioned loop, say): range analysis and the passes that use it see the
    fact. Lowering erases it.
  }];
  let arguments = (ins I64:$input);
  let results = (outs I64:$result);
  let assemblyFormat = "$input attr-dict";
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

def Plait_IndexOp : Plait_Op<"index", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<InferIntRangeInterface>]> {
  let summary = "a NumPy index into one axis, wrapped and bounds-checked";
  let description = [{
    The position along axis `axis` (of `size` elements) that index `index`
    names: a negative index counts from the end. Outside the axis it raises
    IndexError ("index 5 is out of bounds for axis 0 with size 3"), unless
    `unchecked` (boundscheck=False: out of range is then undefined).
    `nonnegative`: the index was proved non-negative, so it does not wrap
    (plait-drop-overflow-checks).
    ```mlir
    %p = plait.index %i, %n axis 0
    ```
  }];
  let arguments = (ins I64:$index, I64:$size, I64Attr:$axis, UnitAttr:$unchecked,
                       UnitAttr:$nonnegative);
  let results = (outs Index:$result);
  let assemblyFormat = "$index `,` $size `axis` $axis (`unchecked` $unchecked^)? "
                       "(`nonnegative` $nonnegative^)? attr-dict";
  let hasFolder = 1;
}

def Plait_SliceOp : Plait_Op<"slice", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<InferIntRangeInterface>]> {
  let summary = "a Python slice of one axis: its first element, count and step";
  let description = [{
    `a[lower:upper:step]` along an axis of `size` elements, as CPython's
    PySlice_Unpack and PySlice_AdjustIndices compute it: negative bounds
    count from the end, bounds are clamped to the axis, and absent ones
    default by the step's sign (0 and `size` forwards, `size - 1` and
    before-the-start backwards). The results are the position of the first
    element (0 when the slice is empty, so that a view's offset stays in the
    array), the number of elements, and the step (1 when absent). A zero
    step raises ValueError ("slice step cannot be zero").
    ```mlir
    %first, %count, %increment = plait.slice %n lower %i step %s
    ```
  }];
  let arguments = (ins I64:$size, Optional<I64>:$lower, Optional<I64>:$upper,
                       Optional<I64>:$step);
  let results = (outs I64:$first, I64:$count, I64:$increment);
  let assemblyFormat = [{
    $size (`lower` $lower^)? (`upper` $upper^)? (`step` $step^)? attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Array variables and ownership
//===----------------------------------------------------------------------===//

/// What a reference count is: the arrays' allocations (their headers).
def Plait_ArrayOwnership : Resource<"::plait::dialect::ArrayOwnershipResource">;

def Plait_ArraySlotType : TypeDef<Plait_Dialect, "ArraySlot"> {
  let mnemonic = "array_slot";
  let summary = "a variable that holds an array (a memref descriptor)";
  let description = [{
    An array variable that is assigned more than once (in a loop, on two
    paths) lives in one of these, on the stack, as scalar variables live in
    `memref<T>` slots. Unlike a `memref<memref<...>>`, a slot starts out
    empty: its first binding has nothing to release.
  }];
  let parameters = (ins "::mlir::MemRefType":$arrayType);
  let assemblyFormat = "`<` $arrayType `>`";
}

def Plait_ArraySlotOp : Plait_Op<"array_slot", [
    MemoryEffects<[MemAlloc<AutomaticAllocationScopeResource>]>]> {
  let summary = "a stack slot for an array variable, holding no array yet";
  let description = [{
    Until the first `plait.store_array`, loading gives an array that owns
    nothing (releasing it does nothing).
    ```mlir
    %u = plait.array_slot : !plait.array_slot<memref<?xf64, strided<[1], offset: ?>>>
    ```
  }];
  let results = (outs Plait_ArraySlotType:$slot);
  let assemblyFormat = "attr-dict `:` type($slot)";
}

def Plait_LoadArrayOp : Plait_Op<"load_array", [
    TypesMatchWith<"the result is the slot's array type", "slot", "result",
                   "$_self.cast<::plait::dialect::ArraySlotType>().getArrayType()">]> {
  let summary = "the array an array variable holds";
  let arguments = (ins Arg<Plait_ArraySlotType, "", [MemRead]>:$slot);
  let results = (outs AnyMemRef:$result);
  let assemblyFormat = "$slot attr-dict `:` type($slot)";
}

def Plait_StoreArrayOp : Plait_Op<"store_array", [
    TypesMatchWith<"the value is the slot's array type", "slot", "value",
                   "$_self.cast<::plait::dialect::ArraySlotType>().getArrayType()">]> {
  let summary = "binds an array variable (the reference moves into the slot)";
  let arguments = (ins AnyMemRef:$value, Arg<Plait_ArraySlotType, "", [MemWrite]>:$slot);
  let assemblyFormat = "$value `,` $slot attr-dict `:` type($slot)";
}

def Plait_ItemSlotOp : Plait_Op<"item_slot", [Pure]> {
  let summary = "the array variable a list item's words are";
  let description = [{
    A list of arrays (or of lists, or of tuples holding them) stores each
    array as its memref descriptor, laid out as LLVM lays it out, in the
    item's words. Given the address of those words, this is a slot over
    them: `plait.load_array` reads the item's array, `plait.store_array`
    writes one (the reference moves into the list). Valid until the list
    grows, as a `plait.list_items` view is.
    ```mlir
    %slot = plait.item_slot %address : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
    ```
  }];
  let arguments = (ins I64:$address);
  let results = (outs Plait_ArraySlotType:$slot);
  let assemblyFormat = "$address attr-dict `:` type($slot)";
}

def Plait_RetainOp : Plait_Op<"retain", [
    MemoryEffects<[MemWrite<Plait_ArrayOwnership>]>]> {
  let summary = "one more reference to an array's allocation";
  let description = [{
    Views share their base array's allocation, so retaining a view retains
    the base. Arrays plait did not allocate (NumPy's, passed in) carry no
    allocation: retaining and releasing them does nothing.
  }];
  let arguments = (ins AnyMemRef:$array);
  let assemblyFormat = "$array attr-dict `:` type($array)";
}

def Plait_ReleaseOp : Plait_Op<"release", [
    MemoryEffects<[MemWrite<Plait_ArrayOwnership>, MemFree]>]> {
  let summary = "one reference fewer: the last one frees the allocation";
  let arguments = (ins AnyMemRef:$array);
  let assemblyFormat = "$array attr-dict `:` type($array)";
}

def Plait_ComplexPartOp : Plait_Op<"complex_part", [Pure]> {
  let summary = "a view of the real or the imaginary parts of a complex array";
  let description = [{
    NumPy's `z.real` and `z.imag`: a float64 array over the same memory
    (complex numbers are laid out re, im), with the array's sizes, twice its
    strides and twice its offset (plus one for the imaginary parts). Writes
    through the view change the complex array. It shares the array's
    allocation, so retaining it retains the array.
    ```mlir
    %re = plait.complex_part %z {imaginary = false}
        : memref<?xcomplex<f64>, strided<[?], offset: ?>> to memref<?xf64, strided<[?], offset: ?>>
    ```
  }];
  let arguments = (ins AnyStridedMemRef:$array, BoolAttr:$imaginary);
  let results = (outs AnyStridedMemRef:$result);
  let assemblyFormat = "$array attr-dict `:` type($array) `to` type($result)";
  let hasVerifier = 1;
}

def Plait_ListItemsOp : Plait_Op<"list_items", [Pure]> {
  let summary = "the items of a typed list, as a 1-D array over their memory";
  let description = [{
    A list is a box of int64 words (length, capacity, the address of its
    items' allocation, the bytes of one item, a changed flag, the item words
    that own references). Given the address and the
    length the box held when read, this is a contiguous view of the items,
    valid until the list grows (an append may move them): the emitter reads
    the box again after anything that may append. The view owns no
    reference (releasing it would release the items, so nothing does).
    ```mlir
    %items = plait.list_items %address, %length : memref<?xf64, strided<[1], offset: ?>>
    ```
  }];
  let arguments = (ins I64:$address, Index:$length);
  let results = (outs AnyStridedMemRefOfRank<1>:$items);
  let assemblyFormat = "$address `,` $length attr-dict `:` type($items)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Raising
//===----------------------------------------------------------------------===//

def Plait_RaiseIfOp : Plait_Op<"raise_if", [
    MemoryEffects<[MemWrite<Plait_ErrorState>]>]> {
  let summary = "raise a Python exception when a condition holds";
  let description = [{
    When `condition` is true, the function raises `exception` with `message`
    (CPython's own words; `{0}`, `{1}`... stand for `values`, recorded for the
    message) and returns to its caller with the error's status. Not a
    terminator: code after it runs when the condition is false.
    ```mlir
    plait.raise_if %zero, "ZeroDivisionError", "division by zero"
    plait.raise_if %out, "IndexError", "index {0} is out of bounds" (%i)
    ```
  }];
  let arguments = (ins I1:$condition, StrAttr:$exception, StrAttr:$message,
                   Variadic<I64>:$values);
  let assemblyFormat = "$condition `,` $exception `,` $message (`(` $values^ `)`)? attr-dict";
  let hasCanonicalizeMethod = 1;
  let hasVerifier = 1;
}

def Plait_CheckStatusOp : Plait_Op<"check_status", [
    MemoryEffects<[MemWrite<Plait_ErrorState>]>]> {
  let summary = "propagate the error a jitted callee returned";
  let description = [{
    A jitted function returns a status first: 0, or the code of the error it
    raised. A non-zero status makes this function return it too.
  }];
  let arguments = (ins I32:$status);
  let assemblyFormat = "$status attr-dict";
}

//===----------------------------------------------------------------------===//
// Catching (try/except)
//===----------------------------------------------------------------------===//

def Plait_TryOp : Plait_Op<"try", [Terminator,
    MemoryEffects<[MemWrite<Plait_ErrorState>]>]> {
  let summary = "enters the body of a try statement";
  let description = [{
    Branches to `body`. Until a `plait.try_end` with the same `id` ends the
    scope on a path, an exception raised there (a `raise_if` or a callee's
    `check_status`, also of code inlined later) branches to `handler`
    instead of leaving the function; `plait.caught` there is its status.
    The scope is the blocks reachable from `body` without passing a
    `try_end` of this id, so every path out of a try body (its end,
    `break`, `continue`, `return`) passes one. plait-lower-raise makes the
    branches real; until then the handler is reached from here, as if the
    body raised before its first operation (variables live in memory).
    ```mlir
    plait.try 0, ^body, ^handler
    ```
  }];
  let arguments = (ins I64Attr:$id);
  let successors = (successor AnySuccessor:$body, AnySuccessor:$handler);
  let assemblyFormat = "$id `,` $body `,` $handler attr-dict";
  let hasVerifier = 1;
}

def Plait_TryEndOp : Plait_Op<"try_end", [
    MemoryEffects<[MemWrite<Plait_ErrorState>]>]> {
  let summary = "ends the scope of the plait.try of the same id on this path";
  let arguments = (ins I64Attr:$id);
  let assemblyFormat = "$id attr-dict";
}

def Plait_CaughtOp : Plait_Op<"caught", [
    MemoryEffects<[MemRead<Plait_ErrorState>]>]> {
  let summary = "the status of the exception a try's handler caught";
  let description = [{
    Only in the handler block of a `plait.try` (its first operation): the
    error code of the exception raised in the try's scope.
  }];
  let results = (outs I32:$status);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Plait_ExceptionMatchesOp : Plait_Op<"exception_matches", [Pure]> {
  let summary = "whether an error status is an instance of exception classes";
  let description = [{
    True when the exception of error code `status` is an instance of one of
    `classes` (built-in names, or the module.Class names the module's
    `plait.exception_bases` lists with their bases), as `except (A, B):`
    tests. plait-lower-raise compares `status` with the codes of its error
    table whose classes match.
  }];
  let arguments = (ins I32:$status, StrArrayAttr:$classes);
  let results = (outs I1:$matches);
  let assemblyFormat = "$status `,` $classes attr-dict";
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

def Plait_ForOp : Plait_Op<"for", [
    RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<InferIntRangeInterface>]> {
  let summary = "a Python `for` over `range(start, stop, step)`";
  let description = [{
    Runs its region once per element of `range(start, stop, step)` (`step`
    is not 0: the frontend raises ValueError first), with the element as the
    entry block's argument. The region is a CFG: blocks may branch to each
    other and end the iteration with `plait.continue`, leave the loop with
    `plait.break`, or leave it because the function returns with
    `plait.leave`. The result says how the loop ended: 0 when it ran out
    (Python then runs the loop's `else`), 1 after `break`, 2 after `leave`.
    Spans wider than int64 work: the trip count is unsigned.
    ```mlir
    %how = plait.for %i = %start to %stop step %step {
      ...
      plait.continue
    }
    ```
  }];
  let arguments = (ins I64:$start, I64:$stop, I64:$step);
  let results = (outs I32:$exit);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The loop variable: the entry block's argument.
    ::mlir::BlockArgument getInductionVar() { return getBody().getArgument(0); }
    /// How a loop ended (its result).
    static constexpr int32_t kCompleted = 0, kBroke = 1, kLeft = 2;
  }];
}

def Plait_ContinueOp : Plait_Op<"continue", [Terminator,
    ParentOneOf<["ForOp", "ParallelForOp"]>]> {
  let summary = "ends an iteration of the enclosing plait.for or plait.parallel_for";
  let assemblyFormat = "attr-dict";
}

def Plait_BreakOp : Plait_Op<"break", [Terminator, HasParent<"ForOp">]> {
  let summary = "leaves the enclosing plait.for (its `else` does not run)";
  let assemblyFormat = "attr-dict";
}

def Plait_LeaveOp : Plait_Op<"leave", [Terminator, HasParent<"ForOp">]> {
  let summary = "leaves the enclosing plait.for because the function returns";
  let description = [{
    The function's results are in memory (its return slots); the loop ends
    with result 2, and the code after it returns (or leaves its own loop).
  }];
  let assemblyFormat = "attr-dict";
}

def Plait_ParallelForOp : Plait_Op<"parallel_for", [
    AttrSizedOperandSegments, RecursiveMemoryEffects]> {
  let summary = "a `prange` loop: iterations that may run at the same time";
  let description = [{
    Runs its region once for each of `count` positions k, with the loop
    value `start + k * step` as the entry block's argument, in any order and
    on several threads at once (the user declared the iterations
    independent, as with Numba's `prange`). The region is a CFG whose
    iterations end with `plait.continue`; it cannot break or return.

    Variables are the function's slots. A slot the region uses that is a
    stack slot of the function (`memref.alloca` of a static shape, or
    `plait.array_slot`) is private to each thread: it starts with the value
    it had before the loop, and after the loop holds the value the last
    iteration left in it. The slots listed in `reductions` are combined
    instead: each thread accumulates from the identity of its kind in
    `reduction_kinds` ("add", "mul", "min", "max", "or", "and"; "umin" and
    "umax" compare unsigned (bools, unsigned ints); for Python
    ints, "checked_add" and "checked_mul" raise OverflowError as
    `plait.add check` does), and the partial results are combined into the
    slot after the loop, in thread order. The arrays listed in
    `array_reductions` (kinds in `array_reduction_kinds`: "add", "mul", "or",
    "and") are reduced element by element the same way: each thread's
    iterations update an array of its own, of the same shape, made with the
    identity, and the thread's arrays are combined into the array after the
    loop. Everything else is shared.
    plait-outline-parallel makes the region a function and the loop a
    `plait.parallel_call`.
    ```mlir
    plait.parallel_for %start step %step count %n reduce(%sum : memref<f64>)
        attributes {reduction_kinds = ["add"]} {
    ^bb0(%i: i64):
      ...
      plait.continue
    }
    ```
  }];
  let arguments = (ins I64:$start, I64:$step, I64:$count,
                   Variadic<AnyStaticShapeMemRef>:$reductions, StrArrayAttr:$reduction_kinds,
                   Variadic<AnyMemRef>:$array_reductions,
                   DefaultValuedAttr<StrArrayAttr, "{}">:$array_reduction_kinds);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $start `step` $step `count` $count (`reduce` `(` $reductions^ `:` type($reductions) `)`)?
    (`reduce_arrays` `(` $array_reductions^ `:` type($array_reductions) `)`)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def Plait_ParallelCallOp : Plait_Op<"parallel_call"> {
  let summary = "runs an outlined parallel loop body on the thread pool";
  let description = [{
    Calls `body` (a function outlined from a `plait.parallel_for`, taking
    `captures` and then the positions `begin`, `end` and the participant
    index, and returning a status) on chunks of the positions
    `[0, count)`, on at most `participants` threads of the runtime's pool.
    The result is 0, or the status of the first error a chunk raised.
    plait-lower-parallel packs the captures into a context on the stack and
    calls `plait_rt_parallel_for`.
  }];
  let arguments = (ins FlatSymbolRefAttr:$body, I64:$count, I64:$participants,
                   Variadic<AnyType>:$captures);
  let results = (outs I32:$status);
  let assemblyFormat = [{
    $body `(` $captures `)` `count` $count `participants` $participants attr-dict
    `:` type($captures)
  }];
}

//===----------------------------------------------------------------------===//
// Whole-array operations
//===----------------------------------------------------------------------===//

def Plait_ElementwiseOp : Plait_Op<"elementwise", [
    AttrSizedOperandSegments, RecursiveMemoryEffects]> {
  let summary = "a new array whose elements are a function of its inputs' elements";
  let description = [{
    A NumPy elementwise operation (`a - b`, `np.sqrt(x)`, ...): allocates an
    array of the given shape (C order, or Fortran order with `fortran`),
    owning one reference, and sets each element to what the body yields for
    the inputs' elements at that position. The inputs broadcast to the shape
    by NumPy's rules (missing leading axes and axes of size 1 repeat): the
    frontend has checked that they do. The body takes one element of each
    input (in its storage type: bools are i8) and yields one in the result's
    storage type; it may use values defined outside (scalar operands) and be
    a CFG. Elements are independent, so the order they are computed in is
    free: `plait-fuse-elementwise` composes chains of these operations, and
    `plait-lower-elementwise` turns each into a loop nest.
    ```mlir
    %d = plait.elementwise (%a, %b : memref<?xf64>, memref<?xf64>) shape(%n)
        -> memref<?xf64, strided<[1], offset: ?>> {
    ^bb0(%x: f64, %y: f64):
      %r = arith.subf %x, %y : f64
      plait.yield %r : f64
    }
    ```
  }];
  let arguments = (ins Arg<Variadic<AnyMemRef>, "", [MemRead]>:$inputs, Variadic<I64>:$shape,
                   UnitAttr:$fortran, UnitAttr:$parallel);
  let results = (outs Res<AnyMemRef, "", [MemAlloc]>:$result);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    (`(` $inputs^ `:` type($inputs) `)`)? `shape` `(` $shape `)` (`fortran` $fortran^)?
    (`parallel` $parallel^)? attr-dict `->` type($result) $body
  }];
  let hasRegionVerifier = 1;
}

def Plait_PairwiseSumOp : Plait_Op<"pairwise_sum", [
    AttrSizedOperandSegments, RecursiveMemoryEffects]> {
  let summary = "NumPy's pairwise sum of the elements a body computes";
  let description = [{
    The sum, in NumPy's pairwise order over a contiguous run (blocks of
    eight accumulators up to 128 elements, halves above; -0.0 when empty),
    of what the body yields at each position of a 1-D shape, its inputs
    broadcast to it as plait.elementwise's. The frontend emits it with the
    identity body for `np.sum` of a 1-D float64 array; fusing an
    elementwise producer into it sums an expression without making its
    array, with the same result bit for bit.
    ```mlir
    %s = plait.pairwise_sum(%a : memref<?xf64>) shape(%n) -> f64 {
    ^bb0(%x: f64):
      plait.yield %x : f64
    }
    ```
  }];
  let arguments = (ins Arg<Variadic<AnyMemRef>, "", [MemRead]>:$inputs, Variadic<I64>:$shape,
                   UnitAttr:$parallel);
  let results = (outs F64:$result);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    (`(` $inputs^ `:` type($inputs) `)`)? `shape` `(` $shape `)` (`parallel` $parallel^)? attr-dict
    `->` type($result) $body
  }];
  let hasRegionVerifier = 1;
}

def Plait_YieldOp : Plait_Op<"yield", [Pure, Terminator,
                                       ParentOneOf<["ElementwiseOp", "PairwiseSumOp"]>]> {
  let summary = "the element a plait.elementwise or plait.pairwise_sum body computed";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

#endif // PLAIT_DIALECT_PLAIT_PLAITOPS_TD
