// plait-lower-elementwise: an allocation, broadcast views and a loop nest;
// the innermost loop gets a copy that reads each input's last axis with the
// stride its type states (or, for an input known to repeat along it, one
// element per row), chosen when the other inputs' last axes fit.
// RUN: plait-opt %s --plait-lower-elementwise | FileCheck %s

!array = memref<?xf64, strided<[1], offset: ?>>
!matrix = memref<?x?xf64, strided<[?, 1], offset: ?>>

// CHECK-LABEL: func.func @same_rank
// CHECK: %[[FLAT:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: plait.raise_if %{{.*}}, "MemoryError", "Unable to allocate the array: it is too big"
// CHECK: %[[R:.*]] = memref.reinterpret_cast %[[FLAT]] to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [1]
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i64 to index
// The broadcast view: stride 0 where the input has one element.
// CHECK: %[[META:[^,]*]], %{{[^,]*}}, %[[SIZE:[^,]*]], %[[STRIDE:[^,]*]] = memref.extract_strided_metadata %arg0
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[SIZE]], %c1{{[_0-9]*}}
// CHECK: %[[S:.*]] = arith.select %[[ONE]], %c0{{[_0-9]*}}, %[[STRIDE]]
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[META]] to {{.*}} strides: [%[[S]]]
// The fast copy's view keeps the unit stride; it runs when the sizes agree.
// CHECK: %[[DIM:.*]] = memref.dim %arg0
// CHECK: %[[AGREE:.*]] = arith.cmpi eq, %[[DIM]], %[[N]]
// CHECK: %[[FITS:.*]] = arith.andi %{{.*}}, %[[AGREE]]
// CHECK: %[[OWN:.*]] = memref.reinterpret_cast %{{.*}} strides: [1] : memref<f64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: scf.if %[[FITS]]
// CHECK: plait.for %[[I:.*]] = %{{.*}} to %arg1 step
// CHECK: %[[K:.*]] = arith.index_cast %[[I]]
// CHECK: %[[X:.*]] = memref.load %[[OWN]][%[[K]]] : memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[Y:.*]] = arith.negf %[[X]]
// CHECK: memref.store %[[Y]], %[[R]][%[[K]]]
// CHECK-NEXT: plait.continue
// CHECK: } else {
// CHECK: memref.load %[[VIEW]]
// CHECK: return %[[R]]
func.func @same_rank(%a: !array, %n: i64) -> !array {
  %r = plait.elementwise(%a : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %y = arith.negf %x : f64
    plait.yield %y : f64
  }
  return %r : !array
}

// A row broadcast down a matrix's rows: its missing axis has stride 0 (rows
// outside, columns inside); the fast copy reads both with unit strides.
// CHECK-LABEL: func.func @row_down_matrix
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%c0{{[_0-9]*}}, %{{.*}}]
// CHECK: %[[ROW:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%c0{{[_0-9]*}}, 1]
// CHECK: plait.for
// CHECK: scf.if
// CHECK: plait.for
// CHECK: memref.load %[[ROW]][%{{.*}}, %{{.*}}] : memref<?x?xf64, strided<[?, 1], offset: ?>>
// CHECK: arith.addf
// CHECK: plait.continue
// CHECK: } else {
func.func @row_down_matrix(%m: !matrix, %row: !array, %rows: i64, %columns: i64) -> !matrix {
  %r = plait.elementwise(%m, %row : !matrix, !array) shape(%rows, %columns) -> !matrix {
  ^bb0(%x: f64, %y: f64):
    %z = arith.addf %x, %y : f64
    plait.yield %z : f64
  }
  return %r : !matrix
}

