// SPDX-License-Identifier: Apache-2.0
// One SM's expansion path (models/dac/expander.h: ATQ -> AEU -> PWAQ): Fig. 3.6's tuples reach
// each warp's queue in program order; full partitions hold the AEU and lose nothing; a full ATQ
// refuses; a tuple off the fast path goes through the lanes; the model and the RTL blocks give
// the same records and the same cycles.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "models/dac/expander.h"
#include "sim/error.h"

namespace irr::dac {
namespace {

AddressTuple tuple(std::uint64_t base, std::int32_t offset, unsigned warps, std::uint32_t first_slot = 0) {
  AddressTuple t;
  t.base = base;
  t.offset = offset;
  t.first_slot = first_slot;
  t.active.assign(warps, ~0u);
  return t;
}

TEST(DacExpander, Fig36TuplesReachEveryWarpInOrder) {
  for (const char* impl : {"model", "rtl"}) {
    SCOPED_TRACE(impl);
    ExpanderConfig c;
    c.impl = impl;
    Expander e(c);
    // Per iteration: enq.data addrA = (A + 0x1000·i, 4), enq.addr addrB = (B + 0x1000·i, 4); 4 warps.
    const std::uint64_t A = 0x80000, B = 0x200000;
    for (int i = 0; i < 2; ++i) {
      ASSERT_TRUE(e.enqueue(tuple(A + 0x1000 * i, 4, 4)));
      ASSERT_TRUE(e.enqueue(tuple(B + 0x1000 * i, 4, 4)));
    }
    for (int k = 0; k < 100 && !e.idle(); ++k) e.cycle();
    ASSERT_TRUE(e.idle());
    EXPECT_EQ(e.stats().records, 16u);  // 4 tuples x 4 warps, one line each
    // Warp 2 dequeues its four records: A, B of iteration 0, then of iteration 1.
    std::vector<LineRecord> got;
    for (int k = 0; k < 5; ++k) {
      e.cycle(k < 4 ? std::optional<std::uint32_t>(2) : std::nullopt);
      if (e.delivered()) got.push_back(*e.delivered());
    }
    ASSERT_EQ(got.size(), 4u);
    EXPECT_EQ(got[0], (LineRecord{A + 256, 0xffffffffu}));
    EXPECT_EQ(got[1], (LineRecord{B + 256, 0xffffffffu}));
    EXPECT_EQ(got[2], (LineRecord{A + 0x1000 + 256, 0xffffffffu}));
    EXPECT_EQ(got[3], (LineRecord{B + 0x1000 + 256, 0xffffffffu}));
    EXPECT_FALSE(e.cycle(2));  // empty now
  }
}

// Barrier gating's scope (dac.gate_scope): CTA 1's two tuples wait at its gate, CTA 2's is open.
// With the ATQ's head holding everything (atq) nothing is expanded until CTA 1's gate opens; with
// cta, CTA 2's tuple goes past (one overtake) and CTA 1's keep their order once the gate opens.
void gate_scope(bool per_cta) {
  ExpanderConfig c;
  c.pwaq = {4, 4};
  c.gate_per_cta = per_cta;
  Expander e(c);
  bool open = false;
  e.set_gate([&](const AddressTuple& t) { return t.cta != 1 || open; });
  auto in = [](std::uint64_t base, std::uint64_t cta, std::uint32_t first_slot) {
    AddressTuple t = tuple(base, 4, 2, first_slot);
    t.cta = cta;
    return t;
  };
  ASSERT_TRUE(e.enqueue(in(0x10000, 1, 0)));
  ASSERT_TRUE(e.enqueue(in(0x20000, 1, 0)));
  ASSERT_TRUE(e.enqueue(in(0x30000, 2, 2)));
  for (int k = 0; k < 50; ++k) e.cycle();
  EXPECT_EQ(e.stats().records, per_cta ? 2u : 0u);  // CTA 2's warps' records, or none
  EXPECT_EQ(e.stats().overtakes, per_cta ? 1u : 0u);
  EXPECT_GT(e.stats().gated, 40u);
  open = true;
  for (int k = 0; k < 50 && !e.idle(); ++k) e.cycle();
  ASSERT_TRUE(e.idle());
  EXPECT_EQ(e.stats().records, 6u);
  // Warp slot 0 (CTA 1's first warp) gets its CTA's tuples in order; slot 2 its one.
  std::vector<LineRecord> got;
  for (std::uint32_t slot : {0u, 0u, 2u}) {
    e.cycle(slot);
    e.cycle();
    if (e.delivered()) got.push_back(*e.delivered());
  }
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].line, 0x10000u);
  EXPECT_EQ(got[1].line, 0x20000u);
  EXPECT_EQ(got[2].line, 0x30000u);
}

TEST(DacExpander, AGatedHeadHoldsTheWholeAtq) { gate_scope(false); }
TEST(DacExpander, AGatedHeadHoldsOnlyItsCtaWithGateScopeCta) { gate_scope(true); }

