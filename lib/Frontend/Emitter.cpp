//===- Emitter.cpp - typed snapshots to the plait dialect -----------------===//
//
// The emitter's infrastructure (blocks, constants, raising, runtime calls),
// conversions between Python's and NumPy's values, and emitModule: every
// specialisation, then the entry wrapper the dispatcher calls.
//
//===----------------------------------------------------------------------===//
#include "EmitterImpl.h"

namespace plait::frontend::detail {

FunctionEmitter::FunctionEmitter(ModuleEmitter &module, Specialization &spec)
    : module(module), spec(spec), typer(module.typer), builder(module.context) {}

bool FunctionEmitter::checksOverflow() const {
  return spec.source->checkOverflow.value_or(module.options.checkOverflow);
}

bool FunctionEmitter::fastmath() const {
  return spec.source->fastmath.value_or(module.options.fastmath);
}

bool FunctionEmitter::checksBounds() const {
  return spec.source->boundsCheck.value_or(module.options.boundsCheck);
}

Location FunctionEmitter::loc(const SExpr &node) {
  // Named after the function: a traceback's frame reads "in f".
  SourceLocation l = node.location();
  return mlir::NameLoc::get(
      builder.getStringAttr(spec.source->name),
      mlir::FileLineColLoc::get(builder.getContext(), spec.source->filename, l.line, l.column + 1));
}

mlir::arith::CmpFPredicate floatPredicate(ast::Operator op) {
  using P = mlir::arith::CmpFPredicate;
  switch (op) {
  case ast::Operator::Eq:
    return P::OEQ;
  case ast::Operator::NotEq:
    return P::UNE;
  case ast::Operator::Lt:
    return P::OLT;
  case ast::Operator::LtE:
    return P::OLE;
  case ast::Operator::Gt:
    return P::OGT;
  default:
    return P::OGE;
  }
}

mlir::arith::CmpIPredicate intPredicate(ast::Operator op, bool isUnsigned) {
  using P = mlir::arith::CmpIPredicate;
  switch (op) {
  case ast::Operator::Eq:
    return P::eq;
  case ast::Operator::NotEq:
    return P::ne;
  case ast::Operator::Lt:
    return isUnsigned ? P::ult : P::slt;
  case ast::Operator::LtE:
    return isUnsigned ? P::ule : P::sle;
  case ast::Operator::Gt:
    return isUnsigned ? P::ugt : P::sgt;
  default:
    return isUnsigned ? P::uge : P::sge;
  }
}

mlir::Type FunctionEmitter::leafType(Type::Kind kind) {
  switch (kind) {
  case Type::Kind::Bool:
    return builder.getI1Type();
  case Type::Kind::Float:
    return builder.getF64Type();
  default:
    return builder.getI64Type();
  }
}

void FunctionEmitter::leafTypes(const Type &type,
                                llvm::SmallVectorImpl<mlir::Type> &out) {
  module.appendLeaves(type, out);
}

Block *FunctionEmitter::newBlock() {
  // In the region being emitted: a function's, or a plait.for body's.
  Block *block = new Block();
  builder.getInsertionBlock()->getParent()->push_back(block);
  return block;
}

bool FunctionEmitter::terminated() {
  Block *block = builder.getInsertionBlock();
  return !block->empty() &&
         block->back().hasTrait<mlir::OpTrait::IsTerminator>();
}

void FunctionEmitter::branch(Block *target, mlir::ValueRange args) {
  if (!terminated())
    builder.create<mlir::cf::BranchOp>(here(), target, args);
}

bool FunctionEmitter::insideRangeLoop() const {
  for (const Loop &loop : loops)
    if (loop.structured)
      return true;
  return false;
}

Value FunctionEmitter::alloca(mlir::Type type) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  if (auto array = type.dyn_cast<mlir::MemRefType>())
    return builder.create<dialect::ArraySlotOp>(
        here(), dialect::ArraySlotType::get(builder.getContext(), array));
  return builder.create<mlir::memref::AllocaOp>(here(), mlir::MemRefType::get({}, type));
}

Value FunctionEmitter::loadSlot(Value slot, Location l) {
  if (slot.getType().isa<dialect::ArraySlotType>())
    return builder.create<dialect::LoadArrayOp>(l, slot);
  return builder.create<mlir::memref::LoadOp>(l, slot);
}

