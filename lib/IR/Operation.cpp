//===- Operation.cpp - reading operations through handles -----------------===//
#include "Ownership.h"
#include "plait/IR/Module.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

namespace plait {

static InvalidHandleError staleHandle(const char *what) {
  return InvalidHandleError(std::string("this ") + what +
                            " handle is no longer valid: the IR it referred to was erased, or may "
                            "have been rewritten by a pass pipeline since the handle was made");
}

OperationRef OperationRef::of(Context &context, mlir::Operation *op) {
  TableLock lock(context);
  return OperationRef(Ownership::live(context, lock, op));
}

std::shared_ptr<Module> OperationRef::getModule() const {
  TableLock lock(getContext());
  return live->root;
}

bool OperationRef::isValid() const {
  TableLock lock(getContext());
  return Ownership::isValid(*live);
}

mlir::Operation &OperationRef::get() const {
  TableLock lock(getContext());
  if (!Ownership::isValid(*live))
    throw staleHandle("operation");
  return *live->op;
}

std::string OperationRef::name() const {
  Context::Guard guard(getContext());
  return get().getName().getStringRef().str();
}

mlir::Location OperationRef::location() const {
  Context::Guard guard(getContext());
  return get().getLoc();
}

std::string OperationRef::str(bool generic, bool debugInfo, int64_t largeElementsLimit) const {
  Context::Guard guard(getContext());
  mlir::OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  if (debugInfo)
    flags.enableDebugInfo();
  if (largeElementsLimit >= 0)
    flags.elideLargeElementsAttrs(largeElementsLimit);
  std::string text;
  llvm::raw_string_ostream os(text);
  get().print(os, flags);
  os.flush();
  return text;
}

void OperationRef::verify() const {
  Context::Guard guard(getContext());
  Context::Capture capture(getContext());
  if (mlir::failed(mlir::verify(&get())))
    capture.fail("Verification failed");
}

void OperationRef::emitError(const std::string &message) const {
  Context::Guard guard(getContext());
  get().emitError(message);
}

void OperationRef::emitWarning(const std::string &message) const {
  Context::Guard guard(getContext());
  get().emitWarning(message);
}

void OperationRef::emitRemark(const std::string &message) const {
  Context::Guard guard(getContext());
  get().emitRemark(message);
}

std::vector<std::pair<std::string, mlir::Attribute>> OperationRef::attributes() const {
  Context::Guard guard(getContext());
  std::vector<std::pair<std::string, mlir::Attribute>> result;
  for (const mlir::NamedAttribute &named : get().getAttrs())
    result.emplace_back(named.getName().str(), named.getValue());
  return result;
}

void OperationRef::setAttribute(const std::string &name, mlir::Attribute value) const {
  Context::Guard guard(getContext());
  mlir::Operation &op = get();
  CallbackRestrictions::checkMayChange(&op, /*anchorItself=*/true);
  if (value.getContext() != op.getContext())
    throw InvalidArgumentError("the attribute belongs to a different Context");
  op.setAttr(name, value);
}

bool OperationRef::removeAttribute(const std::string &name) const {
  Context::Guard guard(getContext());
  mlir::Operation &op = get();
  CallbackRestrictions::checkMayChange(&op, /*anchorItself=*/true);
  return static_cast<bool>(op.removeAttr(name));
}

std::vector<RegionRef> OperationRef::regions() const {
  Context::Guard guard(getContext());
  std::vector<RegionRef> result;
  for (unsigned i = 0, e = get().getNumRegions(); i < e; ++i)
    result.emplace_back(*this, i);
  return result;
}

std::vector<ValueRef> OperationRef::operands() const {
  Context::Guard guard(getContext());
  std::vector<ValueRef> result;
  for (mlir::Value operand : get().getOperands()) {
    mlir::Operation *definer = definerOf(operand);
    if (!definer)
      throw InvalidHandleError("an operand's definition is in no operation");
    result.emplace_back(of(getContext(), definer), operand);
  }
  return result;
}

std::vector<ValueRef> OperationRef::results() const {
  Context::Guard guard(getContext());
  std::vector<ValueRef> result;
  for (mlir::Value value : get().getResults())
    result.emplace_back(*this, value);
  return result;
}

std::vector<BlockRef> OperationRef::successors() const {
  Context::Guard guard(getContext());
  std::vector<BlockRef> result;
  for (mlir::Block *successor : get().getSuccessors())
    result.emplace_back(of(getContext(), successor->getParentOp()), successor);
  return result;
}

std::optional<OperationRef> OperationRef::parent() const {
  Context::Guard guard(getContext());
  if (mlir::Operation *parentOp = get().getParentOp())
    return of(getContext(), parentOp);
  return std::nullopt;
}

std::optional<BlockRef> OperationRef::block() const {
  Context::Guard guard(getContext());
  mlir::Block *parentBlock = get().getBlock();
  if (!parentBlock)
    return std::nullopt;
  return BlockRef(of(getContext(), parentBlock->getParentOp()), parentBlock);
}

std::vector<OperationRef> OperationRef::walk() const {
  Context::Guard guard(getContext());
  std::vector<OperationRef> result;
  mlir::Operation *root = &get();
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *nested) {
    result.push_back(nested == root ? *this : of(getContext(), nested));
  });
  return result;
}

} // namespace plait
