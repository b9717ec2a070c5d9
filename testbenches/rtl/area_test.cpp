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
  ASSERT_TRUE(std::regex_search(lib, m, std::regex(R"re(timing_type : setup_rising;\s*rise_constraint \(scalar\) \{ values \("([0-9.]+)"\))re")));
  EXPECT_NEAR(std::stod(m[1]) * 1000, tech["flip_flop"]["setup_ps"].get<double>(), 1e-9);
  ASSERT_TRUE(std::regex_search(lib, m, std::regex(R"re(timing_type : rising_edge;\s*cell_rise \(scalar\) \{ values \("([0-9.]+)"\))re")));
  EXPECT_NEAR(std::stod(m[1]) * 1000, tech["flip_flop"]["clk_to_q_ps"].get<double>(), 1e-9);
}
