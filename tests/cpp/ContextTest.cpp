//===- ContextTest.cpp - context locking, handles and diagnostics ---------===//
#include "TestUtil.h"
#include "plait/IR/Module.h"
#include "plait/Pass/PassManager.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "plait/Support/Rendezvous.h"

#include <gtest/gtest.h>

#include <thread>

using namespace plait;

TEST(ContextTest, ParseFailureCarriesLineAndColumn) {
  auto context = Context::create();
  try {
    Module::parse(context, "func.func @f() {\n  return %x : i64\n}", "bad.mlir");
    FAIL() << "expected MlirError";
  } catch (const MlirError &error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_EQ(error.diagnostics()[0].severity, DiagnosticSeverity::Error);
    EXPECT_EQ(error.diagnostics()[0].location.rfind("bad.mlir:2:", 0), 0u)
        << error.diagnostics()[0].location;
    EXPECT_NE(std::string(error.what()).find("bad.mlir:2:"), std::string::npos);
  }
}

TEST(ContextTest, HandlersSeeUncapturedDiagnostics) {
  auto context = Context::create();
  std::vector<DiagnosticInfo> seen;
  uint64_t id = context->attachDiagnosticHandler([&](const DiagnosticInfo &d) {
    seen.push_back(d);
    return true;
  });
  auto module = Module::parse(context, test::kAddModule);
  module->getOperation().emitWarning("careful");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].severity, DiagnosticSeverity::Warning);
  EXPECT_EQ(seen[0].message, "careful");

  // Errors of a failing call are captured, not handled...
  EXPECT_THROW(Module::parse(context, "garbage"), MlirError);
  EXPECT_EQ(seen.size(), 1u);
  // ...unless emitErrorDiagnostics routes them to the handlers.
  context->setEmitErrorDiagnostics(true);
  try {
    Module::parse(context, "garbage");
    FAIL();
  } catch (const MlirError &error) {
    EXPECT_TRUE(error.diagnostics().empty());
  }
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].severity, DiagnosticSeverity::Error);
  EXPECT_TRUE(context->detachDiagnosticHandler(id));
  EXPECT_FALSE(context->detachDiagnosticHandler(id));
}

TEST(ContextTest, GuardIsReentrantOnTheHoldingThread) {
  auto context = Context::create();
  Context::Guard outer(*context);
  Context::Guard inner(*context); // would deadlock if not re-entrant
  auto module = Module::parse(context, test::kAddModule);
  EXPECT_EQ(module->getOperation().name(), "builtin.module");
}

// Two threads each hold a context's lock and try to meet: they can only meet
// when the contexts differ (proof of parallelism), never when shared (proof of
// mutual exclusion).
static bool meetWhileHolding(Context &first, Context &second) {
  std::string id = test::freshBarrierId("guard");
  std::atomic<int> met{0};
  auto body = [&](Context &context, double timeout) {
    Context::Guard guard(context);
    met += rendezvous(id, 2, timeout).met;
  };
  std::thread a(body, std::ref(first), 0.3);
  std::thread b(body, std::ref(second), 0.3);
  a.join();
  b.join();
  return met.load() == 2;
}

TEST(ContextTest, IndependentContextsRunInParallel) {
  auto first = Context::create();
  auto second = Context::create();
  EXPECT_TRUE(meetWhileHolding(*first, *second));
}

TEST(ContextTest, SharedContextSerialises) {
  auto context = Context::create();
  EXPECT_FALSE(meetWhileHolding(*context, *context));
}

TEST(ContextTest, HandlesAreInvalidatedNotDangling) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  std::vector<OperationRef> ops = module->getOperation().walk();
  ASSERT_EQ(ops.size(), 4u); // module, func, addi, return
  EXPECT_EQ(ops[2].name(), "arith.addi");
  module->invalidateHandles();
  EXPECT_THROW(ops[2].name(), InvalidHandleError);
  // The top-level operation is never erased and stays usable.
  EXPECT_EQ(ops[0].name(), "builtin.module");
}

TEST(ContextTest, AttributesRoundTrip) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  OperationRef func = module->getOperation().walk()[1];
  mlir::MLIRContext &mlirContext = context->getMLIRContext();
  func.setAttribute("plait.test",
                    mlir::IntegerAttr::get(mlir::IntegerType::get(&mlirContext, 64), -7));
  bool found = false;
  for (auto &[name, attribute] : func.attributes()) {
    if (name == "plait.test") {
      found = true;
      EXPECT_EQ(attribute.cast<mlir::IntegerAttr>().getInt(), -7);
    }
    if (name == "sym_name")
      EXPECT_EQ(attribute.cast<mlir::StringAttr>().getValue(), "add");
  }
  EXPECT_TRUE(found);
  EXPECT_TRUE(func.removeAttribute("plait.test"));
  EXPECT_FALSE(func.removeAttribute("plait.test"));
}

TEST(ContextTest, ContextsAreCounted) {
  int64_t before = Context::liveCount();
  {
    auto context = Context::create();
    EXPECT_EQ(Context::liveCount(), before + 1);
  }
  EXPECT_EQ(Context::liveCount(), before);
}

TEST(ContextTest, HandlesFollowMovesAndErasure) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  std::vector<OperationRef> ops = module->getOperation().walk();
  OperationRef func = ops[1], addi = ops[2], ret = ops[3];
  // Moving the function into a second module re-points its handles.
  auto other = Module::parse(context, "module {}");
  OperationRef otherTop = other->getOperation();
  func.detachFromParent();
  EXPECT_TRUE(func.isValid() && addi.isValid());
  EXPECT_EQ(func.getModule()->getRawOperation(), &func.get());
  std::vector<RegionRef> regions = otherTop.regions();
  std::vector<BlockRef> blocks = regions.at(0).blocks();
  insertOperation(InsertionPoint{blocks.at(0), std::nullopt}, func);
  EXPECT_EQ(func.getModule(), other);
  EXPECT_EQ(addi.getModule(), other);
  module.reset(); // the old module dies; the moved IR lives in `other`
  EXPECT_EQ(addi.name(), "arith.addi");
  // Erasing invalidates the erased subtree's handles only.
  EXPECT_THROW(addi.erase(), InvalidArgumentError); // its result is returned
  ret.erase();
  addi.erase();
  EXPECT_FALSE(addi.isValid());
  EXPECT_THROW(addi.name(), InvalidHandleError);
  EXPECT_TRUE(func.isValid());
  EXPECT_EQ(func.name(), "func.func");
}

TEST(ContextTest, DetachedUsersKeepDefinitionsAlive) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  OperationRef addi = module->getOperation().walk()[2];
  std::vector<ValueRef> results = addi.results();
  OperationSpec spec;
  spec.name = "func.return";
  spec.operands = results;
  OperationRef user = createOperation(
      context, spec, mlir::UnknownLoc::get(&context->getMLIRContext()), std::nullopt);
  EXPECT_THROW(PassManager(context).run(module->getOperation()), InvalidArgumentError);
  module.reset(); // kept alive by `user`, which uses %0
  EXPECT_EQ(user.operands().at(0).getOwner().name(), "arith.addi");
  user.erase();
}
