// SPDX-License-Identifier: Apache-2.0
// The HWWL bank and the wlpull / wlpush semantics as the paper defines them
// (../shared/specs/hwwl_iru_dats.md 1.2, 1.4, 1.5, 1.6, and the synthetic vectors of 1.9).
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "models/hwwl/fixed_latency_memory.h"
#include "models/hwwl/hvu.h"
#include "models/hwwl/icrn.h"
#include "models/hwwl/worklist.h"
#include "models/hwwl/wru_plan.h"
#include "sim/error.h"

using namespace irr;
using namespace irr::hwwl;

TEST(HwwlBank, FifoWithCapacityPerPartition) {
  Bank single(32, Mode::single);
  EXPECT_EQ(single.capacity(), 32u);
  Bank dbl(32, Mode::double_buffer);
  EXPECT_EQ(dbl.capacity(), 16u);  // two worklists at half capacity [K L233]
  sim::Cycle c = 0;
  for (std::uint32_t id = 100; id < 132; ++id) single.push(c++, id);
  EXPECT_TRUE(single.push_full());
  for (std::uint32_t id = 100; id < 132; ++id) EXPECT_EQ(single.pull(c++), id);  // oldest first
  EXPECT_TRUE(single.empty());
}

TEST(HwwlBank, DoubleBufferPushesWaitForTheSwap) {
  Bank b(32, Mode::double_buffer);
  sim::Cycle c = 0;
  b.push(c++, 7);
  b.push(c++, 8);
  EXPECT_EQ(b.pullable(), 0u);  // pushes fill the push partition; this kernel's pulls never see them
  EXPECT_EQ(b.push_occupied(), 2u);
  EXPECT_TRUE(b.swap());        // at the kernel end, with the pull partition empty
  EXPECT_EQ(b.pullable(), 2u);
  EXPECT_EQ(b.pull(c++), 7u);
  b.push(c++, 9);
  EXPECT_FALSE(b.swap());       // the pull partition still holds 8: no swap
  EXPECT_EQ(b.pull(c++), 8u);
  EXPECT_TRUE(b.swap());
  EXPECT_EQ(b.pull(c++), 9u);
  Bank s(32, Mode::single);
  s.push(c++, 1);
  EXPECT_EQ(s.pullable(), 1u);  // one worklist: a push is pullable at once
  EXPECT_FALSE(s.swap());
}

TEST(HwwlBank, OnePortPerCycle) {
  Bank b(32, Mode::single);
  b.push(5, 1);
  EXPECT_FALSE(b.port_free(5));
  EXPECT_THROW(b.pull(5), std::logic_error);  // pulls and pushes never in the same cycle [K L233]
  EXPECT_THROW(b.push(5, 2), std::logic_error);
  EXPECT_TRUE(b.port_free(6));
  EXPECT_EQ(b.pull(6), 1u);
}

TEST(HwwlBank, ReservedEntriesAreOccupiedButNotPullable) {
  Bank b(4, Mode::single);
  b.push(0, 1);
  b.reserve(2);  // a refill of two IDs is on its way [K L257]
  EXPECT_EQ(b.occupied(), 3u);
  EXPECT_EQ(b.pullable(), 1u);
  EXPECT_EQ(b.free_pull_entries(), 1u);
  EXPECT_THROW(b.reserve(2), std::logic_error);
  EXPECT_EQ(b.pull(1), 1u);
  EXPECT_FALSE(b.empty());  // reserved entries keep the bank (and its core's empty bit) non-empty
  b.fill_reserved(2, 40);
  b.fill_reserved(3, 41);
  EXPECT_THROW(b.fill_reserved(4, 42), std::logic_error);
  EXPECT_EQ(b.pull(5), 40u);
  EXPECT_EQ(b.pull(6), 41u);
  EXPECT_TRUE(b.empty());
}

TEST(HwwlBank, RedistributionMovesTheNewestAndWorkIdsAre24Bits) {
  Bank b(8, Mode::single);
  b.push(0, 1);
  b.push(1, 2);
  EXPECT_EQ(b.move_out(2), 2u);
  b.move_in(3, 9);
  EXPECT_EQ(b.pull(4), 1u);
  EXPECT_EQ(b.pull(5), 9u);
  EXPECT_NO_THROW(b.push(6, kMaxWorkId));
  EXPECT_THROW(b.push(7, kMaxWorkId + 1), Error);
  EXPECT_THROW(Bank(1, Mode::double_buffer), Error);  // no entry left per partition
  EXPECT_THROW(Bank(33, Mode::double_buffer), Error);  // no two equal partitions
  EXPECT_NO_THROW(Bank(33, Mode::single));
}

// ../shared/specs/hwwl_iru_dats.md 1.9, vectors 1 and 2: one core, two banks, bank 0 = {7}
// (double-buffer mode: the host's push reaches the pull side at the kernel boundary).
TEST(HwwlWorklist, WaitVersusDone) {
  for (const bool redistribution : {true, false}) {
    Worklist wl(1, 2, 32, Mode::double_buffer, redistribution ? Scheme::lsorting : Scheme::none, 5);
    ASSERT_TRUE(wl.push(0, 0, 7, 0));
    wl.kernel_end();
    if (redistribution) {
      EXPECT_EQ(wl.pull(0, 1, 1), kWait);  // more work in the system [K L239]
      EXPECT_EQ(wl.pull(0, 0, 2), 7u);
      EXPECT_EQ(wl.pull(0, 1, 3), kDone);  // every empty bit set, nothing elsewhere
    } else {
      EXPECT_EQ(wl.pull(0, 1, 1), kDone);  // baseline: an empty bank is never refilled [K L233]
      EXPECT_EQ(wl.pull(0, 0, 2), 7u);
    }
  }
}

