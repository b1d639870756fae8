// plait-version-loops: one guard before an innermost range loop, and a copy
// of the loop without the checks the guard settles.
// RUN: plait-opt %s --plait-version-loops | FileCheck %s

// s += a[i + k]: the guard checks both ends of the range against the size.
// CHECK-LABEL: func.func @shifted_access
func.func @shifted_access(%a: memref<?xf64, strided<[1], offset: ?>>, %k: i64, %n: i64, %total: memref<f64>) -> i32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // CHECK: %[[FROM:.*]] = arith.addi %{{.*}}, %arg1
  // CHECK: %[[TO:.*]] = arith.addi %{{.*}}, %arg1
  // 0 <= from <= to < size, unsigned: from <=u to and to <u size.
  // CHECK: arith.cmpi ule, %[[FROM]], %[[TO]]
  // CHECK: arith.cmpi ult, %[[TO]]
  // CHECK: %[[OK:.*]] = arith.ori
  // CHECK: scf.if %[[OK]] -> (i32) {
  // The copy: the position is the index itself.
  // CHECK: plait.for
  // CHECK-NOT: plait.index
  // CHECK: arith.index_cast
  // CHECK: memref.load %arg0
  // CHECK: } else {
  // The original, checked.
  // CHECK: plait.for
  // CHECK: plait.index
  %how = plait.for %i = %c0 to %n step %c1 {
    %zero = arith.constant 0 : index
    %d = memref.dim %a, %zero : memref<?xf64, strided<[1], offset: ?>>
    %size = arith.index_cast %d : index to i64
    %j = plait.add check %i, %k
    %p = plait.index %j, %size axis 0
    %x = memref.load %a[%p] : memref<?xf64, strided<[1], offset: ?>>
    %s = memref.load %total[] : memref<f64>
    %t = arith.addf %s, %x : f64
    memref.store %t, %total[] : memref<f64>
    plait.continue
  }
  return %how : i32
}

// c += i * i % 7 (a counter): its update and terms wrap in the copy, and the
// dividend the guard proved non-negative says so.
// CHECK-LABEL: func.func @counter
func.func @counter(%n: i64) -> i32 {
  %count = memref.alloca() : memref<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c7 = arith.constant 7 : i64
  memref.store %c0, %count[] : memref<i64>
  // The guard bounds magnitudes in f64, their sum below 2**62 * (1 - 2**-40):
  // i * i as the square of the range's larger end; the dividend's interval
  // in i64; constants (7) add nothing.
  // CHECK: %[[LIMIT:.*]] = arith.constant 4.6116860184231936E+18 : f64
  // CHECK: %[[I:.*]] = arith.select %{{.*}} : f64
  // CHECK: %[[SQ:.*]] = arith.mulf %[[I]], %[[I]] : f64
  // CHECK: %[[SUM:.*]] = arith.addf %[[I]], %[[SQ]] fastmath<nsz> : f64
  // CHECK: arith.muli %{{.*}} : i64
  // The counter's start, then trips * the terms' bound.
  // CHECK: memref.load %alloca
  // CHECK: %[[START:.*]] = math.absf
  // CHECK: %[[WITH_START:.*]] = arith.addf %[[SUM]], %[[START]] fastmath<nsz> : f64
  // CHECK: %[[ALL:.*]] = arith.mulf %{{.*}} : f64
  // CHECK: %[[TOTAL:.*]] = arith.addf %[[WITH_START]], %[[ALL]] fastmath<nsz> : f64
  // CHECK: arith.cmpf olt, %[[TOTAL]], %[[LIMIT]] : f64
  // CHECK-NOT: i128
  // CHECK: scf.if
  // CHECK: plait.mul proven
  // CHECK: plait.assume_nonnegative
  // CHECK: plait.mod wrap
  // CHECK: plait.add proven
  // CHECK: } else {
  // CHECK: plait.mul check
  // CHECK: plait.mod check
  // CHECK: plait.add check
  %how = plait.for %i = %c0 to %n step %c1 {
    %c = memref.load %count[] : memref<i64>
    %sq = plait.mul check %i, %i
    %m = plait.mod check %sq, %c7
    %next = plait.add check %c, %m
    memref.store %next, %count[] : memref<i64>
    plait.continue
  }
  return %how : i32
}

// c += i * i with overflow='wrap': nothing to drop, so no copy (both copies
// would be the same loop, compiled twice).
// CHECK-LABEL: func.func @wrapping_counter
func.func @wrapping_counter(%n: i64) -> i32 {
  %count = memref.alloca() : memref<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  memref.store %c0, %count[] : memref<i64>
  // CHECK-NOT: scf.if
  // CHECK: plait.for
  // CHECK-NOT: plait.for
  %how = plait.for %i = %c0 to %n step %c1 {
    %c = memref.load %count[] : memref<i64>
    %sq = plait.mul wrap %i, %i
    %next = plait.add wrap %c, %sq
    memref.store %next, %count[] : memref<i64>
    plait.continue
  }
  return %how : i32
}

// c += i % 7 wrapping: the copy still gains (a dividend proved
// non-negative needs no sign fix-up).
// CHECK-LABEL: func.func @wrapping_remainder
func.func @wrapping_remainder(%n: i64) -> i32 {
  %count = memref.alloca() : memref<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c7 = arith.constant 7 : i64
  memref.store %c0, %count[] : memref<i64>
  // CHECK: scf.if
  // CHECK: plait.assume_nonnegative
  // CHECK: } else {
  %how = plait.for %i = %c0 to %n step %c1 {
    %c = memref.load %count[] : memref<i64>
    %m = plait.mod wrap %i, %c7
    %next = plait.add wrap %c, %m
    memref.store %next, %count[] : memref<i64>
    plait.continue
  }
  return %how : i32
}

// a[b[i]]: an index loaded from memory cannot be guarded; nothing changes.
// CHECK-LABEL: func.func @indirect
func.func @indirect(%a: memref<?xf64>, %b: memref<?xi64>, %n: i64) -> i32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // CHECK-NOT: scf.if
  %how = plait.for %i = %c0 to %n step %c1 {
    %zero = arith.constant 0 : index
    %d = memref.dim %a, %zero : memref<?xf64>
    %size = arith.index_cast %d : index to i64
    %cast = arith.index_cast %i : i64 to index
    %j = memref.load %b[%cast] : memref<?xi64>
    %p = plait.index %j, %size axis 0
    %x = memref.load %a[%p] : memref<?xf64>
    plait.continue
  }
  return %how : i32
}

// A loop around a loop with bounds checks is not versioned (the inner one is).
// CHECK-LABEL: func.func @outer
func.func @outer(%a: memref<?xf64>, %n: i64) -> i32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // CHECK: plait.for
  // CHECK-NOT: plait.for
  // CHECK: scf.if
  %how = plait.for %i = %c0 to %n step %c1 {
    %inner = plait.for %j = %c0 to %n step %c1 {
      %zero = arith.constant 0 : index
      %d = memref.dim %a, %zero : memref<?xf64>
      %size = arith.index_cast %d : index to i64
      %p = plait.index %j, %size axis 0
      %x = memref.load %a[%p] : memref<?xf64>
      plait.continue
    }
    plait.continue
  }
  return %how : i32
}
