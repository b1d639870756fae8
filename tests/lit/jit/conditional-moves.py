# A choice between two values that depends on the data stays a conditional
# move in a loop: as a branch, it would be mispredicted about every other
# time on random data (LLVM's x86 back end makes such branches where its
# model, which takes branches as perfectly predicted, finds the loop
# shorter; plait turns that off).
# RUN: %python %s | FileCheck %s
import numpy as np

import plait


def crc_reflected(data, poly):
    """A CRC-16 computed bit by bit, least significant bit first."""
    crc = 0xFFFF
    for byte in data:
        value = byte & 0xFF
        for _ in range(8):
            if (crc & 1) ^ (value & 1):
                crc = (crc >> 1) ^ poly
            else:
                crc >>= 1
            value >>= 1
    return crc


compiled = plait.jit(crc_reflected)
data = np.random.default_rng(3).integers(0, 256, 1000).astype(np.uint8)
assert compiled(data, 0x8408) == crc_reflected(data, 0x8408)

print("crc_reflected: asm")
print(compiled.inspect(stage="asm"))

# The bit loop is unrolled (eight steps a byte), each step a conditional
# move (with LLVM's conversion, one was left and the others were branches).
# CHECK-LABEL: crc_reflected: asm
# CHECK-COUNT-8: cmov
