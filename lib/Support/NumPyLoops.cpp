//===- NumPyLoops.cpp - how the running NumPy's complex loops round -------===//
#include "plait/Support/NumPyLoops.h"

#include <atomic>

namespace plait {
namespace {

// [0] complex64, [1] complex128. Set once when plait.numpy loads, before
// it compiles anything that reads them; relaxed is enough for flags.
std::atomic<bool> absAsForward[2] = {false, false};
std::atomic<bool> multiplyAsForward[2] = {false, true};

} // namespace

bool numpyBackwardAbsAsForward(bool complex64) {
  return absAsForward[complex64 ? 0 : 1].load(std::memory_order_relaxed);
}

bool numpyBackwardMultiplyAsForward(bool complex64) {
  return multiplyAsForward[complex64 ? 0 : 1].load(std::memory_order_relaxed);
}

void setNumPyBackwardWalks(bool complex64AbsAsForward, bool complex128AbsAsForward,
                           bool complex64MultiplyAsForward, bool complex128MultiplyAsForward) {
  absAsForward[0].store(complex64AbsAsForward, std::memory_order_relaxed);
  absAsForward[1].store(complex128AbsAsForward, std::memory_order_relaxed);
  multiplyAsForward[0].store(complex64MultiplyAsForward, std::memory_order_relaxed);
  multiplyAsForward[1].store(complex128MultiplyAsForward, std::memory_order_relaxed);
}

} // namespace plait
