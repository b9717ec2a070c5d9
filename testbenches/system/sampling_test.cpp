// SPDX-License-Identifier: Apache-2.0
// Sampled simulation by kernels (sim.sampling: kernels; models/gpu/sampling.h): the clustering
// and charging rules on their own, then whole runs set beside the same runs timed in full.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "models/gpu/gpu.h"
#include "models/gpu/sampling.h"
#include "models/gpu/units.h"
#include "sim/error.h"
#include "testbenches/common/testing.h"
#include "workloads/workloads.h"

using namespace irr;
using gpu::KernelSampler;

namespace {

core::ptx::Function function_named(const char* name) {
  core::ptx::Function f;
  f.name = name;
  return f;
}

KernelSampler::Signature signature(const core::ptx::Function& f, std::vector<std::uint64_t> per_pc, std::uint64_t lines,
                                   std::uint32_t grid = 8) {
  return {&f, core::Dim3{grid}, core::Dim3{128}, std::move(per_pc), lines};
}

}  // namespace

TEST(KernelSampler, DistanceComparesProfilesAsShares) {
  EXPECT_DOUBLE_EQ(KernelSampler::distance({10, 30}, {10, 30}), 0.0);
  EXPECT_DOUBLE_EQ(KernelSampler::distance({10, 30}, {20, 60}), 0.0);  // the same shape, twice the work
  EXPECT_DOUBLE_EQ(KernelSampler::distance({10, 0}, {0, 10}), 2.0);
  EXPECT_DOUBLE_EQ(KernelSampler::distance({1, 1, 2}, {1, 1}), 0.5 + 0.0 + 0.5 - 0.0);  // shares 1/4 1/4 1/2 vs 1/2 1/2
  EXPECT_DOUBLE_EQ(KernelSampler::distance({0, 0}, {0, 0}), 0.0);
}

TEST(KernelSampler, TimesUntilTheLastRatesAgreeThenChargesTheirMean) {
  const auto config = irr::testing::make_config({"sampling.min_timed=2", "sampling.max_timed=4", "sampling.tolerance=0.05",
                                                 "sampling.warmup=0", "sampling.resample_every=0"});
  KernelSampler s(config);
  const auto k = function_named("k"), other = function_named("other");
  // The first launch of a kind makes a cluster and is timed.
  auto d = s.decide(signature(k, {100, 100}, 50));
  EXPECT_EQ(d.cluster, 0u);
  EXPECT_TRUE(d.timed);
  s.timed(0, 200, 1000);  // 5 cycles a warp instruction
  d = s.decide(signature(k, {105, 100}, 55));  // alike: joins, still timed (min_timed 2)
  EXPECT_EQ(d.cluster, 0u);
  EXPECT_TRUE(d.timed);
  s.timed(0, 200, 1400);  // 7: mean 6, departures 1 > 5 % of 6: time another
  EXPECT_TRUE(s.decide(signature(k, {100, 100}, 50)).timed);
  s.timed(0, 200, 1300);  // the last two, 7 and 6.5: mean 6.75, departures 0.25 < 0.3375: settled
  d = s.decide(signature(k, {100, 100}, 50));
  EXPECT_FALSE(d.timed);
  const auto e = s.estimate(0, 300);
  EXPECT_EQ(e.cycles, 2025u);  // 2700 cycles / 400 instructions x 300
  EXPECT_EQ(e.bound, 75u);     // 0.25 x 300
  // Not alike: another kernel, another grid, another shape, another size — each its own cluster.
  EXPECT_EQ(s.decide(signature(other, {100, 100}, 50)).cluster, 1u);
  EXPECT_EQ(s.decide(signature(k, {100, 100}, 50, 16)).cluster, 2u);
  EXPECT_EQ(s.decide(signature(k, {200, 10}, 50)).cluster, 3u);
  EXPECT_EQ(s.decide(signature(k, {300, 300}, 50)).cluster, 4u);  // 3x the instructions: beyond size_ratio
  EXPECT_EQ(s.decide(signature(k, {100, 100}, 500)).cluster, 5u);  // 10x the lines
  EXPECT_EQ(s.clusters(), 6u);
}

TEST(KernelSampler, AClusterWhoseRatesAgreeIsExtrapolatedAtMinTimed) {
  KernelSampler s(irr::testing::make_config({"sampling.warmup=0"}));
  const auto k = function_named("k");
  s.decide(signature(k, {10}, 1));
  s.timed(0, 100, 1000);
  s.decide(signature(k, {10}, 1));
  s.timed(0, 100, 1040);  // 10 and 10.4: within 5 % of 10.2
  EXPECT_FALSE(s.decide(signature(k, {10}, 1)).timed);
  EXPECT_EQ(s.estimate(0, 50).cycles, 510u);
  EXPECT_EQ(s.estimate(0, 50).bound, 10u);  // 0.2 x 50
}

