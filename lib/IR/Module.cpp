//===- Module.cpp - modules and handles to their IR -----------------------===//
#include "plait/IR/Module.h"
#include "plait/IR/MLIRUtils.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace plait {

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(std::shared_ptr<Context> context, mlir::Operation *moduleOp)
    : context(std::move(context)), moduleOp(moduleOp) {}

Module::~Module() {
  // No context lock: destroying a module touches only its own operations (the
  // context's uniqued attributes and types are immutable), and no handle into
  // it can exist any more since every handle keeps the module alive.
  moduleOp->destroy();
}

std::shared_ptr<Module> Module::adopt(std::shared_ptr<Context> context,
                                      mlir::Operation *moduleOp) {
  return std::shared_ptr<Module>(new Module(std::move(context), moduleOp));
}

std::shared_ptr<Module> Module::parse(std::shared_ptr<Context> context,
                                      const std::string &text,
                                      const std::string &sourceName) {
  Context::Guard guard(*context);
  Context::Capture capture(*context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, sourceName), llvm::SMLoc());
  mlir::ParserConfig config(&context->getMLIRContext());
  mlir::OwningOpRef<mlir::ModuleOp> parsed =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!parsed)
    capture.fail("Unable to parse module assembly");
  return adopt(std::move(context), parsed.release().getOperation());
}

OperationRef Module::getOperation() {
  return OperationRef(shared_from_this(), moduleOp, /*epoch=*/0);
}

std::string Module::str() { return getOperation().str(); }

std::shared_ptr<Module> Module::clone() {
  Context::Guard guard(*context);
  return adopt(context, moduleOp->clone());
}

//===----------------------------------------------------------------------===//
// OperationRef
//===----------------------------------------------------------------------===//

static void checkEpoch(const Module &module, uint64_t epoch, const char *what) {
  if (epoch != 0 && epoch != module.currentEpoch())
    throw InvalidHandleError(
        std::string("this ") + what +
        " handle is no longer valid: the IR it referred to may have been "
        "erased or rewritten by a pass pipeline since the handle was made");
}

bool OperationRef::isValid() const {
  return epoch == 0 || epoch == module->currentEpoch();
}

mlir::Operation &OperationRef::get() const {
  checkEpoch(*module, epoch, "operation");
  return *op;
}

std::string OperationRef::name() const {
  Context::Guard guard(getContext());
  return get().getName().getStringRef().str();
}

std::string OperationRef::location() const {
  Context::Guard guard(getContext());
  return locationToString(get().getLoc());
}

std::string OperationRef::str() const {
  Context::Guard guard(getContext());
  std::string text;
  llvm::raw_string_ostream os(text);
  get().print(os);
  os.flush();
  return text;
}

void OperationRef::verify() const {
  Context::Guard guard(getContext());
  Context::Capture capture(getContext());
  if (mlir::failed(mlir::verify(&get())))
    capture.fail("Verification failed");
}

void OperationRef::emitError(const std::string &message) const {
  Context::Guard guard(getContext());
  get().emitError(message);
}

void OperationRef::emitWarning(const std::string &message) const {
  Context::Guard guard(getContext());
  get().emitWarning(message);
}

static AttributeValue toAttributeValue(mlir::Attribute attribute) {
  AttributeValue value;
  if (auto boolean = attribute.dyn_cast<mlir::BoolAttr>()) {
    value.kind = AttributeValue::Kind::Bool;
    value.boolean = boolean.getValue();
  } else if (auto integer = attribute.dyn_cast<mlir::IntegerAttr>();
             integer && integer.getValue().getMinSignedBits() <= 64) {
    value.kind = AttributeValue::Kind::Integer;
    value.integer = integer.getType().isUnsignedInteger()
                        ? static_cast<int64_t>(integer.getValue().getZExtValue())
                        : integer.getValue().getSExtValue();
  } else if (auto floating = attribute.dyn_cast<mlir::FloatAttr>()) {
    value.kind = AttributeValue::Kind::Float;
    value.floating = floating.getValueAsDouble();
  } else if (auto string = attribute.dyn_cast<mlir::StringAttr>()) {
    value.kind = AttributeValue::Kind::String;
    value.text = string.getValue().str();
  } else {
    llvm::raw_string_ostream os(value.text);
    attribute.print(os);
    os.flush();
  }
  return value;
}

std::vector<std::pair<std::string, AttributeValue>>
OperationRef::attributes() const {
  Context::Guard guard(getContext());
  std::vector<std::pair<std::string, AttributeValue>> result;
  for (const mlir::NamedAttribute &named : get().getAttrs())
    result.emplace_back(named.getName().str(),
                        toAttributeValue(named.getValue()));
  return result;
}

void OperationRef::setAttribute(const std::string &name,
                                const AttributeValue &value) const {
  Context::Guard guard(getContext());
  mlir::Operation &operation = get();
  mlir::MLIRContext *mlirContext = operation.getContext();
  mlir::Attribute attribute;
  switch (value.kind) {
  case AttributeValue::Kind::Integer:
    attribute = mlir::IntegerAttr::get(mlir::IntegerType::get(mlirContext, 64),
                                       value.integer);
    break;
  case AttributeValue::Kind::Float:
    attribute = mlir::FloatAttr::get(mlir::Float64Type::get(mlirContext),
                                     value.floating);
    break;
  case AttributeValue::Kind::Bool:
    attribute = mlir::BoolAttr::get(mlirContext, value.boolean);
    break;
  case AttributeValue::Kind::String:
    attribute = mlir::StringAttr::get(mlirContext, value.text);
    break;
  case AttributeValue::Kind::Other:
    attribute = mlir::parseAttribute(value.text, mlirContext);
    if (!attribute)
      throw InvalidArgumentError("cannot parse attribute '" + value.text + "'");
    break;
  }
  operation.setAttr(name, attribute);
}

bool OperationRef::removeAttribute(const std::string &name) const {
  Context::Guard guard(getContext());
  return static_cast<bool>(get().removeAttr(name));
}

std::vector<RegionRef> OperationRef::regions() const {
  Context::Guard guard(getContext());
  std::vector<RegionRef> result;
  for (mlir::Region &region : get().getRegions())
    result.emplace_back(module, &region, epoch);
  return result;
}

std::vector<OperationRef> OperationRef::walk() const {
  Context::Guard guard(getContext());
  uint64_t current = module->currentEpoch();
  std::vector<OperationRef> result;
  mlir::Operation *root = &get();
  root->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *nested) {
    result.emplace_back(module, nested, nested == root ? epoch : current);
  });
  return result;
}

//===----------------------------------------------------------------------===//
// RegionRef and BlockRef
//===----------------------------------------------------------------------===//

std::vector<BlockRef> RegionRef::blocks() const {
  Context::Guard guard(*module->getContext());
  checkEpoch(*module, epoch, "region");
  std::vector<BlockRef> result;
  for (mlir::Block &block : *region)
    result.emplace_back(module, &block, epoch);
  return result;
}

std::vector<OperationRef> BlockRef::operations() const {
  Context::Guard guard(*module->getContext());
  checkEpoch(*module, epoch, "block");
  uint64_t current = module->currentEpoch();
  std::vector<OperationRef> result;
  for (mlir::Operation &operation : *block)
    result.emplace_back(module, &operation, current);
  return result;
}

size_t BlockRef::numArguments() const {
  Context::Guard guard(*module->getContext());
  checkEpoch(*module, epoch, "block");
  return block->getNumArguments();
}

} // namespace plait
