// SPDX-License-Identifier: Apache-2.0
// The energy model on whole timed runs (models/power, docs/power.md), through the command line:
// each component is its events times its configured energy, the parts add up to the totals, each
// kernel's snapshot carries energy, and the model changes no other statistic.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;

namespace {
nlohmann::json stats_of(const std::string& dir) { return nlohmann::json::parse(read_file(dir + "/stats.json")); }

double value(const nlohmann::json& s, const std::string& name) {
  EXPECT_TRUE(s["stats"].contains(name)) << name;
  return s["stats"].contains(name) ? s["stats"][name]["value"].get<double>() : 0.0;
}

// A statistic summed over the SMs or partitions: every `base`N.`leaf`.
double each(const nlohmann::json& s, const std::string& base, const std::string& leaf) {
  double v = 0;
  for (const auto& [name, stat] : s["stats"].items())
    if (name.rfind(base, 0) == 0 && name.size() > base.size() + leaf.size() &&
        name.compare(name.size() - leaf.size() - 1, leaf.size() + 1, "." + leaf) == 0 &&
        name.find('.', base.size()) == name.size() - leaf.size() - 1)
      v += stat["value"].get<double>();
  return v;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

void expect_close(double got, double want, const std::string& what) {
  EXPECT_NEAR(got, want, 1e-9 * std::max(1.0, std::abs(want))) << what;
}

const std::vector<std::string> kBfs = {"--workload", "bfs", "--variant", "data", "--graph", "rmat:scale=8"};
}  // namespace

// Every component is its count times the preset's constant (gtx480: the 40 nm reference, unscaled).
TEST(PowerGpu, ComponentsAreTheirEventsTimesTheirEnergy) {
  TempDir d;
  std::vector<std::string> args = {"run", "-q", "-c", "gtx480", "-o", d.path()};
  args.insert(args.end(), kBfs.begin(), kBfs.end());
  ASSERT_EQ(run_cli(args).exit_code, 0);
  const auto s = stats_of(d.path());
  const double uj = 1e-6;
  expect_close(value(s, "energy.core.instruction"), each(s, "gpu.sm", "warp_instructions") * 9.6 * uj, "instruction");
  expect_close(value(s, "energy.core.register_file"),
               (each(s, "gpu.sm", "energy_events.register_reads") + each(s, "gpu.sm", "energy_events.register_writes")) * 32 *
                   2.86 * uj,
               "register file");
  expect_close(value(s, "energy.core.int"), each(s, "gpu.sm", "energy_events.lanes.int") * 0.57 * uj, "int");
  // Every lane of every instruction, once: the lanes by kind add up to the thread instructions.
  double lanes = 0;
  for (const char* kind : {"int", "fp", "sfu", "other"}) lanes += each(s, "gpu.sm", std::string("energy_events.lanes.") + kind);
  EXPECT_EQ(lanes, each(s, "gpu.sm", "thread_instructions"));
  expect_close(value(s, "energy.core.pipeline"), lanes * 241 * uj, "pipeline");
  // 6 channels of 8 B at 4 transfers a clock: 256 bits a bus cycle, 7.8 pJ each.
  expect_close(value(s, "energy.dram.io"), each(s, "gpu.partition", "dram.bus_busy_cycles") * 256 * 7.8 * uj, "dram io");
  const double kernel_s = value(s, "gpu.kernel_cycles") / 700e6;
  expect_close(value(s, "energy.static.sm"), 15 * 3.0 * kernel_s * 1e6, "SM leakage");
  expect_close(value(s, "energy.static.dram"), 12 * 0.300 * 1.5 * kernel_s * 1e6, "DRAM standby");
  // A run that does work has every dynamic part it exercised above zero.
  for (const char* part : {"core.instruction", "core.register_file", "core.int", "l1", "l2", "interconnect", "dram.io",
                           "dram.read_write", "dram.activate"})
    EXPECT_GT(value(s, std::string("energy.") + part), 0) << part;

  double dynamic = 0, statics = 0;
  for (const auto& [name, stat] : s["stats"].items()) {
    if (name.rfind("energy.", 0) != 0 || name.rfind("energy.sm", 0) == 0) continue;
    const std::string part = name.substr(7);
    if (part == "dynamic" || part == "static" || part == "total" || part == "average_power" || part == "time_inside_kernels")
      continue;
    (part.rfind("static.", 0) == 0 || part == "dram.refresh" ? statics : dynamic) += stat["value"].get<double>();
  }
  EXPECT_NEAR(value(s, "energy.dynamic"), dynamic, 1e-9 * dynamic);
  EXPECT_NEAR(value(s, "energy.static"), statics, 1e-9 * statics);
  EXPECT_NEAR(value(s, "energy.total"), dynamic + statics, 1e-9 * (dynamic + statics));
  EXPECT_NEAR(value(s, "energy.average_power"), value(s, "energy.total") * 1e-6 / kernel_s, 1e-6);
  // The SMs' own energies are parts of the core and L1 totals.
  double sms = 0;
  for (int i = 0; i < 15; ++i) sms += value(s, "energy.sm" + std::to_string(i));
  const double core_l1 = value(s, "energy.core.instruction") + value(s, "energy.core.pipeline") +
                         value(s, "energy.core.register_file") + value(s, "energy.core.int") +
                         value(s, "energy.core.fp") + value(s, "energy.core.sfu") + value(s, "energy.core.shared_memory") +
                         value(s, "energy.l1");
  EXPECT_NEAR(sms, core_l1, 1e-9 * core_l1);
  // Each kernel's snapshot has the energy so far: it grows from launch to launch.
  double last = -1;
  for (const auto& snap : s["snapshots"]) {
    ASSERT_TRUE(snap["values"].contains("energy.total"));
    EXPECT_GE(snap["values"]["energy.total"].get<double>(), last);
    last = snap["values"]["energy.total"].get<double>();
  }
}

// The model off: no energy statistic and no event counter; on: every other statistic as it was
// (with a unit attached: the HWWL's banks are priced too).
TEST(PowerGpu, TheModelChangesNoOtherStatistic) {
  TempDir on, off;
  for (auto [dir, enabled] : {std::pair{&on, "true"}, std::pair{&off, "false"}}) {
    std::vector<std::string> args = {"run", "-q", "-c", "gtx480", "-o", dir->path(), "-s", std::string("power.enabled=") + enabled,
                                     "--workload", "bfs", "--variant", "hwwl", "--graph", "rmat:scale=8"};
    ASSERT_EQ(run_cli(args).exit_code, 0);
  }
  const auto a = stats_of(on.path()), b = stats_of(off.path());
  std::size_t energy = 0;
  for (const auto& [name, stat] : a["stats"].items()) {
    if (name.rfind("energy.", 0) == 0 || name.find(".energy_events.") != std::string::npos || ends_with(name, ".energy") ||
        ends_with(name, ".static_energy")) {
      ++energy;
      EXPECT_FALSE(b["stats"].contains(name)) << name;
      continue;
    }
    ASSERT_TRUE(b["stats"].contains(name)) << name;
    EXPECT_EQ(stat, b["stats"][name]) << name;
  }
  EXPECT_EQ(a["stats"].size(), b["stats"].size() + energy);
  for (const char* part : {"hwwl.bank.energy", "hwwl.bank.static_energy", "hwwl.wru.energy"}) EXPECT_GT(value(a, part), 0) << part;
  // The WRU, interval-triggered: lsorting sorts 32 lanes' occupancies by a sorting network
  // (32 x 5 comparisons) in each of 15 cores at each redistribution point, 0.57 pJ each.
  EXPECT_EQ(value(a, "hwwl.energy_events.wru_comparisons"), value(a, "hwwl.redistribution_points") * 15 * 32 * 5);
  expect_close(value(a, "hwwl.wru.energy"), value(a, "hwwl.energy_events.wru_comparisons") * 0.57 * 1e-6, "WRU");
}

// A unit's arrays: DAC's at the thesis's own energy an access [S L690-L693], and its expansion
// units' ALU operations (two an expansion the AEU starts, one a PEU comparison), summed into
// energy.units; each array's leakage, its area at the chip's leakage density, into energy.static.units.
TEST(PowerGpu, UnitArraysArePricedAndAddedUp) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-q", "-c", "gtx480", "-o", d.path(), "--workload", "vecadd", "--variant", "dac"}).exit_code, 0);
  const auto s = stats_of(d.path());
  const double uj = 1e-6;
  const std::pair<const char*, double> arrays[] = {{"atq", 5.3}, {"pwaq", 3.4}, {"pwpq", 1.5}, {"pws", 2.7}};
  double units = 0;
  for (const auto& [array, pj] : arrays) {
    const double accesses = each(s, "gpu.sm", std::string("dac.") + array + "_accesses");
    const double energy = each(s, "gpu.sm", std::string("dac.") + array + ".energy");
    expect_close(energy, accesses * pj * uj, array);
    units += energy;
  }
  EXPECT_GT(each(s, "gpu.sm", "dac.atq_accesses"), 0);
  const double expansions = each(s, "gpu.sm", "dac.energy_events.aeu_expansions");
  EXPECT_GT(expansions, 0);
  expect_close(each(s, "gpu.sm", "dac.aeu.energy"), expansions * 2 * 0.57 * uj, "AEU");
  expect_close(each(s, "gpu.sm", "dac.peu.energy"), each(s, "gpu.sm", "dac.peu_comparisons") * 0.57 * uj, "PEU");
  units += each(s, "gpu.sm", "dac.aeu.energy") + each(s, "gpu.sm", "dac.peu.energy");
  expect_close(value(s, "energy.units"), units, "energy.units");
  // gtx480's leakage density: 15 SMs x 3 W and 6 slices x 1 W over 520 mm2; a bit 0.692 um2.
  const double seconds = value(s, "energy.time_inside_kernels"), density = (15 * 3.0 + 6 * 1.0) / 520;
  EXPECT_NEAR(seconds, value(s, "gpu.kernel_cycles") / 700e6, 1e-15);
  expect_close(value(s, "gpu.sm0.dac.atq.static_energy"), 24 * 131 * 0.346 / 0.5 * 1e-6 * density * seconds * 1e6, "ATQ leakage");
  double leakage = 0;
  for (const auto& [name, stat] : s["stats"].items())
    if (ends_with(name, ".static_energy")) leakage += stat["value"].get<double>();
  EXPECT_GT(leakage, 0);
  expect_close(value(s, "energy.static.units"), leakage, "energy.static.units");
}

