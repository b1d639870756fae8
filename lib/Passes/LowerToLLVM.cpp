//===- LowerToLLVM.cpp - the plait-lower-to-llvm pipeline -----------------===//
#include "plait/Passes/Passes.h"
#include "plait/Support/LLVMCompat.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

namespace plait {

void buildLowerToLLVMPipeline(mlir::OpPassManager &pm, bool genericAllocation) {
  // Spelled as text so that the pass names, which differ between LLVM
  // versions, come from the compatibility header only. math-to-llvm takes the
  // operations with LLVM intrinsics; math-to-libm the rest (tan, atan2, erf...)
  // as func.func calls, before func-to-llvm lowers those.
  std::string pipeline =
      std::string("plait-annotate-signatures,convert-scf-to-cf,arith-expand,"
                  "convert-math-to-llvm,convert-math-to-libm,expand-strided-metadata,") +
      compat::kMemRefToLLVMPass + (genericAllocation ? "{use-generic-functions=1}" : "") +
      ",plait-lower-arrays,plait-lower-parallel,convert-func-to-llvm,convert-index-to-llvm,"
      "convert-arith-to-llvm,convert-complex-to-llvm,convert-cf-to-llvm,"
      "reconcile-unrealized-casts";
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error("plait-lower-to-llvm is malformed: " +
                             llvm::Twine(os.str()));
}

} // namespace plait
