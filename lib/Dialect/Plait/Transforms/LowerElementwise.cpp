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

#include "Captures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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
/// With `ownLastStride` (for an input whose last axis has the result's
/// size), the last axis keeps the input's stride as its type states it: a
/// unit stride is one LLVM vectorises, a stride chosen at run time is not.
Value broadcastView(OpBuilder &b, Location l, Value input, ArrayRef<OpFoldResult> sizes,
                    bool ownLastStride = false) {
  auto type = input.getType().cast<MemRefType>();
  int64_t rank = static_cast<int64_t>(sizes.size()), from = rank - type.getRank();
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(l, input);
  Value zero = b.create<arith::ConstantIndexOp>(l, 0), one = b.create<arith::ConstantIndexOp>(l, 1);
  SmallVector<OpFoldResult> strides;
  SmallVector<int64_t> staticStrides(rank, ShapedType::kDynamic);
  for (int64_t axis = 0; axis < rank; ++axis) {
    if (axis < from) {
      strides.push_back(zero);
      continue;
    }
    Value own = metadata.getStrides()[axis - from];
    if (ownLastStride && axis == rank - 1) {
      SmallVector<int64_t> typeStrides;
      int64_t typeOffset;
      if (succeeded(getStridesAndOffset(type, typeStrides, typeOffset)) &&
          !ShapedType::isDynamic(typeStrides.back())) {
        staticStrides.back() = typeStrides.back();
        strides.push_back(b.getIndexAttr(typeStrides.back()));
      } else {
        strides.push_back(own);
      }
      continue;
    }
    Value repeats =
        b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, metadata.getSizes()[axis - from], one);
    strides.push_back(b.create<arith::SelectOp>(l, repeats, zero, own).getResult());
  }
  SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
  auto viewType =
      MemRefType::get(dynamic, type.getElementType(),
                      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, staticStrides));
  return b.create<memref::ReinterpretCastOp>(l, viewType, metadata.getBaseBuffer(),
                                             OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// The size of `memref`'s `axis` when it is a constant: stated by its type,
/// or by the reinterpret_cast that made it (as keepdims reductions, `[:,
/// None]` and reshapes do).
std::optional<int64_t> constantSize(Value memref, int64_t axis) {
  auto type = memref.getType().cast<MemRefType>();
  if (!type.isDynamicDim(axis))
    return type.getDimSize(axis);
  if (auto cast = memref.getDefiningOp<memref::CastOp>())
    return constantSize(cast.getSource(), axis);
  auto made = memref.getDefiningOp<memref::ReinterpretCastOp>();
  if (!made)
    return std::nullopt;
  OpFoldResult size = made.getMixedSizes()[axis];
  if (auto value = size.dyn_cast<Value>())
    if (auto widened = value.getDefiningOp<arith::IndexCastOp>())
      size = widened.getIn();
  return getConstantIntValue(size);
}

/// Whether `input` repeats along the result's last axis for certain: it is
/// 0-d, or its last axis holds one element.
bool repeatsAlongLastAxis(Value input) {
  int64_t rank = input.getType().cast<MemRefType>().getRank();
  return rank == 0 || constantSize(input, rank - 1) == 1;
}

/// An input read by a loop nest: through `view`, at index 0 of the last axis
/// when `firstOfLastAxis` (an input that repeats along it).
struct InputRead {
  Value view;
  bool firstOfLastAxis = false;
};

/// The body at `indices`, at the end of `block` (a plait.for's): the
/// inputs' elements loaded, the body's blocks inlined, each yield a store
/// of the element and the end of the iteration.
void emitElement(OpBuilder &b, ElementwiseOp op, Block *block, ArrayRef<InputRead> inputs,
                 ArrayRef<Value> indices, Value result) {
  Location l = op.getLoc();
  b.setInsertionPointToEnd(block);
  SmallVector<Value> elements;
  for (const InputRead &input : inputs) {
    SmallVector<Value> at(indices);
    if (input.firstOfLastAxis)
      at.back() = b.create<arith::ConstantIndexOp>(l, 0);
    elements.push_back(b.create<memref::LoadOp>(l, input.view, at));
  }
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

/// The positions of axis 0 a loop nest covers: all of them, or a block of
/// a parallel loop's.
struct FirstAxisRange {
  Value begin, end; // null: the whole axis
};

/// One loop over the last axis (one iteration for a 0-d result) at the
/// builder's position, reading `inputs` at `indices` and that axis.
void emitInnermostLoop(OpBuilder &b, ElementwiseOp op, ArrayRef<InputRead> inputs,
                       SmallVector<Value> indices, Value result, FirstAxisRange range) {
  OpBuilder::InsertionGuard guard(b);
  Location l = op.getLoc();
  size_t rank = op.getShape().size();
  Value zero = b.create<arith::ConstantIntOp>(l, 0, 64),
        one = b.create<arith::ConstantIntOp>(l, 1, 64);
  Value begin = zero, end = rank == 0 ? one : op.getShape()[rank - 1];
  if (rank == 1 && range.begin)
    begin = range.begin, end = range.end;
  auto loop = b.create<ForOp>(l, begin, end, one);
  Block *block = new Block();
  loop.getBody().push_back(block);
  Value k = block->addArgument(b.getI64Type(), l);
  b.setInsertionPointToEnd(block);
  if (rank != 0)
    indices.push_back(toIndex(b, l, k));
  emitElement(b, op, block, inputs, indices, result);
}

/// How a loop nest reads its inputs.
struct NestReads {
  /// Each input's last axis read with the stride its type states, or as one
  /// element (an input that repeats along it): loads LLVM vectorises.
  SmallVector<InputRead> fast;
  /// Broadcast views, whose strides are chosen at run time (LLVM can only
  /// gather from them); empty when the fast reads always apply.
  SmallVector<InputRead> general;
  /// When the fast reads apply (every input not known to repeat has the
  /// result's last size); null when there are none.
  Value useFast;
};

/// The loop nest at the builder's position, in C order (the last axis
/// innermost). With both kinds of reads, the innermost loop has a copy for
/// each, chosen at run time: the outer loops are shared, so the code grows
/// by one loop, not a nest.
void emitLoopNest(OpBuilder &b, ElementwiseOp op, const NestReads &reads, Value result,
                  FirstAxisRange range) {
  OpBuilder::InsertionGuard guard(b);
  Location l = op.getLoc();
  size_t rank = op.getShape().size();
  Value zero = b.create<arith::ConstantIntOp>(l, 0, 64),
        one = b.create<arith::ConstantIntOp>(l, 1, 64);
  SmallVector<Value> indices;
  for (size_t axis = 0; axis + 1 < rank; ++axis) {
    bool blocked = axis == 0 && range.begin;
    auto loop = b.create<ForOp>(l, blocked ? range.begin : zero,
                                blocked ? range.end : op.getShape()[axis], one);
    Block *block = new Block();
    loop.getBody().push_back(block);
    Value k = block->addArgument(b.getI64Type(), l);
    b.setInsertionPointToEnd(block);
    indices.push_back(toIndex(b, l, k));
    b.create<ContinueOp>(l);
    b.setInsertionPoint(block->getTerminator());
  }
  if (!reads.useFast) {
    emitInnermostLoop(b, op, reads.general.empty() ? reads.fast : reads.general, indices, result,
                      range);
    return;
  }
  auto choice = b.create<scf::IfOp>(l, reads.useFast, /*withElseRegion=*/true);
  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  emitInnermostLoop(b, op, reads.fast, indices, result, range);
  b.setInsertionPoint(choice.elseBlock()->getTerminator());
  emitInnermostLoop(b, op, reads.general, indices, result, range);
}

/// Elements per block of a parallel loop: enough that a block's work
/// outweighs handing it to a thread (a few microseconds).
constexpr int64_t kParallelBlockElements = 1 << 14;

/// `ceil(a / b)` for a >= 0, b > 0.
Value ceilDiv(OpBuilder &b, Location l, Value a, Value divisor) {
  Value one = b.create<arith::ConstantIntOp>(l, 1, 64);
  return b.create<arith::DivSIOp>(
      l, b.create<arith::SubIOp>(l, b.create<arith::AddIOp>(l, a, divisor), one), divisor);
}

/// A plait.parallel_for over blocks of `size` positions of at least
/// `minimum` work units each (`unitsPerPosition` units a position), whose
/// body `emitBlock` fills for [begin, end).
void emitParallelBlocks(OpBuilder &b, Location l, Value size, Value unitsPerPosition,
                        int64_t minimum, function_ref<void(OpBuilder &, Value, Value)> emitBlock) {
  Value zero = b.create<arith::ConstantIntOp>(l, 0, 64),
        one = b.create<arith::ConstantIntOp>(l, 1, 64);
  Value units = b.create<arith::MaxSIOp>(l, unitsPerPosition, one);
  Value perBlock =
      ceilDiv(b, l, b.create<arith::ConstantIntOp>(l, minimum, 64).getResult(), units);
  Value blocks = ceilDiv(b, l, size, perBlock);
  auto loop = b.create<ParallelForOp>(l, zero, one, blocks, ValueRange{}, b.getArrayAttr({}),
                                      ValueRange{}, b.getArrayAttr({}));
  Block *body = new Block();
  loop.getBody().push_back(body);
  Value k = body->addArgument(b.getI64Type(), l);
  OpBuilder inside = OpBuilder::atBlockEnd(body);
  Value begin = inside.create<arith::MulIOp>(l, k, perBlock);
  Value end = inside.create<arith::MinSIOp>(l, inside.create<arith::AddIOp>(l, begin, perBlock),
                                            size);
  emitBlock(inside, begin, end);
  inside.create<ContinueOp>(l);
}

void lower(ElementwiseOp op) {
  OpBuilder b(op);
  Location l = op.getLoc();
  Value result = allocateResult(b, op);
  SmallVector<OpFoldResult> sizes;
  for (Value size : op.getShape())
    sizes.push_back(toIndex(b, l, size));
  size_t rank = sizes.size();
  NestReads reads;
  for (Value input : op.getInputs())
    reads.general.push_back({broadcastView(b, l, input, sizes)});
  if (rank != 0) {
    // The fast copy reads inputs that repeat along the last axis (keepdims
    // reductions, `[:, None]`) at its index 0, and the others with their own
    // last stride when their last axis has the result's size.
    Value fits = b.create<arith::ConstantIntOp>(l, 1, 1);
    bool anyChecked = false;
    for (auto [input, general] : llvm::zip(op.getInputs(), reads.general)) {
      if (repeatsAlongLastAxis(input)) {
        reads.fast.push_back({general.view, /*firstOfLastAxis=*/true});
        continue;
      }
      int64_t last = input.getType().cast<MemRefType>().getRank() - 1;
      Value size = b.create<memref::DimOp>(l, input, last);
      fits = b.create<arith::AndIOp>(
          l, fits,
          b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, size, sizes.back().get<Value>()));
      reads.fast.push_back({broadcastView(b, l, input, sizes, /*ownLastStride=*/true)});
      anyChecked = true;
    }
    if (anyChecked)
      reads.useFast = fits;
    else
      reads.general.clear();
  }
  if (op.getParallel() && rank != 0) {
    // Blocks of axis 0, each the whole nest below it.
    Value inner = b.create<arith::ConstantIntOp>(l, 1, 64);
    for (size_t axis = 1; axis < rank; ++axis)
      inner = b.create<arith::MulIOp>(l, inner, op.getShape()[axis]);
    emitParallelBlocks(b, l, op.getShape()[0], inner, kParallelBlockElements,
                       [&](OpBuilder &inside, Value begin, Value end) {
                         emitLoopNest(inside, op, reads, result, {begin, end});
                       });
  } else {
    emitLoopNest(b, op, reads, result, {});
  }
  op.getResult().replaceAllUsesWith(result);
  op.erase();
}

//===----------------------------------------------------------------------===//
// plait.pairwise_sum
//===----------------------------------------------------------------------===//

constexpr int64_t kPairwiseBlock = 128; // NumPy's PW_BLOCKSIZE
constexpr const char *kPairwiseRuntime = "plait_rt_pairwise_sum_f64";

/// The element `body` computes at `index` of `views`, its ops cloned at the
/// builder's position (`outside` maps the values it uses from outside).
Value elementAt(OpBuilder &b, Location l, Region &body, ArrayRef<Value> views, Value index,
                const IRMapping &outside) {
  IRMapping mapping = outside;
  for (auto [view, argument] : llvm::zip(views, body.getArguments()))
    mapping.map(argument, b.create<memref::LoadOp>(l, view, ValueRange{index}).getResult());
  for (Operation &inner : body.front().without_terminator())
    b.clone(inner, mapping);
  return mapping.lookupOrDefault(cast<YieldOp>(body.front().getTerminator()).getValue());
}

/// The runtime's pairwise sum of `count` elements of the 1-D f64 `array`
/// from `start`.
Value runtimePairwiseSum(OpBuilder &b, Location l, ModuleOp module, Value array, Value start,
                         Value count) {
  Type i64 = b.getI64Type();
  if (!module.lookupSymbol(kPairwiseRuntime)) {
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    top.create<func::FuncOp>(l, kPairwiseRuntime,
                             b.getFunctionType({i64, i64, i64}, {b.getF64Type()}))
        .setPrivate();
  }
  auto metadata = b.create<memref::ExtractStridedMetadataOp>(l, array);
  auto cast = [&](Value index) { return b.create<arith::IndexCastOp>(l, i64, index).getResult(); };
  Value eight = b.create<arith::ConstantIntOp>(l, 8, 64);
  Value stride = cast(metadata.getStrides()[0]);
  Value first = b.create<arith::AddIOp>(l, cast(metadata.getOffset()),
                                        b.create<arith::MulIOp>(l, start, stride));
  Value address =
      b.create<arith::AddIOp>(l, cast(b.create<memref::ExtractAlignedPointerAsIndexOp>(l, array)),
                              b.create<arith::MulIOp>(l, first, eight));
  return b
      .create<func::CallOp>(l, kPairwiseRuntime, TypeRange{b.getF64Type()},
                            ValueRange{address, count, stride})
      .getResult(0);
}

/// The identity body over one array: NumPy's pairwise sum of its data, as
/// the runtime computes it. Fewer than 8 elements (the lines of a short
/// axis, one sum each) are added here, in order from -0.0 as the runtime
/// adds them, without a call.
Value pairwiseSumOfArray(OpBuilder &b, Location l, ModuleOp module, Value array, Value start,
                         Value count) {
  auto isShort = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, count,
                                         b.create<arith::ConstantIntOp>(l, 8, 64));
  auto choice = b.create<scf::IfOp>(l, TypeRange{b.getF64Type()}, isShort, /*withElseRegion=*/true);
  {
    OpBuilder inOrder = OpBuilder::atBlockEnd(choice.thenBlock());
    Value from = toIndex(inOrder, l, start);
    Value to = inOrder.create<arith::AddIOp>(l, from, toIndex(inOrder, l, count));
    Value one = inOrder.create<arith::ConstantIndexOp>(l, 1);
    Value negativeZero =
        inOrder.create<arith::ConstantFloatOp>(l, APFloat(-0.0), inOrder.getF64Type());
    auto loop = inOrder.create<scf::ForOp>(l, from, to, one, ValueRange{negativeZero});
    OpBuilder step = OpBuilder::atBlockBegin(loop.getBody());
    Value element = step.create<memref::LoadOp>(l, array, ValueRange{loop.getInductionVar()});
    step.create<scf::YieldOp>(
        l, step.create<arith::AddFOp>(l, loop.getRegionIterArgs()[0], element).getResult());
    inOrder.create<scf::YieldOp>(l, loop.getResult(0));
  }
  OpBuilder inRuntime = OpBuilder::atBlockEnd(choice.elseBlock());
  inRuntime.create<scf::YieldOp>(l, runtimePairwiseSum(inRuntime, l, module, array, start, count));
  return choice.getResult(0);
}

