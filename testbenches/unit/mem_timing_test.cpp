// SPDX-License-Identifier: Apache-2.0
// Memory system timing, exact: each expected latency is computed here from the configured
// latencies and the hand-off rule of docs/memory.md (a request crossing from one component to
// the next is taken at the receiver's next clock edge: one cycle per hop), never read off the
// model. All clocks run at 1 GHz so that cycles of every domain coincide.
#include <gtest/gtest.h>

#include "models/mem/dram.h"
#include "models/mem/memory_system.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::testing::TempDir;
using irr::testing::Testbench;

namespace {

constexpr unsigned Ll = 3, Li = 5, L2 = 7, Ld = 50, La = 9;  // l1, interconnect, l2, dram, atomic
constexpr unsigned kReplyFlits = 5;                            // 128 B of data in 32 B flits + header

// Hops of a request: generator -> L1 input (2: queued, then taken), L1 -> interconnect,
// interconnect -> partition, partition -> DRAM, DRAM -> partition, partition -> interconnect,
// interconnect -> L1: one cycle each.
constexpr unsigned kL1Hit = 2 + Ll;
constexpr unsigned kL2Hit = 2 + Ll + 1 + Li + 1 + L2 + 1 + (kReplyFlits - 1) + Li + 1;
constexpr unsigned dram_miss(unsigned dram) { return kL2Hit + 1 + dram + 1; }
constexpr unsigned kStoreFlits = 2;  // header + one 32 B sector
constexpr unsigned kStoreAck = 2 + Ll + 1 + (kStoreFlits - 1) + Li + 1 + L2 + 1 + Li + 1;

struct Outcome {
  std::vector<std::pair<sim::Cycle, sim::Cycle>> history;
  double mshr_merges, reservation_fails, atomic_stalls, row_hits, row_misses, row_conflicts, l2_hits, reply_flits, request_flits;
  double port_waits = -1;  // l1.port_waits, where the port is not one access a cycle
};

// `regions`: the allocations the runtime would give the caches' policies at a launch.
Outcome run(const std::string& trace, std::vector<std::string> sets, const std::vector<mem::Region>& regions = {}) {
  TempDir d;
  std::vector<std::string> base = {
      "gpu.num_sms=1", "l2.partitions=1", "clocks.core=1GHz", "clocks.interconnect=1GHz", "clocks.l2=1GHz",
      "clocks.dram=1GHz", "l1.latency=" + std::to_string(Ll), "interconnect.latency=" + std::to_string(Li),
      "l2.latency=" + std::to_string(L2), "atomic.latency=" + std::to_string(La), "dram.model=fixed",
      "dram.latency=" + std::to_string(Ld), "l2.size=64KiB", "traffic.pattern=trace", "traffic.trace=" + d.write("t.trace", trace),
      "traffic.warps=2", "log.level=warn"};
  base.insert(base.end(), sets.begin(), sets.end());
  Testbench tb(base, "gtx480");
  auto& m = tb.add<mem::MemorySystem>("memory");
  if (!regions.empty()) m.l1(0).policies().allocated(regions);
  tb.run();
  const sim::Stat* waits = tb.sim().stats().find("memory.sm0_l1.port_waits");
  return {m.generator(0).history(), tb.stat("memory.sm0_l1.mshr_merges"), tb.stat("memory.sm0_l1.reservation_fails"),
          tb.stat("memory.partition0.atomic.serialisation_stalls"), tb.stat("memory.partition0.dram.row_hits"),
          tb.stat("memory.partition0.dram.row_misses"), tb.stat("memory.partition0.dram.row_conflicts"),
          tb.stat("memory.partition0.l2.hits"), tb.stat("memory.interconnect.reply.flits"),
          tb.stat("memory.interconnect.request.flits"), waits ? waits->value() : -1};
}

// One thread of warp w at `addr`.
std::string one(unsigned w, const char* op, unsigned long addr) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "0 %u 100 %s 4 %lx\n", w, op, addr);
  return buf;
}

}  // namespace

TEST(MemTiming, L1HitAfterAMissToDram) {
  Outcome r = run(one(0, "ld", 0x1000) + one(0, "ld", 0x1004), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].second, dram_miss(Ld));
  EXPECT_EQ(r.history[1].second, kL1Hit);
}

TEST(MemTiming, L1MissHittingL2) {
  // The store installs the line in the write-back L2 and evicts it from the write-evict L1.
  Outcome r = run(one(0, "st", 0x1000) + one(0, "ld", 0x1000), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].second, kStoreAck);
  EXPECT_EQ(r.history[1].second, kL2Hit);
}

