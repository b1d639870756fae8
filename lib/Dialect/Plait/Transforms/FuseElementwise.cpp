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

/// The release that frees `producer`'s result after `consumer` reads it,
/// when those two are its only users (besides questions about its shape).
ReleaseOp onlyReadBy(ElementwiseOp producer, ElementwiseOp consumer) {
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
ElementwiseOp fuse(ElementwiseOp producer, ElementwiseOp consumer) {
  Value temporary = producer.getResult();
  // The consumer's other inputs, then the producer's it does not have.
  SmallVector<Value> inputs;
  for (Value input : consumer.getInputs())
    if (input != temporary)
      inputs.push_back(input);
  size_t kept = inputs.size();
  for (Value input : producer.getInputs())
    if (!llvm::is_contained(inputs, input))
      inputs.push_back(input);

  OpBuilder b(consumer);
  auto fused = b.create<ElementwiseOp>(consumer.getLoc(), consumer.getResult().getType(), inputs,
                                       consumer.getShape(), consumer.getFortranAttr());
  fused.getBody().takeBody(consumer.getBody());
  Block &entry = fused.getBody().front();
  for (Value input : llvm::drop_begin(inputs, kept))
    entry.addArgument(input.getType().cast<MemRefType>().getElementType(), producer.getLoc());

  // The element the consumer read is now computed where it read it.
  IRMapping mapping;
  SmallVector<unsigned> readTemporary;
  SmallVector<Value> arguments; // the consumer's block arguments that stay, in order
  for (auto [input, argument] : llvm::zip(consumer.getInputs(), entry.getArguments())) {
    if (input == temporary)
      readTemporary.push_back(argument.getArgNumber());
    else
      arguments.push_back(argument);
  }
  llvm::append_range(arguments, entry.getArguments().drop_front(consumer.getInputs().size()));
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
  consumer.getResult().replaceAllUsesWith(fused.getResult());
  consumer.erase();
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
    SmallVector<ElementwiseOp> consumers;
    getOperation()->walk([&](ElementwiseOp op) { consumers.push_back(op); });
    // In program order, so that a producer has absorbed its own producers
    // before its consumer absorbs it.
    for (ElementwiseOp consumer : consumers)
      while (ElementwiseOp fused = fuseOneProducer(consumer))
        consumer = fused;
  }

  ElementwiseOp fuseOneProducer(ElementwiseOp consumer) {
    for (Value input : consumer.getInputs()) {
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
      ElementwiseOp fused = fuse(producer, consumer);
      release.erase();
      answerSizeQueries(producer);
      producer.erase();
      return fused;
    }
    return {};
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createFuseElementwisePass() {
  return std::make_unique<FuseElementwisePass>();
}
