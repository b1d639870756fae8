//===- Extensions.cpp - operations and interface models defined at run time ===//
#include "plait/IR/Extensions.h"
#include "InterfaceModelTable.h"
#include "Ownership.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/ExtensibleDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/TypeID.h"

#include <map>
#include <mutex>
#include <utility>

namespace plait {
namespace {

//===----------------------------------------------------------------------===//
// Resources and type ids made at run time
//===----------------------------------------------------------------------===//

/// Type ids for run-time operations and resources; they live as long as the
/// process, like the TypeIDs of compiled classes.
mlir::TypeID allocateTypeID() {
  static std::mutex mutex;
  static auto *allocator = new mlir::TypeIDAllocator();
  std::lock_guard<std::mutex> lock(mutex);
  return allocator->allocate();
}

/// A side-effect resource known by name: one instance per name and process,
/// so that effects on the same name compare equal.
class NamedResource : public mlir::SideEffects::Resource {
public:
  explicit NamedResource(std::string name)
      : Resource(allocateTypeID()), name(std::move(name)) {}
  llvm::StringRef getName() final { return name; }

private:
  std::string name;
};

mlir::SideEffects::Resource *resourceNamed(const std::string &name) {
  if (name.empty())
    return mlir::SideEffects::DefaultResource::get();
  if (name == "AutomaticAllocationScope")
    return mlir::SideEffects::AutomaticAllocationScopeResource::get();
  static std::mutex mutex;
  static auto *resources = new std::map<std::string, std::unique_ptr<NamedResource>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<NamedResource> &resource = (*resources)[name];
  if (!resource)
    resource = std::make_unique<NamedResource>(name);
  return resource.get();
}

mlir::MemoryEffects::Effect *effectOf(EffectInfo::Kind kind) {
  switch (kind) {
  case EffectInfo::Kind::Read:
    return mlir::MemoryEffects::Read::get();
  case EffectInfo::Kind::Write:
    return mlir::MemoryEffects::Write::get();
  case EffectInfo::Kind::Allocate:
    return mlir::MemoryEffects::Allocate::get();
  case EffectInfo::Kind::Free:
    return mlir::MemoryEffects::Free::get();
  }
  return mlir::MemoryEffects::Write::get();
}

EffectInfo::Kind kindOf(mlir::MemoryEffects::Effect *effect) {
  if (llvm::isa<mlir::MemoryEffects::Read>(effect))
    return EffectInfo::Kind::Read;
  if (llvm::isa<mlir::MemoryEffects::Allocate>(effect))
    return EffectInfo::Kind::Allocate;
  if (llvm::isa<mlir::MemoryEffects::Free>(effect))
    return EffectInfo::Kind::Free;
  return EffectInfo::Kind::Write;
}

//===----------------------------------------------------------------------===//
// Models calling back
//===----------------------------------------------------------------------===//

template <typename Fn>
std::shared_ptr<const Fn>
lookupCallback(std::unordered_map<std::string, std::shared_ptr<const Fn>> &map,
               InterfaceModelTable &table, mlir::Operation *op) {
  std::lock_guard<std::mutex> lock(table.mutex);
  auto it = map.find(op->getName().getStringRef().str());
  return it == map.end() ? nullptr : it->second;
}

/// Runs `call` as a callback of the operation holding the context lock (a
/// pipeline, a verifier, a query), so that reading IR from the callback does
/// not wait for that lock. The callback may not change the IR (native code is
/// walking it), and the handles it makes are valid only while it runs.
template <typename Call>
bool runCallback(Context &context, mlir::Operation *op, std::string &error, Call call) {
  Context::CallbackScope scope(context);
  CallbackRestrictions restrictions = CallbackRestrictions::readOnly();
  try {
    return call(OperationRef::of(context, op));
  } catch (const std::exception &exception) {
    error = exception.what();
    return false;
  }
}

/// Runs `op`'s callback from `member` through `call`. When there is none or it
/// fails: counts the failure and emits an error naming `interface`.
template <typename Fn, typename Call>
bool callModel(mlir::Operation *op,
               std::unordered_map<std::string, std::shared_ptr<const Fn>>
                   InterfaceModelTable::*member,
               const char *interface, Call call) {
  Context &context = Context::fromMLIR(op->getContext());
  InterfaceModelTable &table = context.getInterfaceModels();
  std::shared_ptr<const Fn> callback = lookupCallback(table.*member, table, op);
  std::string error = "no model is attached";
  if (callback && runCallback(context, op, error, [&](const OperationRef &ref) {
        return call(*callback, ref, error);
      }))
    return true;
  context.noteCallbackFailure();
  op->emitError() << "the Python model of " << interface << " for '"
                  << op->getName() << "' failed: " << error;
  return false;
}

struct EffectsModel
    : mlir::MemoryEffectOpInterface::FallbackModel<EffectsModel> {
  void getEffects(mlir::Operation *op,
                  llvm::SmallVectorImpl<mlir::MemoryEffects::EffectInstance>
                      &effects) const {
    llvm::SmallVector<mlir::MemoryEffects::EffectInstance> answer;
    // Converted inside the callback, so that a bad answer (a stale value) is
    // the model's failure, not an exception escaping into MLIR.
    auto convert = [&](const EffectsFn &fn, const OperationRef &ref, std::string &error) {
      std::vector<EffectInfo> infos;
      if (!fn(ref, infos, error))
        return false;
      for (const EffectInfo &info : infos) {
        mlir::SideEffects::Resource *resource = resourceNamed(info.resource);
        if (info.value) {
          mlir::Value value = info.value->get();
          if (value.getContext() != op->getContext())
            throw InvalidArgumentError("an effect's value belongs to a different Context");
          answer.emplace_back(effectOf(info.kind), value, resource);
        } else if (info.symbol) {
          answer.emplace_back(effectOf(info.kind),
                              mlir::SymbolRefAttr::getFromOpaquePointer(info.symbol), resource);
        } else {
          answer.emplace_back(effectOf(info.kind), resource);
        }
      }
      return true;
    };
    if (!callModel(op, &InterfaceModelTable::effects, "MemoryEffectsOpInterface", convert)) {
      // Conservatively: every effect on everything.
      for (auto kind : {EffectInfo::Kind::Read, EffectInfo::Kind::Write,
                        EffectInfo::Kind::Allocate, EffectInfo::Kind::Free})
        effects.emplace_back(effectOf(kind), mlir::SideEffects::DefaultResource::get());
      return;
    }
    effects.append(answer.begin(), answer.end());
  }
};

struct SpeculationModel
    : mlir::ConditionallySpeculatable::FallbackModel<SpeculationModel> {
  mlir::Speculation::Speculatability getSpeculatability(mlir::Operation *op) const {
    Speculatability answer = Speculatability::NotSpeculatable;
    if (!callModel(op, &InterfaceModelTable::speculatability,
                   "ConditionallySpeculatable",
                   [&](const SpeculatabilityFn &fn, const OperationRef &ref,
                       std::string &error) { return fn(ref, answer, error); }))
      return mlir::Speculation::NotSpeculatable;
    switch (answer) {
    case Speculatability::Speculatable:
      return mlir::Speculation::Speculatable;
    case Speculatability::RecursivelySpeculatable:
      return mlir::Speculation::RecursivelySpeculatable;
    case Speculatability::NotSpeculatable:
      break;
    }
    return mlir::Speculation::NotSpeculatable;
  }
};

/// The NoMemoryEffect and AlwaysSpeculatable traits: fixed answers, no call.
struct NoEffectsModel
    : mlir::MemoryEffectOpInterface::FallbackModel<NoEffectsModel> {
  void getEffects(mlir::Operation *,
                  llvm::SmallVectorImpl<mlir::MemoryEffects::EffectInstance> &) const {}
};

struct AlwaysSpeculatableModel
    : mlir::ConditionallySpeculatable::FallbackModel<AlwaysSpeculatableModel> {
  mlir::Speculation::Speculatability getSpeculatability(mlir::Operation *) const {
    return mlir::Speculation::Speculatable;
  }
};

//===----------------------------------------------------------------------===//
// Operations defined at run time
//===----------------------------------------------------------------------===//

/// Like MLIR's DynamicOpDefinition, but with traits and interfaces.
class DynamicOperation : public mlir::OperationName::Impl {
public:
  DynamicOperation(llvm::StringRef name, mlir::Dialect *dialect,
                   mlir::detail::InterfaceMap interfaces, DynamicOpSpec spec)
      : Impl(name, dialect, allocateTypeID(), std::move(interfaces)),
        spec(std::move(spec)) {}

