//===- PlaitDialect.h - the plait dialect -----------------------*- C++ -*-===//
#ifndef PLAIT_DIALECT_PLAIT_PLAITDIALECT_H
#define PLAIT_DIALECT_PLAIT_PLAITDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "plait/Dialect/Plait/PlaitDialect.h.inc"
#include "plait/Dialect/Plait/PlaitEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "plait/Dialect/Plait/PlaitTypes.h.inc"

namespace plait::dialect {

/// What raising writes: the Python error state. Operations that may raise
/// write it, so passes keep them (and keep their order).
struct ErrorStateResource : public mlir::SideEffects::Resource::Base<ErrorStateResource> {
  llvm::StringRef getName() final { return "plait::ErrorState"; }
};

/// What retaining and releasing arrays write: their reference counts.
struct ArrayOwnershipResource : public mlir::SideEffects::Resource::Base<ArrayOwnershipResource> {
  llvm::StringRef getName() final { return "plait::ArrayOwnership"; }
};

} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_PLAITDIALECT_H
