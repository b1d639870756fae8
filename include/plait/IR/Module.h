//===- Module.h - owned IR and handles into it ------------------*- C++ -*-===//
//
// A Module owns one top-level operation (a builtin.module, or an operation
// built from Python that is not in any block yet) and keeps its Context alive.
// Handles (OperationRef, BlockRef, RegionRef, ValueRef) never dangle:
//
//  - All handles to one operation share a LiveOperation, registered in the
//    context's HandleTable. Erasing an operation through a handle marks the
//    LiveOperations of everything inside it erased; moving an operation into
//    another Module re-points them.
//  - Whenever IR may have been rewritten behind the handles' back (a pass
//    pipeline ran, a Python pass returned), the Module's epoch moves on and
//    older handles refuse to be used (InvalidHandleError). The top-level
//    operation's handles stay valid while the Module owns it.
//  - An operation that uses values of another Module keeps that Module alive,
//    so a value's definition never dies before its uses.
//
// Every method takes the context lock itself; call them without the GIL.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_IR_MODULE_H
#define PLAIT_IR_MODULE_H

#include "plait/IR/Context.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mlir {
class Operation;
class Region;
class Block;
class Value;
class Type;
class Attribute;
class Location;
} // namespace mlir

namespace plait {

class Module;
class OperationRef;
class BlockRef;
class RegionRef;
class ValueRef;

/// What every handle to one operation shares.
struct LiveOperation {
  LiveOperation(Context &context, mlir::Operation *op) : context(context), op(op) {}
  Context &context; // kept alive through `root`
  mlir::Operation *const op;
  // Guarded by HandleTable::mutex.
  std::shared_ptr<Module> root;
  uint64_t epoch = 0; // 0: the root's own top-level operation
  bool erased = false;
  /// Set for handles made inside a callback of native code (a verifier, an
  /// interface model): false once that callback returned.
  std::shared_ptr<std::atomic<bool>> scope;
};

/// A context's handle bookkeeping. `mutex` is a leaf lock: it guards the maps,
/// every LiveOperation's fields, and every Module's `top`, `referenced` and
/// epoch changes; nothing else is acquired while it is held.
struct HandleTable {
  std::mutex mutex;
  std::unordered_map<mlir::Operation *, std::weak_ptr<LiveOperation>> operations;
  std::unordered_map<mlir::Operation *, std::weak_ptr<Module>> roots;
  /// Top-level operations of Modules that died; destroyed by the next holder
  /// of the context lock (a Module may die on any thread, without the lock).
  std::vector<mlir::Operation *> graveyard;
  size_t sweepAt = 1024;
};

class Module : public std::enable_shared_from_this<Module> {
public:
  /// Parses `text`; throws MlirError with the parser's diagnostics (which carry
  /// "sourceName:line:col").
  static std::shared_ptr<Module> parse(std::shared_ptr<Context> context,
                                       const std::string &text,
                                       const std::string &sourceName = "<string>");
  /// An empty builtin.module at `location`.
  static std::shared_ptr<Module> create(std::shared_ptr<Context> context, mlir::Location location);
  /// Takes ownership of `topOp`, an operation of `context` in no block.
  static std::shared_ptr<Module> adopt(std::shared_ptr<Context> context, mlir::Operation *topOp);
  ~Module();

  const std::shared_ptr<Context> &getContext() const { return context; }
  /// The top-level operation (InvalidHandleError once it was erased or moved
  /// into another Module).
  OperationRef getOperation();
  std::string str();

  /// Deep copy (same context).
  std::shared_ptr<Module> clone();

  /// Invalidates every handle made before now (except the top-level op's).
  void invalidateHandles();
  /// Whether operations in other Modules use values defined in this one (a
  /// pass pipeline could then erase a value they use). Under Context::Guard.
  bool isUsedFromOutside();
  /// Whether operations in this one use values defined elsewhere (a
  /// pipeline's threads would then share those values' use lists).
  bool usesOutsideValues();

  /// The top-level operation, or null once it left this Module. Only touch it
  /// under Context::Guard.
  mlir::Operation *getRawOperation();

private:
  friend struct Ownership;
  Module(std::shared_ptr<Context> context, mlir::Operation *top);

