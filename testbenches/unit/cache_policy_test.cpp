// SPDX-License-Identifier: Apache-2.0
// The graph-aware cache policies' tables, exact (models/mem/policy/, docs/memory.md): each
// mechanism driven through its hooks as a cache drives it, its decisions and counters checked
// against the rules of ../shared/specs/graph_memory_hierarchy.md sections 3 and 4.
#include <gtest/gtest.h>

#include "models/mem/policy/bypass.h"
#include "models/mem/policy/granularity.h"
#include "models/mem/policy/inclusion.h"
#include "models/mem/policy/region.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::mem;
using irr::testing::Testbench;

namespace {

struct Owner : sc_core::sc_module {
  Owner(const sc_core::sc_module_name& n, sim::Simulation&) : sc_core::sc_module(n) {}
};

// A 4-set, 2-way cache of 128 B lines in 32 B sectors, with a policy's site.
struct Bench {
  Testbench tb;
  Owner &owner, &other_owner;
  CacheArray array{4 * 2 * 128, 2, 128, "test"};
  PolicySite site, other;  // a second cache's, for a second policy of the same kind
  explicit Bench(std::vector<std::string> sets = {})
      : tb(std::move(sets)),
        owner(tb.add<Owner>("cache")),
        other_owner(tb.add<Owner>("other")),
        site{tb.sim(), owner, "", array, 4},
        other{tb.sim(), other_owner, "", array, 4} {
    array.set_sectored(true);
  }
};

CacheRequest req(std::uint64_t line, std::uint64_t pc, std::uint32_t sectors) { return {line, pc, sectors, 0}; }
CacheArray::Evicted gone(std::uint64_t line, std::uint64_t pc, std::uint32_t used, std::uint32_t first) {
  return {line, false, pc, 0xF, used, first};
}

}  // namespace

TEST(CachePolicy, SectoredArrayHitsOnlyOnValidSectors) {
  CacheArray a(4 * 2 * 128, 2, 128, "a");
  a.set_sectored(true);
  a.fill(0x1000, false, true, nullptr, LineFill{0b0001, 0b0001, 0, 0x48});
  EXPECT_EQ(a.lookup(0x1000, 0b0001), CacheArray::Lookup::hit);
  EXPECT_EQ(a.lookup(0x1000, 0b0011), CacheArray::Lookup::sector_miss);
  EXPECT_EQ(a.lookup(0x2000, 0b0001), CacheArray::Lookup::miss);
  a.fill(0x1000, false, true, nullptr, LineFill{0b0010});  // the sector miss's fill adds its sector
  EXPECT_EQ(a.lookup(0x1000, 0b0011), CacheArray::Lookup::hit);
  EXPECT_EQ(a.pc_of(0x1000), 0x48u);
  // 0x1000 and 0x1200 and 0x1400 share set 0 (4 sets of 128 B): the third evicts the LRU.
  a.fill(0x1200, false, true);
  EXPECT_EQ(a.victim(0x1400), std::optional<std::uint64_t>(0x1000));
  auto ev = a.fill(0x1400, false, true);
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->line, 0x1000u);
  EXPECT_EQ(ev->valid, 0b0011u);
  EXPECT_EQ(ev->used, 0b0011u);
  EXPECT_EQ(ev->pc, 0x48u);
  CacheArray whole(4 * 2 * 128, 2, 128, "w");  // not sectored: every fill is the whole line
  whole.fill(0x1000, false, true, nullptr, LineFill{0b0001});
  EXPECT_EQ(whole.lookup(0x1000, 0b1000), CacheArray::Lookup::hit);
}

TEST(CachePolicy, SectorFetchTakesTheRequestedSectorsAndCountsUse) {
  Bench b;
  SectorFetch p(b.site);
  CachePolicies set;
  set.add(std::make_unique<SectorFetch>(b.other));
  EXPECT_EQ(p.fetch(req(0x1000, 8, 0b0100), 0b0100, 0), 0b0100u);
  EXPECT_EQ(set.fetch(req(0x1000, 8, 0b0110), 0), 0b0110u);
  p.accessed(req(0x1000, 8, 0b0100), CacheArray::Lookup::sector_miss);
  p.evicted({0x1000, false, 8, 0b0111, 0b0101, 0});
  EXPECT_EQ(b.tb.stat("cache.sector.sector_misses"), 1);
  EXPECT_EQ(b.tb.stat("cache.sector.sectors_filled"), 3);
  EXPECT_EQ(b.tb.stat("cache.sector.sectors_used"), 2);
  EXPECT_EQ(p.storage_bits(), 8u * 4);  // a valid bit per sector of the bench's 8 lines
}

