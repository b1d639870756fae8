//===- Passes.h - passes on the plait dialect -------------------*- C++ -*-===//
//
// Optimisations on the dialect (loop versioning, dropping provably useless
// checks, unsigned remainders) and its lowering to standard dialects. The
// order the JIT runs them in is `buildPlaitPipeline`'s (see
// docs/design/dialect.md).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DIALECT_PLAIT_PASSES_H
#define PLAIT_DIALECT_PLAIT_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace plait::dialect {

std::unique_ptr<mlir::Pass> createFuseElementwisePass();
std::unique_ptr<mlir::Pass> createLowerElementwisePass();
std::unique_ptr<mlir::Pass> createHoistAllocasPass();
std::unique_ptr<mlir::Pass> createForwardConstantSlotsPass();
std::unique_ptr<mlir::Pass> createDropIndexChecksPass();
std::unique_ptr<mlir::Pass> createVersionLoopsPass();
std::unique_ptr<mlir::Pass> createDropOverflowChecksPass();
std::unique_ptr<mlir::Pass> createUnsignedRemainderPass();
std::unique_ptr<mlir::Pass> createLowerArithmeticPass();
std::unique_ptr<mlir::Pass> createLowerLoopsPass();
std::unique_ptr<mlir::Pass> createLowerRaisePass();
std::unique_ptr<mlir::Pass> createCancelRetainReleasePass();
std::unique_ptr<mlir::Pass> createLowerArraysPass();
std::unique_ptr<mlir::Pass> createOutlineParallelPass();
std::unique_ptr<mlir::Pass> createLowerParallelPass();

/// The run-time functions reference counts lower to (`void f(int64_t)`,
/// taking an allocated pointer).
inline constexpr const char *kArrayRetainFunction = "plait_rt_array_retain";
inline constexpr const char *kArrayReleaseFunction = "plait_rt_array_release";

/// The module attribute holding the error table LowerRaise writes: an array
/// of [exception, message, traceback frames] strings; status k is element
/// k - 1. The frames are "file:line:function" lines, innermost first.
inline constexpr const char *kErrorTableAttrName = "plait.errors";
/// The unit attribute on a function declaration that has no effects the
/// compiled code can observe (libm's functions): calls of it may move.
inline constexpr const char *kPureFunctionAttrName = "plait.pure";
/// The module attribute (a dictionary) with the running CPython's messages,
/// by key (see Messages.h).
inline constexpr const char *kMessagesAttrName = "plait.messages";
/// The module attribute naming the entry function whose loops
/// plait-version-loops may version speculatively (absent: none).
inline constexpr const char *kSpeculativeEntryAttrName = "plait.speculative_entry";
/// The exception of the plait.raise_if that ends a speculative entry whose
/// guard failed; its status is no Python exception (see
/// frontend::EmittedModule::speculationStatus).
inline constexpr const char *kSpeculationFailedException = "plait.SpeculationFailed";
/// The unit attribute plait-lower-arithmetic puts on the arith add, sub or
/// mul of a `proven` plait.add, sub or mul: LLVM's nsw in the LLVM IR.
inline constexpr const char *kNoSignedWrapAttrName = "plait.nsw";

/// plait's optimisations: versioning, then range-based check removal
/// (`plait-optimize`).
void buildOptimizePipeline(mlir::OpPassManager &pm);
/// The plait dialect to func/arith/cf/memref and LLVM intrinsics
/// (`plait-lower-to-standard`).
void buildLowerToStandardPipeline(mlir::OpPassManager &pm);

/// Registers the passes above and the two pipelines (idempotent).
void registerPlaitDialectPasses();

#define GEN_PASS_DECL
#include "plait/Dialect/Plait/Passes.h.inc"

} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_PASSES_H
