//===- PlaitOps.cpp - operations of the plait dialect ---------------------===//
//
// Side effects (which operations may raise), folders with CPython's results,
// integer range inference (so that MLIR's IntegerRangeAnalysis can prove
// checks away), and the range loop's syntax and verifier.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/Utils/InferIntRangeCommon.h"

using namespace mlir;
using namespace plait::dialect;

namespace {

constexpr unsigned kBits = 64;

/// Records that `op` may raise (writes the Python error state).
void mayRaise(Operation *op,
              SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  effects.emplace_back(MemoryEffects::Write::get(), ErrorStateResource::get());
}

std::optional<APInt> constantOf(Attribute attribute) {
  if (auto integer = attribute.dyn_cast_or_null<IntegerAttr>())
    return integer.getValue();
  return std::nullopt;
}

/// a + b (or - or *) with int64's overflow: nullopt when it overflows.
std::optional<APInt> checkedArith(char op, const APInt &a, const APInt &b) {
  bool overflow = false;
  APInt r = op == '+' ? a.sadd_ov(b, overflow) : op == '-' ? a.ssub_ov(b, overflow) : a.smul_ov(b, overflow);
  if (overflow)
    return std::nullopt;
  return r;
}

/// a + b (or - or *), clamped to int64: the range a checked operation can
/// produce (a result that does not fit raised instead).
APInt saturating(char op, const APInt &a, const APInt &b) {
  return op == '+' ? a.sadd_sat(b) : op == '-' ? a.ssub_sat(b) : a.smul_sat(b);
}

/// The signed range of `lhs op rhs` when overflow raises.
ConstantIntRanges checkedRange(char op, const ConstantIntRanges &lhs, const ConstantIntRanges &rhs) {
  if (op == '+')
    return ConstantIntRanges::fromSigned(saturating('+', lhs.smin(), rhs.smin()),
                                         saturating('+', lhs.smax(), rhs.smax()));
  if (op == '-')
    return ConstantIntRanges::fromSigned(saturating('-', lhs.smin(), rhs.smax()),
                                         saturating('-', lhs.smax(), rhs.smin()));
  // Products: the extremes are among the corners.
  APInt corners[4] = {saturating('*', lhs.smin(), rhs.smin()), saturating('*', lhs.smin(), rhs.smax()),
                      saturating('*', lhs.smax(), rhs.smin()), saturating('*', lhs.smax(), rhs.smax())};
  APInt low = corners[0], high = corners[0];
  for (const APInt &c : corners) {
    low = c.slt(low) ? c : low;
    high = c.sgt(high) ? c : high;
  }
  return ConstantIntRanges::fromSigned(low, high);
}

/// Python's floor division and modulo of int64 constants (b != 0).
APInt pythonFloorDiv(const APInt &a, const APInt &b) {
  APInt q = a.sdiv(b), r = a.srem(b);
  if (!r.isZero() && (r.isNegative() != b.isNegative()))
    q -= 1;
  return q;
}

APInt pythonMod(const APInt &a, const APInt &b) {
  APInt r = a.srem(b);
  if (!r.isZero() && (r.isNegative() != b.isNegative()))
    r += b;
  return r;
}

} // namespace

//===----------------------------------------------------------------------===//
// add, sub, mul
//===----------------------------------------------------------------------===//

bool plait::dialect::checksOverflow(Operation *op) {
  auto mode = op->getAttrOfType<OverflowModeAttr>("overflow");
  return mode && mode.getValue() == OverflowMode::check;
}

void plait::dialect::setCannotOverflow(Operation *op) {
  OverflowMode mode = isa<AddOp, SubOp, MulOp>(op) ? OverflowMode::proven : OverflowMode::wrap;
  op->setAttr("overflow", OverflowModeAttr::get(op->getContext(), mode));
}

template <typename Op>
static void arithEffects(Op op, SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (op.getOverflow() == OverflowMode::check)
    mayRaise(op, effects);
}

void AddOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  arithEffects(*this, effects);
}
void SubOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  arithEffects(*this, effects);
}
void MulOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  arithEffects(*this, effects);
}