TEST(CachePolicy, SppFetchesTheLastPatternOfItsPcAndSector) {
  Bench b;
  SpatialPatternPredictor p(b.site, 256, 8, true);
  EXPECT_EQ(p.fetch(req(0x1000, 0x40, 0b0001), 0b0001, 0), 0xFu);  // no pattern: the default, the line
  p.evicted(gone(0x1000, 0x40, 0b0101, 0));                         // its pattern: sectors 0 and 2
  EXPECT_EQ(p.fetch(req(0x5000, 0x40, 0b0001), 0b0001, 0), 0b0101u);
  EXPECT_EQ(p.fetch(req(0x5000, 0x40, 0b0010), 0b0010, 0), 0xFu);   // another first sector: its own entry
  EXPECT_EQ(p.fetch(req(0x5000, 0x40, 0b0001), 0b0001, 0b0010), 0b0001u);  // a sector miss asks no pattern
  EXPECT_EQ(b.tb.stat("cache.spp.pht_hits"), 1);
  EXPECT_EQ(b.tb.stat("cache.spp.pht_misses"), 2);
  SpatialPatternPredictor fine(b.other, 8, 8, false);  // spp.default: sector
  EXPECT_EQ(fine.fetch(req(0x1000, 0x40, 0b0001), 0b0001, 0), 0b0001u);
  // A full set replaces its least recently used pattern: 9 keys in one 8-way set.
  for (std::uint64_t pc = 1; pc <= 9; ++pc) fine.evicted(gone(0, pc, 0, 0)), fine.fetch(req(0, pc, 1), 1, 0);
  // 8 lines of the bench's cache, each valid and used sectors and an 8-bit pattern pointer.
  EXPECT_EQ(fine.storage_bits(), 8u * (4 + 4 + 3) + 8u * (4 + 16));
  EXPECT_EQ(p.storage_bits(), 8u * (4 + 4 + 8) + 256u * (4 + 16));
}

TEST(CachePolicy, LamarLearnsFineLinesAgesAndFlips) {
  Bench b;
  // skew 1: never flips, so the ageing alone is seen.
  BimodalGranularityPredictor p(b.site, 2048, 2, 4, 1.0, 2);
  EXPECT_EQ(p.fetch(req(0xA000, 8, 0b0001), 0b0001, 0), 0xFu);  // default coarse
  p.evicted(gone(0xA000, 8, 0b0011, 0));                        // 2 sectors used: fine, remembered
  p.evicted(gone(0xB000, 8, 0b0111, 0));                        // 3: coarse, like the default
  EXPECT_EQ(p.fetch(req(0xA000, 8, 0b0001), 0b0001, 0), 0b0001u);
  EXPECT_EQ(p.fetch(req(0xB000, 8, 0b0001), 0b0001, 0), 0xFu);
  for (std::uint64_t l : {0xC000, 0xD000, 0xE000}) p.evicted(gone(l, 8, 1, 0));  // 4 insertions: arrays swap
  EXPECT_EQ(p.fetch(req(0xA000, 8, 0b0001), 0b0001, 0), 0b0001u);             // still in the older array
  for (std::uint64_t l : {0x10000, 0x11000, 0x12000, 0x13000}) p.evicted(gone(l, 8, 1, 0));
  EXPECT_EQ(p.fetch(req(0xA000, 8, 0b0001), 0b0001, 0), 0xFu);  // its array cleared: forgotten
  EXPECT_EQ(p.fetch(req(0x13000, 8, 0b0001), 0b0001, 0), 0b0001u);
  EXPECT_EQ(b.tb.stat("cache.lamar.mode_flips"), 0);
  EXPECT_EQ(p.storage_bits(), 8u * (4 + 4) + 2u * 2048);
  // skew 0.7 over windows of 4 evictions: 3 of 4 inserted (0.75 > 0.7) flips the default to fine.
  BimodalGranularityPredictor q(b.other, 2048, 2, 4, 0.7, 2);
  for (std::uint64_t l : {0x1000, 0x2000, 0x3000}) q.evicted(gone(l, 8, 1, 0));
  q.evicted(gone(0x4000, 8, 0xF, 0));
  EXPECT_TRUE(q.default_fine());
  EXPECT_EQ(q.fetch(req(0x9000, 8, 0b0001), 0b0001, 0), 0b0001u);  // fine by default now
  q.evicted(gone(0x9000, 8, 0b0111, 0));                            // a coarse line is what it remembers
  EXPECT_EQ(q.fetch(req(0x9000, 8, 0b0001), 0b0001, 0), 0xFu);
}

