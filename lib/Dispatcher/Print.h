//===- Print.h - print() of compiled code, through the interpreter -*- C++ -*-===//
#ifndef PLAIT_DISPATCHER_PRINT_H
#define PLAIT_DISPATCHER_PRINT_H

#include <cstdint>

namespace plait::dispatch::detail {

/// The runtime's print handler (plait/Runtime/Print.h): attaches to the
/// interpreter, builds the values `words` describe and calls builtins.print.
int32_t printFromCompiledCode(const int64_t *words);

/// Sets the exception a print of this thread raised (the error site
/// frontend::kCallbackException); false when there is none.
bool restoreCallbackError();

} // namespace plait::dispatch::detail

#endif // PLAIT_DISPATCHER_PRINT_H
