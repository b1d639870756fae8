//===- LLVMCompat.h - the one place for LLVM/MLIR version differences -*-===//
//
// plait builds against LLVM/MLIR 16 (Debian 12) and against the newest
// packaged version where 16 is not packaged (Debian 13: 19). Every difference
// between those versions is bridged here and nowhere else.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_LLVMCOMPAT_H
#define PLAIT_SUPPORT_LLVMCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/JITSymbol.h"
#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/ThreadPool.h"

/// LLVM 21 made OptPassGate::shouldRunPass const (the gates' overrides
/// carry this qualifier).
#if LLVM_VERSION_MAJOR >= 21
#define PLAIT_PASS_GATE_CONST const
#else
#define PLAIT_PASS_GATE_CONST
#endif

namespace plait::compat {

/// The memref-to-LLVM conversion was renamed in LLVM 17.
#if LLVM_VERSION_MAJOR >= 17
inline constexpr const char *kMemRefToLLVMPass = "finalize-memref-to-llvm";
#else
inline constexpr const char *kMemRefToLLVMPass = "convert-memref-to-llvm";
#endif

/// LLVM 18 made CodeGenFileType a scoped enum.
#if LLVM_VERSION_MAJOR >= 18
inline constexpr llvm::CodeGenFileType kAssemblyFile = llvm::CodeGenFileType::AssemblyFile;
#else
inline constexpr llvm::CodeGenFileType kAssemblyFile = llvm::CGFT_AssemblyFile;
#endif

/// LLVM 18 renamed ThreadPool to DefaultThreadPool.
#if LLVM_VERSION_MAJOR >= 18
using ThreadPool = llvm::DefaultThreadPool;
#else
using ThreadPool = llvm::ThreadPool;
#endif

/// ORC's symbol definitions became ExecutorSymbolDef in LLVM 17.
#if LLVM_VERSION_MAJOR >= 17
inline llvm::orc::ExecutorSymbolDef makeExportedSymbol(void *address) {
  return {llvm::orc::ExecutorAddr::fromPtr(address),
          llvm::JITSymbolFlags::Exported};
}
#else
inline llvm::JITEvaluatedSymbol makeExportedSymbol(void *address) {
  return {llvm::pointerToJITTargetAddress(address),
          llvm::JITSymbolFlags::Exported};
}
#endif

/// A pointer to `pointee` in the LLVM dialect, given a pointer type of the
/// same module (`sample`): LLVM 18 has opaque pointers only; before, the
/// memref lowering still made typed ones by default.
template <typename PointerType, typename ElementType>
PointerType pointerLike(PointerType sample, ElementType pointee) {
#if LLVM_VERSION_MAJOR >= 18
  (void)pointee;
  return sample;
#else
  return sample.isOpaque() ? sample : PointerType::get(pointee);
#endif
}

/// A pointer to `pointee` in the LLVM dialect: typed before LLVM 18 (as
/// the memref lowering makes them), opaque from 18 on.
template <typename PointerType, typename ElementType> PointerType pointerTo(ElementType pointee) {
#if LLVM_VERSION_MAJOR >= 18
  return PointerType::get(pointee.getContext());
#else
  return PointerType::get(pointee);
#endif
}

} // namespace plait::compat

#endif // PLAIT_SUPPORT_LLVMCOMPAT_H
