//===- CancelRetainRelease.cpp - plait-cancel-retain-release --------------===//
//
// A retain followed in the same block by a release of the same allocation
// changes no count at the end of the pair; between them only operations that
// neither read arrays nor free them may run (other releases may: the counts
// after the last of them are the same either way, and nothing reads an array
// in between). Equality is by SSA value, through views and casts of one
// array, and through array variables: a load_array gives what the block last
// stored to (or loaded from) that slot.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace plait::dialect {
#define GEN_PASS_DEF_CANCELRETAINRELEASE
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

class BlockScan {
public:
  void run(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block))
      visit(op);
  }

private:
  /// The array a value is a view of, through views, casts and slots.
  Value root(Value array) {
    while (true) {
      auto found = loadedFrom.find(array);
      if (found != loadedFrom.end()) {
        array = found->second;
        continue;
      }
      Operation *def = array.getDefiningOp();
      if (auto view = dyn_cast_or_null<ViewLikeOpInterface>(def)) {
        array = view.getViewSource();
        continue;
      }
      if (auto cast = dyn_cast_or_null<memref::CastOp>(def)) {
        array = cast.getSource();
        continue;
      }
      if (auto metadata = dyn_cast_or_null<memref::ExtractStridedMetadataOp>(def)) {
        array = metadata.getSource();
        continue;
      }
      return array;
    }
  }

  void visit(Operation &op) {
    if (auto retain = dyn_cast<RetainOp>(op)) {
      pending[root(retain.getArray())].push_back(retain);
      return;
    }
    if (auto release = dyn_cast<ReleaseOp>(op)) {
      auto found = pending.find(root(release.getArray()));
      if (found != pending.end() && !found->second.empty()) {
        found->second.pop_back_val()->erase();
        release->erase();
      }
      return;
    }
    // (A list item's slot may share its words with another's: those
    // loads and stores are unknown effects, below.)
    auto variable = [](Value slot) { return !slot.getDefiningOp<ItemSlotOp>(); };
    if (auto store = dyn_cast<StoreArrayOp>(op); store && variable(store.getSlot())) {
      slotHolds[store.getSlot()] = store.getValue();
      return;
    }
    if (auto load = dyn_cast<LoadArrayOp>(op); load && variable(load.getSlot())) {
      auto held = slotHolds.find(load.getSlot());
      if (held != slotHolds.end())
        loadedFrom[load.getResult()] = held->second;
      else
        slotHolds[load.getSlot()] = load.getResult();
      return;
    }
    if (op.getNumRegions() == 0 && isMemoryEffectFree(&op))
      return;
    // It may read an array, free one or store to a slot behind our back.
    pending.clear();
    slotHolds.clear();
  }

  llvm::DenseMap<Value, SmallVector<Operation *, 2>> pending;
  llvm::DenseMap<Value, Value> slotHolds;
  llvm::DenseMap<Value, Value> loadedFrom;
};

struct CancelRetainReleasePass
    : public plait::dialect::impl::CancelRetainReleaseBase<CancelRetainReleasePass> {
  void runOnOperation() override {
    getOperation().walk([](Block *block) { BlockScan().run(*block); });
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createCancelRetainReleasePass() {
  return std::make_unique<CancelRetainReleasePass>();
}