  std::shared_ptr<Context> context;
  // Guarded by the HandleTable mutex.
  mlir::Operation *top;
  uint64_t epoch = 1;
  /// Modules whose values operations in this one use.
  std::vector<std::shared_ptr<Module>> referenced;
  /// Operations in no block that this Module owns besides `top`: they and
  /// `top` use each other's values, so they must live and die together.
  std::vector<mlir::Operation *> extraTops;
  /// Made for one operation in no block (not a builtin.module the user
  /// holds): it may be folded into a Module it depends on both ways.
  bool foldable = false;
};

/// What a thread is doing on behalf of native code that limits the changes it
/// may make to IR: running a Python pass (only inside its operation), or a
/// verifier or interface model (no changes: native code is walking the IR).
/// Handles made inside a verifier or model are valid only until it returns.
class CallbackRestrictions {
public:
  /// A verifier or interface model runs on this thread while this lives.
  static CallbackRestrictions readOnly();
  /// A Python pass on `anchor` runs on this thread while this lives.
  static CallbackRestrictions pass(mlir::Operation *anchor);
  ~CallbackRestrictions();
  CallbackRestrictions(CallbackRestrictions &&other) noexcept;
  CallbackRestrictions(const CallbackRestrictions &) = delete;

  /// The token of the innermost read-only callback on this thread, or null.
  static std::shared_ptr<std::atomic<bool>> currentScope();
  /// InvalidArgumentError unless this thread may change `op` (and, unless
  /// `anchorItself`, `op` lies strictly inside a running pass's operation).
  static void checkMayChange(mlir::Operation *op, bool anchorItself = false);

private:
  CallbackRestrictions(bool readOnly, mlir::Operation *anchor);
  bool active = true;
  bool previousReadOnly;
  mlir::Operation *previousAnchor;
  std::shared_ptr<std::atomic<bool>> scope;
  std::shared_ptr<std::atomic<bool>> previousScope;
};

/// A handle to one operation (see the file comment). Compares by operation.
class OperationRef {
public:
  explicit OperationRef(std::shared_ptr<LiveOperation> live) : live(std::move(live)) {}
  /// The handle of `op`, which must be inside some Module of `context`. Only
  /// under Context::Guard.
  static OperationRef of(Context &context, mlir::Operation *op);

  Context &getContext() const { return live->context; }
  /// The Module the operation is in now.
  std::shared_ptr<Module> getModule() const;
  bool isValid() const;
  const void *identity() const { return live->op; }
  bool operator==(const OperationRef &other) const { return live->op == other.live->op; }

  std::string name() const;
  mlir::Location location() const;
  /// MLIR's printed form; `generic` forces the generic op form.
  std::string str(bool generic = false, bool debugInfo = false,
                  int64_t largeElementsLimit = -1) const;
  /// Throws MlirError with the verifier's diagnostics.
  void verify() const;
  void emitError(const std::string &message) const;
  void emitWarning(const std::string &message) const;
  void emitRemark(const std::string &message) const;

  std::vector<std::pair<std::string, mlir::Attribute>> attributes() const;
  void setAttribute(const std::string &name, mlir::Attribute value) const;
  /// Returns false when there was no such attribute.
  bool removeAttribute(const std::string &name) const;

  std::vector<RegionRef> regions() const;
  std::vector<ValueRef> operands() const;
  void setOperand(size_t index, const ValueRef &value) const;
  std::vector<ValueRef> results() const;
  std::vector<BlockRef> successors() const;
  /// The enclosing operation and block, if any.
  std::optional<OperationRef> parent() const;
  std::optional<BlockRef> block() const;
  /// Every nested operation (this one included), in pre-order.
  std::vector<OperationRef> walk() const;

  /// Erases the operation and everything in it; their handles become invalid.
  /// InvalidArgumentError while its results are used outside it.
  void erase() const;
  /// Moves the operation right before/after `anchor` (possibly into another
  /// Module).
  void moveBefore(const OperationRef &anchor) const;
  void moveAfter(const OperationRef &anchor) const;
  /// Takes the operation out of its block into a Module of its own.
  void detachFromParent() const;
  /// A deep copy in a Module of its own.
  OperationRef clone() const;

