// SPDX-License-Identifier: Apache-2.0
// The IRU (models/iru): the hash bank's insertion, merge and take; the spec's worked examples
// (../shared/specs/hwwl_iru_dats.md 2.9: reordering, FP_ADD merging, the timeout) on one partition;
// exactly-once delivery with every filter and ring over four partitions from the testbench top
// (sim.top: iru); the errors for a kernel that asks too little and for a starved request.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "models/core/exec/values.h"
#include "models/iru/testbench.h"
#include "sim/error.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::iru::Element;
using irr::iru::Filter;
using irr::iru::HashBank;
using irr::testing::Testbench;

namespace {

std::uint32_t bits(float f) { return static_cast<std::uint32_t>(core::bits(f)); }
float value(std::uint32_t b) { return core::f32(b); }

// One partition, modulo hash (line L in set L), four-thread requests as in the paper's figures.
iru::Params one_partition() {
  iru::Params p;
  p.partitions = 1;
  p.sets = 64;
  p.banks = 2;
  p.xor_hash = false;
  p.timeout = 50;
  return p;
}

std::vector<std::uint32_t> indices_of(const iru::Reply& r) {
  std::vector<std::uint32_t> v;
  for (const auto& e : r.elements) v.push_back(e.index);
  return v;
}
std::vector<std::uint32_t> positions_of(const iru::Reply& r) {
  std::vector<std::uint32_t> v;
  for (const auto& e : r.elements) v.push_back(e.position);
  return v;
}

}  // namespace

TEST(IruHashBank, InsertsInArrivalOrderUntilFullAndTakesFromTheFront) {
  HashBank b(4, 3, Filter::none);
  std::uint32_t dropped = 99;
  for (std::uint32_t i = 0; i < 3; ++i) EXPECT_EQ(b.insert(1, {i, 0, i}, dropped), HashBank::Insert::inserted);
  EXPECT_EQ(b.insert(1, {7, 0, 7}, dropped), HashBank::Insert::full);  // a full entry refuses [S L161]
  EXPECT_EQ(b.insert(1, {0, 0, 8}, dropped), HashBank::Insert::full);  // no filter: a duplicate is an element
  EXPECT_EQ(dropped, 99u);
  std::vector<Element> out;
  b.take(1, 2, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].index, 0u);
  EXPECT_EQ(out[1].index, 1u);
  EXPECT_EQ(b.count(1), 1u);
  EXPECT_EQ(b.entry(1)[0].index, 2u);
  EXPECT_THROW(b.take(1, 2, out), std::logic_error);
}

TEST(IruHashBank, MinKeepsTheSmallerValueWithItsPositionAndAddSums) {
  HashBank m(1, 32, Filter::min);
  std::uint32_t dropped = 0;
  m.insert(0, {5, 30, 0}, dropped);
  EXPECT_EQ(m.insert(0, {5, 20, 1}, dropped), HashBank::Insert::merged);
  EXPECT_EQ(dropped, 0u);  // the larger one (position 0) is gone
  EXPECT_EQ(m.insert(0, {5, 25, 2}, dropped), HashBank::Insert::merged);
  EXPECT_EQ(dropped, 2u);
  ASSERT_EQ(m.count(0), 1u);
  EXPECT_EQ(m.entry(0)[0], (Element{5, 20, 1}));
  HashBank a(1, 32, Filter::add_f32);
  a.insert(0, {5, bits(0.5f), 0}, dropped);
  a.insert(0, {9, bits(1.0f), 1}, dropped);
  EXPECT_EQ(a.insert(0, {5, bits(0.25f), 2}, dropped), HashBank::Insert::merged);
  EXPECT_EQ(dropped, 2u);
  EXPECT_EQ(value(a.entry(0)[0].secondary), 0.75f);
  // Merging is found even when the entry is full: a duplicate takes no slot.
  HashBank f(1, 1, Filter::add_f32);
  f.insert(0, {3, bits(1.0f), 0}, dropped);
  EXPECT_EQ(f.insert(0, {3, bits(1.0f), 1}, dropped), HashBank::Insert::merged);
}

// 2.9 example 1: indices [0,40,1,41,2,42,3,43] touch lines 0 and 1 alternately; each warp of four
// gets one line: accesses per warp 2 -> 1.
TEST(IruExamples, ReorderingGivesEachWarpOneLine) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  s.indices = {0, 40, 1, 41, 2, 42, 3, 43};
  s.requests = {{0, 4}, {0, 4}};
  auto& top = tb.add<iru::Testbench>("iru_tb", one_partition(), s, 20);
  tb.run();
  ASSERT_TRUE(top.finished());
  ASSERT_EQ(top.replies().size(), 2u);
  EXPECT_EQ(indices_of(top.replies()[0]), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(positions_of(top.replies()[0]), (std::vector<std::uint32_t>{0, 2, 4, 6}));
  EXPECT_EQ(indices_of(top.replies()[1]), (std::vector<std::uint32_t>{40, 41, 42, 43}));
  EXPECT_EQ(positions_of(top.replies()[1]), (std::vector<std::uint32_t>{1, 3, 5, 7}));
  EXPECT_EQ(tb.stat("iru_tb.iru.lines_per_reply"), 1.0);
  EXPECT_EQ(tb.stat("iru_tb.iru.timeouts"), 0);
}

