// SPDX-License-Identifier: Apache-2.0
// Memory-system parts without a simulation: coalescer, backing store, cache array, address map,
// trace reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "models/mem/address_map.h"
#include "models/mem/backing_store.h"
#include "models/mem/cache.h"
#include "models/mem/coalescer.h"
#include "models/mem/traffic.h"
#include "testbenches/common/testing.h"

using namespace irr;
using namespace irr::mem;

TEST(Coalescer, MinimalLineRequestsWithSectorMasks) {
  Coalescer c(128, 32);
  std::uint64_t a[32];
  for (unsigned t = 0; t < 32; ++t) a[t] = 0x1000 + 4 * t;  // 128 consecutive bytes: one line, 4 sectors
  auto r = c.coalesce(a, ~0u, 4);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].line, 0x1000u);
  EXPECT_EQ(r[0].sectors, 0xFu);
  EXPECT_EQ(r[0].threads, ~0u);
  for (unsigned t = 0; t < 32; ++t) a[t] = 0x1040 + 4 * t;  // misaligned: two lines
  r = c.coalesce(a, ~0u, 4);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].sectors, 0xCu);
  EXPECT_EQ(r[1].line, 0x1080u);
  EXPECT_EQ(r[1].sectors, 0x3u);
  for (unsigned t = 0; t < 32; ++t) a[t] = 0x10000 + 128 * t;  // a stride of a line: 32 requests
  EXPECT_EQ(c.coalesce(a, ~0u, 4).size(), 32u);
  EXPECT_EQ(c.coalesce(a, 0x5u, 4).size(), 2u);  // only active threads count
  a[0] = 0x107E;                                  // an 8-byte access crossing a line
  r = c.coalesce(a, 1u, 8);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].sectors, 0x8u);
  EXPECT_EQ(r[1].sectors, 0x1u);
  EXPECT_THROW(Coalescer(100, 32), std::invalid_argument);
}

namespace {

// Byte by byte, in thread order: the lines (in order of first touch), sectors and threads.
std::vector<LineAccess> coalesce_bytewise(std::uint32_t line, std::uint32_t sector, const std::uint64_t* a,
                                          std::uint32_t mask, unsigned size) {
  std::vector<LineAccess> out;
  for (unsigned t = 0; t < 32; ++t)
    for (std::uint64_t b = a[t]; mask >> t & 1 && b < a[t] + size; ++b) {
      const std::uint64_t l = b / line * line;
      auto it = std::find_if(out.begin(), out.end(), [&](const LineAccess& x) { return x.line == l; });
      if (it == out.end()) it = out.insert(out.end(), {l, 0, 0});
      it->sectors |= 1u << ((b - l) / sector);
      it->threads |= 1u << t;
    }
  return out;
}

}  // namespace

TEST(Coalescer, ShiftsAndDivisionsAgreeWithAByteByByteCount) {
  // Powers of two (shifts; 4-byte sectors make 32 per line, the top sector bit included) and not
  // (divisions), on random gathers, runs and line-crossing accesses, into a reused vector.
  std::mt19937_64 rng(7);
  for (const auto& [line, sector] : {std::pair{128u, 32u}, {128u, 4u}, {64u, 64u}, {96u, 32u}, {120u, 40u}}) {
    const Coalescer c(line, sector);
    std::vector<LineAccess> got;
    for (int i = 0; i < 300; ++i) {
      std::uint64_t a[32];
      const std::uint64_t base = rng() % 100000;
      for (unsigned t = 0; t < 32; ++t) a[t] = i % 2 ? base + rng() % 4096 : base + t * (1 + i % 9);
      const unsigned size = std::array<unsigned, 4>{1, 4, 8, 16}[rng() % 4];
      const auto mask = static_cast<std::uint32_t>(rng());
      c.coalesce(a, mask, size, got);
      const auto want = coalesce_bytewise(line, sector, a, mask, size);
      ASSERT_EQ(got.size(), want.size()) << line << "/" << sector << " case " << i;
      for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(got[k].line, want[k].line);
        EXPECT_EQ(got[k].sectors, want[k].sectors) << line << "/" << sector << " case " << i << " line " << k;
        EXPECT_EQ(got[k].threads, want[k].threads);
      }
    }
  }
}

