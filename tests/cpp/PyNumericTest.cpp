//===- PyNumericTest.cpp - CPython-exact numeric runtime helpers ----------===//
//
// Unless a comment says otherwise, every expected value in the tables below
// was computed by running the same expression in CPython 3.11.7.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/NumPyKernels.h"
#include "plait/Runtime/PyNumeric.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
// Written into outputs beforehand to detect writes on error.
constexpr double kSentinel = 12345.25;
constexpr int64_t kIntSentinel = 0x5eed;

std::string describe(double x) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g (%a)", x, x);
  return buf;
}

// Equal including the sign of zero; any NaN matches any NaN, because CPython
// makes no promise about NaN payloads or signs.
::testing::AssertionResult sameDouble(double actual, double expected) {
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

uint64_t magnitude(int64_t x) {
  return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
}

// A random int64 whose bit length is uniform, so every magnitude range (and
// in particular both sides of 2**53) is well covered.
int64_t randomInt64(std::mt19937_64 &rng) {
  int bits = static_cast<int>(rng() % 64); // 0..63 magnitude bits.
  uint64_t mag = 0;
  if (bits > 0)
    mag = (rng() >> (64 - bits)) | (uint64_t(1) << (bits - 1));
  if (rng() % 64 == 0)
    return kMin;
  int64_t v = static_cast<int64_t>(mag);
  return rng() % 2 ? -v : v;
}

} // namespace

//===----------------------------------------------------------------------===//
// Float floor division, modulo and divmod
//===----------------------------------------------------------------------===//

struct DivModRow {
  double a, b, quotient, remainder;
};

TEST(PyNumericTest, FloatDivModTable) {
  // Every pair from {0.0, -0.0, 1.0, -1.0, 5.0, -7.5, 0.5, inf, -inf, nan,
  // 1e308, 5e-324, -1e-320} with a nonzero divisor: divmod(a, b) from
  // CPython 3.11, where a // b and a % b were checked to equal its parts.
  const DivModRow rows[] = {
      {0.0, 1.0, 0.0, 0.0},
      {0.0, -1.0, -0.0, -0.0},
      {0.0, 5.0, 0.0, 0.0},
      {0.0, -7.5, -0.0, -0.0},
      {0.0, 0.5, 0.0, 0.0},
      {0.0, kInf, 0.0, 0.0},
      {0.0, -kInf, -0.0, -0.0},
      {0.0, kNaN, kNaN, kNaN},
      {0.0, 1e+308, 0.0, 0.0},
      {0.0, 5e-324, 0.0, 0.0},
      {0.0, -1e-320, -0.0, -0.0},
      {-0.0, 1.0, -0.0, 0.0},
      {-0.0, -1.0, 0.0, -0.0},
      {-0.0, 5.0, -0.0, 0.0},
      {-0.0, -7.5, 0.0, -0.0},
      {-0.0, 0.5, -0.0, 0.0},
      {-0.0, kInf, -0.0, 0.0},
      {-0.0, -kInf, 0.0, -0.0},
      {-0.0, kNaN, kNaN, kNaN},
      {-0.0, 1e+308, -0.0, 0.0},
      {-0.0, 5e-324, -0.0, 0.0},
      {-0.0, -1e-320, 0.0, -0.0},
      {1.0, 1.0, 1.0, 0.0},
      {1.0, -1.0, -1.0, -0.0},
      {1.0, 5.0, 0.0, 1.0},
      {1.0, -7.5, -1.0, -6.5},
      {1.0, 0.5, 2.0, 0.0},
      {1.0, kInf, 0.0, 1.0},
      {1.0, -kInf, -1.0, -kInf},
      {1.0, kNaN, kNaN, kNaN},
      {1.0, 1e+308, 0.0, 1.0},
      {1.0, 5e-324, kInf, 0.0},
      {1.0, -1e-320, -kInf, -2.095e-321},
      {-1.0, 1.0, -1.0, 0.0},
      {-1.0, -1.0, 1.0, -0.0},
      {-1.0, 5.0, -1.0, 4.0},
      {-1.0, -7.5, 0.0, -1.0},
      {-1.0, 0.5, -2.0, 0.0},
      {-1.0, kInf, -1.0, kInf},
      {-1.0, -kInf, 0.0, -1.0},
      {-1.0, kNaN, kNaN, kNaN},
      {-1.0, 1e+308, -1.0, 1e+308},
      {-1.0, 5e-324, -kInf, 0.0},
      {-1.0, -1e-320, kInf, -7.905e-321},
      {5.0, 1.0, 5.0, 0.0},
      {5.0, -1.0, -5.0, -0.0},
      {5.0, 5.0, 1.0, 0.0},
      {5.0, -7.5, -1.0, -2.5},
      {5.0, 0.5, 10.0, 0.0},
      {5.0, kInf, 0.0, 5.0},
      {5.0, -kInf, -1.0, -kInf},
      {5.0, kNaN, kNaN, kNaN},
      {5.0, 1e+308, 0.0, 5.0},
      {5.0, 5e-324, kInf, 0.0},
      {5.0, -1e-320, -kInf, -4.74e-322},
      {-7.5, 1.0, -8.0, 0.5},
      {-7.5, -1.0, 7.0, -0.5},
      {-7.5, 5.0, -2.0, 2.5},
      {-7.5, -7.5, 1.0, -0.0},
      {-7.5, 0.5, -15.0, 0.0},
      {-7.5, kInf, -1.0, kInf},
      {-7.5, -kInf, 0.0, -7.5},
      {-7.5, kNaN, kNaN, kNaN},
      {-7.5, 1e+308, -1.0, 1e+308},
      {-7.5, 5e-324, -kInf, 0.0},
      {-7.5, -1e-320, kInf, -9.29e-321},
      {0.5, 1.0, 0.0, 0.5},
      {0.5, -1.0, -1.0, -0.5},
      {0.5, 5.0, 0.0, 0.5},
      {0.5, -7.5, -1.0, -7.0},
      {0.5, 0.5, 1.0, 0.0},
      {0.5, kInf, 0.0, 0.5},
      {0.5, -kInf, -1.0, -kInf},
      {0.5, kNaN, kNaN, kNaN},
      {0.5, 1e+308, 0.0, 0.5},
      {0.5, 5e-324, kInf, 0.0},
      {0.5, -1e-320, -kInf, -6.047e-321},
      {kInf, 1.0, kNaN, kNaN},
      {kInf, -1.0, kNaN, kNaN},
      {kInf, 5.0, kNaN, kNaN},
      {kInf, -7.5, kNaN, kNaN},
      {kInf, 0.5, kNaN, kNaN},
      {kInf, kInf, kNaN, kNaN},
      {kInf, -kInf, kNaN, kNaN},
      {kInf, kNaN, kNaN, kNaN},
      {kInf, 1e+308, kNaN, kNaN},
      {kInf, 5e-324, kNaN, kNaN},
      {kInf, -1e-320, kNaN, kNaN},
      {-kInf, 1.0, kNaN, kNaN},
      {-kInf, -1.0, kNaN, kNaN},
      {-kInf, 5.0, kNaN, kNaN},
      {-kInf, -7.5, kNaN, kNaN},
      {-kInf, 0.5, kNaN, kNaN},
      {-kInf, kInf, kNaN, kNaN},
      {-kInf, -kInf, kNaN, kNaN},
      {-kInf, kNaN, kNaN, kNaN},
      {-kInf, 1e+308, kNaN, kNaN},
      {-kInf, 5e-324, kNaN, kNaN},
      {-kInf, -1e-320, kNaN, kNaN},
      {kNaN, 1.0, kNaN, kNaN},
      {kNaN, -1.0, kNaN, kNaN},
      {kNaN, 5.0, kNaN, kNaN},
      {kNaN, -7.5, kNaN, kNaN},
      {kNaN, 0.5, kNaN, kNaN},
      {kNaN, kInf, kNaN, kNaN},
      {kNaN, -kInf, kNaN, kNaN},
      {kNaN, kNaN, kNaN, kNaN},
      {kNaN, 1e+308, kNaN, kNaN},
      {kNaN, 5e-324, kNaN, kNaN},
      {kNaN, -1e-320, kNaN, kNaN},
      {1e+308, 1.0, 1e+308, 0.0},
      {1e+308, -1.0, -1e+308, -0.0},
      {1e+308, 5.0, 2e+307, 1.0},
      {1e+308, -7.5, -1.3333333333333332e+307, -4.0},
      {1e+308, 0.5, kInf, 0.0},
      {1e+308, kInf, 0.0, 1e+308},
      {1e+308, -kInf, -1.0, -kInf},
      {1e+308, kNaN, kNaN, kNaN},
      {1e+308, 1e+308, 1.0, 0.0},
      {1e+308, 5e-324, kInf, 0.0},
      {1e+308, -1e-320, -kInf, -6.76e-321},
      {5e-324, 1.0, 0.0, 5e-324},
      {5e-324, -1.0, -1.0, -1.0},
      {5e-324, 5.0, 0.0, 5e-324},
      {5e-324, -7.5, -1.0, -7.5},
      {5e-324, 0.5, 0.0, 5e-324},
      {5e-324, kInf, 0.0, 5e-324},
      {5e-324, -kInf, -1.0, -kInf},
      {5e-324, kNaN, kNaN, kNaN},
      {5e-324, 1e+308, 0.0, 5e-324},
      {5e-324, 5e-324, 1.0, 0.0},
      {5e-324, -1e-320, -1.0, -9.995e-321},
      {-1e-320, 1.0, -1.0, 1.0},
      {-1e-320, -1.0, 0.0, -1e-320},
      {-1e-320, 5.0, -1.0, 5.0},
      {-1e-320, -7.5, 0.0, -1e-320},
      {-1e-320, 0.5, -1.0, 0.5},
      {-1e-320, kInf, -1.0, kInf},
      {-1e-320, -kInf, 0.0, -1e-320},
      {-1e-320, kNaN, kNaN, kNaN},
      {-1e-320, 1e+308, -1.0, 1e+308},
      {-1e-320, 5e-324, -2024.0, 0.0},
      {-1e-320, -1e-320, 1.0, -0.0},
  };
  for (const DivModRow &row : rows) {
    SCOPED_TRACE(describe(row.a) + " , " + describe(row.b));
    double q = kSentinel, r = kSentinel;
    ASSERT_EQ(plait_rt_float_divmod(row.a, row.b, &q, &r), PLAIT_NUMERIC_OK);
    EXPECT_TRUE(sameDouble(q, row.quotient)) << "divmod quotient";
    EXPECT_TRUE(sameDouble(r, row.remainder)) << "divmod remainder";
    double fd = kSentinel, m = kSentinel;
    ASSERT_EQ(plait_rt_float_floordiv(row.a, row.b, &fd), PLAIT_NUMERIC_OK);
    EXPECT_TRUE(sameDouble(fd, row.quotient)) << "floordiv";
    ASSERT_EQ(plait_rt_float_mod(row.a, row.b, &m), PLAIT_NUMERIC_OK);
    EXPECT_TRUE(sameDouble(m, row.remainder)) << "mod";
  }
}

