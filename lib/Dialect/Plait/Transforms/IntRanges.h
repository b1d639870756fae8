//===- IntRanges.h - MLIR's integer range analysis, ready to use -*- C++ -*-===//
#ifndef PLAIT_LIB_DIALECT_PLAIT_TRANSFORMS_INTRANGES_H
#define PLAIT_LIB_DIALECT_PLAIT_TRANSFORMS_INTRANGES_H

#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

#include <optional>

namespace plait::dialect {

/// IntegerRangeAnalysis over an operation (with the dead-code and constant
/// analyses it needs), through plait's range loops, indices and checked
/// arithmetic, which implement InferIntRangeInterface.
class IntRanges {
public:
  mlir::LogicalResult run(mlir::Operation *root);
  /// The signed/unsigned range of an integer value, if the analysis knows it.
  std::optional<mlir::ConstantIntRanges> of(mlir::Value value) const;
  /// Whether `value` is known to lie in [low, high] (signed).
  bool within(mlir::Value value, int64_t low, int64_t high) const;

private:
  mlir::DataFlowSolver solver;
};

} // namespace plait::dialect

#endif // PLAIT_LIB_DIALECT_PLAIT_TRANSFORMS_INTRANGES_H
