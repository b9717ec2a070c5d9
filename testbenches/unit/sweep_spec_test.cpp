// SPDX-License-Identifier: Apache-2.0
// Sweep files: axes, ranges, products, zips and groups expand to the runs they say, with stable
// ids; every mistake is an error naming file:line (docs/sweeps.md).
#include "apps/irrgpu/sweep/spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "testbenches/common/testing.h"

namespace irr::app::sweep {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::map<std::string, std::string>> params(const Spec& s) {
  std::vector<std::map<std::string, std::string>> out;
  for (const auto& r : s.runs) out.push_back(r.params);
  return out;
}

// The error message expanding `yaml` gives.
std::string error_of(const std::string& yaml) {
  testing::TempDir dir;
  const std::string file = dir.write("s.yaml", yaml);
  try {
    expand(file);
  } catch (const Error& e) {
    std::string m = e.what();
    return m.substr(m.find("s.yaml"));  // from the file name on
  }
  return "(no error)";
}

TEST(SweepSpec, ProductOfAxesLastFastest) {
  testing::TempDir dir;
  const Spec s = expand(dir.write("grid.yaml", R"(
workload: bfs
variant: [data, topology]
graph: ["grid:rows=8,cols=8"]
set:
  l1.size: [16KiB, 48KiB]
)"));
  EXPECT_EQ(s.name, "grid");  // the file's stem
  using P = std::map<std::string, std::string>;
  EXPECT_THAT(params(s), ElementsAre(P{{"workload", "bfs"}, {"variant", "data"}, {"graph", "grid:rows=8,cols=8"}, {"l1.size", "16KiB"}},
                                     P{{"workload", "bfs"}, {"variant", "data"}, {"graph", "grid:rows=8,cols=8"}, {"l1.size", "48KiB"}},
                                     P{{"workload", "bfs"}, {"variant", "topology"}, {"graph", "grid:rows=8,cols=8"}, {"l1.size", "16KiB"}},
                                     P{{"workload", "bfs"}, {"variant", "topology"}, {"graph", "grid:rows=8,cols=8"}, {"l1.size", "48KiB"}}));
  EXPECT_THAT(s.runs[0].args, ElementsAre("run", "-q", "--set", "l1.size=16KiB", "--workload", "bfs", "--variant", "data",
                                          "--graph", "grid:rows=8,cols=8"));
}

TEST(SweepSpec, RangesArithmeticAndGeometric) {
  testing::TempDir dir;
  const Spec s = expand(dir.write("r.yaml", R"(
workload: bfs
seed: {from: 1, to: 3, step: 1}
set:
  l1.mshrs: {from: 8, to: 64, factor: 2}
)"));
  ASSERT_EQ(s.runs.size(), 3u * 4u);
  std::vector<std::string> mshrs;
  for (std::size_t i = 0; i < 4; ++i) mshrs.push_back(s.runs[i].params.at("l1.mshrs"));
  EXPECT_THAT(mshrs, ElementsAre("8", "16", "32", "64"));
  EXPECT_EQ(s.runs[4].params.at("seed"), "2");
  EXPECT_THAT(s.runs[4].args, ::testing::Contains("--seed"));
}

// A run field that is a flag (`irrgpu run --handoff`) goes as --name=value.
TEST(SweepSpec, FlagFieldsTakeTheirValueAfterAnEqualsSign) {
  testing::TempDir dir;
  const Spec s = expand(dir.write("h.yaml", R"(
workload: ht
collisions: 256
handoff: [true, false]
)"));
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_THAT(s.runs[0].args, ElementsAre("run", "-q", "--workload", "ht", "--collisions", "256", "--handoff=true"));
  EXPECT_THAT(s.runs[1].args, ::testing::Contains("--handoff=false"));
}

TEST(SweepSpec, ZipAdvancesTogether) {
  testing::TempDir dir;
  const Spec s = expand(dir.write("z.yaml", R"(
workload: bfs
variant: [data, topology]
zip:
  - {graph: ["grid:rows=8,cols=8", "rmat:scale=8"], l1.size: [16KiB, 48KiB]}
)"));
  ASSERT_EQ(s.runs.size(), 4u);
  EXPECT_EQ(s.runs[0].params.at("graph"), "grid:rows=8,cols=8");
  EXPECT_EQ(s.runs[0].params.at("l1.size"), "16KiB");
  EXPECT_EQ(s.runs[1].params.at("graph"), "rmat:scale=8");
  EXPECT_EQ(s.runs[1].params.at("l1.size"), "48KiB");
}

TEST(SweepSpec, GroupsOverrideTheTopLevelAndShareRunsOnce) {
  testing::TempDir dir;
  const Spec s = expand(dir.write("g.yaml", R"(
config: kim4x16
workload: bfs
graph: "grid:rows=8,cols=8"
groups:
  - variant: [data, topology]
    name: software
  - variant: data            # the same run as the first group's first: listed once
  - variant: hwwl
    name: banks
    set: {hwwl.bank_entries: [32, 4096]}
)"));
  ASSERT_EQ(s.runs.size(), 4u);
  EXPECT_EQ(s.runs[0].group, "software");
  EXPECT_EQ(s.runs[3].group, "banks");
  EXPECT_EQ(s.runs[2].params.at("variant"), "hwwl");
  EXPECT_EQ(s.runs[3].params.at("hwwl.bank_entries"), "4096");
  EXPECT_EQ(s.runs[0].params.at("config"), "kim4x16");
  EXPECT_EQ(s.runs[0].params.count("hwwl.bank_entries"), 0u);
}

TEST(SweepSpec, LayeredConfigsAndFilesRelativeToTheSweepFile) {
  testing::TempDir dir;
  dir.write("mine.yaml", "l1:\n  size: 32KiB\n");
  const Spec s = expand(dir.write("c.yaml", "workload: bfs\nconfig: [[kim4x16, mine.yaml], gtx480]\n"));
  ASSERT_EQ(s.runs.size(), 2u);
  EXPECT_EQ(s.runs[0].params.at("config"), "kim4x16+mine.yaml");  // as written: ids do not depend on the folder
  EXPECT_THAT(s.runs[0].args, ::testing::IsSupersetOf({std::string("kim4x16"), dir.path() + "/mine.yaml"}));
  EXPECT_EQ(s.runs[1].params.at("config"), "gtx480");
}

TEST(SweepSpec, IdsAreStableAndDistinct) {
  const std::map<std::string, std::string> a = {{"workload", "bfs"}, {"variant", "data"}, {"l1.size", "16KiB"}};
  auto b = a;
  b["l1.size"] = "48KiB";
  EXPECT_EQ(run_id(a), run_id(a));
  EXPECT_NE(run_id(a), run_id(b));
  EXPECT_EQ(run_id(a).rfind("bfs-data-", 0), 0u);
  // Fixed across builds and machines: a sweep resumed elsewhere finds its runs.
  EXPECT_EQ(run_id(a), "bfs-data-" + run_id(a).substr(9));
  EXPECT_EQ(run_id({{"workload", "bfs"}}), run_id({{"workload", "bfs"}}));
  EXPECT_EQ(run_id({{"workload", "bfs"}}), "bfs-ccdf76a2db5a");
}

TEST(SweepSpec, ReportAndResources) {
  testing::TempDir dir;
  const Spec s = expand(dir.write("rep.yaml", R"(
name: study
workload: bfs
resources: {time: "00:10:00", mem: 2G, cpus: 2}
slurm: {partition: short, account: lab, throttle: 4, setup: ["module load systemc"]}
report: [python3, study.py, --from-sweep, "{dir}"]
)"));
  const Spec several = expand(dir.write("rep2.yaml", "workload: bfs\nreport: [[a, \"{dir}\"], [b]]\n"));
  EXPECT_EQ(s.name, "study");
  EXPECT_EQ(s.resources.time, "00:10:00");
  EXPECT_EQ(s.resources.mem, "2G");
  EXPECT_EQ(s.resources.cpus, 2u);
  EXPECT_EQ(s.resources.partition, "short");
  EXPECT_EQ(s.resources.throttle, 4u);
  EXPECT_THAT(s.resources.setup, ElementsAre("module load systemc"));
  EXPECT_THAT(s.report, ElementsAre(ElementsAre("python3", "study.py", "--from-sweep", "{dir}")));
  EXPECT_THAT(several.report, ElementsAre(ElementsAre("a", "{dir}"), ElementsAre("b")));
}

TEST(SweepSpec, ErrorsNameFileLineAndWhy) {
  EXPECT_THAT(error_of("workload: bfs\nvarant: data\n"), HasSubstr("s.yaml:2:1: unknown key 'varant'"));
  EXPECT_THAT(error_of("workload: bfs\nset:\n  l1.sise: 16KiB\n"), HasSubstr("s.yaml:3:12: l1.sise: unknown key"));
  EXPECT_THAT(error_of("workload: bfs\nset:\n  l1.size: [16KiB, 1.5]\n"), HasSubstr("s.yaml:3:20: l1.size: '1.5'"));
  EXPECT_THAT(error_of("workload: bfs\nset:\n  size: 4\n"), HasSubstr("s.yaml:3:3: set: 'size' is not a configuration key"));
  EXPECT_THAT(error_of("workload: []\n"), HasSubstr("s.yaml:1:11: workload: an empty list"));
  EXPECT_THAT(error_of("workload: bfs\nzip:\n  - {variant: [a, b], graph: [x]}\n"),
              HasSubstr("s.yaml:3:30: zip: 'graph' has 1 values, 'variant' 2"));
  EXPECT_THAT(error_of("workload: bfs\nseed: {from: 3, to: 1, step: 1}\n"), HasSubstr("s.yaml:2:7: seed: range to 1 is below from 3"));
  EXPECT_THAT(error_of("workload: bfs\nseed: {from: 1, to: x, step: 1}\n"), HasSubstr("seed: range to 'x' is not an integer"));
  EXPECT_THAT(error_of("workload: bfs\nseed: {from: 1, to: 4, by: 1}\n"), HasSubstr("unknown range key 'by'"));
  EXPECT_THAT(error_of("workload: bfs\nconfig: nope\n"), HasSubstr("s.yaml:2:9: config: unknown preset 'nope'"));
  EXPECT_THAT(error_of("workload: bfs\ngraph: [grid:rows=8,cols=8]\n"), HasSubstr("looks like part of a generator"));
  EXPECT_THAT(error_of("workload: bfs\nvariant: data\nzip:\n  - {variant: [a, b], seed: [1, 2]}\n"),
              HasSubstr("'variant' is an axis twice"));
  EXPECT_THAT(error_of("workload: bfs\ngroups:\n  - resources: {}\n"), HasSubstr("s.yaml:3:5: unknown key 'resources' in a group"));
  EXPECT_THAT(error_of("workload: bfs\nslurm: {queue: x}\n"), HasSubstr("unknown key 'slurm.queue'"));
  EXPECT_THAT(error_of("workload: [bfs\n"), HasSubstr("YAML syntax"));
  EXPECT_THAT(error_of("- bfs\n"), HasSubstr("s.yaml:1:1: a sweep file is a mapping"));
}

// A graph name longer than the system takes (fuzz_sweep's finding): std::filesystem threw out of
// the reader. It is a name that is not a file beside the sweep, kept as written.
TEST(SweepSpec, AGraphNameTooLongForTheSystemIsKeptAsWritten) {
  testing::TempDir dir;
  const std::string name = std::string(5000, 'g') + ".mtx";
  const Spec s = expand(dir.write("g.yaml", "workload: bfs\ngraph: " + name + "\n"));
  ASSERT_EQ(s.runs.size(), 1u);
  EXPECT_EQ(s.runs[0].params.at("graph"), name);
  EXPECT_THAT(s.runs[0].args, ::testing::Contains(name));
}

TEST(SweepSpec, MissingFileIsAUsageError) {
  try {
    expand("/nonexistent/sweep.yaml");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("no such sweep file"));
    EXPECT_EQ(e.exit_code(), 2);
  }
}

}  // namespace
}  // namespace irr::app::sweep
