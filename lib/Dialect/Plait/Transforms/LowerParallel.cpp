//===- LowerParallel.cpp - plait-lower-parallel ---------------------------===//
//
// A plait.parallel_call becomes a call of the runtime's thread pool: the
// runtime calls bodies as `i32 (ptr context, i64 begin, i64 end, i64
// worker)`, so the captures travel as one LLVM struct on the caller's
// stack, and a trampoline of that signature loads them and calls the
// outlined function. It runs while func.func and memref values are still
// about (after plait-lower-arrays, before func-to-llvm): values cross to
// their LLVM types through unrealized casts, which the end of the pipeline
// reconciles with those the conversions make.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"
#include "plait/Support/LLVMCompat.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace plait::dialect {
#define GEN_PASS_DEF_LOWERPARALLEL
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

constexpr const char *kParallelForRuntime = "plait_rt_parallel_for";

class ParallelLowering {
public:
  explicit ParallelLowering(ModuleOp module)
      : module(module), converter(module.getContext()), context(module.getContext()) {}

  LogicalResult lower(ParallelCallOp call) {
    Location l = call.getLoc();
    auto body = module.lookupSymbol<func::FuncOp>(call.getBody());
    if (!body)
      return call.emitOpError("calls a function the module does not define");
    // The captures' LLVM types, in one struct.
    SmallVector<Type> fields;
    for (Value capture : call.getCaptures()) {
      Type converted = converter.convertType(capture.getType());
      if (!converted || !LLVM::isCompatibleType(converted))
        return call.emitOpError("captures a value of a type without an LLVM form: ")
               << capture.getType();
      fields.push_back(converted);
    }
    auto record = LLVM::LLVMStructType::getLiteral(context, fields);
    Type i8 = IntegerType::get(context, 8), i32 = IntegerType::get(context, 32),
         i64 = IntegerType::get(context, 64);
    Type bytePointer = plait::compat::pointerTo<LLVM::LLVMPointerType>(i8);
    Type recordPointer = plait::compat::pointerTo<LLVM::LLVMPointerType>(Type(record));
    LLVM::LLVMFuncOp trampoline = makeTrampoline(body, record, bytePointer, recordPointer);

    // The record lives in the caller's frame once (the call may be in a loop).
    Operation *function = call;
    while (!isa<ModuleOp>(function->getParentOp()))
      function = function->getParentOp();
    Value address;
    {
      OpBuilder entry = OpBuilder::atBlockBegin(&function->getRegion(0).front());
      Value one = entry.create<LLVM::ConstantOp>(l, i64, entry.getI64IntegerAttr(1));
      address = entry.create<LLVM::AllocaOp>(l, recordPointer, record, one);
    }
    OpBuilder b(call);
    Value packed = b.create<LLVM::UndefOp>(l, record);
    for (auto [position, capture] : llvm::enumerate(call.getCaptures())) {
      Value value = capture;
      if (value.getType() != fields[position])
        value = b.create<UnrealizedConversionCastOp>(l, fields[position], value).getResult(0);
      packed = b.create<LLVM::InsertValueOp>(l, packed, value,
                                             ArrayRef<int64_t>{static_cast<int64_t>(position)});
    }
    b.create<LLVM::StoreOp>(l, packed, address);
    Value contextPointer = castPointer(b, l, address, bytePointer);
    Value code = castPointer(b, l, b.create<LLVM::AddressOfOp>(l, trampoline), bytePointer);
    auto runtimeType =
        LLVM::LLVMFunctionType::get(i32, ArrayRef<Type>{bytePointer, bytePointer, i64, i64});
    LLVM::LLVMFuncOp runtime = declare(kParallelForRuntime, runtimeType);
    Value status =
        b.create<LLVM::CallOp>(
             l, runtime, ValueRange{code, contextPointer, call.getCount(), call.getParticipants()})
            .getResult();
    call.getStatus().replaceAllUsesWith(status);
    call.erase();
    return success();
  }

private:
  Value castPointer(OpBuilder &b, Location l, Value pointer, Type to) {
    if (pointer.getType() == to)
      return pointer;
    return b.create<LLVM::BitcastOp>(l, to, pointer);
  }

  /// `i32 <body>_trampoline(ptr context, i64 begin, i64 end, i64 worker)`:
  /// the body's call with the captures the context holds.
  LLVM::LLVMFuncOp makeTrampoline(func::FuncOp body, LLVM::LLVMStructType record, Type bytePointer,
                                  Type recordPointer) {
    std::string name = (body.getSymName() + "_trampoline").str();
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    Location l = body.getLoc();
    Type i32 = IntegerType::get(context, 32), i64 = IntegerType::get(context, 64);
    OpBuilder top(body);
    auto trampoline = top.create<LLVM::LLVMFuncOp>(
        l, name, LLVM::LLVMFunctionType::get(i32, ArrayRef<Type>{bytePointer, i64, i64, i64}));
    trampoline.setLinkage(LLVM::Linkage::Internal);
    Block *entry = trampoline.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockBegin(entry);
    Value address = castPointer(b, l, entry->getArgument(0), recordPointer);
    Value packed = b.create<LLVM::LoadOp>(l, record, address);
    TypeRange inputs = body.getFunctionType().getInputs();
    SmallVector<Value> arguments;
    for (auto [position, field] : llvm::enumerate(record.getBody())) {
      Value value = b.create<LLVM::ExtractValueOp>(
          l, field, packed, ArrayRef<int64_t>{static_cast<int64_t>(position)});
      if (inputs[position] != field)
        value = b.create<UnrealizedConversionCastOp>(l, inputs[position], value).getResult(0);
      arguments.push_back(value);
    }
    for (unsigned k = 1; k <= 3; ++k) // begin, end, worker
      arguments.push_back(entry->getArgument(k));
    Value status = b.create<func::CallOp>(l, body, arguments).getResult(0);
    b.create<LLVM::ReturnOp>(l, status);
    return trampoline;
  }

  LLVM::LLVMFuncOp declare(StringRef name, LLVM::LLVMFunctionType type) {
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    return b.create<LLVM::LLVMFuncOp>(module.getLoc(), name, type);
  }

  ModuleOp module;
  LLVMTypeConverter converter;
  MLIRContext *context;
};

struct LowerParallelPass : public plait::dialect::impl::LowerParallelBase<LowerParallelPass> {
  void runOnOperation() override {
    SmallVector<ParallelCallOp> calls;
    getOperation().walk([&](ParallelCallOp call) { calls.push_back(call); });
    ParallelLowering lowering(getOperation());
    for (ParallelCallOp call : calls)
      if (failed(lowering.lower(call)))
        return signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerParallelPass() {
  return std::make_unique<LowerParallelPass>();
}
