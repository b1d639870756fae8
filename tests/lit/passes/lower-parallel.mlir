// plait-lower-parallel: the captures go in one struct on the caller's stack;
// a trampoline of the runtime's body signature loads them and calls the
// outlined function.
// RUN: plait-opt %s --%memref-to-llvm --plait-lower-arrays --plait-lower-parallel --convert-func-to-llvm --reconcile-unrealized-casts | FileCheck %s

// CHECK-LABEL: llvm.func internal @body_trampoline(
// CHECK-SAME: %[[CTX:[^:]*]]: !llvm.ptr{{.*}}, %[[BEGIN:[^:]*]]: i64, %[[END:[^:]*]]: i64, %[[WORKER:[^:]*]]: i64) -> i32
// CHECK: %[[RECORD:.*]] = llvm.load
// CHECK: %[[ARRAY:.*]] = llvm.extractvalue %[[RECORD]][0]
// CHECK: %[[SCALE:.*]] = llvm.extractvalue %[[RECORD]][1]
// CHECK: %[[STATUS:.*]] = llvm.call @body(%{{.*}}, %[[SCALE]], %[[BEGIN]], %[[END]], %[[WORKER]])
// CHECK: llvm.return %[[STATUS]] : i32
func.func private @body(%a: memref<?xf64>, %scale: f64, %begin: i64, %end: i64, %worker: i64) -> i32 {
  %c0 = arith.constant 0 : i32
  return %c0 : i32
}

// CHECK-LABEL: llvm.func @caller(
// CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr{{.*}}, ptr{{.*}}, i64, array<1 x i64>, array<1 x i64>)>, f64)>
// CHECK: %[[FILLED:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1]
// CHECK: llvm.store %[[FILLED]], %[[SLOT]]
// CHECK: %[[CODE:.*]] = llvm.mlir.addressof @body_trampoline
// CHECK: %[[S:.*]] = llvm.call @plait_rt_parallel_for(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr{{.*}}, !llvm.ptr{{.*}}, i64, i64) -> i32
// CHECK: llvm.return %[[S]]
// CHECK: llvm.func @plait_rt_parallel_for(!llvm.ptr{{.*}}, !llvm.ptr{{.*}}, i64, i64) -> i32
func.func @caller(%a: memref<?xf64>, %scale: f64, %n: i64, %p: i64) -> i32 {
  %s = plait.parallel_call @body(%a, %scale) count %n participants %p : memref<?xf64>, f64
  return %s : i32
}