/// Elements per block of a parallel sum: a multiple of NumPy's pairwise
/// block, large enough that summing a block outweighs handing it out.
constexpr int64_t kParallelSumBlock = 1 << 16;

/// With parallel=True: blocks of kParallelSumBlock elements summed on the
/// thread pool (`sumRange` sums [start, start + count)), each into its own
/// place, then the blocks' sums pairwise in order: the same result for any
/// number of threads (and, for one block, the serial sum's bits).
Value parallelSum(OpBuilder &b, Location l, ModuleOp module, Value size,
                  function_ref<Value(OpBuilder &, Value, Value)> sumRange) {
  Value zero = b.create<arith::ConstantIntOp>(l, 0, 64),
        one = b.create<arith::ConstantIntOp>(l, 1, 64);
  Value block = b.create<arith::ConstantIntOp>(l, kParallelSumBlock, 64);
  Value blocks = b.create<arith::MaxSIOp>(l, ceilDiv(b, l, size, block), one);
  Value sums = b.create<memref::AllocOp>(l, MemRefType::get({ShapedType::kDynamic}, b.getF64Type()),
                                         ValueRange{toIndex(b, l, blocks)});
  // One position of the parallel loop per block of the sum.
  emitParallelBlocks(b, l, blocks, one, 1, [&](OpBuilder &inside, Value k, Value) {
    Value start = inside.create<arith::MulIOp>(l, k, block);
    Value count =
        inside.create<arith::MinSIOp>(l, block, inside.create<arith::SubIOp>(l, size, start));
    inside.create<memref::StoreOp>(l, sumRange(inside, start, count), sums, toIndex(inside, l, k));
  });
  Value sum = pairwiseSumOfArray(b, l, module, sums, zero, blocks);
  b.create<memref::DeallocOp>(l, sums);
  return sum;
}

