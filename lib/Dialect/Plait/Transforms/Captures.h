//===- Captures.h - values a region uses from outside -----------*- C++ -*-===//
#ifndef PLAIT_DIALECT_PLAIT_TRANSFORMS_CAPTURES_H
#define PLAIT_DIALECT_PLAIT_TRANSFORMS_CAPTURES_H

#include "mlir/IR/Region.h"
#include "llvm/ADT/SmallVector.h"

namespace plait::dialect {

/// Before `region` becomes a function of its own: constants it uses from
/// outside are made again at the start of its entry block (LLVM then sees
/// them: `x ** 2.0`'s exponent, say), and the other values it uses from
/// outside, which must become arguments, are returned in a stable order.
llvm::SmallVector<mlir::Value> captureValuesAbove(mlir::Region &region);

} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_TRANSFORMS_CAPTURES_H
