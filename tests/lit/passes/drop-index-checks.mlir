// plait-drop-index-checks: indices that range loops keep inside the axis
// lose their check (and their wrap of negative indices); the others keep it.
// RUN: plait-opt %s --plait-drop-index-checks | FileCheck %s

!array = memref<?xf64, strided<[1], offset: ?>>
!matrix = memref<?x?xf64, strided<[?, 1], offset: ?>>

// for i in range(a.shape[0]): a[i], a[i - 1], a[i + 1]
// CHECK-LABEL: func.func @up_to_the_size
func.func @up_to_the_size(%a: !array) -> i32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %dim = memref.dim %a, %c0 : !array
  %n = arith.index_cast %dim : index to i64
  %how = plait.for %i = %zero to %n step %one {
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
    %p = plait.index %i, %n axis 0
    %before = plait.sub check %i, %one
    // CHECK-NEXT: plait.sub
    // CHECK-NEXT: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %q = plait.index %before, %n axis 0
    %after = plait.add check %i, %one
    // CHECK-NEXT: plait.add
    // CHECK-NEXT: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %r = plait.index %after, %n axis 0
    plait.continue
  }
  return %how : i32
}

// for i in range(1, n - 1): a[i - 1], a[i + 1], with n = a.shape[0] in a
// slot stored once; the size is read again (the same array and axis).
// CHECK-LABEL: func.func @stencil
func.func @stencil(%a: !array) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %slot = memref.alloca() : memref<i64>
  %dim = memref.dim %a, %c0 : !array
  %size = arith.index_cast %dim : index to i64
  memref.store %size, %slot[] : memref<i64>
  %n = memref.load %slot[] : memref<i64>
  %stop = plait.sub check %n, %one
  %how = plait.for %i = %one to %stop step %one {
    %again = memref.dim %a, %c0 : !array
    %length = arith.index_cast %again : index to i64
    %before = plait.sub check %i, %one
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
    %p = plait.index %before, %length axis 0
    %after = plait.add check %i, %one
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
    %q = plait.index %after, %length axis 0
    // Two past i: i + 2 == n on the last iteration.
    %two = arith.constant 2 : i64
    %beyond = plait.add check %i, %two
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %r = plait.index %beyond, %length axis 0
    plait.continue
  }
  return %how : i32
}

// A slot stored twice, a wrapping sum, another array's size, another axis:
// the checks stay.
// CHECK-LABEL: func.func @unproven
func.func @unproven(%a: !array, %b: !array, %m: !matrix, %k: i64) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %slot = memref.alloca() : memref<i64>
  %dim = memref.dim %a, %c0 : !array
  %n = arith.index_cast %dim : index to i64
  memref.store %n, %slot[] : memref<i64>
  memref.store %k, %slot[] : memref<i64>
  %stop = memref.load %slot[] : memref<i64>
  %bdim = memref.dim %b, %c0 : !array
  %nb = arith.index_cast %bdim : index to i64
  %rows = memref.dim %m, %c0 : !matrix
  %columns = memref.dim %m, %c1 : !matrix
  %nrows = arith.index_cast %rows : index to i64
  %ncolumns = arith.index_cast %columns : index to i64
  %how = plait.for %i = %zero to %stop step %one {
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %p = plait.index %i, %n axis 0
    plait.continue
  }
  %how2 = plait.for %i = %zero to %n step %one {
    %wrapped = plait.sub wrap %i, %zero
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %p = plait.index %wrapped, %n axis 0
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %q = plait.index %i, %nb axis 0
    plait.continue
  }
  %how3 = plait.for %i = %zero to %nrows step %one {
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 1{{$}}
    %p = plait.index %i, %ncolumns axis 1
    plait.continue
  }
  return %how : i32
}

// for i in range(n - 1, -1, -1): a[i]; from n: checked.
// CHECK-LABEL: func.func @counting_down
func.func @counting_down(%a: !array) -> i32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i64
  %minus = arith.constant -1 : i64
  %dim = memref.dim %a, %c0 : !array
  %n = arith.index_cast %dim : index to i64
  %last = plait.sub check %n, %one
  %how = plait.for %i = %last to %minus step %minus {
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
    %p = plait.index %i, %n axis 0
    plait.continue
  }
  %how2 = plait.for %i = %n to %minus step %minus {
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
    %p = plait.index %i, %n axis 0
    plait.continue
  }
  return %how : i32
}

// for i in prange(n): for j in range(i + 1, n): for k in range(i): a[j], a[k]
// CHECK-LABEL: func.func @nested
func.func @nested(%a: !array) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %dim = memref.dim %a, %c0 : !array
  %n = arith.index_cast %dim : index to i64
  %positive = arith.cmpi sgt, %n, %zero : i64
  %count = arith.select %positive, %n, %zero : i64
  plait.parallel_for %zero step %one count %count attributes {reduction_kinds = []} {
  ^bb0(%i: i64):
    // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
    %p = plait.index %i, %n axis 0
    %next = plait.add check %i, %one
    %how = plait.for %j = %next to %n step %one {
      // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
      %q = plait.index %j, %n axis 0
      %how2 = plait.for %k = %zero to %i step %one {
        // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
        %r = plait.index %k, %n axis 0
        // k + 1 <= i < n
        %after = plait.add check %k, %one
        // CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked nonnegative
        %s = plait.index %after, %n axis 0
        // k + 2 may be n
        %two = arith.constant 2 : i64
        %beyond = plait.add check %k, %two
        // CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
        %t = plait.index %beyond, %n axis 0
        plait.continue
      }
      plait.continue
    }
    plait.continue
  }
  return
}
