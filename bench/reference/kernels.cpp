// The benchmark kernels in C++, compiled by the suite with g++ -O3: the same
// algorithms as bench/kernels.py, for a native reference point.
#include <cmath>
#include <cstdint>

extern "C" {

int64_t sum_of_squares(int64_t n) {
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i)
    total += i * i % 7;
  return total;
}

int64_t fib(int64_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int64_t mandelbrot(int64_t width, int64_t height, int64_t maxIter) {
  int64_t total = 0;
  for (int64_t py = 0; py < height; ++py) {
    double y0 = py * 2.0 / height - 1.0;
    for (int64_t px = 0; px < width; ++px) {
      double x0 = px * 3.0 / width - 2.0, x = 0, y = 0;
      int64_t k = 0;
      while (k < maxIter && x * x + y * y <= 4.0) {
        double nx = x * x - y * y + x0;
        y = 2.0 * x * y + y0;
        x = nx;
        ++k;
      }
      total += k;
    }
  }
  return total;
}

int64_t prime_count(int64_t n) {
  int64_t count = 0;
  for (int64_t c = 2; c < n; ++c) {
    bool prime = true;
    for (int64_t d = 2; d * d <= c; ++d)
      if (c % d == 0) {
        prime = false;
        break;
      }
    count += prime;
  }
  return count;
}

double harmonic(int64_t n) {
  double total = 0;
  for (int64_t i = 1; i <= n; ++i)
    total += 1.0 / i;
  return total;
}

double gauss_legendre_pi(int64_t iterations) {
  double a = 1.0, b = 1.0 / std::sqrt(2.0), t = 0.25, p = 1.0, result = 0;
  for (int64_t it = 0; it < iterations; ++it)
    for (int j = 0; j < 1000; ++j) {
      double an = (a + b) / 2.0;
      b = std::sqrt(a * b);
      t -= p * (a - an) * (a - an);
      a = an;
      p *= 2.0;
      result += (a + b) * (a + b) / (4.0 * t);
      a = 1.0;
      b = 1.0 / std::sqrt(2.0);
      t = 0.25;
      p = 1.0;
    }
  return result;
}
}
