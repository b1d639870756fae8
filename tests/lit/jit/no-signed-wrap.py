# Int arithmetic proven not to overflow reaches LLVM IR with nsw, so LLVM
# knows a square is non-negative (and divides it by 7 with a shorter
# sequence). overflow='wrap' code may wrap: no nsw (unless a loop version's
# guard shows it cannot). A remainder only compared with zero has no sign
# fix-up.
# RUN: %python %s | FileCheck %s
import plait


def squares_mod(n):
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def product(a, b):
    return a * b


def divisible(a, b):
    return a % b == 0


proven = plait.jit(squares_mod)
wrapping = plait.jit(overflow="wrap")(product)
tested = plait.jit(divisible)
assert proven(1000) == squares_mod(1000)
assert wrapping(2**32, 2**31 + 3) == (product(2**32, 2**31 + 3) + 2**63) % 2**64 - 2**63
assert tested(-9, 3) and not tested(-9, 4) and tested(-(2**63), -1)

# CHECK-LABEL: proven
# CHECK: mul nsw i64 [[I:%.*]], [[I]]
# CHECK-NEXT: urem i64
print("proven")
print(proven.inspect(stage="llvm"))

# CHECK-LABEL: wrapping
# CHECK-NOT: mul nsw
# CHECK: mul i64
# CHECK-NOT: mul nsw
print("wrapping")
print(wrapping.inspect(stage="llvm"))

# CHECK-LABEL: tested
# CHECK: srem i64
# CHECK-NOT: xor
# CHECK: icmp eq i64 {{.*}}, 0
# CHECK-NOT: xor
# CHECK: ret
print("tested")
print(tested.inspect(stage="llvm"))
