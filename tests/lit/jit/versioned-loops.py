# An innermost loop whose indices are provably in bounds, and whose sums
# cannot overflow, runs as a copy without those checks when a guard before
# it says so (plait-version-loops); the copy vectorises.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


@plait.jit
def smooth(a, out):
    for i in range(1, len(a) - 1):
        out[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0


@plait.jit
def smooth_after_write(a, out):
    out[0] = a[0]
    for i in range(1, len(a) - 1):
        out[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0


@plait.jit
def count_small(a, bound):
    c = 0
    for i in range(len(a)):
        c += i % 4
    return c


@plait.jit
def gather(a, b):
    s = 0.0
    for i in range(len(b)):
        s += a[b[i]]
    return s


a = np.arange(10.0)
out = np.zeros(10)
smooth(a, out)
assert out[1] == 1.0
smooth_after_write(a, out)
assert out[0] == 0.0 and out[1] == 1.0
assert count_small(a, 3) == sum(i % 4 for i in range(10))
assert gather(a, np.array([1, 2])) == 3.0

# As emitted: every element access is checked.
# CHECK-LABEL: smooth: plait
# CHECK: plait.for
# CHECK: plait.index
# CHECK-NOT: scf.if
print("smooth: plait")
print(smooth.inspect(stage="plait"))

# a's indices are in range by the loop's bounds (plait-drop-index-checks);
# out[i] is versioned: the guard, then the copy (positions used as they
# are). Nothing before the loop changes anything, so the copy is
# speculative: when the guard fails, the function runs again compiled
# without speculation.
# CHECK-LABEL: smooth: optimized-plait
# CHECK: scf.if
# CHECK: plait.for
# CHECK-NOT: axis 0{{( nonnegative)?$}}
# CHECK: } else {
# CHECK-NOT: plait.for
# CHECK: "plait.SpeculationFailed"
print("smooth: optimized-plait")
print(smooth.inspect(stage="optimized-plait"))

# After a write to out, the checked original is the other copy.
# CHECK-LABEL: smooth_after_write: optimized-plait
# CHECK: scf.if
# CHECK: plait.for
# CHECK-NOT: axis 0{{( nonnegative)?$}}
# CHECK: } else {
# CHECK: plait.index {{.*}} axis 0 unchecked nonnegative
# CHECK: plait.index {{.*}} axis 0{{( nonnegative)?$}}
print("smooth_after_write: optimized-plait")
print(smooth_after_write.inspect(stage="optimized-plait"))

# The unchecked copy vectorises.
# CHECK-LABEL: smooth: llvm
# CHECK: <{{[0-9]+}} x double>
print("smooth: llvm")
print(smooth.inspect(stage="llvm"))

# c += i % 4: in the copy, the counter wraps and i % 4 is unsigned (the
# guard proved i >= 0).
# CHECK-LABEL: count_small: optimized-plait
# CHECK: scf.if
# CHECK: arith.remui
# CHECK: plait.add proven
# CHECK: } else {
# CHECK: "plait.SpeculationFailed"
print("count_small: optimized-plait")
print(count_small.inspect(stage="optimized-plait"))

# a[b[i]]: the index comes from memory; a stays checked, and b[i] needs no
# check: nothing is left to version.
# CHECK-LABEL: gather: optimized-plait
# CHECK-NOT: scf.if
# CHECK: plait.for
# CHECK: plait.index {{.*}} axis 0 unchecked nonnegative
# CHECK: plait.index {{.*}} axis 0{{( nonnegative)?$}}
# CHECK-NOT: scf.if
print("gather: optimized-plait")
print(gather.inspect(stage="optimized-plait"))
