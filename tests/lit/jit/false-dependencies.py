# An int converted to float in a loop that calls a libm function: the
# conversion writes part of an xmm register, and LLVM 16 picks the register
# it writes without seeing that the call clobbers it, so each iteration
# waited for the previous call. plait asks for a dependency-breaking xor
# before every such conversion (SharedJIT's LLVM options).
# RUN: %python %s | FileCheck %s
import math

import plait


@plait.jit
def cosine_sum(n):
    total = 0.0
    for i in range(n):
        total += math.cos(i * 0.5)
    return total


assert cosine_sum(10) == sum(math.cos(i * 0.5) for i in range(10))

# CHECK-LABEL: cosine_sum: asm
# CHECK: {{v?}}xorps [[REG:%xmm[0-9]+]], [[REG]]
# CHECK-NEXT: {{v?}}cvtsi2sd %{{[a-z0-9]+}}, [[REG]]
# CHECK: call
print("cosine_sum: asm")
print("\n".join(line for line in cosine_sum.inspect(stage="asm").splitlines() if "xor" in line or "cvtsi2sd" in line or "call" in line))
