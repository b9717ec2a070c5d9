// SPDX-License-Identifier: Apache-2.0
// The HWWL's RTL islands (rtl/hwwl/): each build's Verilated RTL and the simulator's own model
// against an independent reference, under seeded random stimulus with coverage bins and in
// directed tables written from docs/hwwl.md.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/hwwl/bank.h"
#include "models/hwwl/blocks.h"
#include "sim/error.h"
#include "sim/probe.h"
#include "testbenches/common/cosim.h"
#include "testbenches/rtl/hwwl_bank_reference.h"
#include "testbenches/rtl/hwwl_wru_reference.h"

using namespace irr;
using namespace irr::hwwl;
using namespace irr::testing;

namespace {

CosimSpec<BankIn, BankOut> bank_spec(BankParams p) {
  CosimSpec<BankIn, BankOut> s;
  s.block = "hwwl_bank";
  const auto u = [](auto f) { return [f](const BankOut& o) { return static_cast<std::uint64_t>(f(o)); }; };
  s.signals = {
      {"op_ok", u([](const BankOut& o) { return o.op_ok; })},
      {"reserve_ok", u([](const BankOut& o) { return o.reserve_ok; })},
      {"swapped", u([](const BankOut& o) { return o.swapped; })},
      {"rd_valid", u([](const BankOut& o) { return o.rd_valid; })},
      {"rd_data", u([](const BankOut& o) { return o.rd_data; }), [](const BankOut& o) { return o.rd_valid; }},
      {"pullable", u([](const BankOut& o) { return o.pullable; })},
      {"reserved", u([](const BankOut& o) { return o.reserved; })},
      {"occupied", u([](const BankOut& o) { return o.occupied; })},
      {"push_occupied", u([](const BankOut& o) { return o.push_occupied; })},
      {"push_full", u([](const BankOut& o) { return o.push_full; })},
      {"empty", u([](const BankOut& o) { return o.empty; })},
      {"greedy", u([](const BankOut& o) { return o.greedy; })},
      {"needy", u([](const BankOut& o) { return o.needy; })},
      {"retired", u([](const BankOut& o) { return o.retired; })},
      {"double_mode", u([](const BankOut& o) { return o.double_mode; })},
      {"pull_part", u([](const BankOut& o) { return o.pull_part; })},
  };
  const unsigned t = p.threshold;
  const auto op = [](BankOp want) { return [want](const BankIn& i, const BankOut& o) { return i.op == want && o.op_ok; }; };
  const auto refused = [](BankOp want) { return [want](const BankIn& i, const BankOut& o) { return i.op == want && !o.op_ok; }; };
  s.bins = {
      {"pull", op(BankOp::pull)},
      {"pull from an empty pull side", refused(BankOp::pull)},
      {"push", op(BankOp::push)},
      {"push to a full push side", refused(BankOp::push)},
      {"push refused for reserved entries (single)",
       [](const BankIn& i, const BankOut& o) { return i.op == BankOp::push && !o.op_ok && !o.double_mode && o.reserved > 0; }},
      {"take (redistribution out)", op(BankOp::take)},
      {"put (redistribution in)", op(BankOp::put)},
      {"put to a full pull side", refused(BankOp::put)},
      {"fill a reserved entry", op(BankOp::fill)},
      {"fill without a reservation", refused(BankOp::fill)},
      {"reserve", [](const BankIn& i, const BankOut& o) { return i.reserve && o.reserve_ok; }},
      {"reserve refused", [](const BankIn& i, const BankOut& o) { return i.reserve && !o.reserve_ok; }},
      {"swap at a kernel end", [](const BankIn&, const BankOut& o) { return o.swapped; }},
      {"no swap: pull side not empty",
       [](const BankIn& i, const BankOut& o) { return i.kernel_end && o.double_mode && !o.empty; }},
      {"pulls from partition 1", [](const BankIn& i, const BankOut& o) { return i.op == BankOp::pull && o.op_ok && o.pull_part; }},
      {"greedy", [](const BankIn&, const BankOut& o) { return o.greedy; }},
      {"needy", [](const BankIn&, const BankOut& o) { return o.needy; }},
      {"at the threshold", [t](const BankIn&, const BankOut& o) { return o.occupied == t; }},
      {"push revives a retired bank",
       [](const BankIn& i, const BankOut& o) { return o.retired && i.op == BankOp::push && o.op_ok; }},
      {"double: push side full, pull side not",
       [p](const BankIn&, const BankOut& o) { return o.double_mode && o.push_full && o.occupied < p.depth / 2; }},
      {"reset into double-buffer mode", [](const BankIn& i, const BankOut&) { return i.rst && i.cfg_double; }},
      {"reset into single-buffer mode", [](const BankIn& i, const BankOut&) { return i.rst && !i.cfg_double; }},
  };
  // Phases of 4 x depth cycles leaning to filling, draining or neither; resets now and then into
  // either mode; kernel ends mostly on quiet cycles so that swaps happen.
  s.stimulus = [p](std::mt19937_64& rng, std::uint64_t cycle) {
    std::uniform_real_distribution<double> u(0, 1);
    const std::uint64_t phase = (cycle / (4 * p.depth)) % 3;
    static const double weights[3][6] = {  // none pull push take put fill
        {0.10, 0.10, 0.45, 0.05, 0.15, 0.15},
        {0.25, 0.35, 0.08, 0.15, 0.05, 0.12},
        {0.15, 0.20, 0.25, 0.10, 0.15, 0.15}};
    double x = u(rng);
    int op = 0;
    while (op < 5 && x >= weights[phase][op]) x -= weights[phase][op++];
    BankIn in;
    in.rst = cycle == 0 || u(rng) < 0.003;
    in.cfg_double = u(rng) < 0.6;
    in.op = static_cast<BankOp>(op);
    in.wdata = static_cast<std::uint32_t>(rng());
    in.reserve = u(rng) < 0.12;
    in.kernel_end = u(rng) < (in.op == BankOp::none ? 0.3 : 0.02);
    if (in.kernel_end && u(rng) < 0.7) in.reserve = false;
    in.retire = u(rng) < 0.05;
    return in;
  };
  s.reset = [](const BankIn& in) { return in.rst; };
  return s;
}

class BankCosim : public ::testing::TestWithParam<BankParams> {};

}  // namespace

