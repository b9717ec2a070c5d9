// SPDX-License-Identifier: Apache-2.0
// DATS in the timed GPU (models/gpu/dats_scheduler.h): DepLinks launches of the wavefront
// workloads checked against their CPU references under every policy, the buffer's reads as real
// transactions through the front end's path, the level bound kept, the baselines' launch costs,
// the deadlock the paper's PUB rule allows and the reservation that removes it, the watchdog's
// report, and the errors for a launch the GPU cannot run.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "models/gpu/gpu.h"
#include "testbenches/common/testing.h"
#include "workloads/wavefront/wavefront.h"

using namespace irr;
using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;
using irr::testing::Testbench;
namespace wf = irr::workloads::wavefront;

namespace {

struct WavefrontRun {
  wf::Result result;
  std::unique_ptr<Testbench> tb;
  double stat(const std::string& name) const { return tb->stat(name); }
};

// `workload` in `variant` on the timed GPU (gtx480 with `sets`).
WavefrontRun run(const std::string& workload, const std::string& variant, wf::Shape shape, std::vector<std::string> sets) {
  WavefrontRun r;
  r.tb = std::make_unique<Testbench>(sets, "gtx480");
  auto& gpu = r.tb->add<gpu::Gpu>("gpu");
  runtime::Device dev(gpu.memory());
  dev.echo_printf(false);
  dev.set_backend(&gpu);
  gpu::Host host("host", [&] { r.result = wf::find(workload)->run(dev, shape, variant); });
  r.tb->run();
  EXPECT_TRUE(host.finished());
  return r;
}

const std::vector<std::string> kDats = {"gpu.cta_scheduler=dats"};

}  // namespace

// Every workload under LVL on a small tile grid: correct results (each block after its parents:
// the scheduler also checks that on every issue and throws otherwise), every node loaded once
// through the buffer, the buffer's reads on the network, the level range within the bound.
class DatsGpuWorkload : public ::testing::TestWithParam<std::string> {};

TEST_P(DatsGpuWorkload, LvlMatchesTheReference) {
  const WavefrontRun r = run(GetParam(), "lvl", {7, 5, 8, 1}, kDats);
  EXPECT_EQ(r.result.check, "");
  EXPECT_EQ(r.result.launches, 1u);
  EXPECT_EQ(r.stat("gpu.dats.nodes_loaded"), 35);
  EXPECT_GE(r.stat("gpu.front_end.requests"), 3);  // 35 nodes: 3 chunks, and their edges
  EXPECT_EQ(r.stat("gpu.front_end.requests"), r.stat("gpu.dats.chunk_reads") + r.stat("gpu.dats.edge_reads"));
  EXPECT_LE(r.stat("gpu.dats.level_range_high_water"), 3);
}

// Tiles wider than a warp: 96 threads a block (int_img and hist with 36 KB of column sums in
// dynamic shared memory), still correct.
TEST_P(DatsGpuWorkload, WideTilesMatchTheReference) {
  const WavefrontRun r = run(GetParam(), "lvl", {3, 2, 96, 1}, kDats);
  EXPECT_EQ(r.result.check, "");
  EXPECT_EQ(r.stat("gpu.dats.nodes_loaded"), 6);
}

INSTANTIATE_TEST_SUITE_P(All, DatsGpuWorkload, ::testing::Values("dtw", "heat2d", "hist", "int_img", "sor", "sw"));

// LRR runs ahead: on a 24 x 24 wavefront of short blocks its running blocks span 5 levels; LVL
// with its bound of 3 (the level_bound key overriding the launch's) and of 1 keeps them within it.
TEST(DatsGpu, LrrRunsAhead) {
  const WavefrontRun r = run("sor", "lrr", {24, 24, 4, 1}, kDats);
  EXPECT_EQ(r.result.check, "");
  EXPECT_GT(r.stat("gpu.dats.level_range_high_water"), 3);
}

TEST(DatsGpu, LvlKeepsItsBound) {
  const WavefrontRun r = run("sor", "lrr", {24, 24, 4, 1}, {"gpu.cta_scheduler=dats", "dats.policy=lvl", "dats.level_bound=1"});
  EXPECT_EQ(r.result.check, "");
  EXPECT_LE(r.stat("gpu.dats.level_range_high_water"), 1);
}

// DepLinks without run-ahead: no buffer and no reads, blocks in launch order once ready.
TEST(DatsGpu, DeplinksIssuesInLaunchOrderWithoutTheBuffer) {
  const WavefrontRun r = run("sw", "deplinks", {6, 6, 8, 1}, kDats);
  EXPECT_EQ(r.result.check, "");
  EXPECT_EQ(r.stat("gpu.front_end.requests"), 0);
  EXPECT_EQ(r.stat("gpu.dats.nodes_loaded"), 0);
}

// The paper's PUB rule [W L372] on a small buffer: a finished tail block waits for PUB room that
// only loading can free, and loading waits for the tail — the run stops, and the watchdog names
// the blocked completions. With the reservation (the default) the same run completes.
TEST(DatsGpu, PaperPubRuleCanStopTheBufferAndTheWatchdogSaysWhy) {
  IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD();
  const std::vector<std::string> small = {"gpu.cta_scheduler=dats", "dats.lna_entries=32", "dats.lea_entries=128",
                                          "dats.pub_entries=8", "dats.chunk_nodes=4", "dats.pub_reservation=false"};
  try {
    run("sor", "lrr", {24, 24, 4, 1}, small);
    FAIL() << "expected the buffer to stop";
  } catch (const std::exception& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("its completion waits for PUB room"), std::string::npos) << what;
    EXPECT_NE(what.find("8 of 8 PUB entries in use"), std::string::npos) << what;
  }
}

