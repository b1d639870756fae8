# Views: each sliced axis is one plait.slice (CPython's slice rules), each
# indexed one a plait.index, and the view a memref.reinterpret_cast.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


def corner(m, i, step):
    return m[i, ::step][1:]


f = plait.jit(corner)
m = np.arange(20.0).reshape(4, 5)
np.testing.assert_array_equal(f(m, -1, 2), corner(m, -1, 2))
try:
    f(m, 0, 0)
except ValueError as error:
    assert str(error) == "slice step cannot be zero"
else:
    raise AssertionError("a zero step must raise")

# CHECK-LABEL: emitted
# CHECK: plait.index %{{.*}}, %{{.*}} axis 0{{$}}
# CHECK: plait.slice %{{.*}} step %{{.*}}{{$}}
# CHECK: memref.reinterpret_cast
# CHECK: plait.slice %{{.*}} lower %{{.*}}{{$}}
# CHECK: memref.reinterpret_cast
print("emitted")
print(f.inspect(stage="plait"))

# CHECK-LABEL: lowered
# CHECK-NOT: plait.slice
# CHECK: "ValueError", "slice step cannot be zero"
print("lowered")
print(f.inspect(stage="mlir"))