TEST(MemTiming, DramRowMissRowHitRowConflict) {
  constexpr unsigned tRCD = 10, tCL = 6, tRP = 8, burst = 128 / (8 * 4);
  // Same 2 KiB row, then the same bank's next row (16 banks of 2 KiB rows further on).
  Outcome r = run(one(0, "ld", 0x0) + one(0, "ld", 0x80) + one(0, "ld", 0x8000),
              {"dram.model=detailed", "dram.tRCD=10", "dram.tCL=6", "dram.tRP=8", "dram.tRAS=20", "dram.bus_width=8B",
               "dram.data_rate=4", "dram.banks=16", "dram.row_size=2KiB", "dram.controller_latency=0"});
  ASSERT_EQ(r.history.size(), 3u);
  EXPECT_EQ(r.history[0].second, dram_miss(tRCD + tCL + burst));
  EXPECT_EQ(r.history[1].second, dram_miss(tCL + burst));
  EXPECT_EQ(r.history[2].second, dram_miss(tRP + tRCD + tCL + burst));
  EXPECT_EQ(r.row_misses, 1);
  EXPECT_EQ(r.row_hits, 1);
  EXPECT_EQ(r.row_conflicts, 1);
}

// A row, another row of the same bank, the first row again, all waiting at once (one load a
// warp). FR-FCFS serves the third (a row hit) before the second; FCFS strictly in order, the
// second closing the row the third wants (FCFS once kept that row open for the third, which
// waited behind the second: a deadlock).
namespace {
Outcome same_bank_rows(const char* scheduler) {
  return run(one(0, "ld", 0x0) + one(1, "ld", 0x8000) + one(2, "ld", 0x80),
             {"traffic.warps=3", "dram.model=detailed", "dram.tRCD=10", "dram.tCL=6", "dram.tRP=8", "dram.tRAS=20",
              "dram.bus_width=8B", "dram.data_rate=4", "dram.banks=16", "dram.row_size=2KiB",
              "dram.controller_latency=0", std::string("dram.scheduler=") + scheduler});
}
sim::Cycle done(const Outcome& r, std::size_t i) { return r.history[i].first + r.history[i].second; }
}  // namespace

TEST(MemTiming, DramFrFcfsServesARowHitBeforeAnOlderConflict) {
  const Outcome r = same_bank_rows("fr_fcfs");
  ASSERT_EQ(r.history.size(), 3u);
  EXPECT_EQ(r.row_misses, 1);
  EXPECT_EQ(r.row_hits, 1);
  EXPECT_EQ(r.row_conflicts, 1);
  EXPECT_LT(done(r, 2), done(r, 1));
}

TEST(MemTiming, DramFcfsServesStrictlyInOrder) {
  const Outcome r = same_bank_rows("fcfs");
  ASSERT_EQ(r.history.size(), 3u);
  EXPECT_EQ(r.row_misses, 1);
  EXPECT_EQ(r.row_hits, 0);
  EXPECT_EQ(r.row_conflicts, 2);
  EXPECT_LT(done(r, 1), done(r, 2));
}

TEST(MemTiming, MshrMergeCompletesBothWithOneFill) {
  // Warp 1 issues a cycle later and reaches the L1 two cycles after warp 0 (the L1 takes one
  // access per cycle and its input frees only after the cycle it was read).
  Outcome r = run(one(0, "ld", 0x1000) + one(1, "ld", 0x1008), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].second, dram_miss(Ld));
  EXPECT_EQ(r.history[1].first, r.history[0].first + 1);
  EXPECT_EQ(r.history[1].second, dram_miss(Ld) - 1);
  EXPECT_EQ(r.mshr_merges, 1);
}

TEST(MemTiming, ReservationStallWaitsForTheMshr) {
  const unsigned M = dram_miss(Ld);
  Outcome r = run(one(0, "ld", 0x1000) + one(1, "ld", 0x2000), {"l1.mshrs=1"});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].second, M);
  // Reaches the L1 at issue + 3, waits until the fill frees the MSHR at M after warp 0's issue,
  // then takes the miss path from the L1 on (M - 2 cycles).
  EXPECT_EQ(r.history[1].second, 2 * M - 3);
  EXPECT_EQ(r.reservation_fails, M - 4);
}

