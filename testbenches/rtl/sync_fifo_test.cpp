// SPDX-License-Identifier: Apache-2.0
// sync_fifo: the model and the Verilated RTL against the reference, random and directed; cycle
// semantics as a table; X-initial randomisation; the RTL's FST waveform.
#include <gtest/gtest.h>

#include <filesystem>

#include "models/blocks/sync_fifo.h"
#include "testbenches/common/testing.h"
#include "testbenches/rtl/sync_fifo_cosim.h"
#include "testbenches/rtl/sync_fifo_reference.h"

using namespace irr;
using namespace irr::blocks;
using namespace irr::testing;

namespace {

class FifoCosim : public ::testing::TestWithParam<FifoParams> {};

std::string params_name(const ::testing::TestParamInfo<FifoParams>& info) {
  return "d" + std::to_string(info.param.depth) + "w" + std::to_string(info.param.width);
}

}  // namespace

TEST_P(FifoCosim, RandomStimulusSeveralSeeds) {
  const FifoParams p = GetParam();
  expect_clean_cosim(
      fifo_cosim_spec(p), 12000, {1, 2, 3, 4}, [&] { return std::make_unique<FifoModel>(p); },
      [&](std::uint64_t seed) { return make_fifo_rtl(p, seed); }, [&] { return std::make_unique<FifoReference>(p); });
}

TEST_P(FifoCosim, DirectedBoundaries) {
  const FifoParams p = GetParam();
  FifoModel model(p);
  auto rtl = make_fifo_rtl(p, 7);
  FifoReference ref(p);
  auto spec = fifo_cosim_spec(p);
  CosimReport r = cosim_directed<FifoIn, FifoOut>(model, *rtl, ref, spec, fifo_directed(p));
  EXPECT_TRUE(r.mismatches.empty()) << r.summary();
  for (const char* bin : {"full", "empty", "fill to full", "drain to empty", "push refused when full",
                          "pop refused when empty", "push and pop on empty", "push and pop on full",
                          "push and pop partly full"})
    EXPECT_GT(r.bins[bin], 0u) << bin;
}

INSTANTIATE_TEST_SUITE_P(Builds, FifoCosim, ::testing::ValuesIn(fifo_rtl_builds()), params_name);

// The cycle semantics of docs/rtl.md as a table, for both implementations: inputs of each cycle
// and the outputs expected in that cycle, written from the specification.
TEST(SyncFifo, CycleSemanticsTable) {
  struct Row {
    FifoIn in;
    bool push_ok, pop_ok, rd_valid;
    std::uint64_t rd_data;
    std::uint32_t count;
  };
  const FifoParams p{2, 16};
  // (rst, push, data, pop)  ->  push_ok pop_ok rd_valid rd_data count
  const std::vector<Row> rows = {
      {{true, false, 0, false}, false, false, false, 0, 0},       // reset
      {{false, true, 0x11, true}, true, false, false, 0, 0},      // empty: push wins, pop refused
      {{false, true, 0x22, false}, true, false, false, 0, 1},     // push
      {{false, true, 0x33, false}, false, false, false, 0, 2},    // full: push refused
      {{false, true, 0x33, true}, false, true, false, 0, 2},      // full: pop wins
      {{false, true, 0x33, true}, false, true, true, 0x11, 1},    // partly full: pop wins; 0x11 out
      {{false, false, 0, false}, false, false, true, 0x22, 0},    // read latency 1
      {{false, false, 0, true}, false, false, false, 0x22, 0},    // empty: pop refused; rd_data held
  };
  for (const char* impl : {"model", "rtl"}) {
    auto fifo = impl == std::string("model") ? make_fifo("model", p) : make_fifo_rtl(p, 3);
    fifo->step(rows[0].in);  // the reset cycle: outputs are undefined until it has been applied
    for (std::size_t c = 1; c < rows.size(); ++c) {
      FifoOut o = fifo->step(rows[c].in);
      EXPECT_EQ(o.push_ok, rows[c].push_ok) << impl << " cycle " << c;
      EXPECT_EQ(o.pop_ok, rows[c].pop_ok) << impl << " cycle " << c;
      EXPECT_EQ(o.rd_valid, rows[c].rd_valid) << impl << " cycle " << c;
      if (rows[c].rd_valid || c >= 6) {
        EXPECT_EQ(o.rd_data, rows[c].rd_data) << impl << " cycle " << c;
      }
      EXPECT_EQ(o.count, rows[c].count) << impl << " cycle " << c;
      EXPECT_EQ(o.full, rows[c].count == p.depth) << impl << " cycle " << c;
      EXPECT_EQ(o.empty, rows[c].count == 0) << impl << " cycle " << c;
    }
  }
}

