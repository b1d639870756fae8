# Python ints are plait's checked operations; overflow='wrap' wraps.
# RUN: %python %s | FileCheck %s
import plait


def mix(a, b):
    return (a + b) * a - b // 3 + a % b


checked = plait.jit(mix)
wrapping = plait.jit(overflow="wrap")(mix)
assert checked(7, 5) == mix(7, 5) and wrapping(7, 5) == mix(7, 5)

# CHECK-LABEL: checked: plait
# CHECK: plait.add check
# CHECK: plait.mul check
# CHECK: plait.floordiv check
# CHECK: plait.sub check
# CHECK: plait.mod check
print("checked: plait")
print(checked.inspect(stage="plait"))

# Lowered: LLVM's overflow intrinsics and the ZeroDivisionError of // and %.
# CHECK-LABEL: checked: mlir
# CHECK: llvm.intr.sadd.with.overflow
# CHECK: llvm.intr.smul.with.overflow
print("checked: mlir")
print(checked.inspect(stage="mlir"))

# CHECK-LABEL: wrapping: plait
# CHECK: plait.add wrap
# CHECK: plait.mul wrap
# CHECK: plait.floordiv wrap
print("wrapping: plait")
print(wrapping.inspect(stage="plait"))

# No overflow checks are left in the wrapping code.
# CHECK-LABEL: wrapping: mlir
# CHECK-NOT: with.overflow
# CHECK: return
print("wrapping: mlir")
print(wrapping.inspect(stage="mlir"))