// The IRU's hash banks, ring and buffers, each partition's, priced by their accesses; the
// requests' FIFO written on arrival and read at the reply.
TEST(PowerGpu, TheIrusArraysArePriced) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-q", "-c", "gtx980", "-o", d.path(), "--workload", "bfs", "--variant", "iru", "--graph", "rmat:scale=8"})
                .exit_code,
            0);
  const auto s = stats_of(d.path());
  for (const char* a : {"hash", "ring", "request_buffer", "prefetch_buffer", "classifier_buffer"}) {
    EXPECT_GT(value(s, std::string("iru.") + a + ".energy"), 0) << a;
    EXPECT_GT(value(s, std::string("iru.") + a + ".static_energy"), 0) << a;
  }
  // The prefetch and classifier buffers: 2 accesses each element; per access the smaller array is cheaper.
  EXPECT_LT(value(s, "iru.classifier_buffer.energy"), value(s, "iru.prefetch_buffer.energy") * 80 / 64 + 1e-12);
}

// A cache mechanism's tables (here the spatial pattern predictor's, and a stride prefetcher's) are
// priced at every load look-up of their cache, and leak.
TEST(PowerGpu, CacheMechanismsTablesArePriced) {
  TempDir d;
  std::vector<std::string> args = {"run", "-q", "-c", "gtx480", "-o", d.path(), "-s", "l2.granularity=spp", "-s",
                                   "l1.prefetcher=stride"};
  args.insert(args.end(), kBfs.begin(), kBfs.end());
  ASSERT_EQ(run_cli(args).exit_code, 0) ;
  const auto s = stats_of(d.path());
  const double lookups = value(s, "gpu.partition0.l2.hits") + value(s, "gpu.partition0.l2.misses");
  ASSERT_GT(lookups, 0);
  const double e = value(s, "gpu.partition0.l2.spp.tables.energy");
  EXPECT_GT(e, 0);
  EXPECT_GT(value(s, "gpu.partition0.l2.spp.tables.static_energy"), 0);
  EXPECT_GT(value(s, "gpu.sm0.l1.prefetcher.tables.energy"), 0);
  // One energy a look-up on every slice: slice 1's energy over its look-ups is slice 0's.
  const double lookups1 = value(s, "gpu.partition1.l2.hits") + value(s, "gpu.partition1.l2.misses");
  expect_close(value(s, "gpu.partition1.l2.spp.tables.energy") / lookups1, e / lookups, "per look-up");
}

