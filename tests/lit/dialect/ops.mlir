// The plait dialect's operations print and parse back unchanged.
// RUN: plait-opt %s | plait-opt | FileCheck %s

// CHECK-LABEL: func.func @arithmetic
func.func @arithmetic(%a: i64, %b: i64, %n: i64) -> index {
  // CHECK: plait.add check %{{.*}}, %{{.*}}
  %s = plait.add check %a, %b
  // CHECK: plait.sub wrap
  %d = plait.sub wrap %s, %b
  // CHECK: plait.mul check
  %m = plait.mul check %d, %a
  // CHECK: plait.floordiv check
  %q = plait.floordiv check %m, %b
  // CHECK: plait.mod wrap
  %r = plait.mod wrap %q, %b
  // CHECK: plait.assume_nonnegative
  %p = plait.assume_nonnegative %r
  // CHECK: plait.index %{{.*}}, %{{.*}} axis 1 unchecked
  %u = plait.index %p, %n axis 1 unchecked
  // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
  %i = plait.index %p, %n axis 0
  return %i : index
}

// CHECK-LABEL: func.func @raising
func.func @raising(%c: i1, %v: i64, %s: i32) {
  // CHECK: plait.raise_if %{{.*}}, "ValueError", "bad {0}"(%{{.*}})
  plait.raise_if %c, "ValueError", "bad {0}" (%v)
  // CHECK: plait.raise_if %{{.*}}, "ZeroDivisionError", "division by zero"{{$}}
  plait.raise_if %c, "ZeroDivisionError", "division by zero"
  // CHECK: plait.check_status %{{.*}}
  plait.check_status %s
  return
}

// CHECK-LABEL: func.func @loops
func.func @loops(%start: i64, %stop: i64, %step: i64) -> i32 {
  // CHECK: %{{.*}} = plait.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
  %how = plait.for %i = %start to %stop step %step {
    %c = arith.cmpi eq, %i, %stop : i64
    // CHECK: cf.cond_br
    cf.cond_br %c, ^out, ^more
  ^out:
    // CHECK: plait.break
    plait.break
  ^more:
    %d = arith.cmpi eq, %i, %start : i64
    cf.cond_br %d, ^leave, ^next
  ^leave:
    // CHECK: plait.leave
    plait.leave
  ^next:
    // CHECK: plait.continue
    plait.continue
  }
  return %how : i32
}

// CHECK-LABEL: func.func @slices
func.func @slices(%n: i64, %a: i64, %s: i64) -> (i64, i64, i64) {
  // CHECK: plait.slice %{{.*}}{{$}}
  %f0, %c0, %i0 = plait.slice %n
  // CHECK: plait.slice %{{.*}} lower %{{.*}} step %{{.*}}{{$}}
  %f1, %c1, %i1 = plait.slice %n lower %a step %s
  // CHECK: plait.slice %{{.*}} upper %{{.*}}{{$}}
  %f2, %c2, %i2 = plait.slice %n upper %a
  return %f1, %c1, %i2 : i64, i64, i64
}

// CHECK-LABEL: func.func @array_variables
func.func @array_variables(%a: memref<?xf64, strided<[?], offset: ?>>) -> memref<?xf64, strided<[?], offset: ?>> {
  // CHECK: %[[SLOT:.*]] = plait.array_slot : <memref<?xf64, strided<[?], offset: ?>>>
  %slot = plait.array_slot : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
  // CHECK: plait.retain %{{.*}} : memref<?xf64, strided<[?], offset: ?>>
  plait.retain %a : memref<?xf64, strided<[?], offset: ?>>
  // CHECK: plait.store_array %{{.*}}, %[[SLOT]] : <memref<?xf64, strided<[?], offset: ?>>>
  plait.store_array %a, %slot : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
  // CHECK: plait.load_array %[[SLOT]] : <memref<?xf64, strided<[?], offset: ?>>>
  %b = plait.load_array %slot : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
  // CHECK: plait.release %{{.*}} : memref<?xf64, strided<[?], offset: ?>>
  plait.release %b : memref<?xf64, strided<[?], offset: ?>>
  return %a : memref<?xf64, strided<[?], offset: ?>>
}

// CHECK-LABEL: func.func @item_slots
func.func @item_slots(%address: i64) -> memref<?xf64> {
  // CHECK: plait.item_slot %{{.*}} : <memref<?xf64>>
  %slot = plait.item_slot %address : !plait.array_slot<memref<?xf64>>
  %a = plait.load_array %slot : !plait.array_slot<memref<?xf64>>
  return %a : memref<?xf64>
}

// CHECK-LABEL: func.func @lists
func.func @lists(%address: i64, %length: index) -> memref<?xi64, strided<[1], offset: ?>> {
  // CHECK: plait.list_items %{{.*}}, %{{.*}} : memref<?xi64, strided<[1], offset: ?>>
  %items = plait.list_items %address, %length : memref<?xi64, strided<[1], offset: ?>>
  return %items : memref<?xi64, strided<[1], offset: ?>>
}