TEST(BackingStore, SparsePagesAndAtomics) {
  BackingStore m;
  EXPECT_EQ(m.load<std::uint32_t>(0xdead0000), 0u);  // unwritten memory reads as zero
  EXPECT_EQ(m.pages(), 0u);
  m.store<std::uint64_t>(0xFFC, 0x1122334455667788ull);  // crosses a page boundary
  EXPECT_EQ(m.load<std::uint64_t>(0xFFC), 0x1122334455667788ull);
  EXPECT_EQ(m.pages(), 2u);
  m.store<std::uint32_t>(1ull << 60, 7);  // anywhere in 64 bits
  using tlm_glue::AtomicOp;
  EXPECT_EQ(m.atomic(1ull << 60, 4, AtomicOp::add, 5), 7u);
  EXPECT_EQ(m.load<std::uint32_t>(1ull << 60), 12u);
  EXPECT_EQ(m.atomic(1ull << 60, 4, AtomicOp::cas, 12, 99), 12u);
  EXPECT_EQ(m.load<std::uint32_t>(1ull << 60), 99u);
  EXPECT_EQ(m.atomic(1ull << 60, 4, AtomicOp::cas, 12, 5), 99u);  // compare fails: unchanged
  EXPECT_EQ(m.load<std::uint32_t>(1ull << 60), 99u);
  m.store<std::uint32_t>(0x2000, 0xFFFFFFFF);
  m.atomic(0x2000, 4, AtomicOp::add, 1);  // wraps at 32 bits, leaves the next word alone
  EXPECT_EQ(m.load<std::uint64_t>(0x2000), 0u);
  m.store<std::uint32_t>(0x3000, 3);
  m.atomic(0x3000, 4, AtomicOp::inc, 3);  // PTX atom.inc: old >= operand ? 0 : old + 1
  EXPECT_EQ(m.load<std::uint32_t>(0x3000), 0u);
  EXPECT_THROW(m.atomic(0x3000, 2, AtomicOp::add, 1), std::invalid_argument);
}

TEST(BackingStore, AccessesAcrossRegionsOfPages) {
  // Pages are kept in tables of 16 MiB regions: a copy over a region's end, and gathers that
  // alternate between regions, see every byte where it was written.
  BackingStore m;
  constexpr std::uint64_t kRegion = 16ull << 20;
  std::vector<std::uint8_t> in(3 * BackingStore::kPageBytes), out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<std::uint8_t>(i * 7 + 1);
  m.write(kRegion - BackingStore::kPageBytes - 5, in.data(), in.size());  // its last page, then the next region's
  m.read(kRegion - BackingStore::kPageBytes - 5, out.data(), out.size());
  EXPECT_EQ(in, out);
  EXPECT_EQ(m.pages(), 4u);
  for (std::uint32_t i = 0; i < 64; ++i) m.store<std::uint32_t>((i % 4) * 5 * kRegion + i * 4096, i + 1);
  for (std::uint32_t i = 0; i < 64; ++i) EXPECT_EQ(m.load<std::uint32_t>((i % 4) * 5 * kRegion + i * 4096), i + 1);
  EXPECT_EQ(m.load<std::uint32_t>(7 * kRegion), 0u);  // a region never touched
  EXPECT_EQ(m.load<std::uint32_t>(kRegion + 100 * 4096), 0u);  // an untouched page of a touched region
}

