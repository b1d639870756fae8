//===- MLIRUtils.h - helpers for code that already uses MLIR ----*- C++ -*-===//
//
// Included only by translation units that need MLIR's IR headers anyway.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_IR_MLIRUTILS_H
#define PLAIT_IR_MLIRUTILS_H

#include "plait/Support/Error.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <string>

namespace plait {

/// "file:line:col" for file locations, MLIR's printed form for the others.
std::string locationToString(mlir::Location location);

/// Copies a diagnostic (and its notes) into plain values.
DiagnosticInfo toDiagnosticInfo(const mlir::Diagnostic &diagnostic);

} // namespace plait

#endif // PLAIT_IR_MLIRUTILS_H
