// SPDX-License-Identifier: Apache-2.0
// `irrgpu coverage`: a stimulus of known activity gives the counts it must (a `cover` bin hit as
// often as the stimulus makes it hold, one never reached reported missed and failing
// --require-bins), counts from --data add up, the source is annotated, and a parameter set the
// build did not verilate with coverage is an error naming the variable that adds it.
// Each block's coverage over its example and the co-simulation tests is rtl.coverage.<block>.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;
using nlohmann::json;

namespace {

// Reset, then three pushes into an 8-deep FIFO and three pops: never full.
const char* kThreePushes = R"(block: sync_fifo
parameters: {DEPTH: 8, WIDTH: 16}
steps:
  - in: {rst: 1}
  - in: {push: 1, push_data: 1}
    repeat: 3
  - in: {pop: 1}
    repeat: 3
  - repeat: 2
)";

}  // namespace

TEST(Coverage, CountsWhatTheStimulusDoes) {
  TempDir d;
  const std::string stim = d.write("three.yaml", kThreePushes);
  auto r = run_cli({"coverage", "sync_fifo", "--stimulus", stim, "-o", d.path() + "/a"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json a = json::parse(read_file(d.path() + "/a/coverage.json"));
  // The FIFO is empty on the cycle after the reset and after the third pop's (the registered
  // count): cycles 1 and 7, 8.
  EXPECT_EQ(a["cover"]["c_empty"], 3) << a.dump(1);
  EXPECT_EQ(a["cover"]["c_drain_to_empty"], 1);
  EXPECT_EQ(a["cover"]["c_full"], 0);
  EXPECT_EQ(a["cover"]["c_fill_to_full"], 0);
  for (const char* kind : {"line", "toggle", "branch", "cover"}) {
    ASSERT_TRUE(a["kinds"].contains(kind)) << kind << a.dump(1);
    EXPECT_GT(a["kinds"][kind]["hit"], 0) << kind;
  }
  // Every statement and branch runs (a push, a pop, a reset), but not every bit toggles and the
  // FIFO is never full.
  EXPECT_EQ(a["kinds"]["branch"]["hit"], a["kinds"]["branch"]["points"]);
  EXPECT_LT(a["kinds"]["toggle"]["hit"], a["kinds"]["toggle"]["points"]);
  EXPECT_LT(a["kinds"]["cover"]["hit"], a["kinds"]["cover"]["points"]);
  EXPECT_NE(r.out.find("cover   c_full: 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("missed "), std::string::npos) << r.out;
  EXPECT_NE(read_file(d.path() + "/a/annotated/sync_fifo.v").find("c_empty"), std::string::npos);

  // --require-bins: the bins never reached fail the run.
  r = run_cli({"coverage", "sync_fifo", "--stimulus", stim, "-o", d.path() + "/b", "--require-bins"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("functional bins never hit"), std::string::npos) << r.out;

  // --data: the first run's counts add to this one's.
  r = run_cli({"coverage", "sync_fifo", "--stimulus", stim, "--data", d.path() + "/a/data", "-o", d.path() + "/c"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json c = json::parse(read_file(d.path() + "/c/coverage.json"));
  EXPECT_EQ(c["cover"]["c_empty"], 6);
  EXPECT_EQ(c["kinds"]["line"]["points"], a["kinds"]["line"]["points"]);
}

TEST(Coverage, TheExampleReachesEveryFifoBin) {
  TempDir d;
  auto r = run_cli({"coverage", "sync_fifo", "-o", d.path() + "/x", "--require-bins"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("stimulus files 1,"), std::string::npos) << r.out;  // testbenches/stimuli/sync_fifo.yaml
}

TEST(Coverage, AParameterSetWithoutACoverageBuildIsNamed) {
  TempDir d;
  std::string text = kThreePushes;
  text.replace(text.find("DEPTH: 8"), 8, "DEPTH: 2");
  const std::string stim = d.write("two.yaml", text);
  auto r = run_cli({"coverage", "sync_fifo", "--stimulus", stim, "-o", d.path() + "/a"});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("IRRGPU_FIFO_COVERAGE_BUILDS"), std::string::npos) << r.err;
  r = run_cli({"coverage", "sync_fifo", "--stimulus", stim, "--data", d.path() + "/nowhere"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--data: no such folder"), std::string::npos) << r.err;
  std::filesystem::create_directories(d.path() + "/bad");
  d.write("bad/sync_fifo-1-0.dat", "# SystemC::Coverage-3\nC '\1f\2x.v\1l\0023\1page\2v_line/x' lots\n");
  r = run_cli({"coverage", "sync_fifo", "--stimulus", d.write("three.yaml", kThreePushes), "--data", d.path() + "/bad"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("bad/sync_fifo-1-0.dat:2:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("a coverage count is not a number"), std::string::npos) << r.err;
  r = run_cli({"coverage", "spref"});  // no RTL: the error lists the blocks that have
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("sync_fifo"), std::string::npos) << r.err;
}
