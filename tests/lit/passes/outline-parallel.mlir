// plait-outline-parallel: the region becomes a function of a chunk; stack
// slots are copied per thread (the last chunk's copies go back after the
// call); reductions accumulate from their identity into per-thread partials
// that the caller combines in thread order.
// RUN: plait-opt %s --plait-outline-parallel | FileCheck %s

!array = memref<?xf64>
!slot = !plait.array_slot<memref<?xf64>>

// CHECK-LABEL: func.func private @sum_parallel_0(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[SHARED:[^:]*]]: memref<i64>, %[[LAST:[^:]*]]: memref<i64>,
// CHECK-SAME: %[[PARTIALS:[^:]*]]: memref<?xf64>, %[[START:[^:]*]]: i64, %[[STEP:[^:]*]]: i64, %[[COUNT:[^:]*]]: i64,
// CHECK-SAME: %[[BEGIN:[^:]*]]: i64, %[[END:[^:]*]]: i64, %[[WORKER:[^:]*]]: i64) -> i32
// The thread's own copy of the slot, from the caller's value.
// CHECK: %[[OWN:.*]] = memref.alloca() : memref<i64>
// CHECK: %[[V:.*]] = memref.load %[[SHARED]][]
// CHECK: memref.store %[[V]], %[[OWN]][]
// The reduction's accumulator starts at -0.0 (x + -0.0 is x, -0.0 too).
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[ID:.*]] = arith.constant -0.000000e+00 : f64
// CHECK: memref.store %[[ID]], %[[ACC]][]
// CHECK: plait.for %[[K:.*]] = %[[BEGIN]] to %[[END]] step
// CHECK: %[[SCALED:.*]] = arith.muli %[[K]], %[[STEP]]
// CHECK: %[[I:.*]] = arith.addi %[[START]], %[[SCALED]]
// CHECK: memref.store %[[I]], %[[OWN]][]
// CHECK: memref.load %[[ACC]][]
// CHECK: memref.store %{{.*}}, %[[ACC]][]
// CHECK: plait.continue
// The chunk with the last position leaves its copy for the caller.
// CHECK: %[[IS_LAST:.*]] = arith.cmpi eq, %[[END]], %[[COUNT]]
// CHECK: scf.if %[[IS_LAST]] {
// CHECK: memref.store %{{.*}}, %[[LAST]][]
// CHECK: %[[W:.*]] = arith.index_cast %[[WORKER]]
// CHECK: %[[BEFORE:.*]] = memref.load %[[PARTIALS]][%[[W]]]
// CHECK: %[[MINE:.*]] = memref.load %[[ACC]][]
// CHECK: %[[SUM:.*]] = arith.addf %[[BEFORE]], %[[MINE]]
// CHECK: memref.store %[[SUM]], %[[PARTIALS]][%[[W]]]
// CHECK: return %c0_i32

// CHECK-LABEL: func.func @sum(
// CHECK: %[[LASTSLOT:.*]] = memref.alloca() : memref<i64>
// CHECK: %[[P:.*]] = call @plait_rt_parallel_participants(%[[N:.*]]) : (i64) -> i64
// CHECK: %[[PI:.*]] = arith.index_cast %[[P]]
// CHECK: %[[BUF:.*]] = memref.alloc(%[[PI]]) : memref<?xf64>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK: %[[STATUS:.*]] = plait.parallel_call @sum_parallel_0(%{{.*}}, %{{.*}}, %[[LASTSLOT]], %[[BUF]], %{{.*}}) count %[[N]] participants %[[P]]
// CHECK: plait.check_status %[[STATUS]]
// CHECK: %[[RAN:.*]] = arith.cmpi sgt, %[[N]]
// CHECK: scf.if %[[RAN]] {
// CHECK: memref.load %[[LASTSLOT]][]
// Partials in thread order.
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[PI]]
// CHECK: %[[PART:.*]] = memref.load %[[BUF]][%[[T]]]
// CHECK: %[[OLD:.*]] = memref.load %[[S:.*]][]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[PART]]
// CHECK: memref.store %[[NEW]], %[[S]][]
// CHECK: memref.dealloc %[[BUF]]
func.func @sum(%a: !array, %n: i64) -> f64 {
  %s = memref.alloca() : memref<f64>
  %t = memref.alloca() : memref<i64>
  %zero = arith.constant 0.0 : f64
  memref.store %zero, %s[] : memref<f64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  plait.parallel_for %c0 step %c1 count %n reduce(%s : memref<f64>) attributes {reduction_kinds = ["add"]} {
  ^bb0(%i: i64):
    %ix = arith.index_cast %i : i64 to index
    %x = memref.load %a[%ix] : !array
    memref.store %i, %t[] : memref<i64>
    %old = memref.load %s[] : memref<f64>
    %new = arith.addf %old, %x : f64
    memref.store %new, %s[] : memref<f64>
    plait.continue
  }
  %r = memref.load %s[] : memref<f64>
  return %r : f64
}

