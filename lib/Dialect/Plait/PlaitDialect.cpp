//===- PlaitDialect.cpp - the plait dialect -------------------------------===//
#include "plait/Dialect/Plait/PlaitDialect.h"
#include "plait/Dialect/Plait/PlaitOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace plait::dialect;

#include "plait/Dialect/Plait/PlaitDialect.cpp.inc"
#include "plait/Dialect/Plait/PlaitEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "plait/Dialect/Plait/PlaitTypes.cpp.inc"

namespace {

/// Every plait operation may be inlined: raising and loops mean the same in
/// a caller (raising leaves the caller then, with the same status).
struct PlaitInlinerInterface : public mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation *, mlir::Region *, bool, mlir::IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(mlir::Region *, mlir::Region *, bool, mlir::IRMapping &) const final {
    return true;
  }
  /// The inliner shows every terminator of an inlined callee's blocks to its
  /// dialect; plait.try is one, and none of plait's returns.
  void handleTerminator(mlir::Operation *, mlir::Block *) const final {}
};

} // namespace

mlir::Operation *PlaitDialect::materializeConstant(mlir::OpBuilder &builder, mlir::Attribute value,
                                                   mlir::Type type, mlir::Location loc) {
  // Folded results are integers and indices: arith's constants.
  if (!mlir::arith::ConstantOp::isBuildableWith(value, type))
    return nullptr;
  return builder.create<mlir::arith::ConstantOp>(loc, value, type);
}

void PlaitDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "plait/Dialect/Plait/PlaitOps.cpp.inc"
      >();
  addInterfaces<PlaitInlinerInterface>();
  registerTypes();
}

void PlaitDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "plait/Dialect/Plait/PlaitTypes.cpp.inc"
      >();
}