template <typename Op>
static OpFoldResult foldArith(Op op, char symbol, ArrayRef<Attribute> operands) {
  std::optional<APInt> a = constantOf(operands[0]), b = constantOf(operands[1]);
  // (A proven operation that would overflow is never reached.)
  bool wrap = op.getOverflow() != OverflowMode::check;
  if (a && b) {
    std::optional<APInt> r = checkedArith(symbol, *a, *b);
    if (r)
      return IntegerAttr::get(op.getType(), *r);
    if (wrap)
      return IntegerAttr::get(op.getType(), symbol == '+' ? *a + *b : symbol == '-' ? *a - *b : *a * *b);
    return {}; // raises at run time
  }
  // x + 0, x - 0, x * 1 are x; x * 0 is 0 (none of them can overflow).
  if (b && ((symbol != '*' && b->isZero()) || (symbol == '*' && b->isOne())))
    return op.getLhs();
  if (b && symbol == '*' && b->isZero())
    return IntegerAttr::get(op.getType(), 0);
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) { return foldArith(*this, '+', adaptor.getOperands()); }
OpFoldResult SubOp::fold(FoldAdaptor adaptor) { return foldArith(*this, '-', adaptor.getOperands()); }
OpFoldResult MulOp::fold(FoldAdaptor adaptor) { return foldArith(*this, '*', adaptor.getOperands()); }

template <typename Op>
static void inferArith(Op op, char symbol, ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  // Checked and proven results are exact: only the ones that fit exist.
  if (op.getOverflow() != OverflowMode::wrap) {
    set(op.getResult(), checkedRange(symbol, ranges[0], ranges[1]));
    return;
  }
  set(op.getResult(), symbol == '+'   ? intrange::inferAdd(ranges)
                      : symbol == '-' ? intrange::inferSub(ranges)
                                      : intrange::inferMul(ranges));
}

void AddOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  inferArith(*this, '+', ranges, set);
}
void SubOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  inferArith(*this, '-', ranges, set);
}
void MulOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  inferArith(*this, '*', ranges, set);
}

//===----------------------------------------------------------------------===//
// floordiv, mod
//===----------------------------------------------------------------------===//

/// Whether `divisor` is a constant that cannot make `lhs // divisor` (or %)
/// raise: non-zero, and not -1 for a checked floor division (-2**63 // -1).
static bool safeDivisor(Value divisor, bool floorDivision, OverflowMode overflow) {
  APInt value;
  if (!matchPattern(divisor, m_ConstantInt(&value)))
    return false;
  if (value.isZero())
    return false;
  return !(floorDivision && overflow == OverflowMode::check && value.isAllOnes());
}

void FloorDivOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (!safeDivisor(getRhs(), /*floorDivision=*/true, getOverflow()))
    mayRaise(*this, effects);
}

void ModOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (!safeDivisor(getRhs(), /*floorDivision=*/false, getOverflow()))
    mayRaise(*this, effects);
}

OpFoldResult FloorDivOp::fold(FoldAdaptor adaptor) {
  std::optional<APInt> a = constantOf(adaptor.getLhs()), b = constantOf(adaptor.getRhs());
  if (b && b->isOne())
    return getLhs();
  if (!a || !b || b->isZero())
    return {};
  if (a->isMinSignedValue() && b->isAllOnes())
    return getOverflow() != OverflowMode::check ? IntegerAttr::get(getType(), *a) : OpFoldResult();
  return IntegerAttr::get(getType(), pythonFloorDiv(*a, *b));
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  std::optional<APInt> a = constantOf(adaptor.getLhs()), b = constantOf(adaptor.getRhs());
  if (b && (b->isOne() || b->isAllOnes()))
    return IntegerAttr::get(getType(), 0);
  if (!a || !b || b->isZero())
    return {};
  return IntegerAttr::get(getType(), pythonMod(*a, *b));
}

void FloorDivOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  const ConstantIntRanges &a = ranges[0], &b = ranges[1];
  // A positive divisor keeps the order: floor(a / b) lies between the
  // quotients of the extremes.
  if (b.smin().sgt(0)) {
    APInt low = pythonFloorDiv(a.smin(), a.smin().isNegative() ? b.smin() : b.smax());
    APInt high = pythonFloorDiv(a.smax(), a.smax().isNegative() ? b.smax() : b.smin());
    set(getResult(), ConstantIntRanges::fromSigned(low, high));
    return;
  }
  set(getResult(), ConstantIntRanges::maxRange(kBits));
}

void ModOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  const ConstantIntRanges &b = ranges[1];
  // Python's remainder has the divisor's sign and is smaller in magnitude.
  if (b.smin().sgt(0)) {
    set(getResult(), ConstantIntRanges::fromSigned(APInt(kBits, 0), b.smax() - 1));
    return;
  }
  if (b.smax().slt(0)) {
    set(getResult(), ConstantIntRanges::fromSigned(b.smin() + 1, APInt(kBits, 0)));
    return;
  }
  set(getResult(), ConstantIntRanges::maxRange(kBits));
}

//===----------------------------------------------------------------------===//
// assume_nonnegative
//===----------------------------------------------------------------------===//

void AssumeNonNegativeOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  APInt zero(kBits, 0);
  APInt low = ranges[0].smin().isNegative() ? zero : ranges[0].smin();
  APInt high = ranges[0].smax().isNegative() ? zero : ranges[0].smax();
  set(getResult(), ConstantIntRanges::fromSigned(low, high));
}

//===----------------------------------------------------------------------===//
// index
//===----------------------------------------------------------------------===//

void IndexOp::getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (!getUnchecked())
    mayRaise(*this, effects);
}

OpFoldResult IndexOp::fold(FoldAdaptor adaptor) {
  std::optional<APInt> index = constantOf(adaptor.getIndex()), size = constantOf(adaptor.getSize());
  if (!index || !size)
    return {};
  APInt position = index->isNegative() ? *index + *size : *index;
  if (position.isNegative() || position.sge(*size))
    return {}; // raises (or, unchecked, is undefined)
  return IntegerAttr::get(IndexType::get(getContext()), position);
}

void IndexOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  // A checked position lies inside the axis (an index outside raised).
  APInt high = ranges[1].smax().sgt(0) ? ranges[1].smax() - 1 : APInt(kBits, 0);
  if (getUnchecked()) {
    set(getResult(), ConstantIntRanges::maxRange(kBits));
    return;
  }
  set(getResult(), ConstantIntRanges::fromSigned(APInt(kBits, 0), high));
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

void SliceOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>> &effects) {
  if (getStep())
    mayRaise(*this, effects); // a zero step
}

void SliceOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  // Clamped to the axis: the first element inside it (or 0), at most `size`
  // elements.
  APInt zero(kBits, 0);
  APInt size = ranges[0].smax().isNegative() ? zero : ranges[0].smax();
  APInt last = size.sgt(0) ? size - 1 : zero;
  set(getFirst(), ConstantIntRanges::fromSigned(zero, last));
  set(getCount(), ConstantIntRanges::fromSigned(zero, size));
  if (getStep())
    set(getIncrement(), ranges.back());
  else
    set(getIncrement(), ConstantIntRanges::constant(APInt(kBits, 1)));
}

//===----------------------------------------------------------------------===//
// complex_part
//===----------------------------------------------------------------------===//

