// Speculative versioning: in the module's speculative entry, a versioned
// loop whose preceding operations only read or write the function's own
// stack slots gets no checked copy; a failed guard raises
// plait.SpeculationFailed (the dispatcher then runs the function compiled
// without speculation). Anywhere else the checked loop stays.
// RUN: plait-opt %s -split-input-file --plait-version-loops | FileCheck %s

// CHECK-LABEL: func.func @entry
// CHECK: scf.if
// CHECK: plait.for
// CHECK: plait.mul proven
// CHECK-NEXT: plait.add proven
// CHECK: } else {
// CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT: plait.raise_if %[[TRUE]], "plait.SpeculationFailed", ""
// CHECK-NOT: plait.for
// CHECK: return
module attributes {plait.speculative_entry = "entry"} {
  func.func @entry(%n: i64, %out: memref<?xi64>) -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %slot = memref.alloca() : memref<i64>
    memref.store %c0, %slot[] : memref<i64>
    %c0_index = arith.constant 0 : index
    %first = memref.load %out[%c0_index] : memref<?xi64>
    %exit = plait.for %i = %c0 to %n step %c1 {
      %t = memref.load %slot[] : memref<i64>
      %sq = plait.mul check %i, %i
      %s = plait.add check %t, %sq
      memref.store %s, %slot[] : memref<i64>
      plait.continue
    }
    %r = memref.load %slot[] : memref<i64>
    memref.store %r, %out[%c0_index] : memref<?xi64>
    %z = arith.constant 0 : i32
    return %z : i32
  }
}

// -----

// Not the speculative entry: the checked loop is the other copy.
// CHECK-LABEL: func.func @other
// CHECK: scf.if
// CHECK: plait.add proven
// CHECK: } else {
// CHECK: plait.for
// CHECK: plait.mul check
// CHECK-NEXT: plait.add check
module attributes {plait.speculative_entry = "entry"} {
  func.func @other(%n: i64) -> i64 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %slot = memref.alloca() : memref<i64>
    memref.store %c0, %slot[] : memref<i64>
    %exit = plait.for %i = %c0 to %n step %c1 {
      %t = memref.load %slot[] : memref<i64>
      %sq = plait.mul check %i, %i
      %s = plait.add check %t, %sq
      memref.store %s, %slot[] : memref<i64>
      plait.continue
    }
    %r = memref.load %slot[] : memref<i64>
    return %r : i64
  }
}

// -----

// A write to an argument before the loop: running again would repeat it.
// CHECK-LABEL: func.func @entry
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: scf.if
// CHECK: } else {
// CHECK-NOT: SpeculationFailed
// CHECK: plait.add check
module attributes {plait.speculative_entry = "entry"} {
  func.func @entry(%n: i64, %out: memref<?xi64>) -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %c0_index = arith.constant 0 : index
    memref.store %n, %out[%c0_index] : memref<?xi64>
    %slot = memref.alloca() : memref<i64>
    memref.store %c0, %slot[] : memref<i64>
    %exit = plait.for %i = %c0 to %n step %c1 {
      %t = memref.load %slot[] : memref<i64>
      %sq = plait.mul check %i, %i
      %s = plait.add check %t, %sq
      memref.store %s, %slot[] : memref<i64>
      plait.continue
    }
    %z = arith.constant 0 : i32
    return %z : i32
  }
}

// -----

// The entry calls itself: a failed guard inside the inner call would
// reach the outer one, whose work so far would then run twice.
// CHECK-LABEL: func.func @entry
// CHECK: } else {
// CHECK-NOT: SpeculationFailed
// CHECK: plait.add check
module attributes {plait.speculative_entry = "entry"} {
  func.func @entry(%n: i64) -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %slot = memref.alloca() : memref<i64>
    memref.store %c0, %slot[] : memref<i64>
    %exit = plait.for %i = %c0 to %n step %c1 {
      %t = memref.load %slot[] : memref<i64>
      %sq = plait.mul check %i, %i
      %s = plait.add check %t, %sq
      memref.store %s, %slot[] : memref<i64>
      plait.continue
    }
    %again = func.call @entry(%c0) : (i64) -> i32
    return %again : i32
  }
}

// -----

// A loop inside another operation's region (here an if) is not where the
// function starts: not speculated.
// CHECK-LABEL: func.func @entry
// CHECK: } else {
// CHECK-NOT: SpeculationFailed
// CHECK: plait.add check
module attributes {plait.speculative_entry = "entry"} {
  func.func @entry(%n: i64, %flag: i1) -> i32 {
    %c0 = arith.constant 0 : i64
    %c1 = arith.constant 1 : i64
    %slot = memref.alloca() : memref<i64>
    memref.store %c0, %slot[] : memref<i64>
    scf.if %flag {
      %exit = plait.for %i = %c0 to %n step %c1 {
        %t = memref.load %slot[] : memref<i64>
        %sq = plait.mul check %i, %i
        %s = plait.add check %t, %sq
        memref.store %s, %slot[] : memref<i64>
        plait.continue
      }
    }
    %z = arith.constant 0 : i32
    return %z : i32
  }
}
