// SPDX-License-Identifier: Apache-2.0
// The HWWL as a clocked unit (models/hwwl/hwwl_unit.h) driven by its testbench top (sim.top: hwwl):
// every scheme, mode, trigger and refill policy processes the whole tree of work IDs, each exactly
// once (the testbench fails the run otherwise), with the invariants checked by the unit itself.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "models/hwwl/testbench.h"
#include "sim/error.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::testing::Testbench;

namespace {

constexpr std::uint64_t kIds = 3000;

struct HwwlRun {
  Testbench tb;
  hwwl::Testbench& top;
  explicit HwwlRun(std::vector<std::string> sets)
      : tb([&] {
          sets.push_back("hwwl.testbench.work_ids=" + std::to_string(kIds));
          sets.push_back("hwwl.testbench.memory_latency=50");
          return sets;
        }()),
        top(tb.add<hwwl::Testbench>("hwwl_tb")) {
    tb.run();
  }
  double stat(const std::string& leaf) const { return tb.stat("hwwl_tb.hwwl." + leaf); }
};

using Policy = std::tuple<std::string, std::string, std::string, std::string>;  // scheme, mode, trigger, refill

std::string name_of(const Policy& p) {
  return std::get<0>(p) + "_" + std::get<1>(p) + "_" + std::get<2>(p) + "_" + std::get<3>(p);
}

class HwwlUnitPolicies : public ::testing::TestWithParam<Policy> {};

TEST_P(HwwlUnitPolicies, EveryWorkIdOnceAndInvariantsHold) {
  const auto& [scheme, mode, trigger, refill] = GetParam();
  HwwlRun r({"hwwl.redistribution=" + scheme, "hwwl.mode=" + mode, "hwwl.trigger=" + trigger,
         "hwwl.virtualization=" + refill, "hwwl.bank_entries=16"});
  EXPECT_TRUE(r.top.finished());
  EXPECT_EQ(r.tb.stat("hwwl_tb.processed"), kIds);
  EXPECT_EQ(r.stat("pushes"), kIds);
  EXPECT_EQ(r.stat("hvu.spilled"), r.stat("hvu.refilled"));  // small banks: the overflow buffer is used
  EXPECT_GT(r.stat("hvu.spilled"), 0);
  if (scheme == "none") {
    EXPECT_EQ(r.stat("wru.moved"), 0);
    EXPECT_EQ(r.stat("icrn.sent"), 0);
  } else if (mode == "double") {
    EXPECT_GT(r.stat("wru.moved"), 0);  // (single-buffer: lanes other than the root's retire at once)
  }
  if (mode == "double") {
    EXPECT_GT(r.stat("kernels"), 10);  // a tree level per kernel (and the host's initial one)
  }
  if (refill == "on_demand") {
    EXPECT_GT(r.stat("refill_pulls"), 0);
  } else {
    EXPECT_EQ(r.stat("refill_pulls"), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Hwwl, HwwlUnitPolicies,
    ::testing::Values(Policy{"none", "double", "interval", "interval"}, Policy{"threshold", "double", "interval", "interval"},
                      Policy{"lsorting", "double", "interval", "interval"}, Policy{"gsorting", "double", "interval", "interval"},
                      Policy{"magic", "double", "interval", "interval"}, Policy{"lsorting", "single", "interval", "interval"},
                      Policy{"none", "single", "interval", "interval"}, Policy{"lsorting", "double", "on_demand", "interval"},
                      Policy{"lsorting", "double", "interval", "on_demand"}, Policy{"none", "single", "interval", "on_demand"}),
    [](const auto& info) { return name_of(info.param); });

// The idealised HWWL on the testbench: the tree's IDs each once, nothing spilled or moved, no
// pull waits for a port, and the whole tree in far fewer cycles than the realistic banks.
class HwwlUnitIdeal : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};  // order, mode

TEST_P(HwwlUnitIdeal, EveryWorkIdOnceWithoutBanks) {
  HwwlRun r({std::string("hwwl.ideal=") + GetParam().first, std::string("hwwl.mode=") + GetParam().second});
  EXPECT_TRUE(r.top.finished());
  EXPECT_EQ(r.tb.stat("hwwl_tb.processed"), kIds);
  EXPECT_EQ(r.stat("pushes"), kIds);
  EXPECT_EQ(r.stat("hvu.spilled") + r.stat("wru.moved") + r.stat("icrn.sent") + r.stat("redistribution_points"), 0);
  // 3,000 IDs over 64 lanes, a few cycles each: some 300-400 cycles (the banks take some 1,500).
  EXPECT_LT(r.tb.stat("clocks.core.cycles"), 600);
}

INSTANTIATE_TEST_SUITE_P(Hwwl, HwwlUnitIdeal,
                         ::testing::Values(std::make_pair("fifo", "double"), std::make_pair("sorted", "double"),
                                           std::make_pair("fifo", "single"), std::make_pair("sorted", "single")),
                         [](const auto& info) { return std::string(info.param.first) + "_" + info.param.second; });

// Inter-core redistribution: all work starts in core 0; with a scheme, other cores pull some of it.
TEST(HwwlUnit, WorkCrossesTheIcrn) {
  HwwlRun r({"hwwl.redistribution=lsorting"});
  EXPECT_GT(r.stat("icrn.sent"), 0);
  std::uint64_t elsewhere = 0;
  for (std::uint32_t k = 1; k < 4; ++k)
    for (std::uint32_t l = 0; l < 16; ++l) elsewhere += r.top.unit().worklist().bank(k, l).pullable();
  EXPECT_EQ(elsewhere, 0u);  // and everything was pulled in the end
}

// The paper's hardware exception: a push that finds its bank and the overflow buffer full.
TEST(HwwlUnit, OverflowEndsTheRunNamingTheCore) {
  try {
    HwwlRun r({"hwwl.bank_entries=4", "hwwl.testbench.overflow_ids=8"});
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("wlpush on core 0: its bank and its overflow buffer (8 IDs"),
              std::string::npos) << e.what();
  }
}

}  // namespace

