//===- Mutation.cpp - building and rewriting IR through handles -----------===//
//
// Each mutation keeps the handle bookkeeping true: erased operations' handles
// go invalid, moved operations' handles follow them into their new Module, and
// a Module whose values are used elsewhere is kept alive by the user.
//
//===----------------------------------------------------------------------===//
#include "Ownership.h"
#include "plait/IR/Module.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Region.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

namespace plait {
namespace {

mlir::Operation &validated(TableLock &lock, const OperationRef &ref) {
  (void)lock;
  const LiveOperation &live = *ref.getLive();
  if (!Ownership::isValid(live))
    throw InvalidHandleError("this operation handle is no longer valid: the IR it referred to was "
                             "erased, or may have been rewritten by a pass pipeline since the "
                             "handle was made");
  return *live.op;
}

/// After `subtree` moved from its Module into `to`: its handles follow it,
/// `to` keeps alive the Modules of values it uses, and Modules using its
/// values keep `to` alive.
void moved(TableLock &lock, mlir::Operation *subtree, const std::shared_ptr<Module> &to,
           bool isTop) {
  Ownership::repoint(lock, subtree, to, isTop);
  Ownership::referenceOutsideValues(lock, subtree);
  // Looked up again for each user: a reference may fold `to` into another.
  forEachOutsideUser(subtree, [&](mlir::Operation *user) {
    Ownership::reference(lock, Ownership::rootOf(lock, user), Ownership::rootOf(lock, subtree));
  });
}

/// Inserts `op`, the top-level operation of its own Module, into `block`
/// before `before` (or at the end).
void insertLocked(TableLock &lock, mlir::Operation *op, mlir::Block &block, mlir::Operation *before,
                  const std::shared_ptr<Module> &destination) {
  if (op->getBlock())
    throw InvalidArgumentError(
        "the operation is already in a block: use move_before()/move_after(), "
        "or detach_from_parent() first");
  CallbackRestrictions::checkMayChange(block.getParentOp(), /*anchorItself=*/true);
  if (op->isAncestor(block.getParentOp()))
    throw InvalidArgumentError("cannot insert an operation into itself");
  if (!before && !block.empty() &&
      block.back().hasTrait<mlir::OpTrait::IsTerminator>())
    throw OutOfRangeError(
        "Cannot insert operation at the end of a block that already has a "
        "terminator. Did you mean to use "
        "'InsertionPoint.at_block_terminator(block)' versus "
        "'InsertionPoint(block)'?");
  if (before && before->getBlock() != &block)
    throw InvalidArgumentError("the insertion point's operation is not in its block");
  std::shared_ptr<Module> from = Ownership::rootOf(lock, op);
  block.getOperations().insert(before ? mlir::Block::iterator(before) : block.end(), op);
  // The handles move while their old Module still owns the operation (which
  // is what makes them valid); then the old Module lets go.
  moved(lock, op, destination, /*isTop=*/false);
  if (from)
    Ownership::release(lock, *from, op, Ownership::rootOf(lock, op));
}

/// InvalidArgumentError when the location, a result type or an attribute of
/// an operation to create belongs to another context.
void checkOwnContext(mlir::MLIRContext &context, mlir::Location location,
                     const OperationSpec &spec) {
  if (location.getContext() != &context)
    throw InvalidArgumentError("the location belongs to a different Context");
  for (mlir::Type type : spec.resultTypes)
    if (type.getContext() != &context)
      throw InvalidArgumentError("a result type belongs to a different Context");
  for (const auto &[name, attribute] : spec.attributes)
    if (attribute.getContext() != &context)
      throw InvalidArgumentError("attribute '" + name + "' belongs to a different Context");
}

void checkSameContext(const Context &expected, const Context &actual, const char *what) {
  if (&expected != &actual)
    throw InvalidArgumentError(std::string(what) + " belongs to a different Context");
}

} // namespace

void OperationRef::erase() const {
  Context::Guard guard(getContext());
  TableLock lock(getContext());
  mlir::Operation *op = &validated(lock, *this);
  CallbackRestrictions::checkMayChange(op);
  bool usedOutside = false;
  forEachOutsideUser(op, [&](mlir::Operation *) { usedOutside = true; });
  if (usedOutside)
    throw InvalidArgumentError("cannot erase '" + op->getName().getStringRef().str() +
                               "': its results, block arguments or blocks are still used "
                               "outside it (replace those uses first)");
  std::shared_ptr<Module> root = live->root;
  lock.keep(root);
  Ownership::markErased(lock, op);
  if (!op->getBlock()) { // a top-level operation of its Module
    Ownership::release(lock, *root, op);
    op->destroy();
  } else {
    op->erase();
  }
}

static void moveNextTo(const OperationRef &self, const OperationRef &anchor, bool after) {
  checkSameContext(self.getContext(), anchor.getContext(), "the anchor");
  Context::Guard guard(self.getContext());
  TableLock lock(self.getContext());
  mlir::Operation *op = &validated(lock, self);
  mlir::Operation *target = &validated(lock, anchor);
  if (op == target)
    return;
  CallbackRestrictions::checkMayChange(op);
  if (target->getBlock())
    CallbackRestrictions::checkMayChange(target->getBlock()->getParentOp(), /*anchorItself=*/true);
  if (op->isAncestor(target))
    throw InvalidArgumentError("cannot move an operation into itself");
  mlir::Block *block = target->getBlock();
  if (!block)
    throw InvalidArgumentError("the anchor operation is not in a block");
  std::shared_ptr<Module> from = self.getLive()->root;
  std::shared_ptr<Module> to = anchor.getLive()->root;
  lock.keep(from);
  lock.keep(to);
  if (!op->getBlock()) {
    insertLocked(lock, op, *block, after ? target->getNextNode() : target, to);
    return;
  }
  if (after)
    op->moveAfter(target);
  else
    op->moveBefore(target);
  if (from != to)
    moved(lock, op, to, /*isTop=*/false);
}

void OperationRef::moveBefore(const OperationRef &anchor) const {
  moveNextTo(*this, anchor, /*after=*/false);
}

void OperationRef::moveAfter(const OperationRef &anchor) const {
  moveNextTo(*this, anchor, /*after=*/true);
}

void OperationRef::detachFromParent() const {
  Context::Guard guard(getContext());
  TableLock lock(getContext());
  mlir::Operation *op = &validated(lock, *this);
  CallbackRestrictions::checkMayChange(op);
  if (!op->getBlock())
    throw InvalidArgumentError("the operation is not in a block");
  std::shared_ptr<Module> from = live->root;
  lock.keep(from);
  op->remove();
  std::shared_ptr<Module> own =
      Ownership::adoptLocked(from->getContext(), lock, op, /*foldable=*/true);
  lock.keep(own);
  moved(lock, op, own, /*isTop=*/true);
}

OperationRef OperationRef::clone() const {
  Context::Guard guard(getContext());
  TableLock lock(getContext());
  mlir::Operation *op = &validated(lock, *this);
  forEachOutsideDefinition(op, [](mlir::Operation *definer) {
    CallbackRestrictions::checkMayChange(definer, /*anchorItself=*/true);
  });
  std::shared_ptr<Module> from = live->root;
  lock.keep(from);
  mlir::Operation *copy = op->clone();
  std::shared_ptr<Module> own =
      Ownership::adoptLocked(from->getContext(), lock, copy, /*foldable=*/true);
  lock.keep(own);
  Ownership::referenceOutsideValues(lock, copy);
  return OperationRef(Ownership::live(getContext(), lock, copy));
}

BlockRef BlockRef::appendTo(const RegionRef &region) const {
  checkSameContext(owner.getContext(), region.getOwner().getContext(), "the region");
  Context::Guard guard(owner.getContext());
  mlir::Block &moving = get();
  mlir::Region &target = region.get();
  mlir::Operation &destination = region.getOwner().get();
  CallbackRestrictions::checkMayChange(moving.getParentOp(), /*anchorItself=*/true);
  CallbackRestrictions::checkMayChange(&destination, /*anchorItself=*/true);
  if (moving.findAncestorOpInBlock(destination))
    throw InvalidArgumentError("cannot move a block into an operation it holds");
  target.getBlocks().splice(target.end(), moving.getParent()->getBlocks(),
                            mlir::Region::iterator(moving));
  TableLock lock(owner.getContext());
  std::shared_ptr<Module> to = region.getOwner().getLive()->root;
  lock.keep(to);
  // Older handles of this block name it through its old operation: they go
  // invalid (BlockRef::get finds it no longer there).
  for (mlir::Operation &op : moving)
    moved(lock, &op, to, /*isTop=*/false);
  // What still branches to the block, or uses its arguments, from outside
  // it keeps the block's new Module alive.
  auto outside = [&](mlir::Operation *user) { return !moving.findAncestorOpInBlock(*user); };
  std::shared_ptr<Module> now = Ownership::rootOf(lock, &destination);
  for (mlir::BlockOperand &use : moving.getUses())
    if (outside(use.getOwner()))
      Ownership::reference(lock, Ownership::rootOf(lock, use.getOwner()), now);
  for (mlir::BlockArgument argument : moving.getArguments())
    for (mlir::Operation *user : argument.getUsers())
      if (outside(user))
        Ownership::reference(lock, Ownership::rootOf(lock, user), now);
  return BlockRef(region.getOwner(), &moving);
}

void OperationRef::setOperand(size_t index, const ValueRef &value) const {
  checkSameContext(getContext(), value.getOwner().getContext(), "the value");
  Context::Guard guard(getContext());
  mlir::Operation &op = get();
  mlir::Value replacement = value.get();
  CallbackRestrictions::checkMayChange(&op, /*anchorItself=*/true);
  CallbackRestrictions::checkMayChange(definerOf(replacement), /*anchorItself=*/true);
  if (index >= op.getNumOperands())
    throw InvalidArgumentError("operand index out of range");
  op.setOperand(index, replacement);
  TableLock lock(getContext());
  Ownership::reference(lock, Ownership::rootOf(lock, &op),
                       Ownership::rootOf(lock, definerOf(replacement)));
}

void ValueRef::replaceAllUsesWith(const ValueRef &replacement) const {
  checkSameContext(owner.getContext(), replacement.owner.getContext(), "the replacement");
  Context::Guard guard(owner.getContext());
  mlir::Value from = get();
  mlir::Value to = replacement.get();
  if (from == to) // MLIR would never finish moving the uses onto themselves
    return;
  std::vector<mlir::Operation *> users(from.getUsers().begin(), from.getUsers().end());
  for (mlir::Operation *user : users)
    CallbackRestrictions::checkMayChange(user, /*anchorItself=*/true);
  CallbackRestrictions::checkMayChange(definerOf(to), /*anchorItself=*/true);
  from.replaceAllUsesWith(to);
  TableLock lock(owner.getContext());
  std::shared_ptr<Module> definitions = Ownership::rootOf(lock, definerOf(to));
  for (mlir::Operation *user : users)
    Ownership::reference(lock, Ownership::rootOf(lock, user), definitions);
}

std::vector<mlir::Type>
inferResultTypes(Context &context, const std::string &name, const std::vector<ValueRef> &operands,
                 const std::vector<std::pair<std::string, mlir::Attribute>> &attributes,
                 unsigned numRegions, mlir::Location location) {
  Context::Guard guard(context);
  mlir::MLIRContext &mlirContext = context.getMLIRContext();
  mlirContext.getOrLoadDialect(llvm::StringRef(name).split('.').first);
  std::optional<mlir::RegisteredOperationName> registered =
      mlir::RegisteredOperationName::lookup(name, &mlirContext);
  auto *inference = registered ? registered->getInterface<mlir::InferTypeOpInterface>() : nullptr;
  if (!inference)
    throw InvalidArgumentError("'" + name + "' does not implement InferTypeOpInterface");
  llvm::SmallVector<mlir::Value> values;
  for (const ValueRef &operand : operands)
    values.push_back(operand.get());
  llvm::SmallVector<mlir::NamedAttribute> named;
  for (const auto &[attributeName, value] : attributes)
    named.emplace_back(mlir::StringAttr::get(&mlirContext, attributeName), value);
  std::vector<std::unique_ptr<mlir::Region>> regions;
  for (unsigned i = 0; i < numRegions; ++i)
    regions.push_back(std::make_unique<mlir::Region>());
  llvm::SmallVector<mlir::Region *> regionPointers;
  for (auto &region : regions)
    regionPointers.push_back(region.get());
  llvm::SmallVector<mlir::Type> inferred;
  Context::Capture capture(context);
  if (mlir::failed(inference->inferReturnTypes(&mlirContext, location, values,
                                               mlir::DictionaryAttr::get(&mlirContext, named),
                                               regionPointers, inferred)))
    capture.fail("Failed to infer result types of '" + name + "'");
  return std::vector<mlir::Type>(inferred.begin(), inferred.end());
}

bool allowsUnregisteredDialects(Context &context) {
  return context.getMLIRContext().allowsUnregisteredDialects();
}

void setAllowUnregisteredDialects(Context &context, bool allow) {
  Context::Guard guard(context);
  context.getMLIRContext().allowUnregisteredDialects(allow);
}

OperationRef createOperation(const std::shared_ptr<Context> &context, const OperationSpec &spec,
                             mlir::Location location,
                             const std::optional<InsertionPoint> &insertionPoint) {
  for (const ValueRef &operand : spec.operands)
    checkSameContext(*context, operand.getOwner().getContext(), "an operand");
  for (const BlockRef &successor : spec.successors)
    checkSameContext(*context, successor.getOwner().getContext(), "a successor");
  if (insertionPoint)
    checkSameContext(*context, insertionPoint->block.getOwner().getContext(),
                     "the insertion point");
  Context::Guard guard(*context);
  mlir::MLIRContext &mlirContext = context->getMLIRContext();
  llvm::StringRef dialect = llvm::StringRef(spec.name).split('.').first;
  if (llvm::StringRef(spec.name).contains('.'))
    mlirContext.getOrLoadDialect(dialect);
  mlir::OperationName name(spec.name, &mlirContext);
  if (!name.isRegistered() && !mlirContext.allowsUnregisteredDialects())
    throw InvalidArgumentError("operation '" + spec.name +
                               "' is unknown: its dialect is not available or does not define it "
                               "(set Context.allow_unregistered_dialects = True to create custom "
                               "operations)");
  checkOwnContext(mlirContext, location, spec);
  // New uses change the use lists of what they use.
  for (const ValueRef &operand : spec.operands)
    CallbackRestrictions::checkMayChange(definerOf(operand.get()), /*anchorItself=*/true);
  for (const BlockRef &successor : spec.successors)
    CallbackRestrictions::checkMayChange(successor.get().getParentOp(), /*anchorItself=*/true);
  mlir::OperationState state(location, name);
  for (const ValueRef &operand : spec.operands)
    state.operands.push_back(operand.get());
  state.addTypes(spec.resultTypes);
  for (const auto &[attributeName, value] : spec.attributes)
    state.addAttribute(attributeName, value);
  for (const BlockRef &successor : spec.successors)
    state.addSuccessors(&successor.get());
  for (unsigned i = 0; i < spec.numRegions; ++i)
    state.addRegion();
  mlir::Block *block = nullptr;
  mlir::Operation *before = nullptr;
  if (insertionPoint) {
    block = &insertionPoint->block.get();
    if (insertionPoint->before)
      before = &insertionPoint->before->get();
    CallbackRestrictions::checkMayChange(block->getParentOp(), /*anchorItself=*/true);
  }
  mlir::Operation *op = mlir::Operation::create(state);
  TableLock lock(*context);
  std::shared_ptr<Module> own = Ownership::adoptLocked(context, lock, op, /*foldable=*/true);
  lock.keep(own);
  Ownership::referenceOutsideValues(lock, op);
  if (block) {
    std::shared_ptr<Module> destination = Ownership::rootOf(lock, block->getParentOp());
    insertLocked(lock, op, *block, before, destination);
  }
  return OperationRef(Ownership::live(*context, lock, op));
}

void insertOperation(const InsertionPoint &insertionPoint, const OperationRef &op) {
  checkSameContext(op.getContext(), insertionPoint.block.getOwner().getContext(),
                   "the insertion point");
  Context::Guard guard(op.getContext());
  mlir::Block &block = insertionPoint.block.get();
  mlir::Operation *before = insertionPoint.before ? &insertionPoint.before->get() : nullptr;
  TableLock lock(op.getContext());
  mlir::Operation *target = &validated(lock, op);
  std::shared_ptr<Module> destination = Ownership::rootOf(lock, block.getParentOp());
  insertLocked(lock, target, block, before, destination);
}

} // namespace plait
