//===- Passes.h - plait's own MLIR passes and pipelines ---------*- C++ -*-===//
#ifndef PLAIT_PASSES_PASSES_H
#define PLAIT_PASSES_PASSES_H

#include <memory>
#include <shared_mutex>
#include <string>

namespace mlir {
class Pass;
class OpPassManager;
} // namespace mlir

namespace plait {

/// Name of the attribute that records a func.func's builtin signature so that
/// it survives lowering to llvm.func (the execution engine marshals by it).
inline constexpr const char *kSignatureAttrName = "plait_signature";

/// Name of the lowering pipeline func/arith/scf/cf/math/memref -> LLVM dialect.
inline constexpr const char *kLowerToLLVMPipelineName = "plait-lower-to-llvm";

/// `plait-annotate-signatures`: sets kSignatureAttrName on every func.func.
std::unique_ptr<mlir::Pass> createAnnotateSignaturesPass();

/// Adds plait-lower-to-llvm's passes to `pm` (anchored on builtin.module).
/// `genericAllocation`: memref.alloc calls _mlir_memref_to_llvm_alloc (plait's
/// arena-tracking allocator) instead of malloc.
void buildLowerToLLVMPipeline(mlir::OpPassManager &pm, bool genericAllocation = false);

/// Registers plait's passes and pipelines except the test rendezvous (called
/// once per process by ensurePassesRegistered).
void registerPlaitPasses();

/// Registers `test-rendezvous{barrier-id=<str> participants=<n>
/// timeout-seconds=<s>}`: idempotent and thread-safe.
void registerRendezvousPass();

/// MLIR's pass registry is a plain global map. Reading it (parsing a pipeline)
/// takes this lock shared; registering after start-up takes it exclusively.
std::shared_mutex &passRegistryMutex();

} // namespace plait

#endif // PLAIT_PASSES_PASSES_H
