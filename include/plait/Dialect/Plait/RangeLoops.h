//===- RangeLoops.h - arithmetic of Python's range ---------------*- C++ -*-===//
#ifndef PLAIT_DIALECT_PLAIT_RANGELOOPS_H
#define PLAIT_DIALECT_PLAIT_RANGELOOPS_H

#include "mlir/IR/Builders.h"

namespace plait::dialect {

/// len(range(start, stop, step)) as CPython computes it, for step != 0: in
/// unsigned arithmetic, so that spans wider than int64 cannot overflow (the
/// result is an unsigned i64).
mlir::Value tripCount(mlir::OpBuilder &b, mlir::Location l, mlir::Value start, mlir::Value stop,
                      mlir::Value step);

/// The last element of a non-empty range: start + (trips - 1) * step (it
/// lies in int64, so the wrapping arithmetic gives it exactly).
mlir::Value lastElement(mlir::OpBuilder &b, mlir::Location l, mlir::Value start, mlir::Value step,
                        mlir::Value trips);

} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_RANGELOOPS_H
