//===- LowerArrays.cpp - plait-lower-arrays -------------------------------===//
//
// Array variables, reference counts, views of complex arrays' parts and
// of lists' items at the LLVM level. It runs after the memref-to-LLVM conversion: by then an
// array is a descriptor struct (allocated pointer, aligned pointer, offset,
// sizes, strides) behind an unrealized cast, which
// reconcile-unrealized-casts removes at the end.
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
#define GEN_PASS_DEF_LOWERARRAYS
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

class ArrayLowering {
public:
  explicit ArrayLowering(ModuleOp module) : module(module), converter(module.getContext()) {}

  LogicalResult run() {
    SmallVector<Operation *> ops;
    SmallVector<Value> chosenSlots;
    module.walk([&](Operation *op) {
      if (isa<ArraySlotOp, ItemSlotOp, LoadArrayOp, StoreArrayOp, RetainOp, ReleaseOp,
              ComplexPartOp, ListItemsOp>(op))
        ops.push_back(op);
      if (!isa<ArraySlotOp, ItemSlotOp>(op))
        for (Value result : op->getResults())
          if (result.getType().isa<ArraySlotType>())
            chosenSlots.push_back(result);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument argument : block.getArguments())
            if (argument.getType().isa<ArraySlotType>())
              chosenSlots.push_back(argument);
    });
    // Slots become pointers first, also where canonicalisation chose
    // between them (blocks merged into one with a slot argument, or an
    // arith.select of two slots), so their users read them as such.
    for (Value chosen : chosenSlots) {
      FailureOr<Type> pointer = pointerType(chosen.getType().cast<ArraySlotType>());
      if (failed(pointer))
        return failure();
      chosen.setType(*pointer);
    }
    // A function taking slots (a prange body outlined with its variables'
    // slots) now takes pointers.
    module.walk([](func::FuncOp function) {
      if (function.isExternal())
        return;
      TypeRange inputs = function.getBody().front().getArgumentTypes();
      if (TypeRange(function.getFunctionType().getInputs()) != inputs)
        function.setType(FunctionType::get(function.getContext(), inputs,
                                           function.getFunctionType().getResults()));
    });
    SmallVector<Operation *> slots;
    for (Operation *op : ops) {
      if (auto slot = dyn_cast<ArraySlotOp>(op)) {
        if (failed(lowerSlot(slot)))
          return failure();
        slots.push_back(slot);
      } else if (auto item = dyn_cast<ItemSlotOp>(op)) {
        if (failed(lowerItemSlot(item)))
          return failure();
        slots.push_back(item);
      }
    }
    for (Operation *op : ops) {
      if (isa<ArraySlotOp, ItemSlotOp>(op))
        continue;
      OpBuilder b(op);
      Location l = op->getLoc();
      if (auto load = dyn_cast<LoadArrayOp>(op)) {
        Value descriptor = b.create<LLVM::LoadOp>(l, descriptorType(load.getType()), op->getOperand(0));
        load.replaceAllUsesWith(fromDescriptor(b, l, descriptor, load.getType()));
      } else if (auto store = dyn_cast<StoreArrayOp>(op)) {
        b.create<LLVM::StoreOp>(l, toDescriptor(b, l, store.getValue()), op->getOperand(1));
      } else if (auto part = dyn_cast<ComplexPartOp>(op)) {
        part.replaceAllUsesWith(complexPart(b, l, part));
      } else if (auto items = dyn_cast<ListItemsOp>(op)) {
        items.replaceAllUsesWith(listItems(b, l, items));
      } else if (auto retain = dyn_cast<RetainOp>(op)) {
        callWithAllocation(b, l, kArrayRetainFunction, retain.getArray());
      } else {
        callWithAllocation(b, l, kArrayReleaseFunction, cast<ReleaseOp>(op).getArray());
      }
      op->erase();
    }
    for (Operation *slot : slots)
      slot->erase();
    return success();
  }

