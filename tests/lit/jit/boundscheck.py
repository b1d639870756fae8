# boundscheck=False: indices are wrapped, not checked.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


def load(a, i):
    return a[i]


unchecked = plait.jit(boundscheck=False)(load)
checked = plait.jit(load)
assert unchecked(np.arange(3.0), -1) == 2.0 and checked(np.arange(3.0), 1) == 1.0

# CHECK-LABEL: unchecked: plait
# CHECK: plait.index %{{.*}}, %{{.*}} axis 0 unchecked
print("unchecked: plait")
print(unchecked.inspect(stage="plait"))

# CHECK-LABEL: unchecked: mlir
# CHECK-NOT: plait_rt_set_error_arg
# CHECK-NOT: IndexError
print("unchecked: mlir")
print(unchecked.inspect(stage="mlir"))

# CHECK-LABEL: checked: mlir
# CHECK: "IndexError", "index {0} is out of bounds for axis {1} with size {2}"
# CHECK: call @plait_rt_set_error_arg
print("checked: mlir")
print(checked.inspect(stage="mlir"))
