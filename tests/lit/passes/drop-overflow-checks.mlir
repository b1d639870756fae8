// plait-drop-overflow-checks: checked int arithmetic that range analysis
// proves cannot overflow is `proven` instead, and indices it proves
// non-negative do not wrap from the end.
// RUN: plait-opt %s --plait-drop-overflow-checks | FileCheck %s

// CHECK-LABEL: func.func @loop_variable_plus_one
func.func @loop_variable_plus_one(%n: i64, %out: memref<i64>) -> i32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %how = plait.for %i = %c0 to %n step %c1 {
    // i <= n - 1 <= 2**63 - 2: i + 1 fits.
    // CHECK: plait.add proven
    %next = plait.add check %i, %c1
    // i * i may not.
    // CHECK: plait.mul check
    %square = plait.mul check %i, %i
    memref.store %next, %out[] : memref<i64>
    memref.store %square, %out[] : memref<i64>
    plait.continue
  }
  return %how : i32
}

// CHECK-LABEL: func.func @unknown_operands
func.func @unknown_operands(%a: i64, %b: i64) -> i64 {
  // CHECK: plait.add check
  %s = plait.add check %a, %b
  return %s : i64
}

// CHECK-LABEL: func.func @remainders_are_small
func.func @remainders_are_small(%a: i64, %b: i64) -> i64 {
  %c100 = arith.constant 100 : i64
  %r = plait.mod check %a, %c100
  %s = plait.mod check %b, %c100
  // Both lie in [0, 99]: their sum and product fit.
  // CHECK: plait.mul proven
  %p = plait.mul check %r, %s
  return %p : i64
}

// MLIR 16 infers a shift's range from its operand's bounds shifted, as if
// no bits were lost: x << 8 of an unknown x may be any int64, so the
// products of it keep their checks.
// CHECK-LABEL: func.func @products_of_a_shift
func.func @products_of_a_shift(%x: i64) -> i64 {
  %c8 = arith.constant 8 : i64
  %s = arith.shli %x, %c8 : i64
  // CHECK: plait.mul check
  %p = plait.mul check %s, %s
  return %p : i64
}

// boundscheck=False: a[j - 1], a[j + 1] for j in range(1, n - 1) never wrap
// from the end (j - 1 >= 0): marked nonnegative, they lower to the index
// itself (an affine access). An index that may be negative still wraps.
// CHECK-LABEL: func.func @unchecked_indices
func.func @unchecked_indices(%a: memref<?xf64>, %n: i64, %k: i64) -> i32 {
  %c1 = arith.constant 1 : i64
  %stop = plait.sub check %n, %c1
  %how = plait.for %j = %c1 to %stop step %c1 {
    %before = plait.sub wrap %j, %c1
    %after = plait.add wrap %j, %c1
    %shifted = plait.sub wrap %j, %k
    // CHECK: plait.index %{{.*}}, %arg1 axis 0 unchecked nonnegative
    %p = plait.index %before, %n axis 0 unchecked
    // CHECK: plait.index %{{.*}}, %arg1 axis 0 unchecked nonnegative
    %q = plait.index %after, %n axis 0 unchecked
    // CHECK: plait.index %{{.*}}, %arg1 axis 0 unchecked{{$}}
    %r = plait.index %shifted, %n axis 0 unchecked
    plait.continue
  }
  return %how : i32
}
