//===- FrontendTest.cpp - snapshots compiled and run without Python -------===//
#include "plait/JIT/Compiler.h"
#include "plait/JIT/EntryABI.h"
#include "plait/JIT/ExecutorRecord.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <thread>

using namespace plait;
using frontend::Type;

namespace {

// def add(a, b):
//     return a + b
const char *kAdd = R"sx((Program (Function 1 add "t.py" (Params a b) (Defaults) (Globals)
  (Lines (L 2 "    return a + b"))
  (FunctionDef 1 0 2 16 (Body
    (Return 2 4 2 16 (BinOp 2 11 2 16 Add (Name 2 11 2 12 a) (Name 2 15 2 16 b))))))))sx";

// def fib(n):
//     if n < 2:
//         return n
//     return fib(n - 1) + fib(n - 2)
const char *kFib = R"sx((Program (Function 7 fib "f.py" (Params n) (Defaults) (Globals (G fib (Jit 7)))
  (Lines)
  (FunctionDef 1 0 4 34 (Body
    (If 2 4 3 16 (Compare 2 7 2 12 (Name 2 7 2 8 n) (Ops Lt) (Comparators (Const 2 11 2 12 2)))
      (Body (Return 3 8 3 16 (Name 3 15 3 16 n))) (Body))
    (Return 4 4 4 34 (BinOp 4 11 4 34 Add
      (Call 4 11 4 21 (Name 4 11 4 14 fib) (Args (BinOp 4 15 4 20 Sub (Name 4 15 4 16 n) (Const 4 19 4 20 1))) (Keywords))
      (Call 4 24 4 34 (Name 4 24 4 27 fib) (Args (BinOp 4 28 4 33 Sub (Name 4 28 4 29 n) (Const 4 32 4 33 2))) (Keywords)))))))))sx";

// def conflict(c):
//     x = 1
//     if c:
//         x = (1, 2)
//     return 0
const char *kConflict = R"sx((Program (Function 3 conflict "c.py" (Params c) (Defaults) (Globals)
  (Lines (L 4 "        x = (1, 2)"))
  (FunctionDef 1 0 5 12 (Body
    (Assign 2 4 2 9 (Targets (Name 2 4 2 5 x)) (Const 2 8 2 9 1))
    (If 3 4 4 18 (Name 3 7 3 8 c) (Body (Assign 4 8 4 18 (Targets (Name 4 8 4 9 x)) (Tuple 4 12 4 18 (Const 4 13 4 14 1) (Const 4 16 4 17 2)))) (Body))
    (Return 5 4 5 12 (Const 5 11 5 12 0)))))))sx";

jit::CompileRequest request(const char *snapshot, int entry,
                            std::vector<Type> types) {
  jit::CompileRequest r;
  r.snapshot = snapshot;
  r.entryFunction = entry;
  r.argumentTypes = std::move(types);
  return r;
}

/// Calls an executor whose arguments are scalars (one 64-bit slot each);
/// returns the status and fills `results`.
int32_t callPacked(const jit::Executor &executor, std::vector<int64_t> args,
                   int64_t *results) {
  std::vector<void *> slots;
  for (int64_t &arg : args)
    slots.push_back(&arg);
  jit::abi::ResultsDescriptor descriptor(results, 4);
  for (int64_t &field : descriptor.fields)
    slots.push_back(&field);
  int32_t status = -1;
  slots.push_back(&status);
  executor.call(slots.data());
  return status;
}

int64_t callInts(const jit::Executor &executor, std::vector<int64_t> args,
                 int32_t *status = nullptr) {
  int64_t results[4] = {0, 0, 0, 0};
  int32_t s = callPacked(executor, std::move(args), results);
  if (status)
    *status = s;
  return results[0];
}

} // namespace

