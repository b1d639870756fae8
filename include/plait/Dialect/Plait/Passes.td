//===- Passes.td - passes on the plait dialect -------------*- tablegen -*-===//
#ifndef PLAIT_DIALECT_PLAIT_PASSES_TD
#define PLAIT_DIALECT_PLAIT_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseElementwise : Pass<"plait-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Chains of whole-array elementwise operations become one";
  let description = [{
    A `plait.elementwise` whose result is read only by another one, or by a
    `plait.pairwise_sum` (and
    released after it, the way the frontend frees a temporary) is computed
    inside that one: its inputs become the consumer's and its body is
    inlined where the consumer read the element. `100 * (x - y) ** 2` then
    allocates one array and loops once, as NumPy's numexpr would. Broadcasts
    compose (an input broadcast to the producer's shape and the result to
    the consumer's is the input broadcast to the consumer's shape), and
    elements are computed exactly as before, so results are bit-identical.
    Only producers whose bodies cannot raise or write memory fuse, and only
    when nothing between the two may write memory (releases that fall
    between move after the consumer).
  }];
  let constructor = "::plait::dialect::createFuseElementwisePass()";
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LowerElementwise : Pass<"plait-lower-elementwise", "::mlir::ModuleOp"> {
  let summary = "plait.elementwise to an allocation and loops; plait.pairwise_sum to a sum";
  let description = [{
    Allocates the result (a MemoryError when the allocation fails), makes a
    broadcast view of each input (stride 0 on the axes it repeats), and
    runs the body once per element in `plait.for` loops nested in C order.
    The innermost loop has a copy that reads inputs known to repeat along
    the last axis (0-d, or one element on it for certain) one element per
    row, and the others with the last stride their types state; it runs
    when those others have the result's last size (LLVM vectorises it with
    vector loads and splats; broadcast strides it could only gather
    through).
    A plait.pairwise_sum of one array becomes the runtime's pairwise sum of
    its data; of an expression, a call of a function it adds (recursive, as
    NumPy's pairwise_sum) that computes each element where it adds it.
  }];
  let constructor = "::plait::dialect::createLowerElementwisePass()";
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect", "::mlir::scf::SCFDialect"];
}

def ForwardConstantSlots : Pass<"plait-forward-constant-slots", "::mlir::func::FuncOp"> {
  let summary = "Reads of a slot that only ever holds one constant after its initialisation";
  let description = [{
    A variable's bound flag is false at the start and true from each
    assignment on: a load that a store of `true` dominates reads `true`, and
    its UnboundLocalError check folds away. In general: for a rank-0 stack
    slot of a scalar, used only by loads and stores, whose stores of other
    values than one constant are all operations of the entry block, a load
    dominated by a store of the constant placed after all of them becomes
    that constant.
  }];
  let constructor = "::plait::dialect::createForwardConstantSlotsPass()";
}

def DropIndexChecks : Pass<"plait-drop-index-checks", "::mlir::func::FuncOp"> {
  let summary = "Indices that range loops keep inside their axis need no check";
  let description = [{
    `a[i]`, `a[i - 1]` or `a[i + 1]` with `i` from `range(1, a.shape[0] - 1)`
    (or a prange of `a.shape[0]`, or a loop bounded by an enclosing one's
    variable) is always in the axis: the `plait.index` becomes `unchecked`
    and `nonnegative`, with no guard and no copy of the loop. The proof
    follows constants, checked int arithmetic by constants, loop bounds,
    array sizes and slots stored once.
  }];
  let constructor = "::plait::dialect::createDropIndexChecksPass()";
}