TEST(CachePolicy, NapCountsEachNeighbourOfTheFirstMissedSector) {
  Bench b;
  NeighbourAccessPredictor p(b.site, 32, 4, 7, 8);
  EXPECT_EQ(p.fetch(req(0x1000, 0x40, 0b0010), 0b0010, 0), 0xFu);  // a new PC: counters 8 > 7, all fetched
  p.evicted(gone(0x1000, 0x40, 0b0010, 1));                         // only the first was used: -1, +1, +2 down
  EXPECT_EQ(p.counter(0x40, -1), 7u);
  EXPECT_EQ(p.counter(0x40, +1), 7u);
  EXPECT_EQ(p.counter(0x40, +2), 7u);
  EXPECT_EQ(p.counter(0x40, -2), 8u);  // no sector two before sector 1: untouched
  EXPECT_EQ(p.fetch(req(0x3000, 0x40, 0b0010), 0b0010, 0), 0b0010u);
  p.evicted(gone(0x3000, 0x40, 0b0110, 1));  // the next one used as well
  EXPECT_EQ(p.counter(0x40, +1), 8u);
  EXPECT_EQ(p.fetch(req(0x5000, 0x40, 0b0010), 0b0010, 0), 0b0110u);
  // Relative to the first missed: from sector 0 the +1 neighbour is sector 1, and -2/-3 count for
  // sectors that start later.
  EXPECT_EQ(p.fetch(req(0x5000, 0x40, 0b0001), 0b0001, 0), 0b1011u);  // +1 (8) and +3 (8); +2 is 7
  for (int i = 0; i < 20; ++i) p.evicted(gone(0x5000, 0x40, 0xF, 0));  // saturates at 15
  EXPECT_EQ(p.counter(0x40, +3), 15u);
  EXPECT_EQ(b.tb.stat("cache.nap.neighbours_fetched"), 3 + 1 + 2);
  EXPECT_EQ(p.storage_bits(), 8u * (4 + 4 + 5 + 2) + 32u * (7 * 4 + 32));
}

TEST(CachePolicy, MatBypassesALessFrequentMacroblock) {
  Bench b;
  MemoryAddressTable p(b.site, 1024, 1024, 0.99, 8);
  for (int i = 0; i < 3; ++i) p.accessed(req(0x0000, 8, 1), CacheArray::Lookup::hit);  // macroblock 0: 3
  p.accessed(req(0x0400, 8, 1), CacheArray::Lookup::miss);                              // macroblock 1: 1
  EXPECT_EQ(p.count(0x0080), 3u);
  EXPECT_FALSE(p.allocate(req(0x0480, 8, 1), 0x0000));  // 1 < 0.99 x 3: bypass
  EXPECT_TRUE(p.allocate(req(0x0000, 8, 1), 0x0400));   // 3 >= 0.99 x 1
  EXPECT_TRUE(p.allocate(req(0x0480, 8, 1), std::nullopt));  // a free way: no decision
  p.accessed(req(0x100000, 8, 1), CacheArray::Lookup::miss);  // 1 MiB on: macroblock 1024, entry 0's
  EXPECT_EQ(p.count(0x0000), 0u);
  EXPECT_EQ(p.count(0x100000), 1u);
  EXPECT_EQ(b.tb.stat("cache.mat.decisions"), 2);
  EXPECT_EQ(b.tb.stat("cache.mat.bypassed"), 1);
  EXPECT_EQ(p.storage_bits(), 1024u * (8 + 16));
  MemoryAddressTable small(b.other, 4, 1024, 0.99, 2);  // 2-bit counters saturate at 3
  for (int i = 0; i < 9; ++i) small.accessed(req(0, 8, 1), CacheArray::Lookup::hit);
  EXPECT_EQ(small.count(0), 3u);
}