void FunctionEmitter::storeSlot(Value value, Value slot, Location l, bool slotIsEmpty) {
  if (!slot.getType().isa<dialect::ArraySlotType>()) {
    builder.create<mlir::memref::StoreOp>(l, value, slot);
    return;
  }
  Value previous = slotIsEmpty ? Value() : builder.create<dialect::LoadArrayOp>(l, slot);
  builder.create<dialect::StoreArrayOp>(l, value, slot);
  if (previous)
    builder.create<dialect::ReleaseOp>(l, previous);
}

Value FunctionEmitter::constInt(int64_t v, unsigned width) {
  return builder.create<arith::ConstantIntOp>(here(), v, width);
}

Value FunctionEmitter::constFloat(double v) {
  return builder.create<arith::ConstantFloatOp>(here(), llvm::APFloat(v), builder.getF64Type());
}

Value FunctionEmitter::constFloatOf(mlir::Type type, double v) {
  auto floatType = type.cast<mlir::FloatType>();
  llvm::APFloat value(v);
  bool lost;
  value.convert(floatType.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &lost);
  return builder.create<arith::ConstantFloatOp>(here(), value, floatType);
}

Val FunctionEmitter::zeroOf(const Type &type) {
  Val v{type, {}};
  llvm::SmallVector<mlir::Type> types;
  leafTypes(type, types);
  for (mlir::Type t : types) {
    if (auto memref = t.dyn_cast<mlir::MemRefType>()) {
      // Error paths return an empty array nobody reads (the status says so).
      Location l = here();
      llvm::SmallVector<Value> zeros(memref.getRank(),
                                     builder.create<arith::ConstantIndexOp>(l, 0));
      Value empty = builder.create<mlir::memref::AllocaOp>(
          l, mlir::MemRefType::get(memref.getShape(), memref.getElementType()), zeros);
      v.leaves.push_back(builder.create<mlir::memref::CastOp>(l, memref, empty));
      continue;
    }
    if (auto f = t.dyn_cast<mlir::FloatType>())
      v.leaves.push_back(
          builder.create<arith::ConstantFloatOp>(here(), llvm::APFloat(f.getFloatSemantics()), f));
    else
      v.leaves.push_back(constInt(0, t.getIntOrFloatBitWidth()));
  }
  return v;
}

void FunctionEmitter::check(Value failed, const PyError &error) {
  checkWithArgs(failed, error, {});
}

void FunctionEmitter::checkWithArgs(Value failed, const PyError &error, llvm::ArrayRef<Value> args) {
  builder.create<dialect::RaiseIfOp>(here(), failed, error.exception, error.message, args);
}

PyError FunctionEmitter::errorCode(const char *exception, const std::string &messageKey) {
  return PyError(exception, module.options.message(messageKey));
}

void FunctionEmitter::checkRuntime(Value status,
                                   std::initializer_list<std::pair<int32_t, PyError>> codes) {
  // A runtime helper's status names the error (0 is success).
  for (const auto &[runtimeStatus, error] : codes)
    check(builder.create<arith::CmpIOp>(here(), arith::CmpIPredicate::eq, status,
                                        constInt(runtimeStatus, 32)),
          error);
}

std::string FunctionEmitter::formatMessage(
    const std::string &key, std::initializer_list<std::pair<const char *, std::string>> parts) {
  std::string message = module.options.message(key);
  for (const auto &[name, text] : parts) {
    std::string placeholder = "{" + std::string(name) + "}";
    size_t at = message.find(placeholder);
    if (at != std::string::npos)
      message.replace(at, placeholder.size(), text);
  }
  return message;
}

Value FunctionEmitter::outPointer(Value slot) {
  return builder.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(here(), slot);
}

Val FunctionEmitter::callRuntime(
    const char *name, std::vector<Value> args, const Type &resultType,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  // The runtime writes its result through a pointer into a stack slot.
  bool isFloat = resultType.kind == Type::Kind::Float;
  Value &slot = isFloat ? f64Out : i64Out;
  if (!slot)
    slot = alloca(isFloat ? mlir::Type(builder.getF64Type()) : mlir::Type(builder.getI64Type()));
  llvm::SmallVector<mlir::Type> inputs;
  for (Value a : args)
    inputs.push_back(a.getType());
  inputs.push_back(builder.getIndexType());
  module.declare(name, builder.getFunctionType(inputs, {builder.getI32Type()}));
  args.push_back(outPointer(slot));
  Value status =
      builder.create<mlir::func::CallOp>(here(), name, mlir::TypeRange{builder.getI32Type()}, args)
          .getResult(0);
  checkRuntime(status, codes);
  return {resultType, {builder.create<mlir::memref::LoadOp>(here(), slot)}};
}

