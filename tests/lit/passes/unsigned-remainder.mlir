// plait-unsigned-remainder: x % k of x >= 0 and k > 0 is arith.remui.
// RUN: plait-opt %s --plait-unsigned-remainder | FileCheck %s

// CHECK-LABEL: func.func @loop_variable
func.func @loop_variable(%n: i64, %out: memref<i64>) -> i32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c8 = arith.constant 8 : i64
  %how = plait.for %i = %c0 to %n step %c1 {
    // CHECK: arith.remui
    %r = plait.mod check %i, %c8
    // CHECK: arith.divui
    %q = plait.floordiv check %i, %c8
    memref.store %r, %out[] : memref<i64>
    memref.store %q, %out[] : memref<i64>
    plait.continue
  }
  return %how : i32
}

// CHECK-LABEL: func.func @unknown_sign
func.func @unknown_sign(%x: i64) -> i64 {
  %c8 = arith.constant 8 : i64
  // CHECK: plait.mod check
  %r = plait.mod check %x, %c8
  return %r : i64
}

// CHECK-LABEL: func.func @assumed
func.func @assumed(%x: i64) -> i64 {
  %c8 = arith.constant 8 : i64
  %y = plait.assume_nonnegative %x
  // CHECK: arith.remui
  %r = plait.mod check %y, %c8
  return %r : i64
}

// A negative step counts down: start >= i > stop.
// CHECK-LABEL: func.func @counting_down
func.func @counting_down(%n: i64, %out: memref<i64>) -> i32 {
  %c10 = arith.constant 10 : i64
  %cm1 = arith.constant -1 : i64
  %c8 = arith.constant 8 : i64
  %how = plait.for %i = %c10 to %cm1 step %cm1 {
    // CHECK: arith.remui
    %r = plait.mod check %i, %c8
    memref.store %r, %out[] : memref<i64>
    plait.continue
  }
  // Unknown step: range(-5, 10, n) may hold -5.
  %cm5 = arith.constant -5 : i64
  %down = plait.for %i = %cm5 to %c10 step %n {
    // CHECK: plait.mod check
    %r = plait.mod check %i, %c8
    memref.store %r, %out[] : memref<i64>
    plait.continue
  }
  return %how : i32
}
