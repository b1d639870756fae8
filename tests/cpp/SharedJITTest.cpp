//===- SharedJITTest.cpp - code generation of consecutive modules ---------===//
//
// Each compiling thread reuses one code generation pipeline for every module
// it compiles: nothing of one module may leak into the next one's object.
//
//===----------------------------------------------------------------------===//
#include "plait/JIT/SharedJIT.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace plait;

namespace {

/// Generates code for `module` on this thread and links it.
std::shared_ptr<SharedJIT::Code> addToJIT(std::unique_ptr<llvm::Module> module,
                                          std::unique_ptr<llvm::LLVMContext> context,
                                          const std::string &symbol) {
  llvm::TargetMachine &machine = SharedJIT::threadTargetMachine();
  module->setDataLayout(machine.createDataLayout());
  module->setTargetTriple(machine.getTargetTriple().str());
  return SharedJIT::get().add(std::move(module), std::move(context), symbol);
}

/// Compiles a module defining `int64_t <symbol>()` returning `value` (and an
/// internal helper of the same name in every module, so that symbols that
/// leaked from an earlier module would clash or be called instead).
std::shared_ptr<SharedJIT::Code> compileConstant(const std::string &symbol, int64_t value) {
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>(symbol + "-module", *context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(*context);
  auto *type = llvm::FunctionType::get(i64, {}, false);
  auto *helper =
      llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, "helper", *module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(*context, "entry", helper));
  b.CreateRet(llvm::ConstantInt::get(i64, value));
  auto *entry = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, symbol, *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(*context, "entry", entry));
  b.CreateRet(b.CreateCall(helper));
  return addToJIT(std::move(module), std::move(context), symbol);
}

int64_t call(const SharedJIT::Code &code, const std::string &symbol) {
  return reinterpret_cast<int64_t (*)()>(code.lookup(symbol))();
}

TEST(SharedJITTest, ConsecutiveModulesOnOneThreadGetObjectsOfTheirOwn) {
  std::vector<std::shared_ptr<SharedJIT::Code>> codes;
  for (int64_t i = 0; i < 5; ++i)
    codes.push_back(compileConstant("shared_jit_test_one_thread_" + std::to_string(i), 100 + i));
  for (int64_t i = 0; i < 5; ++i)
    EXPECT_EQ(call(*codes[i], "shared_jit_test_one_thread_" + std::to_string(i)), 100 + i);
  // Only the first module's object holds no earlier module's code: the
  // others must be as small as it is.
  for (int64_t i = 1; i < 5; ++i)
    EXPECT_EQ(codes[i]->codeBytes(), codes[0]->codeBytes());
}

TEST(SharedJITTest, LargeModulesCompileWithoutDomainReassignment) {
  // int64_t f(int64_t x): 4,000 rounds of multiplying by 1, 2 or 3 and
  // adding x, past the size from which code generation skips
  // X86DomainReassignment (through the module context's pass gate).
  auto context = std::make_unique<llvm::LLVMContext>();
  auto module = std::make_unique<llvm::Module>("large-module", *context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(*context);
  auto *type = llvm::FunctionType::get(i64, {i64}, false);
  auto *function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                          "shared_jit_test_large", *module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(*context, "entry", function));
  llvm::Value *value = function->getArg(0);
  uint64_t expected = 3; // wraps around, as the IR's adds and multiplies do
  for (int64_t i = 0; i < 4000; ++i) {
    value = b.CreateMul(value, llvm::ConstantInt::get(i64, 1 + i % 3));
    value = b.CreateAdd(value, function->getArg(0));
    expected = expected * static_cast<uint64_t>(1 + i % 3) + 3;
  }
  b.CreateRet(value);
  ASSERT_GT(module->getInstructionCount(), 6000u);
  auto code = addToJIT(std::move(module), std::move(context), "shared_jit_test_large");
  auto *entry = reinterpret_cast<int64_t (*)(int64_t)>(code->lookup("shared_jit_test_large"));
  EXPECT_EQ(static_cast<uint64_t>(entry(3)), expected);
  // The next module of the thread is generated as usual.
  auto small = compileConstant("shared_jit_test_after_large", 7);
  EXPECT_EQ(call(*small, "shared_jit_test_after_large"), 7);
}

TEST(SharedJITTest, ThreadsGenerateCodeWithPipelinesOfTheirOwn) {
  std::vector<std::string> failures(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t, &failures] {
      try {
        for (int64_t i = 0; i < 3; ++i) {
          std::string symbol =
              "shared_jit_test_thread_" + std::to_string(t) + "_" + std::to_string(i);
          auto code = compileConstant(symbol, 10 * t + i);
          if (call(*code, symbol) != 10 * t + i)
            failures[t] = symbol + " returned a wrong value";
        }
      } catch (const std::exception &error) {
        failures[t] = error.what();
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const std::string &failure : failures)
    EXPECT_EQ(failure, "");
}

} // namespace
