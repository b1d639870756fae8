//===- TestUtil.h - helpers shared by the core's tests ----------*- C++ -*-===//
#ifndef PLAIT_TESTS_CPP_TESTUTIL_H
#define PLAIT_TESTS_CPP_TESTUTIL_H

#include <atomic>
#include <string>

namespace plait::test {

/// A barrier name no other test in this process uses (barriers are one-shot).
inline std::string freshBarrierId(const std::string &prefix) {
  static std::atomic<int> counter{0};
  return prefix + "-" + std::to_string(counter.fetch_add(1));
}

inline const char *kAddModule = R"mlir(
func.func @add(%a: i64, %b: i64) -> i64 {
  %0 = arith.addi %a, %b : i64
  return %0 : i64
}
)mlir";

} // namespace plait::test

#endif // PLAIT_TESTS_CPP_TESTUTIL_H