TEST(SyncFifo, DataIsMaskedToTheWidth) {
  for (const char* impl : {"model", "rtl"}) {
    auto fifo = make_fifo(impl, {5, 12});
    fifo->step({true, false, 0, false});
    fifo->step({false, true, 0xFFFF, false});
    fifo->step({false, false, 0, true});
    EXPECT_EQ(fifo->step({}).rd_data, 0xFFFu) << impl;
  }
}

TEST(SyncFifo, XInitialIsRandomisedPerSeed) {
  // rd_data has no reset: its power-up value comes from --x-initial unique and the seed.
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) seen.insert(make_fifo_rtl({8, 16}, seed)->eval({}).rd_data);
  EXPECT_GT(seen.size(), 1u);
  EXPECT_EQ(make_fifo_rtl({8, 16}, 9)->eval({}).rd_data, make_fifo_rtl({8, 16}, 9)->eval({}).rd_data);
}

TEST(SyncFifo, UnbuiltParametersAreAClearError) {
  try {
    make_fifo_rtl({7, 7}, 1);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no RTL build for depth 7 x width 7"), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_fifo("gates", {8, 16}), Error);
}

TEST(SyncFifo, RtlWritesAnFstWaveform) {
  TempDir d;
  {
    auto fifo = make_fifo_rtl({8, 16}, 1, d.path() + "/fifo.fst", 1000);
    for (const auto& in : fifo_directed({8, 16})) fifo->step(in);
  }
  ASSERT_EQ(std::system(("fst2vcd " + d.path() + "/fifo.fst > " + d.path() + "/fifo.vcd 2>/dev/null").c_str()), 0);
  std::string vcd = read_file(d.path() + "/fifo.vcd");
  for (const char* sig : {" push_ok ", " pop_ok ", " rd_data ", " head ", " tail ", " count "})
    EXPECT_NE(vcd.find(sig), std::string::npos) << sig;
  EXPECT_NE(vcd.find("#500\n"), std::string::npos);  // rising edge half a period in
  const std::size_t last = (fifo_directed({8, 16}).size() - 1) * 1000;  // the last cycle's clock-low dump
  EXPECT_NE(vcd.find("#" + std::to_string(last) + "\n"), std::string::npos);
}

// waveforms/sync_fifo.gtkw names signals that both the RTL's FST and the model's VCD contain, with
// the same widths, and the two waveforms agree on every output the specification defines.
TEST(SyncFifo, ModelVcdAndRtlFstOpenWithOneSaveFile) {
  TempDir d;
  const FifoParams p{8, 16};
  {
    auto model = make_fifo("model", p, 1, d.path() + "/model.vcd", 1000);
    auto rtl = make_fifo("rtl", p, 1, d.path() + "/rtl.fst", 1000);
    for (const auto& in : fifo_directed(p)) {
      model->step(in);
      rtl->step(in);
    }
  }
  ASSERT_EQ(std::system(("fst2vcd " + d.path() + "/rtl.fst > " + d.path() + "/rtl.vcd 2>/dev/null").c_str()), 0);
  Vcd model = parse_vcd(read_file(d.path() + "/model.vcd")), rtl = parse_vcd(read_file(d.path() + "/rtl.vcd"));
  auto shown = gtkw_signals(read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/sync_fifo.gtkw"));
  ASSERT_EQ(shown.size(), 14u);
  for (const std::string& s : shown) {
    const std::string name = s.substr(0, s.find('['));
    const unsigned width = s.find('[') == std::string::npos ? 1 : std::stoul(s.substr(s.find('[') + 1)) + 1;
    ASSERT_TRUE(model.widths.count(name)) << name << " not in the model's VCD";
    ASSERT_TRUE(rtl.widths.count(name)) << name << " not in the RTL's FST";
    EXPECT_EQ(model.widths[name], width) << name;
    EXPECT_EQ(rtl.widths[name], width) << name;
  }
  // After the reset cycle (t >= 1000 ps), the waveforms agree on all but rd_data, which the
  // specification leaves undefined until the first pop.
  for (const char* sig : {"push_ok", "pop_ok", "rd_valid", "count", "full", "empty", "clk"}) {
    auto after_reset = [](std::vector<std::pair<std::uint64_t, std::uint64_t>> v) {
      std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
      std::uint64_t last = ~0ull;
      for (const auto& [t, x] : v)
        if (t >= 1000 && x != last) out.emplace_back(t, last = x);
      return out;
    };
    const std::string n = std::string("sync_fifo.sync_fifo.") + sig;
    EXPECT_EQ(after_reset(model.changes[n]), after_reset(rtl.changes[n])) << n;
  }
}
