//===- LowerRaise.cpp - plait-lower-raise ---------------------------------===//
//
// Raising as returning: every function returns (i32 status, results...), and
// a raising site branches to one error return per function with its status,
// the 1-based position of (exception, message) in the module's error table.
// The dispatcher turns a status back into the exception.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#include <map>

namespace plait::dialect {
#define GEN_PASS_DEF_LOWERRAISE
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

/// The run-time function that records a value for an error's message.
constexpr const char *kSetErrorArg = "plait_rt_set_error_arg";

class ErrorTable {
public:
  explicit ErrorTable(ModuleOp module) : module(module) {
    if (auto existing = module->getAttrOfType<ArrayAttr>(kErrorTableAttrName))
      for (Attribute entry : existing)
        entries.push_back(entry);
    for (size_t i = 0; i < entries.size(); ++i) {
      auto pair = entries[i].cast<ArrayAttr>();
      codes[{pair[0].cast<StringAttr>().str(), pair[1].cast<StringAttr>().str()}] = i + 1;
    }
  }

  int32_t code(StringRef exception, StringRef message) {
    auto key = std::make_pair(exception.str(), message.str());
    auto found = codes.find(key);
    if (found != codes.end())
      return found->second;
    Builder b(module.getContext());
    entries.push_back(b.getArrayAttr({b.getStringAttr(exception), b.getStringAttr(message)}));
    return codes[key] = static_cast<int32_t>(entries.size());
  }

  void save() { module->setAttr(kErrorTableAttrName, ArrayAttr::get(module.getContext(), entries)); }

private:
  ModuleOp module;
  SmallVector<Attribute> entries;
  std::map<std::pair<std::string, std::string>, int32_t> codes;
};

/// A value of `type` for the results of an error return (nobody reads
/// them: the status says so). Arrays are empty ones on the stack.
Value placeholder(OpBuilder &b, Location l, Type type) {
  if (auto memref = type.dyn_cast<MemRefType>()) {
    SmallVector<Value> zeros(memref.getNumDynamicDims(), b.create<arith::ConstantIndexOp>(l, 0));
    auto plain = MemRefType::get(memref.getShape(), memref.getElementType());
    Value empty = b.create<memref::AllocaOp>(l, plain, zeros);
    return b.create<memref::CastOp>(l, memref, empty);
  }
  if (auto f = type.dyn_cast<FloatType>())
    return b.create<arith::ConstantFloatOp>(l, APFloat::getZero(f.getFloatSemantics()), f);
  if (type.isIndex())
    return b.create<arith::ConstantIndexOp>(l, 0);
  return b.create<arith::ConstantIntOp>(l, 0, type);
}

LogicalResult lowerFunction(func::FuncOp function, ErrorTable &table) {
  SmallVector<Operation *> sites;
  function.walk([&](Operation *op) {
    if (isa<RaiseIfOp, CheckStatusOp>(op))
      sites.push_back(op);
  });
  if (sites.empty())
    return success();
  FunctionType type = function.getFunctionType();
  if (type.getNumResults() == 0 || !type.getResult(0).isInteger(32))
    return sites.front()->emitOpError("can raise only in a function that returns an i32 status first");

  // The error return: ^error(%status): return %status, placeholders...
  OpBuilder b(function.getContext());
  Location l = function.getLoc();
  Block *errorReturn = b.createBlock(&function.getBody(), function.getBody().end(), {b.getI32Type()}, {l});
  SmallVector<Value> results = {errorReturn->getArgument(0)};
  for (Type result : type.getResults().drop_front())
    results.push_back(placeholder(b, l, result));
  b.create<func::ReturnOp>(l, results);

  for (Operation *site : sites) {
    Location at = site->getLoc();
    Block *before = site->getBlock();
    Block *next = before->splitBlock(site->getNextNode());
    b.setInsertionPoint(site);
    if (auto check = dyn_cast<CheckStatusOp>(site)) {
      Value failed = b.create<arith::CmpIOp>(at, arith::CmpIPredicate::ne, check.getStatus(),
                                             b.create<arith::ConstantIntOp>(at, 0, 32));
      b.create<cf::CondBranchOp>(at, failed, errorReturn, ValueRange{check.getStatus()}, next, ValueRange{});
      site->erase();
      continue;
    }
    auto raise = cast<RaiseIfOp>(site);
    Value code = b.create<arith::ConstantIntOp>(at, table.code(raise.getException(), raise.getMessage()), 32);
    Block *target = errorReturn;
    SmallVector<Value, 1> targetArgs = {code};
    if (!raise.getValues().empty()) {
      // Record the message's values on the error path only.
      Block *record = b.createBlock(&function.getBody(), Region::iterator(errorReturn));
      for (auto [position, value] : llvm::enumerate(raise.getValues()))
        b.create<func::CallOp>(at, kSetErrorArg, TypeRange{},
                               ValueRange{b.create<arith::ConstantIntOp>(at, position, 64), value});
      b.create<cf::BranchOp>(at, errorReturn, ValueRange{code});
      target = record;
      targetArgs.clear();
      b.setInsertionPoint(site);
    }
    b.create<cf::CondBranchOp>(at, raise.getCondition(), target, targetArgs, next, ValueRange{});
    site->erase();
  }
  return success();
}

struct LowerRaisePass : public plait::dialect::impl::LowerRaiseBase<LowerRaisePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ErrorTable table(module);
    bool recordsValues = false;
    module.walk([&](RaiseIfOp raise) { recordsValues |= !raise.getValues().empty(); });
    if (recordsValues && !module.lookupSymbol(kSetErrorArg)) {
      OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
      auto declaration = b.create<func::FuncOp>(
          module.getLoc(), kSetErrorArg, b.getFunctionType({b.getI64Type(), b.getI64Type()}, {}));
      declaration.setPrivate();
    }
    for (auto function : module.getOps<func::FuncOp>())
      if (failed(lowerFunction(function, table)))
        return signalPassFailure();
    table.save();
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerRaisePass() { return std::make_unique<LowerRaisePass>(); }
