//===- LowerElementwise.cpp - plait-lower-elementwise ---------------------===//
//
// Each plait.elementwise becomes an allocation checked for failure,
// broadcast views of its inputs and a loop nest in C order whose innermost
// body computes and stores one element (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Messages.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace plait::dialect {
#define GEN_PASS_DEF_LOWERELEMENTWISE
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

Value toIndex(OpBuilder &b, Location l, Value i64) {
  return b.create<arith::IndexCastOp>(l, b.getIndexType(), i64);
}

/// The result: a C- (or Fortran-) contiguous view of a new allocation, whose
/// size the frontend has checked; a failed allocation raises MemoryError.
Value allocateResult(OpBuilder &b, ElementwiseOp op) {
  Location l = op.getLoc();
  auto type = op.getResult().getType().cast<MemRefType>();
  Value total = b.create<arith::ConstantIntOp>(l, 1, 64);
  for (Value size : op.getShape())
    total = b.create<arith::MulIOp>(l, total, size);
  Value flat =
      b.create<memref::AllocOp>(l, MemRefType::get({ShapedType::kDynamic}, type.getElementType()),
                                ValueRange{toIndex(b, l, total)});
  Value address = b.create<arith::IndexCastOp>(
      l, b.getI64Type(), b.create<memref::ExtractAlignedPointerAsIndexOp>(l, flat));
  Value failed = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, address,
                                         b.create<arith::ConstantIntOp>(l, 0, 64));
  b.create<RaiseIfOp>(l, failed, "MemoryError", messageFor(op, "array_too_big"), ValueRange{});
  // Strides: the unit-stride axis first (the last in C order, the first in
  // Fortran order), each next one the product of the sizes before it.
  size_t rank = op.getShape().size();
  SmallVector<OpFoldResult> sizes, strides(rank);
  for (Value size : op.getShape())
    sizes.push_back(toIndex(b, l, size));
  Value stride = b.create<arith::ConstantIndexOp>(l, 1);
  for (size_t step = 0; step < rank; ++step) {
    size_t axis = op.getFortran() ? step : rank - 1 - step;
    strides[axis] = step == 0 ? OpFoldResult(b.getIndexAttr(1)) : OpFoldResult(stride);
    stride = b.create<arith::MulIOp>(l, stride, sizes[axis].get<Value>());
  }
  return b.create<memref::ReinterpretCastOp>(
      l, type, flat, OpFoldResult(b.create<arith::ConstantIndexOp>(l, 0).getResult()), sizes,
      strides);
}

