# A loop that carries a float from one iteration to the next (a sum without
# fastmath) is not unrolled at run time: the chain through the float sets its
# speed, and eight copies of the body would only cost compile time. Nor is a
# loop that contains loops: each copy would hold all of them. (Innermost
# loops without such a chain keep LLVM's choice, which depends on the CPU.)
# RUN: %python %s | FileCheck %s
import math

import numpy as np

import plait


@plait.jit
def total(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


x = np.linspace(0.0, 1.0, 101)
assert total(x) == sum(x.tolist())

print("total: llvm")
print(total.inspect(stage="llvm"))

# One addition in the loop, which is marked.
# CHECK-LABEL: total: llvm
# CHECK: fadd double
# CHECK-NOT: fadd double
# CHECK: br i1 {{.*}}, !llvm.loop ![[LOOP:[0-9]+]]
# CHECK-NOT: fadd double
# CHECK: ![[LOOP]] = distinct !{![[LOOP]], ![[MARK:[0-9]+]]}
# CHECK: ![[MARK]] = !{!"llvm.loop.unroll.runtime.disable"


# A call in the inner loop keeps LLVM from unrolling or vectorising it.
@plait.jit
def tanh_in_place(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            a[i, j] = math.tanh(a[i, j])


y = np.linspace(-2.0, 2.0, 12).reshape(3, 4)
want = np.array([[math.tanh(v) for v in row] for row in y.tolist()])
tanh_in_place(y)
assert np.array_equal(y, want)

print("tanh_in_place: llvm")
print(tanh_in_place.inspect(stage="llvm"))

# The inner loop (the one with the call) is left as LLVM has it; the outer
# loop, the last branch back, is marked.
# CHECK-LABEL: tanh_in_place: llvm
# CHECK: call double @tanh
# CHECK-NOT: !llvm.loop
# CHECK: br i1 {{.*}}, !llvm.loop ![[OUTER:[0-9]+]]
# CHECK-NOT: !llvm.loop
# CHECK: ![[OUTER]] = distinct !{![[OUTER]], ![[OUTER_MARK:[0-9]+]]}
# CHECK: ![[OUTER_MARK]] = !{!"llvm.loop.unroll.runtime.disable"
