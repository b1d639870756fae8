// plait-lower-arithmetic: Python's int semantics as arith, LLVM's overflow
// intrinsics and raise_if.
// RUN: plait-opt %s --plait-lower-arithmetic | FileCheck %s

// CHECK-LABEL: func.func @checked
func.func @checked(%a: i64, %b: i64) -> i64 {
  // CHECK: %[[PAIR:.*]] = "llvm.intr.sadd.with.overflow"(%arg0, %arg1)
  // CHECK: %[[SUM:.*]] = llvm.extractvalue %[[PAIR]][0]
  // CHECK: %[[OVERFLOW:.*]] = llvm.extractvalue %[[PAIR]][1]
  // CHECK: plait.raise_if %[[OVERFLOW]], "OverflowError"
  %s = plait.add check %a, %b
  // CHECK: return %[[SUM]]
  return %s : i64
}

// CHECK-LABEL: func.func @wrapping
func.func @wrapping(%a: i64, %b: i64) -> i64 {
  // CHECK-NOT: with.overflow
  // CHECK-NOT: plait.raise_if
  // CHECK: arith.muli %arg0, %arg1 : i64
  %p = plait.mul wrap %a, %b
  return %p : i64
}

// Proven not to overflow: LLVM's nsw, through plait.nsw.
// CHECK-LABEL: func.func @proven
func.func @proven(%a: i64, %b: i64) -> i64 {
  // CHECK-NOT: with.overflow
  // CHECK: %[[P:.*]] = arith.muli %arg0, %arg1 {plait.nsw} : i64
  %p = plait.mul proven %a, %b
  // CHECK: arith.addi %[[P]], %arg1 {plait.nsw} : i64
  %s = plait.add proven %p, %b
  // CHECK: arith.subi %{{.*}}, %arg0 {plait.nsw} : i64
  %d = plait.sub proven %s, %a
  return %d : i64
}

// CHECK-LABEL: func.func @floor_division
func.func @floor_division(%a: i64, %b: i64) -> i64 {
  // CHECK: %[[ZERO:.*]] = arith.cmpi eq, %arg1
  // CHECK: plait.raise_if %[[ZERO]], "ZeroDivisionError", "integer division or modulo by zero"
  // CHECK: plait.raise_if %{{.*}}, "OverflowError"
  // CHECK: arith.remsi
  // CHECK: arith.divsi
  %q = plait.floordiv check %a, %b
  return %q : i64
}

// A remainder only compared with zero needs no sign fix-up: Python's is zero
// exactly when the machine's is. A divisor of -1 still divides by 1.
// CHECK-LABEL: func.func @remainder_compared_with_zero
func.func @remainder_compared_with_zero(%a: i64, %b: i64) -> (i1, i1) {
  %c0 = arith.constant 0 : i64
  // CHECK: plait.raise_if %{{.*}}, "ZeroDivisionError"
  // CHECK: %[[MINUS_ONE:.*]] = arith.cmpi eq, %arg1, %c-1_i64
  // CHECK: %[[SAFE:.*]] = arith.select %[[MINUS_ONE]], %c1_i64, %arg1
  // CHECK: %[[R:.*]] = arith.remsi %arg0, %[[SAFE]]
  // CHECK-NOT: arith.xori
  // CHECK: arith.cmpi eq, %[[R]], %c0_i64
  // CHECK: arith.cmpi ne, %c0_i64, %[[R]]
  %r = plait.mod check %a, %b
  %zero = arith.cmpi eq, %r, %c0 : i64
  %nonzero = arith.cmpi ne, %c0, %r : i64
  return %zero, %nonzero : i1, i1
}

// Used otherwise, it keeps the fix-up.
// CHECK-LABEL: func.func @remainder_used_otherwise
func.func @remainder_used_otherwise(%a: i64, %b: i64) -> (i1, i64) {
  %c0 = arith.constant 0 : i64
  // CHECK: arith.remsi
  // CHECK: arith.xori
  %r = plait.mod check %a, %b
  %zero = arith.cmpi eq, %r, %c0 : i64
  return %zero, %r : i1, i64
}

// CHECK-LABEL: func.func @indices
func.func @indices(%i: i64, %n: i64) -> (index, index) {
  // Negative indices count from the end, then one unsigned comparison.
  // CHECK: %[[NEGATIVE:.*]] = arith.cmpi slt, %arg0
  // CHECK: %[[WRAPPED:.*]] = arith.select %[[NEGATIVE]]
  // CHECK: %[[OUT:.*]] = arith.cmpi uge, %[[WRAPPED]], %arg1
  // CHECK: plait.raise_if %[[OUT]], "IndexError", "index {0} is out of bounds for axis {1} with size {2}"(%arg0, %{{.*}}, %arg1)
  %p = plait.index %i, %n axis 0
  // boundscheck=False: wrapped, not checked.
  // CHECK: arith.select
  // CHECK-NOT: plait.raise_if
  // CHECK: arith.index_cast
  %u = plait.index %i, %n axis 0 unchecked
  return %p, %u : index, index
}

// CHECK-LABEL: func.func @slices
func.func @slices(%n: i64, %a: i64, %s: i64) -> (i64, i64, i64, i64) {
  // A given step may be zero: ValueError.
  // CHECK: %[[ZERO:.*]] = arith.cmpi eq, %arg2, %c0_i64
  // CHECK: plait.raise_if %[[ZERO]], "ValueError", "slice step cannot be zero"
  // The count divides by the step (forwards) or its negation (backwards).
  // CHECK: arith.divsi
  // CHECK: arith.divsi
  // CHECK-NOT: plait.slice
  %first, %count, %step = plait.slice %n lower %a step %s
  // Without a step nothing can raise.
  // CHECK-NOT: plait.raise_if
  // CHECK: return
  %f, %c, %i = plait.slice %n upper %a
  return %first, %count, %c, %i : i64, i64, i64, i64
}

// The messages of the running CPython travel with the module.
module attributes {plait.messages = {int_overflow = "Python int too large"}} {
  // CHECK-LABEL: func.func @sampled_message
  func.func @sampled_message(%a: i64) -> i64 {
    // CHECK: plait.raise_if %{{.*}}, "OverflowError", "Python int too large"
    %s = plait.mul check %a, %a
    return %s : i64
  }
}