// Two atomic requests of one instruction: the second reaches the atomic unit two cycles after the
// first (its 2-flit packet follows on the link); to another address it starts then, to the same
// one only when the first is done.
std::string two_atomics(unsigned long a, unsigned long b) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "0 0 200 atom 4 %lx %lx\n", a, b);
  return one(0, "st", 0x1000) + buf;  // the store brings the line into L2 first
}
constexpr unsigned kAtomicsBase = Ll + 2 * Li + L2 + 8;

TEST(MemTiming, AtomicsToDifferentAddressesOverlap) {
  Outcome r = run(two_atomics(0x1000, 0x1004), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, kAtomicsBase + La + 2);
  EXPECT_EQ(r.atomic_stalls, 0);
}

TEST(MemTiming, AtomicsToOneAddressSerialise) {
  Outcome r = run(two_atomics(0x1000, 0x1000), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, kAtomicsBase + 2 * La);
  EXPECT_EQ(r.atomic_stalls, La - 2);
}

// Sector caches (l1.granularity / l2.granularity sector): a miss fetches only its 32 B sector,
// so the reply is 2 flits (header and one sector) instead of 5, and every hop is as before.
constexpr unsigned kSectorL2Hit = kL2Hit - (kReplyFlits - 2);
unsigned sector_dram_miss(unsigned dram) { return kSectorL2Hit + 1 + dram + 1; }

TEST(MemTiming, SectorMissFetchesOneSector) {
  // Then another sector of the line: a sector miss in the L1, which the line-grained L2 has whole.
  Outcome r = run(one(0, "ld", 0x1000) + one(0, "ld", 0x1004) + one(0, "ld", 0x1020), {"l1.granularity=sector"});
  ASSERT_EQ(r.history.size(), 3u);
  EXPECT_EQ(r.history[0].second, sector_dram_miss(Ld));
  EXPECT_EQ(r.history[1].second, kL1Hit);
  EXPECT_EQ(r.history[2].second, kSectorL2Hit);
  EXPECT_EQ(r.l2_hits, 1);
  EXPECT_EQ(r.reply_flits, 4);
}

TEST(MemTiming, SectorL2FetchesOneSectorFromDram) {
  // A sector L2 misses on the second sector too: DRAM again (the fixed model times any size alike).
  Outcome r = run(one(0, "ld", 0x1000) + one(0, "ld", 0x1020), {"l1.granularity=sector", "l2.granularity=sector"});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, sector_dram_miss(Ld));
  EXPECT_EQ(r.l2_hits, 0);
}

TEST(MemTiming, SectorMissWidensTheLineInFlight) {
  // Warp 1 wants another sector of the line warp 0's miss is fetching: it merges and sends a fetch
  // of its own sector; each load completes when its own sector is back.
  Outcome r = run(one(0, "ld", 0x1000) + one(1, "ld", 0x1020), {"l1.granularity=sector"});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.mshr_merges, 1);
  EXPECT_EQ(r.reply_flits, 4);
  EXPECT_EQ(r.history[0].second, sector_dram_miss(Ld));
  // Its fetch leaves two cycles after warp 0's (the L1 takes one access a cycle, its input frees
  // a cycle later), and is then timed as warp 0's.
  EXPECT_EQ(r.history[1].first + r.history[1].second, r.history[0].first + r.history[0].second + 2);
}

// A bypassed fill answers its load and installs nothing: OBM with every counter at its threshold
// bypasses each fill that has a victim. Four lines fill the L1's set 0 (4 ways of 32 sets), the
// fifth has a victim and is bypassed, so loading it again misses — the L2 has it — while a line
// that was installed still hits.
TEST(MemTiming, UncachedLoadsReadTheL2AndAllocateNothingInTheL1) {
  // ld.cg (as ld.volatile, ld.relaxed.gpu): past a cached copy to the L2, fetching only its
  // sector; its own line stays out of the L1, so the next ordinary load of it misses there too.
  Outcome r = run(one(0, "ld", 0x1000) + one(0, "ld.cg", 0x1004) + one(0, "ld", 0x1008) + one(0, "ld.cg", 0x2000) +
                      one(0, "ld", 0x2000) + one(0, "ld", 0x2004),
                  {});
  ASSERT_EQ(r.history.size(), 6u);
  EXPECT_EQ(r.history[0].second, dram_miss(Ld));
  EXPECT_EQ(r.history[1].second, kSectorL2Hit);  // not the L1's copy
  EXPECT_EQ(r.history[2].second, kL1Hit);  // the copy is still there
  EXPECT_EQ(r.history[3].second, sector_dram_miss(Ld));
  EXPECT_EQ(r.history[4].second, kL2Hit);  // not installed in the L1 (the L2 has the whole line)
  EXPECT_EQ(r.history[5].second, kL1Hit);
}

