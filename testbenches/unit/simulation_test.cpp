// SPDX-License-Identifier: Apache-2.0
// The run: the example model end to end, snapshots, time series, limits, random streams.
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include "models/example/pipeline.h"
#include "sim/signals.h"
#include "sim/simulation.h"
#include "sim/timed_queue.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::sim;
using irr::testing::make_config;

TEST(Simulation, ExamplePipelineServesEveryRequest) {
  irr::testing::Testbench tb({"example.requests=500", "example.burst=100", "log.level=warn"});
  tb.add<example::Pipeline>("example");
  tb.run();
  EXPECT_EQ(tb.stat("example.producer.issued"), 500);
  EXPECT_EQ(tb.stat("example.server.completed"), 500);
  Simulation& sim = tb.sim();
  EXPECT_EQ(sim.transactions().count(), 500u);
  EXPECT_EQ(sim.stats().snapshot_count(), 5u);  // one per burst
  // Latency is at least the service time: 20 DRAM cycles of 1082 ps.
  auto* lat = dynamic_cast<const Distribution*>(sim.stats().find("example.server.latency"));
  ASSERT_NE(lat, nullptr);
  EXPECT_GE(lat->min(), 20 * 1.082);
  // The gaps between bursts were skipped, not stepped.
  double core_cycles = sim.stats().find("clocks.core.cycles")->value();
  double active = sim.stats().find("clocks.core.active_cycles")->value();
  EXPECT_GT(core_cycles, 4 * 2000);
  EXPECT_LT(active, core_cycles - 4 * 2000 + 1);
}

TEST(Simulation, ServerSlotsBoundOccupancy) {
  Simulation sim(make_config({"example.requests=300", "example.servers=2", "example.issue_probability=1",
                              "log.level=warn"}));
  example::Pipeline top("example", sim);
  sim.run();
  auto* occ = sim.stats().find("example.server.occupancy");
  EXPECT_LE(occ->value(), 2.0);
  EXPECT_GT(occ->value(), 1.5);  // saturated: the producer issues every cycle
  EXPECT_GT(sim.stats().find("example.producer.stall_cycles")->value(), 0);
}

TEST(Simulation, TimeSeriesSampling) {
  Simulation sim(make_config({"example.requests=200", "example.burst=200", "stats.sample_every=100",
                              "log.level=warn"}));
  example::Pipeline top("example", sim);
  RunReport r = sim.run();
  nlohmann::json j = sim.stats().to_json();
  ASSERT_TRUE(j.contains("samples"));
  const auto& times = j["samples"]["time_ps"];
  // A sample at each multiple of 100 core cycles while the model has work (however quiet it is
  // at that instant), plus one at the end.
  ASSERT_GE(times.size(), 2u);
  const Picoseconds interval = 100 * 1429;
  for (std::size_t i = 0; i + 1 < times.size(); ++i) EXPECT_EQ(times[i].get<Picoseconds>(), (i + 1) * interval);
  EXPECT_LT(times[times.size() - 2].get<Picoseconds>(), times.back().get<Picoseconds>());
  EXPECT_EQ(times.back(), r.simulated_ps);
  const auto& issued = j["samples"]["series"]["example.producer.issued"];
  EXPECT_EQ(issued.back(), 200);
  for (std::size_t i = 1; i < issued.size(); ++i) EXPECT_GE(issued[i], issued[i - 1]);
}

TEST(Simulation, TimeLimitWithWorkPendingIsAnError) {
  Simulation sim(make_config({"sim.time_limit=1us", "log.level=warn"}));
  example::Pipeline top("example", sim);
  try {
    sim.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 1);
    EXPECT_NE(std::string(e.what()).find("sim.time_limit (1us) reached"), std::string::npos) << e.what();
  }
}

TEST(Simulation, UnusedUserKeyFailsBeforeSimulating) {
  Simulation sim(make_config({"l1.size=32KiB"}));
  example::Pipeline top("example", sim);
  try {
    sim.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
  }
  EXPECT_EQ(now_ps(), 0u);
}

TEST(Simulation, RandomStreamsPerModule) {
  Simulation sim(make_config({"sim.seed=42"}));
  auto a1 = sim.rng("example.producer");
  auto a2 = sim.rng("example.producer");
  auto b = sim.rng("example.server");
  auto x = a1();
  EXPECT_EQ(x, a2());
  EXPECT_NE(x, b());
}

TEST(TimedQueue, PushAndPopVisibleOnlyAfterTheirInstant) {
  TimedQueue<int> q(2);
  q.push(1, 100);
  EXPECT_FALSE(q.can_pop(100));  // pushed now: not visible yet
  EXPECT_TRUE(q.can_pop(101));
  q.push(2, 150);
  EXPECT_FALSE(q.can_push(150));
  EXPECT_EQ(q.pop(200), 1);
  EXPECT_FALSE(q.can_push(200));  // the slot popped at 200 frees after 200
  EXPECT_TRUE(q.can_push(201));
  EXPECT_THROW(q.push(3, 200), std::logic_error);
  EXPECT_THROW(TimedQueue<int>(0), std::invalid_argument);
}

// The signal catcher the run, the sweep and its tasks share: caught into a flag, the handlers from
// before it back when it ends, passed on to a child.
TEST(SignalCatcher, CatchesAndRestores) {
  struct sigaction before {};
  sigaction(SIGTERM, nullptr, &before);
  {
    sim::SignalCatcher catcher;
    EXPECT_EQ(sim::SignalCatcher::caught(), 0);
    raise(SIGTERM);
    EXPECT_EQ(sim::SignalCatcher::caught(), SIGTERM);
    raise(SIGINT);  // caught again: not once
    EXPECT_EQ(sim::SignalCatcher::caught(), SIGINT);
    EXPECT_THROW(sim::SignalCatcher{}, std::logic_error);  // one at a time
  }
  struct sigaction after {};
  sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
  sim::SignalCatcher again({SIGUSR1}, true);  // a new one starts clear
  EXPECT_EQ(sim::SignalCatcher::caught(), 0);
  raise(SIGUSR1);
  EXPECT_EQ(sim::SignalCatcher::caught(), SIGUSR1);
  struct sigaction now {};
  sigaction(SIGUSR1, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);  // once: a second one would act as before
}

TEST(SignalCatcher, ForwardsToTheChild) {
  sim::SignalCatcher catcher;
  raise(SIGTERM);  // before the fork: sent on as soon as the child is known
  // The child takes SIGTERM only once it acts on it by default (it starts with the catcher's handler).
  sigset_t term, held;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, &held);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGTERM, SIG_DFL);
    alarm(10);  // not forwarded: ends by SIGALRM instead
    sigset_t none;
    sigemptyset(&none);
    sigsuspend(&none);
    _exit(0);
  }
  sigprocmask(SIG_SETMASK, &held, nullptr);
  catcher.forward_to(child);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
}
