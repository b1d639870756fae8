// plait-fuse-elementwise: an elementwise result only another elementwise
// operation reads (then released) is computed inside it.
// RUN: plait-opt %s --plait-fuse-elementwise | FileCheck %s

!array = memref<?xf64, strided<[1], offset: ?>>

func.func private @pow(f64, f64) -> f64 attributes {plait.pure}
func.func private @log_it(f64) -> f64

// (a - b) * 2.0: one operation, the subtraction inlined before the product,
// no temporary to release.
// CHECK-LABEL: func.func @chain
// CHECK: %[[R:.*]] = plait.elementwise(%arg0, %arg1 : {{.*}}) shape(%arg2)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[D]], %{{.*}}
// CHECK-NEXT: plait.yield %[[P]]
// CHECK-NOT: plait.elementwise
// CHECK-NOT: plait.release
// CHECK: return %[[R]]
func.func @chain(%a: !array, %b: !array, %n: i64) -> !array {
  %two = arith.constant 2.0 : f64
  %d = plait.elementwise(%a, %b : !array, !array) shape(%n) -> !array {
  ^bb0(%x: f64, %y: f64):
    %r = arith.subf %x, %y : f64
    plait.yield %r : f64
  }
  %p = plait.elementwise(%d : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = arith.mulf %x, %two : f64
    plait.yield %r : f64
  }
  plait.release %d : !array
  return %p : !array
}

// A shared input is read once; a pure call fuses; the size asked of the
// temporary comes from its shape.
// CHECK-LABEL: func.func @shared_input
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: plait.elementwise(%arg0 : {{.*}}) shape(%arg1)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64):
// CHECK-NEXT: func.call @pow(%[[A]], %{{.*}})
// CHECK-NEXT: arith.addf %{{.*}}, %[[A]]
// CHECK: return %{{.*}}, %[[N]]
func.func @shared_input(%a: !array, %n: i64) -> (!array, index) {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f64
  %s = plait.elementwise(%a : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = func.call @pow(%x, %two) : (f64, f64) -> f64
    plait.yield %r : f64
  }
  %size = memref.dim %s, %c0 : !array
  %t = plait.elementwise(%s, %a : !array, !array) shape(%n) -> !array {
  ^bb0(%x: f64, %y: f64):
    %r = arith.addf %x, %y : f64
    plait.yield %r : f64
  }
  plait.release %s : !array
  return %t, %size : !array, index
}

// The producer's input is a temporary released before the consumer (as
// `abs(t) * 2.0` for a temporary t frees it): the release waits until
// after the fused operation. The fused chain has no releases left.
// CHECK-LABEL: func.func @release_waits
// CHECK: %[[R:.*]] = plait.elementwise(%arg0 :
// CHECK: math.absf
// CHECK: arith.mulf
// CHECK: plait.yield
// CHECK-NEXT: }
// CHECK-NEXT: plait.release %arg0
// CHECK-NEXT: return %[[R]]
func.func @release_waits(%t: !array, %n: i64) -> !array {
  %two = arith.constant 2.0 : f64
  %u = plait.elementwise(%t : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = math.absf %x : f64
    plait.yield %r : f64
  }
  plait.release %t : !array
  %v = plait.elementwise(%u : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = arith.mulf %x, %two : f64
    plait.yield %r : f64
  }
  plait.release %u : !array
  return %v : !array
}

// Not fused: the temporary is also returned; a store between the two may
// change an input; the producer calls a function that may write memory.
// CHECK-LABEL: func.func @kept_apart
// CHECK-COUNT-6: plait.elementwise
func.func @kept_apart(%a: !array, %n: i64, %i: index) -> !array {
  %zero = arith.constant 0.0 : f64
  %s = plait.elementwise(%a : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = arith.negf %x : f64
    plait.yield %r : f64
  }
  %t = plait.elementwise(%s : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  plait.release %t : !array
  %u = plait.elementwise(%a : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = arith.negf %x : f64
    plait.yield %r : f64
  }
  memref.store %zero, %a[%i] : !array
  %v = plait.elementwise(%u : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  plait.release %u : !array
  plait.release %v : !array
  %w = plait.elementwise(%a : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %r = func.call @log_it(%x) : (f64) -> f64
    plait.yield %r : f64
  }
  %z = plait.elementwise(%w : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  plait.release %w : !array
  plait.release %z : !array
  return %s : !array
}

// A sum reads the expression's elements as they are computed: no array.
// CHECK-LABEL: func.func @summed
// CHECK-NOT: plait.elementwise
// CHECK: %[[S:.*]] = plait.pairwise_sum(%arg0, %arg1 : {{.*}}) shape(%arg2) -> f64
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64):
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[A]], %[[B]]
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK-NEXT: plait.yield %[[P]]
// CHECK-NOT: plait.release
// CHECK: return %[[S]]
func.func @summed(%a: !array, %b: !array, %n: i64) -> f64 {
  %d = plait.elementwise(%a, %b : !array, !array) shape(%n) -> !array {
  ^bb0(%x: f64, %y: f64):
    %r = arith.subf %x, %y : f64
    %s = arith.mulf %r, %r : f64
    plait.yield %s : f64
  }
  %sum = plait.pairwise_sum(%d : !array) shape(%n) -> f64 {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  plait.release %d : !array
  return %sum : f64
}
