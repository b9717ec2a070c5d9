// SPDX-License-Identifier: Apache-2.0
// The calibration microbenchmarks (workloads/micro, `irrgpu calibrate`) measure what the
// configuration says: every figure here is computed from the configured latencies and widths, so
// a regression anywhere on the memory path or in the core's timing fails one of them.
#include <gtest/gtest.h>

#include <map>

#include "models/gpu/gpu.h"
#include "testbenches/common/testing.h"
#include "workloads/micro/micro.h"

using namespace irr;
using irr::testing::Testbench;

namespace {

// All clocks 1 GHz, one SM and one partition, host costs small, the fixed DRAM: the path lengths
// of docs/memory.md apply (as in timing_test.cpp's pointer chase).
std::vector<std::string> base() {
  return {"gpu.num_sms=1", "l2.partitions=1", "l2.size=768KiB", "clocks.core=1GHz", "clocks.interconnect=1GHz",
          "clocks.l2=1GHz", "clocks.dram=1GHz", "host.launch_overhead=5us", "host.copy_bandwidth=1000000GB/s",
          "l1.latency=3", "interconnect.latency=5", "l2.latency=7", "dram.model=fixed", "dram.latency=50",
          "core.latency_int=6", "core.latency_fp=9", "core.shared_replay_cycles=3", "atomic.latency=4",
          "log.level=warn"};
}
constexpr unsigned Ll = 3, Li = 5, L2 = 7, Ld = 50, Lint = 6, Lfp = 9, Lsh = 24, Replay = 3, Latomic = 4;
constexpr double kL1Hit = 3 + Ll;
constexpr double kL2Hit = kL1Hit + 1 + Li + 1 + L2 + 1 + (5 - 1) + Li + 1;
constexpr double kDram = kL2Hit + 1 + Ld + 1;

std::map<std::string, double> measure(const std::vector<std::string>& benchmarks, std::vector<std::string> sets = base(),
                                      const char* preset = "gtx480") {
  Testbench tb(sets, preset);
  auto& g = tb.add<gpu::Gpu>("gpu");
  runtime::Device dev(g.memory());
  dev.set_backend(&g);
  dev.echo_printf(false);
  std::map<std::string, double> out;
  gpu::Host host("host", [&] {
    for (const auto& f : workloads::micro::run(dev, tb.sim(), benchmarks)) out[f.name] = f.value;
  });
  tb.run();
  EXPECT_TRUE(host.finished());
  return out;
}

}  // namespace

TEST(Calibration, PointerChaseLatencies) {
  auto f = measure({"latency"});
  // Whole cycles per load: one cycle over the 32-load difference is the sink store's L1 slot.
  EXPECT_NEAR(f["latency.l1_hit"], kL1Hit, 1.0 / 32);
  EXPECT_DOUBLE_EQ(f["latency.l2_hit"], kL2Hit);
  EXPECT_DOUBLE_EQ(f["latency.dram"], kDram);
}

TEST(Calibration, DramControllerLatencyAddsToEveryDramAccess) {
  auto sets = base();
  sets.insert(sets.end(), {"dram.model=detailed", "dram.tRP=12", "dram.tRCD=12", "dram.tCL=12", "dram.tRAS=28",
                           "dram.controller_latency=40"});
  // The chain's pointers are 1 MiB + 3 lines apart: one bank, a new row each time (a conflict:
  // precharge, activate, read), a 128-byte line in 4 cycles of the 8-byte x4 bus.
  EXPECT_DOUBLE_EQ(measure({"latency"}, sets)["latency.dram"], kL2Hit + 1 + (12 + 12 + 12 + 4 + 40) + 1);
}

TEST(Calibration, SharedMemoryBankConflictsReplay) {
  auto f = measure({"shared"});
  // Stride s words over 32 banks: s-way conflicts (stride 0 is a broadcast, one way).
  for (unsigned s : {0u, 1u, 2u, 4u, 8u, 16u, 32u}) {
    const unsigned ways = s == 0 ? 1 : s;
    EXPECT_DOUBLE_EQ(f["shared.stride_" + std::to_string(s)], Lsh + (ways - 1) * Replay) << "stride " << s;
  }
}

TEST(Calibration, AluLatencyAndIssueRate) {
  auto f = measure({"alu"});
  EXPECT_DOUBLE_EQ(f["alu.int_add_latency"], Lint);
  EXPECT_DOUBLE_EQ(f["alu.fp_fma_latency"], Lfp);
  // Two schedulers issue one warp instruction each per cycle; loop control and the warps' start
  // and end cost a few percent.
  EXPECT_GT(f["alu.issue_rate"], 0.9 * 2);
  EXPECT_LE(f["alu.issue_rate"], 2.0);
}

