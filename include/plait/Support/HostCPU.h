//===- HostCPU.h - what the CPU compiled code runs on can do -----*- C++ -*-===//
//
// NumPy picks its SIMD loops by the running CPU; where their rounding differs
// from the plain C loops (fused multiply-adds), plait follows the same CPU
// check so that results match NumPy's on every machine.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_HOSTCPU_H
#define PLAIT_SUPPORT_HOSTCPU_H

namespace plait {

/// Whether the CPU has fused multiply-add (x86 FMA3): NumPy's complex
/// multiply loops (AVX2/AVX-512) then fuse one product of each part.
inline bool hostHasFMA() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool fma = __builtin_cpu_supports("fma");
  return fma;
#else
  return false;
#endif
}

} // namespace plait

#endif // PLAIT_SUPPORT_HOSTCPU_H
