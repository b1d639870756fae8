//===- Print.cpp - print() of compiled code -------------------------------===//
#include "plait/Runtime/Print.h"

#include <atomic>

namespace {
std::atomic<plait::PrintHandler> handler{nullptr};
} // namespace

void plait::setPrintHandler(PrintHandler printer) { handler.store(printer); }

extern "C" int32_t plait_rt_print(int64_t words) {
  plait::PrintHandler printer = handler.load(std::memory_order_acquire);
  return printer ? printer(reinterpret_cast<const int64_t *>(words)) : 1;
}
