// SPDX-License-Identifier: Apache-2.0
// The irrgpu command line as a user runs it: exit codes, outputs, errors, determinism.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <tuple>
#include <cstring>
#include <nlohmann/json.hpp>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;
using irr::testing::parse_vcd;
using irr::testing::Vcd;
namespace fs = std::filesystem;

namespace {
int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// `irrgpu calibrate ARGS`'s figures by name, from its --json.
std::map<std::string, double> calibrate(std::vector<std::string> args) {
  TempDir d;
  args.insert(args.begin(), "calibrate");
  args.insert(args.end(), {"--json", d.path() + "/cal.json"});
  auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, double> f;
  if (r.exit_code != 0) return f;
  const auto figures = nlohmann::json::parse(read_file(d.path() + "/cal.json"));
  for (const auto& [name, figure] : figures.items()) f[name] = figure["value"].get<double>();
  return f;
}
}  // namespace

TEST(Cli, RunWritesOutputsAndSummary) {
  TempDir d;
  auto r = run_cli({"run", "-s", "sim.top=example", "--config", "gtx480", "--output-dir", d.path() + "/out"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"config.yaml", "stats.json", "stats.csv", "run.json"})
    EXPECT_TRUE(fs::exists(d.path() + "/out/" + f)) << f;
  EXPECT_NE(r.out.find("example.server.completed"), std::string::npos);
  EXPECT_NE(r.out.find("cycles/s"), std::string::npos) << r.out;  // the simulation speed
  auto run = nlohmann::json::parse(read_file(d.path() + "/out/run.json"));
  EXPECT_GT(run["host_seconds"].get<double>(), 0);
  EXPECT_GT(run["peak_memory_bytes"].get<std::uint64_t>(), 1u << 20);  // a process takes more than 1 MiB
  EXPECT_GT(run["rates"]["core_cycles_per_second"].get<double>(), 0);
  EXPECT_EQ(run["versions"]["systemc"].get<std::string>().substr(0, 5), "2.3.4");
  auto stats = nlohmann::json::parse(read_file(d.path() + "/out/stats.json"));
  EXPECT_FALSE(stats.dump().find("host") != std::string::npos);  // host figures stay in run.json
  EXPECT_EQ(stats["stats"]["example.server.completed"]["value"], 2000);
}

TEST(Cli, SameSeedSameStatisticsOtherSeedOther) {
  TempDir d;
  for (const char* run : {"a", "b"})
    ASSERT_EQ(run_cli({"run", "-s", "sim.top=example", "-q", "--seed", "5", "-o", d.path() + "/" + run}).exit_code, 0);
  ASSERT_EQ(run_cli({"run", "-s", "sim.top=example", "-q", "--seed", "6", "-o", d.path() + "/c"}).exit_code, 0);
  std::string a = read_file(d.path() + "/a/stats.json");
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, read_file(d.path() + "/b/stats.json"));
  EXPECT_EQ(read_file(d.path() + "/a/stats.csv"), read_file(d.path() + "/b/stats.csv"));
  EXPECT_NE(a, read_file(d.path() + "/c/stats.json"));
}

