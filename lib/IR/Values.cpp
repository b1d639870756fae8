//===- Values.cpp - regions, blocks and values through handles ------------===//
#include "Ownership.h"
#include "plait/IR/Module.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Region.h"
#include "llvm/Support/raw_ostream.h"

namespace plait {

/// MLIR's printed form of a block or value.
template <typename Printable> static std::string printed(Printable &&printable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printable.print(os);
  return os.str();
}

//===----------------------------------------------------------------------===//
// RegionRef
//===----------------------------------------------------------------------===//

mlir::Region &RegionRef::get() const { return owner.get().getRegion(index); }

std::vector<BlockRef> RegionRef::blocks() const {
  Context::Guard guard(owner.getContext());
  std::vector<BlockRef> result;
  for (mlir::Block &block : get())
    result.emplace_back(owner, &block);
  return result;
}

static void checkOwnContext(mlir::MLIRContext *context, mlir::Type type, mlir::Location location) {
  if (type.getContext() != context || location.getContext() != context)
    throw InvalidArgumentError("a type or location belongs to a different Context");
}

static void addArguments(mlir::Block &block, mlir::Operation &holder,
                         const std::vector<mlir::Type> &types,
                         const std::vector<mlir::Location> &locations) {
  if (types.size() != locations.size())
    throw InvalidArgumentError("a block needs one location per argument type");
  CallbackRestrictions::checkMayChange(&holder, /*anchorItself=*/true);
  for (size_t i = 0; i < types.size(); ++i)
    checkOwnContext(holder.getContext(), types[i], locations[i]);
  for (size_t i = 0; i < types.size(); ++i)
    block.addArgument(types[i], locations[i]);
}

BlockRef RegionRef::appendBlock(const std::vector<mlir::Type> &types,
                                const std::vector<mlir::Location> &locations) const {
  Context::Guard guard(owner.getContext());
  mlir::Region &region = get();
  auto block = std::make_unique<mlir::Block>();
  addArguments(*block, owner.get(), types, locations);
  region.push_back(block.get());
  return BlockRef(owner, block.release());
}

//===----------------------------------------------------------------------===//
// BlockRef
//===----------------------------------------------------------------------===//

mlir::Block &BlockRef::get() const {
  mlir::Operation &holder = owner.get(); // validates the operation
  // The block may have been erased (by a pipeline) or moved elsewhere since:
  // look for it by address without touching it.
  for (mlir::Region &region : holder.getRegions())
    for (mlir::Block &candidate : region)
      if (&candidate == block)
        return *block;
  throw InvalidHandleError("this block handle is no longer valid: the block was erased or moved "
                           "to another operation since the handle was made");
}

std::vector<OperationRef> BlockRef::operations() const {
  Context::Guard guard(owner.getContext());
  std::vector<OperationRef> result;
  for (mlir::Operation &op : get())
    result.push_back(OperationRef::of(owner.getContext(), &op));
  return result;
}

std::vector<ValueRef> BlockRef::arguments() const {
  Context::Guard guard(owner.getContext());
  std::vector<ValueRef> result;
  for (mlir::BlockArgument argument : get().getArguments())
    result.emplace_back(owner, argument);
  return result;
}

ValueRef BlockRef::addArgument(mlir::Type type, mlir::Location location) const {
  Context::Guard guard(owner.getContext());
  mlir::Block &b = get();
  CallbackRestrictions::checkMayChange(&owner.get(), /*anchorItself=*/true);
  checkOwnContext(owner.get().getContext(), type, location);
  return ValueRef(owner, b.addArgument(type, location));
}

RegionRef BlockRef::region() const {
  Context::Guard guard(owner.getContext());
  return RegionRef(owner, get().getParent()->getRegionNumber());
}

std::optional<OperationRef> BlockRef::terminator() const {
  Context::Guard guard(owner.getContext());
  mlir::Block &b = get();
  if (b.empty() || !b.back().hasTrait<mlir::OpTrait::IsTerminator>())
    return std::nullopt;
  return OperationRef::of(owner.getContext(), &b.back());
}

BlockRef BlockRef::createNextTo(const std::vector<mlir::Type> &types,
                                const std::vector<mlir::Location> &locations,
                                bool after) const {
  Context::Guard guard(owner.getContext());
  mlir::Block &anchor = get();
  auto created = std::make_unique<mlir::Block>();
  addArguments(*created, owner.get(), types, locations);
  auto &blocks = anchor.getParent()->getBlocks();
  if (after)
    blocks.insertAfter(mlir::Region::iterator(anchor), created.get());
  else
    blocks.insert(mlir::Region::iterator(anchor), created.get());
  return BlockRef(owner, created.release());
}

std::string BlockRef::str() const {
  Context::Guard guard(owner.getContext());
  return printed(get());
}

//===----------------------------------------------------------------------===//
// ValueRef
//===----------------------------------------------------------------------===//

ValueRef::ValueRef(OperationRef owner, mlir::Value value)
    : owner(std::move(owner)), opaque(value.getAsOpaquePointer()),
      argument(value.isa<mlir::BlockArgument>()) {}

mlir::Value ValueRef::get() const {
  mlir::Operation &holder = owner.get(); // validates; results live as long
  if (!argument)
    return mlir::Value::getFromOpaquePointer(opaque);
  // A block argument dies with its block, which may be erased on its own:
  // look for it by address without touching it.
  for (mlir::Region &region : holder.getRegions())
    for (mlir::Block &block : region)
      for (mlir::BlockArgument candidate : block.getArguments())
        if (candidate.getAsOpaquePointer() == opaque)
          return candidate;
  throw InvalidHandleError("this block argument handle is no longer valid: its block was erased "
                           "or moved since the handle was made");
}

bool ValueRef::isBlockArgument() const {
  Context::Guard guard(owner.getContext());
  return get().isa<mlir::BlockArgument>();
}

unsigned ValueRef::number() const {
  Context::Guard guard(owner.getContext());
  mlir::Value value = get();
  if (auto argument = value.dyn_cast<mlir::BlockArgument>())
    return argument.getArgNumber();
  return value.cast<mlir::OpResult>().getResultNumber();
}

std::optional<OperationRef> ValueRef::definingOperation() const {
  Context::Guard guard(owner.getContext());
  if (get().getDefiningOp())
    return owner;
  return std::nullopt;
}

std::optional<BlockRef> ValueRef::ownerBlock() const {
  Context::Guard guard(owner.getContext());
  if (auto argument = get().dyn_cast<mlir::BlockArgument>())
    return BlockRef(owner, argument.getOwner());
  return std::nullopt;
}

mlir::Type ValueRef::type() const {
  Context::Guard guard(owner.getContext());
  return get().getType();
}

void ValueRef::setType(mlir::Type type) const {
  Context::Guard guard(owner.getContext());
  mlir::Value value = get();
  CallbackRestrictions::checkMayChange(&owner.get(), /*anchorItself=*/true);
  if (type.getContext() != value.getContext())
    throw InvalidArgumentError("the type belongs to a different Context");
  value.setType(type);
}

std::vector<std::pair<OperationRef, unsigned>> ValueRef::uses() const {
  Context::Guard guard(owner.getContext());
  std::vector<std::pair<OperationRef, unsigned>> result;
  for (mlir::OpOperand &use : get().getUses())
    result.emplace_back(OperationRef::of(owner.getContext(), use.getOwner()),
                        use.getOperandNumber());
  return result;
}

std::string ValueRef::str() const {
  Context::Guard guard(owner.getContext());
  return printed(get());
}

} // namespace plait