namespace {

// The warp-level access the SM uses: threads 0-15 push in pass 0 (this cycle), threads 16-31 of
// another warp pull in pass 1 (the next cycle), bank by bank.
TEST(HwwlUnit, WarpAccessCountsEveryThread) {
  Testbench tb({"hwwl.mode=single"});
  auto& unit = tb.add<hwwl::HwwlUnit>("hwwl", 1, 16);
  std::uint32_t ids[32] = {}, got[32] = {};
  for (std::uint32_t t = 0; t < 16; ++t) ids[t] = 500 + t;
  ASSERT_TRUE(unit.warp_ports_free(0, 0x0000ffffu));
  unit.warp_push(0, 0x0000ffffu, ids);
  EXPECT_FALSE(unit.warp_ports_free(0, 0x0000ffffu));  // this cycle's ports are taken
  ASSERT_TRUE(unit.warp_ports_free(0, 0xffff0000u));   // pass 1 goes next cycle
  unit.warp_pull(0, 0, 0xffff0000u, got);
  for (std::uint32_t t = 16; t < 32; ++t) EXPECT_EQ(got[t], 500 + t - 16) << t;
  tb.run();
  EXPECT_EQ(tb.stat("hwwl.pushes"), 16);
  EXPECT_EQ(tb.stat("hwwl.pulls"), 16);
  EXPECT_EQ(tb.stat("hwwl.wait_pulls"), 0);
}

// Eight lanes: threads 0, 8 and 16 use bank 0 in three passes; with two entries and no overflow
// buffer the third push is refused, naming the core and the lane.
TEST(HwwlUnit, WarpPushToAFullBankWithoutOverflowIsAnError) {
  Testbench tb({"hwwl.mode=single", "hwwl.bank_entries=2"});
  auto& unit = tb.add<hwwl::HwwlUnit>("hwwl", 2, 8);
  const std::uint32_t ids[32] = {1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3};
  try {
    unit.warp_push(1, 0x00010101u, ids);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("wlpush on core 1 lane 0: the bank is full and no overflow buffer"),
              std::string::npos) << e.what();
  }
}

}  // namespace
