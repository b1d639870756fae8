//===- Half.h - NumPy's float16 in C++ ---------------------------*- C++ -*-===//
//
// float16 values as their bits (how arrays and NumPy scalars hold them),
// converted with the compiler's _Float16: exact widening, and narrowing
// rounded to nearest even, as NumPy's npy_half functions do.
//
//===----------------------------------------------------------------------===//
#ifndef PLAIT_SUPPORT_HALF_H
#define PLAIT_SUPPORT_HALF_H

#include <cstdint>
#include <cstring>

namespace plait {

inline float halfToFloat(uint16_t bits) {
  _Float16 h;
  std::memcpy(&h, &bits, 2);
  return static_cast<float>(h);
}

inline double halfToDouble(uint16_t bits) { return halfToFloat(bits); }

inline uint16_t halfFromFloat(float value) {
  _Float16 h = static_cast<_Float16>(value);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}

/// A float16 array element, held as its bits.
struct Half {
  uint16_t bits;
};

/// The type NumPy's C loops compute with elements of T in: float for
/// float16 (loaded exactly, stored rounded to nearest even), T otherwise.
template <typename T> struct Accumulator {
  using type = T;
  static type load(T x) { return x; }
  static T store(type value) { return value; }
};
template <> struct Accumulator<Half> {
  using type = float;
  static float load(Half x) { return halfToFloat(x.bits); }
  static Half store(float value) { return {halfFromFloat(value)}; }
};
template <typename T> using AccumulatorOf = typename Accumulator<T>::type;

} // namespace plait

#endif // PLAIT_SUPPORT_HALF_H
