//===- IntRanges.cpp - MLIR's integer range analysis, ready to use --------===//
#include "IntRanges.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace plait::dialect {

using namespace mlir;

namespace {

/// Whether the analysis has not reached `value` yet (only integers and
/// indices have ranges: other values never get one).
bool unknownInteger(const dataflow::IntegerValueRangeLattice *lattice, Value value) {
  return value.getType().isIntOrIndex() && lattice->getValue().isUninitialized();
}

/// MLIR 16's analysis reads the ranges of an operation's operands without
/// checking that they are known yet, which is undefined behaviour (a crash)
/// when the solver reaches an operation, or a plait.for's region, before
/// them. Waiting for them is what later MLIR versions do: reading them
/// registers this visit to rerun when they change. Operations without range
/// inference get the unbounded range at once, whatever their operands.
class GuardedIntegerRangeAnalysis : public dataflow::IntegerRangeAnalysis {
public:
  using IntegerRangeAnalysis::IntegerRangeAnalysis;

  void visitNonControlFlowArguments(Operation *op, const RegionSuccessor &successor,
                                    ArrayRef<dataflow::IntegerValueRangeLattice *> argLattices,
                                    unsigned firstIndex) override {
    bool unknown = false;
    for (Value operand : op->getOperands())
      unknown |= unknownInteger(getLatticeElementFor(op, operand), operand);
    if (unknown)
      return;
    IntegerRangeAnalysis::visitNonControlFlowArguments(op, successor, argLattices, firstIndex);
  }

  void visitOperation(Operation *op, ArrayRef<const dataflow::IntegerValueRangeLattice *> operands,
                      ArrayRef<dataflow::IntegerValueRangeLattice *> results) override {
    // MLIR 16 infers arith.shli's range by shifting the operand's bounds,
    // ignoring bits shifted out: x << 8 of any int64 came out as a narrow
    // range, and checks of products of it were dropped (found by the
    // fuzzer). Its result may be any int64.
    if (!isa<InferIntRangeInterface>(op) || isa<arith::ShLIOp>(op))
      return setAllToEntryStates(results);
    for (auto [lattice, operand] : llvm::zip(operands, op->getOperands()))
      if (unknownInteger(lattice, operand))
        return;
    IntegerRangeAnalysis::visitOperation(op, operands, results);
  }
};

} // namespace

LogicalResult IntRanges::run(Operation *root) {
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<GuardedIntegerRangeAnalysis>();
  return solver.initializeAndRun(root);
}

std::optional<ConstantIntRanges> IntRanges::of(Value value) const {
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return std::nullopt;
  return lattice->getValue().getValue();
}

bool IntRanges::within(Value value, int64_t low, int64_t high) const {
  std::optional<ConstantIntRanges> range = of(value);
  return range && range->smin().getBitWidth() == 64 && range->smin().sge(APInt(64, low, true)) &&
         range->smax().sle(APInt(64, high, true));
}

} // namespace plait::dialect
