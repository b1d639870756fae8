//===- ExceptionClasses.h - which exception classes derive from which -*- C++ -*-===//
//
// `except ValueError:` catches a raise of any subclass of ValueError. Compiled
// code decides it when compiling: the classes it raises are named (built-in
// names, or module.Class), built-in classes derive as in CPython, and a
// module's `plait.exception_bases` dictionary lists the bases of the others.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_DIALECT_PLAIT_EXCEPTIONCLASSES_H
#define PLAIT_DIALECT_PLAIT_EXCEPTIONCLASSES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/StringRef.h"

namespace plait::dialect {

/// The module attribute with the bases of exception classes that are not
/// built in: {"module.Class" = ["module.Base", "ValueError", ...]}, each its
/// method resolution order without itself and `object`.
inline constexpr const char *kExceptionBasesAttrName = "plait.exception_bases";

/// Whether the class named `raised` is `handled` or a subclass of it. Names
/// neither built in nor in `bases` are only themselves.
bool isExceptionSubclass(llvm::StringRef raised, llvm::StringRef handled,
                         mlir::DictionaryAttr bases);

} // namespace plait::dialect

#endif // PLAIT_DIALECT_PLAIT_EXCEPTIONCLASSES_H