// A column across a matrix (as `v[:, None]` makes it: one element on its
// last axis for certain) is read at index 0 of that axis in the fast copy,
// which runs when the matrix has the result's last size.
// CHECK-LABEL: func.func @column_across_matrix
// CHECK: %[[COLUMN:.*]] = memref.reinterpret_cast %arg1 to offset: [0], sizes: [%{{.*}}, 1]
// CHECK: %[[CAST:.*]] = memref.cast %[[COLUMN]]
// CHECK: %[[BASE:[^,]*]], {{.*}} = memref.extract_strided_metadata %[[CAST]]
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[BASE]]
// CHECK: plait.for %[[I:.*]] = %{{.*}} to %arg2 step
// CHECK: %[[ROW:.*]] = arith.index_cast %[[I]]
// CHECK: scf.if
// CHECK: plait.for
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: memref.load %[[VIEW]][%[[ROW]], %[[ZERO]]]
// CHECK: arith.subf
// CHECK: } else {
func.func @column_across_matrix(%m: !matrix, %v: memref<?xf64>, %rows: i64, %columns: i64) -> !matrix {
  %n = arith.index_cast %rows : i64 to index
  %column = memref.reinterpret_cast %v to offset: [0], sizes: [%n, 1], strides: [1, 1] : memref<?xf64> to memref<?x1xf64, strided<[1, 1]>>
  %dynamic = memref.cast %column : memref<?x1xf64, strided<[1, 1]>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %r = plait.elementwise(%m, %dynamic : !matrix, memref<?x?xf64, strided<[?, ?], offset: ?>>) shape(%rows, %columns) -> !matrix {
  ^bb0(%x: f64, %y: f64):
    %z = arith.subf %x, %y : f64
    plait.yield %z : f64
  }
  return %r : !matrix
}

// Inputs that all repeat along the last axis need no check: one nest.
// CHECK-LABEL: func.func @only_repeating_inputs
// CHECK-NOT: scf.if
// CHECK: plait.for
// CHECK: plait.for
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: memref.load %{{.*}}[%{{.*}}, %[[ZERO]]] : memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK-NOT: scf.if
func.func @only_repeating_inputs(%v: memref<?xf64>, %s: memref<f64>, %rows: i64, %columns: i64) -> !matrix {
  %n = arith.index_cast %rows : i64 to index
  %c1 = arith.constant 1 : index
  %column = memref.reinterpret_cast %v to offset: [0], sizes: [%n, %c1], strides: [1, 1] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %r = plait.elementwise(%column, %s : memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<f64>) shape(%rows, %columns) -> !matrix {
  ^bb0(%x: f64, %y: f64):
    %z = arith.mulf %x, %y : f64
    plait.yield %z : f64
  }
  return %r : !matrix
}

// A body of several blocks follows the loop's entry block, which branches
// into it; each yield stores and ends the iteration.
// CHECK-LABEL: func.func @several_blocks
// CHECK: plait.for
// CHECK: cf.br ^[[BODY:.*]](%{{.*}} : f64)
// CHECK: ^[[BODY]](%{{.*}}: f64):
// CHECK: cf.cond_br
// CHECK: memref.store
// CHECK-NEXT: plait.continue
// CHECK: memref.store
// CHECK-NEXT: plait.continue
func.func @several_blocks(%a: !array, %n: i64) -> !array {
  %zero = arith.constant 0.0 : f64
  %r = plait.elementwise(%a : !array) shape(%n) -> !array {
  ^bb0(%x: f64):
    %negative = arith.cmpf olt, %x, %zero : f64
    cf.cond_br %negative, ^flip, ^keep
  ^flip:
    %y = arith.negf %x : f64
    plait.yield %y : f64
  ^keep:
    plait.yield %x : f64
  }
  return %r : !array
}

// A 0-d result (no inputs) runs its body once.
// CHECK-LABEL: func.func @zero_d
// CHECK: memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: plait.for %{{.*}} = %c0{{.*}} to %c1{{.*}} step
// CHECK: memref.store %arg0, %{{.*}}[] : memref<i64, strided<[], offset: ?>>
func.func @zero_d(%v: i64) -> memref<i64, strided<[], offset: ?>> {
  %r = plait.elementwise shape() -> memref<i64, strided<[], offset: ?>> {
    plait.yield %v : i64
  }
  return %r : memref<i64, strided<[], offset: ?>>
}

