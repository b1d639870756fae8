# A math call whose argument is in the function's quiet range (where
# CPython's checks cannot raise: exp below 709) skips its checks, and the
# test is of the argument, before the call: the argument then need not
# outlive the call (in a loop it was spilled and reloaded every iteration).
# The checked copy of the call classifies the argument first.
# RUN: %python %s | FileCheck %s
import math

import numpy as np

import plait


def exp_sum(xs, shift):
    total = 0.0
    for i in range(xs.shape[0]):
        total += math.exp(xs[i] - shift)
    return total


compiled = plait.jit(exp_sum)
xs = np.linspace(-5.0, 5.0, 101)
assert compiled(xs, 1.0) == exp_sum(xs, 1.0)
try:
    compiled(xs, -705.0)
    raise AssertionError("exp of 710 did not raise")
except OverflowError as error:
    assert str(error) == "math range error"

print("exp_sum: llvm")
print(compiled.inspect(stage="llvm"))

# CHECK-LABEL: exp_sum: llvm
# CHECK: [[ARG:%[0-9]+]] = fsub double
# CHECK-NEXT: [[OUTSIDE:%[0-9]+]] = fcmp ugt double [[ARG]], 7.090000e+02
# CHECK-NEXT: br i1 [[OUTSIDE]], label %[[CHECKED:[0-9]+]], label %[[QUIET:[0-9]+]]
# CHECK: [[QUIET]]:
# CHECK-NEXT: call double @exp(double [[ARG]])
# CHECK-NEXT: br label
# CHECK: [[CHECKED]]:
# CHECK-NEXT: fcmp uno double [[ARG]]
# CHECK-NEXT: call double @exp(double [[ARG]])