// 2.9 example 2: (5, 0.5), (9, 1.0), (5, 0.25), (7, 2.0) under FP_ADD: three elements, 5 carrying
// 0.75, and one thread without an element.
TEST(IruExamples, AddMergesDuplicatesAndDisablesAThread) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  s.indices = {5, 9, 5, 7};
  s.secondary = {bits(0.5f), bits(1.0f), bits(0.25f), bits(2.0f)};
  s.filter = Filter::add_f32;
  s.requests = {{0, 4}};
  auto& top = tb.add<iru::Testbench>("iru_tb", one_partition(), s, 20);
  tb.run();
  ASSERT_EQ(top.replies().size(), 1u);
  const auto& r = top.replies()[0];
  ASSERT_EQ(r.elements.size(), 3u);  // the fourth thread gets none (load_iru false)
  std::map<std::uint32_t, float> got;
  for (const auto& e : r.elements) got[e.index] = value(e.secondary);
  EXPECT_EQ(got, (std::map<std::uint32_t, float>{{5, 0.75f}, {7, 2.0f}, {9, 1.0f}}));
  EXPECT_EQ(tb.stat("iru_tb.iru.merged"), 1);
  EXPECT_EQ(tb.stat("iru_tb.iru.disabled_threads"), 1);
}

// 2.9 example 3: the hash holds line 0 = {0, 1, 2} and line 1 = {40} when the request times out:
// it takes the fullest entry and then 40, two lines instead of one, after exactly the timeout.
// The array starts 16 bytes before a line's end, so its first four elements come in one read and
// the other four (3, 41, 42, 43) much later; the second request gets those at the final merge.
TEST(IruExamples, TimeoutTakesTheFullestEntriesFirst) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  s.indices = {0, 1, 2, 40, 3, 41, 42, 43};
  s.offset = 128 - 16;
  s.requests = {{1500, 4}, {5000, 4}};
  iru::Params p = one_partition();
  p.prefetches = 1;
  auto& top = tb.add<iru::Testbench>("iru_tb", p, s, 1000);
  tb.run();
  ASSERT_EQ(top.replies().size(), 2u);
  EXPECT_EQ(indices_of(top.replies()[0]), (std::vector<std::uint32_t>{0, 1, 2, 40}));
  EXPECT_EQ(top.reply_cycles()[0], 1500u + p.timeout);
  auto second = indices_of(top.replies()[1]);
  EXPECT_EQ(second, (std::vector<std::uint32_t>{41, 42, 43, 3}));  // the fullest entry (line 1) first
  EXPECT_EQ(tb.stat("iru_tb.iru.timeouts"), 1);
  EXPECT_EQ(tb.stat("iru_tb.iru.final_merge_replies"), 1);
}

// Balancing [S L155]: a partition idle with a full entry takes the oldest request another partition
// cannot answer — long before the timeout. All 32 elements of the first index line touch target
// line 1, an odd set, so partition 1's; the request goes to partition 0.
TEST(IruExamples, AnIdlePartitionWithAFullEntryTakesAWaitingRequest) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  for (std::uint32_t i = 0; i < 64; ++i) s.indices.push_back(32 + i % 32);
  s.requests = {{1500, 32}, {4000, 32}};
  iru::Params p = one_partition();
  p.partitions = 2;
  p.prefetches = 1;  // the second index line arrives after 2000 cycles: input is not done at 1500
  p.timeout = 5000;
  auto& top = tb.add<iru::Testbench>("iru_tb", p, s, 1000);
  tb.run();
  ASSERT_EQ(top.replies().size(), 2u);
  EXPECT_EQ(top.replies()[0].partition, 1u);
  EXPECT_LT(top.reply_cycles()[0], 1520u);
  EXPECT_EQ(tb.stat("iru_tb.iru.timeouts"), 0);
  EXPECT_GE(tb.stat("iru_tb.iru.handed_on"), 1);
  EXPECT_EQ(tb.stat("iru_tb.iru.lines_per_reply"), 1.0);
}

// Sets are interleaved over the partitions: a target array of a few lines spreads over all four.
TEST(IruExamples, ConsecutiveLinesSpreadOverThePartitions) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  s.indices = {0};
  s.requests = {{0, 1}};
  iru::Params p = one_partition();
  p.partitions = 4;
  p.xor_hash = true;
  auto& top = tb.add<iru::Testbench>("iru_tb", p, s, 20);
  std::set<std::uint32_t> owners;
  for (std::uint32_t line = 0; line < 4; ++line) owners.insert(top.unit().owner(top.unit().set_of(32 * line)));
  EXPECT_EQ(owners.size(), 4u);
  tb.run();
}

