// SPDX-License-Identifier: Apache-2.0
// The DATS Node State Table island (rtl/dats/dats_nst.v): each build's Verilated RTL and the
// simulator's own NodeStateTable against an independent reference under seeded random stimulus
// with coverage bins, a directed sequence written from docs/dats.md, the FST waveform with its
// save file, and the errors for builds that do not exist.
#include <gtest/gtest.h>

#include <cstdlib>

#include "models/dats/nst_block.h"
#include "sim/error.h"
#include "testbenches/common/cosim.h"
#include "testbenches/common/testing.h"
#include "testbenches/rtl/dats_nst_reference.h"

using namespace irr;
using namespace irr::dats;
using namespace irr::testing;

namespace {

CosimSpec<NstIn, NstOut> nst_spec(NstParams p) {
  CosimSpec<NstIn, NstOut> s;
  s.block = "dats_nst";
  const auto u = [](auto f) { return [f](const NstOut& o) { return static_cast<std::uint64_t>(f(o)); }; };
  const auto valid = [](const NstOut& o) { return o.rd_state != 3; };
  s.signals = {
      {"op_ok", u([](const NstOut& o) { return o.op_ok; })},
      {"resident", u([](const NstOut& o) { return o.resident; })},
      {"pub_hits", u([](const NstOut& o) { return o.pub_hits; })},
      {"rd_state", u([](const NstOut& o) { return o.rd_state; })},
      {"rd_parents", u([](const NstOut& o) { return o.rd_parents; }), valid},
      {"rd_level", u([](const NstOut& o) { return o.rd_level; }), valid},
      {"rd_node", u([](const NstOut& o) { return o.rd_node; }), valid},
      {"rd_les", u([](const NstOut& o) { return o.rd_les; }), valid},
      {"rd_has_edges", u([](const NstOut& o) { return o.rd_has_edges; }), valid},
      {"pub_count", u([](const NstOut& o) { return o.pub_count; })},
      {"pub_full", u([](const NstOut& o) { return o.pub_full; })},
      {"pick_valid", u([](const NstOut& o) { return o.pick_valid; })},
      {"pick_slot", u([](const NstOut& o) { return o.pick_slot; }), [](const NstOut& o) { return o.pick_valid; }},
  };
  const auto op = [](NstOp want, bool ok) { return [want, ok](const NstIn& i, const NstOut& o) { return i.op == want && o.op_ok == ok; }; };
  s.bins = {
      {"insert", op(NstOp::insert, true)},
      {"insert into a row in use", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::insert && o.rd_state != 3; }},
      {"insert with more PUB entries than parents",
       [](const NstIn& i, const NstOut& o) { return i.op == NstOp::insert && o.rd_state == 3 && o.pub_hits > i.parents; }},
      {"insert takes PUB entries", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::insert && o.op_ok && o.pub_hits > 0; }},
      {"insert ready at once", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::insert && o.op_ok && i.parents == o.pub_hits; }},
      {"decrement a resident child", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::decrement && o.op_ok && o.resident; }},
      {"decrement makes a child ready",
       [](const NstIn& i, const NstOut& o) { return i.op == NstOp::decrement && o.op_ok && o.resident && o.rd_parents == 1; }},
      {"decrement parked in the PUB", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::decrement && o.op_ok && !o.resident; }},
      {"decrement refused: PUB full", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::decrement && !o.resident && o.pub_full; }},
      {"decrement refused: resident child not waiting",
       [](const NstIn& i, const NstOut& o) { return i.op == NstOp::decrement && o.resident && !o.op_ok; }},
      {"PUB entries for a node not in its row", [](const NstIn& i, const NstOut& o) { return i.op == NstOp::decrement && o.op_ok && !o.resident && o.rd_state != 3; }},
      {"issue", op(NstOp::issue, true)},
      {"issue refused", op(NstOp::issue, false)},
      {"retire", op(NstOp::retire, true)},
      {"retire refused", op(NstOp::retire, false)},
      {"pick", [](const NstIn&, const NstOut& o) { return o.pick_valid; }},
      {"pick none", [](const NstIn&, const NstOut& o) { return !o.pick_valid; }},
      {"pick wraps past the last row", [](const NstIn& i, const NstOut& o) { return o.pick_valid && o.pick_slot < i.tail; }},
      {"pick under a level window", [](const NstIn& i, const NstOut& o) { return o.pick_valid && i.lvl_on; }},
      {"reset", [](const NstIn& i, const NstOut&) { return i.rst; }},
  };
  // Activity in a window of 8 rows that moves every 1,000 cycles (so every build's rows, even
  // 512, see full and empty rows and a PUB that fills); nodes map to their modulus row mostly, or
  // to another; the tail near the window; holds, level windows and resets now and then.
  s.stimulus = [p](std::mt19937_64& rng, std::uint64_t cycle) {
    std::uniform_real_distribution<double> u(0, 1);
    const std::uint32_t window = std::min<std::uint32_t>(p.entries, 8);
    const std::uint32_t base = static_cast<std::uint32_t>((cycle / 1000) * 5 % p.entries);
    NstIn in;
    in.rst = cycle == 0 || u(rng) < 0.001;
    const double x = u(rng);
    in.op = x < 0.25 ? NstOp::insert : x < 0.6 ? NstOp::decrement : x < 0.75 ? NstOp::issue : x < 0.9 ? NstOp::retire : NstOp::none;
    in.slot = (base + static_cast<std::uint32_t>(rng() % window)) % p.entries;
    in.node = in.slot + p.entries * static_cast<std::uint32_t>(rng() % 3);
    if (u(rng) < 0.1) in.slot = static_cast<std::uint32_t>(rng() % p.entries);
    in.parents = static_cast<std::uint32_t>(rng() % 4);
    in.level = static_cast<std::uint32_t>(rng() % 8);
    in.has_edges = u(rng) < 0.8;
    in.les = in.has_edges ? static_cast<std::uint32_t>(rng() % p.lea) : 0;
    in.tail = (base + static_cast<std::uint32_t>(rng() % (window + 2)) + p.entries - 1) % p.entries;
    if (u(rng) < 0.3) {
      in.hold.assign(p.entries, false);
      for (std::uint32_t k = 0; k < window; ++k) in.hold[(base + k) % p.entries] = u(rng) < 0.3;
    }
    in.lvl_on = u(rng) < 0.5;
    in.lvl_lo = static_cast<std::uint32_t>(rng() % 8);
    in.lvl_hi = in.lvl_lo + static_cast<std::uint32_t>(rng() % 4);
    in.bound = static_cast<std::uint32_t>(rng() % 5);
    return in;
  };
  s.reset = [](const NstIn& in) { return in.rst; };
  return s;
}