/// `input` broadcast to the result's sizes: its axes line up with the
/// result's last ones, and an axis of size 1 (or a missing one) repeats.
Value broadcastView(OpBuilder &b, Location l, Value input, ArrayRef<OpFoldResult> sizes) {
  auto type = input.getType().cast<MemRefType>();
  int64_t rank = static_cast<int64_t>(sizes.size()), from = rank - type.getRank();
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(l, input);
  Value zero = b.create<arith::ConstantIndexOp>(l, 0), one = b.create<arith::ConstantIndexOp>(l, 1);
  SmallVector<OpFoldResult> strides;
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis < from) {
      strides.push_back(zero);
      continue;
    }
    Value repeats =
        b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, metadata.getSizes()[axis - from], one);
    strides.push_back(
        b.create<arith::SelectOp>(l, repeats, zero, metadata.getStrides()[axis - from])
            .getResult());
  }
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto viewType =
      MemRefType::get(dynamic, type.getElementType(),
                      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, dynamic));
  return b.create<memref::ReinterpretCastOp>(l, viewType, metadata.getBaseBuffer(),
                                             OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// The body at `indices`, at the end of `block` (a plait.for's): the
/// inputs' elements loaded, the body's blocks inlined, each yield a store
/// of the element and the end of the iteration.
void emitElement(OpBuilder &b, ElementwiseOp op, Block *block, ArrayRef<Value> views,
                 ArrayRef<Value> indices, Value result) {
  Location l = op.getLoc();
  b.setInsertionPointToEnd(block);
  SmallVector<Value> elements;
  for (Value view : views)
    elements.push_back(b.create<memref::LoadOp>(l, view, indices));
  IRMapping mapping;
  Region &body = op.getBody();
  auto store = [&](YieldOp yield) {
    b.setInsertionPoint(yield);
    b.create<memref::StoreOp>(yield.getLoc(), mapping.lookupOrDefault(yield.getValue()), result,
                              indices);
    b.create<ContinueOp>(yield.getLoc());
    yield.erase();
  };
  if (body.hasOneBlock()) {
    mapping.map(body.getArguments(), elements);
    for (Operation &inner : body.front())
      b.clone(inner, mapping);
    store(cast<YieldOp>(block->back()));
    return;
  }
  // A CFG body: its blocks follow the loop's entry block, which branches in.
  Region &loop = *block->getParent();
  size_t before = loop.getBlocks().size();
  body.cloneInto(&loop, mapping);
  b.create<cf::BranchOp>(l, mapping.lookup(&body.front()), elements);
  SmallVector<YieldOp> yields;
  for (Block &cloned : llvm::drop_begin(loop.getBlocks(), before))
    if (auto yield = dyn_cast<YieldOp>(cloned.back()))
      yields.push_back(yield);
  for (YieldOp yield : yields) {
    mapping.clear();
    store(yield);
  }
}

/// One loop over the last axis (one iteration for a 0-d result) at the
/// builder's position, reading `inputs` at `indices` and that axis.
void emitInnermostLoop(OpBuilder &b, ElementwiseOp op, ArrayRef<Value> inputs,
                       SmallVector<Value> indices, Value result) {
  OpBuilder::InsertionGuard guard(b);
  Location l = op.getLoc();
  size_t rank = op.getShape().size();
  Value zero = b.create<arith::ConstantIntOp>(l, 0, 64),
        one = b.create<arith::ConstantIntOp>(l, 1, 64);
  auto loop = b.create<ForOp>(l, zero, rank == 0 ? one : op.getShape()[rank - 1], one);
  Block *block = new Block();
  loop.getBody().push_back(block);
  Value k = block->addArgument(b.getI64Type(), l);
  b.setInsertionPointToEnd(block);
  if (rank != 0)
    indices.push_back(toIndex(b, l, k));
  emitElement(b, op, block, inputs, indices, result);
}

/// The loop nest at the builder's position, in C order (the last axis
/// innermost), reading `views`. With `direct` (a condition), the innermost
/// loop has a copy that reads the inputs themselves when it holds: the
/// outer loops are shared, so the code grows by one loop, not a nest.
void emitLoopNest(OpBuilder &b, ElementwiseOp op, ArrayRef<Value> views, Value direct,
                  Value result) {
  OpBuilder::InsertionGuard guard(b);
  Location l = op.getLoc();
  size_t rank = op.getShape().size();
  Value zero = b.create<arith::ConstantIntOp>(l, 0, 64),
        one = b.create<arith::ConstantIntOp>(l, 1, 64);
  SmallVector<Value> indices;
  for (size_t axis = 0; axis + 1 < rank; ++axis) {
    auto loop = b.create<ForOp>(l, zero, op.getShape()[axis], one);
    Block *block = new Block();
    loop.getBody().push_back(block);
    Value k = block->addArgument(b.getI64Type(), l);
    b.setInsertionPointToEnd(block);
    indices.push_back(toIndex(b, l, k));
    b.create<ContinueOp>(l);
    b.setInsertionPoint(block->getTerminator());
  }
  if (!direct) {
    emitInnermostLoop(b, op, views, indices, result);
    return;
  }
  auto choice = b.create<scf::IfOp>(l, direct, /*withElseRegion=*/true);
  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  emitInnermostLoop(b, op, SmallVector<Value>(op.getInputs()), indices, result);
  b.setInsertionPoint(choice.elseBlock()->getTerminator());
  emitInnermostLoop(b, op, views, indices, result);
}

void lower(ElementwiseOp op) {
  OpBuilder b(op);
  Location l = op.getLoc();
  Value result = allocateResult(b, op);
  SmallVector<OpFoldResult> sizes;
  for (Value size : op.getShape())
    sizes.push_back(toIndex(b, l, size));
  SmallVector<Value> views;
  for (Value input : op.getInputs())
    views.push_back(broadcastView(b, l, input, sizes));
  // Broadcast views have strides chosen at run time, which LLVM can only
  // gather from. When no input repeats (all have the result's shape) the
  // inputs themselves are read, with the strides their types state (unit
  // ones, for contiguous arrays): loads LLVM vectorises.
  size_t rank = sizes.size();
  bool versioned =
      rank != 0 && !op.getInputs().empty() && llvm::all_of(op.getInputs(), [&](Value input) {
        return input.getType().cast<MemRefType>().getRank() == static_cast<int64_t>(rank);
      });
  Value same;
  if (versioned) {
    same = b.create<arith::ConstantIntOp>(l, 1, 1);
    for (Value input : op.getInputs())
      for (size_t axis = 0; axis < rank; ++axis) {
        Value size = b.create<memref::DimOp>(l, input, axis);
        same = b.create<arith::AndIOp>(
            l, same,
            b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, size, sizes[axis].get<Value>()));
      }
  }
  emitLoopNest(b, op, views, same, result);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

struct LowerElementwisePass
    : public plait::dialect::impl::LowerElementwiseBase<LowerElementwisePass> {
  void runOnOperation() override {
    SmallVector<ElementwiseOp> ops;
    getOperation()->walk([&](ElementwiseOp op) { ops.push_back(op); });
    for (ElementwiseOp op : ops)
      lower(op);
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerElementwisePass() {
  return std::make_unique<LowerElementwisePass>();
}
