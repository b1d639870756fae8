//===- Module.h - modules and handles to their IR ---------------*- C++ -*-===//
//
// A Module owns a builtin.module and keeps its Context alive. Handles to IR
// inside it (OperationRef, RegionRef, BlockRef) keep the Module alive and carry
// the module's "epoch" from when they were made: whenever IR may have been
// erased (a pass pipeline ran, a Python pass returned), the epoch moves on and
// older handles refuse to be used (InvalidHandleError) instead of dangling. The
// module's own top-level operation is never erased and stays valid.
//
// Every method takes the context lock itself; call them without the GIL.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_IR_MODULE_H
#define PLAIT_IR_MODULE_H

#include "plait/IR/Context.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class Operation;
class Region;
class Block;
} // namespace mlir

namespace plait {

class OperationRef;

class Module : public std::enable_shared_from_this<Module> {
public:
  /// Parses `text`; throws MlirError with the parser's diagnostics (which carry
  /// "sourceName:line:col").
  static std::shared_ptr<Module> parse(std::shared_ptr<Context> context,
                                       const std::string &text,
                                       const std::string &sourceName = "<string>");
  /// Takes ownership of `moduleOp` (a builtin.module of `context`).
  static std::shared_ptr<Module> adopt(std::shared_ptr<Context> context,
                                       mlir::Operation *moduleOp);
  ~Module();

  const std::shared_ptr<Context> &getContext() const { return context; }
  OperationRef getOperation();
  std::string str();

  /// Deep copy (same context).
  std::shared_ptr<Module> clone();

  /// Invalidates every handle made before now (except the top-level op's).
  void invalidateHandles() { epoch.fetch_add(1); }
  uint64_t currentEpoch() const { return epoch.load(); }

  /// The raw module operation: only touch it under Context::Guard.
  mlir::Operation *getRawOperation() const { return moduleOp; }

private:
  Module(std::shared_ptr<Context> context, mlir::Operation *moduleOp);

  std::shared_ptr<Context> context;
  mlir::Operation *moduleOp;
  std::atomic<uint64_t> epoch{1};
};

/// A simple attribute value: the types Python can map directly, or MLIR's text.
struct AttributeValue {
  enum class Kind { Integer, Float, Bool, String, Other };
  Kind kind = Kind::Other;
  int64_t integer = 0;
  double floating = 0;
  bool boolean = false;
  /// The string for Kind::String, MLIR's printed form for Kind::Other.
  std::string text;
};

class RegionRef;
class BlockRef;

/// A handle to one operation in a Module (see the file comment).
class OperationRef {
public:
  /// Epoch 0 marks the module's top-level operation: always valid.
  OperationRef(std::shared_ptr<Module> module, mlir::Operation *op,
               uint64_t epoch)
      : module(std::move(module)), op(op), epoch(epoch) {}

  const std::shared_ptr<Module> &getModule() const { return module; }
  Context &getContext() const { return *module->getContext(); }
  bool isValid() const;

  std::string name() const;
  std::string location() const;
  std::string str() const;
  /// Throws MlirError with the verifier's diagnostics.
  void verify() const;
  void emitError(const std::string &message) const;
  void emitWarning(const std::string &message) const;

  std::vector<std::pair<std::string, AttributeValue>> attributes() const;
  /// Kind::Other values are parsed from their text (InvalidArgumentError when
  /// that fails).
  void setAttribute(const std::string &name, const AttributeValue &value) const;
  /// Returns false when there was no such attribute.
  bool removeAttribute(const std::string &name) const;

  std::vector<RegionRef> regions() const;
  /// Every nested operation (this one included), in pre-order.
  std::vector<OperationRef> walk() const;

  /// The operation; throws InvalidHandleError when stale. Only under the Guard.
  mlir::Operation &get() const;

private:
  std::shared_ptr<Module> module;
  mlir::Operation *op;
  uint64_t epoch;
};

class RegionRef {
public:
  RegionRef(std::shared_ptr<Module> module, mlir::Region *region,
            uint64_t epoch)
      : module(std::move(module)), region(region), epoch(epoch) {}
  std::vector<BlockRef> blocks() const;

private:
  std::shared_ptr<Module> module;
  mlir::Region *region;
  uint64_t epoch;
};

class BlockRef {
public:
  BlockRef(std::shared_ptr<Module> module, mlir::Block *block, uint64_t epoch)
      : module(std::move(module)), block(block), epoch(epoch) {}
  std::vector<OperationRef> operations() const;
  size_t numArguments() const;

private:
  std::shared_ptr<Module> module;
  mlir::Block *block;
  uint64_t epoch;
};

} // namespace plait

#endif // PLAIT_IR_MODULE_H