class NstCosim : public ::testing::TestWithParam<NstParams> {};

NstIn row_op(NstOp op, std::uint32_t slot, std::uint32_t node = 0) {
  NstIn in;
  in.op = op;
  in.slot = slot;
  in.node = node;
  return in;
}

}  // namespace

TEST_P(NstCosim, RtlAndModelAgreeWithTheReference) {
  const NstParams p = GetParam();
  expect_clean_cosim(
      nst_spec(p), 20000, {1, 2, 3}, [&] { return make_nst_block("model", p); },
      [&](std::uint64_t seed) { return make_nst_block("rtl", p, seed); }, [&] { return std::make_unique<NstReference>(p); });
}

INSTANTIATE_TEST_SUITE_P(Builds, NstCosim, ::testing::ValuesIn(nst_rtl_builds()), [](const auto& info) {
  return "e" + std::to_string(info.param.entries) + "l" + std::to_string(info.param.lea) + "p" + std::to_string(info.param.pub);
});

// docs/dats.md's table on the 8-row build: a completion's update waits in the PUB for a child not
// yet loaded, the insertion takes it, the last update readies the child, the pick finds it (not
// while held, nor outside the level window), and issue and retire free the row.
TEST(DatsNstBlock, UpdateWaitsInThePubUntilTheChildIsInserted) {
  for (const char* impl : {"model", "rtl"}) {
    SCOPED_TRACE(impl);
    auto nst = make_nst_block(impl, {8, 16, 4}, 7);
    NstIn rst;
    rst.rst = true;
    nst->step(rst);
    NstOut o = nst->step(row_op(NstOp::decrement, 3, 11));  // node 11 (row 3) not loaded yet
    EXPECT_TRUE(o.op_ok);
    EXPECT_FALSE(o.resident);
    EXPECT_EQ(nst->eval({}).pub_count, 1u);
    NstIn ins = row_op(NstOp::insert, 3, 11);
    ins.parents = 2;
    ins.level = 4;
    ins.les = 9;
    ins.has_edges = true;
    o = nst->step(ins);
    EXPECT_TRUE(o.op_ok);
    EXPECT_EQ(o.pub_hits, 1u);
    o = nst->eval(row_op(NstOp::none, 3));
    EXPECT_EQ(o.rd_state, 0);  // waiting for its other parent
    EXPECT_EQ(o.rd_parents, 1u);
    EXPECT_EQ(o.rd_les, 9u);
    EXPECT_EQ(o.pub_count, 0u);
    EXPECT_FALSE(o.pick_valid);
    EXPECT_TRUE(nst->step(row_op(NstOp::decrement, 3, 11)).resident);
    NstIn pick;
    pick.tail = 5;  // wraps around to row 3
    o = nst->eval(pick);
    EXPECT_TRUE(o.pick_valid);
    EXPECT_EQ(o.pick_slot, 3u);
    pick.hold.assign(8, false);
    pick.hold[3] = true;
    EXPECT_FALSE(nst->eval(pick).pick_valid);
    pick.hold.clear();
    pick.lvl_on = true;  // running levels 1..2, bound 2: level 4 would make the range 3
    pick.lvl_lo = 1;
    pick.lvl_hi = 2;
    pick.bound = 2;
    EXPECT_FALSE(nst->eval(pick).pick_valid);
    pick.bound = 3;
    EXPECT_TRUE(nst->eval(pick).pick_valid);
    EXPECT_FALSE(nst->step(row_op(NstOp::retire, 3)).op_ok);  // not running yet
    EXPECT_TRUE(nst->step(row_op(NstOp::issue, 3)).op_ok);
    EXPECT_TRUE(nst->step(row_op(NstOp::retire, 3)).op_ok);
    EXPECT_EQ(nst->eval(row_op(NstOp::none, 3)).rd_state, 3);
  }
}