TEST_P(BankCosim, RtlAndModelAgreeWithTheReference) {
  const BankParams p = GetParam();
  expect_clean_cosim(
      bank_spec(p), 20000, {1, 2, 3}, [&] { return make_bank_block("model", p); },
      [&](std::uint64_t seed) { return make_bank_block("rtl", p, seed); }, [&] { return std::make_unique<BankReference>(p); });
}

INSTANTIATE_TEST_SUITE_P(Builds, BankCosim, ::testing::ValuesIn(bank_rtl_builds()), [](const auto& info) {
  return "d" + std::to_string(info.param.depth) + "w" + std::to_string(info.param.width) + "t" +
         std::to_string(info.param.threshold);
});

// docs/hwwl.md's bank table, cycle by cycle, on an 8-entry bank (4 per partition).
TEST(HwwlBankBlock, DoubleBufferTable) {
  using O = BankOp;
  struct Row {
    BankIn in;
    bool op_ok, reserve_ok, swapped, rd_valid;
    std::uint32_t rd_data, pullable, reserved, push_occupied;
    bool pull_part;
  };
  // in: rst cfg_double op wdata reserve kernel_end retire  ->  op_ok reserve_ok swapped rd_valid rd_data
  //     pullable reserved push_occupied pull_part (registered outputs: the state at the cycle's start)
  const std::vector<Row> table = {
      {{true, true, O::none, 0, false, false, false}, false, false, false, false, 0, 0, 0, 0, false},  // reset: double
      {{false, false, O::push, 0xA, false, false, false}, true, false, false, false, 0, 0, 0, 0, false},
      {{false, false, O::pull, 0, false, false, false}, false, false, false, false, 0, 0, 0, 1, false},  // next kernel's
      {{false, false, O::push, 0xB, false, false, false}, true, false, false, false, 0, 0, 0, 1, false},
      {{false, false, O::push, 0xC, false, false, false}, true, false, false, false, 0, 0, 0, 2, false},
      {{false, false, O::push, 0xD, false, false, false}, true, false, false, false, 0, 0, 0, 3, false},
      {{false, false, O::push, 0xE, false, false, false}, false, false, false, false, 0, 0, 0, 4, false},  // full
      {{false, false, O::none, 0, false, true, false}, false, false, true, false, 0, 0, 0, 4, false},      // swap
      {{false, false, O::none, 0, true, false, false}, false, false, false, false, 0, 4, 0, 0, true},      // no room
      {{false, false, O::take, 0, false, false, false}, true, false, false, false, 0, 4, 0, 0, true},      // newest
      {{false, false, O::pull, 0, true, false, false}, true, true, false, true, 0xD, 3, 0, 0, true},       // room after
      {{false, false, O::none, 0, false, false, false}, false, false, false, true, 0xA, 2, 1, 0, true},
      {{false, false, O::fill, 0xF, false, true, false}, true, false, false, false, 0, 2, 1, 0, true},     // no swap
      {{false, false, O::pull, 0, false, false, false}, true, false, false, false, 0, 3, 0, 0, true},
      {{false, false, O::pull, 0, false, false, false}, true, false, false, true, 0xB, 2, 0, 0, true},
      {{false, false, O::pull, 0, false, false, false}, true, false, false, true, 0xC, 1, 0, 0, true},
      {{false, false, O::none, 0, false, false, false}, false, false, false, true, 0xF, 0, 0, 0, true},   // refill last
  };
  for (const char* impl : {"model", "rtl"}) {
    auto bank = make_bank_block(impl, {8, 24, 2}, 5);
    for (std::size_t c = 0; c < table.size(); ++c) {
      const Row& row = table[c];
      const BankOut o = bank->step(row.in);
      if (c == 0) continue;  // the reset cycle: outputs undefined until it has been applied
      SCOPED_TRACE(std::string(impl) + " cycle " + std::to_string(c));
      EXPECT_EQ(o.op_ok, row.op_ok);
      EXPECT_EQ(o.reserve_ok, row.reserve_ok);
      EXPECT_EQ(o.swapped, row.swapped);
      EXPECT_EQ(o.rd_valid, row.rd_valid);
      if (row.rd_valid) {
        EXPECT_EQ(o.rd_data, row.rd_data);
      }
      EXPECT_EQ(o.pullable, row.pullable);
      EXPECT_EQ(o.reserved, row.reserved);
      EXPECT_EQ(o.push_occupied, row.push_occupied);
      EXPECT_EQ(o.pull_part, row.pull_part);
    }
  }
}