TEST(CachePolicy, AdaptiveBypassLearnsPerSetFromWatchedPairs) {
  Bench b;
  // Start at probability 1 (always bypass) and watch every fill not bypassed as a virtual bypass.
  AdaptiveBypass p(b.site, 1.0, 1.0, 1.0 / 256, 1.0);
  const std::uint64_t x = 0x0000, v = 0x0200, y = 0x0400;  // all in set 0
  EXPECT_FALSE(p.allocate(req(x, 8, 1), v));  // bypassed; watching (x, v)
  p.accessed(req(x, 8, 1), CacheArray::Lookup::miss);  // the incoming came back first: wrong
  EXPECT_EQ(p.probability(0), 0.5);
  EXPECT_EQ(p.probability(1), 1.0);  // per set
  // Whichever way the next draw goes, the pair is watched; its victim re-referenced first: right.
  p.allocate(req(y, 8, 1), v);
  p.accessed(req(v, 8, 1), CacheArray::Lookup::miss);
  EXPECT_EQ(p.probability(0), 1.0);
  EXPECT_EQ(b.tb.stat("cache.adaptive.wrong"), 1);
  EXPECT_EQ(b.tb.stat("cache.adaptive.right"), 1);
  // The line that stayed leaves before either returns: no verdict.
  EXPECT_FALSE(p.allocate(req(x, 8, 1), v));  // probability 1: bypassed, v stays
  p.evicted(gone(v, 8, 1, 0));
  p.accessed(req(x, 8, 1), CacheArray::Lookup::miss);
  EXPECT_EQ(p.probability(0), 1.0);
  // Bounds: down to the minimum and no further.
  AdaptiveBypass q(b.other, 1.0 / 128, 0, 1.0 / 256, 0.5);
  for (int i = 0; i < 4; ++i) {
    if (!q.allocate(req(x, 8, 1), v)) q.accessed(req(x, 8, 1), CacheArray::Lookup::miss);
  }
  EXPECT_GE(q.probability(0), 1.0 / 256);
}

TEST(CachePolicy, ObmLearnsWhichPcsFillsAreDead) {
  Bench b;
  OptimalBypassMonitor p(b.site, 64, 1.0, 32, 5, 16, 15);  // every miss recorded
  const std::uint64_t A = 0x8, B = 0x10, C = 0x18;          // BDCT slots 1, 2, 3
  b.array.fill(0x0200, false, true, nullptr, LineFill{0xF, 0, 0, B});  // the victim, fetched by B
  EXPECT_TRUE(p.allocate(req(0x0000, A, 1), 0x0200));  // A at 15 < 16: installed; (0x0000 A, 0x0200 B) recorded
  p.accessed(req(0x0200, B, 1), CacheArray::Lookup::miss);  // the victim first: A's fills should bypass
  EXPECT_EQ(p.counter(A), 16u);
  EXPECT_EQ(p.counter(B), 15u);  // the victim's PC is not voted on
  EXPECT_FALSE(p.allocate(req(0x0400, A, 1), 0x0200));  // A now bypasses
  p.accessed(req(0x0400, A, 1), CacheArray::Lookup::miss);  // but that incoming came back first
  EXPECT_EQ(p.counter(A), 15u);
  EXPECT_EQ(p.counter(B), 15u);
  EXPECT_TRUE(p.allocate(req(0x0600, C, 1), 0x0200));
  p.evicted(gone(0x0200, B, 0, 0));  // the victim leaving at the fill is no verdict
  EXPECT_EQ(p.counter(C), 15u);
  p.evicted(gone(0x0600, C, 0, 0));  // the incoming leaving unreferenced: C's fills should bypass
  EXPECT_EQ(p.counter(C), 16u);
  EXPECT_EQ(b.tb.stat("cache.obm.learnt"), 3);
  EXPECT_EQ(b.tb.stat("cache.obm.bypassed"), 1);
  EXPECT_EQ(p.storage_bits(), 32u * 5 + 64u * (64 + 2 * 6 + 1));
}

