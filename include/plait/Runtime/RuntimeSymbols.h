//===- RuntimeSymbols.h - native functions JIT-compiled code may call -*-===//
#ifndef PLAIT_RUNTIME_RUNTIMESYMBOLS_H
#define PLAIT_RUNTIME_RUNTIMESYMBOLS_H

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

extern "C" {
/// The test rendezvous for compiled code: waits at barrier "<barrierId>" (the
/// same barriers as the test-rendezvous pass). Returns 1 when met, 0 on timeout
/// or error. MLIR declaration:
///   func.func private @plait_test_rendezvous(i64, i64, f64) -> i32
int32_t plait_test_rendezvous(int64_t barrierId, int64_t participants,
                              double timeoutSeconds);

/// Records run-time values for the message of the error about to be
/// reported (e.g. the index, axis and size of an IndexError).
void plait_rt_set_error_args(int64_t a, int64_t b, int64_t c);
}

namespace plait {

/// The values the last plait_rt_set_error_args call on this thread recorded.
std::array<int64_t, 3> lastErrorArguments();

/// Name and address of every runtime function, registered in each JIT.
std::vector<std::pair<std::string, void *>> getRuntimeSymbols();

} // namespace plait

#endif // PLAIT_RUNTIME_RUNTIMESYMBOLS_H
