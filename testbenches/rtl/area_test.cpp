// SPDX-License-Identifier: Apache-2.0
// `irrgpu area`: flip-flop bits, SRAM bits and SRAM area computed here from the design and the
// technology file, against the report; the technology file's flip-flop timing against the liberty.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;
using nlohmann::json;

namespace {
const std::string kRtl = std::string(IRRGPU_SOURCE_DIR) + "/rtl";
json area(const std::vector<std::string>& args, TempDir& d) {
  std::vector<std::string> a = {"area"};
  a.insert(a.end(), args.begin(), args.end());
  a.push_back("--json");
  a.push_back(d.path() + "/area.json");
  auto r = run_cli(a);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(read_file(d.path() + "/area.json"));
}
}  // namespace

TEST(Area, FifoCountsFollowFromItsParameters) {
  TempDir d;
  json r = area({"sync_fifo", "--param", "DEPTH=8", "--param", "WIDTH=8"}, d);
  json tech = json::parse(read_file(kRtl + "/lib/irrgpu45.json"));
  // Registers: head 3 + tail 3 + count 4 + rd_valid 1; rd_data is the SRAM's registered output.
  EXPECT_EQ(r["flip_flop_bits"], 11);
  ASSERT_EQ(r["memories"].size(), 1u);
  EXPECT_EQ(r["memories"][0]["bits"], 64);
  EXPECT_EQ(r["memories"][0]["ports"], 1);
  const double sram = 64 * tech["sram"]["bitcell_um2"].get<double>() / tech["sram"]["array_efficiency"].get<double>();
  EXPECT_NEAR(r["sram_area_um2"].get<double>(), sram, 1e-9);
  EXPECT_EQ(r["transistors_sram"], 64 * 6);
  // All flip-flops: the array (64) and rd_data (8) become registers too.
  EXPECT_EQ(r["all_flip_flops"]["flip_flop_bits"], 83);
  EXPECT_GT(r["all_flip_flops"]["area_um2"].get<double>(), 83 * 4.522);
  // Critical path = clk-to-q + ABC's logic delay + setup.
  EXPECT_NEAR(r["critical_path_ps"].get<double>(),
              tech["flip_flop"]["clk_to_q_ps"].get<double>() + r["logic_delay_ps"].get<double>() +
                  tech["flip_flop"]["setup_ps"].get<double>(),
              1e-9);
  EXPECT_GT(r["logic_delay_ps"].get<double>(), 0);
  EXPECT_GT(r["transistors_logic"].get<std::uint64_t>(), 0u);
}

TEST(Area, AdHocDesign) {
  TempDir d;
  std::string v = d.write("reg4.v",
                          "module reg4(input wire clk, input wire en, input wire [3:0] d, output reg [3:0] q);\n"
                          "  always @(posedge clk) if (en) q <= d;\nendmodule\n");
  json r = area({"--top", "reg4", "--source", v}, d);
  EXPECT_EQ(r["flip_flop_bits"], 4);
  EXPECT_EQ(r["memories"].size(), 0u);
  EXPECT_EQ(r["cells"]["DFF_X1"], 4);
  // The area is the cells' liberty areas summed.
  std::string lib = read_file(kRtl + "/lib/irrgpu45.lib");
  double expected = 0;
  for (const auto& [cell, n] : r["cells"].items()) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(lib, m, std::regex("cell \\(" + cell + "\\) \\{\\s*area : ([0-9.]+)"))) << cell;
    expected += std::stod(m[1]) * n.get<double>();
  }
  EXPECT_GT(r["cells"].size(), 1u);  // the enable's logic
  EXPECT_NEAR(r["logic_area_um2"].get<double>(), expected, 1e-9);
  // 4 flip-flops of at least 16 transistors each, plus the enable's gates.
  EXPECT_GT(r["transistors_logic"].get<std::uint64_t>(), 4u * 16);
  EXPECT_FALSE(r["transistors_logic_is_lower_bound"].get<bool>());
}

