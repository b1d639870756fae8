//===- RendezvousTest.cpp - the process-global test barrier ---------------===//
#include "TestUtil.h"
#include "plait/Support/Rendezvous.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace plait;

TEST(RendezvousTest, LoneParticipantTimesOutWithCount) {
  std::string id = test::freshBarrierId("lone");
  RendezvousOutcome outcome = rendezvous(id, 2, 0.05);
  EXPECT_FALSE(outcome.met);
  EXPECT_EQ(outcome.error,
            "rendezvous '" + id + "' timed out with 1 of 2 participants");
}

TEST(RendezvousTest, TimedOutBarrierIsPoisonedForLateArrivals) {
  std::string id = test::freshBarrierId("poison");
  ASSERT_FALSE(rendezvous(id, 2, 0.05).met);
  // A late arrival fails at once (a generous timeout that must not be used).
  auto start = std::chrono::steady_clock::now();
  RendezvousOutcome late = rendezvous(id, 2, 30.0);
  EXPECT_FALSE(late.met);
  EXPECT_NE(late.error.find("timed out with 1 of 2"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(RendezvousTest, EightThreadsMeet) {
  std::string id = test::freshBarrierId("eight");
  std::vector<std::thread> threads;
  std::atomic<int> met{0};
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&] { met += rendezvous(id, 8, 30.0).met; });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(met.load(), 8);
  // One-shot: a ninth arrival is refused.
  EXPECT_FALSE(rendezvous(id, 8, 0.01).met);
}

TEST(RendezvousTest, ParticipantCountMismatchIsAnError) {
  std::string id = test::freshBarrierId("mismatch");
  std::thread first([&] { rendezvous(id, 3, 0.2); });
  first.join();
  RendezvousOutcome outcome = rendezvous(id, 2, 0.01);
  EXPECT_FALSE(outcome.met);
  EXPECT_NE(outcome.error.find("3 participants"), std::string::npos);
}
