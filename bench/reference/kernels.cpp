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

// Array kernels: C-contiguous arrays, the same loops as bench/array_kernels.py.
extern "C" {

void saxpy(double alpha, const double *x, const double *y, double *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = alpha * x[i] + y[i];
}

double dot(const double *x, const double *y, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

void laplace(const double *u, double *out, int64_t rows, int64_t cols) {
  for (int64_t i = 1; i < rows - 1; ++i)
    for (int64_t j = 1; j < cols - 1; ++j)
      out[i * cols + j] = 0.25 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] +
                                  u[i * cols + j - 1] + u[i * cols + j + 1]);
}

int64_t sieve(bool *flags, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    flags[i] = i >= 2;
  for (int64_t i = 2; i * i < n; ++i)
    if (flags[i])
      for (int64_t j = i * i; j < n; j += i)
        flags[j] = false;
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i)
    count += flags[i];
  return count;
}

void pairwise(const double *p, double *out, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double dx = p[i * 3] - p[j * 3], dy = p[i * 3 + 1] - p[j * 3 + 1],
             dz = p[i * 3 + 2] - p[j * 3 + 2];
      out[i * n + j] = std::sqrt(dx * dx + dy * dy + dz * dz);
    }
}

void nbody_step(double *pos, double *vel, const double *mass, double dt, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    double ax = 0, ay = 0, az = 0;
    for (int64_t j = 0; j < n; ++j)
      if (i != j) {
        double dx = pos[j * 3] - pos[i * 3], dy = pos[j * 3 + 1] - pos[i * 3 + 1],
               dz = pos[j * 3 + 2] - pos[i * 3 + 2];
        double d2 = dx * dx + dy * dy + dz * dz + 0.01;
        double inv = mass[j] / (d2 * std::sqrt(d2));
        ax += dx * inv;
        ay += dy * inv;
        az += dz * inv;
      }
    vel[i * 3] += ax * dt;
    vel[i * 3 + 1] += ay * dt;
    vel[i * 3 + 2] += az * dt;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k)
      pos[i * 3 + k] += vel[i * 3 + k] * dt;
}

double sum_of_squares_array(const double *x, int64_t n) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
}
