// plait-cancel-retain-release: a retain and a later release of the same
// allocation in one block cancel, unless something between them may read an
// array or free one.
// RUN: plait-opt %s --plait-cancel-retain-release | FileCheck %s

!array = memref<?xf64, strided<[1], offset: ?>>
!slot = !plait.array_slot<memref<?xf64, strided<[1], offset: ?>>>

// Returning a local: retained for the caller, then released with the locals.
// CHECK-LABEL: func.func @return_a_local
func.func @return_a_local(%slot: !slot, %other: !slot) -> !array {
  %a = plait.load_array %slot : !slot
  // CHECK-NOT: plait.retain
  plait.retain %a : !array
  %b = plait.load_array %other : !slot
  // CHECK: plait.release %[[B:.*]] :
  plait.release %b : !array
  // The same slot, not stored to since: the same array.
  %a2 = plait.load_array %slot : !slot
  // CHECK-NOT: plait.release
  plait.release %a2 : !array
  return %a : !array
}

// A view shares its base's allocation.
// CHECK-LABEL: func.func @through_a_view
func.func @through_a_view(%a: !array, %n: index) {
  // CHECK-NOT: plait.retain
  plait.retain %a : !array
  %base, %offset, %size, %stride = memref.extract_strided_metadata %a : !array -> memref<f64>, index, index, index
  %view = memref.reinterpret_cast %base to offset: [%offset], sizes: [%n], strides: [1] : memref<f64> to !array
  // CHECK-NOT: plait.release
  plait.release %view : !array
  return
}

// Reading the array between them keeps both: an earlier release of another
// name for it could have freed it.
// CHECK-LABEL: func.func @read_between
func.func @read_between(%a: !array, %i: index) -> f64 {
  // CHECK: plait.retain
  plait.retain %a : !array
  %x = memref.load %a[%i] : !array
  // CHECK: plait.release
  plait.release %a : !array
  return %x : f64
}

// A store to the slot makes a later load a different array.
// CHECK-LABEL: func.func @slot_stored_between
func.func @slot_stored_between(%slot: !slot, %new: !array) {
  %a = plait.load_array %slot : !slot
  // CHECK: plait.retain
  plait.retain %a : !array
  plait.store_array %new, %slot : !slot
  %b = plait.load_array %slot : !slot
  // CHECK: plait.release
  plait.release %b : !array
  return
}

// Different blocks: kept.
// CHECK-LABEL: func.func @across_blocks
func.func @across_blocks(%a: !array) {
  // CHECK: plait.retain
  plait.retain %a : !array
  cf.br ^next
^next:
  // CHECK: plait.release
  plait.release %a : !array
  return
}

// A list item's slot may share its words with another item's slot (two
// positions that turn out equal): a store through one is not known to leave
// the other alone, so a load from it is no longer the value loaded before.
// CHECK-LABEL: func.func @item_slots_alias
func.func @item_slots_alias(%first: i64, %second: i64, %b: !array) {
  %x = plait.item_slot %first : !slot
  %y = plait.item_slot %second : !slot
  %a = plait.load_array %x : !slot
  // CHECK: plait.retain
  plait.retain %a : !array
  plait.store_array %b, %y : !slot
  %a2 = plait.load_array %x : !slot
  // CHECK: plait.release
  plait.release %a2 : !array
  return
}
