// SPDX-License-Identifier: Apache-2.0
// The memory system as a whole: nothing lost or duplicated under backpressure, every preset runs,
// streaming reaches the DRAM bandwidth, the frontier gather behaves as a gather.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "models/mem/memory_system.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::testing::Testbench;


TEST(MemSystem, BackpressureLosesAndDuplicatesNothing) {
  // Buffers of one everywhere, loads, stores and atomics from every SM to random addresses.
  Testbench tb({"gpu.num_sms=4", "traffic.pattern=random", "traffic.instructions=150", "traffic.warps=8",
                "traffic.footprint=256KiB", "traffic.store_fraction=0.2", "traffic.atomic_fraction=0.1",
                "interconnect.input_buffer=1", "l2.input_queue=1", "l1.miss_queue=1", "l1.mshrs=2", "l2.mshrs=2",
                "dram.queue=2", "log.level=warn"},
               "gtx480");
  auto& m = tb.add<mem::MemorySystem>("memory");
  tb.run();  // fails if anything is left outstanding or a payload is still allocated
  EXPECT_EQ(m.pool().in_use(), 0u);
  EXPECT_EQ(tb.sum("_traffic.instructions"), 4 * 150);
  const double requests = tb.stat("memory.interconnect.request.packets");
  EXPECT_GT(requests, 0);
  EXPECT_EQ(tb.stat("memory.interconnect.reply.packets"), requests);   // every request answered once
  EXPECT_EQ(tb.sum(".l2.accesses"), requests);                         // and looked up once
  EXPECT_EQ(tb.stat("sim.memory_transactions"), requests);
  EXPECT_GT(tb.sum(".reservation_fails"), 0);                          // backpressure did happen
  EXPECT_GT(tb.sum(".atomic.operations"), 0);
}

TEST(MemSystem, CrossbarWiderThanABitmapWordLosesNothing) {
  // 70 SMs: the crossbars' bitmaps of inputs and reply targets take two words; SMs 64-69, in the
  // second, must be served as the others (a missed reply leaves work outstanding: the run fails).
  Testbench tb({"gpu.num_sms=70", "traffic.pattern=random", "traffic.instructions=30", "traffic.warps=4",
                "interconnect.input_buffer=1", "log.level=warn"},
               "gtx480");
  auto& m = tb.add<mem::MemorySystem>("memory");
  tb.run();
  EXPECT_EQ(m.pool().in_use(), 0u);
  EXPECT_EQ(tb.sum("_traffic.instructions"), 70 * 30);
  const double requests = tb.stat("memory.interconnect.request.packets");
  EXPECT_EQ(tb.stat("memory.interconnect.reply.packets"), requests);
  EXPECT_GT(tb.stat("memory.interconnect.contention_cycles"), 0);
}

class MemPresets : public ::testing::TestWithParam<const char*> {};

TEST_P(MemPresets, ElaborateAndRun) {
  Testbench tb({"traffic.instructions=40", "log.level=warn"}, GetParam());
  auto& m = tb.add<mem::MemorySystem>("memory");
  tb.run();
  EXPECT_EQ(m.pool().in_use(), 0u);
  EXPECT_EQ(tb.sum("_traffic.instructions"), 40 * tb.sim().config().get_uint("gpu.num_sms"));
  EXPECT_GT(tb.stat("sim.memory_transactions"), 0);
}

INSTANTIATE_TEST_SUITE_P(Presets, MemPresets, ::testing::Values("gtx480", "gtx980", "kim4x16"));

TEST(MemSystem, StreamingReachesDramBandwidth) {
  // The DRAM scheduler's reach at the uncalibrated latencies: with the calibrated ones 32 MSHRs
  // per L1 cannot cover the 300-cycle path (docs/results/calibration.md).
  Testbench tb({"traffic.pattern=stream", "traffic.instructions=800", "dram.controller_latency=0", "l2.latency=20", "l1.latency=1", "log.level=warn"}, "gtx480");
  tb.add<mem::MemorySystem>("memory");
  tb.run();
  const auto& c = tb.sim().config();
  const double peak_per_cycle = static_cast<double>(c.get_size("dram.bus_width") * c.get_uint("dram.data_rate"));
  const double channels = static_cast<double>(c.get_uint("l2.partitions"));
  const double bytes = tb.sum(".dram.reads") * 128;
  const double elapsed = tb.stat("clocks.dram.cycles");
  EXPECT_GE(bytes / (elapsed * peak_per_cycle * channels), 0.85);
}