TEST(DacExpander, BackPressureLosesNothingAndTheAtqRefusesWhenFull) {
  ExpanderConfig c;
  c.atq_entries = 3;
  c.pwaq = {2, 2};  // 2 warps, 2 records each
  Expander e(c);
  EXPECT_TRUE(e.enqueue(tuple(0x1000, 8, 2)));  // 2 lines a warp: fills both partitions
  EXPECT_TRUE(e.enqueue(tuple(0x9000, 4, 2)));
  EXPECT_TRUE(e.enqueue(tuple(0xa000, 12, 2)));  // off the fast path: the lanes
  EXPECT_FALSE(e.enqueue(tuple(0xb000, 4, 2)));
  EXPECT_EQ(e.stats().refused, 1u);
  std::map<std::uint32_t, std::vector<LineRecord>> got;
  std::uint32_t last = 0;  // the warp whose dequeue the next delivered() answers
  for (int k = 0; k < 400; ++k) {
    const auto w = static_cast<std::uint32_t>((k / 3) % 2);
    const bool deq = k > 20 && k % 3 == 0;  // the warps consume slowly
    const bool served = e.cycle(deq ? std::optional<std::uint32_t>(w) : std::nullopt);
    if (e.delivered()) got[last].push_back(*e.delivered());
    if (served) last = w;
  }
  EXPECT_TRUE(e.idle());
  EXPECT_GT(e.stats().held, 0u);
  // Every record of every tuple reached its warp once, in order.
  for (std::uint32_t w = 0; w < 2; ++w) {
    std::vector<LineRecord> want;
    for (const auto& [base, off] : std::vector<std::pair<std::uint64_t, std::int64_t>>{{0x1000, 8}, {0x9000, 4}, {0xa000, 12}})
      for (const auto& r : expand_by_thread(base + 32 * w * off, off, ~0u)) want.push_back(r);
    EXPECT_EQ(got[w], want) << "warp " << w;
  }
  EXPECT_EQ(e.stats().fallback_records, 6u);  // (0xa000, 12): 3 lines a warp
}

// dac.aeu_rate: two records a cycle expand a tuple in half the cycles, and the records and the
// dequeue's timing (delivered the cycle after) are as at one; the RTL island takes only one.
TEST(DacExpander, TwoRecordsACycleHalveTheExpansionAndKeepTheRecords) {
  std::vector<std::uint64_t> busy;
  std::vector<std::vector<LineRecord>> got;
  for (unsigned rate : {1u, 2u}) {
    ExpanderConfig c;
    c.pwaq = {8, 4};
    c.rate = rate;
    Expander e(c);
    ASSERT_TRUE(e.enqueue(tuple(0x10000, 16, 8)));  // 4 lines a warp, 8 warps: 32 records
    std::uint64_t k = 0, most = 0;
    for (; k < 200 && !e.idle(); ++k) {
      e.cycle();
      most = std::max<std::uint64_t>(most, e.pushed().size());
    }
    ASSERT_TRUE(e.idle());
    EXPECT_EQ(e.stats().records, 32u);
    EXPECT_EQ(most, rate);
    busy.push_back(k);
    got.emplace_back();
    for (int i = 0; i < 6; ++i) {  // warp 5 dequeues its four records; each arrives the cycle after
      e.cycle(i < 4 ? std::optional<std::uint32_t>(5) : std::nullopt);
      EXPECT_EQ(e.delivered().has_value(), i >= 1 && i <= 4) << "rate " << rate << ", cycle " << i;
      if (e.delivered()) got.back().push_back(*e.delivered());
    }
  }
  EXPECT_EQ(got[0], expand_by_thread(0x10000 + 32 * 5 * 16, 16, ~0u));
  EXPECT_EQ(got[1], got[0]);
  EXPECT_LE(busy[1], busy[0] / 2 + 2) << busy[0] << " cycles at one record a cycle";
  ExpanderConfig rtl;
  rtl.impl = "rtl";
  rtl.rate = 2;
  EXPECT_THROW(Expander{rtl}, Error);
}

TEST(DacExpander, ModelAndRtlBlocksGiveTheSameRecordsAndCycles) {
  std::mt19937_64 rng(44);
  std::vector<AddressTuple> tuples;
  const std::int32_t offsets[] = {0, 4, 8, 16, 128, 12, 4};
  for (int i = 0; i < 60; ++i) {
    AddressTuple t = tuple((rng() & 0xffffffull) << 2, offsets[rng() % std::size(offsets)], 1 + rng() % 4, rng() % 4);
    for (auto& a : t.active) a = rng() % 2 ? ~0u : static_cast<std::uint32_t>(rng());
    tuples.push_back(t);
  }
  std::vector<std::vector<LineRecord>> delivered(2);
  std::vector<std::uint64_t> cycles(2);
  for (int m = 0; m < 2; ++m) {
    ExpanderConfig c;
    c.impl = m ? "rtl" : "model";
    c.pwaq = {48, 4};
    Expander e(c);
    std::mt19937_64 deqs(9);
    std::size_t next = 0;
    for (int k = 0; k < 20000 && (next < tuples.size() || !e.idle() || k < 100); ++k) {
      if (next < tuples.size() && e.enqueue(tuples[next])) ++next;
      if (e.delivered()) delivered[m].push_back(*e.delivered());
      e.cycle(deqs() % 2 ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(deqs() % 8)) : std::nullopt);
    }
    cycles[m] = e.stats().cycles;
    EXPECT_TRUE(e.idle());
  }
  EXPECT_EQ(delivered[0], delivered[1]);
  EXPECT_EQ(cycles[0], cycles[1]);
  EXPECT_GT(delivered[0].size(), 100u);
}

}  // namespace
}  // namespace irr::dac
