//===- PlaitToLLVMIRTranslation.cpp - plait's attributes in LLVM IR -------===//
//
// plait.nsw on an integer add, sub or mul of the LLVM dialect (from a
// `proven` plait.add, sub or mul) becomes LLVM's nsw flag. LLVM then knows,
// for instance, that i * i is non-negative, and divides it by a constant
// with a shorter sequence. The translation calls amendOperation after it
// has converted the operation, so its result is mapped.
//
//===----------------------------------------------------------------------===//
#include "plait/Target/PlaitToLLVMIRTranslation.h"
#include "plait/Dialect/Plait/Passes.h"
#include "plait/Dialect/Plait/PlaitDialect.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Target/LLVMIR/ModuleTranslation.h"

#include "llvm/IR/Instruction.h"
#include "llvm/IR/Operator.h"

using namespace mlir;

namespace {

class PlaitToLLVMIRTranslationInterface : public LLVMTranslationDialectInterface {
public:
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;

  LogicalResult amendOperation(Operation *op, NamedAttribute attribute,
                               LLVM::ModuleTranslation &moduleTranslation) const override {
    if (attribute.getName() != plait::dialect::kNoSignedWrapAttrName || op->getNumResults() != 1)
      return success();
    // (A folded constant has no flags.)
    auto *instruction =
        llvm::dyn_cast_or_null<llvm::Instruction>(moduleTranslation.lookupValue(op->getResult(0)));
    if (instruction && llvm::isa<llvm::OverflowingBinaryOperator>(instruction))
      instruction->setHasNoSignedWrap(true);
    return success();
  }
};

} // namespace

void plait::registerPlaitToLLVMIRTranslation(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, dialect::PlaitDialect *plaitDialect) {
    plaitDialect->addInterfaces<PlaitToLLVMIRTranslationInterface>();
  });
}
