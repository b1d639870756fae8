# A loop that carries a float from one iteration to the next (a sum without
# fastmath) is not unrolled at run time: the chain through the float sets its
# speed, and eight copies of the body would only cost compile time. (Loops
# without such a chain keep LLVM's choice, which depends on the CPU.)
# RUN: %python %s | FileCheck %s
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