namespace {

// The testbench top from the configuration, checked: every element delivered or merged exactly
// once (the unit's finish() and send() throw otherwise), and the replies' values consistent with
// the filter.
struct TopRun {
  Testbench tb;
  iru::Testbench& top;
  explicit TopRun(std::vector<std::string> sets)
      : tb(std::move(sets)), top(tb.add<iru::Testbench>("iru_tb")) {
    tb.run();
  }
  double stat(const std::string& leaf) const { return tb.stat("iru_tb.iru." + leaf); }
};

}  // namespace

class IruTop : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(IruTop, EveryElementReachesExactlyOneThreadOrIsMerged) {
  const auto [filter, ring] = GetParam();
  TopRun r({"log.level=warn", "iru.testbench.elements=6000", "iru.testbench.range=3000",
            "iru.testbench.filter=" + filter, "iru.ring=" + ring, "iru.timeout=300"});
  ASSERT_TRUE(r.top.finished());
  EXPECT_EQ(r.stat("delivered") + r.stat("merged"), 6000);
  EXPECT_EQ(r.stat("disabled_threads"), r.stat("merged"));  // exactly the threads filtering freed
  EXPECT_GT(r.stat("ring_hops"), 0);
  if (filter == "none") EXPECT_EQ(r.stat("merged"), 0);
  else EXPECT_GT(r.stat("merged"), 0);
  // What was delivered, per index, against the input.
  std::map<std::uint32_t, double> sum, min_in, min_out;
  const float one = 1.0f;
  for (const auto& reply : r.top.replies())
    for (const auto& e : reply.elements) {
      sum[e.index] += filter == "add_f32" ? value(e.secondary) : 1.0;
      min_out[e.index] = min_out.count(e.index) ? std::min<double>(min_out[e.index], e.secondary) : e.secondary;
    }
  if (filter == "add_f32") {  // each input element carries 1.0: the sums count the elements
    std::map<std::uint32_t, double> want;
    for (std::uint64_t pos = 0; pos < 6000; ++pos) want[r.top.load32(iru::Testbench::kIndices + 4 * pos)] += one;
    EXPECT_EQ(sum, want);
  }
  if (filter == "min") {  // the smallest value of every index survives
    for (std::uint64_t pos = 0; pos < 6000; ++pos) {
      const std::uint32_t i = r.top.load32(iru::Testbench::kIndices + 4 * pos);
      const double v = r.top.load32(iru::Testbench::kSecondary + 4 * pos);
      min_in[i] = min_in.count(i) ? std::min(min_in[i], v) : v;
    }
    EXPECT_EQ(min_out, min_in);
  }
}

INSTANTIATE_TEST_SUITE_P(Filters, IruTop,
                         ::testing::Combine(::testing::Values("none", "min", "add_f32"),
                                            ::testing::Values("unidirectional", "bidirectional")),
                         [](const auto& info) { return std::get<0>(info.param) + "_" + std::get<1>(info.param); });

TEST(IruTop, ReorderingCoalescesBetterThanTheInputOrder) {
  // 4096 elements over 128 lines: 32 per line on average. In input order a warp's 32 indices touch
  // about 22 lines; reordered, far fewer.
  TopRun r({"log.level=warn", "iru.testbench.elements=4096", "iru.testbench.range=4096"});
  EXPECT_LT(r.stat("lines_per_reply"), 8);
}

TEST(IruTop, AKernelThatAsksForTooFewElementsIsAnError) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  s.indices = {1, 2, 3, 4, 5, 6};
  s.requests = {{0, 4}};  // six elements, four threads
  tb.add<iru::Testbench>("iru_tb", one_partition(), s, 20);
  try {
    tb.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("2 of configure_iru's 6 elements never delivered"), std::string::npos) << e.what();
  }
}

TEST(IruTop, AStarvedRequestEndsTheRunNamingItsPartition) {
  Testbench tb({"log.level=warn"});
  iru::Testbench::Stimulus s;
  s.indices = {1, 2, 3, 4};
  s.requests = {{0, 4}};
  iru::Params p = one_partition();
  p.watchdog = 5000;
  tb.add<iru::Testbench>("iru_tb", p, s, 1000000);  // the data takes too long
  try {
    tb.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("IRU watchdog: partition 0"), std::string::npos) << e.what();
  }
}

TEST(IruTop, BadConfigurationsAreClearErrors) {
  Testbench tb({"log.level=warn", "iru.sets=1000"});  // not a power of two
  EXPECT_THROW(iru::Params::from(tb.sim().config(), 4), Error);
  iru::Testbench::Stimulus s;
  s.indices = {1u << 24};
  s.requests = {{0, 1}};
  auto& top = tb.add<iru::Testbench>("iru_tb", one_partition(), s, 20);
  try {
    tb.run();
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit the IRU's 24-bit index"), std::string::npos) << e.what();
  }
  EXPECT_THROW(top.unit().configure(iru::Setup{}), Error);
}
