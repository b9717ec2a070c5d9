// SPDX-License-Identifier: Apache-2.0
// `irrgpu unit --stimulus`: a changed expectation fails on both implementations, naming the file,
// line, cycle and field; the RTL writes its waveform; a bad stimulus file is named where it is bad.
// Every example of testbenches/stimuli/ passes on model and RTL as rtl.stimulus.<block>.<impl>.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;

namespace {
const std::string kStimuli = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/stimuli";
}

TEST(Stimulus, AChangedExpectationFailsOnModelAndRtl) {
  TempDir d;
  std::string text = read_file(kStimuli + "/sync_fifo.yaml");
  const std::string from = "expect: {rd_valid: 1, rd_data: 0x2a,";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "expect: {rd_valid: 1, rd_data: 0x2b,");
  const std::string file = d.write("fifo.yaml", text);
  int line = 1;
  for (std::size_t i = 0; i < text.find("rd_data: 0x2b"); ++i) line += text[i] == '\n';
  for (const std::string impl : {"model", "rtl"}) {
    auto r = run_cli({"unit", "--stimulus", file, "--impl", impl});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("FAIL " + file + ":" + std::to_string(line) + ":"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(": cycle 4: rd_data: expected 0x2b, got 0x2a (" + impl + ")"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("39 passed, 1 failed"), std::string::npos) << r.out;
  }
  // -o: every expectation in result.json
  auto r = run_cli({"unit", "--stimulus", file, "-o", d.path() + "/out"});
  const auto j = nlohmann::json::parse(read_file(d.path() + "/out/result.json"));
  EXPECT_EQ(j["passed"], 39);
  EXPECT_EQ(j["failed"], 1);
  ASSERT_EQ(j["expectations"].size(), 40u);
  bool found = false;
  for (const auto& e : j["expectations"])
    if (!e["passed"].get<bool>()) {
      found = true;
      EXPECT_EQ(e["field"], "rd_data");
      EXPECT_EQ(e["cycle"], 4);
      EXPECT_EQ(e["actual"], "0x2a");
    }
  EXPECT_TRUE(found);
}

// Every example: its first numeric expectation changed by one fails on both implementations (for
// the IRU, model or RTL hash banks),
// and the FAIL line names that expectation's line.
TEST(Stimulus, EveryExampleFailsOnAChangedExpectation) {
  TempDir d;
  const std::regex first(R"((\b[a-z_]+: )([0-9]+)([,}]))");
  unsigned examples = 0;
  for (const auto& e : std::filesystem::directory_iterator(kStimuli)) {
    std::string text = read_file(e.path().string());
    // The first number on a step's `expect:` line, or (the IRU's) anywhere under a top-level `expect:`.
    std::smatch m;
    std::size_t at = std::string::npos;
    std::string value;
    bool under = false;
    for (std::size_t line_at = 0; line_at < text.size() && at == std::string::npos;) {
      const std::size_t end = std::min(text.find('\n', line_at), text.size());
      const std::string line = text.substr(line_at, end - line_at);
      under = under || line == "expect:";
      const std::size_t from = under ? 0 : line.find("expect: {");
      const std::string part = from == std::string::npos ? "" : line.substr(from);
      if (std::regex_search(part, m, first)) at = line_at + from + static_cast<std::size_t>(m.position(2)), value = m.str(2);
      line_at = end + 1;
    }
    ASSERT_NE(at, std::string::npos) << e.path();
    text.replace(at, value.size(), std::to_string(std::stoull(value) + 1));
    int line = 1;
    for (std::size_t i = 0; i < at; ++i) line += text[i] == '\n';
    const std::string file = d.write(e.path().filename().string(), text);
    for (const std::string impl : {"model", "rtl"}) {
      if (impl == "rtl" && e.path().stem() == "spref") continue;  // SPREF has no RTL
      auto r = run_cli({"unit", "--stimulus", file, "--impl", impl});
      EXPECT_EQ(r.exit_code, 1) << file << " " << impl << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find("FAIL " + file + ":" + std::to_string(line) + ":"), std::string::npos) << r.out;
      EXPECT_NE(r.out.find(", 1 failed"), std::string::npos) << r.out;
    }
    ++examples;
  }
  EXPECT_EQ(examples, 11u);  // the seven blocks, dac_path, the IRU's two and SPREF's
}