TEST(PyNumericTest, FloatDivModNamedCases) {
  // From CPython 3.11.
  const DivModRow rows[] = {
      {-0.0, 1.0, -0.0, 0.0},    // -0.0 // 1.0 == -0.0
      {0.0, -1.0, -0.0, -0.0},   // divmod(0.0, -1.0) == (-0.0, -0.0)
      {-0.0, 5.0, -0.0, 0.0},    // divmod(-0.0, 5.0) == (-0.0, 0.0)
      {5.0, -kInf, -1.0, -kInf}, // 5.0 % -inf == -inf
      {-5.0, kInf, -1.0, kInf},  // -5.0 % inf == inf
      {1.0, kInf, 0.0, 1.0},     // 1.0 % inf == 1.0, 1.0 // inf == 0.0
      {kInf, 1.0, kNaN, kNaN},   // inf // 1.0 is nan (not inf)
      {kInf, kInf, kNaN, kNaN},
      {kNaN, 1.0, kNaN, kNaN},
      // Finite operands, yet the floor quotient is inf (no OverflowError).
      {1e308, 1e-308, kInf, 3.498445546245627e-309},
      {7.0, 0.1, 69.0, 0.09999999999999962},
      {-7.0, 0.1, -70.0, 3.885780586188048e-16},
      {0.1, -7.0, -1.0, -6.9},
      {-1e-320, 1e300, -1.0, 1e300},
      {1e-320, -1e300, -1.0, -1e300},
      // The quotient snaps up via the "div - floordiv > 0.5" correction.
      {2.4595557508689154, 0.7, 3.0, 0.35955575086891556},
      {-73.34631672489569, -0.1, 733.0, -0.046316724895682365},
      // ... and down, without it.
      {66.32158605467083, -0.1, -664.0, -0.07841394532917234},
  };
  for (const DivModRow &row : rows) {
    SCOPED_TRACE(describe(row.a) + " , " + describe(row.b));
    double q = kSentinel, r = kSentinel, fd = kSentinel, m = kSentinel;
    ASSERT_EQ(plait_rt_float_divmod(row.a, row.b, &q, &r), PLAIT_NUMERIC_OK);
    ASSERT_EQ(plait_rt_float_floordiv(row.a, row.b, &fd), PLAIT_NUMERIC_OK);
    ASSERT_EQ(plait_rt_float_mod(row.a, row.b, &m), PLAIT_NUMERIC_OK);
    EXPECT_TRUE(sameDouble(q, row.quotient));
    EXPECT_TRUE(sameDouble(r, row.remainder));
    EXPECT_TRUE(sameDouble(fd, row.quotient));
    EXPECT_TRUE(sameDouble(m, row.remainder));
  }
}

TEST(PyNumericTest, FloatDivModByZeroLeavesOutputs) {
  // CPython raises ZeroDivisionError for both zeros, even for nan and inf.
  for (double a : {0.0, -0.0, 1.0, -1.0, kInf, -kInf, kNaN}) {
    for (double b : {0.0, -0.0}) {
      SCOPED_TRACE(describe(a) + " , " + describe(b));
      double q = kSentinel, r = kSentinel;
      EXPECT_EQ(plait_rt_float_floordiv(a, b, &q),
                PLAIT_NUMERIC_FLOAT_FLOORDIV_BY_ZERO);
      EXPECT_EQ(plait_rt_float_mod(a, b, &q), PLAIT_NUMERIC_FLOAT_MOD_BY_ZERO);
      EXPECT_EQ(plait_rt_float_divmod(a, b, &q, &r),
                PLAIT_NUMERIC_FLOAT_DIVMOD_BY_ZERO);
      EXPECT_EQ(q, kSentinel);
      EXPECT_EQ(r, kSentinel);
    }
  }
}

TEST(PyNumericTest, FloatDivModAgreesAcrossEntryPointsRandomized) {
  // floordiv and mod must be bitwise the halves of divmod, as in CPython.
  std::mt19937_64 rng(20240611);
  for (int i = 0; i < 200000; ++i) {
    double a, b;
    uint64_t ab = rng(), bb = rng();
    std::memcpy(&a, &ab, sizeof(a));
    std::memcpy(&b, &bb, sizeof(b));
    if (i % 2) // Nearby magnitudes exercise the quotient snapping more.
      b = std::ldexp(static_cast<double>(rng() % 2000) - 1000.0, -3);
    if (b == 0.0 || std::isnan(b))
      continue;
    double q, r, fd, m;
    ASSERT_EQ(plait_rt_float_divmod(a, b, &q, &r), PLAIT_NUMERIC_OK);
    ASSERT_EQ(plait_rt_float_floordiv(a, b, &fd), PLAIT_NUMERIC_OK);
    ASSERT_EQ(plait_rt_float_mod(a, b, &m), PLAIT_NUMERIC_OK);
    ASSERT_TRUE(sameDouble(fd, q)) << describe(a) << " // " << describe(b);
    ASSERT_TRUE(sameDouble(m, r)) << describe(a) << " % " << describe(b);
    // Python's remainder takes the sign of the divisor (or is nan).
    if (!std::isnan(r)) {
      ASSERT_EQ(std::signbit(r), std::signbit(b))
          << describe(a) << " % " << describe(b);
    }
  }
}

//===----------------------------------------------------------------------===//
// Float power
//===----------------------------------------------------------------------===//

struct PowRow {
  double a, b;
  int32_t status;
  double result; // Only meaningful when status is OK.
};

