# Overflow checks that cannot fail are dropped: range analysis proves the
# loop variable plus one fits, and loop versioning adds a copy of the loop,
# run when a guard computed before it shows nothing in it can overflow,
# with no checks at all.
# RUN: %python %s | FileCheck %s
import plait


def successors(n):
    total = 0
    for i in range(n):
        total = total + (i + 1) * i
    return total


f = plait.jit(successors)
assert f(10) == successors(10)

# As emitted, every operation is checked.
# CHECK-LABEL: emitted
# CHECK: plait.for
# CHECK: plait.add check
# CHECK: plait.mul check
# CHECK: plait.add check
print("emitted")
print(f.inspect(stage="plait"))

# CHECK-LABEL: optimized
# CHECK: scf.if
# CHECK: plait.for
# CHECK: plait.add wrap
# CHECK-NEXT: plait.mul wrap
# CHECK-NEXT: plait.add wrap
# In the other copy, i + 1 fits (i <= n - 1); (i + 1) * i and the running
# total may not.
# CHECK: else
# CHECK: plait.for
# CHECK: plait.add wrap
# CHECK-NEXT: plait.mul check
# CHECK-NEXT: plait.add check
print("optimized")
print(f.inspect(stage="optimized-plait"))