// Exclusion doubles what a set holds: with a one-way L1 and L2 of the same sets, A and B conflict
// in both. Non-inclusive, B's fill evicts A from both levels; exclusive, A went back to the L2
// when B evicted it from the L1, and so on.
const std::string kAbab = one(0, "ld", 0x0) + one(0, "ld", 0x400) + one(0, "ld", 0x0) + one(0, "ld", 0x400);
const std::vector<std::string> kOneWay = {"l1.size=1KiB", "l1.ways=1", "l2.size=1KiB", "l2.ways=1"};

TEST(MemTiming, NonInclusiveL2LosesWhatTheL1Evicted) {
  Outcome r = run(kAbab, kOneWay);
  ASSERT_EQ(r.history.size(), 4u);
  for (const auto& h : r.history) EXPECT_EQ(h.second, dram_miss(Ld));
  EXPECT_EQ(r.request_flits, 4);  // a header a load
}

TEST(MemTiming, ExclusiveL2KeepsWhatTheL1Evicted) {
  auto sets = kOneWay;
  sets.push_back("l2.inclusion=exclusive");
  Outcome r = run(kAbab, sets);
  ASSERT_EQ(r.history.size(), 4u);
  EXPECT_EQ(r.history[0].second, dram_miss(Ld));
  EXPECT_EQ(r.history[1].second, dram_miss(Ld));
  EXPECT_EQ(r.history[2].second, kL2Hit);  // copied back when B took the L1's way
  EXPECT_EQ(r.history[3].second, kL2Hit);
  EXPECT_EQ(r.l2_hits, 2);
  EXPECT_EQ(r.request_flits, 4 + 3 * kReplyFlits);  // and three copy-backs (A, B, A) of a line each
}

// Region exclusion on one core: A and B (one L1 set) are hit in the L2 by the core that filled
// them: private reuse. The update at the fifth access trains the region (4 fills, 2 private hits
// halve to 2 and 1 > 2/64): private only. From then on its new lines bypass the L2 (C, D), the L1
// copies each back when it evicts it, and the copy is given back to the L1 at its copier's next
// hit: C and D, one L1 set, take turns in the L1, the other always in the L2.
TEST(MemTiming, RegionExclusionKeepsPrivateLinesInOneLevel) {
  std::string t;
  for (unsigned long a : {0x0ul, 0x400ul, 0x0ul, 0x400ul, 0x0ul, 0x800ul, 0xC00ul, 0x800ul, 0xC00ul, 0x800ul}) t += one(0, "ld", a);
  auto sets = std::vector<std::string>{"l1.size=1KiB", "l1.ways=1", "l2.inclusion=region_exclusion", "region_tracking.period=5"};
  Outcome r = run(t, sets, {{0x0, 0x10000}});
  ASSERT_EQ(r.history.size(), 10u);
  const std::vector<unsigned> expected = {dram_miss(Ld), dram_miss(Ld), kL2Hit, kL2Hit, kL2Hit, dram_miss(Ld),
                                          dram_miss(Ld), kL2Hit, kL2Hit, kL2Hit};
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.history[i].second, expected[i]) << "load " << i;
  EXPECT_EQ(r.l2_hits, 6);
  // Ten loads' headers, and four copy-backs of a line each: C as D arrives, then D, C, D as each
  // of loads 7-9 brings the other back.
  EXPECT_EQ(r.request_flits, 10 + 4 * kReplyFlits);
}

// Bypass + copyback's L2 half: A, B and C fill and are never hit again in the L2, so the update at
// the fourth access trains the region with no reuse; D and E then bypass the L2, and D, pushed out
// of the L1 by E, comes from DRAM again, while A, installed before, is still an L2 hit.
TEST(MemTiming, BypassCopybackSendsRegionsWithoutReusePastTheL2) {
  std::string t;
  for (unsigned long a : {0x0ul, 0x400ul, 0x800ul, 0xC00ul, 0x1000ul, 0xC00ul, 0x0ul}) t += one(0, "ld", a);
  Outcome r = run(t, {"l1.size=1KiB", "l1.ways=1", "l2.bypass=bypass_copyback", "region_tracking.period=4"}, {{0x0, 0x10000}});
  const std::vector<unsigned> expected = {dram_miss(Ld), dram_miss(Ld), dram_miss(Ld), dram_miss(Ld),
                                          dram_miss(Ld), dram_miss(Ld), kL2Hit};
  ASSERT_EQ(r.history.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.history[i].second, expected[i]) << "load " << i;
  EXPECT_EQ(r.l2_hits, 1);
}

