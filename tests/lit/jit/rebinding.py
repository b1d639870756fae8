# Re-binding an array variable: the variable is a !plait.array_slot, each new
# array moves into it and the one it held is released; returning it retains
# it for the caller and releases it with the locals, a pair that
# plait-cancel-retain-release removes.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


def relax(u, steps):
    for _ in range(steps):
        u = u * 0.5 + 1.0
    return u


f = plait.jit(relax)
np.testing.assert_array_equal(f(np.zeros(4), 3), relax(np.zeros(4), 3))

print(f.inspect(stage="plait"))
# CHECK-LABEL: func.func private @{{.*}}relax
# CHECK: %[[U:.*]] = plait.array_slot : <memref<?xf64, strided<[1], offset: ?>>>
# The argument is stored (retained: NumPy's memory, so that does nothing).
# CHECK: plait.retain %arg1
# CHECK-NEXT: plait.store_array %arg1, %[[U]]
# CHECK: plait.for
# The product is a temporary: released once the sum is made.
# CHECK: %[[PRODUCT:.*]] = plait.elementwise
# CHECK: plait.elementwise(%[[PRODUCT]]
# CHECK: plait.release %[[PRODUCT]]
# CHECK: %[[OLD:.*]] = plait.load_array %[[U]]
# CHECK-NEXT: plait.store_array %{{.*}}, %[[U]]
# CHECK-NEXT: plait.release %[[OLD]]
# CHECK: plait.continue
# CHECK: %[[RESULT:.*]] = plait.load_array %[[U]]
# CHECK-NEXT: plait.retain %[[RESULT]]
# CHECK-NEXT: %[[LOCAL:.*]] = plait.load_array %[[U]]
# CHECK-NEXT: plait.release %[[LOCAL]]
# CHECK: return %{{.*}}, %[[RESULT]]

print(f.inspect(stage="optimized-plait"))
# CHECK-LABEL: func.func private @{{.*}}relax
# CHECK: plait.for
# CHECK: plait.store_array
# CHECK-NEXT: plait.release
# CHECK: plait.continue
# CHECK-NEXT: }
# CHECK-NOT: plait.retain
# CHECK-NOT: plait.release
# CHECK: return