TEST(CachePolicy, ExclusionGivesLinesToTheL1AndTakesThemBack) {
  Bench b;
  Inclusion p(b.site, 0, 0);
  const CacheRequest load = req(0x1000, 8, 1);
  CacheRequest back = load;
  back.copyback = true;
  EXPECT_FALSE(p.allocate(load, std::nullopt));  // a DRAM fill goes to the L1 only
  EXPECT_TRUE(p.copy_back(load));                // which copies it back when it evicts it
  EXPECT_TRUE(p.allocate(back, std::nullopt));   // and the copy-back is installed here
  EXPECT_FALSE(p.keep_on_hit(load));             // a hit moves the line to the L1
  EXPECT_EQ(b.tb.stat("cache.exclusive.fills_bypassed"), 1);
  EXPECT_EQ(b.tb.stat("cache.exclusive.copybacks"), 1);
  EXPECT_EQ(b.tb.stat("cache.exclusive.moved"), 1);
  EXPECT_EQ(p.storage_bits(), 0u);
}

TEST(CachePolicy, FlexclusionDuelsNonInclusionAgainstExclusion) {
  // Two slices of the bench's 4 sets: 8 sets, 2 leaders of each kind every 4 sets: global sets
  // 0 and 4 non-inclusive, 2 and 6 exclusive. This is slice 1 (global sets 4-7).
  Bench b;
  PolicySite slice = b.site;
  slice.index = 1;
  slice.count = 2;
  Inclusion p(slice, 2, 3);  // PSEL 0..7, starting at 3
  const std::uint64_t ni = 0x0000, ex = 0x0100, follower = 0x0080;  // local sets 0, 2, 1
  EXPECT_EQ(p.role(ni), Inclusion::Role::non_inclusive_leader);
  EXPECT_EQ(p.role(ex), Inclusion::Role::exclusive_leader);
  EXPECT_EQ(p.role(follower), Inclusion::Role::follower);
  EXPECT_FALSE(p.exclusive(follower));  // followers start non-inclusive
  EXPECT_TRUE(p.exclusive(ex));
  EXPECT_FALSE(p.exclusive(ni));
  p.accessed(req(ni, 8, 1), CacheArray::Lookup::miss);  // a non-inclusive leader misses: 4
  EXPECT_EQ(p.psel(), 4u);
  EXPECT_TRUE(p.exclusive(follower));
  EXPECT_FALSE(p.allocate(req(follower, 8, 1), std::nullopt));
  p.accessed(req(ni, 8, 1), CacheArray::Lookup::hit);       // hits do not count
  p.accessed(req(follower, 8, 1), CacheArray::Lookup::miss);  // nor followers' misses
  EXPECT_EQ(p.psel(), 4u);
  p.accessed(req(ex, 8, 1), CacheArray::Lookup::miss);  // an exclusive leader misses: 3
  EXPECT_FALSE(p.exclusive(follower));
  EXPECT_TRUE(p.keep_on_hit(req(follower, 8, 1)));
  for (int i = 0; i < 10; ++i) p.accessed(req(ni, 8, 1), CacheArray::Lookup::sector_miss);
  EXPECT_EQ(p.psel(), 7u);  // saturates
  for (int i = 0; i < 10; ++i) p.accessed(req(ex, 8, 1), CacheArray::Lookup::miss);
  EXPECT_EQ(p.psel(), 0u);
  EXPECT_EQ(p.storage_bits(), 3u);
  EXPECT_THROW(make_inclusion(b.site, "flexclusion"), Error);  // 16 of each in a 4-set L2
}

// Table 12 [G L1109-L1120], row by row (its duplicated first row once), and the combinations with
// an unknown it leaves out: no bypass at the level that does not know.
TEST(CachePolicy, BypassCopybackFollowsTable12) {
  using region::Action;
  using region::decide;
  using R = region::Reuse;
  const Action none{}, l1{true, false, false}, l2{false, true, false}, both{true, true, false}, back{false, true, true};
  EXPECT_EQ(decide(R::no, R::no, R::no), both);
  EXPECT_EQ(decide(R::no, R::no, R::yes), back);
  EXPECT_EQ(decide(R::no, R::yes, R::no), l1);
  EXPECT_EQ(decide(R::no, R::yes, R::yes), l1);
  EXPECT_EQ(decide(R::yes, R::no, R::no), l2);
  EXPECT_EQ(decide(R::yes, R::no, R::yes), back);
  EXPECT_EQ(decide(R::yes, R::yes, R::no), none);
  EXPECT_EQ(decide(R::yes, R::yes, R::yes), none);
  EXPECT_EQ(decide(R::no, R::unknown, R::unknown), l1);
  EXPECT_EQ(decide(R::unknown, R::no, R::yes), back);
  EXPECT_EQ(decide(R::unknown, R::unknown, R::unknown), none);
  EXPECT_EQ(decide(R::yes, R::unknown, R::unknown), none);
  EXPECT_EQ(decide(R::unknown, R::yes, R::no), none);
  EXPECT_EQ(decide(R::unknown, R::no, R::no), l2);
}

