//===- plait-opt.cpp - mlir-opt with plait's dialect and passes -----------===//
//
// Runs plait's passes (and MLIR's) on textual IR, for the lit tests:
//   plait-opt --plait-version-loops input.mlir | FileCheck input.mlir
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  registry.insert<plait::dialect::PlaitDialect>();
  mlir::registerAllPasses();
  plait::dialect::registerPlaitDialectPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "plait's passes on the plait dialect and MLIR's\n", registry));
}