TEST(PyNumericTest, FloatPowTable) {
  // Every pair from {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 10.0, inf,
  // -inf, nan, 5e-324} ** {0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5, -0.5,
  // 400.0, -1075.0, inf, -inf, nan, 1e300, -1e300, 1/3} in CPython 3.11.
  // POW_COMPLEX: CPython returned a complex; ZERO_POW_NEGATIVE:
  // ZeroDivisionError; FLOAT_POW_OVERFLOW: OverflowError.
  const PowRow rows[] = {
      {0.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {0.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {0.0, 1.0, PLAIT_NUMERIC_OK, 0.0},
      {0.0, -1.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {0.0, 2.0, PLAIT_NUMERIC_OK, 0.0},
      {0.0, 3.0, PLAIT_NUMERIC_OK, 0.0},
      {0.0, -3.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {0.0, 0.5, PLAIT_NUMERIC_OK, 0.0},
      {0.0, -0.5, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {0.0, 400.0, PLAIT_NUMERIC_OK, 0.0},
      {0.0, -1075.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {0.0, kInf, PLAIT_NUMERIC_OK, 0.0},
      {0.0, -kInf, PLAIT_NUMERIC_OK, kInf},
      {0.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {0.0, 1e+300, PLAIT_NUMERIC_OK, 0.0},
      {0.0, -1e+300, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {0.0, 0.3333333333333333, PLAIT_NUMERIC_OK, 0.0},
      {-0.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {-0.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {-0.0, 1.0, PLAIT_NUMERIC_OK, -0.0},
      {-0.0, -1.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {-0.0, 2.0, PLAIT_NUMERIC_OK, 0.0},
      {-0.0, 3.0, PLAIT_NUMERIC_OK, -0.0},
      {-0.0, -3.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {-0.0, 0.5, PLAIT_NUMERIC_OK, 0.0},
      {-0.0, -0.5, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {-0.0, 400.0, PLAIT_NUMERIC_OK, 0.0},
      {-0.0, -1075.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {-0.0, kInf, PLAIT_NUMERIC_OK, 0.0},
      {-0.0, -kInf, PLAIT_NUMERIC_OK, kInf},
      {-0.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-0.0, 1e+300, PLAIT_NUMERIC_OK, 0.0},
      {-0.0, -1e+300, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {-0.0, 0.3333333333333333, PLAIT_NUMERIC_OK, 0.0},
      {1.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 1.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -1.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 2.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 3.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -3.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 0.5, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -0.5, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 400.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -1075.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, kInf, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -kInf, PLAIT_NUMERIC_OK, 1.0},
      {1.0, kNaN, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 1e+300, PLAIT_NUMERIC_OK, 1.0},
      {1.0, -1e+300, PLAIT_NUMERIC_OK, 1.0},
      {1.0, 0.3333333333333333, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, 1.0, PLAIT_NUMERIC_OK, -1.0},
      {-1.0, -1.0, PLAIT_NUMERIC_OK, -1.0},
      {-1.0, 2.0, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, 3.0, PLAIT_NUMERIC_OK, -1.0},
      {-1.0, -3.0, PLAIT_NUMERIC_OK, -1.0},
      {-1.0, 0.5, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-1.0, -0.5, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-1.0, 400.0, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, -1075.0, PLAIT_NUMERIC_OK, -1.0},
      {-1.0, kInf, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, -kInf, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-1.0, 1e+300, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, -1e+300, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, 0.3333333333333333, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {2.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {2.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {2.0, 1.0, PLAIT_NUMERIC_OK, 2.0},
      {2.0, -1.0, PLAIT_NUMERIC_OK, 0.5},
      {2.0, 2.0, PLAIT_NUMERIC_OK, 4.0},
      {2.0, 3.0, PLAIT_NUMERIC_OK, 8.0},
      {2.0, -3.0, PLAIT_NUMERIC_OK, 0.125},
      {2.0, 0.5, PLAIT_NUMERIC_OK, 1.4142135623730951},
      {2.0, -0.5, PLAIT_NUMERIC_OK, 0.7071067811865476},
      {2.0, 400.0, PLAIT_NUMERIC_OK, 2.5822498780869086e+120},
      {2.0, -1075.0, PLAIT_NUMERIC_OK, 0.0},
      {2.0, kInf, PLAIT_NUMERIC_OK, kInf},
      {2.0, -kInf, PLAIT_NUMERIC_OK, 0.0},
      {2.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {2.0, 1e+300, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {2.0, -1e+300, PLAIT_NUMERIC_OK, 0.0},
      {2.0, 0.3333333333333333, PLAIT_NUMERIC_OK, 1.2599210498948732},
      {-2.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {-2.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {-2.0, 1.0, PLAIT_NUMERIC_OK, -2.0},
      {-2.0, -1.0, PLAIT_NUMERIC_OK, -0.5},
      {-2.0, 2.0, PLAIT_NUMERIC_OK, 4.0},
      {-2.0, 3.0, PLAIT_NUMERIC_OK, -8.0},
      {-2.0, -3.0, PLAIT_NUMERIC_OK, -0.125},
      {-2.0, 0.5, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-2.0, -0.5, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-2.0, 400.0, PLAIT_NUMERIC_OK, 2.5822498780869086e+120},
      {-2.0, -1075.0, PLAIT_NUMERIC_OK, -0.0},
      {-2.0, kInf, PLAIT_NUMERIC_OK, kInf},
      {-2.0, -kInf, PLAIT_NUMERIC_OK, 0.0},
      {-2.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-2.0, 1e+300, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {-2.0, -1e+300, PLAIT_NUMERIC_OK, 0.0},
      {-2.0, 0.3333333333333333, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {0.5, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {0.5, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {0.5, 1.0, PLAIT_NUMERIC_OK, 0.5},
      {0.5, -1.0, PLAIT_NUMERIC_OK, 2.0},
      {0.5, 2.0, PLAIT_NUMERIC_OK, 0.25},
      {0.5, 3.0, PLAIT_NUMERIC_OK, 0.125},
      {0.5, -3.0, PLAIT_NUMERIC_OK, 8.0},
      {0.5, 0.5, PLAIT_NUMERIC_OK, 0.7071067811865476},
      {0.5, -0.5, PLAIT_NUMERIC_OK, 1.4142135623730951},
      {0.5, 400.0, PLAIT_NUMERIC_OK, 3.8725919148493183e-121},
      {0.5, -1075.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {0.5, kInf, PLAIT_NUMERIC_OK, 0.0},
      {0.5, -kInf, PLAIT_NUMERIC_OK, kInf},
      {0.5, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {0.5, 1e+300, PLAIT_NUMERIC_OK, 0.0},
      {0.5, -1e+300, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {0.5, 0.3333333333333333, PLAIT_NUMERIC_OK, 0.7937005259840998},
      {-0.5, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {-0.5, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {-0.5, 1.0, PLAIT_NUMERIC_OK, -0.5},
      {-0.5, -1.0, PLAIT_NUMERIC_OK, -2.0},
      {-0.5, 2.0, PLAIT_NUMERIC_OK, 0.25},
      {-0.5, 3.0, PLAIT_NUMERIC_OK, -0.125},
      {-0.5, -3.0, PLAIT_NUMERIC_OK, -8.0},
      {-0.5, 0.5, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-0.5, -0.5, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-0.5, 400.0, PLAIT_NUMERIC_OK, 3.8725919148493183e-121},
      {-0.5, -1075.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {-0.5, kInf, PLAIT_NUMERIC_OK, 0.0},
      {-0.5, -kInf, PLAIT_NUMERIC_OK, kInf},
      {-0.5, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-0.5, 1e+300, PLAIT_NUMERIC_OK, 0.0},
      {-0.5, -1e+300, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {-0.5, 0.3333333333333333, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {10.0, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {10.0, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {10.0, 1.0, PLAIT_NUMERIC_OK, 10.0},
      {10.0, -1.0, PLAIT_NUMERIC_OK, 0.1},
      {10.0, 2.0, PLAIT_NUMERIC_OK, 100.0},
      {10.0, 3.0, PLAIT_NUMERIC_OK, 1000.0},
      {10.0, -3.0, PLAIT_NUMERIC_OK, 0.001},
      {10.0, 0.5, PLAIT_NUMERIC_OK, 3.1622776601683795},
      {10.0, -0.5, PLAIT_NUMERIC_OK, 0.31622776601683794},
      {10.0, 400.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {10.0, -1075.0, PLAIT_NUMERIC_OK, 0.0},
      {10.0, kInf, PLAIT_NUMERIC_OK, kInf},
      {10.0, -kInf, PLAIT_NUMERIC_OK, 0.0},
      {10.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {10.0, 1e+300, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {10.0, -1e+300, PLAIT_NUMERIC_OK, 0.0},
      {10.0, 0.3333333333333333, PLAIT_NUMERIC_OK, 2.154434690031884},
      {kInf, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {kInf, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {kInf, 1.0, PLAIT_NUMERIC_OK, kInf},
      {kInf, -1.0, PLAIT_NUMERIC_OK, 0.0},
      {kInf, 2.0, PLAIT_NUMERIC_OK, kInf},
      {kInf, 3.0, PLAIT_NUMERIC_OK, kInf},
      {kInf, -3.0, PLAIT_NUMERIC_OK, 0.0},
      {kInf, 0.5, PLAIT_NUMERIC_OK, kInf},
      {kInf, -0.5, PLAIT_NUMERIC_OK, 0.0},
      {kInf, 400.0, PLAIT_NUMERIC_OK, kInf},
      {kInf, -1075.0, PLAIT_NUMERIC_OK, 0.0},
      {kInf, kInf, PLAIT_NUMERIC_OK, kInf},
      {kInf, -kInf, PLAIT_NUMERIC_OK, 0.0},
      {kInf, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {kInf, 1e+300, PLAIT_NUMERIC_OK, kInf},
      {kInf, -1e+300, PLAIT_NUMERIC_OK, 0.0},
      {kInf, 0.3333333333333333, PLAIT_NUMERIC_OK, kInf},
      {-kInf, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {-kInf, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {-kInf, 1.0, PLAIT_NUMERIC_OK, -kInf},
      {-kInf, -1.0, PLAIT_NUMERIC_OK, -0.0},
      {-kInf, 2.0, PLAIT_NUMERIC_OK, kInf},
      {-kInf, 3.0, PLAIT_NUMERIC_OK, -kInf},
      {-kInf, -3.0, PLAIT_NUMERIC_OK, -0.0},
      {-kInf, 0.5, PLAIT_NUMERIC_OK, kInf},
      {-kInf, -0.5, PLAIT_NUMERIC_OK, 0.0},
      {-kInf, 400.0, PLAIT_NUMERIC_OK, kInf},
      {-kInf, -1075.0, PLAIT_NUMERIC_OK, -0.0},
      {-kInf, kInf, PLAIT_NUMERIC_OK, kInf},
      {-kInf, -kInf, PLAIT_NUMERIC_OK, 0.0},
      {-kInf, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-kInf, 1e+300, PLAIT_NUMERIC_OK, kInf},
      {-kInf, -1e+300, PLAIT_NUMERIC_OK, 0.0},
      {-kInf, 0.3333333333333333, PLAIT_NUMERIC_OK, kInf},
      {kNaN, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {kNaN, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {kNaN, 1.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, -1.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, 2.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, 3.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, -3.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, 0.5, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, -0.5, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, 400.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, -1075.0, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, kInf, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, -kInf, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, 1e+300, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, -1e+300, PLAIT_NUMERIC_OK, kNaN},
      {kNaN, 0.3333333333333333, PLAIT_NUMERIC_OK, kNaN},
      {5e-324, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {5e-324, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {5e-324, 1.0, PLAIT_NUMERIC_OK, 5e-324},
      {5e-324, -1.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {5e-324, 2.0, PLAIT_NUMERIC_OK, 0.0},
      {5e-324, 3.0, PLAIT_NUMERIC_OK, 0.0},
      {5e-324, -3.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {5e-324, 0.5, PLAIT_NUMERIC_OK, 2.2227587494850775e-162},
      {5e-324, -0.5, PLAIT_NUMERIC_OK, 4.4989137945431964e+161},
      {5e-324, 400.0, PLAIT_NUMERIC_OK, 0.0},
      {5e-324, -1075.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {5e-324, kInf, PLAIT_NUMERIC_OK, 0.0},
      {5e-324, -kInf, PLAIT_NUMERIC_OK, kInf},
      {5e-324, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {5e-324, 1e+300, PLAIT_NUMERIC_OK, 0.0},
      {5e-324, -1e+300, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {5e-324, 0.3333333333333333, PLAIT_NUMERIC_OK, 1.7031839360032837e-108},
  };
  for (const PowRow &row : rows) {
    SCOPED_TRACE(describe(row.a) + " ** " + describe(row.b));
    double out = kSentinel;
    ASSERT_EQ(plait_rt_float_pow(row.a, row.b, &out), row.status);
    if (row.status == PLAIT_NUMERIC_OK)
      EXPECT_TRUE(sameDouble(out, row.result));
    else
      EXPECT_EQ(out, kSentinel);
  }
}

TEST(PyNumericTest, FloatPowNamedCases) {
  // From CPython 3.11.
  const PowRow rows[] = {
      // CPython: (1.0000000000000002+1.7320508075688772j).
      {-8.0, 1.0 / 3.0, PLAIT_NUMERIC_POW_COMPLEX, 0.0},
      {-2.0, 3.0, PLAIT_NUMERIC_OK, -8.0},
      {10.0, 400.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {-0.0, -1.0, PLAIT_NUMERIC_ZERO_POW_NEGATIVE, 0.0},
      {-0.0, -kInf, PLAIT_NUMERIC_OK, kInf}, // 0.0 ** -inf is inf, no error
      {0.0, -kInf, PLAIT_NUMERIC_OK, kInf},
      {kNaN, 0.0, PLAIT_NUMERIC_OK, 1.0},
      {kNaN, -0.0, PLAIT_NUMERIC_OK, 1.0},
      {1.0, kNaN, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-kInf, kNaN, PLAIT_NUMERIC_OK, kNaN},
      {-1.0, kInf, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, -kInf, PLAIT_NUMERIC_OK, 1.0},
      {-1.0, 9007199254740991.0, PLAIT_NUMERIC_OK, -1.0}, // odd, 2**53 - 1
      {-1.0, 1e300, PLAIT_NUMERIC_OK, 1.0},
      {-0.0, 3.0, PLAIT_NUMERIC_OK, -0.0},
      {-0.0, 0.5, PLAIT_NUMERIC_OK, 0.0},
      {-kInf, 3.0, PLAIT_NUMERIC_OK, -kInf},
      {-kInf, -3.0, PLAIT_NUMERIC_OK, -0.0},
      {-kInf, 0.5, PLAIT_NUMERIC_OK, kInf},
      {-0.5, kInf, PLAIT_NUMERIC_OK, 0.0},
      {-2.0, -kInf, PLAIT_NUMERIC_OK, 0.0},
      {2.0, 0.5, PLAIT_NUMERIC_OK, 1.4142135623730951},
      {1.1, 100.5, PLAIT_NUMERIC_OK, 14453.22815520849},
      {3.0, -0.5, PLAIT_NUMERIC_OK, 0.5773502691896257},
      {-1.5, 1023.0, PLAIT_NUMERIC_OK, -1.3847074026888646e+180},
      {-2.0, 1023.0, PLAIT_NUMERIC_OK, -8.98846567431158e+307},
      {-2.0, 1024.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {1.0000001, 1e10, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      {5e-324, -1.0, PLAIT_NUMERIC_FLOAT_POW_OVERFLOW, 0.0},
      // Underflow to zero is not an error, and keeps the sign for odd powers.
      {2.0, -1075.0, PLAIT_NUMERIC_OK, 0.0},
      {-2.0, -1075.0, PLAIT_NUMERIC_OK, -0.0},
      {-0.5, 1075.0, PLAIT_NUMERIC_OK, -0.0},
      {2.0, -1074.0, PLAIT_NUMERIC_OK, 5e-324},
      // CPython raises OverflowError("complex exponentiation") here rather
      // than returning a complex; either way it is not a float result.
      {-8.0, 465218.40545928595, PLAIT_NUMERIC_COMPLEX_POW_OVERFLOW, 0.0},  // CPython: OverflowError("complex exponentiation")
  };
  for (const PowRow &row : rows) {
    SCOPED_TRACE(describe(row.a) + " ** " + describe(row.b));
    double out = kSentinel;
    ASSERT_EQ(plait_rt_float_pow(row.a, row.b, &out), row.status);
    if (row.status == PLAIT_NUMERIC_OK) {
      EXPECT_TRUE(sameDouble(out, row.result));
    }
  }
}

//===----------------------------------------------------------------------===//
// Integer power and modular power
//===----------------------------------------------------------------------===//

TEST(PyNumericTest, IntPowTable) {
  struct Row {
    int64_t a, b;
    int32_t checkedStatus;
    int64_t checked; // a ** b when it fits in int64.
    int64_t wrapped; // a ** b reduced modulo 2**64 into int64.
  };
  // From CPython 3.11: a ** b, and pow(a, b, 2**64) mapped to int64.
  const Row rows[] = {
      {0, 0, PLAIT_NUMERIC_OK, 1, 1},
      {5, 0, PLAIT_NUMERIC_OK, 1, 1},
      {-7, 0, PLAIT_NUMERIC_OK, 1, 1},
      {0, 1, PLAIT_NUMERIC_OK, 0, 0},
      {0, 5, PLAIT_NUMERIC_OK, 0, 0},
      {0, kMax, PLAIT_NUMERIC_OK, 0, 0},
      {1, kMax, PLAIT_NUMERIC_OK, 1, 1},
      {-1, kMax, PLAIT_NUMERIC_OK, -1, -1},
      {-1, kMax - 1, PLAIT_NUMERIC_OK, 1, 1},
      {2, 62, PLAIT_NUMERIC_OK, 4611686018427387904LL, 4611686018427387904LL},
      {2, 63, PLAIT_NUMERIC_INT_OVERFLOW, 0, kMin},
      {2, 64, PLAIT_NUMERIC_INT_OVERFLOW, 0, 0},
      {-2, 63, PLAIT_NUMERIC_OK, kMin, kMin},
      {-2, 64, PLAIT_NUMERIC_INT_OVERFLOW, 0, 0},
      {-2, 62, PLAIT_NUMERIC_OK, 4611686018427387904LL, 4611686018427387904LL},
      {3, 39, PLAIT_NUMERIC_OK, 4052555153018976267LL, 4052555153018976267LL},
      {3, 40, PLAIT_NUMERIC_INT_OVERFLOW, 0, -6289078614652622815LL},
      {-3, 39, PLAIT_NUMERIC_OK, -4052555153018976267LL,
       -4052555153018976267LL},
      {-3, 40, PLAIT_NUMERIC_INT_OVERFLOW, 0, -6289078614652622815LL},
      {10, 18, PLAIT_NUMERIC_OK, 1000000000000000000LL, 1000000000000000000LL},
      {10, 19, PLAIT_NUMERIC_INT_OVERFLOW, 0, -8446744073709551616LL},
      {kMax, 1, PLAIT_NUMERIC_OK, kMax, kMax},
      {kMin, 1, PLAIT_NUMERIC_OK, kMin, kMin},
      {kMax, 2, PLAIT_NUMERIC_INT_OVERFLOW, 0, 1},
      {kMin, 2, PLAIT_NUMERIC_INT_OVERFLOW, 0, 0},
      {3037000499LL, 2, PLAIT_NUMERIC_OK, 9223372030926249001LL,
       9223372030926249001LL},
      {3037000500LL, 2, PLAIT_NUMERIC_INT_OVERFLOW, 0, -9223372036709301616LL},
      {-3037000500LL, 2, PLAIT_NUMERIC_INT_OVERFLOW, 0, -9223372036709301616LL},
      {2097151, 3, PLAIT_NUMERIC_OK, 9223358842721533951LL,
       9223358842721533951LL},
      {2097152, 3, PLAIT_NUMERIC_INT_OVERFLOW, 0, kMin},
      {-2097152, 3, PLAIT_NUMERIC_OK, kMin, kMin},
      {7, 22, PLAIT_NUMERIC_OK, 3909821048582988049LL, 3909821048582988049LL},
      {7, 23, PLAIT_NUMERIC_INT_OVERFLOW, 0, 8922003266371364727LL},
      {2, -1, PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT, 0, 0},
      {0, -1, PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT, 0, 0},
      {1, kMin, PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT, 0, 0},
  };
  for (const Row &row : rows) {
    SCOPED_TRACE(std::to_string(row.a) + " ** " + std::to_string(row.b));
    int64_t out = kIntSentinel;
    ASSERT_EQ(plait_rt_int_pow(row.a, row.b, 1, &out), row.checkedStatus);
    EXPECT_EQ(out, row.checkedStatus == PLAIT_NUMERIC_OK ? row.checked
                                                         : kIntSentinel);
    out = kIntSentinel;
    if (row.b < 0) {
      EXPECT_EQ(plait_rt_int_pow(row.a, row.b, 0, &out),
                PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT);
      EXPECT_EQ(out, kIntSentinel);
    } else {
      ASSERT_EQ(plait_rt_int_pow(row.a, row.b, 0, &out), PLAIT_NUMERIC_OK);
      EXPECT_EQ(out, row.wrapped);
    }
  }
}

TEST(PyNumericTest, IntPowHugeExponents) {
  int64_t out = 0;
  EXPECT_EQ(plait_rt_int_pow(2, kMax, 1, &out), PLAIT_NUMERIC_INT_OVERFLOW);
  EXPECT_EQ(plait_rt_int_pow(kMin, kMax, 1, &out), PLAIT_NUMERIC_INT_OVERFLOW);
  ASSERT_EQ(plait_rt_int_pow(2, kMax, 0, &out), PLAIT_NUMERIC_OK);
  EXPECT_EQ(out, 0);
  // pow(3, 2**63 - 1, 2**64) - 2**64 in CPython 3.11.
  ASSERT_EQ(plait_rt_int_pow(3, kMax, 0, &out), PLAIT_NUMERIC_OK);
  EXPECT_EQ(out, -6148914691236517205LL);
  ASSERT_EQ(plait_rt_int_pow(-1, kMax, 1, &out), PLAIT_NUMERIC_OK);
  EXPECT_EQ(out, -1);
  ASSERT_EQ(plait_rt_int_pow(0, kMax, 1, &out), PLAIT_NUMERIC_OK);
  EXPECT_EQ(out, 0);
}

TEST(PyNumericTest, IntPowCheckedMatchesWideReferenceRandomized) {
  // Reference: repeated multiplication in __int128, stopping once out of
  // int64 range (each factor is below 2**63, so one step cannot overflow).
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    int64_t a = i % 2 ? static_cast<int64_t>(rng() % 41) - 20
                      : randomInt64(rng);
    int64_t b = static_cast<int64_t>(rng() % 70);
    __int128 ref = 1;
    bool overflow = false;
    for (int64_t k = 0; k < b && !overflow; ++k) {
      ref *= a;
      overflow = ref > kMax || ref < kMin;
    }
    int64_t out = kIntSentinel;
    int32_t status = plait_rt_int_pow(a, b, 1, &out);
    if (overflow) {
      ASSERT_EQ(status, PLAIT_NUMERIC_INT_OVERFLOW) << a << " ** " << b;
    } else {
      ASSERT_EQ(status, PLAIT_NUMERIC_OK) << a << " ** " << b;
      ASSERT_EQ(out, static_cast<int64_t>(ref)) << a << " ** " << b;
    }
    // Wrapping mode agrees with the checked result whenever that fits.
    int64_t wrapped;
    ASSERT_EQ(plait_rt_int_pow(a, b, 0, &wrapped), PLAIT_NUMERIC_OK);
    if (!overflow) {
      ASSERT_EQ(wrapped, out);
    }
  }
}

TEST(PyNumericTest, IntPowModTable) {
  struct Row {
    int64_t a, b, m;
    int32_t status;
    int64_t result;
  };
  // From CPython 3.11 pow(a, b, m), except the negative-exponent rows:
  // CPython 3.8+ computes a modular inverse there (pow(2, -1, 5) == 3,
  // pow(2, -1, 1) == 0); this helper reports them for the caller instead.
  const Row rows[] = {
      {3, 4, 5, PLAIT_NUMERIC_OK, 1},
      {3, 4, -5, PLAIT_NUMERIC_OK, -4},
      {-3, 3, 5, PLAIT_NUMERIC_OK, 3},
      {-3, 3, -5, PLAIT_NUMERIC_OK, -2},
      {0, 0, 1, PLAIT_NUMERIC_OK, 0},
      {0, 0, -1, PLAIT_NUMERIC_OK, 0},
      {5, 0, 1, PLAIT_NUMERIC_OK, 0},
      {5, 0, -1, PLAIT_NUMERIC_OK, 0},
      {5, 0, 7, PLAIT_NUMERIC_OK, 1},
      {5, 0, -7, PLAIT_NUMERIC_OK, -6},
      {0, 0, 7, PLAIT_NUMERIC_OK, 1},
      {7, 3, 7, PLAIT_NUMERIC_OK, 0},
      {7, 3, -7, PLAIT_NUMERIC_OK, 0},
      {2, 1000000000000000000LL, 1000000007, PLAIT_NUMERIC_OK, 719476260},
      {kMax, kMax, kMax - 1, PLAIT_NUMERIC_OK, 1},
      {kMin, kMax, kMax, PLAIT_NUMERIC_OK, kMax - 1},
      {kMax, kMax, kMin, PLAIT_NUMERIC_OK, -1},
      {kMin, 3, kMin, PLAIT_NUMERIC_OK, 0},
      {kMin + 1, 2, kMin, PLAIT_NUMERIC_OK, kMin + 1},
      {-1, kMax, kMin, PLAIT_NUMERIC_OK, -1},
      {2, 62, kMin, PLAIT_NUMERIC_OK, -4611686018427387904LL},
      {2, 63, kMin, PLAIT_NUMERIC_OK, 0},
      {3, 100, kMin, PLAIT_NUMERIC_OK, -2984622845537545263LL},
      {-5, 3, kMin + 1, PLAIT_NUMERIC_OK, -125},
      {123456789, 987654321, 4294967291LL, PLAIT_NUMERIC_OK, 4114726592LL},
      {9223372036854775783LL, kMax, 2305843009213693951LL, PLAIT_NUMERIC_OK,
       2305843007412605410LL},
      {2, -1, 5, PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT, 0},
      {2, -1, 1, PLAIT_NUMERIC_NEGATIVE_INT_EXPONENT, 0},
      {2, 3, 0, PLAIT_NUMERIC_POWMOD_ZERO_MODULUS, 0},
      {2, -1, 0, PLAIT_NUMERIC_POWMOD_ZERO_MODULUS, 0},
  };
  for (const Row &row : rows) {
    SCOPED_TRACE("pow(" + std::to_string(row.a) + ", " + std::to_string(row.b) +
                 ", " + std::to_string(row.m) + ")");
    int64_t out = kIntSentinel;
    ASSERT_EQ(plait_rt_int_powmod(row.a, row.b, row.m, &out), row.status);
    EXPECT_EQ(out, row.status == PLAIT_NUMERIC_OK ? row.result : kIntSentinel);
  }
}

//===----------------------------------------------------------------------===//
// Integer true division
//===----------------------------------------------------------------------===//

TEST(PyNumericTest, IntTrueDivTable) {
  struct Row {
    int64_t a, b;
    double result;
  };
  // From CPython 3.11. Several rows double-round with double(a)/double(b).
  const Row rows[] = {
      {0, 5, 0.0},
      {0, -5, -0.0},
      {0, kMin, -0.0},
      {0, kMax, 0.0},
      {1, 3, 0.3333333333333333},
      {-1, 3, -0.3333333333333333},
      {2, -3, -0.6666666666666666},
      {7, 7, 1.0},
      {-6, 3, -2.0},
      {1, kMin, -1.0842021724855044e-19},
      {-1, kMin, 1.0842021724855044e-19},
      {kMin, kMin, 1.0},
      {kMin, -1, 9.223372036854776e+18},
      {kMin, 1, -9.223372036854776e+18},
      {kMax, 1, 9.223372036854776e+18},
      {kMax, -1, -9.223372036854776e+18},
      {kMax, kMax, 1.0},
      {kMax, kMin, -1.0},
      {kMin, kMax, -1.0},
      {kMax, 2, 4.611686018427388e+18},
      {kMax, 3, 3.0744573456182584e+18},
      {9007199254740992LL, 1, 9007199254740992.0},
      {9007199254740993LL, 1, 9007199254740992.0},
      {-9007199254740993LL, 1, -9007199254740992.0},
      {9007199254740995LL, 1, 9007199254740996.0},
      {18014398509481986LL, 1, 1.8014398509481984e+16},
      {18014398509481990LL, 1, 1.801439850948199e+16},
      {18014398509481986LL, 9007199254740993LL, 2.0},
      {9007199254740993LL, 9007199254740994LL, 0.9999999999999999},
      {1, 9007199254740993LL, 1.1102230246251564e-16},
      {3, 4611686018427387905LL, 6.505213034913027e-19},
      {1000000000000000001LL, 1000000000000000000LL, 1.0},
      {1000000000000000000LL, 3, 3.333333333333333e+17},
      {123456789123456789LL, 1000, 123456789123456.78},
      {-123456789123456789LL, 987654321987LL, -124999.99886102031},
      {kMax, 1000000000000000000LL, 9.223372036854776},
      {kMin, 3, -3.0744573456182584e+18},
      {4611686018427387905LL, 4611686018427387903LL, 1.0},
  };
  for (const Row &row : rows) {
    SCOPED_TRACE(std::to_string(row.a) + " / " + std::to_string(row.b));
    double out = kSentinel;
    ASSERT_EQ(plait_rt_int_truediv(row.a, row.b, &out), PLAIT_NUMERIC_OK);
    EXPECT_TRUE(sameDouble(out, row.result));
  }
}

TEST(PyNumericTest, IntTrueDivAvoidsDoubleRounding) {
  struct Row {
    int64_t a, b;
    double result;
  };
  // From CPython 3.11; double(a) / double(b) rounds twice and gets each of
  // these wrong (it gives 3081299822972798.5, 20062706806036.066 and
  // 0.22902177746130853), which the test also checks.
  const Row rows[] = {
      {2646836547933634183LL, 859, 3081299822972799.0},
      {500624722931017890LL, 24953, 20062706806036.062},
      {7472842155438677LL, 32629395502360717LL, 0.2290217774613085},
  };
  for (const Row &row : rows) {
    SCOPED_TRACE(std::to_string(row.a) + " / " + std::to_string(row.b));
    double out;
    ASSERT_EQ(plait_rt_int_truediv(row.a, row.b, &out), PLAIT_NUMERIC_OK);
    EXPECT_TRUE(sameDouble(out, row.result));
    EXPECT_NE(static_cast<double>(row.a) / static_cast<double>(row.b),
              row.result)
        << "no longer an example of double rounding";
  }
}

TEST(PyNumericTest, IntTrueDivByZero) {
  for (int64_t a : {int64_t(0), int64_t(1), int64_t(-1), kMin, kMax}) {
    double out = kSentinel;
    EXPECT_EQ(plait_rt_int_truediv(a, 0, &out), PLAIT_NUMERIC_INT_DIV_BY_ZERO);
    EXPECT_EQ(out, kSentinel);
  }
}

namespace {

// Checks that d is the double nearest to a / b (ties to even), exactly.
// Each candidate c = M * 2**E (M a 53-bit integer) is compared by its error
// | |a| * 2**S - c * 2**S * |b| | in __int128, with S chosen so that every
// c * 2**S is an integer. All terms stay below 2**119.
::testing::AssertionResult truedivIsCorrectlyRounded(int64_t a, int64_t b,
                                                     double d) {
  if (a == 0) {
    // CPython's sign rule: 0 / negative is -0.0.
    if (d == 0.0 && std::signbit(d) == (b < 0))
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "zero quotient " << describe(d);
  }
  if (!std::isfinite(d) || d == 0.0 ||
      std::signbit(d) != ((a < 0) != (b < 0)))
    return ::testing::AssertionFailure() << "bad sign or range " << describe(d);
  double mag = std::fabs(d);
  double cands[3] = {std::nextafter(mag, 0.0), mag, std::nextafter(mag, kInf)};
  int64_t mant[3];
  int exp[3];
  int minExp = INT_MAX;
  for (int k = 0; k < 3; ++k) {
    int e;
    double m = std::frexp(cands[k], &e);
    mant[k] = static_cast<int64_t>(std::ldexp(m, 53));
    exp[k] = e - 53;
    minExp = std::min(minExp, exp[k]);
  }
  int shift = minExp < 0 ? -minExp : 0;
  __int128 target = static_cast<__int128>(magnitude(a)) << shift;
  __int128 err[3];
  for (int k = 0; k < 3; ++k) {
    __int128 scaled = static_cast<__int128>(mant[k]) << (exp[k] + shift);
    __int128 diff = target - scaled * static_cast<__int128>(magnitude(b));
    err[k] = diff < 0 ? -diff : diff;
  }
  if (err[1] > err[0] || err[1] > err[2])
    return ::testing::AssertionFailure()
           << describe(d) << " is not the nearest double to " << a << " / "
           << b;
  if ((err[1] == err[0] || err[1] == err[2]) && (mant[1] & 1))
    return ::testing::AssertionFailure()
           << describe(d) << " breaks a tie to odd for " << a << " / " << b;
  return ::testing::AssertionSuccess();
}

} // namespace

TEST(PyNumericTest, IntTrueDivMatchesExactReferenceRandomized) {
  std::mt19937_64 rng(12345);
  for (int i = 0; i < 300000; ++i) {
    int64_t a = randomInt64(rng), b = randomInt64(rng);
    if (b == 0)
      continue;
    double out;
    ASSERT_EQ(plait_rt_int_truediv(a, b, &out), PLAIT_NUMERIC_OK);
    ASSERT_TRUE(truedivIsCorrectlyRounded(a, b, out));
  }
}

TEST(PyNumericTest, IntTrueDivTiesAndNearTiesRandomized) {
  // a = q * b (+-1) where q has 54..62 bits and sits exactly halfway between
  // two doubles, so only a correctly rounded division gets these right.
  std::mt19937_64 rng(99);
  for (int i = 0; i < 100000; ++i) {
    int bits = 54 + static_cast<int>(rng() % 9);
    int drop = bits - 53;
    uint64_t q = (rng() >> (64 - bits)) | (uint64_t(1) << (bits - 1));
    q = (q >> drop << drop) | (uint64_t(1) << (drop - 1));
    uint64_t bMax = static_cast<uint64_t>(kMax) / q;
    int64_t b = static_cast<int64_t>(1 + rng() % bMax);
    for (int64_t delta : {0, 1, -1}) {
      __int128 wide = static_cast<__int128>(q) * b + delta;
      if (wide > kMax)
        continue;
      int64_t a = static_cast<int64_t>(wide);
      for (int signs = 0; signs < 4; ++signs) {
        int64_t sa = signs & 1 ? -a : a, sb = signs & 2 ? -b : b;
        double out;
        ASSERT_EQ(plait_rt_int_truediv(sa, sb, &out), PLAIT_NUMERIC_OK);
        ASSERT_TRUE(truedivIsCorrectlyRounded(sa, sb, out));
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Int/float comparison
//===----------------------------------------------------------------------===//

TEST(PyNumericTest, CmpIntFloatTable) {
  struct Row {
    int64_t i;
    double f;
    int32_t result;
  };
  // From CPython 3.11: -1 if i < f, 1 if i > f, 0 if i == f, 2 if unordered.
  const Row rows[] = {
      {0, 0.0, 0},
      {0, -0.0, 0},
      {0, 5e-324, -1},
      {0, -5e-324, 1},
      {1, 0.5, 1},
      {-1, -0.5, -1},
      {-1, -1.0, 0},
      {3, 2.9999999999999996, 1},
      {9007199254740993LL, 9007199254740992.0, 1},
      {9007199254740993LL, 9007199254740994.0, -1},
      {9007199254740992LL, 9007199254740992.0, 0},
      {kMax, 9.223372036854776e+18, -1},
      {kMax, 9.223372036854775e+18, 1},
      {kMin, -9.223372036854776e+18, 0},
      {kMin, -9.223372036854778e+18, 1},
      {kMin + 1, -9.223372036854776e+18, 1},
      {kMax, kInf, -1},
      {kMin, -kInf, 1},
      {0, kNaN, 2},
      {kMax, kNaN, 2},
      {kMax, 1e+300, -1},
      {kMin, -1e+300, 1},
      {-9007199254740993LL, -9007199254740992.0, -1},
      {1000000000000000001LL, 1e+18, 1},
      {1000000000000000000LL, 1e+18, 0},
  };
  for (const Row &row : rows)
    EXPECT_EQ(plait_rt_cmp_int_float(row.i, row.f), row.result)
        << row.i << " vs " << describe(row.f);
}

TEST(PyNumericTest, CmpIntFloatMatchesExactReferenceRandomized) {
  // x87 long double has a 64-bit significand, so both operands convert to it
  // exactly and its comparison is exact.
  if (std::numeric_limits<long double>::digits < 64)
    GTEST_SKIP() << "long double cannot hold every int64 exactly here";
  std::mt19937_64 rng(4242);
  for (int i = 0; i < 300000; ++i) {
    int64_t n = randomInt64(rng);
    double f;
    switch (rng() % 6) {
    case 0: // The int rounded to double: equal or off by the rounding error.
      f = static_cast<double>(n);
      break;
    case 1:
      f = std::nextafter(static_cast<double>(n), kInf);
      break;
    case 2:
      f = std::nextafter(static_cast<double>(n), -kInf);
      break;
    case 3:
      f = static_cast<double>(n) +
          (static_cast<double>(rng() % 9) - 4.0) * 0.25;
      break;
    case 4:
      f = static_cast<double>(randomInt64(rng));
      break;
    default: {
      uint64_t fb = rng();
      std::memcpy(&f, &fb, sizeof(f));
    }
    }
    int32_t want;
    if (std::isnan(f)) {
      want = 2;
    } else {
      long double ln = n, lf = f;
      want = ln < lf ? -1 : (ln > lf ? 1 : 0);
    }
    ASSERT_EQ(plait_rt_cmp_int_float(n, f), want) << n << " vs " << describe(f);
  }
}

//===----------------------------------------------------------------------===//
// round() and float -> int conversions
//===----------------------------------------------------------------------===//

TEST(PyNumericTest, RoundHalfEvenTable) {
  struct Row {
    double x, rounded;
  };
  // The integer value is round(x) from CPython 3.11. The sign of a zero
  // result is that of CPython's internal double (round(x), or for halfway
  // cases 2.0 * round(x / 2.0)), which Python code never sees.
  const Row rows[] = {
      {0.0, 0.0},
      {-0.0, -0.0},
      {0.4, 0.0},
      {-0.4, -0.0},
      {0.5, 0.0},
      {-0.5, -0.0},
      {1.5, 2.0},
      {-1.5, -2.0},
      {2.5, 2.0},
      {-2.5, -2.0},
      {3.5, 4.0},
      {0.49999999999999994, 0.0},
      {-0.49999999999999994, -0.0},
      {0.5000000000000001, 1.0},
      {1e-300, 0.0},
      {5e-324, 0.0},
      {4503599627370495.5, 4503599627370496.0},
      {-4503599627370495.5, -4503599627370496.0},
      {4503599627370497.0, 4503599627370497.0},
      {9007199254740992.0, 9007199254740992.0},
      {1e+300, 1e+300},   // already integral
      {-1e+300, -1e+300}, // already integral
      {2.675, 3.0},
      {123456.5, 123456.0},
      {123457.5, 123458.0},
      {-123456.5, -123456.0},
  };
  for (const Row &row : rows)
    EXPECT_TRUE(sameDouble(plait_rt_round_half_even(row.x), row.rounded))
        << "round(" << describe(row.x) << ")";
}

TEST(PyNumericTest, RoundHalfEvenPassesThroughNonFinite) {
  // round(inf) / round(nan) raise in CPython when converting to int; the
  // conversion helper reports that.
  EXPECT_TRUE(sameDouble(plait_rt_round_half_even(kInf), kInf));
  EXPECT_TRUE(sameDouble(plait_rt_round_half_even(-kInf), -kInf));
  EXPECT_TRUE(std::isnan(plait_rt_round_half_even(kNaN)));
  int64_t out = kIntSentinel;
  EXPECT_EQ(plait_rt_float_to_int(plait_rt_round_half_even(kInf), &out),
            PLAIT_NUMERIC_FLOAT_TO_INT_INF);
  EXPECT_EQ(plait_rt_float_to_int(plait_rt_round_half_even(kNaN), &out),
            PLAIT_NUMERIC_FLOAT_TO_INT_NAN);
  EXPECT_EQ(out, kIntSentinel);
}

TEST(PyNumericTest, RoundHalfEvenMatchesNearbyintRandomized) {
  // nearbyint in the default rounding mode rounds half to even too, and is an
  // independent implementation.
  std::mt19937_64 rng(31337);
  for (int i = 0; i < 300000; ++i) {
    double x;
    if (i % 2) {
      // Halves and quarters around the interesting small range.
      x = static_cast<double>(static_cast<int64_t>(rng() % 4001) - 2000) / 4.0;
    } else {
      uint64_t xb = rng();
      std::memcpy(&x, &xb, sizeof(x));
      if (std::isnan(x))
        continue;
    }
    ASSERT_TRUE(sameDouble(plait_rt_round_half_even(x), std::nearbyint(x)))
        << "round(" << describe(x) << ")";
  }
}

TEST(PyNumericTest, FloatToIntTable) {
  struct Result {
    int32_t status;
    int64_t value;
  };
  struct Row {
    double x;
    Result trunc, floor, ceil;
  };
  // From CPython 3.11 int(x), math.floor(x), math.ceil(x); INT_OVERFLOW where
  // CPython's result leaves int64.
  const Row rows[] = {
      {0.0, {PLAIT_NUMERIC_OK, 0}, {PLAIT_NUMERIC_OK, 0},
       {PLAIT_NUMERIC_OK, 0}},
      {-0.0, {PLAIT_NUMERIC_OK, 0}, {PLAIT_NUMERIC_OK, 0},
       {PLAIT_NUMERIC_OK, 0}},
      {0.9, {PLAIT_NUMERIC_OK, 0}, {PLAIT_NUMERIC_OK, 0},
       {PLAIT_NUMERIC_OK, 1}},
      {-0.9, {PLAIT_NUMERIC_OK, 0}, {PLAIT_NUMERIC_OK, -1},
       {PLAIT_NUMERIC_OK, 0}},
      {1.0, {PLAIT_NUMERIC_OK, 1}, {PLAIT_NUMERIC_OK, 1},
       {PLAIT_NUMERIC_OK, 1}},
      {-1.0, {PLAIT_NUMERIC_OK, -1}, {PLAIT_NUMERIC_OK, -1},
       {PLAIT_NUMERIC_OK, -1}},
      {1.5, {PLAIT_NUMERIC_OK, 1}, {PLAIT_NUMERIC_OK, 1},
       {PLAIT_NUMERIC_OK, 2}},
      {-1.5, {PLAIT_NUMERIC_OK, -1}, {PLAIT_NUMERIC_OK, -2},
       {PLAIT_NUMERIC_OK, -1}},
      {2.5, {PLAIT_NUMERIC_OK, 2}, {PLAIT_NUMERIC_OK, 2},
       {PLAIT_NUMERIC_OK, 3}},
      {-2.5, {PLAIT_NUMERIC_OK, -2}, {PLAIT_NUMERIC_OK, -3},
       {PLAIT_NUMERIC_OK, -2}},
      {5e-324, {PLAIT_NUMERIC_OK, 0}, {PLAIT_NUMERIC_OK, 0},
       {PLAIT_NUMERIC_OK, 1}},
      {-5e-324, {PLAIT_NUMERIC_OK, 0}, {PLAIT_NUMERIC_OK, -1},
       {PLAIT_NUMERIC_OK, 0}},
      {1e+18, {PLAIT_NUMERIC_OK, 1000000000000000000LL},
       {PLAIT_NUMERIC_OK, 1000000000000000000LL},
       {PLAIT_NUMERIC_OK, 1000000000000000000LL}},
      {-1e+18, {PLAIT_NUMERIC_OK, -1000000000000000000LL},
       {PLAIT_NUMERIC_OK, -1000000000000000000LL},
       {PLAIT_NUMERIC_OK, -1000000000000000000LL}},
      {9007199254740994.0, {PLAIT_NUMERIC_OK, 9007199254740994LL},
       {PLAIT_NUMERIC_OK, 9007199254740994LL},
       {PLAIT_NUMERIC_OK, 9007199254740994LL}},
      {9.223372036854775e+18, {PLAIT_NUMERIC_OK, 9223372036854774784LL},
       {PLAIT_NUMERIC_OK, 9223372036854774784LL},
       {PLAIT_NUMERIC_OK, 9223372036854774784LL}},
      {-9.223372036854775e+18, {PLAIT_NUMERIC_OK, -9223372036854774784LL},
       {PLAIT_NUMERIC_OK, -9223372036854774784LL},
       {PLAIT_NUMERIC_OK, -9223372036854774784LL}},
      {9.223372036854776e+18, {PLAIT_NUMERIC_INT_OVERFLOW, 0},
       {PLAIT_NUMERIC_INT_OVERFLOW, 0}, {PLAIT_NUMERIC_INT_OVERFLOW, 0}},
      {-9.223372036854776e+18, {PLAIT_NUMERIC_OK, kMin},
       {PLAIT_NUMERIC_OK, kMin}, {PLAIT_NUMERIC_OK, kMin}},
      {-9.223372036854778e+18, {PLAIT_NUMERIC_INT_OVERFLOW, 0},
       {PLAIT_NUMERIC_INT_OVERFLOW, 0}, {PLAIT_NUMERIC_INT_OVERFLOW, 0}},
      {1e+300, {PLAIT_NUMERIC_INT_OVERFLOW, 0}, {PLAIT_NUMERIC_INT_OVERFLOW, 0},
       {PLAIT_NUMERIC_INT_OVERFLOW, 0}},
      {-1e+300, {PLAIT_NUMERIC_INT_OVERFLOW, 0},
       {PLAIT_NUMERIC_INT_OVERFLOW, 0}, {PLAIT_NUMERIC_INT_OVERFLOW, 0}},
      {kInf, {PLAIT_NUMERIC_FLOAT_TO_INT_INF, 0},
       {PLAIT_NUMERIC_FLOAT_TO_INT_INF, 0},
       {PLAIT_NUMERIC_FLOAT_TO_INT_INF, 0}},
      {-kInf, {PLAIT_NUMERIC_FLOAT_TO_INT_INF, 0},
       {PLAIT_NUMERIC_FLOAT_TO_INT_INF, 0},
       {PLAIT_NUMERIC_FLOAT_TO_INT_INF, 0}},
      {kNaN, {PLAIT_NUMERIC_FLOAT_TO_INT_NAN, 0},
       {PLAIT_NUMERIC_FLOAT_TO_INT_NAN, 0},
       {PLAIT_NUMERIC_FLOAT_TO_INT_NAN, 0}},
      {4503599627370495.5, {PLAIT_NUMERIC_OK, 4503599627370495LL},
       {PLAIT_NUMERIC_OK, 4503599627370495LL},
       {PLAIT_NUMERIC_OK, 4503599627370496LL}},
      {-4503599627370495.5, {PLAIT_NUMERIC_OK, -4503599627370495LL},
       {PLAIT_NUMERIC_OK, -4503599627370496LL},
       {PLAIT_NUMERIC_OK, -4503599627370495LL}},
  };
  for (const Row &row : rows) {
    SCOPED_TRACE(describe(row.x));
    const std::pair<int32_t (*)(double, int64_t *), Result> cases[] = {
        {plait_rt_float_to_int, row.trunc},
        {plait_rt_float_floor_to_int, row.floor},
        {plait_rt_float_ceil_to_int, row.ceil}};
    for (const auto &[fn, want] : cases) {
      int64_t out = kIntSentinel;
      ASSERT_EQ(fn(row.x, &out), want.status);
      EXPECT_EQ(out,
                want.status == PLAIT_NUMERIC_OK ? want.value : kIntSentinel);
    }
  }
}

TEST(NumPyKernelsTest, FloorDivisionAndRemainderDoNotRaise) {
  // NumPy's float // and %: Python's floor semantics, IEEE at zero.
  EXPECT_EQ(plait_rt_np_floordiv_f64(7.0, -2.0), -4.0);
  EXPECT_EQ(plait_rt_np_remainder_f64(7.0, -2.0), -1.0);
  EXPECT_TRUE(std::isinf(plait_rt_np_floordiv_f64(1.0, 0.0)));
  EXPECT_TRUE(std::isnan(plait_rt_np_remainder_f64(1.0, 0.0)));
  EXPECT_TRUE(std::isnan(plait_rt_np_floordiv_f64(0.0, 0.0)));
  EXPECT_EQ(plait_rt_np_remainder_f32(7.5f, -2.0f), -0.5f);
  EXPECT_TRUE(std::signbit(plait_rt_np_remainder_f64(-4.0, 2.0)) == false);
  // Integer powers wrap modulo 2**64.
  EXPECT_EQ(plait_rt_np_int_pow(3, 4), 81);
  EXPECT_EQ(plait_rt_np_int_pow(2, 64), 0);
  EXPECT_EQ(static_cast<int8_t>(plait_rt_np_int_pow(5, 4)), static_cast<int8_t>(625));
}

TEST(NumPyKernelsTest, ComplexDivisionFollowsCPythonAndNumPy) {
  double r[2];
  ASSERT_EQ(plait_rt_py_complex_div(1.0, 2.0, 3.0, 4.0, reinterpret_cast<int64_t>(r)), 0);
  EXPECT_DOUBLE_EQ(r[0], 0.44);
  EXPECT_DOUBLE_EQ(r[1], 0.08);
  // CPython raises on a zero divisor; NumPy divides by zero.
  EXPECT_EQ(plait_rt_py_complex_div(1.0, 2.0, 0.0, 0.0, reinterpret_cast<int64_t>(r)), 1);
  ASSERT_EQ(plait_rt_np_complex_div(1.0, 2.0, 0.0, 0.0, reinterpret_cast<int64_t>(r)), 0);
  EXPECT_TRUE(std::isinf(r[0]) && std::isinf(r[1]));
  // The pairwise sum of complex numbers, small and above one block.
  std::vector<double> data(2 * 300);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = (i % 2 ? -0.5 : 0.25) * static_cast<double>(i % 7);
  plait_rt_pairwise_sum_c128(reinterpret_cast<int64_t>(data.data()), 300, 1, reinterpret_cast<int64_t>(r));
  double re = 0, im = 0;
  for (size_t k = 0; k < 300; ++k) {
    re += data[2 * k];
    im += data[2 * k + 1];
  }
  EXPECT_DOUBLE_EQ(r[0], re); // exact: quarter-integers
  EXPECT_DOUBLE_EQ(r[1], im);
}
