// SPDX-License-Identifier: Apache-2.0
// DAC's per-warp address queues (models/dac/pwaq.h, rtl/dac/dac_pwaq.v): model and RTL driven by
// one seeded stimulus, every output compared every cycle, and both checked against a scoreboard of
// per-warp FIFOs written from the port rules (a record comes out once, in order, to the warp it
// was for; a full warp's push and an empty warp's pop are refused; the pop wins the cycle).
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>

#include "models/dac/pwaq.h"
#include "sim/error.h"

namespace irr::dac {
namespace {

void run(PwaqParams p, int cycles, std::uint64_t seed) {
  auto model = make_pwaq("model", p), rtl = make_pwaq("rtl", p, seed);
  PwaqIn r;
  r.rst = true;
  model->step(r);
  rtl->step(r);
  std::mt19937_64 rng(seed);
  std::map<std::uint32_t, std::deque<std::pair<std::uint64_t, std::uint32_t>>> board;
  std::pair<std::uint64_t, std::uint32_t> expected{};
  bool expect_read = false;
  unsigned pushes = 0, pops = 0, refused = 0;
  for (int c = 0; c < cycles; ++c) {
    PwaqIn in;
    in.push = rng() % 3 != 0;
    in.push_warp = static_cast<std::uint32_t>(rng() % (p.warps + 1));  // now and then no such warp
    in.push_line = rng() & ((std::uint64_t{1} << 33) - 1);
    in.push_mask = static_cast<std::uint32_t>(rng());
    in.pop = rng() % 2 != 0;
    in.pop_warp = static_cast<std::uint32_t>(rng() % (p.warps + 1));
    const PwaqOut a = model->eval(in), b = rtl->eval(in);
    ASSERT_EQ(a.push_ok, b.push_ok) << "cycle " << c;
    ASSERT_EQ(a.pop_ok, b.pop_ok) << "cycle " << c;
    ASSERT_EQ(a.rd_valid, b.rd_valid) << "cycle " << c;
    ASSERT_EQ(a.push_count, b.push_count) << "cycle " << c;
    ASSERT_EQ(a.rd_valid, expect_read) << "cycle " << c;
    if (a.rd_valid) {
      ASSERT_EQ(a.rd_line, b.rd_line) << "cycle " << c;
      ASSERT_EQ(a.rd_mask, b.rd_mask) << "cycle " << c;
      ASSERT_EQ(std::make_pair(a.rd_line, a.rd_mask), expected) << "cycle " << c;
    }
    // The scoreboard's own verdict on this cycle's requests.
    auto& pq = board[in.pop_warp];
    const bool pop = in.pop && in.pop_warp < p.warps && !pq.empty();
    auto& sq = board[in.push_warp];
    const bool push = in.push && in.push_warp < p.warps && (p.ports > 1 || !pop) && sq.size() < p.depth;
    ASSERT_EQ(a.pop_ok, pop) << "cycle " << c;
    ASSERT_EQ(a.push_ok, push) << "cycle " << c;
    expect_read = pop;
    if (pop) {
      expected = pq.front();
      pq.pop_front();
      ++pops;
    }
    if (push) {
      sq.push_back({in.push_line, in.push_mask});
      ++pushes;
    }
    refused += (in.push && !push) + (in.pop && !pop);
    model->edge();
    rtl->edge();
  }
  EXPECT_GT(pushes, static_cast<unsigned>(cycles) / 10);
  EXPECT_GT(pops, static_cast<unsigned>(cycles) / 10);
  EXPECT_GT(refused, static_cast<unsigned>(cycles) / 10);
}

TEST(DacPwaq, SmallQueuesModelAndRtlAgreeWithTheScoreboard) { run({3, 2}, 20000, 5); }
TEST(DacPwaq, TableThreeOneQueuesModelAndRtlAgreeWithTheScoreboard) { run({48, 4}, 20000, 6); }
TEST(DacPwaq, TwoPortQueuesModelAndRtlAgreeWithTheScoreboard) {
  run({3, 2, 2}, 20000, 7);
  run({48, 4, 2}, 20000, 8);
}

TEST(DacPwaq, UnbuiltParametersAreNamed) {
  try {
    make_pwaq("rtl", {7, 7});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no RTL build for 7 warps x 7 (built: 48 warps x 4, 48 warps x 4, 2 ports, 3 warps x 2"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(make_pwaq("model", {7, 7}));
  EXPECT_THROW(make_pwaq("model", {0, 4}), Error);
}

}  // namespace
}  // namespace irr::dac