// Listing 3 and the worked example [G L819-L825]: core 3 fills, its own hit is private reuse,
// core 5's is shared; a refill clears the bits. Copy-backs are marked and given back to their
// copier; hinted fills are not installed.
TEST(CachePolicy, RegionTagsMarkWhoReusesALine) {
  Bench b;
  RegionTags p(b.site, "region_exclusion", 16);
  auto from = [](unsigned sm, std::uint8_t hint = 0) {
    CacheRequest r{0x1000, 8, 1, sm};
    r.hint = hint;
    return r;
  };
  ASSERT_TRUE(p.allocate(from(3), std::nullopt));
  b.array.fill(0x1000, false, true);
  EXPECT_EQ(p.feedback(from(3)), 0);
  p.accessed(from(3), CacheArray::Lookup::hit);
  EXPECT_EQ(p.feedback(from(3)), region::kPrivate);
  EXPECT_FALSE(p.tag(0x1000)->shared);
  p.accessed(from(5), CacheArray::Lookup::hit);
  EXPECT_EQ(p.feedback(from(5)), region::kPrivate | region::kShared);
  EXPECT_TRUE(p.keep_on_hit(from(3, region::kCopyBack | region::kBypassL2)));  // not a copied-back line
  EXPECT_FALSE(p.copy_back(from(3, region::kCopyBack | region::kBypassL2)));
  p.evicted({0x1000, false});
  EXPECT_EQ(p.tag(0x1000), nullptr);
  ASSERT_TRUE(p.allocate(from(5), std::nullopt));  // the refill: core 5's, bits cleared
  EXPECT_EQ(p.tag(0x1000)->core, 5u);
  EXPECT_EQ(p.feedback(from(5)), 0);
  EXPECT_EQ(p.feedback(from(7)), region::kShared);  // another core answered by the same fill shares it
  b.array.invalidate(0x1000);
  p.evicted({0x1000, false});
  // Hinted fills are not installed; with copy-back the L1 keeps the line and copies it back.
  EXPECT_FALSE(p.allocate(from(3, region::kBypassL2), std::nullopt));
  EXPECT_FALSE(p.copy_back(from(3, region::kBypassL2)));
  EXPECT_FALSE(p.allocate(from(3, region::kCopyBack | region::kBypassL2), std::nullopt));
  EXPECT_TRUE(p.copy_back(from(3, region::kCopyBack | region::kBypassL2)));
  CacheRequest back = from(3);
  back.copyback = true;
  ASSERT_TRUE(p.allocate(back, std::nullopt));
  b.array.fill(0x1000, false, true);
  EXPECT_TRUE(p.tag(0x1000)->copied_back);
  EXPECT_TRUE(p.keep_on_hit(from(5, region::kCopyBack | region::kBypassL2)));  // another core's hit
  EXPECT_TRUE(p.keep_on_hit(from(3)));  // its copier no longer asks for it (the region turned shared)
  EXPECT_TRUE(p.copy_back(from(3, region::kCopyBack | region::kBypassL2)));
  EXPECT_FALSE(p.keep_on_hit(from(3, region::kCopyBack | region::kBypassL2)));  // given back
  EXPECT_EQ(b.tb.stat("cache.region_exclusion.decisions"), 4);
  EXPECT_EQ(b.tb.stat("cache.region_exclusion.bypassed"), 2);
  EXPECT_EQ(b.tb.stat("cache.region_exclusion.copybacks"), 1);
  EXPECT_EQ(b.tb.stat("cache.region_exclusion.moved"), 1);
  EXPECT_EQ(p.storage_bits(), 8u * (4 + 3));  // 8 lines: 4-bit core id, SR, PR, CB [G L1128]
}

