// plait-lower-arrays: after the memref-to-LLVM conversion, array slots are
// allocas of the memref descriptor (allocated pointer null until stored),
// and reference counts are calls with the allocated pointer.
// RUN: plait-opt %s --%memref-to-llvm --plait-lower-arrays --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s

!array = memref<?xf64>
!slot = !plait.array_slot<memref<?xf64>>

// CHECK: llvm.func @plait_rt_array_release(i64)
// CHECK: llvm.func @plait_rt_array_retain(i64)
// CHECK-LABEL: llvm.func @variable
func.func @variable(%a: !array, %c: i1) -> !array {
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<({{.*}}, i64, array<1 x i64>, array<1 x i64>)>
  // CHECK: %[[NULL:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
  // CHECK: llvm.insertvalue %[[NULL]], %{{.*}}[0]
  // CHECK: llvm.store %{{.*}}, %[[SLOT]]
  %slot = plait.array_slot : !slot
  // CHECK: %[[ALLOCATED:.*]] = llvm.extractvalue %{{.*}}[0]
  // CHECK: %[[ADDRESS:.*]] = llvm.ptrtoint %[[ALLOCATED]] : !llvm.ptr{{.*}} to i64
  // CHECK: llvm.call @plait_rt_array_retain(%[[ADDRESS]])
  plait.retain %a : !array
  // CHECK: llvm.store %{{.*}}, %[[SLOT]]
  plait.store_array %a, %slot : !slot
  // Canonicalisation may pass slots to blocks: they become pointers too.
  cf.cond_br %c, ^use(%slot : !slot), ^use(%slot : !slot)
// CHECK: ^bb1(%[[ARG:.*]]: !llvm.ptr{{.*}}):
^use(%s: !slot):
  // CHECK: llvm.load %[[ARG]]
  %b = plait.load_array %s : !slot
  // CHECK: llvm.call @plait_rt_array_release
  plait.release %b : !array
  return %b : !array
}

// Canonicalisation may also choose between two slots with arith.select
// (two returns of different variables merged): a select of pointers.
// CHECK-LABEL: llvm.func @chosen_slot
func.func @chosen_slot(%a: !array, %c: i1) -> !array {
  %first = plait.array_slot : !slot
  %second = plait.array_slot : !slot
  plait.store_array %a, %first : !slot
  plait.store_array %a, %second : !slot
  // CHECK: %[[CHOSEN:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr
  %chosen = arith.select %c, %first, %second : !slot
  // CHECK: llvm.load %[[CHOSEN]]
  %b = plait.load_array %chosen : !slot
  return %b : !array
}

// complex_part: the float view of a complex array's parts has the same
// pointers, twice the offset (plus one for the imaginary parts) and twice
// the strides.
// CHECK-LABEL: llvm.func @imaginary_parts
func.func @imaginary_parts(%z: memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>>)
    -> memref<?x?xf64, strided<[?, ?], offset: ?>> {
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64)
  // CHECK: %[[OFFSET:.*]] = llvm.extractvalue %{{.*}}[2]
  // CHECK: %[[DOUBLED:.*]] = llvm.mul %[[OFFSET]], %[[TWO]]
  // CHECK: %[[IMAG:.*]] = llvm.add %[[DOUBLED]], %{{.*}}
  // CHECK: llvm.insertvalue %[[IMAG]], %{{.*}}[2]
  // CHECK: %[[STRIDE:.*]] = llvm.extractvalue %{{.*}}[4, 0]
  // CHECK: %[[STEP:.*]] = llvm.mul %[[STRIDE]], %[[TWO]]
  // CHECK: llvm.insertvalue %[[STEP]], %{{.*}}[4, 0]
  %im = plait.complex_part %z {imaginary = true}
      : memref<?x?xcomplex<f64>, strided<[?, ?], offset: ?>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  return %im : memref<?x?xf64, strided<[?, ?], offset: ?>>
}

// A slot inlining left in a loop body: its stack space is taken once, at
// the start of the function; it is made empty again where it stood.
// CHECK-LABEL: llvm.func @slot_in_a_loop
func.func @slot_in_a_loop(%a: !array, %n: i64) {
  // CHECK: %[[SLOT:.*]] = llvm.alloca
  // CHECK: ^bb1(
  // CHECK-NOT: llvm.alloca
  // CHECK: llvm.store %{{.*}}, %[[SLOT]]
  // CHECK: llvm.store %{{.*}}, %[[SLOT]]
  %zero = arith.constant 0 : i64
  cf.br ^loop(%zero : i64)
^loop(%i: i64):
  %slot = plait.array_slot : !slot
  plait.store_array %a, %slot : !slot
  %one = arith.constant 1 : i64
  %next = arith.addi %i, %one : i64
  %more = arith.cmpi slt, %next, %n : i64
  cf.cond_br %more, ^loop(%next : i64), ^done
^done:
  return
}

// item_slot: the descriptor at a list item's words is a slot like a
// variable's: the address as a pointer, read and written whole.
// CHECK-LABEL: llvm.func @item_slot
func.func @item_slot(%address: i64, %a: memref<?xf64, strided<[?], offset: ?>>) -> memref<?xf64, strided<[?], offset: ?>> {
  // CHECK: %[[SLOT:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
  %slot = plait.item_slot %address : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
  // CHECK: %[[OLD:.*]] = llvm.load %[[SLOT]]
  %old = plait.load_array %slot : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
  // CHECK: llvm.store %{{.*}}, %[[SLOT]]
  plait.store_array %a, %slot : !plait.array_slot<memref<?xf64, strided<[?], offset: ?>>>
  return %old : memref<?xf64, strided<[?], offset: ?>>
}

// list_items: a contiguous view of a list's items, made from the address
// and length read from its box: both pointers the address, offset 0,
// the length as the size, stride 1.
// CHECK-LABEL: llvm.func @list_items
func.func @list_items(%address: i64, %length: index) -> memref<?xf64, strided<[1], offset: ?>> {
  // CHECK: %[[POINTER:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
  // CHECK: llvm.insertvalue %[[POINTER]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1]
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64)
  // CHECK: llvm.insertvalue %[[ZERO]], %{{.*}}[2]
  // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[3, 0]
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64)
  // CHECK: llvm.insertvalue %[[ONE]], %{{.*}}[4, 0]
  %items = plait.list_items %address, %length : memref<?xf64, strided<[1], offset: ?>>
  return %items : memref<?xf64, strided<[1], offset: ?>>
}