TEST(DatsGpu, PubReservationAvoidsTheStop) {
  const WavefrontRun r = run("sor", "lrr", {24, 24, 4, 1},
                    {"gpu.cta_scheduler=dats", "dats.lna_entries=32", "dats.lea_entries=128", "dats.pub_entries=8",
                     "dats.chunk_nodes=4"});
  EXPECT_EQ(r.result.check, "");
  EXPECT_EQ(r.stat("gpu.dats.blocked_completions"), 0);
  EXPECT_LE(r.stat("gpu.dats.pub_high_water"), 8);
}

// The baselines' launches: Global pays the host's 30 us per wave, CDP the host's once and the
// device's 10 us for each later wave; nothing else lies outside the kernels but the copies.
TEST(DatsGpu, CdpPaysTheDeviceLaunchLatency) {
  const WavefrontRun r = run("dtw", "cdp", {4, 3, 8, 1}, {});
  EXPECT_EQ(r.result.check, "");
  EXPECT_EQ(r.stat("gpu.kernels"), 6);
  const double mhz = 700, outside = r.stat("gpu.total.core_cycles") - r.stat("gpu.total.kernel_cycles");
  const double copies = r.stat("gpu.host_copy_bytes") / 6e9 * mhz * 1e6;
  EXPECT_NEAR(outside, (30 + 5 * 10) * mhz + copies, 0.01 * outside);
}

// GPGPU-Sim's form of the device launch model: a per-block latency on top, for each block of a
// device-launched grid (dtw on 4 x 3 tiles: 11 blocks in the five waves after the host's first).
TEST(DatsGpu, CdpPaysAPerBlockLatencyWhenSet) {
  const WavefrontRun r = run("dtw", "cdp", {4, 3, 8, 1}, {"host.device_launch_block_latency=1us"});
  EXPECT_EQ(r.result.check, "");
  const double mhz = 700, outside = r.stat("gpu.total.core_cycles") - r.stat("gpu.total.kernel_cycles");
  const double copies = r.stat("gpu.host_copy_bytes") / 6e9 * mhz * 1e6;
  EXPECT_NEAR(outside, (30 + 5 * 10 + 11 * 1) * mhz + copies, 0.01 * outside);
}

namespace {

// Runs that compare two configurations go through the command line (one simulation a process).
nlohmann::json cli_stats(const std::string& workload, const std::string& variant, const std::string& tiles,
                         std::vector<std::string> sets) {
  TempDir d;
  std::vector<std::string> args = {"run", "-q", "-c", "gtx480", "--workload", workload, "--variant", variant,
                                   "--tiles", tiles, "--tile", "4", "-o", d.path()};
  for (const auto& s : sets) args.insert(args.end(), {"-s", s});
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
  return nlohmann::json::parse(read_file(d.path() + "/stats.json"))["stats"];
}
double value(const nlohmann::json& stats, const char* name) { return stats[name]["value"].get<double>(); }

}  // namespace

// The loader's timing penalty [W L454] is measured against an instant loader: the same nodes
// loaded with no read on the network and no cycle spent waiting for one, and the run shorter.
TEST(DatsGpu, InstantLoaderReadsNothingAndIsNoSlower) {
  const std::vector<std::string> lrr = {"gpu.cta_scheduler=dats", "dats.lna_entries=32", "dats.lea_entries=128"};
  std::vector<std::string> instant = lrr;
  instant.push_back("dats.loader=instant");
  const auto real = cli_stats("sor", "lrr", "24x24", lrr), ideal = cli_stats("sor", "lrr", "24x24", instant);
  EXPECT_EQ(value(ideal, "gpu.dats.nodes_loaded"), 576);
  EXPECT_EQ(value(ideal, "gpu.front_end.requests"), 0);
  EXPECT_EQ(value(ideal, "gpu.dats.load_wait_cycles"), 0);
  EXPECT_GT(value(real, "gpu.front_end.requests"), 0);
  EXPECT_GT(value(real, "gpu.dats.load_wait_cycles"), 0);
  EXPECT_LT(value(ideal, "gpu.total.kernel_cycles"), value(real, "gpu.total.kernel_cycles"));
}

// DepLinks' two readings of "launch order": admitted level by level, a wavefront wider than the
// GPU's slots (24 blocks a row against 120 slots) holds no slot with a block rows ahead of its
// parents, and finishes sooner than admitted in block order.
TEST(DatsGpu, DeplinksAdmittedInDependencyOrderRunsWholeWaves) {
  const auto launch = cli_stats("sw", "deplinks", "24x24", {"gpu.cta_scheduler=dats"});
  const auto dependency = cli_stats("sw", "deplinks", "24x24", {"gpu.cta_scheduler=dats", "dats.admission=dependency"});
  EXPECT_LT(value(dependency, "gpu.total.kernel_cycles"), value(launch, "gpu.total.kernel_cycles"));
}
