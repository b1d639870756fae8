// The verifiers reject malformed plait operations.
// RUN: plait-opt %s --split-input-file --verify-diagnostics

func.func @placeholder_without_value(%c: i1, %v: i64) {
  // expected-error @+1 {{message names value {1} but 1 values are recorded}}
  plait.raise_if %c, "IndexError", "index {0} of {1}" (%v)
  return
}

// -----

func.func @loop_variable_type(%a: i64) -> i32 {
  // expected-error @+1 {{needs a body whose entry block takes the loop variable (i64)}}
  %how = "plait.for"(%a, %a, %a) ({
  ^bb0(%i: i32):
    plait.continue
  }) : (i64, i64, i64) -> i32
  return %how : i32
}

// -----

func.func @break_outside_a_loop() {
  // expected-error @+1 {{expects parent op 'plait.for'}}
  plait.break
}

// -----

// expected-note @+1 {{prior use here}}
func.func @wrong_operand_type(%a: i32) -> i64 {
  // expected-error @+1 {{use of value '%a' expects different type than prior uses}}
  %s = plait.add check %a, %a
  return %s : i64
}

// -----

func.func @store_of_another_array_type(%a: memref<?xf32>) {
  %slot = plait.array_slot : !plait.array_slot<memref<?xf64>>
  // expected-error @+1 {{failed to verify that the value is the slot's array type}}
  "plait.store_array"(%a, %slot) : (memref<?xf32>, !plait.array_slot<memref<?xf64>>) -> ()
  return
}

// -----

func.func @part_of_a_real_array(%a: memref<?xf64>) {
  // expected-error @+1 {{needs an array of complex numbers, not 'f64'}}
  %re = plait.complex_part %a {imaginary = false} : memref<?xf64> to memref<?xf64>
  return
}

// -----

func.func @part_of_another_type(%z: memref<?xcomplex<f64>>) {
  // expected-error @+1 {{gives an array of 'f64', not 'f32'}}
  %re = plait.complex_part %z {imaginary = false} : memref<?xcomplex<f64>> to memref<?xf32>
  return
}

// -----

func.func @strided_list_items(%address: i64, %length: index) {
  // expected-error @+1 {{gives contiguous items, not 'memref<?xf64, strided<[2]>>'}}
  %items = plait.list_items %address, %length : memref<?xf64, strided<[2]>>
  return
}

// -----

func.func @elementwise_rank(%a: memref<?xf64>, %n: i64) -> memref<?xf64> {
  // expected-error @+1 {{needs one size per axis of its result}}
  %r = plait.elementwise(%a : memref<?xf64>) shape(%n, %n) -> memref<?xf64> {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  return %r : memref<?xf64>
}

// -----

func.func @elementwise_element_type(%a: memref<?xf64>, %n: i64) -> memref<?xf64> {
  // expected-error @+1 {{takes elements of its inputs' element types}}
  %r = plait.elementwise(%a : memref<?xf64>) shape(%n) -> memref<?xf64> {
  ^bb0(%x: f32):
    %y = arith.extf %x : f32 to f64
    plait.yield %y : f64
  }
  return %r : memref<?xf64>
}

// -----

func.func @elementwise_yield_type(%a: memref<?xf64>, %n: i64) -> memref<?xf64> {
  // expected-error @+1 {{yields elements of another type than its result's}}
  %r = plait.elementwise(%a : memref<?xf64>) shape(%n) -> memref<?xf64> {
  ^bb0(%x: f64):
    %y = arith.truncf %x : f64 to f32
    plait.yield %y : f32
  }
  return %r : memref<?xf64>
}

// -----

func.func @pairwise_sum_rank(%a: memref<?x?xf64>, %n: i64) -> f64 {
  // expected-error @+1 {{needs one size per axis of its result}}
  %s = plait.pairwise_sum(%a : memref<?x?xf64>) shape(%n, %n) -> f64 {
  ^bb0(%x: f64):
    plait.yield %x : f64
  }
  return %s : f64
}

// -----

func.func @parallel_for_break(%n: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  plait.parallel_for %c0 step %c1 count %n attributes {reduction_kinds = []} {
  ^bb0(%i: i64):
    // expected-error @+1 {{expects parent op 'plait.for'}}
    plait.break
  }
  return
}

// -----

func.func @parallel_for_kinds(%n: i64, %s: memref<f64>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-error @+1 {{needs one reduction kind per reduction slot}}
  plait.parallel_for %c0 step %c1 count %n reduce(%s : memref<f64>) attributes {reduction_kinds = []} {
  ^bb0(%i: i64):
    plait.continue
  }
  return
}

// -----

func.func @parallel_for_float_or(%n: i64, %s: memref<f64>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-error @+1 {{reduces a 'f64' with 'or'}}
  plait.parallel_for %c0 step %c1 count %n reduce(%s : memref<f64>) attributes {reduction_kinds = ["or"]} {
  ^bb0(%i: i64):
    plait.continue
  }
  return
}

// -----

func.func @parallel_for_vector_slot(%n: i64, %s: memref<4xf64>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-error @+1 {{reduces a slot that is not a scalar}}
  plait.parallel_for %c0 step %c1 count %n reduce(%s : memref<4xf64>) attributes {reduction_kinds = ["add"]} {
  ^bb0(%i: i64):
    plait.continue
  }
  return
}
