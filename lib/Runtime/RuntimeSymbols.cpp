//===- RuntimeSymbols.cpp - native functions JIT-compiled code may call ---===//
#include "plait/Runtime/RuntimeSymbols.h"
#include "plait/Runtime/PyNumeric.h"
#include "plait/Support/Rendezvous.h"

extern "C" int32_t plait_test_rendezvous(int64_t barrierId,
                                         int64_t participants,
                                         double timeoutSeconds) {
  if (participants <= 0 || participants > 1 << 20)
    return 0;
  return plait::rendezvous(std::to_string(barrierId),
                           static_cast<unsigned>(participants), timeoutSeconds)
                 .met
             ? 1
             : 0;
}

namespace {
/// Values for the message of the error compiled code is about to report; set
/// and read on the same thread (the dispatcher raises on the calling thread).
thread_local int64_t errorArguments[3];
} // namespace

extern "C" void plait_rt_set_error_args(int64_t a, int64_t b, int64_t c) {
  errorArguments[0] = a;
  errorArguments[1] = b;
  errorArguments[2] = c;
}

namespace plait {

std::array<int64_t, 3> lastErrorArguments() {
  return {errorArguments[0], errorArguments[1], errorArguments[2]};
}

std::vector<std::pair<std::string, void *>> getRuntimeSymbols() {
#define PLAIT_SYMBOL(name) {#name, reinterpret_cast<void *>(&name)}
  return {
      PLAIT_SYMBOL(plait_test_rendezvous),
      PLAIT_SYMBOL(plait_rt_set_error_args),
      PLAIT_SYMBOL(plait_rt_float_floordiv),
      PLAIT_SYMBOL(plait_rt_float_mod),
      PLAIT_SYMBOL(plait_rt_float_divmod),
      PLAIT_SYMBOL(plait_rt_float_pow),
      PLAIT_SYMBOL(plait_rt_int_pow),
      PLAIT_SYMBOL(plait_rt_int_powmod),
      PLAIT_SYMBOL(plait_rt_int_truediv),
      PLAIT_SYMBOL(plait_rt_cmp_int_float),
      PLAIT_SYMBOL(plait_rt_round_half_even),
      PLAIT_SYMBOL(plait_rt_float_to_int),
      PLAIT_SYMBOL(plait_rt_float_floor_to_int),
      PLAIT_SYMBOL(plait_rt_float_ceil_to_int),
  };
#undef PLAIT_SYMBOL
}

} // namespace plait
