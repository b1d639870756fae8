// plait-lower-loops: range loops become a header, the body, a latch and an
// exit that receives how the loop ended.
// RUN: plait-opt %s --plait-lower-loops | FileCheck %s

// CHECK-LABEL: func.func @loop
func.func @loop(%start: i64, %stop: i64, %step: i64, %c: i1) -> i32 {
  // The trip count is unsigned (spans wider than int64).
  // CHECK: arith.divui
  // CHECK: cf.br ^[[HEADER:bb[0-9]+]](%{{.*}} : i64)
  // CHECK: ^[[HEADER]](%[[K:.*]]: i64):
  // CHECK: %[[MORE:.*]] = arith.cmpi ult, %[[K]]
  // CHECK: %[[I:.*]] = arith.addi %arg0
  // CHECK: %[[COMPLETED:.*]] = arith.constant 0 : i32
  // CHECK: cf.cond_br %[[MORE]], ^[[BODY:bb[0-9]+]](%[[I]] : i64), ^[[EXIT:bb[0-9]+]](%[[COMPLETED]] : i32)
  %how = plait.for %i = %start to %stop step %step {
    cf.cond_br %c, ^out, ^next
  ^out:
    plait.break
  ^next:
    plait.continue
  }
  // CHECK: arith.constant 1 : i32
  // CHECK: cf.br ^[[EXIT]]
  // CHECK: cf.br ^[[LATCH:bb[0-9]+]]
  // CHECK: ^[[LATCH]]:
  // CHECK: arith.addi %[[K]]
  // CHECK: cf.br ^[[HEADER]]
  // CHECK: ^[[EXIT]](%[[HOW:.*]]: i32):
  // CHECK: return %[[HOW]]
  return %how : i32
}
