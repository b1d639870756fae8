// plait-forward-constant-slots: a load of a slot that holds one constant
// from a dominating store on becomes that constant; the others stay.
// RUN: plait-opt %s --plait-forward-constant-slots | FileCheck %s

// x = 0; for i in range(n): x += i; return x (x's bound flag).
// CHECK-LABEL: func.func @assigned_before_the_loop
func.func @assigned_before_the_loop(%n: i64, %out: memref<i1>) -> i32 {
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bound = memref.alloca() : memref<i1>
  memref.store %false, %bound[] : memref<i1>
  memref.store %true, %bound[] : memref<i1>
  %how = plait.for %i = %zero to %n step %one {
    // CHECK: plait.for
    // CHECK-NOT: memref.load
    // CHECK: arith.xori %{{.*}}true
    %inside = memref.load %bound[] : memref<i1>
    %unbound = arith.xori %inside, %true : i1
    plait.raise_if %unbound, "UnboundLocalError", "cannot access local variable 'x' where it is not associated with a value"
    memref.store %true, %bound[] : memref<i1>
    plait.continue
  }
  // CHECK-NOT: memref.load
  %after = memref.load %bound[] : memref<i1>
  memref.store %after, %out[] : memref<i1>
  return %how : i32
}

// Assigned in one branch only: the read after the branch may see false.
// CHECK-LABEL: func.func @assigned_in_a_branch
func.func @assigned_in_a_branch(%c: i1, %out: memref<i1>) {
  %false = arith.constant false
  %true = arith.constant true
  %bound = memref.alloca() : memref<i1>
  memref.store %false, %bound[] : memref<i1>
  scf.if %c {
    memref.store %true, %bound[] : memref<i1>
  }
  // CHECK: memref.load
  %after = memref.load %bound[] : memref<i1>
  memref.store %after, %out[] : memref<i1>
  return
}

// `del x` in a loop stores false again: the reads stay.
// CHECK-LABEL: func.func @deleted_in_the_loop
func.func @deleted_in_the_loop(%n: i64, %out: memref<i1>) -> i32 {
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %bound = memref.alloca() : memref<i1>
  memref.store %false, %bound[] : memref<i1>
  memref.store %true, %bound[] : memref<i1>
  %how = plait.for %i = %zero to %n step %one {
    // CHECK: plait.for
    // CHECK: memref.load
    %inside = memref.load %bound[] : memref<i1>
    memref.store %inside, %out[] : memref<i1>
    memref.store %false, %bound[] : memref<i1>
    plait.continue
  }
  return %how : i32
}

// The entry block's stores in order: the last one (false) is what a later
// read sees; the earlier true does not count.
// CHECK-LABEL: func.func @last_store_of_the_entry_block
func.func @last_store_of_the_entry_block(%out: memref<i1>) {
  %false = arith.constant false
  %true = arith.constant true
  %bound = memref.alloca() : memref<i1>
  memref.store %true, %bound[] : memref<i1>
  memref.store %false, %bound[] : memref<i1>
  // CHECK-NOT: memref.load
  // CHECK: %[[FALSE:false_[0-9]+]] = arith.constant false
  // CHECK-NEXT: memref.store %[[FALSE]], %arg0[] : memref<i1>
  %after = memref.load %bound[] : memref<i1>
  memref.store %after, %out[] : memref<i1>
  return
}

// A value that is not a constant, or two constants: the reads stay.
// CHECK-LABEL: func.func @not_one_constant
func.func @not_one_constant(%x: i64, %c: i1, %out: memref<i64>) {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %slot = memref.alloca() : memref<i64>
  %other = memref.alloca() : memref<i64>
  memref.store %zero, %slot[] : memref<i64>
  scf.if %c {
    memref.store %x, %slot[] : memref<i64>
    memref.store %zero, %other[] : memref<i64>
  } else {
    memref.store %one, %other[] : memref<i64>
  }
  // CHECK: memref.load
  %a = memref.load %slot[] : memref<i64>
  // CHECK: memref.load
  %b = memref.load %other[] : memref<i64>
  memref.store %a, %out[] : memref<i64>
  memref.store %b, %out[] : memref<i64>
  return
}
