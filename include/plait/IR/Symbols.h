//===- Symbols.h - symbol tables through handles ----------------*- C++ -*-===//
#ifndef PLAIT_IR_SYMBOLS_H
#define PLAIT_IR_SYMBOLS_H

#include "plait/IR/Module.h"

namespace plait {

/// The symbol named `name` directly inside `table` (an operation with the
/// SymbolTable trait; InvalidArgumentError otherwise).
std::optional<OperationRef> lookupSymbol(const OperationRef &table, const std::string &name);
/// Moves `symbol` (in no block) into `table`'s body, renaming it when its name
/// is taken; returns the name it got.
std::string insertSymbol(const OperationRef &table, const OperationRef &symbol);

} // namespace plait

#endif // PLAIT_IR_SYMBOLS_H