Val FunctionEmitter::callRuntimeFloat(
    const char *name, std::vector<Value> args,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  return callRuntime(name, std::move(args), Type::floating(), codes);
}

Val FunctionEmitter::callRuntimeInt(
    const char *name, std::vector<Value> args,
    std::initializer_list<std::pair<int32_t, PyError>> codes) {
  return callRuntime(name, std::move(args), Type::integer(), codes);
}

Value FunctionEmitter::callLibm(const char *name, std::vector<Value> args) {
  // double f(double...) or float f(float...): the result has the arguments' type.
  llvm::SmallVector<mlir::Type> inputs;
  for (Value a : args)
    inputs.push_back(a.getType());
  // libm's functions only compute (plait never reads errno).
  module.declare(name, builder.getFunctionType(inputs, {inputs[0]}), /*pure=*/true);
  return builder.create<mlir::func::CallOp>(here(), name, mlir::TypeRange{inputs[0]}, args)
      .getResult(0);
}

Val FunctionEmitter::convert(const Val &value, const Type &to) {
  if (value.type == to)
    return value;
  Location l = here();
  if (to.kind == Type::Kind::Tuple) {
    Val result{to, {}};
    size_t offset = 0;
    for (size_t i = 0; i < to.elements.size(); ++i) {
      const Type &from = value.type.elements[i];
      size_t n = from.numLeaves();
      Val part{from, llvm::SmallVector<Value, 2>(
                         value.leaves.begin() + offset,
                         value.leaves.begin() + offset + n)};
      offset += n;
      Val converted = convert(part, to.elements[i]);
      result.leaves.append(converted.leaves.begin(), converted.leaves.end());
    }
    return result;
  }
  if (to.kind == Type::Kind::Str)
    return runtimeStrOf(value, here());
  if (to.kind == Type::Kind::List)
    return settleListItems(value, to);
  if (to.kind == Type::Kind::Dict)
    return settleDictTypes(value, to);
  if (to.kind == Type::Kind::Array) // a layout unified with another: any strides
    return {to, {builder.create<mlir::memref::CastOp>(l, module.memrefType(to), value.leaves[0])}};
  if (to.isNumPy()) // a Python int that does not fit raises, never wraps
    return weakToNumPy(value, to.dtype);
  if (to.kind == Type::Kind::Complex) { // real numbers get a +0.0 imaginary part
    if (value.type.isComplex())
      return {to, value.leaves};
    return {to, {convert(value, Type::floating()).leaves[0], constFloat(0.0)}};
  }
  Value v = value.leaves[0];
  if (value.type.isNumPy()) {
    // To a Python number: float(x) of any, int(x) of integers, bool of bool.
    DType from = value.type.dtype;
    if (to.kind == Type::Kind::Float)
      return {to, {castNumPy(value, DType::Float64).leaves[0]}};
    if (to.kind == Type::Kind::Int && !isFloatDType(from)) {
      if (from == DType::UInt64) // beyond int64: Python's int would hold it
        check(builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, v, constInt(0)),
              errorCode("OverflowError", "int_overflow"));
      return {to, {castNumPy(value, DType::Int64).leaves[0]}};
    }
    if (to.kind == Type::Kind::Bool && from == DType::Bool)
      return {to, {v}};
  }
  if (to.kind == Type::Kind::Int && value.type.kind == Type::Kind::Bool)
    return {to, {builder.create<arith::ExtUIOp>(l, builder.getI64Type(), v)}};
  if (to.kind == Type::Kind::Float && value.type.kind == Type::Kind::Bool)
    return {to, {builder.create<arith::UIToFPOp>(l, builder.getF64Type(), v)}};
  if (to.kind == Type::Kind::Float && value.type.kind == Type::Kind::Int)
    return {to, {builder.create<arith::SIToFPOp>(l, builder.getF64Type(), v)}};
  throw CompileError(CompileError::Kind::Typing,
                     "internal: cannot convert " + value.type.str() + " to " +
                         to.str());
}

