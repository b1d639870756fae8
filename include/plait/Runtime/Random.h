//===- Random.h - NumPy's legacy random streams, per thread -----*- C++ -*-===//
//
// The generator behind np.random's functions in compiled code: NumPy's
// legacy RandomState (MT19937, its seeding, its doubles, its Gaussian polar
// method with a cached second value, its masked rejection sampling), one
// state per thread, seeded from the OS on first use. After
// plait_rt_random_seed(s) a thread's draws are NumPy's for np.random.seed(s)
// bit for bit. Functions return 0, or a status naming the error.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_RUNTIME_RANDOM_H
#define PLAIT_RUNTIME_RANDOM_H

#include <cstdint>

extern "C" {
/// np.random.seed(seed): 1 when seed is not in [0, 2**32 - 1].
int32_t plait_rt_random_seed(int64_t seed, int64_t *unused);
/// random_sample: a double in [0, 1) of 53 random bits.
int32_t plait_rt_random_double(double *out);
/// The legacy standard normal (polar method; every other call is cached).
int32_t plait_rt_random_gauss(double *out);
/// randint(low, high) with the legacy masked rejection: 1 when low >= high.
int32_t plait_rt_random_integer(int64_t low, int64_t high, int64_t *out);
/// A uniform integer in [0, max] (shuffle's random_interval).
int32_t plait_rt_random_interval(int64_t max, int64_t *out);
}

#endif // PLAIT_RUNTIME_RANDOM_H