TEST(KernelSampler, MaxTimedChargesWhateverTheSpread) {
  KernelSampler s(irr::testing::make_config({"sampling.max_timed=3", "sampling.warmup=0", "sampling.resample_every=0"}));
  const auto k = function_named("k");
  for (const std::uint64_t cycles : {1000, 2000, 1000}) {
    ASSERT_TRUE(s.decide(signature(k, {10}, 1)).timed);
    s.timed(0, 100, cycles);
  }
  EXPECT_FALSE(s.decide(signature(k, {10}, 1)).timed);
  EXPECT_EQ(s.estimate(0, 100).cycles, 1500u);  // the last two: 3000 / 200
  EXPECT_EQ(s.estimate(0, 100).bound, 500u);
}

// The defaults: a warm-up launch left out of the rate, then two that agree, then every 20th
// launch timed again, the rate following the last two.
TEST(KernelSampler, WarmUpThenResamplesToFollowADrift) {
  KernelSampler s(irr::testing::make_config());
  const auto k = function_named("k");
  std::vector<bool> timed;
  for (int i = 0; i < 45; ++i) {
    const auto d = s.decide(signature(k, {10}, 1));
    timed.push_back(d.timed);
    // The warm-up launch runs cold, twice as slow; from the 21st launch on the kernel runs faster.
    if (d.timed) s.timed(0, 100, i == 0 ? 2000 : i < 20 ? 1000 : 800);
  }
  EXPECT_TRUE(timed[0] && timed[1] && timed[2]);
  EXPECT_FALSE(timed[3]);
  EXPECT_EQ(std::count(timed.begin(), timed.end(), true), 6);
  EXPECT_TRUE(timed[22] && timed[23] && timed[43]);  // resampled; unsettled (10 and 8); the next resample
  EXPECT_EQ(s.estimate(0, 100).cycles, 800u);  // the last two timed: 8 a warp instruction, the warm-up forgotten
}

TEST(KernelSampler, MaxTimedBelowMinTimedIsAConfigError) {
  EXPECT_THROW(KernelSampler(irr::testing::make_config({"sampling.min_timed=4", "sampling.max_timed=3"})), Error);
}

