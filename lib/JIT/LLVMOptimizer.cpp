//===- LLVMOptimizer.cpp - LLVM's pipeline for plait's modules ------------===//
//
// LLVM's default per-module pipeline, as MLIR's makeOptimizingTransformer
// builds it, plus one pass at the vectorizer's start: loops that carry a
// floating-point value from one iteration to the next are not unrolled at
// run time.
//
// Runtime unrolling (on for CPUs whose scheduling model has a loop buffer,
// such as recent x86 ones) copies a loop's body eight times, with a loop for
// the remainder. It applies to the loops the vectorizer left scalar. In one
// whose iterations chain through a float (a sum without fastmath, a
// recurrence), the chain's latency sets the speed and the copies gain
// nothing, but they were about 40% of the compile time of small functions
// with such a loop. Loops without such a chain (strided stores, as in a
// prime sieve) keep it: there it saves the loop's own instructions.
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

/// Marks loops whose header carries a floating-point value around the loop
/// with llvm.loop.unroll.runtime.disable.
class KeepFloatRecurrencesRolled : public llvm::PassInfoMixin<KeepFloatRecurrencesRolled> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
    llvm::LoopInfo &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
      bool carriesFloat = llvm::any_of(loop->getHeader()->phis(), [](llvm::PHINode &phi) {
        return phi.getType()->isFPOrFPVectorTy();
      });
      if (carriesFloat)
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
        passes.addPass(KeepFloatRecurrencesRolled());
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