/// A function computing NumPy's pairwise sum of the body's elements
/// [start, start + count) of `size`, recursively as NumPy's pairwise_sum
/// (and the runtime's pairwiseSum): fewer than 8 added in order from -0.0;
/// up to 128 in eight accumulators combined as
/// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), the rest in order; above that,
/// halves (the first a multiple of 8). With `broadcast`,
/// inputs are read through broadcast views; without, as they are (their
/// types' strides: unit strides LLVM vectorises).
func::FuncOp pairwiseFunction(PairwiseSumOp op, ModuleOp module, ArrayRef<Value> captured,
                              bool broadcast) {
  Location l = op.getLoc();
  OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
  Type i64 = top.getI64Type(), f64 = top.getF64Type();
  SmallVector<Type> arguments = {i64, i64, i64};
  for (Value input : op.getInputs())
    arguments.push_back(input.getType());
  for (Value value : captured)
    arguments.push_back(value.getType());
  // Named after the function it serves (whose name is unique in the JIT).
  std::string prefix = op->getParentOfType<func::FuncOp>().getSymName().str() + "_pairwise_sum_";
  std::string name;
  for (unsigned k = 0; name.empty() || module.lookupSymbol(name); ++k)
    name = prefix + std::to_string(k);
  auto function = top.create<func::FuncOp>(l, name, top.getFunctionType(arguments, {f64}));
  function.setPrivate();
  Block *entry = function.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(entry);
  Value start = entry->getArgument(0), count = entry->getArgument(1), size = entry->getArgument(2);
  size_t inputs = op.getInputs().size();
  SmallVector<OpFoldResult> sizes = {toIndex(b, l, size)};
  SmallVector<Value> views;
  for (size_t k = 0; k < inputs; ++k)
    views.push_back(broadcast ? broadcastView(b, l, entry->getArgument(3 + k), sizes)
                              : Value(entry->getArgument(3 + k)));
  IRMapping outside;
  for (auto [k, value] : llvm::enumerate(captured))
    outside.map(value, entry->getArgument(3 + inputs + k));
  Region &body = op.getBody();
  auto constant = [&](OpBuilder &at, int64_t v) {
    return at.create<arith::ConstantIntOp>(l, v, 64).getResult();
  };
  auto index = [&](OpBuilder &at, Value v) { return toIndex(at, l, v); };
  // element(i): the body at start + i
  auto element = [&](OpBuilder &at, Value i) {
    return elementAt(at, l, body, views, index(at, at.create<arith::AddIOp>(l, start, i)), outside);
  };
  auto ifElse = [&](OpBuilder &at, Value condition, auto &&then, auto &&otherwise) {
    auto choice = at.create<scf::IfOp>(l, TypeRange{f64}, condition, /*withElseRegion=*/true);
    OpBuilder in = OpBuilder::atBlockEnd(choice.thenBlock());
    in.create<scf::YieldOp>(l, then(in));
    in = OpBuilder::atBlockEnd(choice.elseBlock());
    in.create<scf::YieldOp>(l, otherwise(in));
    return choice.getResult(0);
  };
  using P = arith::CmpIPredicate;
  // A block (up to 128 elements) is computed into a buffer first, by a
  // loop LLVM vectorises, then summed from it exactly as NumPy sums memory.
  Value buffer = b.create<memref::AllocaOp>(l, MemRefType::get({kPairwiseBlock}, f64));
  auto buffered = [&](OpBuilder &at, Value i) {
    return at.create<memref::LoadOp>(l, buffer, ValueRange{index(at, i)}).getResult();
  };
  auto addInOrder = [&](OpBuilder &at, Value from, Value to, Value initial) {
    auto loop = at.create<scf::ForOp>(
        l, index(at, from), index(at, to), at.create<arith::ConstantIndexOp>(l, 1).getResult(),
        ValueRange{initial}, [&](OpBuilder &in, Location, Value i, ValueRange sums) {
          Value x = buffered(in, in.create<arith::IndexCastOp>(l, i64, i));
          in.create<scf::YieldOp>(l, in.create<arith::AddFOp>(l, sums[0], x).getResult());
        });
    return loop.getResult(0);
  };
  auto eightAccumulators = [&](OpBuilder &block) {
    SmallVector<Value> firsts;
    for (int64_t k = 0; k < 8; ++k)
      firsts.push_back(buffered(block, constant(block, k)));
    Value whole = block.create<arith::SubIOp>(
        l, count, block.create<arith::RemSIOp>(l, count, constant(block, 8)));
    auto eights = block.create<scf::ForOp>(
        l, index(block, constant(block, 8)), index(block, whole),
        block.create<arith::ConstantIndexOp>(l, 8).getResult(), firsts,
        [&](OpBuilder &loop, Location, Value i, ValueRange r) {
          Value at = loop.create<arith::IndexCastOp>(l, i64, i);
          SmallVector<Value> next;
          for (int64_t k = 0; k < 8; ++k)
            next.push_back(loop.create<arith::AddFOp>(
                l, r[k], buffered(loop, loop.create<arith::AddIOp>(l, at, constant(loop, k)))));
          loop.create<scf::YieldOp>(l, next);
        });
    auto add = [&](Value x, Value y) { return block.create<arith::AddFOp>(l, x, y).getResult(); };
    ValueRange r = eights.getResults();
    Value combined =
        add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])));
    return addInOrder(block, whole, count, combined);
  };
  Value sum = ifElse(
      b, b.create<arith::CmpIOp>(l, P::sle, count, constant(b, kPairwiseBlock)),
      [&](OpBuilder &in) {
        in.create<scf::ForOp>(l, index(in, constant(in, 0)), index(in, count),
                              in.create<arith::ConstantIndexOp>(l, 1).getResult(), ValueRange{},
                              [&](OpBuilder &loop, Location, Value i, ValueRange) {
                                Value x = element(loop, loop.create<arith::IndexCastOp>(l, i64, i));
                                loop.create<memref::StoreOp>(l, x, buffer, ValueRange{i});
                                loop.create<scf::YieldOp>(l);
                              });
        return ifElse(
            in, in.create<arith::CmpIOp>(l, P::slt, count, constant(in, 8)),
            [&](OpBuilder &small) {
              Value negativeZero =
                  small.create<arith::ConstantFloatOp>(l, APFloat(-0.0), f64.cast<FloatType>());
              return addInOrder(small, constant(small, 0), count, negativeZero);
            },
            eightAccumulators);
      },
      [&](OpBuilder &halves) {
        Value half = halves.create<arith::DivSIOp>(l, count, constant(halves, 2));
        half = halves.create<arith::SubIOp>(
            l, half, halves.create<arith::RemSIOp>(l, half, constant(halves, 8)));
        SmallVector<Value> first(entry->getArguments()), second(entry->getArguments());
        first[1] = half;
        second[0] = halves.create<arith::AddIOp>(l, start, half);
        second[1] = halves.create<arith::SubIOp>(l, count, half);
        Value a = halves.create<func::CallOp>(l, function, first).getResult(0);
        Value c = halves.create<func::CallOp>(l, function, second).getResult(0);
        return halves.create<arith::AddFOp>(l, a, c).getResult();
      });
  b.create<func::ReturnOp>(l, sum);
  return function;
}