  /// The operation; throws InvalidHandleError when stale. Only under the Guard.
  mlir::Operation &get() const;
  const std::shared_ptr<LiveOperation> &getLive() const { return live; }

private:
  std::shared_ptr<LiveOperation> live;
};

/// The i-th region of an operation.
class RegionRef {
public:
  RegionRef(OperationRef owner, unsigned index) : owner(std::move(owner)), index(index) {}
  const OperationRef &getOwner() const { return owner; }
  unsigned getIndex() const { return index; }
  std::vector<BlockRef> blocks() const;
  /// Appends a new block with arguments of `types` at `locations`.
  BlockRef appendBlock(const std::vector<mlir::Type> &types,
                       const std::vector<mlir::Location> &locations) const;
  /// Only under the Guard.
  mlir::Region &get() const;

private:
  OperationRef owner;
  unsigned index;
};

/// A block, through the operation whose region holds it.
class BlockRef {
public:
  BlockRef(OperationRef owner, mlir::Block *block) : owner(std::move(owner)), block(block) {}
  const OperationRef &getOwner() const { return owner; }
  const void *identity() const { return block; }
  std::vector<OperationRef> operations() const;
  std::vector<ValueRef> arguments() const;
  ValueRef addArgument(mlir::Type type, mlir::Location location) const;
  RegionRef region() const;
  std::optional<OperationRef> terminator() const;
  /// A new block right before (or after) this one, in the same region.
  BlockRef createNextTo(const std::vector<mlir::Type> &types,
                        const std::vector<mlir::Location> &locations,
                        bool after) const;
  std::string str() const;
  /// Moves the block to the end of `region` and returns its new handle.
  /// Handles into the Modules involved made before become invalid (a block
  /// handle knows its block through the operation that held it).
  BlockRef appendTo(const RegionRef &region) const;
  /// Only under the Guard.
  mlir::Block &get() const;

private:
  OperationRef owner;
  mlir::Block *block;
};

/// An operation's result or a block's argument, through the operation that
/// defines it (for arguments: whose region holds the block).
class ValueRef {
public:
  ValueRef(OperationRef owner, mlir::Value value);
  const OperationRef &getOwner() const { return owner; }
  const void *identity() const { return opaque; }

  bool isBlockArgument() const;
  /// The result's or the argument's number.
  unsigned number() const;
  /// The defining operation; for block arguments their block.
  std::optional<OperationRef> definingOperation() const;
  std::optional<BlockRef> ownerBlock() const;
  mlir::Type type() const;
  void setType(mlir::Type type) const;
  /// (user, operand number) of every use.
  std::vector<std::pair<OperationRef, unsigned>> uses() const;
  void replaceAllUsesWith(const ValueRef &replacement) const;
  std::string str() const;
  /// Only under the Guard.
  mlir::Value get() const;

private:
  OperationRef owner;
  const void *opaque;
  bool argument;
};

/// Where new operations go: the end of `block`, or before `before`.
struct InsertionPoint {
  BlockRef block;
  std::optional<OperationRef> before;
};

/// What Operation.create takes.
struct OperationSpec {
  std::string name;
  std::vector<mlir::Type> resultTypes;
  std::vector<ValueRef> operands;
  std::vector<std::pair<std::string, mlir::Attribute>> attributes;
  std::vector<BlockRef> successors;
  unsigned numRegions = 0;
};

/// Creates an operation at `location`, inserted at `insertionPoint` or else
/// in a Module of its own. InvalidArgumentError for unregistered names (unless
/// the context allows unregistered dialects) and values of other contexts.
OperationRef createOperation(const std::shared_ptr<Context> &context, const OperationSpec &spec,
                             mlir::Location location,
                             const std::optional<InsertionPoint> &insertionPoint);

/// Moves `op`, which must be in no block (a Module of its own), to
/// `insertionPoint`. InvalidArgumentError when it is already in a block.
void insertOperation(const InsertionPoint &insertionPoint, const OperationRef &op);

/// The result types operation `name` infers from its operands and attributes
/// (InvalidArgumentError when it cannot infer them).
std::vector<mlir::Type>
inferResultTypes(Context &context, const std::string &name, const std::vector<ValueRef> &operands,
                 const std::vector<std::pair<std::string, mlir::Attribute>> &attributes,
                 unsigned numRegions, mlir::Location location);

/// Whether the context accepts operations of dialects it does not know.
bool allowsUnregisteredDialects(Context &context);
void setAllowUnregisteredDialects(Context &context, bool allow);

} // namespace plait

#endif // PLAIT_IR_MODULE_H
