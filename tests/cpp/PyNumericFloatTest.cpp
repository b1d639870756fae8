//===- PyNumericFloatTest.cpp - float //, %, divmod and ** ------------------===//
//
// Unless a comment says otherwise, every expected value in the tables below
// was computed by running the same expression in CPython 3.11.7.
//
//===----------------------------------------------------------------------===//
#include "NumericTestUtil.h"
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

using namespace plait::test::numeric;

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