TEST(Stimulus, RtlWritesItsWaveform) {
  TempDir d;
  auto r = run_cli({"unit", "--stimulus", kStimuli + "/hwwl_bank.yaml", "--impl", "rtl", "--fst", d.path() + "/bank.fst"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(read_file(d.path() + "/bank.fst").size(), 100u);
  r = run_cli({"unit", "--stimulus", kStimuli + "/sync_fifo.yaml", "--vcd", d.path() + "/fifo.vcd"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(read_file(d.path() + "/fifo.vcd").find("rd_data"), std::string::npos);
  r = run_cli({"unit", "--stimulus", kStimuli + "/hwwl_bank.yaml", "--vcd", d.path() + "/bank.vcd"});
  EXPECT_NE(r.err.find("a VCD is written by sync_fifo's model only"), std::string::npos) << r.err;
  r = run_cli({"unit", "--stimulus", kStimuli + "/hwwl_bank.yaml", "--fst", d.path() + "/bank.fst"});
  EXPECT_NE(r.err.find("add --impl rtl"), std::string::npos) << r.err;
  // DAC's path: the AEU's and the PWAQ's RTL waveforms beside the name given.
  r = run_cli({"unit", "--stimulus", kStimuli + "/dac_path.yaml", "--impl", "rtl", "--fst", d.path() + "/path.fst"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(read_file(d.path() + "/path-aeu.fst").size(), 100u);
  EXPECT_GT(read_file(d.path() + "/path-pwaq.fst").size(), 100u);
  // The IRU's transactions: its probes, with either implementation of its banks.
  r = run_cli({"unit", "--stimulus", kStimuli + "/iru.yaml", "--impl", "rtl", "--vcd", d.path() + "/iru.vcd"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(read_file(d.path() + "/iru.vcd").find("$scope module iru"), std::string::npos);
}

TEST(Stimulus, BadFilesAreNamedWhereTheyAreBad) {
  TempDir d;
  auto error = [&](const std::string& yaml, const std::vector<std::string>& extra = {}) {
    const std::string f = d.write("s.yaml", yaml);
    std::vector<std::string> args = {"unit", "--stimulus", f};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = run_cli(args);
    EXPECT_NE(r.exit_code, 0) << yaml;
    return r.err;
  };
  const std::string p = d.path() + "/s.yaml:";
  EXPECT_NE(error("block: sync_fifo\nsteps:\n  - in: {pusx: 1}\n").find(p + "3:10: no input 'pusx' (rst, push, push_data, pop)"),
            std::string::npos);
  EXPECT_NE(error("block: sync_fifo\nsteps:\n  - expect: {count: lots}\n").find(p + "3:21: count: expected a number"), std::string::npos);
  EXPECT_NE(error("block: fifo\nsteps: []\n").find(p + "1:8: no block 'fifo' ("), std::string::npos);
  EXPECT_NE(error("block: sync_fifo\nparameters: {DEPHT: 4}\nsteps: []\n").find(p + "2:14: block sync_fifo has no parameter 'DEPHT'"),
            std::string::npos);
  EXPECT_NE(error("block: sync_fifo\nsteps:\n  - {in: {}, at: 0}\n  - {at: 0}\n").find(p + "4:10: at: cycle 0 is past"), std::string::npos);
  EXPECT_NE(error("block: sync_fifo\nsteps:\n  - {inn: {}}\n").find(p + "3:6: unknown step key 'inn'"), std::string::npos);
  EXPECT_NE(error("block: sync_fifo\nsteps: [\n").find(p), std::string::npos);  // YAML syntax
  // parameters the build did not verilate: the RTL factory's error names those it did
  EXPECT_NE(error("block: sync_fifo\nparameters: {DEPTH: 3}\nsteps: []\n", {"--impl", "rtl"}).find("8"), std::string::npos);
  EXPECT_NE(error("block: dac_aeu\nsteps: []\n", {"sync_fifo"}).find("the file is for block dac_aeu, not sync_fifo"), std::string::npos);
  auto r = run_cli({"unit", "--stimulus", kStimuli + "/sync_fifo.yaml", "--impl", "verilog"});
  EXPECT_NE(r.err.find("expected model or rtl"), std::string::npos) << r.err;
}