TEST(HwwlBankBlock, BadParametersAndUnbuiltSetsAreErrors) {
  EXPECT_THROW(make_bank_block("model", {5, 24, 5}), Error);   // odd depth: no two partitions
  EXPECT_THROW(make_bank_block("model", {32, 25, 5}), Error);  // wider than a work ID
  EXPECT_THROW(make_bank_block("gates", {32, 24, 5}), Error);
  try {
    make_bank_block("rtl", {16, 24, 5});
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("built: 32x24/T5"), std::string::npos) << e.what();
  }
}

namespace {

std::uint64_t packed(const std::vector<std::uint32_t>& v, unsigned width) {
  std::uint64_t x = 0;
  for (std::size_t i = 0; i < v.size(); ++i) x |= std::uint64_t{v[i]} << (i * width);
  return x;
}

CosimSpec<WruIn, WruOut> wru_spec(WruParams p) {
  CosimSpec<WruIn, WruOut> s;
  s.block = "hwwl_wru_lsort";
  const unsigned iw = sim::bits_for(p.banks - 1), t = p.threshold, n = p.banks;
  s.signals = {
      {"rank", [iw](const WruOut& o) { return packed(o.rank, iw); }},
      {"move_valid", [](const WruOut& o) { return std::uint64_t{o.move_valid}; }},
      {"move_from", [iw](const WruOut& o) { return packed(o.move_from, iw); }},
      {"move_to", [iw](const WruOut& o) { return packed(o.move_to, iw); }},
      {"global_greedy", [](const WruOut& o) { return std::uint64_t{o.global_greedy}; }},
      {"export_valid", [](const WruOut& o) { return std::uint64_t{o.export_valid}; }},
      {"export_bank", [](const WruOut& o) { return std::uint64_t{o.export_bank}; },
       [](const WruOut& o) { return o.export_valid; }},
  };
  const auto count = [t](const WruIn& i, bool above) {
    unsigned c = 0;
    for (auto v : i.occupancy) c += above ? v > t : v < t;
    return c;
  };
  // Bins on the inputs of the cycle before (the outputs are registered), so they read the inputs.
  s.bins = {
      {"every bank needy", [count, n](const WruIn& i, const WruOut&) { return count(i, false) == n; }},
      {"pairs limited by the needy banks", [count, n](const WruIn& i, const WruOut&) { return count(i, false) > 0 && count(i, false) < n / 2; }},
      {"pairs limited by half the banks", [count, n](const WruIn& i, const WruOut&) { return count(i, false) > n / 2 && count(i, false) < n; }},
      {"no needy bank", [count](const WruIn& i, const WruOut&) { return count(i, false) == 0; }},
      {"globally greedy", [](const WruIn&, const WruOut& o) { return o.global_greedy; }},
      {"every pair moves", [n](const WruIn&, const WruOut& o) { return o.move_valid == (1u << (n / 2)) - 1; }},
      {"a needy bank's pair one apart stays", [count, n](const WruIn& i, const WruOut&) {
         std::vector<std::uint32_t> sorted = i.occupancy;
         std::sort(sorted.begin(), sorted.end());
         const unsigned k = std::min(count(i, false), n / 2);
         for (unsigned j = 0; j < k; ++j)
           if (sorted[n - 1 - j] < sorted[j] + 2) return true;
         return false;
       }},
      {"all banks equal", [](const WruIn& i, const WruOut&) {
         for (auto v : i.occupancy) if (v != i.occupancy.front()) return false;
         return true;
       }},
      {"reset", [](const WruIn& i, const WruOut&) { return i.rst; }},
  };
  // Occupancy patterns: all needy, uniform over the range, one heavy bank, a few distinct values
  // (ties), all equal.
  s.stimulus = [p](std::mt19937_64& rng, std::uint64_t cycle) {
    const unsigned max = (1u << p.count_width) - 1;
    WruIn in;
    in.rst = cycle == 0 || rng() % 500 == 0;
    const unsigned pattern = rng() % 5;
    const unsigned heavy = rng() % p.banks, same = rng() % (max + 1);
    const unsigned values[3] = {0, p.threshold, p.threshold + 1};
    for (unsigned b = 0; b < p.banks; ++b) {
      unsigned v = 0;
      switch (pattern) {
        case 0: v = rng() % (p.threshold ? p.threshold : 1); break;
        case 1: v = rng() % (max + 1); break;
        case 2: v = b == heavy ? max - rng() % 3 : rng() % 3; break;
        case 3: v = values[rng() % 3] & max; break;
        default: v = same; break;
      }
      in.occupancy.push_back(v);
    }
    return in;
  };
  s.reset = [](const WruIn& in) { return in.rst; };
  return s;
}

class WruCosim : public ::testing::TestWithParam<WruParams> {};

}  // namespace