// Single-buffer mode: a thread holding a work ID may still push into this kernel's worklist, so
// no thread is told DONE until none holds one [K L227]; its next pull or its warp's exit lets go.
TEST(HwwlWorklist, SingleBufferDoneWaitsForTheThreadsHoldingWork) {
  Worklist wl(1, 2, 32, Mode::single, Scheme::lsorting, 5);
  ASSERT_TRUE(wl.push(0, 0, 7, 0));
  EXPECT_EQ(wl.pull(0, 0, 1, 5), 7u);  // thread 5 (lane 0 of warp 0) holds 7
  EXPECT_EQ(wl.holders(), 1u);
  EXPECT_EQ(wl.pull(0, 1, 2, 1), kWait);  // nothing to pull, but 7's thread may push more
  ASSERT_TRUE(wl.push(0, 0, 8, 3));       // and does
  EXPECT_EQ(wl.pull(0, 0, 4, 5), 8u);     // its next pull lets 7 go and takes 8
  EXPECT_EQ(wl.holders(), 1u);
  EXPECT_EQ(wl.pull(0, 1, 5, 1), kWait);
  wl.release_warp(0, 0);                  // thread 5's warp exited holding 8
  EXPECT_EQ(wl.holders(), 0u);
  EXPECT_EQ(wl.pull(0, 1, 6, 1), kDone);
  // A holder in another warp slot is tracked on its own.
  ASSERT_TRUE(wl.push(0, 1, 9, 7));
  EXPECT_EQ(wl.pull(0, 1, 8, 33), 9u);
  wl.release_warp(0, 0);
  EXPECT_EQ(wl.holders(), 1u);
  EXPECT_EQ(wl.pull(0, 0, 9, 0), kWait);
  EXPECT_EQ(wl.pull(0, 1, 10, 33), kDone);
  EXPECT_EQ(wl.holders(), 0u);
}

TEST(HwwlWorklist, WorkElsewhereIsWorkInTheSystem) {
  Worklist wl(2, 16, 32, Mode::single, Scheme::lsorting, 5);
  std::uint64_t in_overflow = 3;
  wl.set_elsewhere([&] { return in_overflow; });
  EXPECT_EQ(wl.pull(1, 4, 0), kWait);  // the overflow buffer still holds work [K L253-L255]
  in_overflow = 0;
  EXPECT_EQ(wl.pull(1, 4, 1), kDone);
  ASSERT_TRUE(wl.push(0, 3, 11, 2));
  EXPECT_FALSE(wl.core_empty(0));
  EXPECT_TRUE(wl.core_empty(1));
  EXPECT_EQ(wl.pull(1, 4, 3), kWait);  // another core's bank has work
}

TEST(HwwlWorklist, FullBankHandsThePushOn) {
  Worklist wl(1, 1, 4, Mode::double_buffer, Scheme::none, 5);
  EXPECT_TRUE(wl.push(0, 0, 1, 0));
  EXPECT_TRUE(wl.push(0, 0, 2, 1));
  EXPECT_FALSE(wl.push(0, 0, 3, 2));  // the push partition (2 entries) is full: the HVU spills it
  EXPECT_EQ(wl.pushed(), 2u);
}

// Seeded random pushes and pulls on 4 cores x 16 banks, every push to core 0, the WRU
// redistributing every 10 cycles: no work ID lost or duplicated, DONE never while work remains.
class HwwlSchemes : public ::testing::TestWithParam<Scheme> {};

TEST_P(HwwlSchemes, RandomTrafficKeepsEveryWorkId) {
  for (const Mode mode : {Mode::single, Mode::double_buffer}) {
    Worklist wl(4, 16, 32, mode, GetParam(), 5);
    std::mt19937 rng(1234);
    std::set<std::uint32_t> out, delivered;
    std::uint32_t next_id = 0;
    for (sim::Cycle c = 0; c < 20000; ++c) {
      const bool push = rng() % 2;
      const std::uint32_t core = push ? 0 : rng() % 4, lane = rng() % 16;
      if (c % 10 == 0) wl.redistribute(c);  // (before this cycle's access: the harness's order)
      wl.deliver(c);
      if (!wl.bank(core, lane).port_free(c)) continue;
      if (push) {
        if (wl.push(core, lane, next_id, c)) out.insert(next_id++);
      } else {
        const std::uint32_t id = wl.pull(core, lane, c);
        if (id == kDone && GetParam() != Scheme::none) {
          for (std::uint32_t k = 0; k < 4; ++k) ASSERT_TRUE(wl.core_empty(k)) << "DONE while core " << k << " has work";
          ASSERT_EQ(wl.icrn().in_flight(), 0u) << "DONE with work on the ICRN";
        }
        if (id == kWait || id == kDone) continue;
        EXPECT_TRUE(out.erase(id)) << "delivered twice or never pushed: " << id;
        delivered.insert(id);
      }
      if (mode == Mode::double_buffer && c % 1000 == 999) wl.kernel_end();
      ASSERT_EQ(wl.pushed(), wl.pulled() + wl.held());
    }
    EXPECT_EQ(out.size(), wl.held());
    EXPECT_GT(delivered.size(), 1000u);
    if (GetParam() != Scheme::none) {
      EXPECT_GT(wl.moved(), 0u);
    }
    if (GetParam() != Scheme::none && GetParam() != Scheme::magic) {
      EXPECT_GT(wl.exported(), 0u);  // core 0 fills, turns globally greedy and exports
    }
  }
}

std::string scheme_name(const ::testing::TestParamInfo<Scheme>& info) {
  static const char* const names[] = {"none", "threshold", "lsorting", "gsorting", "magic"};
  return names[static_cast<int>(info.param)];
}

