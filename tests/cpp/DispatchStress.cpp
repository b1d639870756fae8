//===- DispatchStress.cpp - executor tables under concurrent churn --------===//
//
// A standalone stress test (no gtest, no LLVM) of DispatchTable and
// EpochDomain: reader threads look up and "run" executors while writer
// threads install new ones and invalidate whole tables. Every executor
// records whether it was freed; a reader that reaches a freed executor is a
// failure, and AddressSanitizer reports any use after free. Built and run
// under ThreadSanitizer and AddressSanitizer by `make test-sanitizers`.
//
//===----------------------------------------------------------------------===//
#include "plait/Dispatcher/DispatchTable.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

using namespace plait;

namespace {

std::atomic<int64_t> liveExecutors{0};
std::atomic<int64_t> violations{0};

struct FakeExecutor {
  explicit FakeExecutor(int64_t key) : key(key), canary(key * 7 + 3) { ++liveExecutors; }
  ~FakeExecutor() {
    canary = -1;
    --liveExecutors;
  }
  int64_t run(int64_t x) const {
    if (canary != key * 7 + 3)
      ++violations; // ran a freed (or corrupted) executor
    return x + key;
  }
  int64_t key;
  volatile int64_t canary;
};

struct Entry {
  int64_t key;
  std::shared_ptr<FakeExecutor> executor;
};

} // namespace

int main() {
  constexpr int kTables = 4;
  constexpr int kReaders = 6;
  constexpr int kWriters = 2;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  EpochDomain domain;
  {
    std::vector<std::unique_ptr<DispatchTable<Entry>>> tables;
    for (int i = 0; i < kTables; ++i)
      tables.push_back(std::make_unique<DispatchTable<Entry>>(domain));

    std::atomic<int64_t> calls{0}, wrong{0}, installs{0}, clears{0};
    std::vector<std::thread> threads;
    for (int r = 0; r < kReaders; ++r)
      threads.emplace_back([&, r] {
        int64_t i = r;
        while (std::chrono::steady_clock::now() < deadline) {
          auto &table = *tables[i++ % kTables];
          EpochDomain::ReadGuard guard(domain);
          const auto *snapshot = table.read();
          if (!snapshot)
            continue;
          for (const Entry &entry : snapshot->entries) {
            // Nested read section, as a re-entrant call would take.
            EpochDomain::ReadGuard nested(domain);
            if (entry.executor->run(100) != 100 + entry.key)
              ++wrong;
            ++calls;
          }
        }
      });
    for (int w = 0; w < kWriters; ++w)
      threads.emplace_back([&, w] {
        int64_t key = w * 1000000;
        while (std::chrono::steady_clock::now() < deadline) {
          auto &table = *tables[key % kTables];
          if (key % 17 == 0) {
            table.clear();
            ++clears;
          } else {
            table.insert({key, std::make_shared<FakeExecutor>(key)});
            ++installs;
          }
          ++key;
        }
      });
    for (std::thread &t : threads)
      t.join();
    for (auto &table : tables)
      table->clear();
    domain.collect();
    std::printf("calls=%lld installs=%lld clears=%lld pending=%zu live=%lld\n",
                static_cast<long long>(calls), static_cast<long long>(installs),
                static_cast<long long>(clears), domain.pending(),
                static_cast<long long>(liveExecutors.load()));
    bool ok = wrong == 0 && violations == 0 && calls > 0 && installs > 0 &&
              domain.pending() == 0 && liveExecutors == 0;
    std::printf("%s: wrong=%lld violations=%lld\n", ok ? "PASS" : "FAIL",
                static_cast<long long>(wrong), static_cast<long long>(violations));
    return ok ? 0 : 1;
  }
}
