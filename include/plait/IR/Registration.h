//===- Registration.h - dialects, passes and translations -------*- C++ -*-===//
#ifndef PLAIT_IR_REGISTRATION_H
#define PLAIT_IR_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace plait {

/// The registry every plait context starts from: all upstream dialects, their
/// extensions and their LLVM IR translations. Built once, then read-only.
const mlir::DialectRegistry &getDialectRegistry();

/// Registers every upstream pass and pipeline and plait's own, exactly once
/// per process (thread-safe).
void ensurePassesRegistered();

} // namespace plait

#endif // PLAIT_IR_REGISTRATION_H