TEST(MemSystem, FrontierGatherIsAGather) {
  // Power-law gathers scatter: many requests per warp load, few row hits; a stream coalesces.
  Testbench tb({"traffic.pattern=frontier", "traffic.instructions=100", "gpu.num_sms=2", "log.level=warn"}, "gtx480");
  tb.add<mem::MemorySystem>("memory");
  tb.run();
  EXPECT_GT(tb.stat("memory.sm0_traffic.requests_per_instruction"), 16);
  EXPECT_GT(tb.sum(".l2.hits"), 0);  // the power law's hot vertices do hit
}

namespace {
// Installs no fill in the L1: repeated loads of one line never hit.
struct BypassAll : mem::CachePolicy {
  std::string name() const override { return "bypass-all"; }
  bool allocate(const mem::CacheRequest&, std::optional<std::uint64_t>) override { return false; }
};
// Answers, itself, every request at or above 0x80000000 (as a reorder unit would for its range).
struct Beside : mem::PartitionUnit {
  int taken = 0;
  bool intercept(tlm::tlm_generic_payload& p, mem::MemoryPartition& part) override {
    if (p.get_address() < 0x80000000ull) return false;
    ++taken;
    part.reply(p);
    return true;
  }
};
}  // namespace

TEST(MemSystem, PolicyHookBypassesTheL1) {
  irr::testing::TempDir d;
  std::string trace = "0 0 0 ld 4 1000\n0 0 0 ld 4 1000\n0 0 0 ld 4 1000\n";
  Testbench tb({"gpu.num_sms=1", "traffic.pattern=trace", "traffic.trace=" + d.write("t", trace), "log.level=warn"}, "gtx480");
  auto& m = tb.add<mem::MemorySystem>("memory");
  m.l1(0).policies().add(std::make_unique<BypassAll>());
  tb.run();
  EXPECT_EQ(tb.stat("memory.sm0_l1.hits"), 0);
  EXPECT_EQ(tb.stat("memory.sm0_l1.misses"), 3);
}

TEST(MemSystem, UnitBesideL2TakesItsRequests) {
  irr::testing::TempDir d;
  std::string trace = "0 0 0 ld 4 80000000\n0 0 0 ld 4 1000\n";
  Testbench tb({"gpu.num_sms=1", "l2.partitions=1", "l2.size=128KiB", "traffic.pattern=trace",
                "traffic.trace=" + d.write("t", trace), "log.level=warn"},
               "gtx480");
  auto& m = tb.add<mem::MemorySystem>("memory");
  Beside unit;
  m.partition(0).attach(&unit);
  tb.run();
  EXPECT_EQ(unit.taken, 1);
  EXPECT_EQ(tb.stat("memory.partition0.l2.accesses"), 1);  // only the other load reached the L2
}

TEST(MemSystem, TransactionTraceHasEveryHop) {
  irr::testing::TempDir d;
  Testbench tb({"traffic.instructions=10", "gpu.num_sms=2", "log.level=warn"}, "gtx480");
  tb.sim().observe({"", "", {}, d.path() + "/t.json", 1000000, nullptr});
  tb.add<mem::MemorySystem>("memory");
  tb.run();
  auto j = nlohmann::json::parse(irr::testing::read_file(d.path() + "/t.json"));
  std::map<std::string, int> spans;
  for (const auto& e : j["traceEvents"])
    if (e["ph"] == "X") ++spans[e["name"].get<std::string>()];
  const int requests = static_cast<int>(tb.stat("memory.interconnect.request.packets"));
  EXPECT_EQ(spans["load"], requests);  // issue at the L1 ...
  EXPECT_EQ(spans["request"], requests);  // ... the request network ...
  EXPECT_EQ(spans["l2"], requests);  // ... the partition ...
  EXPECT_EQ(spans["reply"], requests);  // ... and the reply network, then completion
  EXPECT_EQ(j["otherData"]["unfinished_transactions"], 0);
}
