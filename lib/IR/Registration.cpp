//===- Registration.cpp - dialects, passes and translations ---------------===//
//
// The only translation unit that includes InitAllDialects.h/InitAllPasses.h:
// they cost ~45 s to compile each time.
//
//===----------------------------------------------------------------------===//
#include "plait/IR/Registration.h"
#include "plait/Dialect/Plait/PlaitDialect.h"
#include "plait/Passes/Passes.h"
#include "plait/Target/PlaitToLLVMIRTranslation.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include <mutex>

namespace plait {

const mlir::DialectRegistry &getDialectRegistry() {
  // A function-local static: initialised once, thread-safely, then immutable.
  static const mlir::DialectRegistry *registry = [] {
    auto *result = new mlir::DialectRegistry();
    mlir::registerAllDialects(*result);
    result->insert<dialect::PlaitDialect>();
    mlir::registerAllToLLVMIRTranslations(*result);
    registerPlaitToLLVMIRTranslation(*result);
    return result;
  }();
  return *registry;
}

void ensurePassesRegistered() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    registerPlaitPasses();
  });
}

} // namespace plait