TEST_P(WruCosim, RtlAndModelAgreeWithTheReference) {
  const WruParams p = GetParam();
  expect_clean_cosim(
      wru_spec(p), 5000, {1, 2, 3}, [&] { return make_wru_block("model", p); },
      [&](std::uint64_t seed) { return make_wru_block("rtl", p, seed); }, [&] { return std::make_unique<WruReference>(p); });
}

INSTANTIATE_TEST_SUITE_P(Builds, WruCosim, ::testing::ValuesIn(wru_rtl_builds()), [](const auto& info) {
  return "b" + std::to_string(info.param.banks) + "c" + std::to_string(info.param.count_width) + "t" +
         std::to_string(info.param.threshold);
});

// The worked cases of docs/hwwl.md on the paper's 16 banks, threshold 5, as the RTL decides them.
TEST(HwwlWruBlock, PaperCases) {
  auto wru = make_wru_block("rtl", {16, 6, 5}, 3);
  wru->step({true, std::vector<std::uint32_t>(16, 0)});
  // One bank with 16 IDs, the rest empty: it gives one to the emptiest (bank 0 ranks first among
  // the empties), the others are one apart or less from nothing; the core is not greedy.
  std::vector<std::uint32_t> occ(16, 0);
  occ[5] = 16;
  wru->step({false, occ});
  WruOut o = wru->step({false, occ});
  EXPECT_EQ(o.rank.back(), 5u);
  EXPECT_EQ(o.move_valid, 1u);
  EXPECT_EQ(o.move_from[0], 5u);
  EXPECT_EQ(o.move_to[0], 0u);
  EXPECT_FALSE(o.global_greedy);
  // Nine banks above the threshold, seven below: globally greedy; the fullest bank gives inside
  // the core, so the next fullest exports.
  occ = {9, 9, 9, 9, 9, 9, 9, 9, 12, 0, 0, 0, 0, 0, 0, 0};
  wru->step({false, occ});
  o = wru->step({false, occ});
  EXPECT_TRUE(o.global_greedy);
  EXPECT_EQ(o.move_valid, 0x7fu);  // seven needy banks, seven pairs
  EXPECT_EQ(o.move_from[0], 8u);
  EXPECT_TRUE(o.export_valid);
  EXPECT_EQ(o.export_bank, 0u);  // banks 8 and 7..1 give; bank 0 (9 IDs) is the fullest not giving
}