LogicalResult ComplexPartOp::verify() {
  auto array = getArray().getType().cast<MemRefType>();
  auto result = getResult().getType().cast<MemRefType>();
  auto complex = array.getElementType().dyn_cast<ComplexType>();
  if (!complex)
    return emitOpError("needs an array of complex numbers, not ") << array.getElementType();
  if (result.getElementType() != complex.getElementType())
    return emitOpError("gives an array of ")
           << complex.getElementType() << ", not " << result.getElementType();
  if (result.getRank() != array.getRank())
    return emitOpError("keeps the array's ")
           << array.getRank() << " axes, not " << result.getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// list_items
//===----------------------------------------------------------------------===//

LogicalResult ListItemsOp::verify() {
  auto items = getItems().getType().cast<MemRefType>();
  int64_t offset;
  SmallVector<int64_t> strides;
  if (failed(getStridesAndOffset(items, strides, offset)) || strides.front() != 1)
    return emitOpError("gives contiguous items, not ") << items;
  return success();
}

//===----------------------------------------------------------------------===//
// raise_if
//===----------------------------------------------------------------------===//

LogicalResult RaiseIfOp::verify() {
  // {k} placeholders name recorded values.
  StringRef message = getMessage();
  for (size_t at = message.find('{'); at != StringRef::npos; at = message.find('{', at + 1)) {
    size_t end = message.find('}', at);
    if (end == StringRef::npos)
      break;
    unsigned position;
    if (!message.slice(at + 1, end).getAsInteger(10, position) && position >= getValues().size())
      return emitOpError("message names value {") << position << "} but " << getValues().size()
                                                   << " values are recorded";
  }
  return success();
}

LogicalResult RaiseIfOp::canonicalize(RaiseIfOp op, PatternRewriter &rewriter) {
  // Never raises: gone.
  if (matchPattern(op.getCondition(), m_Zero())) {
    rewriter.eraseOp(op);
    return success();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// try
//===----------------------------------------------------------------------===//

LogicalResult TryOp::verify() {
  if (getBody() == getHandler())
    return emitOpError("needs distinct body and handler blocks");
  if (getBody()->getNumArguments() != 0 || getHandler()->getNumArguments() != 0)
    return emitOpError("branches to blocks without arguments");
  if (!getHandler()->getSinglePredecessor())
    return emitOpError("needs a handler block only it branches to");
  return success();
}

LogicalResult CaughtOp::verify() {
  Block *block = (*this)->getBlock();
  auto entered = dyn_cast_or_null<TryOp>(
      block->getSinglePredecessor() ? block->getSinglePredecessor()->getTerminator() : nullptr);
  if (!entered || entered.getHandler() != block)
    return emitOpError("must be in the handler block of a plait.try");
  return success();
}

//===----------------------------------------------------------------------===//
// for
//===----------------------------------------------------------------------===//

ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  // %exit = plait.for %i = %start to %stop step %step { ... }
  OpAsmParser::Argument inductionVar;
  OpAsmParser::UnresolvedOperand start, stop, step;
  Type i64 = parser.getBuilder().getI64Type();
  if (parser.parseArgument(inductionVar) || parser.parseEqual() || parser.parseOperand(start) ||
      parser.parseKeyword("to") || parser.parseOperand(stop) || parser.parseKeyword("step") ||
      parser.parseOperand(step) ||
      parser.resolveOperands({start, stop, step}, i64, result.operands))
    return failure();
  inductionVar.type = i64;
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {inductionVar}) || parser.parseOptionalAttrDict(result.attributes))
    return failure();
  result.addTypes(parser.getBuilder().getI32Type());
  return success();
}

void ForOp::print(OpAsmPrinter &printer) {
  printer << " " << getInductionVar() << " = " << getStart() << " to " << getStop() << " step "
          << getStep() << " ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict((*this)->getAttrs());
}

/// A loop's body: a CFG whose entry block takes the loop variable.
static LogicalResult verifyLoopBody(Operation *loop, Region &body) {
  if (body.empty() || body.getNumArguments() != 1 || !body.getArgument(0).getType().isInteger(64))
    return loop->emitOpError("needs a body whose entry block takes the loop variable (i64)");
  for (Block &block : body)
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>())
      return loop->emitOpError("has a block without a terminator");
  return success();
}

LogicalResult ForOp::verifyRegions() { return verifyLoopBody(*this, getBody()); }

LogicalResult ParallelForOp::verifyRegions() {
  if (failed(verifyLoopBody(*this, getBody())))
    return failure();
  ArrayAttr kinds = getReductionKinds();
  if (kinds.size() != getReductions().size())
    return emitOpError("needs one reduction kind per reduction slot");
  for (auto [slot, kindAttr] : llvm::zip(getReductions(), kinds)) {
    auto type = slot.getType().cast<MemRefType>();
    StringRef kind = kindAttr.cast<StringAttr>().getValue();
    Type element = type.getElementType();
    bool bitwise = kind == "or" || kind == "and";
    if (type.getRank() != 0 || !(element.isSignlessInteger() || element.isa<FloatType>()))
      return emitOpError("reduces a slot that is not a scalar: ") << type;
    static constexpr llvm::StringLiteral known[] = {
        "add", "mul", "min", "max", "umin", "umax", "or", "and", "checked_add", "checked_mul"};
    if (!llvm::is_contained(known, kind))
      return emitOpError("has an unknown reduction kind '") << kind << "'";
    bool checked = kind.startswith("checked_");
    bool integerOnly = bitwise || kind == "umin" || kind == "umax";
    if ((integerOnly && !element.isSignlessInteger()) || (checked && !element.isInteger(64)))
      return emitOpError("reduces a ") << element << " with '" << kind << "'";
  }
  ArrayAttr arrayKinds = getArrayReductionKinds();
  if (arrayKinds.size() != getArrayReductions().size())
    return emitOpError("needs one reduction kind per reduced array");
  for (auto [array, kindAttr] : llvm::zip(getArrayReductions(), arrayKinds)) {
    Type element = array.getType().cast<MemRefType>().getElementType();
    StringRef kind = kindAttr.cast<StringAttr>().getValue();
    bool bitwise = kind == "or" || kind == "and";
    if (!(kind == "add" || kind == "mul" || bitwise))
      return emitOpError("has an unknown array reduction kind '") << kind << "'";
    if (!(element.isSignlessInteger() || (!bitwise && element.isa<FloatType>())))
      return emitOpError("reduces an array of ") << element << " with '" << kind << "'";
  }
  return success();
}