Value FunctionEmitter::truth(const Val &value) {
  Location l = here();
  if (value.type.isComplex()) {
    // (complex64's parts are f32)
    Value zero = constFloatOf(value.leaves[0].getType(), 0.0);
    Value re = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, value.leaves[0], zero);
    Value im = builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, value.leaves[1], zero);
    return builder.create<arith::OrIOp>(l, re, im);
  }
  if (value.type.isNumPy()) {
    Value v = value.leaves[0];
    if (value.type.dtype == DType::Bool)
      return v;
    if (isFloatDType(value.type.dtype)) {
      Value zero = builder.create<arith::ConstantFloatOp>(
          l, llvm::APFloat(v.getType().cast<mlir::FloatType>().getFloatSemantics()),
          v.getType().cast<mlir::FloatType>());
      return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, v, zero);
    }
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, v, constOf(v.getType(), 0));
  }
  switch (value.type.kind) {
  case Type::Kind::Bool:
    return value.leaves[0];
  case Type::Kind::Int:
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne,
                                         value.leaves[0], constInt(0));
  case Type::Kind::Float:
    // NaN is truthy: unordered-or-not-equal.
    return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE,
                                         value.leaves[0], constFloat(0.0));
  case Type::Kind::Tuple:
    return constInt(value.type.elements.empty() ? 0 : 1, 1);
  case Type::Kind::List:
  case Type::Kind::Str:
  case Type::Kind::Dict: { // (all keep their length in word 0)
    Value length = listLength(value, l);
    freeIfTemporary(value);
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, length, constInt(0));
  }
  case Type::Kind::String:
    return constInt(value.type.text.empty() ? 0 : 1, 1);
  default:
    return constInt(0, 1);
  }
}

Val FunctionEmitter::constant(const SExpr &value, const Type &type) {
  switch (value.kind) {
  case SExpr::Kind::Integer:
    return {type, {constInt(std::strtoll(value.text.c_str(), nullptr, 10))}};
  case SExpr::Kind::Float:
    return {type, {constFloat(value.floating)}};
  case SExpr::Kind::True:
    return {type, {constInt(1, 1)}};
  case SExpr::Kind::False:
    return {type, {constInt(0, 1)}};
  case SExpr::Kind::None:
    return {type, {}};
  default: {
    if (value.head() == "Complex")
      return {type, {constFloat(value.items.at(1).floating), constFloat(value.items.at(2).floating)}};
    if (value.head() == "DType") // known when compiling: no leaves
      return {type, {}};
    Val result{type, {}};
    std::vector<const SExpr *> items = value.rest();
    for (size_t i = 0; i < items.size(); ++i) {
      Val part = constant(*items[i], type.elements[i]);
      result.leaves.append(part.leaves.begin(), part.leaves.end());
    }
    return result;
  }
  }
}

Value FunctionEmitter::dimension(Value memref, int64_t axis) {
  Location l = here();
  Value d = builder.create<mlir::memref::DimOp>(l, memref, axis);
  return builder.create<arith::IndexCastOp>(l, builder.getI64Type(), d);
}

void FunctionEmitter::countedLoop(Value n, const std::function<void(Value)> &body) {
  // A loop of plait's own (over elements, say): a plait.for over range(n).
  Location l = here();
  auto loop = builder.create<dialect::ForOp>(l, constInt(0), n, constInt(1));
  Block *block = new Block();
  loop.getBody().push_back(block);
  Value k = block->addArgument(builder.getI64Type(), l);
  OpBuilder::InsertionGuard guard(builder);
  startBlock(block);
  body(k);
  if (!terminated())
    builder.create<dialect::ContinueOp>(l);
}

} // namespace plait::frontend::detail

