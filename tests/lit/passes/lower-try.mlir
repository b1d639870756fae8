// plait-lower-raise with try scopes: a raise in the blocks reachable from a
// plait.try's body (up to its plait.try_end) branches to its handler with
// its status; except clauses compare the status with the codes of the
// classes they name, subclasses included.
// RUN: plait-opt %s --plait-lower-raise | FileCheck %s

// The frames of the first site: where it is, in which function.
// CHECK: plait.errors = {{\[}}["ZeroDivisionError", "division by zero", "app.py:3:f\0A"]

module attributes {plait.exception_bases = {"app.Diverged" = ["app.SolverError", "ValueError", "Exception", "BaseException"]}} {

// CHECK-LABEL: func.func @caught
func.func @caught(%c: i1, %d: i1) -> (i32, i64) {
  // CHECK: cf.br ^[[BODY:bb[0-9]+]]
  plait.try 0, ^body, ^handler
^body:
  // CHECK: ^[[BODY]]:
  // CHECK: %[[ZERO:.*]] = arith.constant 1 : i32
  // CHECK: cf.cond_br %arg0, ^[[HANDLER:bb[0-9]+]](%[[ZERO]] : i32)
  plait.raise_if %c, "ZeroDivisionError", "division by zero" loc("f"("app.py":3:5))
  // CHECK: %[[DIVERGED:.*]] = arith.constant 2 : i32
  // CHECK: cf.cond_br %arg1, ^[[HANDLER]](%[[DIVERGED]] : i32)
  plait.raise_if %d, "app.Diverged", "\01diverged"
  plait.try_end 0
  // After the scope: the function's error return.
  // CHECK: %[[OUTSIDE:.*]] = arith.constant 3 : i32
  // CHECK: cf.cond_br %arg1, ^[[ERROR:bb[0-9]+]](%[[OUTSIDE]] : i32)
  plait.raise_if %d, "KeyError", "\02"
  %one = arith.constant 1 : i64
  %ok = arith.constant 0 : i32
  return %ok, %one : i32, i64
^handler:
  // CHECK: ^[[HANDLER]](%[[STATUS:.*]]: i32):
  %status = plait.caught
  // except ValueError: the code of app.Diverged only.
  // CHECK-NOT: arith.cmpi eq, %[[STATUS]], %[[ZERO]]
  // CHECK: arith.cmpi eq, %[[STATUS]], %c2_i32
  // CHECK-NOT: arith.cmpi eq, %[[STATUS]]
  // CHECK: cf.cond_br
  %matches = plait.exception_matches %status, ["ValueError"]
  cf.cond_br %matches, ^clause, ^reraise
^clause:
  %two = arith.constant 2 : i64
  %ok2 = arith.constant 0 : i32
  return %ok2, %two : i32, i64
^reraise:
  // No clause matched: on to the error return.
  // CHECK: cf.cond_br %{{.*}}, ^[[ERROR]](%[[STATUS]] : i32)
  plait.check_status %status
  %three = arith.constant 3 : i64
  %ok3 = arith.constant 0 : i32
  return %ok3, %three : i32, i64
}

}