// waveforms/dats_nst.gtkw names signals of the 8-row build's FST, with their widths.
TEST(DatsNstBlock, RtlWritesAnFstWaveformTheSaveFileNames) {
  TempDir d;
  {
    auto nst = make_nst_block("rtl", {8, 16, 4}, 1, d.path() + "/nst.fst");
    NstIn rst;
    rst.rst = true;
    nst->step(rst);
    nst->step(row_op(NstOp::decrement, 1, 9));
  }
  ASSERT_EQ(std::system(("fst2vcd " + d.path() + "/nst.fst > " + d.path() + "/nst.vcd 2>/dev/null").c_str()), 0);
  Vcd rtl = parse_vcd(read_file(d.path() + "/nst.vcd"));
  auto shown = gtkw_signals(read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/dats_nst.gtkw"));
  ASSERT_EQ(shown.size(), 33u);
  for (const std::string& s : shown) {
    const std::string name = s.substr(0, s.find('['));
    const unsigned width = s.find('[') == std::string::npos ? 1 : std::stoul(s.substr(s.find('[') + 1)) + 1;
    ASSERT_TRUE(rtl.widths.count(name)) << name << " not in the RTL's FST";
    EXPECT_EQ(rtl.widths[name], width) << name;
  }
  EXPECT_EQ(rtl.changes["dats_nst.dats_nst.pub_count"].back().second, 1u);  // the decrement went to the PUB
}

TEST(DatsNstBlock, BadParametersAndUnbuiltSetsAreErrors) {
  EXPECT_THROW(make_nst_block("model", {1, 16, 4}), Error);
  try {
    make_nst_block("rtl", {64, 512, 64});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("IRRGPU_DATS_NST_RTL_BUILDS"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("128 rows/LEA 512/PUB 64"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_nst_block("gates", {8, 16, 4}), Error);
}
