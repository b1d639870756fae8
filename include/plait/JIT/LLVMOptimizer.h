//===- LLVMOptimizer.h - LLVM's pipeline for plait's modules ----*- C++ -*-===//
#ifndef PLAIT_JIT_LLVMOPTIMIZER_H
#define PLAIT_JIT_LLVMOPTIMIZER_H

namespace llvm {
class Error;
class Module;
class TargetMachine;
} // namespace llvm

namespace plait::jit {

/// Runs LLVM's default pipeline of `optLevel` (0-3) on `module` for
/// `machine`, with plait's own adjustments (see LLVMOptimizer.cpp).
llvm::Error optimizeModule(llvm::Module &module, unsigned optLevel, llvm::TargetMachine &machine);

} // namespace plait::jit

#endif // PLAIT_JIT_LLVMOPTIMIZER_H