// Sampled simulation's undo journal: a rollback puts back every byte (stores, atomics, pages
// made since) and a commit keeps the writes.
TEST(BackingStore, JournalRollsBackAndCommits) {
  BackingStore m;
  m.store<std::uint64_t>(0x1000, 42);
  m.store<std::uint32_t>(0x5000, 7);
  m.begin_journal();
  EXPECT_TRUE(m.journaling());
  EXPECT_THROW(m.begin_journal(), std::logic_error);
  m.store<std::uint64_t>(0x1000, 43);
  m.store<std::uint64_t>(0x1008, 44);  // the same page again
  m.store<std::uint64_t>(0xFFC, ~0ull);  // over a page boundary, into a page that did not exist
  m.atomic(0x5000, 4, tlm_glue::AtomicOp::add, 1);
  m.store<std::uint32_t>(1ull << 40, 9);  // a new region
  EXPECT_EQ(m.pages(), 4u);
  m.rollback_journal();
  EXPECT_FALSE(m.journaling());
  EXPECT_EQ(m.load<std::uint64_t>(0x1000), 42u);
  EXPECT_EQ(m.load<std::uint64_t>(0x1008), 0u);
  EXPECT_EQ(m.load<std::uint64_t>(0xFF8), 0u);
  EXPECT_EQ(m.load<std::uint32_t>(0x5000), 7u);
  EXPECT_EQ(m.load<std::uint32_t>(1ull << 40), 0u);
  EXPECT_EQ(m.pages(), 2u);
  m.begin_journal();
  m.store<std::uint64_t>(0x1000, 45);
  m.store<std::uint32_t>(0x9000, 1);
  m.commit_journal();
  m.store<std::uint32_t>(0x9004, 2);  // no journal: nothing kept
  EXPECT_EQ(m.load<std::uint64_t>(0x1000), 45u);
  EXPECT_EQ(m.load<std::uint32_t>(0x9000), 1u);
  EXPECT_EQ(m.pages(), 3u);
  m.begin_journal();  // a rollback after a commit undoes only what came since
  m.store<std::uint64_t>(0x1000, 46);
  m.rollback_journal();
  EXPECT_EQ(m.load<std::uint64_t>(0x1000), 45u);
}

TEST(CacheArray, LruSetsLocksAndNonPowerOfTwoSets) {
  CacheArray c(786 * 1024, 8, 128, "l2");  // the papers' 786 KB: 786 sets
  EXPECT_EQ(c.sets(), 786u);
  CacheArray small(2 * 128 * 3, 2, 128, "x");  // 3 sets of 2 ways
  const std::uint64_t s0[] = {0, 3 * 128, 6 * 128};  // three lines of set 0
  EXPECT_FALSE(small.fill(s0[0], false, true).has_value());
  EXPECT_FALSE(small.fill(s0[1], true, true).has_value());
  small.access(s0[0]);  // s0[1] is now LRU
  auto ev = small.fill(s0[2], false, true);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->line, s0[1]);
  EXPECT_TRUE(ev->dirty);
  small.lock(s0[0], true);
  small.lock(s0[2], true);
  bool installed = true;
  EXPECT_FALSE(small.fill(s0[1], false, true, &installed).has_value());
  EXPECT_FALSE(installed);  // every way locked
  EXPECT_THROW(CacheArray(1000, 4, 128, "bad"), Error);
}