INSTANTIATE_TEST_SUITE_P(Schemes, HwwlSchemes,
                         ::testing::Values(Scheme::none, Scheme::threshold, Scheme::lsorting, Scheme::gsorting,
                                           Scheme::magic),
                         scheme_name);

TEST(HwwlWorklist, MagicSpreadsEverythingAtOnce) {
  Worklist wl(2, 4, 32, Mode::single, Scheme::magic, 5);
  for (std::uint32_t id = 0; id < 16; ++id) ASSERT_TRUE(wl.push(0, 0, id, id));
  wl.redistribute(100);
  for (std::uint32_t k = 0; k < 2; ++k)
    for (std::uint32_t l = 0; l < 4; ++l) EXPECT_EQ(wl.bank(k, l).pullable(), 2u) << k << "/" << l;
  EXPECT_EQ(wl.held(), 16u);
}

TEST(HwwlWorklist, LocalSortingSpreadsOneBanksWork) {
  Worklist wl(1, 4, 32, Mode::single, Scheme::lsorting, 5);
  for (std::uint32_t id = 0; id < 16; ++id) ASSERT_TRUE(wl.push(0, 0, id, id));
  for (sim::Cycle c = 100; c < 400; c += 10) wl.redistribute(c);  // one ID per bank port per interval
  for (std::uint32_t l = 0; l < 4; ++l) EXPECT_EQ(wl.bank(0, l).occupied(), 4u) << l;
  EXPECT_EQ(wl.held(), 16u);
  // The energy model's WRU comparisons: a sorting network's 4 x log2(4) at each of the 30 points.
  EXPECT_EQ(wl.comparisons(), 30u * 4 * 2);
}

TEST(HwwlWorklist, RedistributionYieldsThePortToAPull) {
  Worklist wl(1, 2, 32, Mode::single, Scheme::lsorting, 5);
  for (std::uint32_t id = 0; id < 4; ++id) ASSERT_TRUE(wl.push(0, 0, id, id));
  EXPECT_EQ(wl.pull(0, 0, 10), 0u);  // the pull has bank 0's port in cycle 10
  wl.redistribute(10);
  EXPECT_EQ(wl.moved(), 0u);
  EXPECT_EQ(wl.skipped(), 1u);
  wl.redistribute(11);
  EXPECT_EQ(wl.moved(), 1u);
  EXPECT_EQ(wl.bank(0, 1).pullable(), 1u);
}

// ../shared/specs/hwwl_iru_dats.md 1.9, vector 3: threshold 5, counts {9, 6, 2, 0}.
TEST(HwwlWru, ThresholdPairsGreedyWithNeedy) {
  const Plan p = plan_threshold({9, 6, 2, 0}, 5);
  EXPECT_EQ(p.moves, (std::vector<Transfer>{{0, 2}, {1, 3}}));
  EXPECT_FALSE(p.global_greedy);  // two greedy, two needy
  EXPECT_FALSE(p.export_bank);
  // A bank at exactly the threshold is neither; round-robin rotates the receivers.
  const Plan q = plan_threshold({5, 8, 1, 0}, 5, 1);
  EXPECT_EQ(q.moves, (std::vector<Transfer>{{1, 3}}));
  // More greedy than needy: the core is globally greedy and an unpaired greedy bank exports.
  const Plan r = plan_threshold({9, 12, 7, 0}, 5);
  EXPECT_EQ(r.moves, (std::vector<Transfer>{{0, 3}}));
  EXPECT_TRUE(r.global_greedy);
  EXPECT_EQ(r.export_bank, 1u);  // the fullest greedy bank not giving inside the core
}

// Vector 4: lsorting, every bank needy: the fuller half gives to the emptier half.
TEST(HwwlWru, LocalSortingHalvesWhenAllAreNeedy) {
  const Plan p = plan_lsorting({4, 3, 1, 0}, 5);
  EXPECT_EQ(p.moves, (std::vector<Transfer>{{0, 3}, {1, 2}}));
  EXPECT_FALSE(p.global_greedy);
  // One needy bank: the fullest gives to it, even though the others are not greedy.
  EXPECT_EQ(plan_lsorting({5, 7, 6, 2}, 5).moves, (std::vector<Transfer>{{1, 3}}));
  // Nothing to gain: a pair one apart does not move.
  EXPECT_TRUE(plan_lsorting({1, 0}, 5).moves.empty());
  EXPECT_TRUE(plan_lsorting({5, 5, 5, 5}, 5).moves.empty());  // nobody needy
  const Plan g = plan_lsorting({9, 9, 9, 0}, 5);
  EXPECT_TRUE(g.global_greedy);
  EXPECT_EQ(g.moves, (std::vector<Transfer>{{2, 3}}));  // stable ranking: the last of equals gives
  EXPECT_EQ(g.export_bank, 0u);
}

TEST(HwwlIcrn, TwoHopsWithoutContention) {
  Icrn net(4, 4);
  ASSERT_TRUE(net.can_send(0, 2, 10));
  net.send(0, 2, 77, 10);
  EXPECT_FALSE(net.can_send(0, 3, 10));  // one injection per core per cycle
  EXPECT_TRUE(net.can_send(0, 3, 11));
  EXPECT_FALSE(net.can_send(1, 1, 10));  // not to itself
  for (sim::Cycle c = 10; c <= 12; ++c) {
    net.step(c);
    EXPECT_EQ(net.peek(2, c).has_value(), c == 12) << c;  // sent at 10, delivered at 12
  }
  EXPECT_EQ(net.in_flight(), 1u);  // still in the network until the core takes it
  net.take(2);
  EXPECT_EQ(net.in_flight(), 0u);
}