// Its L1 half: PC 0x100's four lines get no L1 hit before the update at the fourth access, so its
// fills then bypass the L1: E, loaded twice, is an L2 hit the second time; A, installed before,
// still hits in the L1.
TEST(MemTiming, BypassCopybackSendsPcsWithoutReusePastTheL1) {
  std::string t;
  for (unsigned long a : {0x0ul, 0x400ul, 0x800ul, 0xC00ul, 0x1000ul, 0x1000ul, 0x0ul}) t += one(0, "ld", a);
  Outcome r = run(t, {"l1.bypass=bypass_copyback", "region_tracking.period=4"});
  const std::vector<unsigned> expected = {dram_miss(Ld), dram_miss(Ld), dram_miss(Ld), dram_miss(Ld),
                                          dram_miss(Ld), kL2Hit, kL1Hit};
  ASSERT_EQ(r.history.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.history[i].second, expected[i]) << "load " << i;
}

// A one-line victim buffer beside a one-way L1: A and B conflict in the L1 set; each, replaced,
// waits in the buffer and comes back one cycle slower than an L1 hit. C pushes A out of the
// buffer, which then finds it in the L2.
TEST(MemTiming, VictimBufferGivesBackWhatTheL1Replaced) {
  std::string t;
  for (unsigned long a : {0x0ul, 0x400ul, 0x0ul, 0x400ul, 0x800ul, 0x0ul}) t += one(0, "ld", a);
  Outcome r = run(t, {"l1.size=1KiB", "l1.ways=1", "l1.victim_cache=128B"});
  const std::vector<unsigned> expected = {dram_miss(Ld), dram_miss(Ld), kL1Hit + 1, kL1Hit + 1, dram_miss(Ld), kL2Hit};
  ASSERT_EQ(r.history.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(r.history[i].second, expected[i]) << "load " << i;
  EXPECT_EQ(r.request_flits, 4);  // the three misses and the L2 hit
}

// Exclusive, the L1's victim buffer is part of the L1 level: a line replaced waits there and is
// copied back only when it leaves the buffer — never, here.
TEST(MemTiming, VictimBufferHoldsCopyBacksUntilItLetsThemGo) {
  auto sets = kOneWay;
  sets.insert(sets.end(), {"l2.inclusion=exclusive", "l1.victim_cache=128B"});
  Outcome r = run(kAbab, sets);
  ASSERT_EQ(r.history.size(), 4u);
  EXPECT_EQ(r.history[0].second, dram_miss(Ld));
  EXPECT_EQ(r.history[1].second, dram_miss(Ld));
  EXPECT_EQ(r.history[2].second, kL1Hit + 1);
  EXPECT_EQ(r.history[3].second, kL1Hit + 1);
  EXPECT_EQ(r.request_flits, 2);  // no copy-back
}

// A store drops the buffer's copy (the store goes on to the L2, write-evict): the next load of the
// line is the L2's.
TEST(MemTiming, StoreDropsTheVictimBuffersCopy) {
  Outcome r = run(one(0, "ld", 0x0) + one(0, "ld", 0x400) + one(0, "st", 0x0) + one(0, "ld", 0x0),
                  {"l1.size=1KiB", "l1.ways=1", "l1.victim_cache=128B"});
  ASSERT_EQ(r.history.size(), 4u);
  EXPECT_EQ(r.history[2].second, kStoreAck);
  EXPECT_EQ(r.history[3].second, kL2Hit);
}

TEST(MemTiming, BypassedFillIsNotInstalled) {
  std::string t;
  for (unsigned long a : {0x0ul, 0x1000ul, 0x2000ul, 0x3000ul, 0x4000ul, 0x4000ul, 0x3000ul}) t += one(0, "ld", a);
  Outcome r = run(t, {"l1.bypass=obm", "obm.initial=16", "l2.size=256KiB"});
  ASSERT_EQ(r.history.size(), 7u);
  EXPECT_EQ(r.history[4].second, dram_miss(Ld));
  EXPECT_EQ(r.history[5].second, kL2Hit);  // not installed: from the L2
  EXPECT_EQ(r.history[6].second, kL1Hit);  // the victim stayed
}

TEST(MemTiming, ReservationStallWaitsForTheMissQueue) {
  // A one-entry miss queue: a miss waits in it out the L1's latency, so a second miss (another
  // line, an MSHR free) fails for want of the queue until the first leaves for the network.
  constexpr unsigned L = 10;
  const unsigned M = dram_miss(Ld) + (L - Ll);
  Outcome r = run(one(0, "ld", 0x1000) + one(1, "ld", 0x2000), {"l1.miss_queue=1", "l1.latency=" + std::to_string(L)});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].second, M);
  // First tried two cycles after warp 0's access was taken (as in the merge above), it fails
  // until the cycle the first miss leaves (L after it was taken), and is taken the cycle after.
  EXPECT_EQ(r.reservation_fails, L - 1);
  EXPECT_EQ(r.history[1].second, M + L);
}