  mlir::LogicalResult foldHook(mlir::Operation *, llvm::ArrayRef<mlir::Attribute>,
                               llvm::SmallVectorImpl<mlir::OpFoldResult> &) final {
    return mlir::failure();
  }
  void getCanonicalizationPatterns(mlir::RewritePatternSet &,
                                   mlir::MLIRContext *) final {}
  bool hasTrait(mlir::TypeID id) final {
    return (spec.isTerminator && id == mlir::TypeID::get<mlir::OpTrait::IsTerminator>()) ||
           (spec.isCommutative && id == mlir::TypeID::get<mlir::OpTrait::IsCommutative>()) ||
           (spec.noTerminator && id == mlir::TypeID::get<mlir::OpTrait::NoTerminator>()) ||
           (spec.isolatedFromAbove &&
            id == mlir::TypeID::get<mlir::OpTrait::IsIsolatedFromAbove>()) ||
           (spec.sameOperandsAndResultType &&
            id == mlir::TypeID::get<mlir::OpTrait::SameOperandsAndResultType>());
  }
  mlir::OperationName::ParseAssemblyFn getParseAssemblyFn() final {
    return [](mlir::OpAsmParser &parser, mlir::OperationState &) {
      return parser.emitError(parser.getCurrentLocation(),
                              "operations defined at run time have no custom "
                              "assembly format: use the generic form");
    };
  }
  void populateDefaultAttrs(const mlir::OperationName &,
                            mlir::NamedAttrList &) final {}
  void printAssembly(mlir::Operation *op, mlir::OpAsmPrinter &printer,
                     llvm::StringRef) final {
    printer.printGenericOp(op);
  }
  mlir::LogicalResult verifyInvariants(mlir::Operation *op) final;
  mlir::LogicalResult verifyRegionInvariants(mlir::Operation *op) final {
    if (spec.isolatedFromAbove)
      return mlir::OpTrait::impl::verifyIsIsolatedFromAbove(op);
    return mlir::success();
  }

private:
  DynamicOpSpec spec;
};

mlir::LogicalResult checkCount(mlir::Operation *op, const char *what,
                               int expected, unsigned actual) {
  if (expected < 0 || static_cast<unsigned>(expected) == actual)
    return mlir::success();
  return op->emitOpError() << "expects " << expected << " " << what << ", got "
                           << actual;
}

mlir::LogicalResult DynamicOperation::verifyInvariants(mlir::Operation *op) {
  if (mlir::failed(checkCount(op, "operands", spec.numOperands, op->getNumOperands())) ||
      mlir::failed(checkCount(op, "results", spec.numResults, op->getNumResults())) ||
      mlir::failed(checkCount(op, "regions", spec.numRegions, op->getNumRegions())))
    return mlir::failure();
  if (spec.sameOperandsAndResultType &&
      mlir::failed(mlir::OpTrait::impl::verifySameOperandsAndResultType(op)))
    return mlir::failure();
  if (spec.isTerminator && mlir::failed(mlir::OpTrait::impl::verifyIsTerminator(op)))
    return mlir::failure();
  if (!spec.verify)
    return mlir::success();
  Context &context = Context::fromMLIR(op->getContext());
  std::string error;
  if (runCallback(context, op, error, [&](const OperationRef &ref) {
        return spec.verify(ref, error);
      }))
    return mlir::success();
  return op->emitOpError() << error;
}

bool isBuiltinDialect(mlir::MLIRContext &context, llvm::StringRef name) {
  if (context.getDialectRegistry().getDialectAllocator(name))
    return true;
  mlir::Dialect *loaded = context.getLoadedDialect(name);
  return loaded && !llvm::isa<mlir::DynamicDialect>(loaded);
}

template <typename Model, typename Fn>
void attachModel(Context &context, const std::string &opName,
                 std::unordered_map<std::string, std::shared_ptr<const Fn>> &map,
                 Fn callback, const char *interface) {
  Context::Guard guard(context);
  mlir::MLIRContext &mlirContext = context.getMLIRContext();
  mlirContext.getOrLoadDialect(llvm::StringRef(opName).split('.').first);
  std::optional<mlir::RegisteredOperationName> name =
      mlir::RegisteredOperationName::lookup(opName, &mlirContext);
  if (!name)
    throw InvalidArgumentError("'" + opName + "' is not a registered operation");
  InterfaceModelTable &table = context.getInterfaceModels();
  bool ours;
  {
    std::lock_guard<std::mutex> lock(table.mutex);
    ours = map.count(opName) != 0;
  }
  if (!ours && name->hasInterface<typename Model::Interface>())
    throw InvalidArgumentError("'" + opName + "' already implements " +
                               interface);
  std::shared_ptr<const Fn> replaced; // released after unlocking: it takes the GIL
  {
    std::lock_guard<std::mutex> lock(table.mutex);
    replaced = std::exchange(map[opName], std::make_shared<const Fn>(std::move(callback)));
  }
  if (!name->hasInterface<typename Model::Interface>())
    name->attachInterface<Model>();
}

} // namespace

void registerDynamicOperation(Context &context, DynamicOpSpec spec) {
  Context::Guard guard(context);
  mlir::MLIRContext &mlirContext = context.getMLIRContext();
  if (spec.dialect.empty() || spec.name.empty())
    throw InvalidArgumentError("an operation needs a dialect and a name");
  if (isBuiltinDialect(mlirContext, spec.dialect))
    throw InvalidArgumentError("'" + spec.dialect +
                               "' is a built-in dialect: operations defined at "
                               "run time need a dialect of their own");
  std::string fullName = spec.dialect + "." + spec.name;
  mlir::DynamicDialect *dialect =
      mlirContext.getOrLoadDynamicDialect(spec.dialect, [](mlir::DynamicDialect *) {});
  if (mlir::RegisteredOperationName::lookup(fullName, &mlirContext))
    throw InvalidArgumentError("'" + fullName +
                               "' is already registered in this context");
  mlir::detail::InterfaceMap interfaces;
  if (spec.noMemoryEffect)
    interfaces.insertModels<NoEffectsModel>();
  else if (spec.effects)
    interfaces.insertModels<EffectsModel>();
  if (spec.alwaysSpeculatable)
    interfaces.insertModels<AlwaysSpeculatableModel>();
  else if (spec.speculatability)
    interfaces.insertModels<SpeculationModel>();
  InterfaceModelTable &table = context.getInterfaceModels();
  {
    std::lock_guard<std::mutex> lock(table.mutex);
    if (spec.effects && !spec.noMemoryEffect)
      table.effects[fullName] = std::make_shared<const EffectsFn>(spec.effects);
    if (spec.speculatability && !spec.alwaysSpeculatable)
      table.speculatability[fullName] =
          std::make_shared<const SpeculatabilityFn>(spec.speculatability);
  }
  mlir::RegisteredOperationName::insert(
      std::make_unique<DynamicOperation>(fullName, dialect,
                                         std::move(interfaces), std::move(spec)),
      /*attrNames=*/{});
}

void attachMemoryEffectsModel(Context &context, const std::string &opName,
                              EffectsFn effects) {
  attachModel<EffectsModel>(context, opName, context.getInterfaceModels().effects,
                            std::move(effects), "MemoryEffectsOpInterface");
}

void attachSpeculatabilityModel(Context &context, const std::string &opName,
                                SpeculatabilityFn speculatability) {
  attachModel<SpeculationModel>(context, opName,
                                context.getInterfaceModels().speculatability,
                                std::move(speculatability),
                                "ConditionallySpeculatable");
}

std::optional<std::vector<EffectInfo>> memoryEffectsOf(const OperationRef &op) {
  Context::Guard guard(op.getContext());
  Context::Capture capture(op.getContext());
  auto interface = llvm::dyn_cast<mlir::MemoryEffectOpInterface>(op.get());
  if (!interface)
    return std::nullopt;
  llvm::SmallVector<mlir::MemoryEffects::EffectInstance> effects;
  interface.getEffects(effects);
  std::vector<DiagnosticInfo> errors = capture.take();
  if (!errors.empty())
    throw MlirError("MemoryEffectsOpInterface.get_effects failed", errors);
  std::vector<EffectInfo> result;
  for (const mlir::MemoryEffects::EffectInstance &effect : effects) {
    EffectInfo info;
    info.kind = kindOf(effect.getEffect());
    mlir::SideEffects::Resource *resource = effect.getResource();
    if (!llvm::isa<mlir::SideEffects::DefaultResource>(resource))
      info.resource = resource->getName().str();
    if (mlir::Value value = effect.getValue()) {
      mlir::Operation *definer = value.getDefiningOp();
      if (!definer)
        definer = value.getParentBlock()->getParentOp();
      info.value = ValueRef(OperationRef::of(op.getContext(), definer), value);
    } else if (mlir::SymbolRefAttr symbol = effect.getSymbolRef()) {
      info.symbol = symbol.getAsOpaquePointer();
    }
    result.push_back(std::move(info));
  }
  return result;
}

std::optional<Speculatability> speculatabilityOf(const OperationRef &op) {
  Context::Guard guard(op.getContext());
  Context::Capture capture(op.getContext());
  auto interface = llvm::dyn_cast<mlir::ConditionallySpeculatable>(op.get());
  if (!interface)
    return std::nullopt;
  mlir::Speculation::Speculatability answer = interface.getSpeculatability();
  std::vector<DiagnosticInfo> errors = capture.take();
  if (!errors.empty())
    throw MlirError("ConditionallySpeculatable.get_speculatability failed",
                    errors);
  switch (answer) {
  case mlir::Speculation::Speculatable:
    return Speculatability::Speculatable;
  case mlir::Speculation::RecursivelySpeculatable:
    return Speculatability::RecursivelySpeculatable;
  case mlir::Speculation::NotSpeculatable:
    break;
  }
  return Speculatability::NotSpeculatable;
}

} // namespace plait
