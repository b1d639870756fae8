# Python ints are int64, but most fit 32 bits: an int64 division or
# remainder whose operands both fit runs as a 32-bit division (LLVM's
# idivq-to-divl, which plait sets on every x86-64 CPU), the others as
# a 64-bit one.
# RUN: %python %s | FileCheck %s
import plait


@plait.jit
def divisors(n):
    count = 0
    for d in range(1, n + 1):
        if n % d == 0:
            count += 1
    return count


@plait.jit
def quotient(a, b):
    return a // b


assert divisors(36) == 9 and divisors(97) == 2
# Both paths: operands that fit 32 bits, and ones that do not.
for a, b in [(7, 2), (-7, 2), (2**40 + 5, 3), (-(2**40), 7), (2**31, -(2**33)), (2**63 - 1, 2**32)]:
    assert quotient(a, b) == a // b

# CHECK-LABEL: divisors
# CHECK-DAG: divl
# CHECK-DAG: idivq
print("divisors")
print(divisors.inspect(stage="asm"))
