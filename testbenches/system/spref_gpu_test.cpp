// SPDX-License-Identifier: Apache-2.0
// Spare-register prefetching in every SM (models/spref, docs/memory.md), through the command line:
// it prefetches and turns demand loads into movs on the thesis's edge loops, faster than without;
// every variant of Table 6 on every restrict workload gives the CPU's result with no value read
// wrong (the unit's check ends a run otherwise); an array written while the kernel runs is caught;
// SPREF off leaves a run's statistics as they were; the comparison prefetchers prefetch.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;

namespace {

double sum(const nlohmann::json& stats, const std::string& leaf) {  // over the SMs
  double s = 0;
  for (const auto& [name, v] : stats["stats"].items())
    if (name.rfind("gpu.sm", 0) == 0 && name.size() > leaf.size() && name.compare(name.size() - leaf.size(), leaf.size(), leaf) == 0)
      s += v["value"].get<double>();
  return s;
}

nlohmann::json run(const std::string& workload, const std::string& variant, std::vector<std::string> settings) {
  TempDir d;
  std::vector<std::string> args = {"run", "-q", "--mode", "timing", "-c", "graphmem", "--workload", workload, "--variant",
                                   variant, "--graph", "rmat:scale=11", "-o", d.path()};
  for (const auto& s : settings) args.insert(args.end(), {"-s", s});
  const auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << workload << " " << variant << r.out;
  return nlohmann::json::parse(read_file(d.path() + "/stats.json"));
}

}  // namespace

TEST(SprefGpu, ItPrefetchesTheEdgeLoopsLoadPairsAndSavesCycles) {
  const auto off = run("bfs", "harish_restrict", {});
  const auto on = run("bfs", "harish_restrict", {"spref.enabled=true"});
  EXPECT_EQ(off.dump().find(".spref."), std::string::npos);
  EXPECT_GT(sum(on, "spref.pairs"), 0);
  EXPECT_GT(sum(on, "spref.head_prefetches"), 0);
  EXPECT_EQ(sum(on, "spref.head_prefetches"), sum(on, "spref.tail_prefetches"));  // one tail from each head
  EXPECT_GT(sum(on, "spref.moves"), 0.2 * sum(off, "global_loads"));            // many demand loads became movs
  EXPECT_EQ(sum(on, "global_loads") + sum(on, "spref.moves"), sum(off, "global_loads"));
  EXPECT_EQ(sum(on, "spref.mispredicted"), 0);
  EXPECT_EQ(on["stats"]["gpu.spref.storage_bytes"]["value"].get<double>(), 1365);
  EXPECT_LT(on["stats"]["gpu.kernel_cycles"]["value"].get<double>(), 0.95 * off["stats"]["gpu.kernel_cycles"]["value"].get<double>());
  // SPREF1-C: the tails fill the caches only, so only the heads' demand loads become movs.
  const auto cache = run("bfs", "harish_restrict", {"spref.enabled=true", "spref.tail=cache"});
  EXPECT_GT(sum(cache, "spref.moves"), 0);
  EXPECT_LT(sum(cache, "spref.moves"), 0.6 * sum(on, "spref.moves"));
}

// Table 6's variants on every workload with restrict loads: each the CPU's result, no value wrong.
// LS-MST's index goes through two conversions (no WAR update): prefetched only with
// spref.index_through_copies.
TEST(SprefGpu, EveryVariantGivesTheCpusResult) {
  const std::vector<std::vector<std::string>> variants = {
      {"spref.enabled=true"},
      {"spref.enabled=true", "spref.detection=compiler"},
      {"spref.enabled=true", "spref.distance=0"},
      {"spref.enabled=true", "spref.detection=compiler", "spref.distance=0", "spref.tail=cache"}};
  for (const auto& [w, v] : std::vector<std::pair<std::string, std::string>>{
           {"bfs", "harish_restrict"}, {"sssp", "harish_restrict"}, {"boruvka", "harish_restrict"}, {"bfs", "unrolled_restrict"},
           {"sssp", "unrolled_restrict"}, {"boruvka", "lonestar_restrict"}, {"stcon", "harish_restrict"}})
    for (auto s : variants) {
      const bool lsmst = v == "lonestar_restrict";
      EXPECT_EQ(sum(run(w, v, s), "spref.moves") > 0, !lsmst) << w << " " << v << " " << s.back();
      if (!lsmst) continue;
      s.push_back("spref.index_through_copies=true");
      EXPECT_GT(sum(run(w, v, s), "spref.moves"), 0) << w << " " << v << " " << s.back();
    }
}

// With spref.loads: any, MIS's state array (written by its kernels) is prefetched too: a value that
// changes before its demand load ends the run, naming the kernel and the line.
TEST(SprefGpu, AValueWrittenBeforeItsLoadIsAnError) {
  TempDir d;
  const auto r = run_cli({"run", "-q", "--mode", "timing", "-c", "graphmem", "--workload", "mis", "--variant", "topology", "--graph", "rmat:scale=10",
                          "-s", "spref.enabled=true", "-s", "spref.loads=any", "-o", d.path()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("spref: kernel mis_remove"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("changed before its load"), std::string::npos) << r.err;
  // The same with only restrict loads: MIS has none, nothing is prefetched, the run is right.
  const auto stats = run("mis", "topology", {"spref.enabled=true"});
  EXPECT_EQ(sum(stats, "spref.moves"), 0);
}

// Off (the default, or spref.enabled false): statistics byte for byte as without the keys.
TEST(SprefGpu, OffChangesNothing) {
  TempDir a, b;
  ASSERT_EQ(run_cli({"run", "-q", "--mode", "timing", "-c", "graphmem", "--workload", "bfs", "--variant", "harish_restrict",
                     "--graph", "rmat:scale=10", "-o", a.path()}).exit_code, 0);
  ASSERT_EQ(run_cli({"run", "-q", "--mode", "timing", "-c", "graphmem", "--workload", "bfs", "--variant", "harish_restrict",
                     "--graph", "rmat:scale=10", "-s", "spref.enabled=false", "-o", b.path()}).exit_code, 0);
  EXPECT_EQ(read_file(a.path() + "/stats.json"), read_file(b.path() + "/stats.json"));
}

// The conventional prefetchers the thesis compares with [G L589] (l1.prefetcher) fetch lines into
// the L1 that loads then use; they fetch whole lines, so a sector cache is refused.
TEST(SprefGpu, TheComparisonPrefetchersFetchLinesTheLoadsUse) {
  for (const char* p : {"stride", "stream", "ghb"}) {
    const auto stats = run("bfs", "harish_restrict", {std::string("l1.prefetcher=") + p});
    EXPECT_GT(sum(stats, "l1.prefetches"), 0) << p;
    EXPECT_GT(sum(stats, "l1.prefetch_useful"), 0) << p;
    EXPECT_LE(sum(stats, "l1.prefetch_useful"), sum(stats, "l1.prefetches")) << p;
  }
  const auto r = run_cli({"run", "-q", "--mode", "timing", "--workload", "bfs", "--graph", "rmat:scale=8", "-s",
                          "l1.prefetcher=stream", "-s", "l1.granularity=sector"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("l1.prefetcher fetches whole lines: it needs l1.granularity: line"), std::string::npos) << r.err;
}