// A fill's way, found in the same walk that looks for the line: the first free way, else the
// least recently used one; locked ways are never chosen, but a locked line is still found.
TEST(CacheArray, FillTakesTheFirstFreeWayElseTheLruUnlocked) {
  CacheArray c(4 * 128, 4, 128, "x");  // one set of 4 ways
  auto line = [](std::uint64_t i) { return i * 128; };
  for (std::uint64_t i = 0; i < 4; ++i) EXPECT_FALSE(c.fill(line(i), false, true).has_value());
  EXPECT_EQ(c.victim(line(5)), line(0));
  EXPECT_FALSE(c.victim(line(2)).has_value());  // present: nothing leaves
  ASSERT_TRUE(c.invalidate(line(1)).has_value());
  EXPECT_FALSE(c.victim(line(5)).has_value());  // a free way, though line 0 is older
  EXPECT_FALSE(c.fill(line(4), false, true).has_value());
  c.lock(line(0), true);
  EXPECT_EQ(c.victim(line(5)), line(2));  // the oldest unlocked
  EXPECT_FALSE(c.fill(line(2), false, true).has_value());  // a hit: refreshed in place
  EXPECT_EQ(c.victim(line(5)), line(3));
  c.lock(line(3), true);
  bool installed = false;
  EXPECT_FALSE(c.fill(line(3), true, true, &installed).has_value());  // a locked line is found too
  EXPECT_TRUE(installed);
  auto ev = c.fill(line(5), false, true);
  ASSERT_TRUE(ev.has_value());
  EXPECT_EQ(ev->line, line(4));  // 0 and 3 locked, 2 refreshed
  ASSERT_TRUE(c.invalidate(line(2)).has_value());
  EXPECT_FALSE(c.fill(line(6), false, true).has_value());  // into the freed way
  EXPECT_TRUE(c.contains(line(0)) && c.contains(line(3)) && c.contains(line(5)) && c.contains(line(6)));
  EXPECT_TRUE(c.invalidate(line(3))->dirty);  // the hit's dirty bit kept
}

// An L2 slice of 6 (or 8) partitions interleaved by 256-byte chunks sees every 6th (8th) chunk:
// indexed by the line address its sets are half (an eighth) used; indexed by its own address
// (l2.set_index: local) all of them, and a footprint of its capacity fits.
std::size_t sets_used(std::uint32_t partitions, bool local, std::size_t* resident) {
  mem::AddressMap map;
  map.partitions = partitions;
  mem::CacheArray slice(128 * 1024, 8, 128, "slice");  // 128 sets
  if (local) slice.index_locally(map);
  std::set<std::uint32_t> sets;
  std::vector<std::uint64_t> lines;
  for (std::uint64_t a = 0; lines.size() < 1024; a += 128)  // the slice's capacity, 1,024 lines
    if (map.partition(a) == 0) lines.push_back(a);
  for (std::uint64_t l : lines) {
    sets.insert(slice.set_of(l));
    slice.fill(l, false, true);
  }
  *resident = static_cast<std::size_t>(std::count_if(lines.begin(), lines.end(), [&](std::uint64_t l) { return slice.contains(l); }));
  return sets.size();
}

TEST(CacheArray, AnL2SliceIndexedByItsOwnAddressUsesEverySet) {
  std::size_t resident = 0;
  EXPECT_EQ(sets_used(6, false, &resident), 64u);
  EXPECT_EQ(resident, 512u);
  EXPECT_EQ(sets_used(8, false, &resident), 16u);
  EXPECT_EQ(resident, 128u);
  for (std::uint32_t p : {6u, 8u}) {
    EXPECT_EQ(sets_used(p, true, &resident), 128u) << p;
    EXPECT_EQ(resident, 1024u) << p;
  }
}

TEST(CacheArray, SetsFoundByShiftingOrDividing) {
  // set_of shifts and masks when line size and sets are powers of two: the same sets as dividing.
  for (const auto& [size, ways, line] : {std::tuple{16384u, 4u, 128u}, {786u * 1024, 8u, 128u}, {3u * 96 * 2, 2u, 96u}}) {
    CacheArray c(size, ways, line, "x");
    for (std::uint64_t a = 0; a < 1u << 20; a += 4088) EXPECT_EQ(c.set_of(a), a / line % c.sets()) << size << " " << a;
  }
}

