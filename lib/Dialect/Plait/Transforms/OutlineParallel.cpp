//===- OutlineParallel.cpp - plait-outline-parallel -----------------------===//
//
// A plait.parallel_for becomes a function that runs a chunk of its
// positions, and a plait.parallel_call of it on the runtime's thread pool.
// The function gets its own copies of the stack slots the loop uses (the
// loop's variables: each thread has its own), starting from the slots'
// values before the loop; the chunk that runs the last position leaves its
// copies in "last" slots the caller copies back after the loop, as a serial
// loop would have left them. Reduction slots accumulate per thread from the
// identity and are combined after the loop, in thread order.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "Captures.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/DenseSet.h"

namespace plait::dialect {
#define GEN_PASS_DEF_OUTLINEPARALLEL
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

constexpr const char *kParticipantsRuntime = "plait_rt_parallel_participants";
/// Runtime functions that run Python (re-attached to the interpreter, on
/// the calling thread's state): never from the pool's workers.
constexpr const char *kInterpreterRuntime[] = {"plait_rt_print"};

/// Whether `region`, or a function it calls (transitively), calls into the
/// interpreter.
bool callsInterpreter(Region &region, ModuleOp module, llvm::DenseSet<Operation *> &seen) {
  WalkResult result = region.walk([&](func::CallOp call) {
    StringRef callee = call.getCallee();
    if (llvm::is_contained(kInterpreterRuntime, callee))
      return WalkResult::interrupt();
    auto function = module.lookupSymbol<func::FuncOp>(callee);
    if (function && !function.isExternal() && seen.insert(function).second &&
        callsInterpreter(function.getBody(), module, seen))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// A stack slot of the function: each thread gets its own copy.
bool isPrivateSlot(Value value) {
  Operation *definition = value.getDefiningOp();
  if (auto alloca = dyn_cast_or_null<memref::AllocaOp>(definition))
    return alloca.getType().hasStaticShape();
  return isa_and_nonnull<ArraySlotOp>(definition);
}

/// A fresh slot of `slot`'s kind (an array slot starts empty).
Value makeSlotLike(OpBuilder &b, Location l, Value slot) {
  if (auto arraySlot = slot.getType().dyn_cast<ArraySlotType>())
    return b.create<ArraySlotOp>(l, arraySlot);
  return b.create<memref::AllocaOp>(l, slot.getType().cast<MemRefType>());
}

/// Copies what `from` holds into `to` (both slots of one type). An array
/// moves: `to` takes over `from`'s reference, after releasing its own when
/// `releaseOld`; with `retain`, `from` keeps its reference and `to` takes a
/// new one.
void copySlot(OpBuilder &b, Location l, Value from, Value to, bool retain, bool releaseOld) {
  if (from.getType().isa<ArraySlotType>()) {
    Value old = releaseOld ? b.create<LoadArrayOp>(l, to).getResult() : Value();
    Value array = b.create<LoadArrayOp>(l, from);
    if (retain)
      b.create<RetainOp>(l, array);
    b.create<StoreArrayOp>(l, array, to);
    if (old)
      b.create<ReleaseOp>(l, old);
    return;
  }
  auto type = from.getType().cast<MemRefType>();
  if (type.getRank() == 0) {
    b.create<memref::StoreOp>(l, b.create<memref::LoadOp>(l, from), to);
    return;
  }
  b.create<memref::CopyOp>(l, from, to);
}

Value identityOf(OpBuilder &b, Location l, StringRef kind, Type element) {
  kind.consume_front("checked_");
  if (auto floatType = element.dyn_cast<FloatType>()) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    llvm::APFloat value = llvm::APFloat::getZero(semantics, /*Negative=*/true); // x + -0.0 == x
    if (kind == "mul")
      value = llvm::APFloat(semantics, 1);
    else if (kind == "min" || kind == "max")
      value = llvm::APFloat::getInf(semantics, /*Negative=*/kind == "max");
    return b.create<arith::ConstantFloatOp>(l, value, floatType);
  }
  unsigned width = element.getIntOrFloatBitWidth();
  llvm::APInt value(width, 0);
  if (kind == "mul")
    value = llvm::APInt(width, 1);
  else if (kind == "and" || kind == "umin")
    value = llvm::APInt::getAllOnes(width);
  else if (kind == "min")
    value = llvm::APInt::getSignedMaxValue(width);
  else if (kind == "max")
    value = llvm::APInt::getSignedMinValue(width);
  return b.create<arith::ConstantOp>(l, b.getIntegerAttr(element, value));
}

/// `accumulated op partial`, as the loop body would have combined them
/// (min and max keep the accumulated value unless the partial is smaller
/// or larger, as Python's min(x, e) and max(x, e) do).
Value combine(OpBuilder &b, Location l, StringRef kind, Value accumulated, Value partial) {
  bool isFloat = accumulated.getType().isa<FloatType>();
  if (kind == "checked_add")
    return b.create<AddOp>(l, accumulated, partial, OverflowMode::check);
  if (kind == "checked_mul")
    return b.create<MulOp>(l, accumulated, partial, OverflowMode::check);
  if (kind == "add")
    return isFloat ? b.create<arith::AddFOp>(l, accumulated, partial).getResult()
                   : b.create<arith::AddIOp>(l, accumulated, partial).getResult();
  if (kind == "mul")
    return isFloat ? b.create<arith::MulFOp>(l, accumulated, partial).getResult()
                   : b.create<arith::MulIOp>(l, accumulated, partial).getResult();
  if (kind == "or")
    return b.create<arith::OrIOp>(l, accumulated, partial);
  if (kind == "and")
    return b.create<arith::AndIOp>(l, accumulated, partial);
  bool min = kind == "min" || kind == "umin";
  arith::CmpIPredicate integerOrder = kind == "umin"   ? arith::CmpIPredicate::ult
                                      : kind == "umax" ? arith::CmpIPredicate::ugt
                                      : min            ? arith::CmpIPredicate::slt
                                                       : arith::CmpIPredicate::sgt;
  Value better =
      isFloat
          ? b.create<arith::CmpFOp>(l, min ? arith::CmpFPredicate::OLT : arith::CmpFPredicate::OGT,
                                    partial, accumulated)
                .getResult()
          : b.create<arith::CmpIOp>(l, integerOrder, partial, accumulated).getResult();
  return b.create<arith::SelectOp>(l, better, partial, accumulated);
}

/// Runs `body(index)` for index in [0, count).
void forEachIndex(OpBuilder &b, Location l, Value count,
                  function_ref<void(OpBuilder &, Value)> body) {
  Value zero = b.create<arith::ConstantIndexOp>(l, 0);
  Value one = b.create<arith::ConstantIndexOp>(l, 1);
  b.create<scf::ForOp>(l, zero, count, one, std::nullopt,
                       [&](OpBuilder &inner, Location, Value index, ValueRange) {
                         body(inner, index);
                         inner.create<scf::YieldOp>(l);
                       });
}

/// Runs `body(indices, position)` for every element of `array`, in C
/// order, with `position` its C-order position (from 0).
void forEachElement(OpBuilder &b, Location l, Value array,
                    function_ref<void(OpBuilder &, ValueRange, Value)> body) {
  auto type = array.getType().cast<MemRefType>();
  SmallVector<Value> sizes;
  for (int64_t axis = 0; axis < type.getRank(); ++axis)
    sizes.push_back(b.create<memref::DimOp>(l, array, axis));
  Value zero = b.create<arith::ConstantIndexOp>(l, 0);
  Value one = b.create<arith::ConstantIndexOp>(l, 1);
  std::function<void(OpBuilder &, size_t, SmallVector<Value>, Value)> nest =
      [&](OpBuilder &at, size_t axis, SmallVector<Value> indices, Value position) {
        if (axis == sizes.size()) {
          body(at, indices, position);
          return;
        }
        at.create<scf::ForOp>(
            l, zero, sizes[axis], one, std::nullopt,
            [&](OpBuilder &inner, Location, Value index, ValueRange) {
              SmallVector<Value> deeper = indices;
              deeper.push_back(index);
              Value scaled = inner.create<arith::MulIOp>(l, position, sizes[axis]);
              nest(inner, axis + 1, deeper, inner.create<arith::AddIOp>(l, scaled, index));
              inner.create<scf::YieldOp>(l);
            });
      };
  nest(b, 0, {}, zero);
}

/// How many elements `array` has (an index).
Value elementCount(OpBuilder &b, Location l, Value array) {
  auto type = array.getType().cast<MemRefType>();
  Value total = b.create<arith::ConstantIndexOp>(l, 1);
  for (int64_t axis = 0; axis < type.getRank(); ++axis)
    total = b.create<arith::MulIOp>(l, total, b.create<memref::DimOp>(l, array, axis));
  return total;
}

/// A new array of `like`'s type and shape, every element `value`: a flat
/// allocation (returned second, to free) viewed with the strides the type
/// allows (C order, or Fortran order when its first stride is 1).
std::pair<Value, Value> filledLike(OpBuilder &b, Location l, Value like, Value value) {
  auto type = like.getType().cast<MemRefType>();
  int64_t rank = type.getRank();
  Value total = elementCount(b, l, like);
  Value flat = b.create<memref::AllocOp>(
      l, MemRefType::get({ShapedType::kDynamic}, type.getElementType()), ValueRange{total});
  Value zero = b.create<arith::ConstantIndexOp>(l, 0);
  Value one = b.create<arith::ConstantIndexOp>(l, 1);
  b.create<scf::ForOp>(l, zero, total, one, std::nullopt,
                       [&](OpBuilder &inner, Location, Value index, ValueRange) {
                         inner.create<memref::StoreOp>(l, value, flat, index);
                         inner.create<scf::YieldOp>(l);
                       });
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  bool fortran = false;
  if (succeeded(getStridesAndOffset(type, staticStrides, staticOffset)) && rank > 1)
    fortran = staticStrides.front() == 1;
  SmallVector<OpFoldResult> sizes(rank), strides(rank);
  Value stride = one;
  for (int64_t step = 0; step < rank; ++step) {
    int64_t axis = fortran ? step : rank - 1 - step;
    Value size = b.create<memref::DimOp>(l, like, axis);
    sizes[axis] = size;
    strides[axis] = step == 0 ? OpFoldResult(b.getIndexAttr(1)) : OpFoldResult(stride);
    stride = b.create<arith::MulIOp>(l, stride, size);
  }
  OpFoldResult offset = staticOffset == 0 ? OpFoldResult(b.getIndexAttr(0)) : OpFoldResult(zero);
  Value view = b.create<memref::ReinterpretCastOp>(l, type, flat, offset, sizes, strides);
  return {view, flat};
}

class Outliner {
public:
  explicit Outliner(ModuleOp module) : module(module) {}

  /// The loop as a serial plait.for: its slots and arrays are then the
  /// caller's own, and reductions accumulate in place, as in Python.
  void serialize(ParallelForOp loop) {
    OpBuilder b(loop);
    Location l = loop.getLoc();
    Value zero = b.create<arith::ConstantIntOp>(l, 0, 64);
    Value one = b.create<arith::ConstantIntOp>(l, 1, 64);
    auto serial = b.create<ForOp>(l, zero, loop.getCount(), one);
    serial.getBody().takeBody(loop.getBody());
    Block &first = serial.getBody().front();
    BlockArgument position = first.getArgument(0);
    OpBuilder head = OpBuilder::atBlockBegin(&first);
    Value scaled = head.create<arith::MulIOp>(l, position, loop.getStep());
    Value value = head.create<arith::AddIOp>(l, loop.getStart(), scaled);
    position.replaceAllUsesExcept(value, scaled.getDefiningOp());
    loop.erase();
  }

  void outline(ParallelForOp loop) {
    auto parent = loop->getParentOfType<func::FuncOp>();
    Location l = loop.getLoc();
    Region &region = loop.getBody();
    MLIRContext *context = loop.getContext();
    Type i64 = IntegerType::get(context, 64);
    Type i32 = IntegerType::get(context, 32);
    llvm::DenseSet<Operation *> seen;
    if (callsInterpreter(region, module, seen)) {
      serialize(loop); // print() in a callee, say: on the caller's thread
      return;
    }

    SmallVector<Value> used = captureValuesAbove(region);
    SmallVector<Value> reductions(loop.getReductions());
    SmallVector<StringRef> kinds;
    for (Attribute kind : loop.getReductionKinds())
      kinds.push_back(kind.cast<StringAttr>().getValue());
    SmallVector<Value> arrays(loop.getArrayReductions());
    SmallVector<StringRef> arrayKinds;
    for (Attribute kind : loop.getArrayReductionKinds())
      arrayKinds.push_back(kind.cast<StringAttr>().getValue());
    SmallVector<Value> shared, privates;
    for (Value value : used) {
      if (llvm::is_contained(reductions, value) || llvm::is_contained(arrays, value))
        continue;
      (isPrivateSlot(value) ? privates : shared).push_back(value);
    }

    // In the caller: how many threads, the per-thread partials, and the
    // slots the last chunk leaves its variables in.
    OpBuilder b(loop);
    declareParticipants(b, l);
    Value participants =
        b.create<func::CallOp>(l, kParticipantsRuntime, TypeRange{i64}, loop.getCount())
            .getResult(0);
    Value participantsIndex = b.create<arith::IndexCastOp>(l, b.getIndexType(), participants);
    SmallVector<Value> partials;
    for (auto [slot, kind] : llvm::zip(reductions, kinds)) {
      Type element = slot.getType().cast<MemRefType>().getElementType();
      Value buffer = b.create<memref::AllocOp>(l, MemRefType::get({ShapedType::kDynamic}, element),
                                               ValueRange{participantsIndex});
      Value identity = identityOf(b, l, kind, element);
      forEachIndex(b, l, participantsIndex, [&](OpBuilder &inner, Value w) {
        inner.create<memref::StoreOp>(l, identity, buffer, w);
      });
      partials.push_back(buffer);
    }
    // An array reduction's partials: one array's elements per thread, in C
    // order, after one another.
    SmallVector<Value> arrayPartials;
    for (auto [array, kind] : llvm::zip(arrays, arrayKinds)) {
      Type element = array.getType().cast<MemRefType>().getElementType();
      Value length = b.create<arith::MulIOp>(l, participantsIndex, elementCount(b, l, array));
      Value buffer = b.create<memref::AllocOp>(
          l, MemRefType::get({ShapedType::kDynamic}, element), ValueRange{length});
      Value identity = identityOf(b, l, kind, element);
      forEachIndex(b, l, length, [&](OpBuilder &inner, Value k) {
        inner.create<memref::StoreOp>(l, identity, buffer, k);
      });
      arrayPartials.push_back(buffer);
    }
    SmallVector<Value> lasts;
    for (Value slot : privates) {
      if (slot.getType().isa<ArraySlotType>()) {
        lasts.push_back(makeSlotLike(b, l, slot)); // empty where made
        continue;
      }
      OpBuilder entry = OpBuilder::atBlockBegin(&parent.getBody().front());
      lasts.push_back(makeSlotLike(entry, l, slot));
    }

    // The function: (shared..., privates..., lasts..., partials...,
    // start, step, count, begin, end, worker) -> status.
    SmallVector<Value> captures;
    llvm::append_range(captures, shared);
    llvm::append_range(captures, privates);
    llvm::append_range(captures, lasts);
    llvm::append_range(captures, partials);
    llvm::append_range(captures, arrays);
    llvm::append_range(captures, arrayPartials);
    captures.append({loop.getStart(), loop.getStep(), loop.getCount()});
    SmallVector<Type> argumentTypes;
    for (Value capture : captures)
      argumentTypes.push_back(capture.getType());
    argumentTypes.append({i64, i64, i64});
    std::string name;
    for (unsigned k = 0; name.empty() || module.lookupSymbol(name); ++k)
      name = (parent.getSymName() + "_parallel_" + Twine(k)).str();
    OpBuilder top(parent);
    auto function =
        top.create<func::FuncOp>(l, name, FunctionType::get(context, argumentTypes, {i32}));
    function.setPrivate();
    Block *entry = function.addEntryBlock();
    OpBuilder fb = OpBuilder::atBlockBegin(entry);
    auto argument = [&](size_t k) { return entry->getArgument(k); };
    size_t at = 0;
    SmallVector<std::pair<Value, Value>> inside; // (outside, inside)
    for (Value value : shared)
      inside.push_back({value, argument(at++)});
    SmallVector<Value> sharedSlots, ownSlots, lastSlots, partialBuffers, sharedArrays,
        arrayBuffers;
    for (size_t k = 0; k < privates.size(); ++k)
      sharedSlots.push_back(argument(at++));
    for (size_t k = 0; k < privates.size(); ++k)
      lastSlots.push_back(argument(at++));
    for (size_t k = 0; k < reductions.size(); ++k)
      partialBuffers.push_back(argument(at++));
    for (size_t k = 0; k < arrays.size(); ++k)
      sharedArrays.push_back(argument(at++));
    for (size_t k = 0; k < arrays.size(); ++k)
      arrayBuffers.push_back(argument(at++));
    Value start = argument(at++), step = argument(at++), count = argument(at++);
    Value begin = argument(at++), end = argument(at++), worker = argument(at++);

    // Own copies of the private slots, starting from the caller's values
    // (an array with a reference of its own); reductions from the identity.
    for (auto [slot, sharedSlot] : llvm::zip(privates, sharedSlots)) {
      Value own = makeSlotLike(fb, l, slot);
      copySlot(fb, l, sharedSlot, own, /*retain=*/true, /*releaseOld=*/false);
      ownSlots.push_back(own);
      inside.push_back({slot, own});
    }
    SmallVector<Value> accumulators;
    for (auto [slot, kind] : llvm::zip(reductions, kinds)) {
      auto type = slot.getType().cast<MemRefType>();
      Value accumulator = fb.create<memref::AllocaOp>(l, type);
      fb.create<memref::StoreOp>(l, identityOf(fb, l, kind, type.getElementType()), accumulator);
      accumulators.push_back(accumulator);
      inside.push_back({slot, accumulator});
    }
    SmallVector<Value> ownArrays, ownAllocations;
    for (auto [array, sharedArray, kind] : llvm::zip(arrays, sharedArrays, arrayKinds)) {
      Type element = array.getType().cast<MemRefType>().getElementType();
      auto [own, allocation] =
          filledLike(fb, l, sharedArray, identityOf(fb, l, kind, element));
      ownArrays.push_back(own);
      ownAllocations.push_back(allocation);
      inside.push_back({array, own});
    }

    // The loop over the chunk's positions, running the region as it was;
    // the loop value is start + k * step.
    Value one = fb.create<arith::ConstantIntOp>(l, 1, 64);
    auto chunk = fb.create<ForOp>(l, begin, end, one);
    chunk.getBody().takeBody(region);
    Block &first = chunk.getBody().front();
    BlockArgument position = first.getArgument(0);
    {
      OpBuilder head = OpBuilder::atBlockBegin(&first);
      Value scaled = head.create<arith::MulIOp>(l, position, step);
      Value value = head.create<arith::AddIOp>(l, start, scaled);
      position.replaceAllUsesExcept(value, scaled.getDefiningOp());
    }
    for (auto [from, to] : inside)
      from.replaceUsesWithIf(to, [&](OpOperand &use) {
        return chunk.getBody().isAncestor(use.getOwner()->getParentRegion());
      });

    // After the chunk: the last one leaves its variables for the caller;
    // the others drop their arrays. Partials add up per thread.
    if (!privates.empty()) {
      Value last = fb.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, end, count);
      bool hasArrays =
          llvm::any_of(privates, [](Value slot) { return slot.getType().isa<ArraySlotType>(); });
      auto branch = fb.create<scf::IfOp>(l, TypeRange{}, last, /*withElseRegion=*/hasArrays);
      OpBuilder thenBuilder = branch.getThenBodyBuilder();
      for (auto [own, lastSlot] : llvm::zip(ownSlots, lastSlots))
        copySlot(thenBuilder, l, own, lastSlot, /*retain=*/false, /*releaseOld=*/false);
      if (hasArrays) {
        OpBuilder elseBuilder = branch.getElseBodyBuilder();
        for (Value own : ownSlots)
          if (own.getType().isa<ArraySlotType>())
            elseBuilder.create<ReleaseOp>(l, elseBuilder.create<LoadArrayOp>(l, own));
      }
    }
    Value workerIndex = fb.create<arith::IndexCastOp>(l, fb.getIndexType(), worker);
    for (auto [accumulator, buffer, kind] : llvm::zip(accumulators, partialBuffers, kinds)) {
      Value before = fb.create<memref::LoadOp>(l, buffer, workerIndex);
      Value mine = fb.create<memref::LoadOp>(l, accumulator);
      fb.create<memref::StoreOp>(l, combine(fb, l, kind, before, mine), buffer, workerIndex);
    }
    for (auto [own, allocation, buffer, kind] :
         llvm::zip(ownArrays, ownAllocations, arrayBuffers, arrayKinds)) {
      Value base = fb.create<arith::MulIOp>(l, workerIndex, elementCount(fb, l, own));
      forEachElement(fb, l, own, [&](OpBuilder &inner, ValueRange indices, Value position) {
        Value at = inner.create<arith::AddIOp>(l, base, position);
        Value before = inner.create<memref::LoadOp>(l, buffer, at);
        Value mine = inner.create<memref::LoadOp>(l, own, indices);
        inner.create<memref::StoreOp>(l, combine(inner, l, kind, before, mine), buffer, at);
      });
      fb.create<memref::DeallocOp>(l, allocation);
    }
    fb.create<func::ReturnOp>(l, ValueRange{fb.create<arith::ConstantIntOp>(l, 0, 32)});

    // The call; after it, the variables of the last position, and the
    // reductions' partials in thread order.
    Value status = b.create<ParallelCallOp>(l, i32, FlatSymbolRefAttr::get(context, name),
                                            loop.getCount(), participants, captures);
    b.create<CheckStatusOp>(l, status);
    if (!privates.empty()) {
      Value zero = b.create<arith::ConstantIntOp>(l, 0, 64);
      Value ran = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, loop.getCount(), zero);
      auto branch = b.create<scf::IfOp>(l, TypeRange{}, ran, /*withElseRegion=*/false);
      OpBuilder thenBuilder = branch.getThenBodyBuilder();
      for (auto [slot, lastSlot] : llvm::zip(privates, lasts))
        copySlot(thenBuilder, l, lastSlot, slot, /*retain=*/false, /*releaseOld=*/true);
    }
    for (auto [slot, buffer, kind] : llvm::zip(reductions, partials, kinds)) {
      forEachIndex(b, l, participantsIndex, [&](OpBuilder &inner, Value w) {
        Value partial = inner.create<memref::LoadOp>(l, buffer, w);
        Value accumulated = inner.create<memref::LoadOp>(l, slot);
        inner.create<memref::StoreOp>(l, combine(inner, l, kind, accumulated, partial), slot);
      });
      b.create<memref::DeallocOp>(l, buffer);
    }
    for (auto [array, buffer, kind] : llvm::zip(arrays, arrayPartials, arrayKinds)) {
      Value length = elementCount(b, l, array);
      forEachIndex(b, l, participantsIndex, [&](OpBuilder &outer, Value w) {
        Value base = outer.create<arith::MulIOp>(l, w, length);
        forEachElement(outer, l, array, [&](OpBuilder &inner, ValueRange indices, Value position) {
          Value at = inner.create<arith::AddIOp>(l, base, position);
          Value partial = inner.create<memref::LoadOp>(l, buffer, at);
          Value accumulated = inner.create<memref::LoadOp>(l, array, indices);
          inner.create<memref::StoreOp>(l, combine(inner, l, kind, accumulated, partial), array,
                                        indices);
        });
      });
      b.create<memref::DeallocOp>(l, buffer);
    }
    loop.erase();
  }

private:
  void declareParticipants(OpBuilder &b, Location l) {
    if (module.lookupSymbol(kParticipantsRuntime))
      return;
    OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
    Type i64 = b.getI64Type();
    top.create<func::FuncOp>(l, kParticipantsRuntime, b.getFunctionType({i64}, {i64})).setPrivate();
  }

  ModuleOp module;
};

struct OutlineParallelPass : public plait::dialect::impl::OutlineParallelBase<OutlineParallelPass> {
  void runOnOperation() override {
    // Innermost first: a nested parallel loop is a call in its parent's body.
    SmallVector<ParallelForOp> loops;
    getOperation().walk([&](ParallelForOp loop) { loops.push_back(loop); });
    Outliner outliner(getOperation());
    for (ParallelForOp loop : loops)
      outliner.outline(loop);
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createOutlineParallelPass() {
  return std::make_unique<OutlineParallelPass>();
}
