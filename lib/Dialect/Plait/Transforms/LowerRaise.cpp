//===- LowerRaise.cpp - plait-lower-raise ---------------------------------===//
//
// Raising as returning: every function returns (i32 status, results...), and
// a raising site branches to one error return per function with its status,
// the 1-based position of (exception, message, traceback frames) in the
// module's error table, or to the handler of the plait.try whose scope holds
// it. The dispatcher turns a status back into the exception.
//
//===----------------------------------------------------------------------===//
#include "plait/Dialect/Plait/ExceptionClasses.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

#include <algorithm>
#include <functional>
#include <map>
#include <tuple>

namespace plait::dialect {
#define GEN_PASS_DEF_LOWERRAISE
#include "plait/Dialect/Plait/Passes.h.inc"
} // namespace plait::dialect

using namespace mlir;
using namespace plait::dialect;

namespace {

/// The run-time function that records a value for an error's message.
constexpr const char *kSetErrorArg = "plait_rt_set_error_arg";

/// Where an error site is: the frames of a traceback, innermost first, one
/// "file:line:function" per line (a site inlined from a callee has the
/// callee's frame, then its caller's). Empty when the location is unknown.
std::string tracebackFrames(Location location) {
  std::string frames;
  std::function<void(Location, StringRef)> add = [&](Location at, StringRef function) {
    if (auto call = at.dyn_cast<CallSiteLoc>()) {
      add(call.getCallee(), "");
      add(call.getCaller(), "");
    } else if (auto named = at.dyn_cast<NameLoc>()) {
      add(named.getChildLoc(), named.getName().getValue());
    } else if (auto fused = at.dyn_cast<FusedLoc>()) {
      if (!fused.getLocations().empty())
        add(fused.getLocations().front(), function);
    } else if (auto file = at.dyn_cast<FileLineColLoc>()) {
      frames +=
          (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" + function + "\n")
              .str();
    }
  };
  add(location, "");
  return frames;
}

class ErrorTable {
public:
  explicit ErrorTable(ModuleOp module) : module(module) {
    if (auto existing = module->getAttrOfType<ArrayAttr>(kErrorTableAttrName))
      for (Attribute entry : existing)
        entries.push_back(entry);
    for (size_t i = 0; i < entries.size(); ++i) {
      auto triple = entries[i].cast<ArrayAttr>();
      codes[{triple[0].cast<StringAttr>().str(), triple[1].cast<StringAttr>().str(),
             triple[2].cast<StringAttr>().str()}] = i + 1;
    }
  }

  int32_t code(StringRef exception, StringRef message, Location at) {
    std::string frames = tracebackFrames(at);
    auto key = std::make_tuple(exception.str(), message.str(), frames);
    auto found = codes.find(key);
    if (found != codes.end())
      return found->second;
    Builder b(module.getContext());
    entries.push_back(b.getArrayAttr(
        {b.getStringAttr(exception), b.getStringAttr(message), b.getStringAttr(frames)}));
    return codes[key] = static_cast<int32_t>(entries.size());
  }

  /// The codes whose exception is an instance of one of `classes`.
  SmallVector<int32_t> codesOf(ArrayAttr classes, DictionaryAttr bases) const {
    SmallVector<int32_t> matching;
    for (size_t i = 0; i < entries.size(); ++i) {
      StringRef raised = entries[i].cast<ArrayAttr>()[0].cast<StringAttr>().getValue();
      if (llvm::any_of(classes, [&](Attribute handled) {
            return isExceptionSubclass(raised, handled.cast<StringAttr>().getValue(), bases);
          }))
        matching.push_back(static_cast<int32_t>(i + 1));
    }
    return matching;
  }

  void save() { module->setAttr(kErrorTableAttrName, ArrayAttr::get(module.getContext(), entries)); }

private:
  ModuleOp module;
  SmallVector<Attribute> entries;
  std::map<std::tuple<std::string, std::string, std::string>, int32_t> codes;
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

/// For each raising site (and plait.try) of a function, the innermost of
/// its plait.try ops `tries` whose scope holds it: the blocks reachable from the try's body
/// without passing a plait.try_end of its id.
DenseMap<Operation *, TryOp> catchingTries(ArrayRef<TryOp> tries) {
  DenseMap<Operation *, SmallVector<TryOp, 2>> scopes;
  for (TryOp entered : tries) {
    SmallVector<Block *> pending = {entered.getBody()};
    DenseSet<Block *> seen = {entered.getBody()};
    while (!pending.empty()) {
      Block *block = pending.pop_back_val();
      bool ended = false;
      for (Operation &op : *block) {
        auto end = dyn_cast<TryEndOp>(op);
        if (end && end.getId() == entered.getId()) {
          ended = true;
          break;
        }
        if (isa<RaiseIfOp, CheckStatusOp, TryOp>(op))
          scopes[&op].push_back(entered);
      }
      if (ended || block->getTerminator() == entered.getOperation())
        continue;
      for (Block *successor : block->getSuccessors())
        if (seen.insert(successor).second)
          pending.push_back(successor);
    }
  }
  // Nested tries: the innermost is inside the most scopes.
  auto depth = [&](TryOp entered) { return scopes.lookup(entered).size(); };
  DenseMap<Operation *, TryOp> catching;
  for (auto &[site, holding] : scopes)
    catching[site] = *std::max_element(holding.begin(), holding.end(),
                                       [&](TryOp a, TryOp b) { return depth(a) < depth(b); });
  return catching;
}

LogicalResult lowerFunction(func::FuncOp function, ErrorTable &table) {
  SmallVector<Operation *> sites;
  function.walk([&](Operation *op) {
    if (isa<RaiseIfOp, CheckStatusOp>(op))
      sites.push_back(op);
  });
  SmallVector<TryOp> tries;
  function.walk([&](TryOp entered) { tries.push_back(entered); });
  DenseMap<Operation *, TryOp> catching = catchingTries(tries);
  OpBuilder b(function.getContext());

  // Each handler receives the status it caught.
  for (TryOp entered : tries) {
    Block *handler = entered.getHandler();
    Value status = handler->addArgument(b.getI32Type(), entered.getLoc());
    for (Operation &op : llvm::make_early_inc_range(*handler))
      if (auto caught = dyn_cast<CaughtOp>(op)) {
        caught.replaceAllUsesWith(status);
        caught.erase();
      }
  }

  Block *errorReturn = nullptr;
  auto errorTarget = [&](Operation *site) -> Block * {
    if (TryOp entered = catching.lookup(site))
      return entered.getHandler();
    if (errorReturn)
      return errorReturn;
    // The error return: ^error(%status): return %status, placeholders...
    FunctionType type = function.getFunctionType();
    Location l = function.getLoc();
    OpBuilder::InsertionGuard guard(b);
    errorReturn =
        b.createBlock(&function.getBody(), function.getBody().end(), {b.getI32Type()}, {l});
    SmallVector<Value> results = {errorReturn->getArgument(0)};
    for (Type result : type.getResults().drop_front())
      results.push_back(placeholder(b, l, result));
    b.create<func::ReturnOp>(l, results);
    return errorReturn;
  };
  FunctionType type = function.getFunctionType();
  for (Operation *site : sites) {
    if (!catching.count(site) && (type.getNumResults() == 0 || !type.getResult(0).isInteger(32)))
      return site->emitOpError("can raise only in a function that returns an i32 status first");
    Location at = site->getLoc();
    Block *target = errorTarget(site);
    Block *before = site->getBlock();
    Block *next = before->splitBlock(site->getNextNode());
    b.setInsertionPoint(site);
    if (auto check = dyn_cast<CheckStatusOp>(site)) {
      Value failed = b.create<arith::CmpIOp>(at, arith::CmpIPredicate::ne, check.getStatus(),
                                             b.create<arith::ConstantIntOp>(at, 0, 32));
      b.create<cf::CondBranchOp>(at, failed, target, ValueRange{check.getStatus()}, next,
                                 ValueRange{});
      site->erase();
      continue;
    }
    auto raise = cast<RaiseIfOp>(site);
    Value code = b.create<arith::ConstantIntOp>(
        at, table.code(raise.getException(), raise.getMessage(), at), 32);
    SmallVector<Value, 1> targetArgs = {code};
    if (!raise.getValues().empty()) {
      // Record the message's values on the error path only.
      Block *record = b.createBlock(&function.getBody(), Region::iterator(target));
      for (auto [position, value] : llvm::enumerate(raise.getValues()))
        b.create<func::CallOp>(at, kSetErrorArg, TypeRange{},
                               ValueRange{b.create<arith::ConstantIntOp>(at, position, 64), value});
      b.create<cf::BranchOp>(at, target, ValueRange{code});
      target = record;
      targetArgs.clear();
      b.setInsertionPoint(site);
    }
    b.create<cf::CondBranchOp>(at, raise.getCondition(), target, targetArgs, next, ValueRange{});
    site->erase();
  }

  // The scopes are branches now.
  for (TryOp entered : tries) {
    b.setInsertionPoint(entered);
    b.create<cf::BranchOp>(entered.getLoc(), entered.getBody());
    entered.erase();
  }
  function.walk([&](TryEndOp end) { end.erase(); });
  return success();
}

/// plait.exception_matches as comparisons with the codes of the classes it
/// names (the error table is complete: every function's sites are in it).
void lowerMatches(ModuleOp module, const ErrorTable &table) {
  auto bases = module->getAttrOfType<DictionaryAttr>(kExceptionBasesAttrName);
  module.walk([&](ExceptionMatchesOp matches) {
    OpBuilder b(matches);
    Location l = matches.getLoc();
    Value result = b.create<arith::ConstantIntOp>(l, 0, 1);
    for (int32_t code : table.codesOf(matches.getClasses(), bases))
      result = b.create<arith::OrIOp>(
          l, result,
          b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, matches.getStatus(),
                                  b.create<arith::ConstantIntOp>(l, code, 32)));
    matches.replaceAllUsesWith(result);
    matches.erase();
  });
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
    lowerMatches(module, table);
    table.save();
  }
};

} // namespace

std::unique_ptr<Pass> plait::dialect::createLowerRaisePass() { return std::make_unique<LowerRaisePass>(); }