// RTL in the loop (hwwl.bank.impl: rtl): a Bank whose accesses also step the Verilated bank, whose
// reads are returned, and whose state is checked after every access.
TEST(HwwlBankBlock, RtlInTheLoopFollowsAndChecksEveryAccess) {
  Bank b(8, Mode::double_buffer);
  b.attach_rtl(make_bank_block("rtl", {8, 24, 2}, 4), "test bank");
  sim::Cycle c = 0;
  for (std::uint32_t id = 1; id <= 4; ++id) b.push(c++, id);
  b.kernel_end();  // swap: the RTL swaps too, or the next check fails
  EXPECT_EQ(b.pull(c++), 1u);
  EXPECT_EQ(b.move_out(c++), 4u);
  b.reserve(1);
  b.fill_reserved(c++, 9);
  b.move_in(c++, 7);
  std::vector<std::uint32_t> rest;
  b.drain_into(rest);
  EXPECT_EQ(rest, (std::vector<std::uint32_t>{2, 3, 9, 7}));
  b.retire();
  b.kernel_end();
  // An RTL bank of another size disagrees at the first access the model allows and it does not.
  Bank big(32, Mode::double_buffer);
  big.attach_rtl(make_bank_block("rtl", {8, 24, 2}, 4), "core 1 lane 3");
  for (std::uint32_t id = 0; id < 4; ++id) big.push(id, id);
  try {
    big.push(4, 4);
    FAIL() << "no exception";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("HWWL bank core 1 lane 3: the RTL and the model disagree at a push: the RTL "
                                         "refused the access"),
              std::string::npos)
        << e.what();
  }
}