// A lower node and voltage lower the on-chip energy of the same run, and leave the DRAM's.
TEST(PowerGpu, TheNodeScalesOnChipEnergyOnly) {
  TempDir ref, small;
  for (auto [dir, nm] : {std::pair{&ref, "40"}, std::pair{&small, "20"}}) {
    std::vector<std::string> args = {"run", "-q", "-c", "gtx480", "-o", dir->path(), "-s", std::string("power.technology_nm=") + nm};
    args.insert(args.end(), kBfs.begin(), kBfs.end());
    ASSERT_EQ(run_cli(args).exit_code, 0);
  }
  const auto a = stats_of(ref.path()), b = stats_of(small.path());
  EXPECT_NEAR(value(b, "energy.core.register_file"), value(a, "energy.core.register_file") / 2, 1e-9);
  EXPECT_NEAR(value(b, "energy.static.sm"), value(a, "energy.static.sm") / 2, 1e-6);
  EXPECT_DOUBLE_EQ(value(b, "energy.dram.io"), value(a, "energy.dram.io"));
}

TEST(PowerGpu, BadConstantsAreConfigErrors) {
  TempDir d;
  const auto r = run_cli({"run", "-q", "-c", "gtx480", "-o", d.path(), "-s", "power.vdd=7"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("power.vdd"), std::string::npos) << r.err;
}

// The calibration (docs/results/power.md): every SM issuing independent FMAs draws each preset's
// chip at its published TDP (power.lane_pj was set so), and a GDDR5 line (gtx480's) costs NVIDIA's
// 16 nJ less the controller's share (docs/results/power.md: -30 %).
TEST(PowerGpu, AFullFmaLoadDrawsEachPresetsTdp) {
  const std::pair<const char*, double> tdp[] = {{"gtx480", 250}, {"gtx980", 165}, {"k40c", 235}, {"gtx1080ti", 250}, {"rtx2080ti", 250}};
  for (const auto& [preset, watts] : tdp) {
    TempDir d;
    const std::string json = d.path() + "/energy.json";
    const auto r = run_cli({"calibrate", "-c", preset, "energy", "--json", json});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto f = nlohmann::json::parse(read_file(json));
    EXPECT_NEAR(f["energy.fma_power"]["value"].get<double>(), watts, 0.03 * watts) << preset;
    const double line = f["energy.dram_line"]["value"].get<double>();
    EXPECT_GT(line, std::string(preset) == "gtx480" ? 0.6 * 16000 : 0.0) << preset;
    EXPECT_LT(line, 1.3 * 16000) << preset;
  }
}

// DATS's dependency graph buffer: every node's NST row is written at least on insertion, issue and
// retirement, each edge's LEA entry written once and read once, the PUB searched at each insertion.
TEST(PowerGpu, TheDependencyGraphBuffersArraysCountTheirAccesses) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-q", "-c", "gtx480", "-o", d.path(), "-s", "gpu.cta_scheduler=dats", "--workload", "sw", "--variant",
                     "lvl", "--tiles", "8x8", "--tile", "16"})
                .exit_code,
            0);
  const auto s = stats_of(d.path());
  const double nodes = value(s, "gpu.dats.nodes_loaded");
  EXPECT_GE(value(s, "gpu.dats.energy_events.nst"), 3 * nodes);
  EXPECT_GE(value(s, "gpu.dats.energy_events.pub"), nodes);
  const double lea = value(s, "gpu.dats.energy_events.lea");
  EXPECT_GT(lea, 0);
  EXPECT_EQ(std::fmod(lea, 2.0), 0.0);
  double arrays = 0;
  for (const char* a : {"nst", "lea", "pub"}) {
    EXPECT_GT(value(s, std::string("gpu.dats.") + a + ".energy"), 0) << a;
    arrays += value(s, std::string("gpu.dats.") + a + ".energy");
  }
  expect_close(value(s, "energy.units"), arrays, "energy.units");
}

