//===- RuntimeSymbols.cpp - native functions JIT-compiled code may call ---===//
#include "plait/Runtime/RuntimeSymbols.h"
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

namespace plait {

std::vector<std::pair<std::string, void *>> getRuntimeSymbols() {
  return {{"plait_test_rendezvous",
           reinterpret_cast<void *>(&plait_test_rendezvous)}};
}

} // namespace plait
