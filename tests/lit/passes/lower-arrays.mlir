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
