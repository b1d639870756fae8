//===- PassManagerTest.cpp - pipelines, from one and many threads ---------===//
#include "TestUtil.h"
#include "plait/Pass/PassManager.h"
#include "plait/Passes/Passes.h"

#include <gtest/gtest.h>

#include <thread>

using namespace plait;

namespace {

std::string rendezvousPass(const std::string &id, int participants,
                           double timeout) {
  return "test-rendezvous{barrier-id=" + id +
         " participants=" + std::to_string(participants) +
         " timeout-seconds=" + std::to_string(timeout) + "}";
}

} // namespace

TEST(PassManagerTest, UnknownPassIsNamed) {
  auto context = Context::create();
  try {
    PassManager::parse(context, "builtin.module(no-such-pass)");
    FAIL();
  } catch (const InvalidArgumentError &error) {
    EXPECT_NE(std::string(error.what()).find("no-such-pass"), std::string::npos);
  }
  PassManager pm(context);
  EXPECT_THROW(pm.addPipeline("canonicalize{no-such-option=1}"),
               InvalidArgumentError);
}

TEST(PassManagerTest, LowersToLLVMDialect) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  auto pm = PassManager::parse(context, "builtin.module(plait-lower-to-llvm)");
  pm->run(module->getOperation());
  std::string text = module->str();
  EXPECT_NE(text.find("llvm.func @add"), std::string::npos) << text;
  EXPECT_NE(text.find("plait_signature"), std::string::npos) << text;
  EXPECT_EQ(text.find("func.func"), std::string::npos) << text;
}

TEST(PassManagerTest, CallbackPassFailureBecomesDiagnostic) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  PassManager pm(context);
  std::string seenName;
  pm.addCallbackPass("inspect", [&](const OperationRef &op, std::string &error) {
    seenName = op.name(); // re-enters the context lock held by run()
    error = "no thanks";
    return false;
  });
  try {
    pm.run(module->getOperation());
    FAIL();
  } catch (const MlirError &error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_NE(error.diagnostics()[0].message.find("no thanks"), std::string::npos);
  }
  EXPECT_EQ(seenName, "builtin.module");
}

TEST(PassManagerTest, RejectsOperationOfAnotherContext) {
  auto first = Context::create();
  auto second = Context::create();
  auto module = Module::parse(first, test::kAddModule);
  PassManager pm(second);
  EXPECT_THROW(pm.run(module->getOperation()), InvalidArgumentError);
}

TEST(PassManagerTest, LoneRendezvousFailsThePipeline) {
  registerRendezvousPass();
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  std::string id = test::freshBarrierId("cpp-lone");
  auto pm = PassManager::parse(
      context, "builtin.module(" + rendezvousPass(id, 2, 0.05) + ")");
  try {
    pm->run(module->getOperation());
    FAIL();
  } catch (const MlirError &error) {
    ASSERT_EQ(error.diagnostics().size(), 1u);
    EXPECT_EQ(error.diagnostics()[0].message,
              "rendezvous '" + id + "' timed out with 1 of 2 participants");
  }
}

// Pipelines on independent contexts run at the same time: 8 of them meet.
TEST(PassManagerTest, PipelinesOnIndependentContextsRunInParallel) {
  registerRendezvousPass();
  constexpr int kThreads = 8;
  std::string id = test::freshBarrierId("cpp-parallel");
  std::atomic<int> succeeded{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&] {
      auto context = Context::create();
      auto module = Module::parse(context, test::kAddModule);
      auto pm = PassManager::parse(
          context, "builtin.module(canonicalize," +
                       rendezvousPass(id, kThreads, 60) + ",plait-lower-to-llvm)");
      try {
        pm->run(module->getOperation());
        ++succeeded;
      } catch (const MlirError &) {
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(succeeded.load(), kThreads);
}

// Two pipelines on one shared context serialise: they can never meet.
TEST(PassManagerTest, PipelinesOnASharedContextSerialise) {
  registerRendezvousPass();
  auto context = Context::create();
  std::string id = test::freshBarrierId("cpp-shared");
  std::atomic<int> failed{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 2; ++i)
    threads.emplace_back([&] {
      auto module = Module::parse(context, test::kAddModule);
      auto pm = PassManager::parse(
          context, "builtin.module(" + rendezvousPass(id, 2, 0.3) + ")");
      try {
        pm->run(module->getOperation());
      } catch (const MlirError &) {
        ++failed;
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(failed.load(), 2);
}
