//===- NumPyKernelsTest.cpp - NumPy's scalar kernels ---------------------===//
#include "NumericTestUtil.h"
#include "plait/Runtime/NumPyKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>

using namespace plait::test::numeric;

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

namespace {
/// Whether the parts a runtime complex function wrote are (re, im), signs of
/// zeros included, as CPython shows them.
bool sameParts(const double *r, double re, double im) {
  auto same = [](double x, double y) {
    return std::isnan(x) ? std::isnan(y) : x == y && std::signbit(x) == std::signbit(y);
  };
  return same(r[0], re) && same(r[1], im);
}
} // namespace

TEST(NumPyKernelsTest, ComplexAnnexGFollowsCPython314) {
  // Expected values printed by CPython 3.14.7.
  double r[2];
  const double inf = HUGE_VAL, nan = std::nan("");
  auto at = reinterpret_cast<int64_t>(r);
  ASSERT_EQ(plait_rt_py_complex_mul_annex_g(inf, nan, 1.0, 1.0, at), 0);
  EXPECT_TRUE(sameParts(r, inf, inf));
  ASSERT_EQ(plait_rt_py_complex_mul_annex_g(nan, inf, 2.0, 0.0, at), 0);
  EXPECT_TRUE(sameParts(r, nan, inf));
  ASSERT_EQ(plait_rt_py_complex_mul_annex_g(1e308, 1e308, 1e308, nan, at), 0);
  EXPECT_TRUE(sameParts(r, inf, inf));
  ASSERT_EQ(plait_rt_py_complex_div_annex_g(inf, nan, 1.0, 2.0, at), 0);
  EXPECT_TRUE(sameParts(r, inf, -inf));
  ASSERT_EQ(plait_rt_py_complex_div_annex_g(1.0, 2.0, inf, nan, at), 0);
  EXPECT_TRUE(sameParts(r, 0.0, 0.0));
  ASSERT_EQ(plait_rt_py_complex_div_annex_g(1.0, 2.0, 3.0, 4.0, at), 0);
  EXPECT_TRUE(sameParts(r, 0.44, 0.08));
  EXPECT_EQ(plait_rt_py_complex_div_annex_g(1.0, 2.0, 0.0, 0.0, at), 1);
  // A real dividend stays real.
  ASSERT_EQ(plait_rt_py_real_complex_div(1.0, inf, nan, at), 0);
  EXPECT_TRUE(sameParts(r, 0.0, -0.0));
  ASSERT_EQ(plait_rt_py_real_complex_div(-0.0, 1.0, 0.0, at), 0);
  EXPECT_TRUE(sameParts(r, -0.0, 0.0));
  ASSERT_EQ(plait_rt_py_real_complex_div(3.0, 1.0, 2.0, at), 0);
  EXPECT_TRUE(sameParts(r, 0.6, -1.2));
  EXPECT_EQ(plait_rt_py_real_complex_div(3.0, 0.0, 0.0, at), 1);
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
