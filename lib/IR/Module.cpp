//===- Module.cpp - owned IR and the handle bookkeeping -------------------===//
#include "plait/IR/Module.h"
#include "Ownership.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <algorithm>

namespace plait {

//===----------------------------------------------------------------------===//
// Ownership
//===----------------------------------------------------------------------===//

std::shared_ptr<LiveOperation> Ownership::live(Context &context, TableLock &lock,
                                               mlir::Operation *op) {
  HandleTable &table = lock.table;
  auto it = table.operations.find(op);
  if (it != table.operations.end()) {
    std::shared_ptr<LiveOperation> existing = it->second.lock();
    if (existing && isValid(*existing))
      return existing;
    lock.keep(std::move(existing));
  }
  std::shared_ptr<Module> root = rootOf(lock, op);
  if (!root)
    throw InvalidHandleError("the operation is not inside any module");
  auto created = std::make_shared<LiveOperation>(context, op);
  created->root = root;
  created->epoch = isTopOf(*root, op) ? 0 : root->epoch;
  created->scope = CallbackRestrictions::currentScope();
  table.operations[op] = created;
  // Entries of dead handles are dropped now and then, not one by one: a
  // handle may die on any thread without the context lock.
  if (table.operations.size() >= table.sweepAt) {
    for (auto entry = table.operations.begin(); entry != table.operations.end();)
      entry = entry->second.expired() ? table.operations.erase(entry) : std::next(entry);
    table.sweepAt = std::max<size_t>(1024, 2 * table.operations.size());
  }
  return created;
}

void Ownership::repoint(TableLock &lock, mlir::Operation *subtree,
                        const std::shared_ptr<Module> &to, bool isTop) {
  HandleTable &table = lock.table;
  subtree->walk([&](mlir::Operation *op) {
    auto it = table.operations.find(op);
    if (it == table.operations.end())
      return;
    std::shared_ptr<LiveOperation> live = it->second.lock();
    if (!live || !isValid(*live)) {
      table.operations.erase(it);
      lock.keep(std::move(live));
      return;
    }
    lock.keep(std::move(live->root));
    live->root = to;
    live->epoch = isTop && op == subtree ? 0 : to->epoch;
  });
}

void Ownership::markErased(TableLock &lock, mlir::Operation *subtree) {
  HandleTable &table = lock.table;
  subtree->walk([&](mlir::Operation *op) {
    auto it = table.operations.find(op);
    if (it == table.operations.end())
      return;
    if (std::shared_ptr<LiveOperation> live = it->second.lock()) {
      live->erased = true;
      lock.keep(std::move(live));
    }
    table.operations.erase(it);
  });
}

namespace {
void addReference(Module &user, std::vector<std::shared_ptr<Module>> &list,
                  const std::shared_ptr<Module> &used) {
  if (std::find(list.begin(), list.end(), used) == list.end())
    list.push_back(used);
  (void)user;
}
} // namespace

void Ownership::reference(TableLock &lock, const std::shared_ptr<Module> &user,
                          const std::shared_ptr<Module> &used) {
  // A Module that owns nothing (its operations moved on) needs no keeping.
  if (!user || !used || used == user || !ownsSomething(*used))
    return;
  auto &back = used->referenced;
  bool mutual = std::find(back.begin(), back.end(), user) != back.end();
  if (mutual && (user->foldable || used->foldable)) {
    Module &from = user->foldable ? *user : *used;
    std::shared_ptr<Module> into = user->foldable ? used : user;
    if (from.top && ownsSomething(*into)) {
      mlir::Operation *op = from.top;
      repoint(lock, op, into, /*isTop=*/true);
      into->extraTops.push_back(op);
      lock.table.roots[op] = into;
      from.top = nullptr;
      for (mlir::Operation *extra : from.extraTops) {
        repoint(lock, extra, into, /*isTop=*/true);
        into->extraTops.push_back(extra);
        lock.table.roots[extra] = into;
      }
      from.extraTops.clear();
      // What `from` kept alive, `into` keeps; Modules that kept `from` alive
      // for this operation keep `into` now.
      for (std::shared_ptr<Module> &kept : from.referenced) {
        if (kept != into)
          addReference(*into, into->referenced, kept);
        lock.keep(std::move(kept));
      }
      from.referenced.clear();
      for (auto &entry : lock.table.roots) {
        std::shared_ptr<Module> other = entry.second.lock();
        if (!other)
          continue;
        auto &list = other->referenced;
        auto it =
            std::find_if(list.begin(), list.end(), [&](const auto &m) { return m.get() == &from; });
        if (it != list.end()) {
          lock.keep(std::move(*it));
          list.erase(it);
          if (other != into)
            addReference(*other, list, into);
        }
        lock.keep(std::move(other));
      }
      auto &intoList = into->referenced;
      intoList.erase(std::remove_if(intoList.begin(), intoList.end(),
                                    [&](std::shared_ptr<Module> &m) {
                                      if (m.get() != &from && m != into)
                                        return false;
                                      lock.keep(m);
                                      return true;
                                    }),
                     intoList.end());
      return;
    }
  }
  addReference(*user, user->referenced, used);
}

void Ownership::release(TableLock &lock, Module &owner, mlir::Operation *top,
                        const std::shared_ptr<Module> &destination) {
  lock.table.roots.erase(top);
  if (owner.top == top) {
    owner.top = nullptr;
    if (destination && destination.get() != &owner) {
      for (mlir::Operation *extra : owner.extraTops) {
        repoint(lock, extra, destination, /*isTop=*/true);
        destination->extraTops.push_back(extra);
        lock.table.roots[extra] = destination;
      }
      owner.extraTops.clear();
    }
  } else {
    auto &extras = owner.extraTops;
    extras.erase(std::remove(extras.begin(), extras.end(), top), extras.end());
  }
  if (ownsSomething(owner))
    return;
  for (std::shared_ptr<Module> &used : owner.referenced)
    lock.keep(std::move(used));
  owner.referenced.clear();
}

void Ownership::referenceOutsideValues(TableLock &lock, mlir::Operation *subtree) {
  // The subtree's Module is looked up each time: a reference may fold it
  // into another.
  forEachOutsideDefinition(subtree, [&](mlir::Operation *definer) {
    reference(lock, rootOf(lock, subtree), rootOf(lock, definer));
  });
}

std::shared_ptr<Module> Ownership::adoptLocked(const std::shared_ptr<Context> &context,
                                               TableLock &lock, mlir::Operation *op,
                                               bool foldable) {
  std::shared_ptr<Module> module(new Module(context, op));
  module->foldable = foldable;
  lock.table.roots[op] = module;
  return module;
}

bool Ownership::isUsedFromOutside(TableLock &lock, Module &module) {
  mlir::Operation *top = module.top;
  if (!top)
    return false;
  for (mlir::Operation *extra : module.extraTops) {
    bool uses = false;
    forEachOutsideDefinition(
        extra, [&](mlir::Operation *definer) { uses = uses || top->isAncestor(definer); });
    if (uses)
      return true;
  }
  for (auto &[otherTop, weak] : lock.table.roots) {
    std::shared_ptr<Module> other = weak.lock();
    if (!other || other.get() == &module) {
      lock.keep(std::move(other));
      continue;
    }
    lock.keep(other);
    auto &list = other->referenced;
    if (std::none_of(list.begin(), list.end(),
                     [&](const auto &used) { return used.get() == &module; }))
      continue;
    bool uses = false;
    forEachOutsideDefinition(
        otherTop, [&](mlir::Operation *definer) { uses = uses || top->isAncestor(definer); });
    if (uses)
      return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// CallbackRestrictions
//===----------------------------------------------------------------------===//

namespace {
thread_local bool readOnlyCallback = false;
thread_local mlir::Operation *passAnchor = nullptr;
thread_local std::shared_ptr<std::atomic<bool>> handleScope;
} // namespace

CallbackRestrictions::CallbackRestrictions(bool readOnly, mlir::Operation *anchor)
    : previousReadOnly(readOnlyCallback), previousAnchor(passAnchor), previousScope(handleScope) {
  if (readOnly) {
    readOnlyCallback = true;
    scope = std::make_shared<std::atomic<bool>>(true);
    handleScope = scope;
  } else {
    readOnlyCallback = false;
    passAnchor = anchor;
  }
}

CallbackRestrictions CallbackRestrictions::readOnly() {
  return CallbackRestrictions(true, nullptr);
}

CallbackRestrictions CallbackRestrictions::pass(mlir::Operation *anchor) {
  return CallbackRestrictions(false, anchor);
}

CallbackRestrictions::CallbackRestrictions(CallbackRestrictions &&other) noexcept
    : active(other.active), previousReadOnly(other.previousReadOnly),
      previousAnchor(other.previousAnchor), scope(std::move(other.scope)),
      previousScope(std::move(other.previousScope)) {
  other.active = false;
}

CallbackRestrictions::~CallbackRestrictions() {
  if (!active)
    return;
  if (scope)
    scope->store(false);
  readOnlyCallback = previousReadOnly;
  passAnchor = previousAnchor;
  handleScope = std::move(previousScope);
}

std::shared_ptr<std::atomic<bool>> CallbackRestrictions::currentScope() { return handleScope; }

static mlir::Operation *topLevelOf(mlir::Operation *op) {
  while (mlir::Operation *parent = op->getParentOp())
    op = parent;
  return op;
}

void CallbackRestrictions::checkMayChange(mlir::Operation *op, bool anchorItself) {
  if (readOnlyCallback)
    throw InvalidArgumentError("IR cannot be changed from a verifier, an interface model or a "
                               "diagnostic handler: native code is walking it");
  if (!passAnchor)
    return;
  bool inside = anchorItself ? passAnchor->isAncestor(op) : passAnchor->isProperAncestor(op);
  // IR outside the running module (a temporary, another module) is the
  // pass's own business.
  if (!inside && topLevelOf(op) == topLevelOf(passAnchor))
    throw InvalidArgumentError("a Python pass may only change what lies inside the operation "
                               "it runs on");
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(std::shared_ptr<Context> context, mlir::Operation *top)
    : context(std::move(context)), top(top) {}

Module::~Module() {
  // A Module may die with the GIL held (its last Python handle went away),
  // without the context lock: its operations are then destroyed by the next
  // holder of the lock. On a thread that holds the lock (a Python pass that
  // dropped a temporary), they go at once, before native passes go on.
  // `referenced` is released after this, so Modules this one uses die with
  // or after it.
  HandleTable &table = context->getHandleTable();
  std::vector<mlir::Operation *> owned = extraTops;
  if (top)
    owned.push_back(top);
  bool now = context->isHeldByThisThread();
  {
    std::lock_guard<std::mutex> lock(table.mutex);
    for (mlir::Operation *op : owned) {
      auto it = table.roots.find(op);
      if (it != table.roots.end() && it->second.expired())
        table.roots.erase(it);
      if (!now)
        table.graveyard.push_back(op);
    }
  }
  if (!now)
    return;
  for (mlir::Operation *op : owned)
    op->dropAllReferences();
  for (mlir::Operation *op : owned)
    op->destroy();
}

std::shared_ptr<Module> Module::adopt(std::shared_ptr<Context> context, mlir::Operation *topOp) {
  TableLock lock(*context);
  return Ownership::adoptLocked(context, lock, topOp);
}

std::shared_ptr<Module> Module::parse(std::shared_ptr<Context> context,
                                      const std::string &text,
                                      const std::string &sourceName) {
  Context::Guard guard(*context);
  Context::Capture capture(*context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  // Verified once adopted, so that verifiers defined at run time can make
  // handles to the operations they check.
  mlir::ParserConfig config(&context->getMLIRContext(),
                            /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!parsed)
    capture.fail("Unable to parse module assembly");
  std::shared_ptr<Module> module =
      adopt(std::move(context), parsed.release().getOperation());
  if (mlir::failed(mlir::verify(module->top)))
    capture.fail("Unable to parse module assembly");
  return module;
}

std::shared_ptr<Module> Module::create(std::shared_ptr<Context> context, mlir::Location location) {
  Context::Guard guard(*context);
  return adopt(context, mlir::ModuleOp::create(location).getOperation());
}

OperationRef Module::getOperation() {
  Context::Guard guard(*context);
  TableLock lock(*context);
  if (!top)
    throw InvalidHandleError("the module's operation was erased or moved into "
                             "another module");
  return OperationRef(Ownership::live(*context, lock, top));
}

mlir::Operation *Module::getRawOperation() {
  std::lock_guard<std::mutex> lock(context->getHandleTable().mutex);
  return top;
}

void Module::invalidateHandles() {
  std::lock_guard<std::mutex> lock(context->getHandleTable().mutex);
  ++epoch;
}

bool Module::usesOutsideValues() {
  TableLock lock(*context);
  if (!top || referenced.empty())
    return false;
  bool uses = false;
  forEachOutsideDefinition(top, [&](mlir::Operation *) { uses = true; });
  return uses;
}

bool Module::isUsedFromOutside() {
  TableLock lock(*context);
  return Ownership::isUsedFromOutside(lock, *this);
}

std::string Module::str() { return getOperation().str(); }

std::shared_ptr<Module> Module::clone() {
  Context::Guard guard(*context);
  mlir::Operation *source = getRawOperation();
  if (!source)
    throw InvalidHandleError("the module's operation was erased or moved into "
                             "another module");
  return adopt(context, source->clone());
}

} // namespace plait
