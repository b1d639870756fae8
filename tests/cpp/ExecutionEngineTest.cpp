//===- ExecutionEngineTest.cpp - compile and call -------------------------===//
#include "TestUtil.h"
#include "plait/ExecutionEngine/ExecutionEngine.h"

#include <gtest/gtest.h>

#include <thread>

using namespace plait;

namespace {

ExecutionEngine::Options lowering() {
  ExecutionEngine::Options options;
  options.pipeline = "plait-lower-to-llvm";
  return options;
}

const char *kSumModule = R"mlir(
func.func @sum(%a: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %acc, %x : f64
    scf.yield %s : f64
  }
  return %r : f64
}
func.func @sumStrided(%a: memref<?xf64, strided<[?], offset: ?>>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64, strided<[?], offset: ?>>
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64, strided<[?], offset: ?>>
    %s = arith.addf %acc, %x : f64
    scf.yield %s : f64
  }
  return %r : f64
}
func.func @pair(%x: i32) -> (i32, f32, i1) {
  %t = arith.constant true
  %f = arith.sitofp %x : i32 to f32
  %y = arith.muli %x, %x : i32
  return %y, %f, %t : i32, f32, i1
}
)mlir";

} // namespace

TEST(ExecutionEngineTest, InvokesScalarFunction) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  auto engine = ExecutionEngine::create(module, lowering());
  Value a, b;
  a.integer = 40;
  b.integer = 2;
  std::vector<Value> results = engine->invoke("add", {a, b});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].integer, 42);
  // The pipeline ran on a copy: the original is untouched.
  EXPECT_NE(module->str().find("func.func @add"), std::string::npos);
  EXPECT_NE(engine->lookup("add"), 0u);
  EXPECT_THROW(engine->lookup("nope"), NotFoundError);
  EXPECT_THROW(engine->invoke("add", {a}), TypeMismatchError);
}

TEST(ExecutionEngineTest, MemRefArgumentsAndMultipleResults) {
  auto context = Context::create();
  auto module = Module::parse(context, kSumModule);
  auto engine = ExecutionEngine::create(module, lowering());
  std::vector<double> data = {1.5, 2.5, 3.0, 100.0};
  Value array;
  array.memref.allocated = array.memref.aligned = data.data();
  array.memref.sizes = {3}; // only the first three
  array.memref.strides = {1};
  EXPECT_DOUBLE_EQ(engine->invoke("sum", {array})[0].floating, 7.0);
  array.memref.sizes = {2};
  array.memref.strides = {2}; // 1.5 + 3.0
  // The identity layout compiles unit strides in: a view is refused, not misread.
  EXPECT_THROW(engine->invoke("sum", {array}), InvalidArgumentError);
  EXPECT_DOUBLE_EQ(engine->invoke("sumStrided", {array})[0].floating, 4.5);

  Value x;
  x.integer = -7;
  std::vector<Value> results = engine->invoke("pair", {x});
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].integer, 49);
  EXPECT_FLOAT_EQ(results[1].floating, -7.0f);
  EXPECT_EQ(results[2].integer, 1);
}

TEST(ExecutionEngineTest, UnloweredModuleIsAnMlirError) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  EXPECT_THROW(ExecutionEngine::create(module, {}), MlirError);
}

TEST(ExecutionEngineTest, OneEngineCalledFromManyThreads) {
  auto context = Context::create();
  auto module = Module::parse(context, test::kAddModule);
  auto engine = ExecutionEngine::create(module, lowering());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        Value a, b;
        a.integer = t;
        b.integer = i;
        if (engine->invoke("add", {a, b})[0].integer != t + i)
          ++wrong;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(wrong.load(), 0);
}