TEST(FrontendTest, ParsesSnapshots) {
  frontend::Program program = frontend::parseProgram(kAdd);
  ASSERT_EQ(program.functions.count(1), 1u);
  EXPECT_EQ(program.functions[1].params.size(), 2u);
  EXPECT_THROW(frontend::parseProgram("(Program (Function"), std::invalid_argument);
}

TEST(FrontendTest, CompilesIntAddWithOverflowCheck) {
  jit::CompileRequest keeping = request(kAdd, 1, {Type::integer(), Type::integer()});
  keeping.keepStages = true;
  auto executor = jit::compile(keeping);
  EXPECT_EQ(callInts(*executor, {40, 2}), 42);
  EXPECT_EQ(executor->info.resultType, Type::integer());
  int32_t status = 0;
  callInts(*executor, {INT64_MAX, 1}, &status);
  ASSERT_GT(status, 0);
  EXPECT_EQ(executor->info.errors.at(status - 1).exception, "OverflowError");
  EXPECT_NE(executor->mlirText.find("llvm.intr.sadd.with.overflow"), std::string::npos)
      << executor->mlirText;
  EXPECT_NE(executor->llvmText.find("define"), std::string::npos);
  EXPECT_NE(executor->assembly().find("ret"), std::string::npos);
}

TEST(FrontendTest, StagesArePrintedOnlyWhenKept) {
  auto executor = jit::compile(request(kAdd, 1, {Type::integer(), Type::integer()}));
  EXPECT_EQ(callInts(*executor, {40, 2}), 42);
  EXPECT_TRUE(executor->plaitText.empty() && executor->mlirText.empty() &&
              executor->llvmText.empty());
  std::vector<std::string> phases;
  for (const auto &[phase, seconds] : executor->phaseSeconds) {
    phases.push_back(phase);
    EXPECT_GE(seconds, 0.0);
  }
  EXPECT_EQ(phases.front(), "typing and emission");
  EXPECT_EQ(phases.back(), "linking");
  EXPECT_EQ(std::count(phases.begin(), phases.end(), "printing stages"), 0);
}

TEST(FrontendTest, ExecutorRecordsLoadAndReject) {
  jit::CompileRequest keeping = request(kAdd, 1, {Type::integer(), Type::integer()});
  keeping.keepObject = true;
  auto executor = jit::compile(keeping);
  std::string record = jit::executorRecord(*executor);
  // Loaded twice into one process: each copy links on its own.
  auto first = jit::loadExecutorRecord(record);
  auto second = jit::loadExecutorRecord(record);
  EXPECT_EQ(callInts(*first, {40, 2}), 42);
  EXPECT_EQ(callInts(*second, {-5, 2}), -3);
  EXPECT_EQ(first->info.resultType, Type::integer());
  EXPECT_EQ(first->info.errors.size(), executor->info.errors.size());
  int32_t status = 0;
  callInts(*first, {INT64_MAX, 1}, &status);
  ASSERT_GT(status, 0);
  EXPECT_EQ(first->info.errors.at(status - 1).exception, "OverflowError");
  for (size_t size : {size_t(0), size_t(7), record.size() / 2, record.size() - 1})
    EXPECT_THROW(jit::loadExecutorRecord(record.substr(0, size)), std::invalid_argument);
  EXPECT_THROW(
      jit::executorRecord(*jit::compile(request(kAdd, 1, {Type::integer(), Type::integer()}))),
      std::invalid_argument);
}

TEST(FrontendTest, MixedIntFloatPromotes) {
  auto executor = jit::compile(request(kAdd, 1, {Type::integer(), Type::floating()}));
  double b = 0.5, result;
  int64_t bBits;
  std::memcpy(&bBits, &b, 8);
  int64_t results[4];
  ASSERT_EQ(callPacked(*executor, {2, bBits}, results), 0);
  std::memcpy(&result, &results[0], 8);
  EXPECT_EQ(result, 2.5);
}

