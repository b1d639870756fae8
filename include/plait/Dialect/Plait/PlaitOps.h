//===- PlaitOps.h - operations of the plait dialect -------------*- C++ -*-===//
#ifndef PLAIT_DIALECT_PLAIT_PLAITOPS_H
#define PLAIT_DIALECT_PLAIT_PLAITOPS_H

#include "plait/Dialect/Plait/PlaitDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "plait/Dialect/Plait/PlaitOps.h.inc"

namespace plait::dialect {
/// Whether `op` is int arithmetic that raises OverflowError (an `overflow`
/// of `check`, as plait.add, plait.sub and plait.mul carry).
bool checksOverflow(mlir::Operation *op);

/// Marks int arithmetic shown not to overflow: plait.add, sub and mul become
/// `proven` (LLVM may then assume the result fits), others `wrap`.
void setCannotOverflow(mlir::Operation *op);
} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_PLAITOPS_H