TEST(Cli, EffectiveConfigRunsAgainToTheSameStatistics) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-s", "sim.top=example", "-q", "-c", "kim4x16", "-s", "example.servers=3", "-o", d.path() + "/a"}).exit_code, 0);
  auto r = run_cli({"run", "-s", "sim.top=example", "-q", "-c", d.path() + "/a/config.yaml", "-o", d.path() + "/b"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/a/stats.json"), read_file(d.path() + "/b/stats.json"));
  EXPECT_EQ(read_file(d.path() + "/a/config.yaml"), read_file(d.path() + "/b/config.yaml"));
}

TEST(Cli, ConfigShowAppliesPresetAndOverrides) {
  auto r = run_cli({"config", "show", "--config", "gtx980", "--set", "l1.ways=8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  YAML::Node y = YAML::Load(r.out);
  EXPECT_EQ(y["gpu"]["num_sms"].as<int>(), 16);
  EXPECT_EQ(y["l1"]["ways"].as<int>(), 8);
  EXPECT_EQ(y["clocks"]["core"].as<std::string>(), "1.27GHz");
  r = run_cli({"config", "show", "--origins"});
  EXPECT_NE(r.out.find("# preset: configs/gtx480.yaml:"), std::string::npos);
}

TEST(Cli, ConfigCheckReportsFileLineAndExits2) {
  TempDir d;
  std::string good = d.write("good.yaml", "include: gtx480\nexample: {servers: 2}\n");
  auto r = run_cli({"config", "check", good});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string bad = d.write("bad.yaml", "include: gtx480\nexample:\n  srvers: 2\n");
  r = run_cli({"config", "check", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(bad + ":3:3: example.srvers: unknown key (did you mean 'example.servers'?)"), std::string::npos) << r.err;
}

TEST(Cli, CalibrateWritesFiguresAndRejectsUnknownBenchmarks) {
  TempDir d;
  auto r = run_cli({"calibrate", "launch", "coalescing", "--json", d.path() + "/cal.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("coalescing.stride_32"), std::string::npos) << r.out;
  std::ifstream in(d.path() + "/cal.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"launch.overhead\""), std::string::npos) << text;
  r = run_cli({"calibrate", "latancy"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no microbenchmark 'latancy' (latency, shared"), std::string::npos) << r.err;
  r = run_cli({"calibrate", "launch", "--json", d.path() + "/no/such/dir/cal.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--json: cannot write"), std::string::npos) << r.err;
}

// atomic.coalescing: line sends a warp's atomics as one request per line (GPGPU-Sim's model): 32
// threads adding to one address become one operation of the atomic unit, many times the rate of
// the default's 32; threads each on a line of its own have nothing to coalesce (the same rate).
TEST(Cli, AtomicsCoalescedByLineAreOneRequestPerLine) {
  std::map<std::string, std::map<std::string, double>> rate;
  for (const char* mode : {"thread", "line"}) rate[mode] = calibrate({"atomics", "-s", std::string("atomic.coalescing=") + mode});
  EXPECT_GT(rate["line"]["atomic.global.one_address"], 10 * rate["thread"]["atomic.global.one_address"]);
  EXPECT_NEAR(rate["line"]["atomic.global.address_per_thread"], rate["thread"]["atomic.global.address_per_thread"],
              0.05 * rate["thread"]["atomic.global.address_per_thread"]);
}

// The graph-memory thesis's baseline (configs/graphmem.yaml, Table 3): an L2 hit ~100 core cycles,
// a DRAM access at least 400 (a row hit; the microbenchmark's row conflicts add tRP + tRCD), the
// copy under the 100.8 GB/s peak; graphmem144 the same latencies with more bandwidth.
TEST(Cli, GraphmemPresetsMeetTheThesisTable) {
  std::map<std::string, std::map<std::string, double>> f;
  for (const char* preset : {"graphmem", "graphmem144"}) f[preset] = calibrate({"latency", "bandwidth", "-c", preset});
  EXPECT_NEAR(f["graphmem"]["latency.l2_hit"], 100, 10);
  EXPECT_GE(f["graphmem"]["latency.dram"], 400 + 40 / 1.05 * 1.2);  // tRP + tRCD = 40 DRAM cycles
  EXPECT_LE(f["graphmem"]["latency.dram"], 460);
  EXPECT_GT(f["graphmem"]["bandwidth.dram_copy"], 0.8 * 100.8);
  EXPECT_LT(f["graphmem"]["bandwidth.dram_copy"], 100.8);
  EXPECT_NEAR(f["graphmem144"]["latency.dram"], f["graphmem"]["latency.dram"], 10);
  EXPECT_GT(f["graphmem144"]["bandwidth.dram_copy"], 1.15 * f["graphmem"]["bandwidth.dram_copy"]);
  EXPECT_LT(f["graphmem144"]["bandwidth.dram_copy"], 144);
}

// The gtx980 preset as calibrated (docs/results/calibration.md): GPGPU-Sim 4's Maxwell-Pascal L1,
// L2 and DRAM latencies, Mei & Chu's Maxwell shared memory (28 cycles, +2 a conflict way).
TEST(Cli, Gtx980PresetHasTheCalibratedLatencies) {
  auto f = calibrate({"latency", "shared", "-c", "gtx980"});
  EXPECT_NEAR(f["latency.l1_hit"], 82, 1);
  EXPECT_NEAR(f["latency.l2_hit"], 218, 5);
  EXPECT_NEAR(f["latency.dram"], 348, 10);
  EXPECT_EQ(f["shared.stride_0"], 28);
  EXPECT_EQ(f["shared.stride_32"], 28 + 31 * 2);
}

// docs/statistics.md is what `irrgpu stats doc` prints (make docs): a statistic added, renamed or
// re-described without it fails here. The reference lists every unit's and policy's statistics.
TEST(Cli, StatisticsReferenceIsUpToDate) {
  const auto r = run_cli({"stats", "doc"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, read_file(std::string(IRRGPU_SOURCE_DIR) + "/docs/statistics.md")) << "run: make docs";
  for (const char* name : {"`gpu.sm<i>.warp_instructions`", "`gpu.total.kernel_cycles`", "`gpu.dats.pub_updates`",
                           "`hwwl.done_pulls`", "`gpu.cta_scheduler=dats`", "`hwwl.enabled=true`"})
    EXPECT_NE(r.out.find(name), std::string::npos) << name;
}

TEST(Cli, UsageAndConfigErrorsExit2WithOneLine) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"run", "--set", "sim.sed=1"},
           {"run", "--config", "nosuchpreset"},
           {"run", "--seed", "-3"},
           {"run", "--log", "example.*=loud"},
           {"run", "--set", "core.registers=65536"},  // no model reads it yet
           {"run", "--set", "l1.sector_size=48B"},     // does not divide the line
           {"run", "--bogus"},
           {"frobnicate"},
           {}}) {
    auto r = run_cli(args);
    std::string cmd;
    for (const auto& a : args) cmd += a + " ";
    EXPECT_EQ(r.exit_code, 2) << cmd << r.err;
    EXPECT_EQ(lines(r.err), 1) << cmd << r.err;
    EXPECT_TRUE(r.out.empty()) << cmd << r.out;
  }
}

TEST(Cli, SimulationErrorExits1) {
  auto r = run_cli({"run", "-s", "sim.top=example", "--set", "sim.time_limit=1us"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("irrgpu: error: sim.time_limit (1us) reached"), std::string::npos) << r.err;
}

// A run the time limit cuts short keeps its statistics so far with -o, marked incomplete (a
// workload that does not finish is looked at so), and still fails.
TEST(Cli, TimeLimitKeepsTheStatisticsSoFar) {
  TempDir d;
  auto r = run_cli({"run", "--workload", "bfs", "--graph", "rmat:scale=8", "-s", "sim.time_limit=100us", "-o", d.path()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the statistics so far are in " + d.path() + " (marked incomplete)"), std::string::npos) << r.err;
  const auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));
  EXPECT_NE(stats.value("incomplete", std::string()).find("sim.time_limit (100us) reached"), std::string::npos) << stats.dump().substr(0, 300);
  EXPECT_GT(stats["stats"]["gpu.total.warp_instructions"]["value"].get<double>(), 0);
  // What was still to do, each warp with its progress: the first thing to read of a run cut short.
  const std::string outstanding = read_file(d.path() + "/outstanding.txt");
  EXPECT_TRUE(std::regex_search(outstanding, std::regex(R"(gpu\.sm\d+: .*; \d+ lanes active, \d+ instructions issued)"))) << outstanding.substr(0, 500);
}

TEST(Cli, HelpAndVersion) {
  auto r = run_cli({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("run"), std::string::npos);
  for (const char* sub : {"run", "config", "version"}) {
    r = run_cli({sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_FALSE(r.out.empty()) << sub;
  }
  r = run_cli({"version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("irrgpu 0."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SystemC 2.3.4"), std::string::npos) << r.out;
}

TEST(Cli, LogLevelsStatsFilterAndQuiet) {
  auto r = run_cli({"run", "-s", "sim.top=example", "--log", "example.producer=debug", "--stats", "example.producer.*"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("] example.producer: burst 0 issued"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("example.producer.issued"), std::string::npos);
  EXPECT_EQ(r.out.find("example.server.completed"), std::string::npos);
  r = run_cli({"run", "-s", "sim.top=example", "--quiet"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

// SSSP's software duplicate filter (`frontier_culled`; the IRU paper's baseline has one [S L268]):
// the plain compaction's distances, with fewer threads reaching its global atomicMin on a graph
// whose warps hold repeated vertices (64 vertices, 4,096 edges).
TEST(Cli, SsspWarpCullingDropsDuplicatesBeforeTheAtomic) {
  TempDir d;
  auto atomic_threads = [&](const std::string& variant, const std::string& kernel) {
    const std::string out = d.path() + "/" + variant;
    auto r = run_cli({"run", "-q", "-c", "gtx980", "--workload", "sssp", "--variant", variant, "--graph",
                      "random:n=64,m=4096", "--profile=true", "-o", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
    std::uint64_t threads = 0;
    const auto profile = nlohmann::json::parse(read_file(out + "/profile.json"));
    for (const auto& line : profile["ptx_lines"]) {
      if (line["function"] != kernel || line["op"] != "atom") continue;
      std::ifstream ptx(line["file"].get<std::string>());
      std::string text;
      for (int n = line["line"].get<int>(); n > 0 && std::getline(ptx, text);) --n;
      if (text.find("atom.global.min") != std::string::npos) threads += line["thread_instructions"].get<std::uint64_t>();
    }
    return threads;
  };
  const auto plain = atomic_threads("frontier", "sssp_compaction");
  const auto culled = atomic_threads("frontier_culled", "sssp_compaction_culled");
  EXPECT_GT(culled, 0u);
  EXPECT_LT(culled, plain * 9 / 10);  // here a third of the frontier's elements are a warp's duplicates
}

namespace {
// A run's launches of each kernel, from its kernels.json.
std::map<std::string, int> launches_of(const std::string& dir) {
  std::map<std::string, int> count;
  for (const auto& k : nlohmann::json::parse(read_file(dir + "/kernels.json"))) ++count[k["kernel"].get<std::string>()];
  return count;
}
}  // namespace

// An edge frontier longer than the IRU's 24-bit positions [S L177] goes through it in chunks of at
// most 2^24 elements, each configured and contracted on its own (workloads/frontier): BFS and SSSP
// on a graph whose second level has some 17.1 M edges (the paper's human has 24.6 M) find the
// reference's distances, that level contracted in two launches (SSSP's frontier kernel too, after
// both compactions: each improved vertex pushed once, or the frontiers overflow their buffers).
TEST(Cli, IruTakesAnEdgeFrontierBeyondItsPositionsInChunks) {
  TempDir d;
  for (const auto& [workload, contract, frontier] : {std::tuple{"bfs", "bfs_contract", "bfs_contract"},
                                                     std::tuple{"sssp", "sssp_compaction", "sssp_frontier"}}) {
    const std::string out = d.path() + "/" + workload;
    auto r = run_cli({"run", "-q", "-c", "gtx980", "--workload", workload, "--variant", "iru", "--graph",
                      "random:n=2048,m=17500000", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << workload << ": " << r.out;
    const auto count = launches_of(out);
    const std::string expand = std::string(workload) + "_expand";
    EXPECT_EQ(count.at(contract), count.at(expand) + 1) << workload;
    EXPECT_EQ(count.at(frontier), count.at(expand) + 1) << workload;
  }
}

// PageRank's next frontier built in the contraction (`frontier_fused`, `iru_fused`) or over the
// vertices (`frontier_vertices`, `iru_vertices`): the same frontiers as the kernel over the edge
// frontier builds (as many expansions), without its kernels.
TEST(Cli, PageRankFrontierFormsBuildTheSameFrontiers) {
  TempDir d;
  auto launches = [&](const std::string& variant) {
    const std::string out = d.path() + "/" + variant;
    auto r = run_cli({"run", "-q", "-c", "gtx980", "--workload", "pr", "--variant", variant, "--graph", "rmat:scale=9",
                      "-o", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
    return launches_of(out);
  };
  const auto plain = launches("frontier");
  ASSERT_GT(plain.at("pr_expand"), 2);
  EXPECT_EQ(plain.at("pr_frontier"), plain.at("pr_contract"));
  for (const char* variant : {"frontier_fused", "iru_fused"}) {
    const auto one = launches(variant);
    EXPECT_EQ(one.at("pr_expand"), plain.at("pr_expand")) << variant;
    EXPECT_EQ(one.at("pr_contract_fused"), plain.at("pr_contract")) << variant;
    EXPECT_EQ(one.size(), 2u) << variant;  // no pr_contract, pr_frontier or pr_clear
  }
  for (const char* variant : {"frontier_vertices", "iru_vertices"}) {
    const auto one = launches(variant);
    EXPECT_EQ(one.at("pr_expand"), plain.at("pr_expand")) << variant;
    EXPECT_EQ(one.at("pr_frontier_vertices"), plain.at("pr_contract")) << variant;
    EXPECT_EQ(one.size(), 3u) << variant;  // pr_expand, pr_contract, pr_frontier_vertices
  }
}

// Each graph-memory cache policy acts in a whole run (the memory system under the thesis's
// baseline, frontier-like gathers): sector fetch moves fewer flits and fetches only what is used,
// the predictors fetch more than that but less than lines, the bypass schemes decide and bypass.
TEST(Cli, GraphMemoryPoliciesActInAWholeRun) {
  TempDir d;
  auto totals = [&](const std::string& name, std::vector<std::string> sets) {
    std::vector<std::string> args = {"run", "-c", "graphmem", "-q", "-o", d.path() + "/" + name};
    for (const auto& s : sets) args.insert(args.end(), {"-s", s});
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    auto stats = nlohmann::json::parse(read_file(d.path() + "/" + name + "/stats.json"))["stats"];
    std::map<std::string, double> t;
    for (const char* leaf : {"reply.flits", "request.flits", "contention_cycles", ".sectors_filled", ".sectors_used", ".decisions", ".bypassed",
                             ".storage_bits", ".fills_bypassed", ".moved", ".copybacks", ".victim_hits"})
      for (auto& [k, v] : stats.items())
        if (k.size() > std::strlen(leaf) && k.compare(k.size() - std::strlen(leaf), std::string::npos, leaf) == 0 &&
            k.find(".total.") == std::string::npos)
          t[leaf] += v["value"].get<double>();
    return t;
  };
  const auto base = totals("base", {});
  EXPECT_EQ(base.count(".storage_bits"), 0u);  // no policy, no policy statistic
  // line_profiled times as no policy does, and counts the sectors each line had read.
  const auto profiled = totals("line_profiled", {"l1.granularity=line_profiled", "l2.granularity=line_profiled"});
  auto plain = nlohmann::json::parse(read_file(d.path() + "/base/stats.json"))["stats"];
  auto seen = nlohmann::json::parse(read_file(d.path() + "/line_profiled/stats.json"))["stats"];
  for (auto& [k, v] : plain.items()) EXPECT_EQ(v, seen[k]) << k;
  EXPECT_LT(profiled.at(".sectors_used"), profiled.at(".sectors_filled"));
  const auto sector = totals("sector", {"l1.granularity=sector", "l2.granularity=sector"});
  EXPECT_LT(sector.at("reply.flits"), 0.5 * base.at("reply.flits"));
  EXPECT_EQ(sector.at(".sectors_filled"), sector.at(".sectors_used"));
  EXPECT_GT(sector.at(".sectors_filled"), 0);
  for (const char* g : {"spp", "lamar", "nap"}) {
    const auto p = totals(g, {std::string("l1.granularity=") + g, "l2.granularity=sector"});
    EXPECT_GT(p.at(".sectors_filled"), p.at(".sectors_used")) << g;  // some predicted sectors go unused
    EXPECT_GT(p.at("reply.flits"), sector.at("reply.flits")) << g;
    EXPECT_LT(p.at("reply.flits"), base.at("reply.flits")) << g;
    EXPECT_GT(p.at(".storage_bits"), 0) << g;
  }
  for (const char* b : {"mat", "adaptive", "obm", "bypass_copyback"}) {
    const auto p = totals(b, {std::string("l1.bypass=") + b, std::string("l2.bypass=") + b});
    EXPECT_GT(p.at(".decisions"), 1000) << b;
    EXPECT_GT(p.at(".bypassed"), 0) << b;
    EXPECT_LT(p.at(".bypassed"), p.at(".decisions")) << b;
  }
  // Exclusion: fills to the L1 only, hits moved to it, lines copied back (request traffic grows).
  const auto excl = totals("exclusive", {"l2.inclusion=exclusive"});
  for (const char* leaf : {".fills_bypassed", ".moved", ".copybacks"}) EXPECT_GT(excl.at(leaf), 0) << leaf;
  EXPECT_GT(excl.at("request.flits"), base.at("request.flits"));
  // Copy-backs after the misses ready to go: the same traffic, in another order. With Table 3's L1
  // port (16 accesses every 2 cycles) the L1 here waits on its MSHRs and a copy-back never meets a
  // ready miss (both orders give the same statistics); one access every other cycle makes them meet.
  const auto before = totals("exclusive_one_port", {"l2.inclusion=exclusive", "l1.port_accesses=1", "l1.port_cycles=1"});
  const auto after = totals("exclusive_after", {"l2.inclusion=exclusive", "l1.copyback_order=after_misses",
                                                "l1.port_accesses=1", "l1.port_cycles=1"});
  EXPECT_GT(after.at(".copybacks"), 0);
  EXPECT_NE(after.at("contention_cycles"), before.at("contention_cycles"));
  // Flexclusion: its exclusive leader sets act whatever PSEL says; an 11-bit PSEL a slice.
  const auto flex = totals("flexclusion", {"l2.inclusion=flexclusion"});
  EXPECT_GT(flex.at(".fills_bypassed"), 0);
  EXPECT_LT(flex.at(".fills_bypassed"), excl.at(".fills_bypassed"));
  EXPECT_EQ(flex.at(".storage_bits"), 11 * 6);
  // Table 11's 1 KB victim buffer per L1: some misses find their line there.
  EXPECT_GT(totals("victim", {"l1.victim_cache=1KiB"}).at(".victim_hits"), 0);
  EXPECT_EQ(base.count(".victim_hits"), 0u);
  EXPECT_NE(run_cli({"run", "-c", "graphmem", "-q", "-s", "l1.victim_cache=100B"}).err.find("not a whole number of l1.line_size"),
            std::string::npos);
  EXPECT_NE(run_cli({"run", "-c", "graphmem", "-q", "-s", "l1.victim_cache=1KiB", "-s", "l1.granularity=sector"})
                .err.find("needs l1.granularity: line"),
            std::string::npos);
}

// Region exclusion and bypass + copyback under H-BFS, the runtime's allocations their regions:
// regions turn private, their misses ask the L2 to let the L1 copy back, copies go back and are
// given back; B+C also bypasses the L2 for regions without reuse. The results stay right.
TEST(Cli, RegionPoliciesActInAGpuRun) {
  TempDir d;
  auto totals = [&](const std::string& name, std::vector<std::string> sets) {
    std::vector<std::string> args = {"run", "-c", "graphmem", "-q", "--workload", "bfs", "--variant", "harish",
                                     "--graph", "random:n=16384,m=98304", "-o", d.path() + "/" + name};
    for (const auto& s : sets) args.insert(args.end(), {"-s", s});
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << name;
    auto stats = nlohmann::json::parse(read_file(d.path() + "/" + name + "/stats.json"))["stats"];
    std::map<std::string, double> t;
    for (auto& [k, v] : stats.items())
      for (const char* leaf : {"copyback_hints", "bypass_hints", "bypassed", "copybacks", "moved", "storage_bits"})
        if (k.find(".total.") == std::string::npos && k.size() > std::strlen(leaf) &&
            k.compare(k.size() - std::strlen(leaf), std::string::npos, leaf) == 0)
          t[std::string(k.find("partition") != std::string::npos ? "l2." : "l1.") + leaf] += v["value"].get<double>();
    return t;
  };
  const auto rex = totals("rex", {"l2.inclusion=region_exclusion"});
  for (const char* k : {"l1.copyback_hints", "l2.bypassed", "l2.copybacks", "l2.moved"}) EXPECT_GT(rex.at(k), 0) << k;
  EXPECT_EQ(rex.at("l1.bypass_hints"), 0);
  EXPECT_EQ(rex.at("l2.storage_bits"), 6144 * 7);  // 5,376 B, the thesis's figure [G L1128]
  const auto bc = totals("bc", {"l1.bypass=bypass_copyback", "l2.bypass=bypass_copyback"});
  for (const char* k : {"l1.copyback_hints", "l1.bypass_hints", "l2.bypassed", "l2.copybacks", "l2.moved"})
    EXPECT_GT(bc.at(k), 0) << k;
  EXPECT_GT(bc.at("l1.storage_bits"), rex.at("l1.storage_bits"));  // the PTT, UPAT and PTT index bits
  EXPECT_NE(run_cli({"run", "-c", "graphmem", "-q", "-s", "l2.inclusion=exclusive", "-s", "l2.bypass=bypass_copyback"})
                .err.find("cannot be combined with l2.inclusion: exclusive"),
            std::string::npos);
}

// Every predictor at both levels under a kernel whose atomics go one per thread to the L2 (each
// names its thread's sector; they once carried none, and a predictor read past its counters).
TEST(Cli, GraphMemoryPredictorsAtBothLevelsTakeAtomics) {
  TempDir d;
  for (const char* g : {"sector", "spp", "lamar", "nap"}) {
    auto r = run_cli({"run", "-c", "graphmem", "--workload", "sssp", "--variant", "harish", "--graph", "rmat:scale=9",
                      "-s", std::string("l1.granularity=") + g, "-s", std::string("l2.granularity=") + g, "-o",
                      d.path() + "/" + g});
    EXPECT_EQ(r.exit_code, 0) << g << ": " << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << g << ": " << r.out;
  }
}

TEST(Cli, SampleEveryWritesATimeSeries) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-s", "sim.top=example", "-q", "--sample-every", "1000", "-o", d.path()}).exit_code, 0);
  auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));
  ASSERT_TRUE(stats.contains("samples"));
  EXPECT_GT(stats["samples"]["time_ps"].size(), 10u);
}

TEST(Cli, TracingChangesNoStatistic) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-s", "sim.top=example", "-q", "-o", d.path() + "/plain"}).exit_code, 0);
  auto r = run_cli({"run", "-s", "sim.top=example", "-o", d.path() + "/traced", "--vcd", d.path() + "/w.vcd", "--fst", d.path() + "/w.fst",
                    "--txn-trace", d.path() + "/t.json", "--progress", "--log", "*=debug"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/plain/stats.json"), read_file(d.path() + "/traced/stats.json"));
  for (const char* f : {"w.vcd", "w.fst", "t.json"}) EXPECT_TRUE(fs::file_size(d.path() + "/" + f) > 0) << f;
  EXPECT_NO_THROW(nlohmann::json::parse(read_file(d.path() + "/t.json")));
}

// A GPU run's trace: each kernel launch a span on the GPU's "kernels" track, kept past the event
// limit (the outline of a truncated trace), each CTA's residency a span on its SM's "CTAs" track;
// a truncated trace says so on stderr, not only inside the file; and no statistic moves.
TEST(Cli, GpuTraceHasKernelAndCtaSpans) {
  TempDir d;
  const std::vector<std::string> run = {"run", "-q", "--workload", "bfs", "--variant", "data", "--graph", "rmat:scale=8"};
  auto args = run;
  args.insert(args.end(), {"-o", d.path() + "/plain"});
  ASSERT_EQ(run_cli(args).exit_code, 0);
  args = run;
  args.insert(args.end(), {"-o", d.path() + "/traced", "--txn-trace", d.path() + "/t.json", "--txn-trace-limit", "500"});
  const auto r = run_cli(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/plain/stats.json"), read_file(d.path() + "/traced/stats.json"));
  const auto stats = nlohmann::json::parse(read_file(d.path() + "/traced/stats.json"));
  const auto trace = nlohmann::json::parse(read_file(d.path() + "/t.json"));
  std::map<int, std::string> group;  // pid -> track group
  for (const auto& e : trace["traceEvents"])
    if (e["ph"] == "M" && e["name"] == "process_name") group[e["pid"].get<int>()] = e["args"]["name"];
  std::size_t kernels = 0, ctas = 0;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X" || !e.contains("args")) continue;
    if (group[e["pid"].get<int>()] == "GPU" && e["args"].contains("grid")) ++kernels;
    if (group[e["pid"].get<int>()].rfind("SM ", 0) == 0 && e["args"].contains("warps")) ++ctas;
  }
  EXPECT_EQ(kernels, stats["stats"]["gpu.kernels"]["value"].get<std::size_t>());  // every one, past the limit
  EXPECT_GT(ctas, 0u);
  EXPECT_GT(trace["otherData"]["dropped_events"].get<std::size_t>(), 0u);
  EXPECT_NE(r.err.find("t.json stopped at 500 events;"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("later ones were dropped (--txn-trace-limit raises the limit)"), std::string::npos) << r.err;
}

// Per-kernel statistics: kernels.json has a record per timed launch whose counters add up to the
// run's totals, and the summary has a row per kernel; stats.json is as it was (golden digests).
TEST(Cli, PerKernelStatisticsAddUpToTheRun) {
  TempDir d;
  const auto r = run_cli({"run", "--workload", "bfs", "--variant", "data", "--graph", "rmat:scale=8", "-o", d.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"))["stats"];
  const auto kernels = nlohmann::json::parse(read_file(d.path() + "/kernels.json"));
  ASSERT_EQ(kernels.size(), stats["gpu.kernels"]["value"].get<std::size_t>());
  double cycles = 0, warp = 0;
  for (const auto& k : kernels) {
    cycles += k["counted"].value("gpu.kernel_cycles", 0.0);
    warp += k["counted"].value("gpu.sm0.warp_instructions", 0.0);
    EXPECT_LT(k["start_ps"].get<std::uint64_t>(), k["end_ps"].get<std::uint64_t>());
  }
  EXPECT_EQ(cycles, stats["gpu.kernel_cycles"]["value"].get<double>());
  EXPECT_EQ(warp, stats["gpu.sm0.warp_instructions"]["value"].get<double>());
  const std::string name = kernels[0]["kernel"];
  EXPECT_NE(r.out.find("kernel"), std::string::npos);
  EXPECT_NE(r.out.find("launches"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n" + name + " "), std::string::npos) << r.out;  // a row for the kernel
}

// --profile: per PTX line, the issued instructions and stall cycles add up to the SMs' statistics,
// each stall reason on its own; CUDA lines come from .loc; the statistics are those of a run
// without it (the profile only watches).
TEST(Cli, ProfileByLineAddsUpToTheStatistics) {
  TempDir d, plain;
  const std::vector<std::string> args = {"run", "--workload", "bfs", "--variant", "data", "--graph", "rmat:scale=8"};
  auto with = args;
  with.insert(with.end(), {"--profile", "-o", d.path()});
  const auto r = run_cli(with);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("profile: the costliest PTX lines"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("profile: the costliest CUDA lines"), std::string::npos) << r.out;
  const auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"))["stats"];
  const auto profile = nlohmann::json::parse(read_file(d.path() + "/profile.json"));
  auto stat = [&](const std::string& name) { return stats.at(name).at("value").get<double>(); };
  std::uint64_t issued = 0, cost = 0;
  std::map<std::string, std::uint64_t> stalls;
  for (const auto& l : profile["ptx_lines"]) {
    issued += l["issued"].get<std::uint64_t>();
    cost += l["cost_cycles"].get<std::uint64_t>();
    for (const auto& [why, n] : l["stalls"].items()) stalls[why] += n.get<std::uint64_t>();
    EXPECT_LE(l["l2_misses"].get<std::uint64_t>(), l["l1_misses"].get<std::uint64_t>());
    EXPECT_LE(l["l1_misses"].get<std::uint64_t>(), l["memory_requests"].get<std::uint64_t>());
  }
  for (const auto& [why, n] : profile["unattributed"]["stalls"].items()) stalls[why] += n.get<std::uint64_t>();
  EXPECT_GT(issued, 0u);
  EXPECT_EQ(static_cast<double>(issued), stat("gpu.total.warp_instructions"));
  EXPECT_EQ(profile["total"]["issued"].get<std::uint64_t>(), issued);
  for (const char* why : {"empty", "dependence", "memory", "barrier", "unit", "structural.sfu", "structural.ldst"})
    EXPECT_EQ(static_cast<double>(stalls[why]), stat(std::string("gpu.total.stall.") + why)) << why;
  EXPECT_GT(stalls["memory"], 0u);
  EXPECT_GE(profile["ptx_lines"][0]["cost_cycles"].get<std::uint64_t>(), profile["ptx_lines"][1]["cost_cycles"].get<std::uint64_t>());
  bool kernel_line = false;  // the kernel's own source (others: CUDA's headers, inlined)
  for (const auto& l : profile["cuda_lines"]) kernel_line = kernel_line || l["file"] == "bfs.cu";
  EXPECT_TRUE(kernel_line) << profile["cuda_lines"].dump();
  bool inlined_atomic = false;  // a PTX line names its CUDA line, and an atomic (CUDA's header) its call in the kernel
  for (const auto& l : profile["ptx_lines"])
    inlined_atomic = inlined_atomic || (l["op"] == "atom" && l.contains("source") && l.contains("inlined_at") &&
                                        l["inlined_at"]["file"] == "bfs.cu" && l["source"]["file"] != "bfs.cu");
  EXPECT_TRUE(inlined_atomic) << profile["ptx_lines"].dump();
  auto without = args;
  without.insert(without.end(), {"-o", plain.path()});
  ASSERT_EQ(run_cli(without).exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(plain.path() + "/profile.json"));
  EXPECT_EQ(nlohmann::json::parse(read_file(plain.path() + "/stats.json"))["stats"], stats);
}

// --profile at the caches: each load PC the L1s see is an instruction of the kernel (the SM sends
// its PC with every request), and what the profile counts by PC and by allocation adds up to the
// caches' statistics — hits, and the fills B+C's L1 half bypasses — with the statistics unchanged.
TEST(Cli, ProfileCountsEachLoadPcAtTheCaches) {
  TempDir d, plain;
  const std::vector<std::string> args = {"run", "-q", "-c", "graphmem", "--workload", "mis", "--variant", "topology",
                                         "--graph", "random:n=8192,m=49152", "-s", "l1.bypass=bypass_copyback",
                                         "-s", "l2.bypass=bypass_copyback"};
  auto with = args;
  with.insert(with.end(), {"--profile", "-o", d.path()});
  ASSERT_EQ(run_cli(with).exit_code, 0);
  const auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"))["stats"];
  const auto l1 = nlohmann::json::parse(read_file(d.path() + "/profile.json"))["caches"]["l1"];
  auto sum_stats = [&](const std::string& l1_leaf) {  // over every SM's L1
    const std::regex name_is(R"(gpu\.sm\d+\.l1\.)" + l1_leaf);
    double n = 0;
    for (const auto& [name, v] : stats.items())
      if (std::regex_match(name, name_is)) n += v.at("value").get<double>();
    return n;
  };
  std::uint64_t hits = 0, reuse = 0, bypassed = 0, accesses = 0, region_hits = 0, region_accesses = 0;
  std::set<std::string> kernel_pcs;
  for (const auto& p : l1["by_pc"]) {
    EXPECT_EQ(p["hits"].get<std::uint64_t>() + p["misses"].get<std::uint64_t>(), p["accesses"].get<std::uint64_t>()) << p.dump();
    hits += p["hits"].get<std::uint64_t>();
    reuse += p["reuse"].get<std::uint64_t>();
    bypassed += p["bypassed"].get<std::uint64_t>();
    accesses += p["accesses"].get<std::uint64_t>();
    if (p.contains("function") && p["function"].get<std::string>().rfind("mis_", 0) == 0 && p["op"] == "ld") kernel_pcs.insert(p["pc"]);
  }
  for (const auto& r : l1["by_region"]) {
    region_hits += r["hits"].get<std::uint64_t>();
    region_accesses += r["accesses"].get<std::uint64_t>();
  }
  EXPECT_GE(kernel_pcs.size(), 5u) << l1["by_pc"].dump();
  EXPECT_GE(l1["by_region"].size(), 3u) << l1["by_region"].dump();
  EXPECT_EQ(static_cast<double>(hits), sum_stats("hits"));
  EXPECT_EQ(reuse, hits);  // every hit credited to the PC that fetched its line
  EXPECT_EQ(region_hits, hits);
  EXPECT_EQ(region_accesses, accesses);
  EXPECT_GT(bypassed, 0u);
  EXPECT_EQ(static_cast<double>(bypassed), sum_stats(R"(bypass_copyback\.bypassed)"));
  auto without = args;
  without.insert(without.end(), {"-o", plain.path()});
  ASSERT_EQ(run_cli(without).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(read_file(plain.path() + "/stats.json"))["stats"], stats);
}

// --config and --set take one value an occurrence: a command's own arguments after them stay its
// own (`calibrate --config gtx480 latency shared` ran the presets "latency" and "shared").
TEST(Cli, ConfigOptionsTakeOneValueEach) {
  TempDir d;
  auto r = run_cli({"calibrate", "--config", "gtx480", "-s", "gpu.num_sms=1", "alu", "--json", d.path() + "/c.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto figures = nlohmann::json::parse(read_file(d.path() + "/c.json"));
  for (const auto& [name, f] : figures.items()) EXPECT_EQ(name.rfind("alu.", 0), 0u) << name;
  r = run_cli({"config", "show", "-c", "gtx480", "-c", "graphmem", "-s", "core.max_warps=12", "-s", "l1.latency=3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("max_warps: 12"), std::string::npos);
}

TEST(Cli, TraceErrors) {
  auto r = run_cli({"run", "-s", "sim.top=example", "--vcd", "/tmp/x.vcd", "--trace", "nothing.matches"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--trace: no probe matches nothing.matches (the probes here: example.*; another model: "
                       "-s sim.top=NAME"),
            std::string::npos)
      << r.err;
  // As docs/observability.md once wrote it: the default model has no example probes, and the
  // error says which it has and how to get another.
  r = run_cli({"gtkw", "--trace", "example.*", "-o", "/tmp/x.gtkw"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no probe matches example.* (the probes here: memory.*;"), std::string::npos) << r.err;
  r = run_cli({"run", "-s", "sim.top=example", "--vcd", "/nonexistent-dir/x.vcd"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent-dir/x.vcd: cannot write the VCD file"), std::string::npos) << r.err;
  r = run_cli({"run", "-s", "sim.top=example", "--txn-trace-limit", "0"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, WatchdogExits1NamingTheStuckModule) {
  auto r = run_cli({"run", "-s", "sim.top=example", "--set", "example.stuck=true", "--set", "sim.watchdog_cycles=1000"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("irrgpu: error: watchdog: no progress"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("example.server: 4 requests in service"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("stopped by user"), std::string::npos) << r.err;  // SystemC's own notice is not shown
}

TEST(Cli, CheckedInGtkwSaveFilesAreCurrent) {
  TempDir d;
  auto r = run_cli({"gtkw", "-s", "sim.top=example", "--trace", "example.*", "-o", d.path() + "/example.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/example.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/example.gtkw"))
      << "regenerate with: make waveforms";
  r = run_cli({"gtkw", "-c", "kim4x16", "--trace", "memory.*", "-o", d.path() + "/memory.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/memory.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/memory.gtkw"))
      << "regenerate with: make waveforms";
  r = run_cli({"gtkw", "-c", "graphmem", "-s", "l1.granularity=nap", "-s", "l1.bypass=obm", "-s", "l2.granularity=lamar",
               "-s", "l2.bypass=obm", "--trace", "memory.partition0.*", "--trace", "memory.sm0_l1.*", "-o",
               d.path() + "/graphmem.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/graphmem.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/graphmem.gtkw"))
      << "regenerate with: make waveforms";
  r = run_cli({"gtkw", "-s", "sim.top=hwwl", "--trace", "hwwl_tb.hwwl.*", "-o", d.path() + "/hwwl.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/hwwl.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/hwwl.gtkw"))
      << "regenerate with: make waveforms";
  r = run_cli({"gtkw", "--gpu", "-s", "gpu.cta_scheduler=dats", "--trace", "gpu.dats.*", "-o", d.path() + "/dats.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/dats.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/dats.gtkw"))
      << "regenerate with: make waveforms";
  r = run_cli({"gtkw", "-s", "sim.top=iru", "--trace", "iru_tb.iru.*", "-o", d.path() + "/iru.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/iru.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/iru.gtkw"))
      << "regenerate with: make waveforms";
  r = run_cli({"gtkw", "--gpu", "-c", "gtx980", "-s", "iru.enabled=true", "--trace", "iru.*", "-o", d.path() + "/iru_gpu.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_file(d.path() + "/iru_gpu.gtkw"), read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/iru_gpu.gtkw"))
      << "regenerate with: make waveforms";
}

// The HWWL unit testbench: same seed, same statistics; its waveform holds the unit's signals and
// shows work crossing between cores and banks.
TEST(Cli, HwwlTestbenchIsDeterministicAndTraced) {
  TempDir d;
  for (const char* run : {"a", "b"})
    ASSERT_EQ(run_cli({"run", "-q", "-s", "sim.top=hwwl", "-s", "hwwl.testbench.work_ids=2000", "-o", d.path() + "/" + run,
                       "--vcd", d.path() + "/" + run + ".vcd"})
                  .exit_code,
              0);
  const std::string a = read_file(d.path() + "/a/stats.json");
  EXPECT_EQ(a, read_file(d.path() + "/b/stats.json"));
  const auto stats = nlohmann::json::parse(a)["stats"];
  EXPECT_EQ(stats["hwwl_tb.processed"]["value"], 2000);
  const Vcd vcd = parse_vcd(read_file(d.path() + "/a.vcd"));
  EXPECT_EQ(vcd.widths.at("hwwl_tb.hwwl.core0.occupancy.bank00"), 5u);  // 0..16 (double-buffer partition of 32)
  EXPECT_EQ(vcd.widths.at("hwwl_tb.hwwl.core1.greedy"), 16u);
  EXPECT_GT(vcd.changes.at("hwwl_tb.hwwl.core0.occupancy.bank00").size(), 10u);
  EXPECT_GT(vcd.changes.at("hwwl_tb.hwwl.core0.hvu.stored").size(), 2u);
  EXPECT_GT(vcd.changes.at("hwwl_tb.hwwl.icrn.in_flight").size(), 2u);
}

// The IRU unit testbench: same seed, same statistics; its waveform shows the partitions' request
// FIFOs, ring buffers, prefetches in flight, fullest entries and timeouts moving.
TEST(Cli, IruTestbenchIsDeterministicAndTraced) {
  TempDir d;
  for (const char* run : {"a", "b"})
    ASSERT_EQ(run_cli({"run", "-q", "-s", "sim.top=iru", "-s", "iru.testbench.elements=4000", "-s", "iru.timeout=200", "-o",
                       d.path() + "/" + run, "--vcd", d.path() + "/" + run + ".vcd"})
                  .exit_code,
              0);
  const std::string a = read_file(d.path() + "/a/stats.json");
  EXPECT_EQ(a, read_file(d.path() + "/b/stats.json"));
  const auto stats = nlohmann::json::parse(a)["stats"];
  EXPECT_EQ(stats["iru_tb.iru.delivered"]["value"], 4000);
  const Vcd vcd = parse_vcd(read_file(d.path() + "/a.vcd"));
  EXPECT_EQ(vcd.widths.at("iru_tb.iru.p0.fullest_entry"), 6u);  // 0..32
  for (const char* probe : {"requests", "ring", "prefetches", "fullest_entry", "timeout"})
    EXPECT_GT(vcd.changes.at(std::string("iru_tb.iru.p3.") + probe).size(), 1u) << probe;
}

TEST(Cli, IruForwardingOntoTheRingLeavesTheBanksToInsertions) {
  // Three elements in four belong to another partition. With data processing taking two elements a
  // cycle (one per bank) forwarding competes with insertion; with four it does not, and the same
  // input is delivered sooner.
  TempDir d;
  std::map<std::string, double> end;
  for (const char* width : {"2", "4"}) {
    const std::string out = d.path() + "/w" + width;
    ASSERT_EQ(run_cli({"run", "-q", "-s", "sim.top=iru", "-s", "iru.testbench.elements=6000", "-s",
                       std::string("iru.process_width=") + width, "-o", out})
                  .exit_code,
              0);
    const auto stats = nlohmann::json::parse(read_file(out + "/stats.json"))["stats"];
    EXPECT_EQ(stats["iru_tb.iru.delivered"]["value"], 6000);
    end[width] = stats["sim.time"]["value"];
  }
  EXPECT_LT(end["4"], end["2"]);
}

// l2.unit_latency: the IRU's prefetches (a partition unit's own reads) take it instead of
// l2.latency; 0, the default, is l2.latency itself, byte for byte.
TEST(Cli, PartitionUnitReadsTakeTheUnitLatency) {
  TempDir d;
  std::map<std::string, nlohmann::json> stats;
  for (const char* unit : {"0", "120", "10"}) {
    const std::string out = d.path() + "/u" + unit;
    ASSERT_EQ(run_cli({"run", "-q", "-c", "gtx980", "--workload", "bfs", "--variant", "iru", "--graph",
                       "rmat:scale=10,edge_factor=8", "-s", "host.launch_overhead=0us", "-s",
                       std::string("l2.unit_latency=") + unit, "-o", out})
                  .exit_code,
              0);
    stats[unit] = nlohmann::json::parse(read_file(out + "/stats.json"));
  }
  EXPECT_EQ(stats["0"], stats["120"]);  // gtx980's l2.latency
  const double slow = stats["0"]["stats"]["iru.prefetch_latency"]["value"];
  const double fast = stats["10"]["stats"]["iru.prefetch_latency"]["value"];
  EXPECT_GE(slow - fast, 100) << slow << " against " << fast;  // 110 fewer cycles a read, less queueing
}

// Ctrl-C mid-run: the run stops at the next clock edge, writes its statistics so far marked
// incomplete (and no half-written file), and exits 130 saying so. The signal comes after 5 s:
// earlier, on a loaded machine, it could arrive during elaboration, before there is a run to stop
// (the process then ends at once, as Ctrl-C does before anything is simulated); the run itself
// takes minutes.
TEST(Cli, InterruptedRunWritesItsStatisticsMarkedIncomplete) {
  TempDir d;
  const std::string out = d.path() + "/out";
  auto r = run_cli({"run", "-q", "-c", "kim4x16", "-s", "traffic.instructions=100000000", "-o", out, "--vcd",
                    d.path() + "/w.vcd"},
                   5.0);
  ASSERT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted (SIGINT) at"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the statistics so far are in " + out + " (marked incomplete)"), std::string::npos) << r.err;
  const auto stats = nlohmann::json::parse(read_file(out + "/stats.json"));
  EXPECT_NE(stats.value("incomplete", "").find("interrupted (SIGINT) at"), std::string::npos);
  EXPECT_GT(stats["stats"]["sim.memory_transactions"]["value"].get<double>(), 0);
  EXPECT_TRUE(nlohmann::json::parse(read_file(out + "/run.json")).contains("incomplete"));
  const std::string csv = read_file(out + "/stats.csv");  // its first row says so too
  EXPECT_EQ(csv.find("name,value,unit,description\nincomplete,1,,"), 0u) << csv.substr(0, 200);
  EXPECT_LT(csv.find("interrupted (SIGINT) at"), csv.find("\n", 40)) << csv.substr(0, 200);
  EXPECT_NE(read_file(d.path() + "/w.vcd").find("$enddefinitions"), std::string::npos);  // the waveform so far
  for (const auto& f : std::filesystem::recursive_directory_iterator(d.path()))
    EXPECT_NE(f.path().extension(), ".partial") << f.path();
}

TEST(Cli, MemorySystemRunIsDeterministic) {
  TempDir d;
  for (const char* run : {"a", "b"})
    ASSERT_EQ(run_cli({"run", "-q", "-c", "kim4x16", "-s", "traffic.instructions=60", "-o", d.path() + "/" + run}).exit_code, 0);
  const std::string a = read_file(d.path() + "/a/stats.json");
  EXPECT_NE(a.find("memory.total.l2_hit_rate"), std::string::npos);
  EXPECT_EQ(a, read_file(d.path() + "/b/stats.json"));
  auto r = run_cli({"run", "-q", "-s", "traffic.pattern=trace"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("traffic.pattern: trace needs traffic.trace"), std::string::npos) << r.err;
}

TEST(Cli, DacSplitPrintsBothStreamsAndWhyNot) {
  const std::string suite = std::string(IRRGPU_SOURCE_DIR) + "/workloads/kernels/suite.ptx";
  auto r = run_cli({"dac", "split", suite, "--kernel", "vecadd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"affine stream (one warp per CTA): vecadd_dac_affine", "non-affine stream: vecadd_dac_dp", "enq.data [",
                        "deq.data %dac_a", "global loads decoupled: 2 of 2; global stores decoupled: 1 of 1"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  r = run_cli({"dac", "split", suite, "--kernel", "hotspot"});
  EXPECT_NE(r.out.find("global loads decoupled: 2 of 6"), std::string::npos) << r.out;  // the clamped neighbours stay
  r = run_cli({"dac", "split", suite, "--kernel", "histogram"});
  EXPECT_NE(r.out.find("not decoupled: atomics stay in the non-affine stream"), std::string::npos) << r.out;
  r = run_cli({"dac", "split", suite, "--kernel", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no kernel 'nope' (kernels: vecadd, saxpy"), std::string::npos) << r.err;
  r = run_cli({"dac", "split", suite, "--tid-dims", "5"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = run_cli({"dac", "split", "/nonexistent.ptx"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(Cli, DacRunChecksTheSuiteAsWrittenAndSplit) {
  auto r = run_cli({"dac", "run", "vecadd", "sgemm"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("vecadd"), std::string::npos);
  EXPECT_EQ(r.out.find("differ"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  ok\n"), std::string::npos) << r.out;
  r = run_cli({"dac", "run", "nope"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown suite kernel 'nope'"), std::string::npos) << r.err;
  r = run_cli({"workloads"});
  EXPECT_NE(r.out.find("suite kernels (docs/dac.md), variants original and dac"), std::string::npos) << r.out;
}

// irrgpu exec without nvcc at hand: what it says about programs it cannot run (cuda.apps and
// cuda_exec_test run real ones where nvcc is installed).
TEST(Cli, ExecNamesWhatItCannotRun) {
  auto r = run_cli({"exec", "--mode", "functional", "--", "/nonexistent/app"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot run /nonexistent/app"), std::string::npos) << r.err;
  r = run_cli({"exec", "--mode", "functional", "--", "/bin/true"});  // no CUDA at all
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("never called irrgpu's CUDA runtime: build it with nvcc -cudart shared"), std::string::npos) << r.err;
  r = run_cli({"exec", "--mode", "sideways", "--", "/bin/true"});
  EXPECT_EQ(r.exit_code, 2);
  r = run_cli({"exec"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Cli, PtxCheck) {
  auto r = run_cli({"ptx", "check", std::string(IRRGPU_SOURCE_DIR) + "/testbenches/ptx/reduce.ptx"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 kernels"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("vadd(.u64 vadd_param_0, .u64 vadd_param_1, .u64 vadd_param_2, .u32 vadd_param_3)"), std::string::npos);
  EXPECT_NE(r.out.find("24 registers (ptxas); shared 1024 B"), std::string::npos) << r.out;
  r = run_cli({"ptx", "check", std::string(IRRGPU_SOURCE_DIR) + "/testbenches/ptx/reduce.ptx", "-s",
               "core.kernel_registers={reduce: 40}"});
  EXPECT_NE(r.out.find("40 registers (config)"), std::string::npos) << r.out;
  // The units' instructions are known to the check (the IRU's ldiru, the worklist's wl*, DAC's enq/deq).
  for (const char* ptx : {"frontier_iru.ptx", "wl_hwwl.ptx"}) {
    r = run_cli({"ptx", "check", std::string(IRRGPU_SOURCE_DIR) + "/workloads/kernels/" + ptx});
    EXPECT_EQ(r.exit_code, 0) << ptx << ": " << r.err;
  }
  TempDir d;
  std::string bad = d.write("bad.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\nfoo.b32 %r1;\n}\n");
  r = run_cli({"ptx", "check", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad + ":6:1: unsupported instruction 'foo'"), std::string::npos) << r.err;
  const std::string head = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.reg .b64 %rd<2>;\n.reg .pred %p<2>;\n";
  r = run_cli({"ptx", "check", d.write("dac.ptx", head + "enq.data [%rd1+8];\nenq.pred %p1;\ndeq.addr %rd1;\ndeq.pred %p1;\n}\n")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"ptx", "check", d.write("dac_bad.ptx", head + "enq.foo [%rd1];\n}\n")});
  EXPECT_NE(r.err.find("enq takes one of .data, .addr, .pred"), std::string::npos) << r.err;
  r = run_cli({"ptx", "check", d.write("dac_bad2.ptx", head + "enq.data %rd1;\n}\n")});
  EXPECT_NE(r.err.find("enq.data and enq.addr take an address [a]"), std::string::npos) << r.err;
  // An empty or comment-only file is no module (it parsed to nothing and passed).
  for (const char* text : {"", "// nothing here\n/* at all */\n"}) {
    const std::string empty = d.write("empty.ptx", text);
    r = run_cli({"ptx", "check", empty});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(empty + ": not a PTX module: no .version directive"), std::string::npos) << r.err;
  }
}

// A source vertex outside the graph is a usage error (-1 silently meant "the first vertex with an
// edge"; one past the last vertex was read out of bounds).
TEST(Cli, ASourceOutsideTheGraphIsRefused) {
  const std::string graph = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx";
  auto r = run_cli({"run", "--workload", "bfs", "--mode", "functional", "--graph", graph, "--source", "-1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--source"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "bfs", "--mode", "functional", "--graph", graph, "--source", "7"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--source: 7 is not a vertex of"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(0 to 6)"), std::string::npos) << r.err;
}

TEST(Cli, WorkloadRunChecksAgainstTheReference) {
  TempDir d;
  auto r = run_cli({"run", "--workload", "bfs", "--variant", "data_warp", "--graph",
                    std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx", "--source", "0", "-o", d.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos);
  EXPECT_NE(r.out.find("thread instructions/s"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(d.path() + "/result.txt"), "0 0\n1 1\n2 1\n3 2\n4 2\n5 inf\n6 inf\n");
  auto record = nlohmann::json::parse(read_file(d.path() + "/workload.json"));
  EXPECT_EQ(record["check"], "PASS");
  EXPECT_EQ(record["mode"], "timing");  // the default
  EXPECT_GT(record["warp_instructions"].get<int>(), 0);
  auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));  // the timed GPU's statistics
  EXPECT_GT(stats["stats"]["gpu.total.core_cycles"]["value"].get<double>(), 0) << stats.dump().substr(0, 300);
  // Per-kernel figures: a snapshot at each timed kernel's start and end.
  ASSERT_EQ(stats["snapshots"].size(), 2 * record["kernel_launches"].get<std::size_t>());
  EXPECT_EQ(stats["snapshots"][1]["label"], "kernel 0: bfs_data_warp");
  EXPECT_GT(stats["snapshots"][1]["values"]["gpu.sm0.warp_instructions"].get<double>(), 0);
  r = run_cli({"workloads"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("data_block"), std::string::npos);
  r = run_cli({"run", "--workload", "bfs", "--variant", "nope", "--graph", "grid:rows=2,cols=2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'nope' is not a variant of bfs (topology, data, data_vkc, data_warp, data_block, wl, hwwl, frontier, iru, harish, warp_centric, data_shared, unrolled, harish_swp, harish_swpnc, harish_unr2, harish_unr3, harish_unr2_swp, harish_unr2_swpnc, harish_hoisted, harish_restrict, unrolled_restrict)"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "bfs", "--graph", "grid:rows=2,cols=2", "--mode", "fast"});
  EXPECT_EQ(r.exit_code, 2);
  // A workload refuses an input it cannot run on before anything is simulated, saying why.
  r = run_cli({"run", "--workload", "sp", "--variant", "topology", "--graph", "grid:rows=2,cols=2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--graph: grid:rows=2,cols=2 is not a factor graph: sp runs on a K-SAT formula"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "sp", "--variant", "wl", "--mode", "functional", "--graph", "sat:vars=30,ratio=3,seed=2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
}

TEST(Cli, TimedWorkloadProbesShowInTheWaveform) {
  TempDir d;
  auto r = run_cli({"run", "-q", "--workload", "bfs", "--graph", std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx",
                    "--vcd", d.path() + "/w.vcd", "--trace", "gpu.sm0.*"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string vcd = read_file(d.path() + "/w.vcd");
  // Each SM probe is declared, and each takes a non-zero value at some point of the run.
  for (const char* probe : {"active_warps", "issued", "outstanding_loads"}) {
    std::smatch m;
    ASSERT_TRUE(std::regex_search(vcd, m, std::regex(std::string("\\$var wire \\d+ (\\S+) ") + probe + " ")))
        << probe;
    EXPECT_TRUE(std::regex_search(vcd, std::regex("\\nb[01]*1[01]* " + std::regex_replace(m[1].str(), std::regex(R"([^\w])"), R"(\$&)") + "\\n")))
        << probe << " never non-zero";
  }
}

TEST(Cli, TimingFromKernelFastForwardsTheFirstKernels) {
  TempDir d;
  const std::vector<std::string> bfs = {"run", "-q", "--workload", "bfs", "--variant", "data", "--graph", "rmat:scale=8"};
  auto with = [&](std::vector<std::string> extra, const std::string& out) {
    std::vector<std::string> args = bfs;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"-o", d.path() + "/" + out});
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return std::make_pair(nlohmann::json::parse(read_file(d.path() + "/" + out + "/stats.json"))["stats"],
                          nlohmann::json::parse(read_file(d.path() + "/" + out + "/workload.json")));
  };
  const auto [all_stats, all] = with({}, "all");
  const auto [ff_stats, ff] = with({"--timing-from-kernel", "2"}, "ff");
  EXPECT_EQ(ff["check"], "PASS");
  // workload.json counts every kernel, the timed statistics only the timed ones. (Counts of
  // timed and functional runs differ a little: which thread wins a race changes the work.)
  EXPECT_GT(ff["warp_instructions"].get<double>(), ff_stats["gpu.total.warp_instructions"]["value"].get<double>());
  EXPECT_EQ(all["warp_instructions"].get<double>(), all_stats["gpu.total.warp_instructions"]["value"].get<double>());
  EXPECT_EQ(ff_stats["gpu.fast_forwarded_kernels"]["value"], 2);
  EXPECT_EQ(ff_stats["gpu.kernels"]["value"].get<int>() + 2, all_stats["gpu.kernels"]["value"].get<int>());
  EXPECT_LT(ff_stats["gpu.total.warp_instructions"]["value"].get<double>(),
            all_stats["gpu.total.warp_instructions"]["value"].get<double>());
  EXPECT_LT(ff_stats["gpu.total.core_cycles"]["value"].get<double>(), all_stats["gpu.total.core_cycles"]["value"].get<double>());
  auto r = run_cli({"run", "--workload", "bfs", "--graph", "grid:rows=3,cols=3", "--mode", "functional", "--timing-from-kernel", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--timing-from-kernel: fast-forward needs --mode timing"), std::string::npos) << r.err;
  r = run_cli({"run", "--timing-from-kernel", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("fast-forward needs --workload"), std::string::npos) << r.err;
}

TEST(Cli, WorkloadCheckFailureExits1) {
  // Fault injection through the documented kernel folder: a BFS that writes level + 2.
  TempDir d;
  std::string ptx = read_file(std::string(IRRGPU_SOURCE_DIR) + "/workloads/kernels/bfs.ptx");
  // bfs_data's CAS writes the register computed as level + 1: make it level + 2.
  const std::size_t kernel = ptx.find(".entry bfs_data(");
  std::smatch cas;
  const std::string body = ptx.substr(kernel);
  ASSERT_TRUE(std::regex_search(body, cas, std::regex(R"(atom\.global\.cas\.b32\s+%r\d+, \[%rd\d+\], %r\d+, (%r\d+);)")));
  const std::string plus1 = "add.s32 \t" + cas[1].str() + ", ";
  const std::size_t at = ptx.find(plus1, kernel);
  ASSERT_NE(at, std::string::npos);
  const std::size_t one = ptx.find(", 1;", at);
  ptx.replace(one, 4, ", 2;");
  d.write("bfs.ptx", ptx);
  const std::string cmd = "IRRGPU_WORKLOADS_DIR=" + d.path() + " '" + std::string(IRRGPU_CLI) +
                          "' run --workload bfs --variant data --graph grid:rows=4,cols=4 > " + d.path() + "/out 2>&1";
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_NE(read_file(d.path() + "/out").find("check: FAIL vertex 1: got 2.000000, expected 1.000000"), std::string::npos)
      << read_file(d.path() + "/out");
}

// RTL in the loop: the unit testbench with the Verilated banks gives the model's statistics, byte
// for byte (the bank checks the RTL against the model at every access, and its reads are used).
TEST(Cli, HwwlRtlBanksGiveTheModelsStatistics) {
  TempDir d;
  for (const char* setting : {"hwwl.redistribution=lsorting", "hwwl.redistribution=magic", "hwwl.mode=single"}) {
    for (const char* impl : {"model", "rtl"})
      ASSERT_EQ(run_cli({"run", "-q", "-s", "sim.top=hwwl", "-s", "hwwl.testbench.work_ids=3000", "-s", setting, "-s",
                         std::string("hwwl.bank.impl=") + impl, "-o", d.path() + "/" + impl})
                    .exit_code,
                0)
          << setting << " " << impl;
    EXPECT_EQ(read_file(d.path() + "/model/stats.json"), read_file(d.path() + "/rtl/stats.json")) << setting;
  }
  auto r = run_cli({"run", "-q", "-s", "sim.top=hwwl", "-s", "hwwl.bank.impl=rtl", "-s", "hwwl.trigger=on_demand"});
  EXPECT_EQ(r.exit_code, 2);  // a configuration error
  EXPECT_NE(r.err.find("on_demand needs a second"), std::string::npos) << r.err;
}

// A variant that needs a unit of the timed GPU says so in functional mode.
TEST(Cli, HwwlVariantNeedsTimingMode) {
  auto r = run_cli({"run", "--workload", "bfs", "--variant", "hwwl", "--graph", "grid:rows=4,cols=4", "--mode", "functional"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--variant: hwwl needs the hwwl unit, which runs in timing mode (--mode timing)"), std::string::npos)
      << r.err;
}

// RTL in the loop on the whole GPU: BFS on the hardware worklist with the Verilated banks gives the
// model's stats.json byte for byte.
TEST(Cli, WholeGpuBfsWithRtlBanksGivesTheModelsStatistics) {
  TempDir d;
  for (const char* impl : {"model", "rtl"}) {
    auto r = run_cli({"run", "-q", "-c", "kim4x16", "--workload", "bfs", "--variant", "hwwl", "--graph",
                      "rmat:scale=8,edge_factor=8", "-s", std::string("hwwl.bank.impl=") + impl, "-o", d.path() + "/" + impl});
    ASSERT_EQ(r.exit_code, 0) << impl << ": " << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
  }
  const std::string model = read_file(d.path() + "/model/stats.json");
  EXPECT_NE(model.find("hwwl.pulls"), std::string::npos);
  EXPECT_EQ(model, read_file(d.path() + "/rtl/stats.json"));
}

// RTL in the loop on the whole GPU: wavefronts under DATS with the Verilated node state table give
// the model's stats.json byte for byte, under LVL with the paper's LVL buffer (with PUB traffic) and
// LRR with its LRR buffer; a buffer the build did not verilate is refused before the run, naming the builds.
TEST(Cli, WavefrontWithRtlNodeStateTableGivesTheModelsStatistics) {
  TempDir d;
  const std::vector<std::vector<std::string>> runs = {
      {"sor", "lvl", "70x70", "2"}, {"dtw", "lrr", "40x40", "4", "-s", "dats.lna_entries=512", "-s", "dats.lea_entries=2048"}};
  for (const auto& w : runs) {
    for (const char* impl : {"model", "rtl"}) {
      std::vector<std::string> args = {"run", "-q", "--workload", w[0], "--variant", w[1], "--tiles", w[2], "--tile", w[3],
                                       "-s", "gpu.cta_scheduler=dats", "-s", std::string("dats.nst.impl=") + impl,
                                       "-o", d.path() + "/" + w[1] + impl};
      args.insert(args.end(), w.begin() + 4, w.end());
      auto r = run_cli(args);
      ASSERT_EQ(r.exit_code, 0) << impl << ": " << r.err;
      EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
    }
    const std::string model = read_file(d.path() + "/" + w[1] + "model/stats.json");
    EXPECT_EQ(model, read_file(d.path() + "/" + w[1] + "rtl/stats.json")) << w[1];
    if (w[1] == "lvl") {  // updates for children not yet loaded go through the PUB
      EXPECT_GT(nlohmann::json::parse(model)["stats"]["gpu.dats.pub_updates"]["value"].get<double>(), 0);
    }
  }
  auto r = run_cli({"run", "-q", "--workload", "sor", "--variant", "lvl", "--tiles", "4", "-s", "gpu.cta_scheduler=dats",
                    "-s", "dats.nst.impl=rtl", "-s", "dats.lna_entries=64"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no RTL build for 64 rows/LEA 512/PUB 64"), std::string::npos) << r.err;
}

// A wavefront workload from the command line: the record, the DATS statistics and probes, and the
// errors a user meets (a dependency variant without the dependency-aware scheduler, bad tiles).
TEST(Cli, WavefrontWorkloadRunsWithDatsAndExplainsWhatIsMissing) {
  TempDir d;
  auto r = run_cli({"run", "-q", "--workload", "sw", "--variant", "lvl", "--tiles", "6x4", "--tile", "8", "-s",
                    "gpu.cta_scheduler=dats", "-o", d.path(), "--vcd", d.path() + "/w.vcd", "--trace", "gpu.dats.*"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos);
  auto record = nlohmann::json::parse(read_file(d.path() + "/workload.json"));
  EXPECT_EQ(record["blocks"], 24);
  EXPECT_EQ(record["waves"], 9);
  auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));
  EXPECT_EQ(stats["stats"]["gpu.dats.nodes_loaded"]["value"].get<double>(), 24);
  const auto vcd = irr::testing::parse_vcd(read_file(d.path() + "/w.vcd"));
  for (const char* probe : {"lna_head", "lna_tail", "lea_head", "lea_tail", "pub_entries", "level_min", "level_max", "nst.slot0"})
    EXPECT_TRUE(std::any_of(vcd.widths.begin(), vcd.widths.end(),
                            [&](const auto& w) { return w.first.find(probe) != std::string::npos; })) << probe;
  r = run_cli({"run", "--workload", "sw", "--variant", "lrr", "--tiles", "4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--set gpu.cta_scheduler=dats"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "sw", "--tiles", "4x", "--mode", "functional"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tiles"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "dtw", "--tile", "1025", "--mode", "functional"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tile: 1025 elements per tile side: 1 to 1,024"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "dtw", "--seed", "x1", "--mode", "functional"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--seed: 'x1' is not a non-negative integer"), std::string::npos) << r.err;
}

// A unit the configuration enables attaches to a wavefront run as to every other family's (before,
// the run stopped: "iru.enabled is set but no model in this run reads it"): the IRU's statistics
// are there, and the check still passes.
TEST(Cli, WavefrontRunsAttachTheUnitsTheConfigurationEnables) {
  TempDir d;
  auto r = run_cli({"run", "-q", "--workload", "sor", "--variant", "global", "--tiles", "4", "-s", "iru.enabled=true",
                    "-o", d.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos);
  auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));
  EXPECT_TRUE(stats["stats"].contains("iru.elements")) << "no IRU statistics: the unit was not attached";
}

// The baseline CTA scheduler named explicitly and the device launch latency change nothing (a run
// without device launches): statistics byte for byte, and no DATS statistic at all (a DATS key
// set without the DATS scheduler is refused as read by no model).
TEST(Cli, RoundRobinRunsIgnoreTheDatsKeys) {
  TempDir a, b;
  const std::string graph = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx";
  auto r = run_cli({"run", "-q", "--workload", "bfs", "--graph", graph, "-o", a.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"run", "-q", "--workload", "bfs", "--graph", graph, "-o", b.path(), "-s", "gpu.cta_scheduler=round_robin",
               "-s", "host.device_launch_latency=1us"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string stats = read_file(a.path() + "/stats.json");
  EXPECT_EQ(stats, read_file(b.path() + "/stats.json"));
  EXPECT_EQ(stats.find("dats"), std::string::npos);
  EXPECT_EQ(stats.find("front_end"), std::string::npos);
  r = run_cli({"run", "-q", "--workload", "bfs", "--graph", graph, "-s", "dats.lna_entries=64"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("dats.lna_entries is set but no model in this run reads it"), std::string::npos) << r.err;
}

// The IRU switched off (not attached: iru.enabled false and a variant that does not need it)
// changes nothing: statistics byte for byte and no IRU statistic; its variant runs and passes.
TEST(Cli, RunsWithoutTheIruHaveNoIruStatistics) {
  TempDir a, b, c;
  const std::string graph = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx";
  auto r = run_cli({"run", "-q", "--mode", "timing", "--workload", "sssp", "--variant", "frontier", "--graph", graph, "-o",
                    a.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_cli({"run", "-q", "--mode", "timing", "--workload", "sssp", "--variant", "frontier", "--graph", graph, "-o",
               b.path(), "-s", "iru.enabled=false"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string stats = read_file(a.path() + "/stats.json");
  EXPECT_EQ(stats, read_file(b.path() + "/stats.json"));
  EXPECT_EQ(stats.find("iru"), std::string::npos);
  r = run_cli({"run", "--mode", "timing", "--workload", "sssp", "--variant", "iru", "--graph", graph, "-o", c.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
  EXPECT_NE(read_file(c.path() + "/stats.json").find("\"iru.delivered\""), std::string::npos);
  r = run_cli({"run", "--workload", "sssp", "--variant", "iru", "--graph", graph, "--mode", "functional"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("iru needs the iru unit, which runs in timing mode"), std::string::npos) << r.err;
}

// The Verilated hash banks in the loop (iru.bank.impl: rtl) give the model's statistics byte for
// byte, under the min (SSSP) and add_f32 (PageRank) filters; a bank size the build did not verilate
// is a configuration error naming the key.
TEST(Cli, IruWithRtlBanksGivesTheModelsStatistics) {
  const std::string graph = "rmat:scale=7";
  for (const char* w : {"sssp", "pr"}) {
    TempDir a, b;
    auto r = run_cli({"run", "-q", "-c", "gtx980", "--workload", w, "--variant", "iru", "--graph", graph, "-o", a.path()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli({"run", "-q", "-c", "gtx980", "--workload", w, "--variant", "iru", "--graph", graph, "-o", b.path(), "-s",
                 "iru.bank.impl=rtl"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(a.path() + "/stats.json"), read_file(b.path() + "/stats.json")) << w;
  }
  auto r = run_cli({"run", "-q", "--workload", "bfs", "--variant", "iru", "--graph", graph, "-s", "iru.bank.impl=rtl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("iru.bank.impl: rtl: iru_hash_bank: no RTL build for 86 sets x 32 elements"), std::string::npos) << r.err;
}

// --dry-run checks what a run would need and stops: nothing simulated or written, and each check
// still fails as the run would (a bad variant, a missing program, an unknown block).
TEST(Cli, DryRunChecksAndStopsBeforeSimulating) {
  TempDir d;
  const auto ok = run_cli({"run", "--dry-run", "--workload", "bfs", "--graph", "rmat:scale=8", "-o", d.path()});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("irrgpu: dry run: bfs/data (timing): checked, nothing run"), std::string::npos) << ok.out;
  EXPECT_EQ(ok.out.find("check: PASS"), std::string::npos) << ok.out;
  EXPECT_FALSE(std::filesystem::exists(d.path() + "/stats.json"));
  EXPECT_EQ(run_cli({"run", "--dry-run", "--workload", "bfs", "--graph", "rmat:scale=8", "--variant", "nope"}).exit_code, 2);
  EXPECT_EQ(run_cli({"run", "--dry-run", "--trace", "nothing.*"}).exit_code, 2);
  const auto missing = run_cli({"exec", "--dry-run", "--", d.path() + "/no_such_program"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("not found or not executable"), std::string::npos) << missing.err;
  EXPECT_EQ(run_cli({"exec", "--dry-run", "--mode", "functional", "--", "true"}).exit_code, 0);
  EXPECT_EQ(run_cli({"calibrate", "--dry-run", "latency"}).exit_code, 0);
  EXPECT_EQ(run_cli({"calibrate", "--dry-run", "nope"}).exit_code, 2);
  EXPECT_EQ(run_cli({"area", "--dry-run", "sync_fifo"}).exit_code, 0);
  EXPECT_EQ(run_cli({"area", "--dry-run", "nope"}).exit_code, 2);
}

// Units in the trace, through the contract (no unit traces itself): each operation a warp issues
// to a unit is a span, issue to completion, on the unit's rows of its SM ("unit ROUTE"), and the
// requests for a unit beside the L2 reach its partition's "unit" track; spans on one row never
// overlap (overlapping CTAs and operations take further rows); no statistic moves.
TEST(Cli, TraceHasUnitSpansOnRowsThatDoNotOverlap) {
  for (const std::string variant : {"hwwl", "iru"}) {
    TempDir d;
    const std::vector<std::string> run = {"run", "-q", "--workload", "bfs", "--variant", variant, "--graph", "rmat:scale=8"};
    auto args = run;
    args.insert(args.end(), {"-o", d.path() + "/plain"});
    ASSERT_EQ(run_cli(args).exit_code, 0);
    args = run;
    args.insert(args.end(), {"-o", d.path() + "/traced", "--txn-trace", d.path() + "/t.json"});
    const auto r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(d.path() + "/plain/stats.json"), read_file(d.path() + "/traced/stats.json")) << variant;
    const auto trace = nlohmann::json::parse(read_file(d.path() + "/t.json"));
    std::map<std::pair<int, int>, std::string> row;  // (pid, tid) -> the track's name
    for (const auto& e : trace["traceEvents"])
      if (e["ph"] == "M" && e["name"] == "thread_name") row[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
    std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> spans;
    std::size_t unit_ops = 0, partition_unit = 0;
    for (const auto& e : trace["traceEvents"]) {
      const std::pair<int, int> where{e["pid"].get<int>(), e["tid"].get<int>()};
      if (e["ph"] == "X" && e["cat"] == "event") {
        spans[where].emplace_back(e["ts"].get<double>(), e["ts"].get<double>() + e["dur"].get<double>());
        if (row[where].rfind("unit ", 0) == 0 && e["args"].contains("warp")) ++unit_ops;
      }
      if (e["ph"] != "M" && row[where] == "unit") ++partition_unit;
    }
    if (variant == "hwwl") EXPECT_GT(unit_ops, 0u);
    else EXPECT_GT(partition_unit, 0u);
    for (auto& [where, s] : spans) {
      if (row[where] == "kernels") continue;  // the GPU's launches (one stream: they do not overlap either)
      std::sort(s.begin(), s.end());
      for (std::size_t i = 1; i < s.size(); ++i) EXPECT_LE(s[i - 1].second, s[i].first + 1e-9) << row[where];
    }
  }
}