namespace plait::frontend {

using namespace detail;

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

EmittedModule emitModule(mlir::ModuleOp module, const Program &program,
                         int entryFunction,
                         const std::vector<Type> &argumentTypes,
                         const CompileOptions &options, uint64_t uniqueId) {
  module.getContext()->loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                                   mlir::LLVM::LLVMDialect, mlir::complex::ComplexDialect,
                                   mlir::cf::ControlFlowDialect, mlir::math::MathDialect,
                                   mlir::memref::MemRefDialect, dialect::PlaitDialect>();
  // The running CPython's messages travel with the module, for the
  // lowering of plait's operations.
  {
    mlir::Builder b(module.getContext());
    llvm::SmallVector<mlir::NamedAttribute> messages;
    for (llvm::StringRef key : dialect::loweringMessageKeys())
      messages.push_back(b.getNamedAttr(key, b.getStringAttr(options.message(key.str()))));
    module->setAttr(dialect::kMessagesAttrName, b.getDictionaryAttr(messages));
  }
  Typer typer(program, options, uniqueId);
  Specialization &entry = typer.run(entryFunction, argumentTypes);
  ModuleEmitter emitter(module, typer, options);
  OpBuilder b(module.getContext());

  EmittedModule result;
  result.argumentTypes = argumentTypes;
  result.resultType = entry.result;
  result.entrySymbol = "plait_entry_" + std::to_string(uniqueId);
  if (options.speculate)
    module->setAttr(dialect::kSpeculativeEntryAttrName, b.getStringAttr(result.entrySymbol));
  // Only what the entry reaches: specialisations typing made in an earlier
  // round for types the final round no longer passes (a list before its
  // items were typed) are never called.
  for (Specialization *spec : Typer::reachable(entry)) {
    result.mayRunLong |= spec->loops || spec->callsJit;
    FunctionEmitter(emitter, *spec).emit(spec->symbol);
  }

  // The entry wrapper for the dispatcher: arguments as they are (scalars,
  // strided memrefs), results into 64-bit slots of a memref.
  b.setInsertionPointToEnd(module.getBody());
  Location l = b.getUnknownLoc();
  auto slotsType = mlir::MemRefType::get({mlir::ShapedType::kDynamic}, b.getI64Type());
  llvm::SmallVector<mlir::Type> wrapperInputs;
  for (const Type &t : argumentTypes)
    emitter.appendLeaves(t, wrapperInputs);
  size_t numArgumentLeaves = wrapperInputs.size();
  wrapperInputs.push_back(slotsType);
  auto wrapper = b.create<mlir::func::FuncOp>(
      l, result.entrySymbol, b.getFunctionType(wrapperInputs, {b.getI32Type()}));
  Block *body = wrapper.addEntryBlock();
  b.setInsertionPointToEnd(body);
  llvm::SmallVector<Value> operands = {b.create<arith::ConstantIntOp>(l, 0, 64)};
  for (size_t i = 0; i < numArgumentLeaves; ++i)
    operands.push_back(body->getArgument(i));
  Value resultSlots = body->getArgument(numArgumentLeaves);
  mlir::FunctionType entryType = emitter.signatureOf(entry);
  auto call = b.create<mlir::func::CallOp>(l, entry.symbol, entryType.getResults(), operands);
  int64_t slot = 0;
  auto store = [&](Value v) {
    // Floats by their bits; narrower values in the low bytes (the boxing
    // code reads them by type).
    if (auto f = v.getType().dyn_cast<mlir::FloatType>())
      v = b.create<arith::BitcastOp>(l, b.getIntegerType(f.getWidth()), v);
    if (v.getType().isIntOrIndex() && !v.getType().isIndex() &&
        v.getType().getIntOrFloatBitWidth() < 64)
      v = b.create<arith::ExtUIOp>(l, b.getI64Type(), v);
    else if (v.getType().isIndex())
      v = b.create<arith::IndexCastOp>(l, b.getI64Type(), v);
    Value index = b.create<arith::ConstantIndexOp>(l, slot++);
    b.create<mlir::memref::StoreOp>(l, v, resultSlots, mlir::ValueRange{index});
  };
  for (unsigned i = 1; i < call.getNumResults(); ++i) {
    Value v = call.getResult(i);
    if (!v.getType().isa<mlir::MemRefType>()) {
      store(v);
      continue;
    }
    // An array result: base address, offset, sizes, strides.
    store(b.create<mlir::memref::ExtractAlignedPointerAsIndexOp>(l, v));
    auto metadata = b.create<mlir::memref::ExtractStridedMetadataOp>(l, v);
    store(metadata.getOffset());
    for (Value size : metadata.getSizes())
      store(size);
    for (Value stride : metadata.getStrides())
      store(stride);
  }
  b.create<mlir::func::ReturnOp>(l, call.getResult(0));
  for (size_t i = 0; i < argumentTypes.size(); ++i)
    result.writesArgument.push_back(argumentTypes[i].kind == Type::Kind::Array &&
                                    writesParameter(entry, entry.source->params[i]));

  return result;
}

} // namespace plait::frontend