// SPREF's tables: priced by their accesses (invocations, prefetches, moves), summed into energy.units.
TEST(PowerGpu, SprefTablesArePricedByTheirAccesses) {
  TempDir d;
  ASSERT_EQ(run_cli({"run", "-q", "-c", "graphmem", "-o", d.path(), "-s", "spref.enabled=true", "--workload", "bfs", "--variant",
                     "harish_restrict", "--graph", "rmat:scale=11"})
                .exit_code,
            0);
  const auto s = stats_of(d.path());
  const double accesses = each(s, "gpu.sm", "spref.invocations") + 2 * each(s, "gpu.sm", "spref.head_prefetches") +
                          2 * each(s, "gpu.sm", "spref.tail_prefetches") + each(s, "gpu.sm", "spref.moves");
  const double energy = each(s, "gpu.sm", "spref.tables.energy");
  ASSERT_GT(accesses, 0);
  EXPECT_GT(energy, 0);
  // One energy an access for every SM's tables: the same ratio on each.
  const double pj = value(s, "gpu.sm0.spref.tables.energy") * 1e6 /
                    (value(s, "gpu.sm0.spref.invocations") + 2 * value(s, "gpu.sm0.spref.head_prefetches") +
                     2 * value(s, "gpu.sm0.spref.tail_prefetches") + value(s, "gpu.sm0.spref.moves"));
  expect_close(energy * 1e6, accesses * pj, "SPREF tables");
  expect_close(value(s, "energy.units"), energy, "energy.units");
}

