//===- ForwardConstantSlots.cpp - plait-forward-constant-slots ------------===//
//
// Every variable has a flag slot that says whether it is bound: false at the
// function's start, true from each assignment on, and read (with a raise of
// UnboundLocalError) before each use. For a variable assigned before its
// uses the reads are always true, but each is a load and a branch to an
// error return, in every loop, until LLVM proves otherwise: IR that every
// later pass and LLVM itself must carry.
//
// The rule, for a rank-0 stack slot of a scalar used only by loads and
// stores: let c be the constant that every store outside the function's
// entry block writes (or, if there are none, the entry block's last store).
// Stores of other values must be operations of the entry block itself,
// which run once, in order. A load that a store of c placed after all of
// them dominates reads c: that store ran on every path to the load, and
// every store that can run after it writes c again.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

#include <limits>
#include <optional>

namespace plait::dialect {
#define GEN_PASS_DEF_FORWARDCONSTANTSLOTS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;

namespace {

struct ForwardConstantSlotsPass
    : public plait::dialect::impl::ForwardConstantSlotsBase<ForwardConstantSlotsPass> {
  void runOnOperation() override {
    func::FuncOp function = getOperation();
    if (function.isExternal())
      return;
    Block &entry = function.getBody().front();
    DenseMap<Operation *, size_t> position;
    for (Operation &op : entry)
      position[&op] = position.size();
    // A use's place in the entry block's order: its own, that of the entry
    // block operation it is nested in, or after all of them.
    auto place = [&](Operation *user) {
      Operation *ancestor = entry.findAncestorOpInBlock(*user);
      return ancestor ? position.lookup(ancestor) : std::numeric_limits<size_t>::max();
    };

    DominanceInfo dominance(function);
    SmallVector<std::pair<memref::LoadOp, Operation *>> forwarded; // load, constant
    for (Operation &op : entry) {
      auto slot = dyn_cast<memref::AllocaOp>(op);
      // (Scalars only: arrays have slots of their own kind, lowered apart.)
      if (!slot || slot.getType().getRank() != 0 ||
          !slot.getType().getElementType().isIntOrIndexOrFloat())
        continue;
      SmallVector<memref::StoreOp> stores;
      SmallVector<memref::LoadOp> loads;
      bool onlyLoadsAndStores = true;
      for (Operation *user : slot->getUsers()) {
        if (auto store = dyn_cast<memref::StoreOp>(user); store && store.getValue() != slot)
          stores.push_back(store);
        else if (auto load = dyn_cast<memref::LoadOp>(user))
          loads.push_back(load);
        else
          onlyLoadsAndStores = false;
      }
      if (!onlyLoadsAndStores || loads.empty() || stores.empty())
        continue;
      SmallVector<Attribute> stored; // each store's constant, or null
      for (memref::StoreOp store : stores) {
        Attribute value;
        stored.push_back(matchPattern(store.getValue(), m_Constant(&value)) ? value : Attribute());
      }
      // The constant: that of the stores outside the entry block, else of
      // the entry block's last store.
      size_t last = 0;
      for (auto [k, store] : llvm::enumerate(stores))
        if (store->getBlock() != &entry || place(store) > place(stores[last]))
          last = k;
      Attribute value = stored[last];
      if (!value)
        continue;
      // Other values are stored only in the entry block (each runs once),
      // up to `lastOther`: a store of the constant after that is final.
      bool othersInEntry = true;
      std::optional<size_t> lastOther;
      for (auto [store, storedValue] : llvm::zip(stores, stored)) {
        if (storedValue == value)
          continue;
        othersInEntry &= store->getBlock() == &entry;
        lastOther = std::max(lastOther.value_or(0), place(store));
      }
      if (!othersInEntry)
        continue;
      SmallVector<Operation *> finalStores;
      for (auto [store, storedValue] : llvm::zip(stores, stored))
        if (storedValue == value && (!lastOther || place(store) > *lastOther))
          finalStores.push_back(store);
      Operation *constant = stores[last].getValue().getDefiningOp();
      for (memref::LoadOp load : loads) {
        if (llvm::any_of(finalStores, [&](Operation *store) {
              return dominance.properlyDominates(store, load.getOperation());
            }))
          forwarded.push_back({load, constant});
      }
    }
    for (auto [load, constant] : forwarded) {
      OpBuilder b(load);
      load.getResult().replaceAllUsesWith(b.clone(*constant)->getResult(0));
      load.erase();
    }
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createForwardConstantSlotsPass() {
  return std::make_unique<ForwardConstantSlotsPass>();
}