def VersionLoops : Pass<"plait-version-loops", "::mlir::func::FuncOp"> {
  let summary = "Runs innermost range loops without the checks a guard proves unneeded";
  let description = [{
    For an innermost `plait.for` whose element indices are `i + k`, `i - k`
    or `k` (`i` the loop variable, `k` fixed before the loop), and whose int
    counters change only by `c += term` with bounded terms, emits one guard
    before the loop: every index in bounds over the whole range, no counter
    near the int64 limits. A copy of the loop without those checks runs when
    the guard holds (LLVM can vectorise it); the original loop otherwise, so
    errors are raised exactly where CPython raises them.
  }];
  let constructor = "::plait::dialect::createVersionLoopsPass()";
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def HoistAllocas : Pass<"plait-hoist-allocas", "::mlir::func::FuncOp"> {
  let summary = "Fixed-size stack slots move to the function's entry block";
  let description = [{
    The slots of a function's variables are `memref.alloca`s of fixed size in
    its entry block. Inlining a call made inside a loop leaves the callee's
    slots inside the loop, where each iteration would take new stack space
    (LLVM's own inliner moves such allocas to the entry; MLIR 16's does
    not): a loop of many calls then overflows the stack. Each iteration
    initialises what it reads, so one slot per alloca, allocated once at
    entry, keeps the semantics.
  }];
  let constructor = "::plait::dialect::createHoistAllocasPass()";
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def DropOverflowChecks : Pass<"plait-drop-overflow-checks", "::mlir::func::FuncOp"> {
  let summary = "Int arithmetic that cannot overflow no longer checks";
  let description = [{
    With MLIR's IntegerRangeAnalysis (over plait's range loops, indices and
    checked arithmetic): a checked `plait.add`, `sub` or `mul` whose exact
    result always fits int64 becomes `wrap` (`i + 1` for `i` in `range(n)`),
    and a `plait.index` whose index is never negative is marked
    `nonnegative` (it does not wrap from the end: `a[i - 1]` stays affine).
  }];
  let constructor = "::plait::dialect::createDropOverflowChecksPass()";
}

def UnsignedRemainder : Pass<"plait-unsigned-remainder", "::mlir::func::FuncOp"> {
  let summary = "Python remainders of non-negative ints by positive ones are unsigned remainders";
  let description = [{
    `x % k` needs a sign fix-up in general; when range analysis proves
    `x >= 0` and `k > 0` (a loop variable of `range(n)`, a value a loop guard
    proved non-negative), it is `arith.remui`.
  }];
  let constructor = "::plait::dialect::createUnsignedRemainderPass()";
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def LowerArithmetic : Pass<"plait-lower-arithmetic", "::mlir::ModuleOp"> {
  let summary = "plait's int arithmetic, indices and slices to arith, LLVM intrinsics and plait.raise_if";
  let description = [{
    Checked `add`, `sub`, `mul` use `llvm.intr.s*.with.overflow`; `floordiv`
    and `mod` get Python's rounding and their ZeroDivisionError; `index`
    wraps negative indices and raises IndexError; `slice` clamps its bounds
    as CPython does and raises ValueError for a zero step. Messages come from the
    module's `plait.messages` dictionary (the running CPython's), else
    CPython 3.11's.
  }];
  let constructor = "::plait::dialect::createLowerArithmeticPass()";
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::LLVM::LLVMDialect"];
}

def LowerLoops : Pass<"plait-lower-loops", "::mlir::func::FuncOp"> {
  let summary = "plait.for to blocks and branches";
  let description = [{
    The trip count is computed unsigned, as CPython computes `len(range)`;
    the loop variable is `start + k * step` on iteration `k`. `continue`,
    `break` and `leave` become branches to the latch and to the exit, which
    receives how the loop ended.
  }];
  let constructor = "::plait::dialect::createLowerLoopsPass()";
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect"];
}

def LowerRaise : Pass<"plait-lower-raise", "::mlir::ModuleOp"> {
  let summary = "plait.raise_if and plait.check_status to error returns";
  let description = [{
    Every function returns (i32 status, results...). A raising site branches
    to the function's error return with its status: the 1-based position of
    (exception, message) in the module's error table, the `plait.errors`
    attribute this pass writes. Values for the message are recorded with
    `plait_rt_set_error_arg` first. Runs after loops are lowered.
  }];
  let constructor = "::plait::dialect::createLowerRaisePass()";
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect"];
}

def CancelRetainRelease : Pass<"plait-cancel-retain-release", "::mlir::func::FuncOp"> {
  let summary = "A retain and a later release of the same allocation in one block cancel";
  let description = [{
    `plait.retain %a` followed, in the same block, by `plait.release %b`,
    where `%a` and `%b` are the same array or views of one (casts,
    reinterpret casts, subviews), with nothing between them that may release
    or call: neither changes whether the allocation is alive, so both go.
    Returning a local array (retained for the caller, then released with the
    function's locals) and passing values through variables leave such pairs.
  }];
  let constructor = "::plait::dialect::createCancelRetainReleasePass()";
}

def LowerArrays : Pass<"plait-lower-arrays", "::mlir::ModuleOp"> {
  let summary = "Array slots and reference counts to the LLVM dialect";
  let description = [{
    Runs after the memref-to-LLVM conversion, when arrays are memref
    descriptors (LLVM structs behind unrealized casts): an
    `!plait.array_slot` is an `llvm.alloca` of the descriptor whose allocated
    pointer starts null; `load_array` and `store_array` load and store the
    descriptor; `retain` and `release` pass its allocated pointer to
    `plait_rt_array_retain` and `plait_rt_array_release`; `complex_part`
    builds the float view's descriptor (twice the offset and strides).
  }];
  let constructor = "::plait::dialect::createLowerArraysPass()";
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OutlineParallel : Pass<"plait-outline-parallel", "::mlir::ModuleOp"> {
  let summary = "plait.parallel_for to a function of a chunk and a plait.parallel_call";
  let description = [{
    The loop's region becomes a private function of (captured values,
    start, step, count, begin, end, worker) returning a status, which runs
    positions [begin, end) in a `plait.for`. The stack slots the region uses
    are copied per thread (each starting from the caller's value, an array
    with a reference of its own), and the chunk that runs the last position
    leaves its copies in slots the caller copies back after the call.
    Reduction slots accumulate per call from their identity into a buffer
    of one partial per thread, combined into the slot after the call in
    thread order. The call's status is checked (plait.check_status), so an
    error raised in an iteration raises in the caller.
  }];
  let constructor = "::plait::dialect::createOutlineParallelPass()";
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def LowerParallel : Pass<"plait-lower-parallel", "::mlir::ModuleOp"> {
  let summary = "plait.parallel_call to a call of the runtime's thread pool";
  let description = [{
    Runs after plait-lower-arrays, before func-to-llvm. The captures are
    stored as one LLVM struct on the caller's stack (arrays as their
    descriptors); an `llvm.func` trampoline of the runtime's body signature
    `(ptr context, i64 begin, i64 end, i64 worker) -> i32` loads them and
    calls the outlined function; `plait_rt_parallel_for` runs the
    trampoline on chunks.
  }];
  let constructor = "::plait::dialect::createLowerParallelPass()";
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::func::FuncDialect"];
}

#endif // PLAIT_DIALECT_PLAIT_PASSES_TD