// The L1's units' fetch path (DAC's early requests on the DMA engine's path): each line a tag
// lookup and each miss a fill of the L1's array, priced as the input's accesses and fills are —
// the same energy per event as in a run without the path.
TEST(PowerGpu, TheL1sFetchPathIsPricedAsLookupsAndFills) {
  auto per_event = [](const std::vector<std::string>& sets, double* fetched) {
    TempDir d;
    std::vector<std::string> args = {"run", "-q", "-o", d.path(), "--workload", "backprop", "--variant", "dac"};
    for (const auto& s : sets) args.insert(args.end(), {"-s", s});
    EXPECT_EQ(run_cli(args).exit_code, 0);
    const auto s = stats_of(d.path());
    *fetched = each(s, "gpu.sm", "l1.fetches") + each(s, "gpu.sm", "l1.fetch_misses");
    const double events = each(s, "gpu.sm", "l1.accesses") +
                          std::max(0.0, each(s, "gpu.sm", "l1.misses") - each(s, "gpu.sm", "l1.mshr_merges")) + *fetched;
    return value(s, "energy.l1") / events;
  };
  double with = 0, without = 0;
  const double pj = per_event({}, &with);
  EXPECT_GT(with, 0);
  expect_close(pj, per_event({"dac.prefetch=false"}, &without), "energy per L1 event");
  EXPECT_EQ(without, 0);
}