// Per-bank DRAM queues (dram.queue_per_bank), on a channel alone: four reads of one bank, one a
// cycle — row 0, row 1, row 1, row 0 — through a one-request input buffer (dram.queue 1). One
// shared queue of one request: each joins the scheduler when the one before has its column
// command, so the last finds row 1 open (a hit for the third, conflicts for the second and
// fourth). Bank queues of four: all four wait before the first's column command, and FR-FCFS
// serves the fourth on the open row 0 before closing it (two hits, one conflict). Bank queues of
// two: the third waits at the input while the bank holds two, and the fourth behind it, as with
// the shared queue.
namespace {
class DramFeeder : public sc_core::sc_module, public sim::Clocked {
 public:
  DramFeeder(const sc_core::sc_module_name& n, sim::Simulation& sim, const mem::DramTiming& t,
             std::vector<std::uint64_t> addresses)
      : sc_core::sc_module(n), done_(64), channel_("dram", sim, t, done_, *this), todo_(std::move(addresses)) {
    sim.clock("dram").add(*this);
    wake();
  }
  bool tick(sim::Cycle) override {
    const sim::Picoseconds now = sim::now_ps();
    while (done_.can_pop(now)) order.push_back(done_.pop(now).tag);
    if (next_ < todo_.size() && channel_.can_accept(now)) {
      channel_.accept({todo_[next_], false, 128, next_}, now);
      ++next_;
    }
    return order.size() < todo_.size();
  }
  std::vector<std::uint64_t> order;  // tags (the requests' indices) in completion order

 private:
  sim::TimedQueue<mem::DramRequest> done_;
  mem::DramChannel channel_;
  std::vector<std::uint64_t> todo_;
  std::uint64_t next_ = 0;
};
struct BankRun {
  std::vector<std::uint64_t> order;
  double hits, conflicts;
};
BankRun bank_queue(unsigned per_bank) {
  Testbench tb({"log.level=warn"}, "gtx480");
  mem::DramTiming t;
  t.tRCD = 10, t.tCL = 6, t.tRP = 8, t.tRAS = 10, t.banks = 16, t.row_size = 2048, t.queue = 1;
  t.queue_per_bank = per_bank;
  auto& f = tb.add<DramFeeder>("feeder", t, std::vector<std::uint64_t>{0x0, 0x8000, 0x8080, 0x80});
  tb.run();
  return {f.order, tb.stat("feeder.dram.row_hits"), tb.stat("feeder.dram.row_conflicts")};
}
}  // namespace

TEST(MemTiming, DramSharedQueueOfOneServesInOrder) {
  const BankRun r = bank_queue(0);
  EXPECT_EQ(r.order, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.hits, 1);
  EXPECT_EQ(r.conflicts, 2);
}

TEST(MemTiming, DramBankQueuesHoldWhatTheSharedQueueCannot) {
  const BankRun r = bank_queue(4);
  EXPECT_EQ(r.order, (std::vector<std::uint64_t>{0, 3, 1, 2}));
  EXPECT_EQ(r.hits, 2);
  EXPECT_EQ(r.conflicts, 1);
}

