// plait-hoist-allocas: fixed-size slots inside loops move to the entry block.
// RUN: plait-opt %s --plait-hoist-allocas | FileCheck %s

// CHECK-LABEL: func.func @inlined_in_loop
// CHECK-NEXT: memref.alloca() : memref<f64>
// CHECK: memref.alloca() : memref<i64>
// CHECK: plait.for
// CHECK-NOT: memref.alloca
// CHECK: plait.continue
func.func @inlined_in_loop(%n: i64) -> i32 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %slot = memref.alloca() : memref<i64>
  %how = plait.for %i = %c0 to %n step %c1 {
    %callee = memref.alloca() : memref<f64>
    %f = arith.constant 1.0 : f64
    memref.store %f, %callee[] : memref<f64>
    memref.store %i, %slot[] : memref<i64>
    plait.continue
  }
  return %how : i32
}

// CHECK-LABEL: func.func @dynamic_size
// CHECK: cf.br
// CHECK: ^bb1:
// CHECK-NEXT: memref.alloca(%arg0) : memref<?xf64>
func.func @dynamic_size(%n: index) {
  cf.br ^bb1
^bb1:
  %buffer = memref.alloca(%n) : memref<?xf64>
  return
}