TEST(HwwlIcrn, OneIdPerDestinationPerCycleAndHubBackpressure) {
  Icrn net(4, 2);
  net.send(0, 3, 1, 0);
  net.send(1, 3, 2, 0);
  EXPECT_FALSE(net.can_send(2, 3, 0));  // the hub's buffer for core 3 is full
  std::vector<sim::Cycle> arrivals;
  for (sim::Cycle c = 0; c < 6; ++c) {
    net.step(c);
    if (auto id = net.peek(3, c)) {
      arrivals.push_back(c);
      net.take(3);
    }
  }
  EXPECT_EQ(arrivals, (std::vector<sim::Cycle>{2, 3}));  // the second waits a cycle at the hub
  EXPECT_EQ(net.contention_cycles(), 1u);
}

TEST(HwwlWorklist, GreedyCoreSendsWorkToAnIdleCore) {
  Worklist wl(2, 4, 32, Mode::single, Scheme::lsorting, 5);
  for (std::uint32_t l = 0; l < 4; ++l)
    for (std::uint32_t id = 0; id < 8; ++id) ASSERT_TRUE(wl.push(0, l, l * 8 + id, id));
  EXPECT_EQ(wl.pull(1, 0, 20), kWait);  // core 1 is empty, core 0 has work
  wl.redistribute(30);                  // core 0: all four banks greedy -> exports to core 1
  EXPECT_EQ(wl.exported(), 1u);
  EXPECT_EQ(wl.pull(1, 0, 31), kWait);  // on the ICRN: still work in the system
  for (sim::Cycle c = 30; c <= 32; ++c) wl.deliver(c);
  EXPECT_EQ(wl.bank(1, 0).pullable(), 1u);  // two hops later, in core 1's neediest bank
  EXPECT_EQ(wl.held(), 32u);
}

TEST(HwwlWru, GlobalSortingRanksEveryBankTogether) {
  // Core 0 {20, 18, 2, 9}, core 1 {0, 1, 3, 4}: ranked, the fuller half is 20, 18, 9 (core 0) and 4
  // (core 1, but below the threshold: needy). Core 0 pairs 20 -> 2; 18 and 9 are unpaired, so
  // core 0 exports from 18 to core 1, whose four needy banks have no greedy partner.
  const GlobalPlan g = plan_gsorting({{20, 18, 2, 9}, {0, 1, 3, 4}}, 5);
  EXPECT_EQ(g.cores[0].moves, (std::vector<Transfer>{{0, 2}}));
  EXPECT_TRUE(g.cores[0].global_greedy);
  EXPECT_EQ(g.cores[0].export_bank, 1u);
  EXPECT_EQ(g.destination[0], 1u);
  EXPECT_TRUE(g.cores[1].moves.empty());
  EXPECT_FALSE(g.cores[1].global_greedy);
  EXPECT_FALSE(g.destination[1]);
  // Balanced cores: nothing crosses.
  const GlobalPlan b = plan_gsorting({{8, 0}, {8, 0}}, 5);
  EXPECT_EQ(b.cores[0].moves, (std::vector<Transfer>{{0, 1}}));
  EXPECT_FALSE(b.cores[0].export_bank);
  EXPECT_FALSE(b.cores[1].export_bank);
}

namespace {
// One core's banks as the HVU sees them.
std::vector<Bank*> pointers(std::vector<Bank>& banks) {
  std::vector<Bank*> p;
  for (auto& b : banks) p.push_back(&b);
  return p;
}

// One core's HVU over four single-buffer banks of `entries`, IDs 0 to `spilled` - 1 spilled and
// stored to its overflow buffer at 0x2000 (the spill stores complete at cycle 10; c is then 12).
struct StoredSpills {
  FixedLatencyMemory mem{10};
  Hvu hvu{0, 0x2000, 1024, mem, Mode::single};
  std::vector<Bank> storage;
  std::vector<Bank*> banks;
  sim::Cycle c = 0;
  StoredSpills(std::uint32_t entries, std::uint32_t spilled) {
    for (int i = 0; i < 4; ++i) storage.emplace_back(entries, Mode::single);
    banks = pointers(storage);
    for (std::uint32_t id = 0; id < spilled; ++id) hvu.spill(id);
    run_to(12);
  }
  void step(sim::Cycle at) {
    mem.step(at);
    hvu.step(banks, at);
  }
  void run_to(sim::Cycle end) {  // cycles c .. end - 1 stepped; c ends at `end`
    for (; c < end; ++c) step(c);
  }
};
}  // namespace

TEST(HwwlHvu, SpillsCoalesceAWarpsWorthPerStore) {
  FixedLatencyMemory mem(10);
  Hvu hvu(0, 0x1000, 1024, mem, Mode::single);
  std::vector<Bank> storage;
  for (int i = 0; i < 16; ++i) storage.emplace_back(32, Mode::single);
  std::vector<Bank*> banks = pointers(storage);
  for (std::uint32_t id = 0; id < 40; ++id) hvu.spill(id);
  hvu.step(banks, 0);
  hvu.step(banks, 1);
  EXPECT_EQ(hvu.stores(), 2u);  // 32 + 8 [K L255]
  EXPECT_EQ(mem.store_addresses, (std::vector<std::uint64_t>{0x1000, 0x1000 + 32 * 4}));
  EXPECT_EQ(hvu.held(), 40u);   // in flight still counts as work in the system
}

TEST(HwwlHvu, OverflowBufferFullIsTheHardwareException) {
  FixedLatencyMemory mem(10);
  Hvu hvu(3, 0, 4, mem, Mode::single);
  for (std::uint32_t id = 0; id < 4; ++id) hvu.spill(id);
  try {
    hvu.spill(4);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("core 3: its bank and its overflow buffer (4 IDs, set by wlinit) are full"),
              std::string::npos) << e.what();
  }
}

