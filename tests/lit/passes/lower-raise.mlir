// plait-lower-raise: raising returns the error's status (its position in
// the module's error table) from the function.
// RUN: plait-opt %s --plait-lower-raise | FileCheck %s

// The table: class, message, traceback frames ("file:line:function" lines).
// CHECK: module attributes {plait.errors = {{\[}}["ZeroDivisionError", "division by zero", "{{[^"]*}}lower-raise.mlir:12:\0A"], ["IndexError", "index {0} out of {1}", "{{[^"]*}}lower-raise.mlir:16:\0A"]]}

// CHECK-LABEL: func.func @raises
func.func @raises(%c: i1, %i: i64, %n: i64, %a: memref<?xf64, strided<[?], offset: ?>>) -> (i32, f64, memref<?xf64, strided<[?], offset: ?>>) {
  // CHECK: %[[CODE:.*]] = arith.constant 1 : i32
  // CHECK: cf.cond_br %arg0, ^[[ERROR:bb[0-9]+]](%[[CODE]] : i32), ^[[NEXT:bb[0-9]+]]
  plait.raise_if %c, "ZeroDivisionError", "division by zero"
  // Values for the message are recorded on the error path only.
  // CHECK: ^[[NEXT]]:
  // CHECK: cf.cond_br %arg0, ^[[RECORD:bb[0-9]+]], ^{{bb[0-9]+}}
  plait.raise_if %c, "IndexError", "index {0} out of {1}" (%i, %n)
  %s = arith.constant 0 : i32
  %x = arith.constant 1.5 : f64
  return %s, %x, %a : i32, f64, memref<?xf64, strided<[?], offset: ?>>
  // CHECK: ^[[RECORD]]:
  // CHECK: call @plait_rt_set_error_arg(%{{.*}}, %arg1)
  // CHECK: call @plait_rt_set_error_arg(%{{.*}}, %arg2)
  // CHECK: cf.br ^[[ERROR]]
  // The error return: the status, and placeholders nobody reads.
  // CHECK: ^[[ERROR]](%[[STATUS:.*]]: i32):
  // CHECK: memref.alloca
  // CHECK: return %[[STATUS]]
}

// CHECK-LABEL: func.func @propagates
func.func @propagates(%s: i32) -> i32 {
  // CHECK: %[[FAILED:.*]] = arith.cmpi ne, %arg0
  // CHECK: cf.cond_br %[[FAILED]], ^{{bb[0-9]+}}(%arg0 : i32)
  plait.check_status %s
  %ok = arith.constant 0 : i32
  return %ok : i32
}

// CHECK: func.func private @plait_rt_set_error_arg(i64, i64)
