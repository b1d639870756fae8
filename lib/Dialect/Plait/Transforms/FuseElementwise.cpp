//===- FuseElementwise.cpp - plait-fuse-elementwise -----------------------===//
//
// A plait.elementwise whose result only another one reads (and a release
// frees afterwards) is inlined into its reader: no temporary array, one
// loop (see Passes.td).
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace plait::dialect {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

/// Calls of functions the frontend declared free of effects (libm's).
bool callsPureFunction(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(call, call.getCalleeAttr());
  return callee && callee->hasAttr(kPureFunctionAttrName);
}

/// Whether `op` and everything nested in it write no memory: pure
/// operations, reads, allocations and pure calls; with `mayRaise`, raising
/// too (it writes only the error state).
bool writesNoMemory(Operation *op, bool mayRaise) {
  WalkResult walked = op->walk([&](Operation *inner) {
    if (auto call = dyn_cast<func::CallOp>(inner))
      return callsPureFunction(call) ? WalkResult::advance() : WalkResult::interrupt();
    // MLIR 16 gives LLVM's overflow intrinsics no effects interface.
    if (isa<LLVM::SMulWithOverflowOp, LLVM::SAddWithOverflowOp, LLVM::SSubWithOverflowOp,
            LLVM::UMulWithOverflowOp, LLVM::UAddWithOverflowOp, LLVM::USubWithOverflowOp>(inner))
      return WalkResult::advance();
    if (auto interface = dyn_cast<MemoryEffectOpInterface>(inner)) {
      SmallVector<MemoryEffects::EffectInstance> effects;
      interface.getEffects(effects);
      for (const MemoryEffects::EffectInstance &effect : effects) {
        if (isa<MemoryEffects::Read, MemoryEffects::Allocate>(effect.getEffect()))
          continue;
        if (mayRaise && isa<MemoryEffects::Write>(effect.getEffect()) &&
            effect.getResource() == ErrorStateResource::get())
          continue;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    }
    return inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ? WalkResult::advance()
                                                                 : WalkResult::interrupt();
  });
  return !walked.wasInterrupted();
}

/// The axis a memref.dim of an elementwise result asks for, if constant.
std::optional<int64_t> sizeQuery(Operation *user) {
  auto dim = dyn_cast<memref::DimOp>(user);
  if (!dim)
    return std::nullopt;
  return dim.getConstantIndex();
}

/// The operations a producer fuses into: plait.elementwise and
/// plait.pairwise_sum, both inputs and a body from their elements.
ValueRange inputsOf(Operation *consumer) {
  if (auto sum = dyn_cast<PairwiseSumOp>(consumer))
    return sum.getInputs();
  return cast<ElementwiseOp>(consumer).getInputs();
}

Region &bodyOf(Operation *consumer) {
  if (auto sum = dyn_cast<PairwiseSumOp>(consumer))
    return sum.getBody();
  return cast<ElementwiseOp>(consumer).getBody();
}

/// `consumer` again, with other inputs (its body is still to be moved in).
Operation *withInputs(OpBuilder &b, Operation *consumer, ValueRange inputs) {
  if (auto sum = dyn_cast<PairwiseSumOp>(consumer))
    return b.create<PairwiseSumOp>(sum.getLoc(), sum.getType(), inputs, sum.getShape(),
                                   sum.getParallelAttr());
  auto elementwise = cast<ElementwiseOp>(consumer);
  return b.create<ElementwiseOp>(elementwise.getLoc(), elementwise.getType(), inputs,
                                 elementwise.getShape(), elementwise.getFortranAttr(),
                                 elementwise.getParallelAttr());
}

/// The release that frees `producer`'s result after `consumer` reads it,
/// when those two are its only users (besides questions about its shape).
ReleaseOp onlyReadBy(ElementwiseOp producer, Operation *consumer) {
  ReleaseOp release;
  for (Operation *user : producer.getResult().getUsers()) {
    if (user == consumer || sizeQuery(user))
      continue;
    auto candidate = dyn_cast<ReleaseOp>(user);
    if (!candidate || release || candidate->getBlock() != consumer->getBlock() ||
        !consumer->isBeforeInBlock(candidate))
      return {};
    release = candidate;
  }
  return release;
}

/// `producer` computed inside `consumer`; returns the fused operation.
Operation *fuse(ElementwiseOp producer, Operation *consumer) {
  Value temporary = producer.getResult();
  // The consumer's other inputs, then the producer's it does not have.
  SmallVector<Value> inputs;
  for (Value input : inputsOf(consumer))
    if (input != temporary)
      inputs.push_back(input);
  size_t kept = inputs.size();
  for (Value input : producer.getInputs())
    if (!llvm::is_contained(inputs, input))
      inputs.push_back(input);

  OpBuilder b(consumer);
  Operation *fused = withInputs(b, consumer, inputs);
  bodyOf(fused).takeBody(bodyOf(consumer));
  Block &entry = bodyOf(fused).front();
  for (Value input : llvm::drop_begin(inputs, kept))
    entry.addArgument(input.getType().cast<MemRefType>().getElementType(), producer.getLoc());

  // The element the consumer read is now computed where it read it.
  IRMapping mapping;
  SmallVector<unsigned> readTemporary;
  SmallVector<Value> arguments; // the consumer's block arguments that stay, in order
  ValueRange consumerInputs = inputsOf(consumer);
  for (auto [input, argument] : llvm::zip(consumerInputs, entry.getArguments())) {
    if (input == temporary)
      readTemporary.push_back(argument.getArgNumber());
    else
      arguments.push_back(argument);
  }
  llvm::append_range(arguments, entry.getArguments().drop_front(consumerInputs.size()));
  for (auto [input, argument] : llvm::zip(producer.getInputs(), producer.getBody().getArguments()))
    mapping.map(argument, arguments[llvm::find(inputs, input) - inputs.begin()]);
  b.setInsertionPointToStart(&entry);
  Block &body = producer.getBody().front();
  for (Operation &inner : body.without_terminator())
    b.clone(inner, mapping);
  Value element = mapping.lookupOrDefault(cast<YieldOp>(body.getTerminator()).getValue());
  for (unsigned number : llvm::reverse(readTemporary)) {
    entry.getArgument(number).replaceAllUsesWith(element);
    entry.eraseArgument(number);
  }
  consumer->getResult(0).replaceAllUsesWith(fused->getResult(0));
  consumer->erase();
  return fused;
}

/// The sizes asked of `op`'s result, from its shape operands.
void answerSizeQueries(ElementwiseOp op) {
  for (Operation *user : llvm::make_early_inc_range(op.getResult().getUsers())) {
    OpBuilder b(user);
    Value size = op.getShape()[*sizeQuery(user)];
    user->getResult(0).replaceAllUsesWith(
        b.create<arith::IndexCastOp>(user->getLoc(), b.getIndexType(), size).getResult());
    user->erase();
  }
}

struct FuseElementwisePass : public plait::dialect::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    SmallVector<Operation *> consumers;
    getOperation()->walk([&](Operation *op) {
      if (isa<ElementwiseOp, PairwiseSumOp>(op))
        consumers.push_back(op);
    });
    // In program order, so that a producer has absorbed its own producers
    // before its consumer absorbs it.
    for (Operation *consumer : consumers)
      while (Operation *fused = fuseOneProducer(consumer))
        consumer = fused;
  }

  Operation *fuseOneProducer(Operation *consumer) {
    for (Value input : inputsOf(consumer)) {
      auto producer = input.getDefiningOp<ElementwiseOp>();
      if (!producer || producer->getBlock() != consumer->getBlock() ||
          !producer.getBody().hasOneBlock() || !writesNoMemory(producer, /*mayRaise=*/false))
        continue;
      ReleaseOp release = onlyReadBy(producer, consumer);
      if (!release)
        continue;
      // The producer's inputs are read later, at the consumer: nothing in
      // between may write memory. Releases in between may free them: they
      // wait until after the consumer.
      SmallVector<Operation *> delayed;
      bool safe = true;
      for (Operation *op = producer->getNextNode(); op != consumer && safe;
           op = op->getNextNode()) {
        if (isa<ReleaseOp>(op))
          delayed.push_back(op);
        else
          safe = isa<RetainOp>(op) || writesNoMemory(op, /*mayRaise=*/true);
      }
      if (!safe)
        continue;
      Operation *after = consumer;
      for (Operation *op : delayed) {
        op->moveAfter(after);
        after = op;
      }
      Operation *fused = fuse(producer, consumer);
      release.erase();
      answerSizeQueries(producer);
      producer.erase();
      return fused;
    }
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createFuseElementwisePass() {
  return std::make_unique<FuseElementwisePass>();
}