// Listing 4's update and the worked example: 1,280 fills, 30 shared and 10 private hits halve to
// 640 / 15 / 5 against a threshold of 10: shared reuse, no private reuse. A region whose hits are
// all private turns exclusive: its misses ask the L2 to let the L1 copy back.
TEST(CachePolicy, RegionTrackingLearnsEachRegionsReuse) {
  Bench b;
  RegionTracking t;
  t.period = 1000000;
  RegionReuse p(b.site, "region_exclusion", t);
  const std::uint64_t shared = 0x10000, pvt = 0x20000, cold = 0x30000;
  p.allocated({{shared, 0x10000}, {pvt, 0x10000}, {cold, 0x10000}});
  auto fill = [&](std::uint64_t line, std::uint8_t bits) {
    CacheRequest r{line, 8, 1, 0};
    r.hint = bits;
    p.filled(r);
  };
  for (int i = 0; i < 1280; ++i)
    fill(shared + 128 * (i % 64), i < 30 ? region::kShared : i < 40 ? region::kPrivate : 0);
  for (int i = 0; i < 100; ++i) fill(pvt + 128 * (i % 64), i < 10 ? region::kPrivate : 0);
  EXPECT_EQ(p.hint({pvt, 8, 1, 0}), 0);  // not trained yet: unknown
  EXPECT_EQ(p.rtt(cold), nullptr);       // never filled: no entry
  p.update();
  const auto* s = p.rtt(shared);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->acc, 640u);
  EXPECT_EQ(s->shd_hits, 15u);
  EXPECT_EQ(s->pvt_hits, 5u);
  EXPECT_TRUE(s->shared);
  EXPECT_FALSE(s->pvt);
  EXPECT_TRUE(p.rtt(pvt)->pvt);
  EXPECT_FALSE(p.rtt(pvt)->shared);
  EXPECT_EQ(p.hint({shared + 256, 8, 1, 0}), 0);
  EXPECT_EQ(p.hint({pvt + 256, 8, 1, 0}), region::kCopyBack | region::kBypassL2);
  EXPECT_EQ(p.hint({0x90000, 8, 1, 0}), 0);  // in no region
  EXPECT_EQ(b.tb.stat("cache.region_exclusion.copyback_hints"), 1);
  // An entry with no accesses is left as it is; flags, once set, stay set (as listed).
  for (int i = 0; i < 7; ++i) p.update();
  EXPECT_EQ(p.rtt(shared)->acc, 5u);
  p.update();
  p.update();
  p.update();
  EXPECT_EQ(p.rtt(shared)->acc, 0u);
  p.update();
  EXPECT_TRUE(p.rtt(shared)->shared);
  // The region table keeps the lowest-addressed allocations; entries of regions gone are freed.
  RegionTracking small = t;
  small.region_table = 2;
  RegionReuse q(b.other, "region_exclusion", small);
  q.allocated({{shared, 0x10000}, {pvt, 0x10000}, {cold, 0x10000}});
  EXPECT_EQ(q.regions().size(), 2u);
  EXPECT_EQ(q.region_of(cold + 4), std::nullopt);
  EXPECT_EQ(q.region_of(pvt + 0xFFFF), std::optional<std::uint64_t>(pvt));
  EXPECT_EQ(q.region_of(pvt + 0x10000), std::nullopt);
  p.allocated({{pvt, 0x10000}});
  EXPECT_EQ(p.rtt(shared), nullptr);
  EXPECT_NE(p.rtt(pvt), nullptr);
}

