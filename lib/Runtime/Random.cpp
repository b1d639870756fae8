//===- Random.cpp - NumPy's legacy random streams, per thread -------------===//
//
// A port of NumPy's MT19937 (randomkit) and of the legacy distributions its
// RandomState draws with, so that seeded streams match NumPy's bit for bit.
//
//===----------------------------------------------------------------------===//
#include "plait/Runtime/Random.h"

#include <cmath>
#include <memory>
#include <random>

namespace {

constexpr int kStateWords = 624;
constexpr int kShift = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU;
constexpr uint32_t kUpperMask = 0x80000000U;
constexpr uint32_t kLowerMask = 0x7fffffffU;

struct LegacyState {
  uint32_t key[kStateWords];
  int pos = kStateWords + 1; // > kStateWords: not seeded yet
  bool hasGauss = false;
  double gauss = 0.0;

  void seed(uint32_t value) {
    for (int i = 0; i < kStateWords; ++i) {
      key[i] = value;
      value = 1812433253U * (value ^ (value >> 30)) + static_cast<uint32_t>(i) + 1;
    }
    pos = kStateWords;
    hasGauss = false;
    gauss = 0.0;
  }

  void generate() {
    int i = 0;
    uint32_t y;
    for (; i < kStateWords - kShift; ++i) {
      y = (key[i] & kUpperMask) | (key[i + 1] & kLowerMask);
      key[i] = key[i + kShift] ^ (y >> 1) ^ (-(y & 1U) & kMatrixA);
    }
    for (; i < kStateWords - 1; ++i) {
      y = (key[i] & kUpperMask) | (key[i + 1] & kLowerMask);
      key[i] = key[i + (kShift - kStateWords)] ^ (y >> 1) ^ (-(y & 1U) & kMatrixA);
    }
    y = (key[kStateWords - 1] & kUpperMask) | (key[0] & kLowerMask);
    key[kStateWords - 1] = key[kShift - 1] ^ (y >> 1) ^ (-(y & 1U) & kMatrixA);
    pos = 0;
  }

  uint32_t next32() {
    if (pos > kStateWords) // first use on this thread: the OS's entropy
      seed(std::random_device{}());
    if (pos == kStateWords)
      generate();
    uint32_t y = key[pos++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
  }

  uint64_t next64() {
    uint64_t high = next32();
    return high << 32 | next32();
  }

  double nextDouble() {
    int32_t a = static_cast<int32_t>(next32() >> 5), b = static_cast<int32_t>(next32() >> 6);
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
};

/// The calling thread's state, on the heap: the runtime's static TLS block
/// (initial-exec, for the hot paths) has no room for 2.5 KiB.
thread_local std::unique_ptr<LegacyState> threadState;

LegacyState &current() {
  if (!threadState)
    threadState = std::make_unique<LegacyState>();
  return *threadState;
}

uint64_t maskOf(uint64_t max) {
  uint64_t mask = max;
  mask |= mask >> 1;
  mask |= mask >> 2;
  mask |= mask >> 4;
  mask |= mask >> 8;
  mask |= mask >> 16;
  mask |= mask >> 32;
  return mask;
}

/// random_bounded_uint64's masked rejection for rng = high - low - 1.
uint64_t boundedMasked(uint64_t rng) {
  if (rng == 0)
    return 0;
  if (rng <= 0xFFFFFFFFULL) {
    if (rng == 0xFFFFFFFFULL)
      return current().next32();
    uint32_t mask = static_cast<uint32_t>(maskOf(rng)), value;
    while ((value = current().next32() & mask) > rng) {
    }
    return value;
  }
  if (rng == 0xFFFFFFFFFFFFFFFFULL)
    return current().next64();
  uint64_t mask = maskOf(rng), value;
  while ((value = current().next64() & mask) > rng) {
  }
  return value;
}

} // namespace

extern "C" int32_t plait_rt_random_seed(int64_t seed, int64_t *) {
  if (seed < 0 || seed > 0xFFFFFFFFLL)
    return 1;
  current().seed(static_cast<uint32_t>(seed));
  return 0;
}

extern "C" int32_t plait_rt_random_double(double *out) {
  *out = current().nextDouble();
  return 0;
}

extern "C" int32_t plait_rt_random_gauss(double *out) {
  if (current().hasGauss) {
    current().hasGauss = false;
    *out = current().gauss;
    current().gauss = 0.0;
    return 0;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * current().nextDouble() - 1.0;
    x2 = 2.0 * current().nextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2);
  current().gauss = f * x1;
  current().hasGauss = true;
  *out = f * x2;
  return 0;
}

extern "C" int32_t plait_rt_random_integer(int64_t low, int64_t high, int64_t *out) {
  if (low >= high)
    return 1;
  uint64_t rng = static_cast<uint64_t>(high) - static_cast<uint64_t>(low) - 1;
  *out = static_cast<int64_t>(static_cast<uint64_t>(low) + boundedMasked(rng));
  return 0;
}

extern "C" int32_t plait_rt_random_interval(int64_t max, int64_t *out) {
  uint64_t limit = static_cast<uint64_t>(max);
  if (limit == 0) {
    *out = 0;
    return 0;
  }
  uint64_t mask = maskOf(limit), value;
  if (limit <= 0xFFFFFFFFULL) {
    while ((value = current().next32() & mask) > limit) {
    }
  } else {
    while ((value = current().next64() & mask) > limit) {
    }
  }
  *out = static_cast<int64_t>(value);
  return 0;
}
