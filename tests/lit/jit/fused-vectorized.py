# A chain of whole-array operations is one loop (plait-fuse-elementwise)
# whose copy for inputs of one shape vectorises: packed multiplies and
# subtractions in the machine code, no call of pow for ** 2.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


@plait.jit
def terms(x, y):
    return 100.0 * (y - x**2) ** 2 + (1.0 - x) ** 2


a = np.linspace(0.0, 1.0, 33)
np.testing.assert_array_equal(terms(a, a[::-1].copy()), terms.py_func(a, a[::-1].copy()))

print(terms.inspect(stage="optimized-plait"))
# One allocation, for the result.
# CHECK-LABEL: func.func private @{{.*}}terms
# CHECK: memref.alloc(
# CHECK-NOT: memref.alloc(
# CHECK: return

print(terms.inspect(stage="asm"))
# CHECK: {{v?}}subpd {{.*}}mm
# CHECK: {{v?}}mulpd {{.*}}mm
# CHECK-NOT: call{{.*}}pow