// B+C: regions without reuse bypass the L2; the RTT's least-used entry goes to the first untracked
// region when the untracked ones were used more [G L864]; the PTT learns per PC whether the lines
// it fetches are hit in the L1 (hits credited to the fetching PC) and bypasses the L1 for PCs
// whose are not, untracked PCs counted in the UPAT and taking over the least-used entry [G L1124].
TEST(CachePolicy, BypassCopybackTracksPcsAndReplacesEntries) {
  Bench b;
  RegionTracking t;
  t.rtt = 1;
  t.ptt = 1;
  t.upat = 2;
  t.period = 4;
  t.l2_bypass = true;
  t.l1_bypass = true;
  RegionReuse p(b.site, "bypass_copyback", t);
  const std::uint64_t a = 0x10000, c = 0x20000;
  p.allocated({{a, 0x10000}, {c, 0x10000}});
  p.filled({a, 8, 1, 0});  // region a takes the one RTT entry
  p.filled({c, 8, 1, 0});  // c is untracked
  p.filled({c + 128, 8, 1, 0});
  // PC 0x100 takes the PTT entry; its line 0x1000 is hit by PC 0x200, which is untracked.
  b.array.fill(0x1000, false, true, nullptr, LineFill{kWholeLine, 0, 0, 0x100});
  p.accessed({0x1000, 0x100, 1, 0}, CacheArray::Lookup::miss);
  p.accessed({0x1000, 0x200, 1, 0}, CacheArray::Lookup::hit);
  p.accessed({0x1000, 0x200, 1, 0}, CacheArray::Lookup::hit);
  EXPECT_EQ(p.ptt(0x100)->hits, 2u);
  EXPECT_EQ(p.ptt(0x200), nullptr);
  p.accessed({0x2000, 0x100, 1, 0}, CacheArray::Lookup::miss);  // the fourth access: the update
  EXPECT_EQ(b.tb.stat("cache.bypass_copyback.updates"), 1);
  // Untracked c (2 fills) beat a (1): a's entry is c's now, untrained.
  EXPECT_EQ(p.rtt(a), nullptr);
  ASSERT_NE(p.rtt(c), nullptr);
  EXPECT_FALSE(p.rtt(c)->trained);
  EXPECT_EQ(b.tb.stat("cache.bypass_copyback.rtt_replacements"), 1);
  // PC 0x100 (acc 2) was used as much as the UPAT's 0x200 (2): it stays, trained with reuse.
  ASSERT_NE(p.ptt(0x100), nullptr);
  EXPECT_TRUE(p.ptt(0x100)->trained);
  EXPECT_TRUE(p.ptt(0x100)->reuse);
  EXPECT_TRUE(p.allocate({0x3000, 0x100, 1, 0}, std::nullopt));
  // A period where 0x100's lines are never hit and 0x200 is used more: 0x200 takes the entry.
  for (int i = 0; i < 3; ++i) p.accessed({0x4000u + 128u * i, 0x200, 1, 0}, CacheArray::Lookup::miss);
  p.accessed({0x5000, 0x100, 1, 0}, CacheArray::Lookup::miss);
  EXPECT_EQ(p.ptt(0x100), nullptr);
  ASSERT_NE(p.ptt(0x200), nullptr);
  EXPECT_EQ(b.tb.stat("cache.bypass_copyback.ptt_replacements"), 1);
  for (int i = 0; i < 4; ++i) p.accessed({0x6000u + 128u * i, 0x200, 1, 0}, CacheArray::Lookup::miss);
  EXPECT_TRUE(p.ptt(0x200)->trained);
  EXPECT_FALSE(p.ptt(0x200)->reuse);  // no hits: its fills bypass the L1
  EXPECT_FALSE(p.allocate({0x7000, 0x200, 1, 0}, std::nullopt));
  CacheRequest owned{0x7000, 0x200, 1, 0, true};
  EXPECT_TRUE(p.allocate(owned, std::nullopt));  // unless the L1 is to copy the line back
  // Region c, now trained with neither reuse (its fills came after the update that made it an
  // entry): its misses bypass the L2.
  p.filled({c, 8, 1, 0});
  p.filled({c + 128, 8, 1, 0});
  for (int i = 0; i < 4; ++i) p.accessed({0x8000u + 128u * i, 0x200, 1, 0}, CacheArray::Lookup::miss);
  EXPECT_TRUE(p.rtt(c)->trained);
  EXPECT_EQ(p.hint({c + 256, 0x200, 1, 0}), region::kBypassL2);
  EXPECT_EQ(b.tb.stat("cache.bypass_copyback.bypass_hints"), 1);
  EXPECT_EQ(b.tb.stat("cache.bypass_copyback.bypassed"), 1);
  // Region table 31 x 96 bits, RTT 1 x (5 + 4 + 48), untracked 16, CB bits 8; PTT 1 x (32 + 3 + 32),
  // UPAT 2 x 16, PTT index 8 x 1.
  EXPECT_EQ(p.storage_bits(), 31u * 96 + 57 + 16 + 8 + 67 + 32 + 8);
}
