//===- PyNumericIntTest.cpp - int **, /, comparisons, rounding --------------===//
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
