//===- Print.h - print() of compiled code -----------------------*- C++ -*-===//
//
// Compiled code prints through the interpreter (sys.stdout, Python's own
// formatting, in order with the program's other output), but the runtime
// links no Python: the layer that does (the dispatcher) installs the
// handler when the extension module loads. The words compiled code passes
// describe the call (docs/design/print.md).
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_PRINT_H
#define PLAIT_RUNTIME_PRINT_H

#include <cstdint>

namespace plait {

/// Prints what `words` describe with the interpreter attached: 0, or 1 with
/// the Python exception kept for the calling thread's dispatcher to raise.
using PrintHandler = int32_t (*)(const int64_t *words);

/// Installs the handler (once, before any compiled code runs).
void setPrintHandler(PrintHandler handler);

} // namespace plait

extern "C" {
/// print() of compiled code: `words` is the address of its description;
/// 1 when printing raised (or no handler is installed).
int32_t plait_rt_print(int64_t words);
}

#endif // PLAIT_RUNTIME_PRINT_H
