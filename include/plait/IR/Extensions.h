//===- Extensions.h - operations and interface models defined at run time -===//
//
// Operations defined while the program runs (plait.dialects.ext) and models
// of MemoryEffectOpInterface / ConditionallySpeculatable implemented outside
// the core (in Python). Native passes query the models while a pipeline runs
// detached from the interpreter; the callbacks passed here must therefore
// attach themselves (take the GIL) and must not throw. A callback that fails
// makes the model emit an error diagnostic on the operation and answer
// conservatively (every effect; not speculatable), and the pipeline fails.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_IR_EXTENSIONS_H
#define PLAIT_IR_EXTENSIONS_H

#include "plait/IR/Module.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace plait {

/// One memory effect, as MemoryEffects::EffectInstance describes it.
struct EffectInfo {
  enum class Kind { Read, Write, Allocate, Free };
  Kind kind = Kind::Write;
  std::optional<ValueRef> value;
  /// A SymbolRefAttr, or null.
  const void *symbol = nullptr;
  /// "" for the default resource, "AutomaticAllocationScope", or any other
  /// name (one resource per name and process).
  std::string resource;
};

enum class Speculatability { NotSpeculatable, Speculatable, RecursivelySpeculatable };

/// Return false and set `error` when the model failed.
using EffectsFn = std::function<bool(const OperationRef &,
                                     std::vector<EffectInfo> &, std::string &)>;
using SpeculatabilityFn = std::function<bool(const OperationRef &,
                                             Speculatability &, std::string &)>;
using VerifyFn = std::function<bool(const OperationRef &, std::string &)>;

/// An operation defined at run time. Counts of -1 accept any number.
struct DynamicOpSpec {
  std::string dialect;
  std::string name; // without the dialect prefix
  int numOperands = -1;
  int numResults = -1;
  int numRegions = 0;
  bool isTerminator = false;
  bool isCommutative = false;
  bool noTerminator = false;
  bool isolatedFromAbove = false;
  bool sameOperandsAndResultType = false;
  /// Fixed answers (no callback): NoMemoryEffect / AlwaysSpeculatable.
  bool noMemoryEffect = false;
  bool alwaysSpeculatable = false;
  /// Run after the structural checks above; empty when there is none.
  VerifyFn verify;
  EffectsFn effects;
  SpeculatabilityFn speculatability;
};

/// Registers `spec` in `context` (its dialect is created on first use).
/// InvalidArgumentError when the name is taken or the dialect is a built-in
/// one.
void registerDynamicOperation(Context &context, DynamicOpSpec spec);

/// Attaches models to the registered operation `opName` (or replaces the
/// ones attached before). InvalidArgumentError for unknown operations and
/// for operations that implement the interface natively.
void attachMemoryEffectsModel(Context &context, const std::string &opName,
                              EffectsFn effects);
void attachSpeculatabilityModel(Context &context, const std::string &opName,
                                SpeculatabilityFn speculatability);

/// The interface's answer for `op`, or nullopt when `op` does not implement
/// it. MlirError when a model failed.
std::optional<std::vector<EffectInfo>> memoryEffectsOf(const OperationRef &op);
std::optional<Speculatability> speculatabilityOf(const OperationRef &op);

} // namespace plait

#endif // PLAIT_IR_EXTENSIONS_H
