# np.exp of float64 arrays is operations of plait's own (the C library's
# exp is a call, which does not vectorise), and np.max keeps eight lanes of
# maxima: both loops vectorise. Broadcast inputs are not gathers through
# run-time strides: a row down a matrix is read with its unit stride, and a
# column (a keepdims reduction's, as in a softmax) one element per row.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


@plait.jit
def exponentials(x):
    return np.exp(x)


@plait.jit
def largest(x):
    return np.max(x)


@plait.jit
def shifted_exponentials(x):
    return np.exp(x - np.max(x, axis=1, keepdims=True))


@plait.jit
def centered(x, mean):
    return (x - mean) * 2.5


a = np.linspace(-3.0, 3.0, 37)
m = np.linspace(-3.0, 3.0, 37 * 5).reshape(37, 5)
np.testing.assert_array_equal(centered(m, m[0]), (m - m[0]) * 2.5)
np.testing.assert_allclose(shifted_exponentials(m), np.exp(m - np.max(m, axis=1, keepdims=True)), rtol=2.3e-16)
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

print("shifted_exponentials: llvm")
print(shifted_exponentials.inspect(stage="llvm"))
# CHECK-LABEL: shifted_exponentials: llvm
# CHECK-NOT: masked.gather
# CHECK: fmul <{{[0-9]+}} x double>
# CHECK-NOT: masked.gather
# CHECK-NOT: call double @exp(

print("centered: llvm")
print(centered.inspect(stage="llvm"))
# CHECK-LABEL: centered: llvm
# CHECK: load <{{[0-9]+}} x double>
# CHECK: fmul <{{[0-9]+}} x double>
