// SPDX-License-Identifier: Apache-2.0
// The L1 prefetchers the graph-memory thesis compares spare-register prefetching with [G L589]
// (models/mem/prefetch.h): what each names for a given access stream.
#include <gtest/gtest.h>

#include "models/mem/prefetch.h"

using namespace irr::mem;

namespace {
constexpr std::uint32_t kLine = 128;

std::vector<std::uint64_t> train(Prefetcher& p, std::uint64_t line, std::uint64_t pc = 0x40, bool miss = true) {
  std::vector<std::uint64_t> out;
  p.train({line, pc, 0, miss}, out);
  return out;
}
}  // namespace

// The RPT: a PC's second equal stride makes it steady, which prefetches a stride on; a broken
// stride stops it; another PC or region has its own entry.
TEST(Prefetch, StrideFollowsAPcsSteadyStride) {
  StridePrefetcher p(1024, 16, kLine);
  EXPECT_TRUE(train(p, 0).empty());                     // initial
  EXPECT_TRUE(train(p, 256).empty());                   // a stride seen (transient)
  EXPECT_EQ(train(p, 512), std::vector<std::uint64_t>{768});  // steady
  EXPECT_EQ(train(p, 768), std::vector<std::uint64_t>{1024});
  EXPECT_TRUE(train(p, 2048).empty());                  // broken: back to initial
  EXPECT_TRUE(train(p, 0x1000, 0x80).empty());          // another PC starts afresh
  EXPECT_TRUE(train(p, 0x1000 + (1 << 16), 0x80).empty());  // ... and another region
  EXPECT_EQ(p.storage_bits(), 1024u * 130);
}

// Streams: two misses a step apart the same way confirm one, which then runs `degree` lines ahead of
// each access, no further than `distance` past it.
TEST(Prefetch, StreamRunsAheadOfAConfirmedDirection) {
  StreamPrefetcher p(512, 16, 4, 16, kLine);
  EXPECT_TRUE(train(p, 10 * kLine).empty());
  EXPECT_TRUE(train(p, 11 * kLine).empty());
  EXPECT_EQ(train(p, 12 * kLine), (std::vector<std::uint64_t>{13 * kLine, 14 * kLine, 15 * kLine, 16 * kLine}));
  EXPECT_EQ(train(p, 13 * kLine, 0x40, false), (std::vector<std::uint64_t>{17 * kLine, 18 * kLine, 19 * kLine, 20 * kLine}));
  // Downwards too; a hit far from every stream starts none.
  EXPECT_TRUE(train(p, 1000 * kLine).empty());
  EXPECT_TRUE(train(p, 998 * kLine).empty());
  EXPECT_EQ(train(p, 997 * kLine).front(), 996 * kLine);
  EXPECT_TRUE(train(p, 5000 * kLine, 0x40, false).empty());
}

// AC/DC: the zone's last two deltas found earlier in its history; the deltas after them follow.
TEST(Prefetch, GhbRepeatsTheDeltasThatFollowedTheLatestPair) {
  GhbPrefetcher p(1024, 12, 128, 2, kLine);
  for (std::uint64_t n : {0, 1, 3, 4}) EXPECT_TRUE(train(p, n * kLine).empty()) << n;
  // History 6, 4, 3, 1, 0: deltas 2, 1, 2, 1 — the pair (2, 1) seen before, followed by 1 and 2.
  EXPECT_EQ(train(p, 6 * kLine), (std::vector<std::uint64_t>{7 * kLine, 9 * kLine}));
  // History 7, 6, 4, 3, 1, 0: deltas 1, 2, 1, 2, 1 — (1, 2) followed by 2 and 1.
  EXPECT_EQ(train(p, 7 * kLine), (std::vector<std::uint64_t>{9 * kLine, 10 * kLine}));
  EXPECT_TRUE(train(p, 8 * kLine, 0x40, false).empty());  // hits are not kept
  // Another zone has its own history.
  EXPECT_TRUE(train(p, (1ull << 20) * kLine).empty());
}

// MTA: a PC's accesses a line apart from warp to warp make an inter-thread stride, prefetched for
// the next `degree` warps; a warp's own repeated stride, for its next iteration; lines evicted
// unused throttle it (half the period's outcomes unused halves the degree), useful ones restore it.
TEST(Prefetch, MtaPrefetchesForTheNextWarpsAndThrottles) {
  MtaPrefetcher p(256, 4, 8, kLine);
  auto warp = [&](std::uint32_t w, std::uint64_t line) {
    std::vector<std::uint64_t> out;
    p.train({line * kLine, 0x40, w, true}, out);
    return out;
  };
  EXPECT_TRUE(warp(0, 100).empty());
  EXPECT_TRUE(warp(1, 101).empty());
  EXPECT_TRUE(warp(2, 102).empty());  // the stride seen twice; a third time makes it confident
  EXPECT_EQ(warp(3, 103), (std::vector<std::uint64_t>{104 * kLine, 105 * kLine, 106 * kLine, 107 * kLine}));
  EXPECT_EQ(warp(5, 105).size(), 4u);  // two warps on: the same stride a warp
  for (int i = 0; i < 8; ++i) p.outcome(false);
  EXPECT_EQ(p.degree(), 2u);
  for (int i = 0; i < 8; ++i) p.outcome(false);
  EXPECT_EQ(p.degree(), 1u);
  for (int i = 0; i < 8; ++i) p.outcome(true);
  EXPECT_EQ(p.degree(), 2u);
  // Intra-warp: warp 9's own accesses 3 lines apart, at another PC.
  std::vector<std::uint64_t> out;
  for (std::uint64_t line : {10, 13, 16, 19}) {  // the stride seen three times, as the inter-thread one
    out.clear();
    p.train({line * kLine, 0x80, 9, true}, out);
  }
  EXPECT_EQ(out, std::vector<std::uint64_t>{22 * kLine});
}