TEST(Area, Errors) {
  auto r = run_cli({"area", "no_such_block"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no RTL block 'no_such_block' in rtl/blocks.json (blocks: dac_aeu, dac_pwaq, dats_nst, hwwl_bank, hwwl_wru_lsort, iru_hash_bank, sync_fifo"), std::string::npos) << r.err;
  TempDir d;
  std::string bad = d.write("bad.v", "module bad(input wire a, output wire b);\n  assign b = a &;\nendmodule\n");
  r = run_cli({"area", "--top", "bad", "--source", bad});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("synthesis of bad: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("bad.v:2: syntax error"), std::string::npos) << r.err;
  r = run_cli({"area", "--list"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("sync_fifo"), std::string::npos);
}

TEST(Area, TechnologyFileMatchesTheLiberty) {
  json tech = json::parse(read_file(kRtl + "/lib/irrgpu45.json"));
  std::string lib = read_file(kRtl + "/lib/" + tech["liberty"].get<std::string>());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(lib, m, std::regex(R"re(timing_type : setup_rising;\s*rise_constraint \(constraint_scalar\) \{ values \("([0-9.]+)"\))re")));
  EXPECT_NEAR(std::stod(m[1]) * 1000, tech["flip_flop"]["setup_ps"].get<double>(), 1e-9);
  ASSERT_TRUE(std::regex_search(lib, m, std::regex(R"re(timing_type : rising_edge;\s*cell_rise \(scalar\) \{ values \("([0-9.]+)"\))re")));
  EXPECT_NEAR(std::stod(m[1]) * 1000, tech["flip_flop"]["clk_to_q_ps"].get<double>(), 1e-9);
}

// OpenSTA on the all-flip-flop netlist at the block's preset clock (sync_fifo: the HWWL bank's
// machine, kim4x16, 700 MHz): the worst path agrees with ABC's critical path, slack = period - it.
TEST(Area, StaticTimingAtThePresetsClock) {
  TempDir d;
  json r = area({"sync_fifo", "--param", "DEPTH=8", "--param", "WIDTH=8", "--sta", "--paths", "3"}, d);
  const json& t = r["static_timing"];
  EXPECT_EQ(t["clock_hz"], 700e6);
  EXPECT_EQ(t["clock_from"], "preset kim4x16 (clocks.core)");
  EXPECT_NEAR(t["period_ps"].get<double>(), 1e12 / 700e6, 1e-6);
  ASSERT_EQ(t["paths"].size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const json& p = t["paths"][i];
    EXPECT_NEAR(p["slack_ps"].get<double>(), p["required_ps"].get<double>() - p["arrival_ps"].get<double>(), 0.2);
    if (i) EXPECT_GE(p["slack_ps"].get<double>(), t["paths"][i - 1]["slack_ps"].get<double>());  // worst first
  }
  // the worst path starts at a register named by the bit it holds
  EXPECT_TRUE(std::regex_search(t["paths"][0]["from"].get<std::string>(), std::regex(R"(^(count|head|tail)\[\d\] \(_\d+_\)$)")))
      << t["paths"][0]["from"];
  EXPECT_NEAR(t["critical_path_ps"].get<double>(), t["period_ps"].get<double>() - t["worst_slack_ps"].get<double>(), 1e-6);
  // the same cells and delays as ABC's estimate: within 10 %
  EXPECT_NEAR(t["critical_path_ps"].get<double>(), r["all_flip_flops"]["critical_path_ps"].get<double>(),
              0.1 * r["all_flip_flops"]["critical_path_ps"].get<double>());
  // a clock past the critical path violates
  json fast = area({"sync_fifo", "--param", "DEPTH=8", "--param", "WIDTH=8", "--sta", "--clock", "10GHz"}, d);
  EXPECT_LT(fast["static_timing"]["worst_slack_ps"].get<double>(), 0);
  EXPECT_FALSE(fast["static_timing"]["paths"][0]["met"].get<bool>());
}

// A user's liberty: the shipped one with every delay doubled and another name. Areas are the
// file's (the same), the library named, and OpenSTA's critical path doubles.
TEST(Area, UsersLibertyTimesWithItsOwnDelays) {
  TempDir d;
  std::string lib = read_file(kRtl + "/lib/irrgpu45.lib");
  lib = std::regex_replace(lib, std::regex(R"(library \(irrgpu45\))"), "library (slow45)");
  std::string doubled;
  std::smatch m;
  const std::regex value(R"re(values \("([0-9.]+)"\))re");
  auto begin = lib.cbegin();
  while (std::regex_search(begin, lib.cend(), m, value)) {
    doubled.append(begin, m[0].first);
    doubled += "values (\"" + std::to_string(2 * std::stod(m[1])) + "\")";
    begin = m[0].second;
  }
  doubled.append(begin, lib.cend());
  const std::string user = d.write("slow45.lib", doubled);
  json own = area({"sync_fifo", "--param", "DEPTH=8", "--param", "WIDTH=8", "--sta"}, d);
  json slow = area({"sync_fifo", "--param", "DEPTH=8", "--param", "WIDTH=8", "--liberty", user}, d);  // implies --sta
  EXPECT_EQ(slow["library"]["name"], "slow45");
  EXPECT_NEAR(slow["all_flip_flops"]["area_um2"].get<double>(), own["all_flip_flops"]["area_um2"].get<double>(),
              0.05 * own["all_flip_flops"]["area_um2"].get<double>());
  EXPECT_FALSE(slow.contains("critical_path_ps"));  // no flip-flop figures but the file's: OpenSTA's only
  EXPECT_NEAR(slow["static_timing"]["critical_path_ps"].get<double>(), 2 * own["static_timing"]["critical_path_ps"].get<double>(),
              0.15 * own["static_timing"]["critical_path_ps"].get<double>());
}

TEST(Area, StaticTimingErrors) {
  TempDir d;
  auto r = run_cli({"area", "sync_fifo", "--liberty", d.path() + "/none.lib"});
  EXPECT_NE(r.err.find("no such liberty file"), std::string::npos) << r.err;
  std::string v = d.write("reg4.v", "module reg4(input wire clk, input wire [3:0] d, output reg [3:0] q);\n"
                                    "  always @(posedge clk) q <= d;\nendmodule\n");
  r = run_cli({"area", "--top", "reg4", "--source", v, "--sta"});
  EXPECT_NE(r.err.find("static timing needs a clock: give --clock FREQ or --preset NAME"), std::string::npos) << r.err;
  r = run_cli({"area", "--top", "reg4", "--source", v, "--sta", "--clock", "fast"});
  EXPECT_NE(r.err.find("--clock"), std::string::npos) << r.err;
  std::string comb = d.write("and2.v", "module and2(input wire a, input wire b, output wire y);\n  assign y = a & b;\nendmodule\n");
  r = run_cli({"area", "--top", "and2", "--source", comb, "--sta", "--preset", "gtx480"});
  EXPECT_NE(r.err.find("an input port named clk"), std::string::npos) << r.err;
}
