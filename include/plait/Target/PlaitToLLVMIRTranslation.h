//===- PlaitToLLVMIRTranslation.h - plait's attributes in LLVM IR -*- C++ -*-===//
//
// What the plait dialect adds to the translation of the LLVM dialect to
// LLVM IR: facts its passes proved, carried as discardable attributes, set
// as the flags LLVM IR has for them (MLIR 16's LLVM dialect has no
// overflow flags).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_TARGET_PLAITTOLLVMIRTRANSLATION_H
#define PLAIT_TARGET_PLAITTOLLVMIRTRANSLATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace plait {

/// Registers the plait dialect's LLVM IR translation interface.
void registerPlaitToLLVMIRTranslation(mlir::DialectRegistry &registry);

} // namespace plait

#endif // PLAIT_TARGET_PLAITTOLLVMIRTRANSLATION_H
