// SPDX-License-Identifier: Apache-2.0
// ADDS and near-far on the timed GPU (workloads/adds, docs/workloads.md "ADDS") as a user runs them:
// both right against Dijkstra, their counters in workload.json, idle ADDS workers asleep
// (nanosleep) issuing far fewer instructions than spinning ones, NF-OPT's one launch against a
// launch a step.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>

#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;

TEST(Adds, TimedVariantsAgainstDijkstra) {
  std::map<std::string, nlohmann::json> stats, counters;
  for (const char* variant : {"adds", "adds_spin", "nearfar", "nearfar_host"}) {
    TempDir d;
    auto r = run_cli({"run", "-q", "--workload", "sssp", "--variant", variant, "--graph", "grid:rows=24,cols=24", "-o", d.path()});
    ASSERT_EQ(r.exit_code, 0) << variant << ": " << r.out << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << variant << ": " << r.out;
    stats[variant] = nlohmann::json::parse(read_file(d.path() + "/stats.json"))["stats"];
    counters[variant] = nlohmann::json::parse(read_file(d.path() + "/workload.json"))["counters"];
  }
  auto value = [&](const char* v, const char* name) { return stats[v][name]["value"].get<double>(); };
  // Every vertex of the grid is reached, so each is processed at least once.
  for (const char* v : {"adds", "adds_spin", "nearfar", "nearfar_host"})
    EXPECT_GE(counters[v]["vertices_processed"].get<double>(), 24 * 24) << v;
  // The workers the timed GPU holds beside the manager (gtx480: more than the functional 63).
  EXPECT_GT(counters["adds"]["workers"].get<int>(), 15);
  // Asleep, idle workers issue a fraction of what they issue spinning.
  EXPECT_LT(value("adds", "gpu.total.warp_instructions"), value("adds_spin", "gpu.total.warp_instructions") / 2);
  // The same steps; a launch each costs the host's launch overhead (30 us) every step.
  EXPECT_EQ(counters["nearfar"]["steps"], counters["nearfar_host"]["steps"]);
  EXPECT_LT(value("nearfar", "gpu.total.core_cycles"), value("nearfar_host", "gpu.total.core_cycles"));
}