TEST(Mshr, RefusesOnlyWhatOnlyAFillCanLetIn) {
  Mshr<int> m(2, 2);  // two lines, two requests per line
  EXPECT_FALSE(m.refuses(0));
  m.allocate(0, 1);
  EXPECT_FALSE(m.refuses(0));    // a merge slot left
  m.merge(0, 2);
  EXPECT_TRUE(m.refuses(0));     // merge slots full
  EXPECT_FALSE(m.refuses(128));  // an MSHR free
  m.allocate(128, 3);
  EXPECT_TRUE(m.refuses(256));   // every MSHR taken
  std::vector<int> done;
  m.release(0, kWholeLine, [](int) { return 1u; }, done);
  EXPECT_EQ(done, (std::vector<int>{1, 2}));
  EXPECT_FALSE(m.refuses(0));
  EXPECT_FALSE(m.refuses(256));
}

TEST(Mshr, EachFetchReleasesTheRequestsItCompletesInOrder) {
  Mshr<int> m(1, 4);
  auto sectors_of = [](int r) { return r == 2 ? 2u : 1u; };  // request 2 wants sector 1, the others sector 0
  m.allocate(0, 1, 1u);
  m.merge(0, 2);
  m.merge(0, 3);
  m.widen(0, 2u);  // a second fetch, for sector 1
  std::vector<int> done{7};  // the caller's list: cleared first
  m.release(0, 1u, sectors_of, done);
  EXPECT_EQ(done, (std::vector<int>{1, 3}));
  EXPECT_EQ(m.requests(0), (std::vector<int>{2}));
  m.release(0, 2u, sectors_of, done);
  EXPECT_EQ(done, (std::vector<int>{2}));
  EXPECT_FALSE(m.pending(0));
  m.allocate(128, 4);  // the entry again, its list empty
  EXPECT_EQ(m.requests(128), (std::vector<int>{4}));
  m.release(256, 1u, sectors_of, done);  // no such line
  EXPECT_TRUE(done.empty());
}

TEST(AddressMap, InterleavingAndLocalAddresses) {
  AddressMap m{6, 256, false};
  EXPECT_EQ(m.partition(0), 0u);
  EXPECT_EQ(m.partition(256), 1u);
  EXPECT_EQ(m.partition(6 * 256), 0u);
  EXPECT_EQ(m.local(6 * 256 + 4), 256u + 4);
  AddressMap x{4, 256, true};
  std::vector<int> hits(4, 0);
  for (std::uint64_t a = 0; a < 64 * 4 * 256; a += 4 * 256) ++hits[x.partition(a)];  // a stride of P chunks
  for (int h : hits) EXPECT_GT(h, 0);  // the hash spreads what plain interleaving sends to one partition
}

TEST(Trace, ReadsAndRejectsWithPositions) {
  irr::testing::TempDir d;
  auto r = read_trace(d.write("ok.trace", "# sm warp pc op size addresses\n0 1 4a ld 4 1000 1004 - 100c\n1 0 0 st 8 2000\n"), 2);
  ASSERT_EQ(r[0].size(), 1u);
  EXPECT_EQ(r[0][0].warp, 1u);
  EXPECT_EQ(r[0][0].pc, 0x4au);
  EXPECT_EQ(r[0][0].mask, 0xBu);
  EXPECT_EQ(r[0][0].addr[3], 0x100cu);
  EXPECT_EQ(r[1][0].access, tlm_glue::Access::store);
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"0 0 0 ld 4 zz\n", ":1: 'zz' is not a hexadecimal address"},
           {"\n5 0 0 ld 4 10\n", ":2: SM 5 does not exist"},
           {"0 0 0 jump 4 10\n", ":1: 'jump' is not ld, ld.cg, st, atom or fetch"},
           {"0 0 0 ld 3 10\n", ":1: access size must be"},
           {"0 0 0 ld 4 - -\n", ":1: no active thread"}}) {
    try {
      read_trace(d.write("bad.trace", text), 2);
      ADD_FAILURE() << text;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bad.trace" + why), std::string::npos) << e.what();
      EXPECT_EQ(e.exit_code(), 2);
    }
  }
}
