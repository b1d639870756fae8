//===- Messages.h - CPython's and NumPy's error messages --------*- C++ -*-===//
//
// The messages plait's raising operations use, by key. The running CPython's
// own versions are sampled at import (plait/_messages.py) and travel with a
// module as its `plait.messages` attribute; these are the defaults (CPython
// 3.11's, NumPy 2's) for keys it lacks. `{name}` and `{0}`-style
// placeholders are filled in by the emitter and at run time.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DIALECT_PLAIT_MESSAGES_H
#define PLAIT_DIALECT_PLAIT_MESSAGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace plait::dialect {

/// The keys of the messages the lowering of plait's operations uses (the
/// frontend resolves all others itself).
llvm::ArrayRef<llvm::StringRef> loweringMessageKeys();

/// The default message for `key` (the key itself if there is none).
llvm::StringRef defaultMessage(llvm::StringRef key);

/// The message for `key` in the `plait.messages` dictionary of the module
/// enclosing `op`, else the default.
std::string messageFor(mlir::Operation *op, llvm::StringRef key);

} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_MESSAGES_H