void ForOp::inferResultRanges(ArrayRef<ConstantIntRanges> ranges, SetIntRangeFn set) {
  // The loop variable of range(start, stop, step): between start and the
  // last element before stop, on the side the step's sign says.
  const ConstantIntRanges &start = ranges[0], &stop = ranges[1], &step = ranges[2];
  APInt one(kBits, 1);
  APInt belowStop = stop.smax().ssub_sat(one), aboveStop = stop.smin().sadd_sat(one);
  auto fromSigned = [](APInt low, APInt high) {
    return ConstantIntRanges::fromSigned(low, high.slt(low) ? low : high);
  };
  ConstantIntRanges variable = ConstantIntRanges::maxRange(kBits);
  if (step.smin().sgt(0)) // start <= i < stop
    variable = fromSigned(start.smin(), belowStop);
  else if (step.smax().slt(0)) // stop < i <= start
    variable = fromSigned(aboveStop, start.smax());
  else
    variable = fromSigned(start.smin().slt(aboveStop) ? start.smin() : aboveStop,
                          start.smax().sgt(belowStop) ? start.smax() : belowStop);
  set(getInductionVar(), variable);
  set(getExit(), ConstantIntRanges::fromSigned(APInt(32, kCompleted), APInt(32, kLeft)));
}

#define GET_OP_CLASSES
#include "plait/Dialect/Plait/PlaitOps.cpp.inc"

//===----------------------------------------------------------------------===//
// elementwise
//===----------------------------------------------------------------------===//

namespace {
/// The checks plait.elementwise and plait.pairwise_sum share: inputs of at
/// most `rank` axes, a body taking their elements and yielding `element`s.
LogicalResult verifyElementBody(Operation *op, ValueRange inputs, size_t sizes, int64_t rank,
                                Region &body, Type element) {
  if (rank != static_cast<int64_t>(sizes))
    return op->emitOpError("needs one size per axis of its result");
  for (Value input : inputs)
    if (input.getType().cast<MemRefType>().getRank() > rank)
      return op->emitOpError("has an input of more axes than its result");
  if (body.empty() || body.getNumArguments() != inputs.size())
    return op->emitOpError("needs a body whose entry block takes one element per input");
  for (auto [input, argument] : llvm::zip(inputs, body.getArguments()))
    if (input.getType().cast<MemRefType>().getElementType() != argument.getType())
      return op->emitOpError("takes elements of its inputs' element types");
  for (Block &block : body) {
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>())
      return op->emitOpError("has a block without a terminator");
    if (auto yield = dyn_cast<YieldOp>(block.back()))
      if (yield.getValue().getType() != element)
        return op->emitOpError("yields elements of another type than its result's");
  }
  return success();
}
} // namespace

LogicalResult ElementwiseOp::verifyRegions() {
  auto result = getResult().getType().cast<MemRefType>();
  return verifyElementBody(*this, getInputs(), getShape().size(), result.getRank(), getBody(),
                           result.getElementType());
}

LogicalResult PairwiseSumOp::verifyRegions() {
  return verifyElementBody(*this, getInputs(), getShape().size(), 1, getBody(),
                           getResult().getType());
}