TEST(HwwlHvu, IntervalRefillReservesOneEntryPerBankAndLandsLater) {
  StoredSpills s(2, 6);
  auto& [mem, hvu, storage, banks, c] = s;
  storage[1].push(c, 99);
  storage[1].push(c + 1, 98);  // bank 1 full: no refill [K L257]
  c += 2;
  s.step(c);
  EXPECT_FALSE(hvu.refill_all(banks, 1));
  EXPECT_EQ(hvu.loads(), 0u);
  EXPECT_EQ(storage[1].pull(++c), 99u);
  s.step(++c);
  EXPECT_TRUE(hvu.refill_all(banks, 1));
  EXPECT_EQ(hvu.loads(), 1u);
  for (const Bank& b : storage) EXPECT_EQ(b.reserved(), 1u);  // reserved: occupied, not pullable
  EXPECT_EQ(storage[0].pullable(), 0u);
  const sim::Cycle issued = c++;
  s.run_to(issued + mem.latency() + 2);
  for (const Bank& b : storage) EXPECT_EQ(b.reserved(), 0u);
  EXPECT_EQ(storage[0].pull(c), 0u);  // the oldest spilled IDs, one per bank
  EXPECT_EQ(storage[3].pull(c), 3u);
  EXPECT_EQ(hvu.held(), 2u);          // 4 and 5 still in the overflow buffer
  EXPECT_EQ(mem.load_addresses, (std::vector<std::uint64_t>{0x2000}));
}

// Small banks, so pushes spill and refills come back: still no loss, no duplicate, no early DONE.
TEST(HwwlWorklist, RandomTrafficWithVirtualization) {
  Worklist wl(4, 16, 4, Mode::single, Scheme::lsorting, 5);
  FixedLatencyMemory mem(10);
  wl.init_overflow(0x10000, 1u << 14, mem);
  std::mt19937 rng(99);
  std::set<std::uint32_t> out;
  std::uint32_t next_id = 0;
  std::uint64_t delivered = 0;
  for (sim::Cycle c = 0; c < 60000 && (c < 5000 || !out.empty()); ++c) {
    mem.step(c);
    const bool push = c < 5000 && rng() % 3 != 0;  // fill, then drain
    const std::uint32_t core = push ? 0 : rng() % 4, lane = rng() % 16;
    if (wl.bank(core, lane).port_free(c)) {
      if (push) {
        ASSERT_TRUE(wl.push(core, lane, next_id, c));
        out.insert(next_id++);
      } else {
        const std::uint32_t id = wl.pull(core, lane, c);
        if (id == kDone) {
          ASSERT_TRUE(out.empty()) << "DONE with " << out.size() << " IDs left";
        }
        if (id != kWait && id != kDone) {
          ASSERT_TRUE(out.erase(id)) << id;
          ++delivered;
        }
      }
    }
    if (c % 10 == 0) wl.redistribute(c);
    wl.deliver(c);
    wl.virtualize(c, c % 10 == 5);
    ASSERT_EQ(wl.pushed(), wl.pulled() + wl.held());
  }
  EXPECT_TRUE(out.empty()) << out.size() << " IDs never came back";  // through the overflow buffer too
  EXPECT_EQ(delivered, next_id);
  EXPECT_GT(next_id, 3000u);
  EXPECT_GT(wl.spill_stores(), 10u);
  EXPECT_GT(wl.refill_loads(), 10u);
}

namespace {
// Steps a worklist's background work for `cycles` cycles from `c` (memory first, as the unit does).
sim::Cycle run_background(Worklist& wl, FixedLatencyMemory& mem, sim::Cycle c, sim::Cycle cycles, bool refill = true) {
  for (const sim::Cycle end = c + cycles; c < end; ++c) {
    mem.step(c);
    wl.deliver(c);
    wl.virtualize(c, refill);
  }
  return c;
}
}  // namespace

// Double-buffer mode: a spilled push belongs to the next kernel. It is not refilled into this
// kernel's pull side, does not hold DONE back, and comes back after the swap.
TEST(HwwlWorklist, DoubleBufferSpillsWaitForTheNextKernel) {
  Worklist wl(1, 1, 4, Mode::double_buffer, Scheme::lsorting, 5);
  FixedLatencyMemory mem(10);
  wl.init_overflow(0x1000, 64, mem);
  sim::Cycle c = 0;
  for (std::uint32_t id = 1; id <= 6; ++id) ASSERT_TRUE(wl.push(0, 0, id, c++));  // 2 in the bank, 4 spilled
  c = run_background(wl, mem, c, 40);
  EXPECT_EQ(wl.hvu(0).stored(), 4u);
  EXPECT_EQ(wl.hvu(0).loads(), 0u);     // refill points passed: nothing of this kernel's pushes refilled
  EXPECT_EQ(wl.pull(0, 0, c++), kDone);  // the pull side is drained: the kernel may end
  wl.kernel_end();
  std::vector<std::uint32_t> got;
  for (int i = 0; i < 200 && got.size() < 6; ++i) {
    const std::uint32_t id = wl.pull(0, 0, c);
    if (id != kWait) {
      ASSERT_NE(id, kDone) << "DONE with " << 6 - got.size() << " IDs left";
      got.push_back(id);
    }
    c = run_background(wl, mem, c, 1);
  }
  EXPECT_EQ(got, (std::vector<std::uint32_t>{1, 2, 3, 4, 5, 6}));  // bank first, then the overflow FIFO
  EXPECT_GE(wl.hvu(0).loads(), 4u);  // one bank: one ID per load
  EXPECT_EQ(wl.pull(0, 0, c), kDone);
  wl.check(c);
}