void lower(PairwiseSumOp op, ModuleOp module) {
  OpBuilder b(op);
  Location l = op.getLoc();
  Region &body = op.getBody();
  auto yield = cast<YieldOp>(body.front().getTerminator());
  std::function<Value(OpBuilder &, Value, Value)> sumRange;
  if (op.getInputs().size() == 1 && yield.getValue() == body.getArgument(0)) {
    sumRange = [&](OpBuilder &at, Value start, Value count) {
      return pairwiseSumOfArray(at, l, module, op.getInputs()[0], start, count);
    };
  } else {
    // Values from outside become arguments.
    SmallVector<Value> captured = captureValuesAbove(body);
    // Inputs of the whole length are read directly (vector loads), any that
    // repeats through broadcast views: one function each (a 0-d input always
    // repeats).
    bool anyScalar = llvm::any_of(op.getInputs(), [](Value input) {
      return input.getType().cast<MemRefType>().getRank() == 0;
    });
    Value whole;
    func::FuncOp direct, broadcast;
    if (!anyScalar) {
      Value size = toIndex(b, l, op.getShape()[0]);
      whole = b.create<arith::ConstantIntOp>(l, 1, 1);
      for (Value input : op.getInputs())
        whole = b.create<arith::AndIOp>(
            l, whole,
            b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq,
                                    b.create<memref::DimOp>(l, input, 0).getResult(), size));
      direct = pairwiseFunction(op, module, captured, /*broadcast=*/false);
    }
    broadcast = pairwiseFunction(op, module, captured, /*broadcast=*/true);
    sumRange = [=](OpBuilder &at, Value start, Value count) mutable {
      SmallVector<Value> arguments = {start, count, op.getShape()[0]};
      llvm::append_range(arguments, op.getInputs());
      llvm::append_range(arguments, captured);
      if (!direct)
        return at.create<func::CallOp>(l, broadcast, arguments).getResult(0);
      auto choice =
          at.create<scf::IfOp>(l, TypeRange{at.getF64Type()}, whole, /*withElseRegion=*/true);
      OpBuilder then = OpBuilder::atBlockEnd(choice.thenBlock());
      then.create<scf::YieldOp>(l, then.create<func::CallOp>(l, direct, arguments).getResult(0));
      OpBuilder otherwise = OpBuilder::atBlockEnd(choice.elseBlock());
      otherwise.create<scf::YieldOp>(
          l, otherwise.create<func::CallOp>(l, broadcast, arguments).getResult(0));
      return choice.getResult(0);
    };
  }
  Value sum = op.getParallel()
                  ? parallelSum(b, l, module, op.getShape()[0], sumRange)
                  : sumRange(b, b.create<arith::ConstantIntOp>(l, 0, 64), op.getShape()[0]);
  op.getResult().replaceAllUsesWith(sum);
  op.erase();
}

struct LowerElementwisePass
    : public plait::dialect::impl::LowerElementwiseBase<LowerElementwisePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<ElementwiseOp> elementwise;
    SmallVector<PairwiseSumOp> sums;
    module->walk([&](Operation *op) {
      if (auto e = dyn_cast<ElementwiseOp>(op))
        elementwise.push_back(e);
      else if (auto s = dyn_cast<PairwiseSumOp>(op))
        sums.push_back(s);
    });
    for (PairwiseSumOp op : sums) {
      if (!op.getBody().hasOneBlock()) {
        op.emitOpError("has a body of several blocks; only single-block bodies are summed");
        return signalPassFailure();
      }
      lower(op, module);
    }
    for (ElementwiseOp op : elementwise)
      lower(op);
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerElementwisePass() {
  return std::make_unique<LowerElementwisePass>();
}
