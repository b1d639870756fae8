# Overflow checks that cannot fail are dropped: range analysis proves the
# loop variable plus one fits, and loop versioning adds a copy of the loop,
# run when a guard computed before it shows nothing in it can overflow,
# with no checks at all.
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


def successors(n):
    total = 0
    for i in range(n):
        total = total + (i + 1) * i
    return total


def successors_noted(n, note):
    # The write before the loop would run again if the function restarted:
    # the loop keeps its checked copy.
    note[0] = n
    total = 0
    for i in range(n):
        total = total + (i + 1) * i
    return total


f = plait.jit(successors)
assert f(10) == successors(10)
g = plait.jit(successors_noted)
assert g(10, np.zeros(1, dtype=np.int64)) == successors(10)
# Past the guard: the function runs again, compiled without speculation,
# and raises where the sum overflows.
for compiled, args in ((f, (4_000_000,)), (g, (4_000_000, np.zeros(1, dtype=np.int64)))):
    try:
        compiled(*args)
        raise AssertionError("no OverflowError")
    except OverflowError as error:
        assert "int64 overflow" in str(error)
assert f.stats()["compilations"] == 2 and g.stats()["compilations"] == 1

# As emitted, every operation is checked.
# CHECK-LABEL: emitted
# CHECK: plait.for
# CHECK: plait.add check
# CHECK: plait.mul check
# CHECK: plait.add check
print("emitted")
print(f.inspect(stage="plait"))

# At the start of the function, the loop is versioned speculatively: when
# the guard fails, the function stops there, having changed nothing, and
# runs again compiled without speculation.
# CHECK-LABEL: optimized
# CHECK: scf.if
# CHECK: plait.for
# CHECK: plait.add proven
# CHECK-NEXT: plait.mul proven
# CHECK-NEXT: plait.add proven
# CHECK: else
# CHECK-NOT: plait.for
# CHECK: plait.raise_if {{.*}} "plait.SpeculationFailed"
print("optimized")
print(f.inspect(stage="optimized-plait"))

# After a write: the checked copy. In it, i + 1 fits (i <= n - 1);
# (i + 1) * i and the running total may not.
# CHECK-LABEL: noted
# CHECK: scf.if
# CHECK: plait.for
# CHECK: plait.add proven
# CHECK-NEXT: plait.mul proven
# CHECK-NEXT: plait.add proven
# CHECK: else
# CHECK: plait.for
# CHECK: plait.add proven
# CHECK-NEXT: plait.mul check
# CHECK-NEXT: plait.add check
print("noted")
print(g.inspect(stage="optimized-plait"))
