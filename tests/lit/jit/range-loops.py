# Python's for loops over range stay loops (plait.for) until they are
# lowered: break, continue and return are its terminators.
# RUN: %python %s | FileCheck %s
import plait


@plait.jit
def first_multiple(n, k):
    for i in range(1, n):
        if i % 2 == 0:
            continue
        if i % k == 0:
            return i
    else:
        return -1
    return 0


@plait.jit
def count_until(n, limit):
    c = 0
    for i in range(n):
        c += 1
        if c == limit:
            break
    return c


assert first_multiple(20, 7) == 7 and first_multiple(5, 11) == -1
assert count_until(10, 4) == 4

# CHECK-LABEL: first_multiple
# CHECK: %[[HOW:.*]] = plait.for %{{.*}} = %{{.*}} to %arg{{.*}} step %{{.*}} {
# CHECK: plait.continue
# Returning from inside the loop: the result waits in a slot, the loop ends.
# CHECK: memref.store
# CHECK-NEXT: plait.leave
# CHECK: }
# 2: it left because the function returns.
# CHECK: arith.cmpi eq, %[[HOW]], %c2_i32
# 0: it ran out, so the else clause runs.
# CHECK: arith.cmpi eq, %[[HOW]], %c0_i32
print("first_multiple")
print(first_multiple.inspect(stage="plait"))

# CHECK-LABEL: count_until
# CHECK: plait.for
# CHECK: plait.break
# CHECK: plait.continue
print("count_until")
print(count_until.inspect(stage="plait"))
