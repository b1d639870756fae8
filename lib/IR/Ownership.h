//===- Ownership.h - which Module owns which operation ----------*- C++ -*-===//
//
// Internal to PlaitIR: the HandleTable bookkeeping behind Module.h's handles.
// Every function here expects the caller to hold the context lock and the
// HandleTable mutex.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_LIB_IR_OWNERSHIP_H
#define PLAIT_LIB_IR_OWNERSHIP_H

#include "plait/IR/Module.h"

#include "mlir/IR/Operation.h"

#include <algorithm>

namespace plait {

/// Holds a context's HandleTable mutex. Handles and Modules dropped while it is
/// held are kept until after unlocking, because their destructors take the
/// mutex themselves.
class TableLock {
public:
  explicit TableLock(Context &context) : table(context.getHandleTable()), lock(table.mutex) {}
  HandleTable &table;
  void keep(std::shared_ptr<Module> module) { modules.push_back(std::move(module)); }
  void keep(std::shared_ptr<LiveOperation> live) { lives.push_back(std::move(live)); }

private:
  std::vector<std::shared_ptr<Module>> modules;
  std::vector<std::shared_ptr<LiveOperation>> lives;
  std::unique_lock<std::mutex> lock; // last: unlocked before the releases
};

/// The operation defining `value`: its result's owner, or the operation whose
/// region holds its block.
inline mlir::Operation *definerOf(mlir::Value value) {
  if (mlir::Operation *op = value.getDefiningOp())
    return op;
  mlir::Block *block = value.getParentBlock();
  return block ? block->getParentOp() : nullptr;
}

/// Calls `fn` on every operation outside `subtree` that uses a value or
/// block defined inside it.
template <typename Fn> void forEachOutsideUser(mlir::Operation *subtree, Fn fn) {
  subtree->walk([&](mlir::Operation *op) {
    auto usersOf = [&](mlir::Value value) {
      for (mlir::Operation *user : value.getUsers())
        if (!subtree->isAncestor(user))
          fn(user);
    };
    for (mlir::Value result : op->getResults())
      usersOf(result);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region) {
        for (mlir::Value argument : block.getArguments())
          usersOf(argument);
        for (mlir::BlockOperand &use : block.getUses())
          if (!subtree->isAncestor(use.getOwner()))
            fn(use.getOwner());
      }
  });
}

/// Calls `fn` on the operation defining every value or successor block that
/// operations inside `subtree` use but that lies outside it.
template <typename Fn> void forEachOutsideDefinition(mlir::Operation *subtree, Fn fn) {
  subtree->walk([&](mlir::Operation *op) {
    for (mlir::Value operand : op->getOperands())
      if (mlir::Operation *definer = definerOf(operand); definer && !subtree->isAncestor(definer))
        fn(definer);
    for (mlir::Block *successor : op->getSuccessors())
      if (mlir::Operation *holder = successor->getParentOp();
          holder && !subtree->isAncestor(holder))
        fn(holder);
  });
}

struct Ownership {
  static mlir::Operation *&top(Module &module) { return module.top; }
  static std::vector<std::shared_ptr<Module>> &referenced(Module &module) {
    return module.referenced;
  }
  static uint64_t epoch(const Module &module) { return module.epoch; }

  /// Whether `op` is a top-level operation of `module` (its own or an extra).
  static bool isTopOf(const Module &module, mlir::Operation *op) {
    return module.top == op || std::find(module.extraTops.begin(), module.extraTops.end(), op) !=
                                   module.extraTops.end();
  }
  /// Whether `module` owns any IR.
  static bool ownsSomething(const Module &module) {
    return module.top || !module.extraTops.empty();
  }

  static bool isValid(const LiveOperation &live) {
    if (live.erased || !live.root || (live.scope && !live.scope->load()))
      return false;
    if (live.epoch == 0)
      return isTopOf(*live.root, live.op);
    return live.epoch == live.root->epoch;
  }

  /// The Module whose top-level operation encloses `op`, or null.
  static std::shared_ptr<Module> rootOf(TableLock &lock, mlir::Operation *op) {
    while (mlir::Operation *parent = op->getParentOp())
      op = parent;
    auto it = lock.table.roots.find(op);
    if (it == lock.table.roots.end())
      return nullptr;
    std::shared_ptr<Module> root = it->second.lock();
    lock.keep(root);
    return root;
  }

  /// The shared handle state of `op` (made on first use).
  static std::shared_ptr<LiveOperation> live(Context &context, TableLock &lock,
                                             mlir::Operation *op);

  /// After `subtree` moved into `to` (as its top-level operation when
  /// `isTop`), points the handles of everything inside it there.
  static void repoint(TableLock &lock, mlir::Operation *subtree, const std::shared_ptr<Module> &to,
                      bool isTop);

  /// Marks the handles of everything inside `subtree` erased.
  static void markErased(TableLock &lock, mlir::Operation *subtree);

  /// Records that operations in `user` use values defined in `used`, which
  /// must then outlive `user`. When `used` already needs `user` too, the one
  /// made for a single operation in no block is folded into the other
  /// (its operation becomes an extra top-level one there), so that no cycle
  /// of Modules keeps both alive forever.
  static void reference(TableLock &lock, const std::shared_ptr<Module> &user,
                        const std::shared_ptr<Module> &used);

  /// Takes `top` out of the Module that owns it (as its top-level operation
  /// or an extra one). When its own top-level operation moves into
  /// `destination`, the extra ones (which use its values) go along.
  static void release(TableLock &lock, Module &owner, mlir::Operation *top,
                      const std::shared_ptr<Module> &destination = nullptr);

  /// Records every Module that values used inside `subtree` (but defined
  /// outside it) come from as referenced by the subtree's Module.
  static void referenceOutsideValues(TableLock &lock, mlir::Operation *subtree);

  /// Makes `op` (in no block) the top-level operation of a new Module;
  /// `foldable` for one made for a single operation (not a user's module).
  static std::shared_ptr<Module> adoptLocked(const std::shared_ptr<Context> &context,
                                             TableLock &lock, mlir::Operation *op,
                                             bool foldable = false);

  /// Whether operations outside `module` use values defined inside it.
  static bool isUsedFromOutside(TableLock &lock, Module &module);
};

} // namespace plait

#endif // PLAIT_LIB_IR_OWNERSHIP_H