// On-demand refill [K L257]: a pull from an empty bank starts a load and waits for it (kRefill);
// the pull after it lands gets the ID.
TEST(HwwlWorklist, OnDemandRefillMakesThePullWait) {
  Worklist wl(1, 2, 4, Mode::single, Scheme::none, 5);
  FixedLatencyMemory mem(10);
  wl.init_overflow(0x1000, 64, mem, {Refill::on_demand, 2});
  sim::Cycle c = 0;
  for (std::uint32_t id = 1; id <= 6; ++id) ASSERT_TRUE(wl.push(0, 0, id, c++));  // 4 in bank 0, 2 spilled
  c = run_background(wl, mem, c, 20, false);
  ASSERT_EQ(wl.hvu(0).stored(), 2u);
  EXPECT_EQ(wl.hvu(0).loads(), 0u);  // nothing refills until a pull asks
  EXPECT_EQ(wl.pull(0, 1, c), kRefill);
  EXPECT_EQ(wl.hvu(0).loads(), 1u);  // one ID into each bank with a free entry: bank 1 only (bank 0 is full)
  EXPECT_EQ(wl.bank(0, 1).reserved(), 1u);
  EXPECT_EQ(wl.pull(0, 1, c + 1), kRefill);  // still on its way: no second load
  EXPECT_EQ(wl.hvu(0).loads(), 1u);
  c = run_background(wl, mem, c + 1, 12, false);
  EXPECT_EQ(wl.pull(0, 1, c), 5u);
  wl.check(c);
}

// Single-buffer termination: a bank that answered DONE is retired until a push or a kernel end;
// redistribution and ICRN deliveries pass it by, so no ID is stranded where no thread pulls.
TEST(HwwlWorklist, RetiredBanksReceiveNothing) {
  Worklist wl(1, 2, 32, Mode::single, Scheme::lsorting, 5);
  sim::Cycle c = 0;
  EXPECT_EQ(wl.pull(0, 1, c++), kDone);
  EXPECT_TRUE(wl.bank(0, 1).retired());
  for (std::uint32_t id = 0; id < 8; ++id) ASSERT_TRUE(wl.push(0, 0, id, c++));
  wl.redistribute(c++);
  EXPECT_EQ(wl.bank(0, 1).occupied(), 0u);
  EXPECT_EQ(wl.moved(), 0u);
  ASSERT_TRUE(wl.push(0, 1, 100, c++));  // a live thread on lane 1
  EXPECT_FALSE(wl.bank(0, 1).retired());
  wl.redistribute(c++);
  EXPECT_EQ(wl.moved(), 1u);
  EXPECT_EQ(wl.bank(0, 1).occupied(), 2u);
}

// The invariant check counts and hashes every held ID independently of the worklist's own books.
TEST(HwwlWorklist, InvariantCheckCatchesLostAndDuplicatedIds) {
  {
    Worklist wl(1, 2, 32, Mode::single, Scheme::lsorting, 5);
    ASSERT_TRUE(wl.push(0, 0, 7, 0));
    EXPECT_NO_THROW(wl.check(1));
    wl.bank(0, 1).place(7);  // a duplicate appears
    EXPECT_THROW(wl.check(2), Error);
  }
  Worklist wl(1, 2, 32, Mode::single, Scheme::lsorting, 5);
  ASSERT_TRUE(wl.push(0, 0, 7, 0));
  std::vector<std::uint32_t> drained;
  wl.bank(0, 0).drain_into(drained);  // 7 lost ...
  wl.bank(0, 0).place(8);             // ... and 8 made up: the counts agree
  try {
    wl.check(3);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("one lost and one duplicated"), std::string::npos) << e.what();
  }
}

// On-demand redistribution [K L241]: the pull that finds its bank empty is answered WAIT and, in
// the same cycle, through the second port, gets one ID from the core's fullest bank; when the whole
// core is empty, a globally greedy core sends one over the ICRN.
TEST(HwwlWorklist, OnDemandRedistributionServesTheEmptyBank) {
  Worklist wl(2, 4, 32, Mode::single, Scheme::lsorting, 1);
  wl.set_on_demand(true);
  sim::Cycle c = 0;
  for (std::uint32_t id = 0; id < 6; ++id) ASSERT_TRUE(wl.push(0, 2, id, c++));
  // Each push that left bank 2 greedy (> 1) handed one ID to the emptiest needy bank.
  EXPECT_GT(wl.moved(), 0u);
  const std::uint64_t moved = wl.moved();
  for (std::uint32_t l = 0; l < 4; ++l)
    while (wl.bank(0, l).pullable() > 0 && l != 2) ASSERT_LT(wl.pull(0, l, c++), kRefill);
  ASSERT_EQ(wl.bank(0, 0).pullable(), 0u);
  ASSERT_GE(wl.bank(0, 2).pullable(), 2u);
  EXPECT_EQ(wl.pull(0, 0, c), kWait);
  EXPECT_EQ(wl.moved(), moved + 1);
  EXPECT_EQ(wl.bank(0, 0).pullable(), 1u);  // landed in the same cycle: the next pull gets it
  EXPECT_LT(wl.pull(0, 0, c + 1), kRefill);
  // Core 1 is empty; core 0's two banks hold four IDs each, above the threshold: globally greedy.
  Worklist gl(2, 2, 32, Mode::single, Scheme::lsorting, 1);
  gl.set_on_demand(true);
  c = 0;
  for (std::uint32_t id = 0; id < 8; ++id) ASSERT_TRUE(gl.push(0, id % 2, id, c++));
  const std::uint64_t compared = gl.comparisons();
  EXPECT_EQ(gl.pull(1, 0, c), kWait);
  // The empty core's pull scanned its own 2 lanes, every core's 2 x 2, and the donor core's 2.
  EXPECT_EQ(gl.comparisons(), compared + 2 + 4 + 2);
  EXPECT_EQ(gl.exported(), 1u);
  for (sim::Cycle d = c; d < c + 3; ++d) gl.deliver(d);
  EXPECT_EQ(gl.bank(1, 0).pullable() + gl.bank(1, 1).pullable(), 1u);  // two hops later
  gl.check(c + 3);
}

