// plait-lower-elementwise with `parallel` (jit(parallel=True)): loops and
// sums on the thread pool, as plait.parallel_for.
// RUN: plait-opt %s --plait-lower-elementwise | FileCheck %s

!array = memref<?xf64, strided<[1], offset: ?>>
!matrix = memref<?x?xf64, strided<[?, 1], offset: ?>>

// With `parallel`: blocks of axis 0 (at least 2^14 elements each) on the
// thread pool, each block the whole nest below it.
// CHECK-LABEL: func.func @parallel_rows
// CHECK: %[[PER:.*]] = arith.divsi
// CHECK: %[[BLOCKS:.*]] = arith.divsi
// CHECK: plait.parallel_for %{{.*}} step %{{.*}} count %[[BLOCKS]]
// CHECK: %[[BEGIN:.*]] = arith.muli %{{.*}}, %[[PER]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[BEGIN]], %[[PER]]
// CHECK: %[[END:.*]] = arith.minsi %[[NEXT]], %arg1
// CHECK: plait.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK: plait.for %{{.*}} = %{{.*}} to %arg2 step
func.func @parallel_rows(%a: !matrix, %n: i64, %m: i64) -> !matrix {
  %r = plait.elementwise(%a : !matrix) shape(%n, %m) parallel -> !matrix {
  ^bb0(%x: f64):
    %y = arith.negf %x : f64
    plait.yield %y : f64
  }
  return %r : !matrix
}

// A parallel sum: blocks of 2^16 elements, each summed into its own place,
// then the blocks' sums pairwise in order (the same for any thread count).
// CHECK-LABEL: func.func @parallel_sum
// CHECK: %[[SUMS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: plait.parallel_for
// CHECK: %[[PART:.*]] = scf.if
// CHECK: func.call @plait_rt_pairwise_sum_f64
// CHECK: memref.store %[[PART]], %[[SUMS]]
// CHECK: plait.continue
// CHECK: %[[TOTAL:.*]] = scf.if
// CHECK: call @plait_rt_pairwise_sum_f64
// CHECK: memref.dealloc %[[SUMS]]
// CHECK: return %[[TOTAL]]
func.func @parallel_sum(%a: !array, %n: i64) -> f64 {
  %s = plait.pairwise_sum(%a : !array) shape(%n) parallel -> f64 {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  return %s : f64
}
