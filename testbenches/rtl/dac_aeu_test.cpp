// SPDX-License-Identifier: Apache-2.0
// DAC's address expansion unit (models/dac/aeu.h, rtl/dac/dac_aeu.v): the dissertation's examples
// (§3.4.2: offset 4 gives one line with every word, offset 8 two lines of every other word; Fig.
// 3.6's iterations), then model and RTL driven by one seeded stimulus, cycle for cycle, each
// checked against expand_by_thread (Eq. 3.1 thread by thread), the fallbacks included.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "sim/error.h"

#include "models/dac/aeu.h"

namespace irr::dac {
namespace {

// Runs one warp through a unit: its records in order, and the cycles it was busy.
struct Expansion {
  std::vector<LineRecord> records;
  unsigned cycles = 0;
  bool fallback = false;
};

Expansion expand(AeuBlock& u, std::uint64_t a0, std::int32_t offset, std::uint32_t active) {
  Expansion e;
  AeuIn in;
  in.start = true, in.a0 = a0, in.offset = offset, in.active = active;
  u.step(in);
  in = AeuIn{};
  for (AeuOut o = u.eval(in); o.busy || o.fallback; o = u.eval(in)) {
    e.fallback = e.fallback || o.fallback;
    if (o.busy) ++e.cycles;
    if (o.valid) e.records.push_back({o.line, o.mask});
    u.edge();
  }
  return e;
}

void reset(AeuBlock& u) {
  AeuIn r;
  r.rst = true;
  u.step(r);
}

TEST(DacAeu, DissertationsExamples) {
  for (const char* impl : {"model", "rtl"}) {
    SCOPED_TRACE(impl);
    auto u = make_aeu(impl, 7);
    reset(*u);
    // Offset 4: a warp's 32 threads read one whole line [S L611].
    auto e = expand(*u, 0x80000, 4, ~0u);
    ASSERT_EQ(e.records.size(), 1u);
    EXPECT_EQ(e.records[0], (LineRecord{0x80000, 0xffffffffu}));
    EXPECT_EQ(e.cycles, 1u);
    // Offset 8: two consecutive lines, every other word (bit i = word i: 0x55555555).
    e = expand(*u, 0x80000 + 256 * 3, 8, ~0u);  // warp 3 of the CTA: base + 256·w
    ASSERT_EQ(e.records.size(), 2u);
    EXPECT_EQ(e.records[0], (LineRecord{0x80300, 0x55555555u}));
    EXPECT_EQ(e.records[1], (LineRecord{0x80380, 0x55555555u}));
    // Fig. 3.6, iteration 1: addrA = (0x81000, 4), warp w at 0x81000 + 128·w; inactive threads masked.
    e = expand(*u, 0x81000 + 128 * 2, 4, 0x0000ffffu);
    ASSERT_EQ(e.records.size(), 1u);
    EXPECT_EQ(e.records[0], (LineRecord{0x81100, 0x0000ffffu}));
    // A scalar address (offset 0): one word, whatever the active threads.
    e = expand(*u, 0x1008, 0, 0x80000001u);
    ASSERT_EQ(e.records.size(), 1u);
    EXPECT_EQ(e.records[0], (LineRecord{0x1000, 1u << 2}));
    // Unaligned: a warp of offset 4 straddles two lines.
    e = expand(*u, 0x2040, 4, ~0u);
    ASSERT_EQ(e.records.size(), 2u);
    EXPECT_EQ(e.records[0], (LineRecord{0x2000, 0xffff0000u}));
    EXPECT_EQ(e.records[1], (LineRecord{0x2080, 0x0000ffffu}));
    // Outside the fast path: the SIMT lanes expand it.
    for (std::int32_t off : {12, -4, 256, 2})
      EXPECT_TRUE(expand(*u, 0x3000, off, ~0u).fallback) << off;
    EXPECT_TRUE(expand(*u, 0x3002, 4, ~0u).fallback);  // not word-aligned
  }
}

// The fast path's answers are Eq. 3.1's, and it takes one cycle a line its warp spans.
TEST(DacAeu, ModelAndRtlAgreeCycleByCycleWithTheReference) {
  auto model = make_aeu("model"), rtl = make_aeu("rtl", 11);
  reset(*model);
  reset(*rtl);
  std::mt19937_64 rng(2017);
  const std::int32_t offsets[] = {0, 4, 8, 16, 32, 64, 128, 12, -4, 256, 6};
  unsigned records = 0, fallbacks = 0;
  for (int warp = 0; warp < 3000; ++warp) {
    AeuIn in;
    in.start = true;
    in.a0 = (rng() & 0xffffffffffull) & ~std::uint64_t{rng() % 4 ? 3u : 0u};  // now and then unaligned
    in.offset = offsets[rng() % std::size(offsets)];
    const int kind = static_cast<int>(rng() % 4);
    in.active = kind == 0 ? ~0u : kind == 1 ? static_cast<std::uint32_t>(rng()) : kind == 2 ? 0u : 1u << (rng() % 32);
    const bool holding = rng() % 3 == 0;  // some warps meet a full queue now and then
    std::vector<LineRecord> got;
    bool fallback = false;
    for (int cycle = 0; cycle < 80; ++cycle) {
      in.hold = holding && rng() % 2;
      const AeuOut a = model->eval(in), b = rtl->eval(in);
      ASSERT_EQ(a.busy, b.busy) << "warp " << warp << " cycle " << cycle;
      ASSERT_EQ(a.valid, b.valid) << "warp " << warp << " cycle " << cycle;
      ASSERT_EQ(a.fallback, b.fallback) << "warp " << warp << " cycle " << cycle;
      ASSERT_EQ(a.line, b.line) << "warp " << warp << " cycle " << cycle;
      ASSERT_EQ(a.mask, b.mask) << "warp " << warp << " cycle " << cycle;
      fallback = fallback || a.fallback;
      if (a.valid && !in.hold) got.push_back({a.line, a.mask});  // a held record comes again
      model->edge();
      rtl->edge();
      in.start = false;
      if (cycle > 0 && !a.busy && !a.fallback) break;
    }
    const bool fast = (in.a0 & 3) == 0 && (in.offset == 0 || (in.offset >= 4 && in.offset <= 128 && !(in.offset & (in.offset - 1))));
    ASSERT_EQ(fallback, !fast) << "warp " << warp << " offset " << in.offset;
    if (!fast) {
      ++fallbacks;
      continue;
    }
    ASSERT_EQ(got, expand_by_thread(in.a0, in.offset, in.active)) << "warp " << warp << " a0 " << in.a0 << " offset " << in.offset
                                                                  << " active " << in.active;
    records += static_cast<unsigned>(got.size());
  }
  EXPECT_GT(records, 5000u);
  EXPECT_GT(fallbacks, 300u);
}

// Warps back to back: the next start is taken in the cycle the last line goes, so a stream of
// fast-path warps takes one cycle a line and none between warps; model and RTL agree every cycle
// (busy, done, valid, line, mask, fallback), under random holds, and every warp's records are Eq. 3.1's.
TEST(DacAeu, BackToBackWarpsLoseNoCycle) {
  auto model = make_aeu("model"), rtl = make_aeu("rtl", 5);
  reset(*model);
  reset(*rtl);
  std::mt19937_64 rng(4242);
  const std::int32_t offsets[] = {0, 4, 8, 16, 32, 128, 12};
  struct Warp {
    std::uint64_t a0;
    std::int32_t offset;
    std::uint32_t active;
  };
  std::vector<Warp> warps;
  for (int i = 0; i < 2000; ++i)
    warps.push_back({(rng() & 0xfffffffffull) & ~std::uint64_t{3}, offsets[rng() % std::size(offsets)],
                     rng() % 3 ? ~0u : static_cast<std::uint32_t>(rng()) | 1u});
  const bool holding = true;
  std::size_t next = 0, current = 0;
  std::vector<std::vector<LineRecord>> got(warps.size());
  std::vector<bool> fell_back(warps.size());
  std::uint64_t cycles = 0, held = 0;
  bool started = false;
  for (int guard = 0; guard < 400000; ++guard) {
    AeuIn in;
    in.hold = holding && rng() % 8 == 0;
    const AeuOut r = model->eval(AeuIn{});  // registered outputs
    // A start is offered whenever one could be taken: idle, or the last line going now.
    const bool free_now = !r.busy || (r.done && !(in.hold && r.valid));
    if (next < warps.size() && free_now) {
      in.start = true;
      in.a0 = warps[next].a0;
      in.offset = warps[next].offset;
      in.active = warps[next].active;
    }
    const AeuOut a = model->eval(in), b = rtl->eval(in);
    ASSERT_EQ(a.busy, b.busy) << guard;
    ASSERT_EQ(a.done, b.done) << guard;
    ASSERT_EQ(a.valid, b.valid) << guard;
    ASSERT_EQ(a.line, b.line) << guard;
    ASSERT_EQ(a.mask, b.mask) << guard;
    ASSERT_EQ(a.fallback, b.fallback) << guard;
    if (a.fallback) fell_back[current] = true;
    if (a.valid && !in.hold) got[current].push_back({a.line, a.mask});
    held += a.valid && in.hold;
    if (in.start) {
      current = next++;
      started = true;
    }
    model->edge();
    rtl->edge();
    ++cycles;
    if (started && next == warps.size() && !model->eval(AeuIn{}).busy && !model->eval(AeuIn{}).fallback) break;
  }
  ASSERT_EQ(next, warps.size());
  std::uint64_t lines = 0, fallbacks = 0;
  for (std::size_t i = 0; i < warps.size(); ++i) {
    const auto want = expand_by_thread(warps[i].a0, warps[i].offset, warps[i].active);
    if (warps[i].offset == 12) {
      EXPECT_TRUE(fell_back[i]) << i;
      ++fallbacks;
      continue;
    }
    ASSERT_EQ(got[i], want) << "warp " << i;
    const std::uint64_t spanned = warps[i].offset == 0 ? 1 : ((warps[i].a0 >> 2 & 31) + (31ull << __builtin_ctz(warps[i].offset / 4))) / 32 + 1;
    lines += spanned;
  }
  // One cycle a line spanned (lines with no active word included), one a held record, one a
  // fallback; nothing between warps.
  EXPECT_EQ(cycles, lines + held + fallbacks + 1);
}

// The RTL writes its waveform (FST) when asked: every register of the unit, for GTKWave.
TEST(DacAeu, RtlWritesAWaveform) {
  const std::string fst = ::testing::TempDir() + "/dac_aeu.fst";
  {
    auto u = make_aeu("rtl", 3, fst);
    reset(*u);
    expand(*u, 0x4000, 8, ~0u);
  }
  std::FILE* f = std::fopen(fst.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::fseek(f, 0, SEEK_END);
  EXPECT_GT(std::ftell(f), 200);
  std::fclose(f);
  EXPECT_THROW(make_aeu("verilog"), Error);
}

}  // namespace
}  // namespace irr::dac