// Whole runs through the command line, each beside the same run timed in full.
namespace {

using irr::testing::run_cli;
using irr::testing::TempDir;

nlohmann::json stats_of(const std::string& dir) {
  return nlohmann::json::parse(irr::testing::read_file(dir + "/stats.json"))["stats"];
}
double value(const nlohmann::json& s, const std::string& name) {
  EXPECT_TRUE(s.contains(name)) << name;
  return s.contains(name) ? s[name]["value"].get<double>() : 0.0;
}

// Runs the command with sim.sampling=`mode` into `dir`; its standard output.
std::string run(const std::vector<std::string>& args, const std::string& mode, const std::string& dir) {
  std::vector<std::string> a{"run", "-c", "gtx480", "-o", dir, "-s", "sim.sampling=" + mode};
  a.insert(a.end(), args.begin(), args.end());
  const auto r = run_cli(a);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

}  // namespace

// PageRank's power iterations: 100-odd launches of two kinds. Most are charged their cluster's
// rate; the estimate is within 1 % of the full run (0.04 % when written) and the host time falls
// (not asserted: a test times nothing).
TEST(Sampling, KernelsChargesRepeatedLaunchesWithinTheirBound) {
  TempDir d;
  const std::vector<std::string> pr{"--workload", "pr", "--variant", "topology", "--graph", "rmat:scale=10"};
  run(pr, "off", d.path() + "/full");
  const std::string out = run(pr, "kernels", d.path() + "/sampled");
  const auto full = stats_of(d.path() + "/full"), sampled = stats_of(d.path() + "/sampled");
  EXPECT_NE(out.find("sampled: "), std::string::npos) << out;
  const double extrapolated = value(sampled, "gpu.sampling.extrapolated_kernels");
  EXPECT_GE(extrapolated, 100);
  // Two clusters, each a warm-up and two timed, then one in 20 timed again.
  EXPECT_EQ(value(sampled, "gpu.sampling.clusters"), 2);
  EXPECT_LE(value(sampled, "gpu.sampling.timed_kernels"), 2 * (3 + 128 / 20));
  const double want = value(full, "gpu.total.kernel_cycles"), got = value(sampled, "gpu.total.kernel_cycles");
  EXPECT_LE(std::fabs(got - want), 0.01 * want) << got << " vs " << want;
  EXPECT_GT(value(sampled, "gpu.sampling.error_bound_cycles"), 0);
  // Instructions are counted, not estimated: the SMs' and the functional runs' add up.
  double sms = 0;
  for (const auto& [name, s] : sampled.items())
    if (name.rfind("gpu.sm", 0) == 0 && name.size() > 20 && name.compare(name.size() - 20, 20, ".thread_instructions") == 0 &&
        name.find('.', 4) == name.size() - 20)
      sms += s["value"].get<double>();
  EXPECT_EQ(value(sampled, "gpu.total.thread_instructions"), sms + value(sampled, "gpu.sampling.thread_instructions"));
  // Every launch is in the kernel table, the charged ones with their estimate.
  const auto kernels = nlohmann::json::parse(irr::testing::read_file(d.path() + "/sampled/kernels.json"));
  EXPECT_EQ(static_cast<double>(kernels.size()), extrapolated + value(sampled, "gpu.sampling.timed_kernels"));
}

// A launch sampling decides to time runs as it would unsampled: its functional run is undone
// (device memory rolled back, nothing warmed) and every statistic is the full run's.
TEST(Sampling, ATimedLaunchLeavesNoTrace) {
  TempDir d;
  const std::vector<std::string> bfs{"-q", "--workload", "bfs", "--variant", "data", "--graph", "rmat:scale=10"};
  run(bfs, "off", d.path() + "/full");
  run(bfs, "kernels", d.path() + "/sampled");
  const auto full = stats_of(d.path() + "/full"), sampled = stats_of(d.path() + "/sampled");
  ASSERT_EQ(value(sampled, "gpu.sampling.extrapolated_kernels"), 0);  // BFS levels are each their own kind
  for (const auto& [name, s] : full.items()) {
    ASSERT_TRUE(sampled.contains(name)) << name;
    EXPECT_EQ(s["value"], sampled[name]["value"]) << name;
  }
  for (const auto& [name, s] : sampled.items())
    EXPECT_TRUE(full.contains(name) || name.rfind("gpu.sampling.", 0) == 0) << name;
}

// Colouring a grid graph: each round's launch is many waves of alike CTAs on two SMs. After the
// waves settle the rest of a launch runs functionally, charged their rate; the colours still check.
TEST(Sampling, BlocksChargesTheCtasPastSettledWaves) {
  TempDir d;
  const std::vector<std::string> color{"-q", "-s", "gpu.num_sms=2", "--workload", "color", "--variant", "topology",
                                       "--graph", "grid:rows=128,cols=128"};
  run(color, "off", d.path() + "/full");
  run(color, "blocks", d.path() + "/sampled");
  const auto full = stats_of(d.path() + "/full"), sampled = stats_of(d.path() + "/sampled");
  EXPECT_GT(value(sampled, "gpu.sampling.extrapolated_ctas"), 100);
  EXPECT_GT(value(sampled, "gpu.sampling.extrapolated_kernels"), 5);
  const double want = value(full, "gpu.total.kernel_cycles"), got = value(sampled, "gpu.total.kernel_cycles");
  EXPECT_LE(std::fabs(got - want), 0.01 * want) << got << " vs " << want;
  EXPECT_EQ(value(sampled, "gpu.total.thread_instructions"), value(full, "gpu.total.thread_instructions"));
  // both: the kernels' clusters too (here each round's launch is its own kind: the same charges).
  run(color, "both", d.path() + "/both");
  const auto both = stats_of(d.path() + "/both");
  EXPECT_GT(value(both, "gpu.sampling.clusters"), 5);
  EXPECT_EQ(value(both, "gpu.sampling.extrapolated_ctas"), value(sampled, "gpu.sampling.extrapolated_ctas"));
  EXPECT_EQ(value(both, "gpu.total.kernel_cycles"), got);
}

// A unit whose state lives outside device memory cannot be sampled: the run stops, saying why.
TEST(Sampling, RefusedWithAUnitWhoseStateSpansLaunches) {
  TempDir d;
  const auto r = run_cli({"run", "-q", "-c", "kim4x16", "-o", d.path(), "-s", "sim.sampling=kernels", "--workload", "bfs",
                          "--variant", "hwwl", "--graph", "grid:rows=8,cols=8"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("cannot run with the hwwl unit: its banks hold work items"), std::string::npos) << r.err;
  const auto dats = run_cli({"run", "-q", "-c", "gtx480", "-o", d.path(), "-s", "sim.sampling=blocks", "--workload", "sw",
                             "--variant", "deplinks", "-s", "gpu.cta_scheduler=dats"});
  EXPECT_NE(dats.exit_code, 0);
  EXPECT_NE(dats.err.find("the dats unit: a wavefront runs as one launch"), std::string::npos) << dats.err;
}
