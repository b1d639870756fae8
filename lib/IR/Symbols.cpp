//===- Symbols.cpp - symbol tables through handles ------------------------===//
#include "plait/IR/Symbols.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"

namespace plait {

static mlir::Operation &symbolTableOp(const OperationRef &table) {
  mlir::Operation &op = table.get();
  if (!op.hasTrait<mlir::OpTrait::SymbolTable>())
    throw InvalidArgumentError("'" + op.getName().getStringRef().str() + "' is not a symbol table");
  return op;
}

std::optional<OperationRef> lookupSymbol(const OperationRef &table, const std::string &name) {
  Context::Guard guard(table.getContext());
  mlir::Operation *found = mlir::SymbolTable::lookupSymbolIn(&symbolTableOp(table), name);
  if (!found)
    return std::nullopt;
  return OperationRef::of(table.getContext(), found);
}

std::string insertSymbol(const OperationRef &table, const OperationRef &symbol) {
  Context::Guard guard(table.getContext());
  mlir::Operation &tableOp = symbolTableOp(table);
  if (!mlir::SymbolTable::getSymbolName(&symbol.get()))
    throw InvalidArgumentError("the operation has no symbol name");
  if (tableOp.getNumRegions() != 1 || tableOp.getRegion(0).empty())
    throw InvalidArgumentError("the symbol table has no body");
  mlir::Block &body = tableOp.getRegion(0).front();
  std::optional<OperationRef> before;
  if (!body.empty() && body.back().hasTrait<mlir::OpTrait::IsTerminator>())
    before = OperationRef::of(table.getContext(), &body.back());
  insertOperation(InsertionPoint{BlockRef(table, &body), before}, symbol);
  // Already in the body: insert() only makes the name unique.
  return mlir::SymbolTable(&tableOp).insert(&symbol.get()).getValue().str();
}

} // namespace plait
