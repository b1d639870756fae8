// Folding with CPython's results; checks that cannot fail disappear.
// RUN: plait-opt %s --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @constants
// -7 + 2; Python rounds toward negative infinity: -7 // 2 == -4, -7 % 2 == 1;
// a wrapping overflow wraps.
// CHECK-DAG: %[[SUM:.*]] = arith.constant -5 : i64
// CHECK-DAG: %[[QUOTIENT:.*]] = arith.constant -4 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[WRAPPED:.*]] = arith.constant -9223372036854775808 : i64
// A checked overflow raises at run time: not folded.
// CHECK: %[[OVERFLOW:.*]] = plait.add check
// CHECK: return %[[SUM]], %[[QUOTIENT]], %[[ONE]], %[[OVERFLOW]], %[[WRAPPED]]
func.func @constants() -> (i64, i64, i64, i64, i64) {
  %a = arith.constant -7 : i64
  %b = arith.constant 2 : i64
  %big = arith.constant 9223372036854775807 : i64
  %one = arith.constant 1 : i64
  %s = plait.add check %a, %b
  %q = plait.floordiv check %a, %b
  %r = plait.mod check %a, %b
  %o = plait.add check %big, %one
  %w = plait.add wrap %big, %one
  return %s, %q, %r, %o, %w : i64, i64, i64, i64, i64
}

// CHECK-LABEL: func.func @identities
func.func @identities(%x: i64) -> (i64, i64, i64) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  // CHECK-NOT: plait.add
  %a = plait.add check %x, %zero
  // CHECK-NOT: plait.mul
  %m = plait.mul check %x, %one
  // CHECK-NOT: plait.floordiv
  %d = plait.floordiv check %x, %one
  // CHECK: return %arg0, %arg0, %arg0
  return %a, %m, %d : i64, i64, i64
}

// CHECK-LABEL: func.func @indices
func.func @indices() -> (index, index) {
  %minus = arith.constant -1 : i64
  %five = arith.constant 5 : i64
  %size = arith.constant 3 : i64
  // NumPy: -1 names the last element.
  // CHECK-DAG: %[[LAST:.*]] = arith.constant 2 : index
  %last = plait.index %minus, %size axis 0
  // Out of bounds raises at run time: kept.
  // CHECK: %[[OUT:.*]] = plait.index
  %out = plait.index %five, %size axis 0
  // CHECK: return %[[LAST]], %[[OUT]]
  return %last, %out : index, index
}

// CHECK-LABEL: func.func @raising_never
func.func @raising_never(%c: i1) {
  %false = arith.constant false
  // CHECK-NOT: "never"
  plait.raise_if %false, "ValueError", "never"
  // CHECK: plait.raise_if %arg0, "ValueError", "maybe"
  plait.raise_if %c, "ValueError", "maybe"
  return
}