TEST(MemTiming, DramFullBankQueueHoldsTheInput) {
  const BankRun r = bank_queue(2);
  EXPECT_EQ(r.order, (std::vector<std::uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(r.hits, 1);
  EXPECT_EQ(r.conflicts, 2);
}

// The L1's port (l1.port_accesses every l1.port_cycles): one warp load of n lines that all hit
// (warmed by the same load before). The generator hands the L1 as many accesses a cycle as its
// input (l1.port_accesses entries) takes; each enters a cycle after it was handed over, and a
// slot the L1 frees at a cycle is refilled at the next. Port 1/1: a line every other cycle, the
// last hit 2 (n - 1) cycles after the first. Port n/2: all at once. Port 4/4 with 12 lines: four enter at
// issue + 2; each next four are handed over the cycle after and enter a cycle later if that
// cycle starts a new window, else at the next window's first cycle.
namespace {
std::string lines(unsigned w, unsigned n) {
  std::string s = "0 " + std::to_string(w) + " 100 ld 4";
  char buf[32];
  for (unsigned i = 0; i < n; ++i) {
    std::snprintf(buf, sizeof buf, " %x", 0x1000 + 0x80 * i);
    s += buf;
  }
  return s + "\n";
}
Outcome port(unsigned n, unsigned accesses, unsigned cycles) {
  return run(lines(0, n) + lines(0, n),
             {"l1.port_accesses=" + std::to_string(accesses), "l1.port_cycles=" + std::to_string(cycles)});
}
}  // namespace

TEST(MemTiming, L1PortOfOneTakesALineEveryOtherCycle) {
  const Outcome r = port(4, 1, 1);
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, kL1Hit + 2 * 3);
  EXPECT_EQ(r.port_waits, -1);  // today's port: the statistic is not there
}

TEST(MemTiming, L1PortOfFourInTwoCyclesTakesFourLinesAtOnce) {
  const Outcome r = port(4, 4, 2);
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, kL1Hit);
}

TEST(MemTiming, L1PortWindowHoldsTheRestForTheNextWindow) {
  const Outcome r = port(12, 4, 4);
  ASSERT_EQ(r.history.size(), 2u);
  const sim::Cycle issue = r.history[1].first;
  sim::Cycle enter = issue + 2, waited = 0;
  for (int group = 1; group < 3; ++group) {  // three groups of four: at least one waits for its window
    const sim::Cycle handed = enter + 2, next = std::max<sim::Cycle>(handed, (enter / 4 + 1) * 4);
    waited += next - handed;
    enter = next;
  }
  EXPECT_EQ(r.history[1].second, enter - issue + Ll);
  EXPECT_GT(waited, 0u);
  EXPECT_GE(r.port_waits, static_cast<double>(waited));
}

// More than one access a cycle cannot be had from the LD/ST unit's hand-off: a window of one cycle
// with a wider port is a configuration error that names the key to change.
namespace {
// Building the memory system with `sets` is a configuration error whose message names `names`.
void expect_config_error(std::vector<std::string> sets, const std::string& names) {
  sets.push_back("log.level=warn");
  Testbench tb(sets, "gtx480");
  try {
    tb.add<mem::MemorySystem>("memory");
    ADD_FAILURE() << "no error; expected one naming " << names;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
  }
}
}  // namespace

TEST(MemTiming, L1PortWiderThanOneNeedsAWindowOfTwoCycles) {
  expect_config_error({"l1.port_accesses=2"}, "l1.port_cycles");
}

// The units' fetch path (L1Cache::fetch; trace op `fetch`): a lookup beside the input the cycle
// after the fetch is queued, no slot of the input.
namespace {
std::string fetches(unsigned w, std::initializer_list<unsigned long> addrs) {
  std::string s = "0 " + std::to_string(w) + " 100 fetch 4";
  char buf[32];
  for (unsigned long a : addrs) {
    std::snprintf(buf, sizeof buf, " %lx", a);
    s += buf;
  }
  return s + "\n";
}
}  // namespace

// A fetch is queued at the L1 as the generator issues it and looked up at the L1's next cycle: one
// hop where a load's line takes two (queued in the input, then taken).
constexpr unsigned kFetchHop = 1;
constexpr unsigned kFetchMiss = kFetchHop + (dram_miss(Ld) - 2);  // the rest as a load's miss

TEST(MemTiming, FetchOfAMissingLineIsALoadsMissOneHopSooner) {
  const Outcome r = run(fetches(0, {0x1000}) + one(0, "ld", 0x1000) + fetches(0, {0x1000}), {});
  ASSERT_EQ(r.history.size(), 3u);
  EXPECT_EQ(r.history[0].second, kFetchMiss);
  EXPECT_EQ(r.history[1].second, kL1Hit);         // installed: the load hits
  EXPECT_EQ(r.history[2].second, kFetchHop + Ll);  // a line present completes after the hit latency
  EXPECT_EQ(r.reply_flits, kReplyFlits);          // one fill
}