// A warp on a 16-lane core: thread t uses bank t % 16 in pass t / 16, so 32 threads take two
// cycles and book each bank's port for both; another warp's access waits for the ports.
TEST(HwwlWorklist, WarpAccessTakesTwoPassesOnSixteenLanes) {
  Worklist wl(1, 16, 32, Mode::single, Scheme::lsorting, 5);
  std::uint32_t ids[32];
  for (std::uint32_t t = 0; t < 32; ++t) ids[t] = 100 + t;
  EXPECT_EQ(wl.passes(0xffffffffu), 2u);
  EXPECT_EQ(wl.passes(0x0000ffffu), 1u);
  ASSERT_TRUE(wl.warp_ports_free(0, 0xffffffffu, 10));
  EXPECT_EQ(wl.warp_push(0, 0xffffffffu, ids, 10), 0u);
  for (std::uint32_t l = 0; l < 16; ++l) EXPECT_EQ(wl.bank(0, l).pullable(), 2u) << l;
  EXPECT_FALSE(wl.bank(0, 3).port_free(10));  // pass 0
  EXPECT_FALSE(wl.bank(0, 3).port_free(11));  // pass 1, booked ahead
  EXPECT_FALSE(wl.warp_ports_free(0, 0x1u, 10));
  EXPECT_FALSE(wl.warp_ports_free(0, 0x1u, 11));
  EXPECT_TRUE(wl.warp_ports_free(0, 0xffffffffu, 12));
  std::uint32_t got[32];
  wl.warp_pull(0, 0, 0xffffffffu, 12, got);
  for (std::uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got[t], 100 + t) << t;  // each bank's oldest first
  // An 8-lane core takes four passes; a wider one, one.
  EXPECT_EQ(Worklist(1, 8, 32, Mode::single, Scheme::none, 5).passes(0xffffffffu), 4u);
  EXPECT_EQ(Worklist(1, 32, 32, Mode::single, Scheme::none, 5).passes(0xffffffffu), 1u);
}

// wlinit in the GPU gives each core's HVU its own memory port (its SM's LD/ST path) and its own
// slice of the overflow buffer.
TEST(HwwlWorklist, EachCoreSpillsThroughItsOwnPort) {
  Worklist wl(2, 1, 2, Mode::single, Scheme::none, 5);
  FixedLatencyMemory m0(5), m1(5);
  wl.init_overflow(0x1000, 64, [&](std::uint32_t core) -> MemoryPort& { return core ? m1 : m0; });
  for (std::uint32_t id = 0; id < 3; ++id) {
    ASSERT_TRUE(wl.push(0, 0, id, id));
    ASSERT_TRUE(wl.push(1, 0, 10 + id, id));
  }
  wl.virtualize(3, false);
  EXPECT_EQ(m0.store_addresses, (std::vector<std::uint64_t>{0x1000}));
  EXPECT_EQ(m1.store_addresses, (std::vector<std::uint64_t>{0x1000 + 64 * 4}));
}

// A warp's worth per refill load (hwwl.refill_per_bank 2 on 4 banks): each bank needs two free
// entries, the load carries 8 IDs, and IDs too few for every target spread a round at a time.
TEST(HwwlHvu, RefillPerBankLoadsSeveralIdsIntoEachBank) {
  StoredSpills s(4, 14);
  auto& [mem, hvu, storage, banks, c] = s;
  for (std::uint32_t i = 0; i < 3; ++i) storage[2].push(c++, 90 + i);  // bank 2: one free entry
  EXPECT_FALSE(hvu.refill_all(banks, 4, 2));
  EXPECT_TRUE(hvu.refill_all(banks, 4, 1));  // one each still goes
  EXPECT_EQ(storage[2].pull(c++), 90u);  // one free (one reserved)
  EXPECT_FALSE(hvu.refill_all(banks, 4, 2));
  EXPECT_EQ(storage[2].pull(c++), 91u);
  EXPECT_TRUE(hvu.refill_all(banks, 4, 2));  // 8 IDs: 4..11, two a bank
  for (const Bank& b : storage) EXPECT_EQ(b.reserved(), 3u);
  EXPECT_TRUE(hvu.refill_free(banks, 4, 2));  // 12 and 13 left: a round, banks 0 and 1
  EXPECT_EQ(storage[0].reserved(), 4u);
  EXPECT_EQ(storage[1].reserved(), 4u);
  EXPECT_EQ(storage[2].reserved(), 3u);
  EXPECT_EQ(hvu.loads(), 3u);
  s.run_to(c + 12);
  for (const Bank& b : storage) EXPECT_EQ(b.reserved(), 0u);
  EXPECT_EQ(storage[0].pull(c), 0u);  // first load: one each
  EXPECT_EQ(storage[0].pull(c + 1), 4u);
  EXPECT_EQ(storage[0].pull(c + 2), 8u);  // second load's second round
  EXPECT_EQ(storage[0].pull(c + 3), 12u);
  EXPECT_EQ(storage[3].pull(c), 3u);
  EXPECT_EQ(storage[3].pull(c + 1), 7u);
  EXPECT_EQ(storage[3].pull(c + 2), 11u);
  EXPECT_EQ(storage[3].pullable(), 0u);
  EXPECT_EQ(storage[2].pull(c), 92u);  // pushed before the loads
  EXPECT_EQ(storage[2].pull(c + 1), 2u);
  EXPECT_EQ(storage[2].pull(c + 2), 6u);
  EXPECT_EQ(storage[2].pull(c + 3), 10u);
}