TEST(Calibration, AtomicsSerialisePerAddress) {
  auto f = measure({"atomics"});
  // One global address: one operation per atomic.latency at the L2's atomic unit.
  EXPECT_NEAR(f["atomic.global.one_address"], 1.0 / Latomic, 0.05 / Latomic);
  EXPECT_GT(f["atomic.global.address_per_thread"], 1.5 * f["atomic.global.one_address"]);
  // One shared address: the warp's 32 lanes replay on the shared port, Replay cycles each.
  EXPECT_NEAR(f["atomic.shared.one_address"], 1.0 / Replay, 0.05 / Replay);
  EXPECT_GT(f["atomic.shared.address_per_thread"], 2 * f["atomic.shared.one_address"]);
}

TEST(Calibration, CoalescingOneRequestPerLine) {
  auto f = measure({"coalescing"});
  for (unsigned s : {1u, 2u, 4u, 8u, 16u, 32u}) EXPECT_DOUBLE_EQ(f["coalescing.stride_" + std::to_string(s)], s);
}

TEST(Calibration, LaunchOverheadIsTheHosts) {
  auto f = measure({"launch"});
  EXPECT_NEAR(f["launch.overhead"], 5.0, 0.01);
  EXPECT_LE(f["launch.empty_kernel"], 2);
}

TEST(Calibration, DramCopyStaysUnderThePeak) {
  auto sets = base();
  sets.push_back("dram.model=detailed");
  auto f = measure({"bandwidth"}, sets);
  EXPECT_GT(f["bandwidth.dram_copy_of_peak"], 0.5);
  EXPECT_LE(f["bandwidth.dram_copy_of_peak"], 1.0);
  EXPECT_GT(f["bandwidth.dram_bus_busy"], 0.5);
  EXPECT_LE(f["bandwidth.dram_bus_busy"], 1.0);
}

// A write-back L2 larger than the copy's 4 MiB of traffic can hold written lines: the copy's own
// count then passes the DRAM's peak (gtx1080ti's 2.75 MB L2 at GPGPU-Sim's shorter latencies),
// while what the DRAM's buses carried stays below it.
TEST(Calibration, DramBusBusyIsWhatTheDramCarried) {
  auto f = measure({"bandwidth"}, {"log.level=warn", "l2.latency=120", "dram.controller_latency=164", "core.latency_int=4",
                                   "core.latency_fp=4"},
                   "gtx1080ti");
  EXPECT_GT(f["bandwidth.dram_copy_of_peak"], 1.0);
  EXPECT_LT(f["bandwidth.dram_bus_busy"], 0.9);
}

TEST(Calibration, UnknownBenchmarkIsAnErrorNamingTheKnownOnes) {
  Testbench tb({"log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  runtime::Device dev(g.memory());
  try {
    workloads::micro::run(dev, tb.sim(), {"latancy"});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("latency, shared"), std::string::npos) << e.what();
  }
}

// The real GPUs' presets against published measurements (docs/results/calibration.md): Arafa et
// al. 2019's Maxwell, Pascal, Kepler and Turing figures, typed here; every one within 20 %.
struct Published {
  const char* preset;
  double l1, l2, dram, shared, add;
};
class RealGpuCalibration : public ::testing::TestWithParam<Published> {};

TEST_P(RealGpuCalibration, LatenciesWithinTwentyPercentOfTheMeasurements) {
  const Published p = GetParam();
  auto f = measure({"latency", "shared", "alu"}, {"log.level=warn"}, p.preset);
  EXPECT_NEAR(f["latency.l1_hit"], p.l1, 0.2 * p.l1);
  EXPECT_NEAR(f["latency.l2_hit"], p.l2, 0.2 * p.l2);
  EXPECT_NEAR(f["latency.dram"], p.dram, 0.2 * p.dram);
  EXPECT_NEAR(f["shared.stride_0"], p.shared, 0.2 * p.shared);
  EXPECT_NEAR(f["alu.int_add_latency"], p.add, 0.2 * p.add);
}

INSTANTIATE_TEST_SUITE_P(Presets, RealGpuCalibration,
                         ::testing::Values(Published{"gtx980", 82, 225, 379, 24, 6},
                                           Published{"gtx1080ti", 81, 252, 482, 25, 6},
                                           Published{"k40c", 32, 188, 331, 26, 9},
                                           Published{"rtx2080ti", 27, 234, 424, 21, 4}),
                         [](const auto& info) { return std::string(info.param.preset); });