// l1.fetch_lookups: one lookup a cycle by default, so the fourth of four present lines is found
// three cycles after the first; four a cycle find them together.
TEST(MemTiming, FetchLooksUpOneLineACycle) {
  const Outcome r = run(lines(0, 4) + fetches(0, {0x1000, 0x1080, 0x1100, 0x1180}), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, kFetchHop + 3 + Ll);
}

TEST(MemTiming, FetchLooksUpFourLinesACycle) {
  const Outcome r = run(lines(0, 4) + fetches(0, {0x1000, 0x1080, 0x1100, 0x1180}), {"l1.fetch_lookups=4"});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].second, kFetchHop + Ll);
}

// A fetch needs an MSHR as a miss does: with one, the second line is looked up in the cycle the
// first's fill frees it, and goes the same way from there; no reservation failure of the input.
TEST(MemTiming, FetchWaitsForAnMshr) {
  const Outcome r = run(fetches(0, {0x1000, 0x1080}), {"l1.mshrs=1"});
  ASSERT_EQ(r.history.size(), 1u);
  EXPECT_EQ(r.history[0].second, kFetchMiss + (kFetchMiss - kFetchHop));
  EXPECT_EQ(r.reservation_fails, 0);
}

// A fetch of a line a load is fetching joins its MSHR: both complete with the one fill, and the
// demand statistics see no merge.
TEST(MemTiming, FetchMergesIntoALoadsMissInFlight) {
  const Outcome r = run(one(0, "ld", 0x1000) + fetches(1, {0x1000}), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[0].second, dram_miss(Ld));
  EXPECT_EQ(r.history[1].first, 1u);
  EXPECT_EQ(r.history[1].second, dram_miss(Ld) - 1);
  EXPECT_EQ(r.reply_flits, kReplyFlits);
  EXPECT_EQ(r.mshr_merges, 0);
}

// Fetches take no slot of the input: another warp's load issues the next cycle, where after a load
// of four lines it waits for their four slots (one every other cycle).
TEST(MemTiming, FetchesLeaveTheInputToTheLoads) {
  const Outcome r = run(fetches(0, {0x8000, 0x8080, 0x8100, 0x8180}) + one(1, "ld", 0x1000), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].first, 1u);
}

TEST(MemTiming, LoadsWaitForTheInputSlotsOfLoadsBefore) {
  const Outcome r = run(lines(0, 4) + one(1, "ld", 0x8000), {});
  ASSERT_EQ(r.history.size(), 2u);
  EXPECT_EQ(r.history[1].first, 1u + 2 * 3);
}

// The fetch path brings whole lines: a sectored L1 is a configuration error naming the key.
TEST(MemTiming, FetchNeedsAnL1OfWholeLines) {
  TempDir d;
  expect_config_error({"traffic.pattern=trace", "traffic.trace=" + d.write("t.trace", fetches(0, {0x1000})), "l1.granularity=sector"},
                      "needs l1.granularity: line");
}

// l1.fetch_priority: with one MSHR, a load and a fetch both wait for the first load's fill; the
// one that goes first takes the MSHR at that fill, the other at the next one. Completions are in
// absolute cycles: a line that takes an MSHR in cycle L completes at L + dram_miss(Ld) - 2.
namespace {
Outcome contended(const char* priority) {
  return run(one(0, "ld", 0x1000) + one(1, "ld", 0x2000) + fetches(2, {0x3000}),
             {"l1.mshrs=1", "traffic.warps=3", std::string("l1.fetch_priority=") + priority});
}
}  // namespace

TEST(MemTiming, FetchPriorityInputGivesTheFreedMshrToTheLoad) {
  const Outcome r = contended("input");
  ASSERT_EQ(r.history.size(), 3u);
  const sim::Cycle first = done(r, 0), after = dram_miss(Ld) - 2;
  EXPECT_EQ(first, dram_miss(Ld));
  EXPECT_EQ(done(r, 1), first + after);
  EXPECT_EQ(done(r, 2), first + 2 * after);
}

TEST(MemTiming, FetchPriorityFetchGivesTheFreedMshrToTheFetch) {
  const Outcome r = contended("fetch");
  ASSERT_EQ(r.history.size(), 3u);
  const sim::Cycle first = done(r, 0), after = dram_miss(Ld) - 2;
  EXPECT_EQ(done(r, 2), first + after);
  EXPECT_EQ(done(r, 1), first + 2 * after);
}