private:
  Type descriptorType(Type memref) { return converter.convertType(memref); }

  Value toDescriptor(OpBuilder &b, Location l, Value memref) {
    return b.create<UnrealizedConversionCastOp>(l, descriptorType(memref.getType()), memref)
        .getResult(0);
  }

  Value fromDescriptor(OpBuilder &b, Location l, Value descriptor, Type memref) {
    return b.create<UnrealizedConversionCastOp>(l, memref, descriptor).getResult(0);
  }

  /// The descriptor of the float view of a complex array's parts: the same
  /// pointers (to floats), twice the offset and strides, the same sizes.
  Value complexPart(OpBuilder &b, Location l, ComplexPartOp part) {
    Value complex = toDescriptor(b, l, part.getArray());
    auto from = complex.getType().cast<LLVM::LLVMStructType>();
    auto to = descriptorType(part.getType()).cast<LLVM::LLVMStructType>();
    Type i64 = b.getI64Type();
    Value two = b.create<LLVM::ConstantOp>(l, i64, b.getI64IntegerAttr(2));
    Value view = b.create<LLVM::UndefOp>(l, to);
    for (int64_t field : {0, 1}) { // allocated and aligned pointers
      Value pointer = b.create<LLVM::ExtractValueOp>(l, from.getBody()[field], complex,
                                                     ArrayRef<int64_t>{field});
      if (pointer.getType() != to.getBody()[field]) // typed pointers (LLVM < 18)
        pointer = b.create<LLVM::BitcastOp>(l, to.getBody()[field], pointer);
      view = b.create<LLVM::InsertValueOp>(l, view, pointer, ArrayRef<int64_t>{field});
    }
    Value offset = b.create<LLVM::ExtractValueOp>(l, i64, complex, ArrayRef<int64_t>{2});
    offset = b.create<LLVM::MulOp>(l, offset, two);
    if (part.getImaginary())
      offset = b.create<LLVM::AddOp>(l, offset,
                                     b.create<LLVM::ConstantOp>(l, i64, b.getI64IntegerAttr(1)));
    view = b.create<LLVM::InsertValueOp>(l, view, offset, ArrayRef<int64_t>{2});
    int64_t rank = part.getType().cast<MemRefType>().getRank();
    for (int64_t axis = 0; axis < rank; ++axis) {
      Value size = b.create<LLVM::ExtractValueOp>(l, i64, complex, ArrayRef<int64_t>{3, axis});
      view = b.create<LLVM::InsertValueOp>(l, view, size, ArrayRef<int64_t>{3, axis});
      Value stride = b.create<LLVM::ExtractValueOp>(l, i64, complex, ArrayRef<int64_t>{4, axis});
      stride = b.create<LLVM::MulOp>(l, stride, two);
      view = b.create<LLVM::InsertValueOp>(l, view, stride, ArrayRef<int64_t>{4, axis});
    }
    return fromDescriptor(b, l, view, part.getType());
  }

  /// The descriptor of a contiguous 1-D view of `length` items at `address`.
  Value listItems(OpBuilder &b, Location l, ListItemsOp items) {
    auto type = descriptorType(items.getType()).cast<LLVM::LLVMStructType>();
    Type i64 = b.getI64Type();
    Value view = b.create<LLVM::UndefOp>(l, type);
    for (int64_t field : {0, 1}) { // allocated and aligned pointers
      Value pointer = b.create<LLVM::IntToPtrOp>(l, type.getBody()[field], items.getAddress());
      view = b.create<LLVM::InsertValueOp>(l, view, pointer, ArrayRef<int64_t>{field});
    }
    auto constant = [&](int64_t v) {
      return b.create<LLVM::ConstantOp>(l, i64, b.getI64IntegerAttr(v));
    };
    view = b.create<LLVM::InsertValueOp>(l, view, constant(0), ArrayRef<int64_t>{2});
    Value length = b.create<UnrealizedConversionCastOp>(l, i64, items.getLength()).getResult(0);
    view = b.create<LLVM::InsertValueOp>(l, view, length, ArrayRef<int64_t>{3, 0});
    view = b.create<LLVM::InsertValueOp>(l, view, constant(1), ArrayRef<int64_t>{4, 0});
    return fromDescriptor(b, l, view, items.getType());
  }

  FailureOr<Type> pointerType(ArraySlotType slot) {
    auto descriptor = descriptorType(slot.getArrayType()).dyn_cast_or_null<LLVM::LLVMStructType>();
    if (!descriptor)
      return failure();
    auto allocated = descriptor.getBody()[0].cast<LLVM::LLVMPointerType>();
    return Type(plait::compat::pointerLike(allocated, descriptor));
  }

  /// An alloca of the descriptor whose allocated pointer is null: an array
  /// that owns nothing until the variable is first bound. The alloca stands
  /// at the start of the function (a slot inlining left in a loop body must
  /// not take new stack space on each iteration); the null descriptor is
  /// stored where the slot was made, so that it starts out empty there.
  LogicalResult lowerSlot(ArraySlotOp slot) {
    FailureOr<Type> pointer = pointerType(slot.getType());
    if (failed(pointer))
      return slot.emitOpError("has an array type without an LLVM descriptor");
    auto descriptor = descriptorType(slot.getType().getArrayType()).cast<LLVM::LLVMStructType>();
    Type allocated = descriptor.getBody()[0];
    Location l = slot.getLoc();
    Value address;
    {
      Operation *function = slot; // (the module's child: a func.func or an llvm.func)
      while (!isa<ModuleOp>(function->getParentOp()))
        function = function->getParentOp();
      OpBuilder entry = OpBuilder::atBlockBegin(&function->getRegion(0).front());
      Value one = entry.create<LLVM::ConstantOp>(l, entry.getI64Type(), entry.getI64IntegerAttr(1));
      address = entry.create<LLVM::AllocaOp>(l, *pointer, descriptor, one);
    }
    OpBuilder b(slot);
    Type i64 = b.getI64Type();
    Value zero = b.create<LLVM::ConstantOp>(l, i64, b.getI64IntegerAttr(0));
    Value null = b.create<LLVM::IntToPtrOp>(l, allocated, zero);
    Value empty = b.create<LLVM::UndefOp>(l, descriptor);
    empty = b.create<LLVM::InsertValueOp>(l, empty, null, ArrayRef<int64_t>{0});
    empty = b.create<LLVM::InsertValueOp>(l, empty, null, ArrayRef<int64_t>{1});
    b.create<LLVM::StoreOp>(l, empty, address);
    slot.getSlot().replaceAllUsesWith(address);
    return success();
  }

  /// A pointer to the descriptor at the item's address.
  LogicalResult lowerItemSlot(ItemSlotOp item) {
    FailureOr<Type> pointer = pointerType(item.getType());
    if (failed(pointer))
      return item.emitOpError("has an array type without an LLVM descriptor");
    OpBuilder b(item);
    Value address = b.create<LLVM::IntToPtrOp>(item.getLoc(), *pointer, item.getAddress());
    item.getSlot().replaceAllUsesWith(address);
    return success();
  }

  void callWithAllocation(OpBuilder &b, Location l, StringRef function, Value memref) {
    Value descriptor = toDescriptor(b, l, memref);
    auto type = descriptor.getType().cast<LLVM::LLVMStructType>();
    Value allocated = b.create<LLVM::ExtractValueOp>(l, type.getBody()[0], descriptor,
                                                     ArrayRef<int64_t>{0});
    Value address = b.create<LLVM::PtrToIntOp>(l, b.getI64Type(), allocated);
    b.create<LLVM::CallOp>(l, declare(function), ValueRange{address});
  }

  LLVM::LLVMFuncOp declare(StringRef name) {
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      return existing;
    OpBuilder b(module.getBodyRegion());
    MLIRContext *context = module.getContext();
    auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                            {IntegerType::get(context, 64)});
    return b.create<LLVM::LLVMFuncOp>(module.getLoc(), name, type);
  }

  ModuleOp module;
  LLVMTypeConverter converter;
};

struct LowerArraysPass : public plait::dialect::impl::LowerArraysBase<LowerArraysPass> {
  void runOnOperation() override {
    if (failed(ArrayLowering(getOperation()).run()))
      signalPassFailure();
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerArraysPass() {
  return std::make_unique<LowerArraysPass>();
}
