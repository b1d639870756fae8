# np.exp of float64 arrays is operations of plait's own (the C library's
# exp is a call, which does not vectorise), and np.max keeps eight lanes of
# maxima: both loops vectorise.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


@plait.jit
def exponentials(x):
    return np.exp(x)


@plait.jit
def largest(x):
    return np.max(x)


a = np.linspace(-3.0, 3.0, 37)
np.testing.assert_allclose(exponentials(a), np.exp(a), rtol=2.3e-16)
assert largest(a) == 3.0

print("exponentials: llvm")
print(exponentials.inspect(stage="llvm"))
# CHECK-LABEL: exponentials: llvm
# CHECK: fmul <{{[0-9]+}} x double>
# CHECK-NOT: call double @exp(

print("largest: llvm")
print(largest.inspect(stage="llvm"))
# CHECK-LABEL: largest: llvm
# CHECK: fcmp {{[a-z]+}} <{{[0-9]+}} x double>