// An array variable: each thread's copy holds a reference of its own; the
// chunks that do not end the loop release theirs; the caller moves the last
// one into its slot and releases what the slot held.
// CHECK-LABEL: func.func private @rows_parallel_0(
// CHECK: %[[OWN:.*]] = plait.array_slot
// CHECK: %[[FIRST:.*]] = plait.load_array %arg1
// CHECK: plait.retain %[[FIRST]]
// CHECK: plait.store_array %[[FIRST]], %[[OWN]]
// CHECK: scf.if
// CHECK: %[[MINE:.*]] = plait.load_array %[[OWN]]
// CHECK: plait.store_array %[[MINE]], %arg2
// CHECK: } else {
// CHECK: %[[DROP:.*]] = plait.load_array %[[OWN]]
// CHECK: plait.release %[[DROP]]
// CHECK-LABEL: func.func @rows(
// CHECK: call @plait_rt_parallel_participants
// CHECK: %[[LASTARRAY:.*]] = plait.array_slot
// CHECK: plait.parallel_call @rows_parallel_0
// CHECK: scf.if
// CHECK: %[[OLD:.*]] = plait.load_array %[[SLOT:[^ ]*]]
// CHECK: %[[MOVED:.*]] = plait.load_array %[[LASTARRAY]]
// CHECK: plait.store_array %[[MOVED]], %[[SLOT]]
// CHECK: plait.release %[[OLD]]
func.func @rows(%a: !array, %n: i64) {
  %slot = plait.array_slot : !slot
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  plait.parallel_for %c0 step %c1 count %n attributes {reduction_kinds = []} {
  ^bb0(%i: i64):
    plait.store_array %a, %slot : !slot
    plait.continue
  }
  return
}

// Python ints add with the overflow check; min keeps the accumulated value
// unless the partial is smaller.
// CHECK-LABEL: func.func @ints(
// CHECK: %[[SUMS:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: plait.add check %{{.*}}, %[[SUMS]]
// CHECK: %[[LOWS:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: %[[LOW:.*]] = memref.load %{{.*}}[] : memref<i64>
// CHECK: %[[SMALLER:.*]] = arith.cmpi slt, %[[LOWS]], %[[LOW]]
// CHECK: arith.select %[[SMALLER]], %[[LOWS]], %[[LOW]]
func.func @ints(%n: i64) {
  %s = memref.alloca() : memref<i64>
  %m = memref.alloca() : memref<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  plait.parallel_for %c0 step %c1 count %n reduce(%s, %m : memref<i64>, memref<i64>) attributes {reduction_kinds = ["checked_add", "min"]} {
  ^bb0(%i: i64):
    plait.continue
  }
  return
}

// An array reduction: each call of the body fills an array of its own with
// the identity, the body updates that one, and its elements are added into
// the thread's partial; the caller adds the partials into the array.
// CHECK-LABEL: func.func private @columns_parallel_0(
// CHECK-SAME: %[[SHARED:[^:]*]]: memref<?xf64, strided<[1], offset: ?>>, %[[PARTS:[^:]*]]: memref<?xf64>,
// CHECK: %[[FLAT:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: memref.store %{{.*}}, %[[FLAT]]
// CHECK: %[[OWN:.*]] = memref.reinterpret_cast %[[FLAT]]
// CHECK: plait.for
// CHECK: memref.load %[[OWN]]
// CHECK: memref.store %{{.*}}, %[[OWN]]
// CHECK: plait.continue
// CHECK: memref.load %[[PARTS]]
// CHECK: memref.load %[[OWN]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[PARTS]]
// CHECK: memref.dealloc %[[FLAT]]
// CHECK-LABEL: func.func @columns(
// CHECK: %[[BUFFER:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: plait.parallel_call @columns_parallel_0(%arg0, %[[BUFFER]],
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[BUFFER]]
// CHECK: memref.load %arg0
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %arg0
// CHECK: memref.dealloc %[[BUFFER]]
func.func @columns(%acc: memref<?xf64, strided<[1], offset: ?>>, %n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %zero = arith.constant 0 : index
  plait.parallel_for %c0 step %c1 count %n reduce_arrays(%acc : memref<?xf64, strided<[1], offset: ?>>) attributes {reduction_kinds = [], array_reduction_kinds = ["add"]} {
  ^bb0(%i: i64):
    %x = memref.load %acc[%zero] : memref<?xf64, strided<[1], offset: ?>>
    %one = arith.constant 1.0 : f64
    %y = arith.addf %x, %one : f64
    memref.store %y, %acc[%zero] : memref<?xf64, strided<[1], offset: ?>>
    plait.continue
  }
  return
}

// A loop that calls into the interpreter (print, here through a callee)
// runs serially, as a plait.for on the caller's thread.
// CHECK-LABEL: func.func @prints(
// CHECK-NOT: parallel_call
// CHECK: plait.for %[[K:.*]] = %{{.*}} to %arg0 step
// CHECK: %[[SCALED:.*]] = arith.muli %[[K]]
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[SCALED]]
// CHECK: call @say(%[[I]])
func.func private @plait_rt_print(i64) -> i32
func.func private @say(%i: i64) -> i32 {
  %s = call @plait_rt_print(%i) : (i64) -> i32
  return %s : i32
}
func.func @prints(%n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  plait.parallel_for %c0 step %c1 count %n attributes {reduction_kinds = []} {
  ^bb0(%i: i64):
    %s = func.call @say(%i) : (i64) -> i32
    plait.continue
  }
  return
}
