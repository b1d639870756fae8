//===- NumericTestUtil.h - helpers of the numeric runtime tests -*- C++ -*-===//
#ifndef PLAIT_TESTS_CPP_NUMERICTESTUTIL_H
#define PLAIT_TESTS_CPP_NUMERICTESTUTIL_H

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

namespace plait::test::numeric {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
// Written into outputs beforehand to detect writes on error.
constexpr double kSentinel = 12345.25;
constexpr int64_t kIntSentinel = 0x5eed;

inline std::string describe(double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g (%a)", x, x);
  return buf;
}

// Equal including the sign of zero; any NaN matches any NaN, because CPython
// makes no promise about NaN payloads or signs.
inline ::testing::AssertionResult sameDouble(double actual, double expected) {
  if (std::isnan(expected)) {
    if (std::isnan(actual))
      return ::testing::AssertionSuccess();
  } else if (actual == expected &&
             std::signbit(actual) == std::signbit(expected)) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "got " << describe(actual)
                                       << ", want " << describe(expected);
}

inline uint64_t magnitude(int64_t x) {
  return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
}

// A random int64 whose bit length is uniform, so every magnitude range (and
// in particular both sides of 2**53) is well covered.
inline int64_t randomInt64(std::mt19937_64 &rng) {
  int bits = static_cast<int>(rng() % 64); // 0..63 magnitude bits.
  uint64_t mag = 0;
  if (bits > 0)
    mag = (rng() >> (64 - bits)) | (uint64_t(1) << (bits - 1));
  if (rng() % 64 == 0)
    return kMin;
  int64_t v = static_cast<int64_t>(mag);
  return rng() % 2 ? -v : v;
}

} // namespace plait::test::numeric

#endif // PLAIT_TESTS_CPP_NUMERICTESTUTIL_H
