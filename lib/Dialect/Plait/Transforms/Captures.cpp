//===- Captures.cpp - values a region uses from outside -------------------===//
#include "Captures.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace plait::dialect {

llvm::SmallVector<mlir::Value> captureValuesAbove(mlir::Region &region) {
  llvm::SetVector<mlir::Value> used;
  mlir::getUsedValuesDefinedAbove(region, used);
  llvm::SmallVector<mlir::Value> captured;
  for (mlir::Value value : used) {
    mlir::Operation *definition = value.getDefiningOp();
    if (!definition || !definition->hasTrait<mlir::OpTrait::ConstantLike>()) {
      captured.push_back(value);
      continue;
    }
    auto inside = mlir::OpBuilder::atBlockBegin(&region.front());
    value.replaceUsesWithIf(inside.clone(*definition)->getResult(0), [&](mlir::OpOperand &use) {
      return region.isAncestor(use.getOwner()->getParentRegion());
    });
  }
  return captured;
}

} // namespace plait::dialect
