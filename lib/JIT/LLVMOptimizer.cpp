//===- LLVMOptimizer.cpp - LLVM's pipeline for plait's modules ------------===//
//
// LLVM's default per-module pipeline, as MLIR's makeOptimizingTransformer
// builds it, plus one pass at the vectorizer's start: loops where copies of
// the body gain nothing are not unrolled at run time.
//
// Runtime unrolling (on for CPUs whose scheduling model has a loop buffer,
// such as recent x86 ones) copies a loop's body up to eight times, with a
// loop for the remainder. Two kinds of loop gain nothing from it:
// - one whose iterations chain through a float (a sum without fastmath, a
//   recurrence): the chain's latency sets the speed; the copies were about
//   40% of the compile time of small functions with such a loop;
// - one that contains loops: the inner loops carry the work, and each copy
//   holds all of them (vectorised bodies, remainders), which made a 2-D
//   elementwise loop five copies of its inner loops and loop strength
//   reduction take most of its compile time.
// Innermost loops without a float chain (strided stores, as in a prime
// sieve) keep it: there it saves the loop's own instructions.
//
//===----------------------------------------------------------------------===//
#include "plait/JIT/LLVMOptimizer.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <string>

namespace plait::jit {
namespace {

/// Marks llvm.loop.unroll.runtime.disable the loops that contain loops or
/// whose header carries a floating-point value around the loop.
class LimitRuntimeUnrolling : public llvm::PassInfoMixin<LimitRuntimeUnrolling> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    llvm::LoopInfo &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      bool carriesFloat = llvm::any_of(loop->getHeader()->phis(), [](llvm::PHINode &phi) {
        return phi.getType()->isFPOrFPVectorTy();
      });
      if (carriesFloat || !loop->isInnermost())
        llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.runtime.disable");
    }
    // Metadata only: every analysis still holds.
    return llvm::PreservedAnalyses::all();
  }
};

std::optional<llvm::OptimizationLevel> levelFor(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::OptimizationLevel::O0;
  case 1:
    return llvm::OptimizationLevel::O1;
  case 2:
    return llvm::OptimizationLevel::O2;
  case 3:
    return llvm::OptimizationLevel::O3;
  default:
    return std::nullopt;
  }
}

} // namespace

llvm::Error optimizeModule(llvm::Module &module, unsigned optLevel, llvm::TargetMachine &machine) {
  std::optional<llvm::OptimizationLevel> level = levelFor(optLevel);
  if (!level)
    return llvm::make_error<llvm::StringError>(
        "invalid optimisation level " + std::to_string(optLevel), llvm::inconvertibleErrorCode());
  llvm::LoopAnalysisManager loopAnalyses;
  llvm::FunctionAnalysisManager functionAnalyses;
  llvm::CGSCCAnalysisManager sccAnalyses;
  llvm::ModuleAnalysisManager moduleAnalyses;
  llvm::PipelineTuningOptions tuning;
  tuning.LoopUnrolling = true;
  tuning.LoopInterleaving = true;
  tuning.LoopVectorization = true;
  tuning.SLPVectorization = true;
  llvm::PassBuilder builder(&machine, tuning);
  builder.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
        passes.addPass(LimitRuntimeUnrolling());
      });
  builder.registerModuleAnalyses(moduleAnalyses);
  builder.registerCGSCCAnalyses(sccAnalyses);
  builder.registerFunctionAnalyses(functionAnalyses);
  builder.registerLoopAnalyses(loopAnalyses);
  builder.crossRegisterProxies(loopAnalyses, functionAnalyses, sccAnalyses, moduleAnalyses);
  llvm::ModulePassManager passes = *level == llvm::OptimizationLevel::O0
                                       ? builder.buildO0DefaultPipeline(*level)
                                       : builder.buildPerModuleDefaultPipeline(*level);
  passes.run(module, moduleAnalyses);
  return llvm::Error::success();
}

} // namespace plait::jit