// More IDs a bank than a partition holds: an interval refill could never fire, so wlinit says so.
TEST(HwwlWorklist, RefillPerBankBeyondAPartitionIsAConfigError) {
  Worklist wl(1, 4, 4, Mode::double_buffer, Scheme::lsorting, 5);  // 2 entries a partition
  FixedLatencyMemory mem(10);
  RefillPolicy policy;
  policy.per_bank = 3;
  try {
    wl.init_overflow(0x1000, 64, mem, policy);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hwwl.refill_per_bank: 3 IDs a bank, but a bank partition holds 2"), std::string::npos)
        << e.what();
  }
  policy.per_bank = 2;
  wl.init_overflow(0x1000, 64, mem, policy);
  EXPECT_TRUE(wl.virtualized());
}

// The limit study's idealised HWWL [K L281-L288]: one list for every core, no ports, DONE when it
// is empty; FIFO, or the smallest ID first.
TEST(HwwlWorklist, IdealListIsOneUnboundedListForEveryCore) {
  for (const Ideal order : {Ideal::fifo, Ideal::sorted}) {
    Worklist wl(2, 2, 2, Mode::double_buffer, Scheme::none, 5);
    wl.set_ideal(order);
    FixedLatencyMemory mem(10);
    wl.init_overflow(0x1000, 4, mem);  // infinite capacity: nothing spills, no HVU
    EXPECT_FALSE(wl.virtualized());
    for (const std::uint32_t id : {9u, 3u, 7u, 1u, 5u}) ASSERT_TRUE(wl.push(0, 0, id, 0));  // far past a bank's 1 entry
    EXPECT_TRUE(wl.warp_ports_free(0, ~0u, 0));
    EXPECT_EQ(wl.passes(~0u), 1u);
    EXPECT_EQ(wl.pull(1, 1, 0), kDone);  // double buffer: the pushes are the next kernel's
    wl.kernel_end();
    EXPECT_EQ(wl.held(), 5u);
    std::vector<std::uint32_t> got;
    for (std::uint32_t i = 0; i < 5; ++i) got.push_back(wl.pull(i % 2, 1, 1, i));  // any core, any lane, one cycle
    EXPECT_EQ(got, order == Ideal::fifo ? (std::vector<std::uint32_t>{9, 3, 7, 1, 5})
                                        : (std::vector<std::uint32_t>{1, 3, 5, 7, 9}));
    ASSERT_TRUE(wl.push(1, 0, 2, 2));
    EXPECT_EQ(wl.pull(0, 0, 3), kDone);
    wl.check(3);
    EXPECT_EQ(wl.moved() + wl.exported() + wl.spilled(), 0u);
  }
}

TEST(HwwlWorklist, IdealSingleBufferSortsBeforeEveryPullAndWaitsForHolders) {
  Worklist wl(1, 4, 32, Mode::single, Scheme::lsorting, 5);
  wl.set_ideal(Ideal::sorted);
  ASSERT_TRUE(wl.push(0, 0, 8, 0));
  ASSERT_TRUE(wl.push(0, 1, 6, 0));
  EXPECT_EQ(wl.pull(0, 2, 1, 0), 6u);
  ASSERT_TRUE(wl.push(0, 3, 2, 2));  // pushed after: still pulled before 8
  EXPECT_EQ(wl.pull(0, 3, 3, 1), 2u);
  EXPECT_EQ(wl.pull(0, 0, 4, 2), 8u);
  EXPECT_EQ(wl.pull(0, 1, 5, 3), kWait);  // threads 0-2 hold work and may push more
  wl.release_warp(0, 0);
  EXPECT_EQ(wl.pull(0, 1, 6, 3), kDone);
  EXPECT_THROW(wl.push(0, 0, kMaxWorkId + 1, 7), Error);
}

// hwwl.on_demand_targets: pulled — a pull to an empty bank refills that bank only, and the
// requests of one cycle go out as one load (up to a warp's worth) when the HVU steps.
TEST(HwwlWorklist, OnDemandPulledRefillsOnlyThePulledBanksInOneLoad) {
  Worklist wl(1, 4, 4, Mode::single, Scheme::none, 5);
  FixedLatencyMemory mem(10);
  RefillPolicy policy{Refill::on_demand, 2};
  policy.pulled_only = true;
  wl.init_overflow(0x1000, 64, mem, policy);
  sim::Cycle c = 0;
  for (std::uint32_t id = 1; id <= 7; ++id) ASSERT_TRUE(wl.push(0, 0, id, c++));  // 4 in bank 0, 3 spilled
  c = run_background(wl, mem, c, 20, false);
  ASSERT_EQ(wl.hvu(0).stored(), 3u);
  EXPECT_EQ(wl.pull(0, 1, c), kRefill);
  EXPECT_EQ(wl.pull(0, 3, c), kRefill);
  EXPECT_EQ(wl.bank(0, 1).reserved(), 1u);
  EXPECT_EQ(wl.bank(0, 2).reserved(), 0u);  // empty, but not pulled
  EXPECT_EQ(wl.bank(0, 3).reserved(), 1u);
  EXPECT_EQ(wl.hvu(0).loads(), 0u);  // set aside, not yet issued
  wl.check(c);                       // the set-aside IDs still count as held
  c = run_background(wl, mem, c, 14, false);
  EXPECT_EQ(wl.hvu(0).loads(), 1u);  // both in one load
  EXPECT_EQ(wl.pull(0, 1, c), 5u);
  EXPECT_EQ(wl.pull(0, 3, c), 6u);
  EXPECT_EQ(wl.hvu(0).stored(), 1u);
  wl.check(c);
}