TEST(FrontendTest, RecursionAndDepthGuard) {
  auto executor = jit::compile(request(kFib, 7, {Type::integer()}));
  EXPECT_EQ(callInts(*executor, {20}), 6765);
  EXPECT_TRUE(executor->info.mayRunLong);
  int32_t status = 0;
  // fib(-1) recurses forever: RecursionError, not a native stack overflow.
  // (n < 2 is true for -1, so use a function that never bottoms out instead.)
  jit::CompileRequest deep = request(kFib, 7, {Type::integer()});
  deep.options.recursionLimit = 10;
  auto limited = jit::compile(deep);
  callInts(*limited, {30}, &status);
  ASSERT_GT(status, 0);
  EXPECT_EQ(limited->info.errors.at(status - 1).exception, "RecursionError");
  EXPECT_EQ(callInts(*limited, {5}), 5); // depth is reset after an error
}

TEST(FrontendTest, TypeConflictNamesBothLocations) {
  try {
    jit::compile(request(kConflict, 3, {Type::boolean()}));
    FAIL();
  } catch (const frontend::CompileError &error) {
    EXPECT_EQ(error.kind, frontend::CompileError::Kind::Typing);
    std::string text = error.what();
    EXPECT_NE(text.find("c.py:4:9"), std::string::npos) << text;
    EXPECT_NE(text.find("c.py:2:5"), std::string::npos) << text;
    EXPECT_NE(text.find("^^^^^^^^^^"), std::string::npos) << text;
  }
}

TEST(FrontendTest, CompilationsRunInParallelThreads) {
  std::vector<std::thread> threads;
  std::atomic<int> right{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        auto executor = jit::compile(request(kAdd, 1, {Type::integer(), Type::integer()}));
        right += callInts(*executor, {t, i}) == t + i;
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(right.load(), 20);
}

TEST(FrontendTest, NumPyPromotionFollowsResultType) {
  using frontend::DType;
  using frontend::promoteDTypes;
  // np.result_type of two dtypes.
  EXPECT_EQ(promoteDTypes(DType::Int8, DType::UInt8), DType::Int16);
  EXPECT_EQ(promoteDTypes(DType::UInt64, DType::Int64), DType::Float64);
  EXPECT_EQ(promoteDTypes(DType::Int16, DType::Float32), DType::Float32);
  EXPECT_EQ(promoteDTypes(DType::Int32, DType::Float32), DType::Float64);
  EXPECT_EQ(promoteDTypes(DType::Bool, DType::Int8), DType::Int8);
  EXPECT_EQ(promoteDTypes(DType::UInt8, DType::UInt64), DType::UInt64);
  // NEP 50: Python numbers take the NumPy side's type where they can.
  Type i8 = Type::numpy(DType::Int8), f32 = Type::numpy(DType::Float32);
  Type b = Type::numpy(DType::Bool);
  EXPECT_EQ(frontend::numpyCommonType(i8, Type::integer()), i8);
  EXPECT_EQ(frontend::numpyCommonType(Type::floating(), f32), f32);
  EXPECT_EQ(frontend::numpyCommonType(i8, Type::floating()), Type::numpy(DType::Float64));
  EXPECT_EQ(frontend::numpyCommonType(b, Type::integer()), Type::numpy(DType::Int64));
  EXPECT_EQ(frontend::numpyCommonType(b, Type::boolean()), b);
}

TEST(FrontendTest, NumPyInt8ArithmeticWraps) {
  // add(np.int8, np.int8) computes in int8 and returns an int8 result.
  Type i8 = Type::numpy(frontend::DType::Int8);
  auto executor = jit::compile(request(kAdd, 1, {i8, i8}));
  EXPECT_EQ(executor->info.resultType, i8);
  int64_t results[4] = {};
  ASSERT_EQ(callPacked(*executor, {100, 100}, results), 0);
  EXPECT_EQ(static_cast<int8_t>(results[0]), static_cast<int8_t>(200 - 256));
}