// The sum of one array is the runtime's pairwise sum of its data; fewer
// than 8 elements are added here, in order from -0.0, without a call.
// CHECK-LABEL: func.func @sum_of_array
// CHECK: %[[SHORT:.*]] = arith.cmpi slt, %arg1, %{{.*}} : i64
// CHECK: %[[SUM:.*]] = scf.if %[[SHORT]] -> (f64) {
// CHECK: %[[ZERO:.*]] = arith.constant -0.000000e+00 : f64
// CHECK: scf.for %{{.*}} iter_args(%[[PARTIAL:.*]] = %[[ZERO]]) -> (f64) {
// CHECK: %[[X:.*]] = memref.load %arg0
// CHECK: arith.addf %[[PARTIAL]], %[[X]] : f64
// CHECK: } else {
// CHECK: call @plait_rt_pairwise_sum_f64(%{{.*}}, %arg1, %{{.*}}) : (i64, i64, i64) -> f64
// CHECK: return %[[SUM]]
func.func @sum_of_array(%a: !array, %n: i64) -> f64 {
  %s = plait.pairwise_sum(%a : !array) shape(%n) -> f64 {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  return %s : f64
}

// A 0-d input always repeats: only the function with broadcast views.
// CHECK-LABEL: func.func @sum_with_a_scalar_input
// CHECK-NOT: scf.if
// CHECK: call @sum_with_a_scalar_input_pairwise_sum_0(
// CHECK-NOT: @sum_with_a_scalar_input_pairwise_sum_1
func.func @sum_with_a_scalar_input(%a: !array, %s: memref<f64>, %n: i64) -> f64 {
  %sum = plait.pairwise_sum(%a, %s : !array, memref<f64>) shape(%n) -> f64 {
  ^bb0(%x: f64, %y: f64):
    %r = arith.mulf %x, %y : f64
    plait.yield %r : f64
  }
  return %sum : f64
}

// The sum of an expression calls a function that computes it in blocks of
// up to 128 elements (into a buffer, then eight accumulators) and halves
// above: one that reads the inputs directly, one through broadcast views.
// CHECK-LABEL: func.func @sum_of_expression
// CHECK: %[[WHOLE:.*]] = arith.andi
// CHECK: scf.if %[[WHOLE]] -> (f64)
// CHECK: call @sum_of_expression_pairwise_sum_0(%{{.*}}, %arg1, %arg1, %arg0, %arg2)
// CHECK: } else {
// CHECK: call @sum_of_expression_pairwise_sum_1(
// CHECK: func.func private @sum_of_expression_pairwise_sum_0(%[[START:.*]]: i64, %[[COUNT:.*]]: i64, %{{.*}}: i64, %[[IN:.*]]: memref<?xf64, strided<[1], offset: ?>>, %[[SCALE:.*]]: f64) -> f64
// CHECK: %[[BUFFER:.*]] = memref.alloca() : memref<128xf64>
// CHECK: scf.if
// CHECK: scf.for
// CHECK: memref.load %[[IN]]
// CHECK: arith.mulf %{{.*}}, %[[SCALE]]
// CHECK: memref.store %{{.*}}, %[[BUFFER]]
// CHECK: arith.constant -0.0
// CHECK: scf.for {{.*}} step %c8
// CHECK: } else {
// CHECK: call @sum_of_expression_pairwise_sum_0(%[[START]]
// CHECK: call @sum_of_expression_pairwise_sum_0(
// CHECK: func.func private @sum_of_expression_pairwise_sum_1(
// CHECK: memref.reinterpret_cast
func.func @sum_of_expression(%a: !array, %n: i64, %scale: f64) -> f64 {
  %s = plait.pairwise_sum(%a : !array) shape(%n) -> f64 {
  ^bb0(%x: f64):
    %y = arith.mulf %x, %scale : f64
    plait.yield %y : f64
  }
  return %s : f64
}
