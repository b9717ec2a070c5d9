// SPDX-License-Identifier: Apache-2.0
// An unmodified CUDA program through `irrgpu exec` gives the statistics irrgpu's own driver does:
// the HWWL BFS as a plain CUDA program (testbenches/cuda/hwwl_bfs.cu, built here with nvcc; the
// test skips where nvcc is absent) against `irrgpu run --workload bfs --variant hwwl` on the same
// graph: the same stats.json, key for key. cuda.apps runs the other programs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "testbenches/common/testing.h"
#include "workloads/graph/graph.h"

namespace irr {
namespace {

using testing::run_cli;
using testing::TempDir;

std::string nvcc() {
  for (const char* p : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

void write_words(const std::string& path, const std::vector<std::uint32_t>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 4));
}

TEST(CudaExec, HwwlBfsAsACudaProgramGivesTheWorkloadsStatistics) {
  const std::string compiler = nvcc();
  if (compiler.empty()) GTEST_SKIP() << "no nvcc (the CUDA toolkit): the program cannot be built here";
  TempDir d;
  const std::string src = IRRGPU_SOURCE_DIR, app = d.path() + "/hwwl_bfs";
  const std::string build = compiler + " -cudart shared -arch=compute_75 -I" + src + " -o " + app + " " + src +
                            "/testbenches/cuda/hwwl_bfs.cu > " + d.path() + "/nvcc.log 2>&1";
  ASSERT_EQ(std::system(build.c_str()), 0) << testing::read_file(d.path() + "/nvcc.log");
  const std::string spec = "rmat:scale=9,edge_factor=8,seed=3";
  const workloads::Graph g = workloads::load_graph(spec);
  write_words(d.path() + "/g.row", g.row);
  write_words(d.path() + "/g.col", g.col);
  write_words(d.path() + "/g.weight", g.weight);
  std::uint32_t source = 0;
  while (source + 1 < g.n && g.degree(source) == 0) ++source;

  auto e = run_cli({"exec", "-s", "hwwl.enabled=true", "-o", d.path() + "/exec", "--", app, d.path() + "/g",
                    std::to_string(source)});
  ASSERT_EQ(e.exit_code, 0) << e.err << e.out;
  EXPECT_NE(e.out.find("PASS hwwl_bfs"), std::string::npos) << e.out;
  auto r = run_cli({"run", "--workload", "bfs", "--variant", "hwwl", "--graph", spec, "--source", std::to_string(source),
                    "-o", d.path() + "/run"});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  // Every statistic, flattened to its path, the same in both.
  const auto a = nlohmann::json::parse(testing::read_file(d.path() + "/exec/stats.json")).flatten();
  const auto b = nlohmann::json::parse(testing::read_file(d.path() + "/run/stats.json")).flatten();
  int shown = 0;
  for (const auto& [key, value] : b.items())
    if ((!a.contains(key) || a[key] != value) && shown++ < 10)
      ADD_FAILURE() << key << ": exec " << (a.contains(key) ? a[key].dump() : "(none)") << ", run " << value.dump();
  for (const auto& [key, value] : a.items())
    if (!b.contains(key) && shown++ < 10) ADD_FAILURE() << key << " only in exec's statistics";
  EXPECT_GT(b.size(), 1000u);
  EXPECT_GT(b.value("/stats/gpu.total.warp_instructions/value", nlohmann::json(0)).get<double>(), 0) << "no such statistic";

  // Without the unit enabled, the program stops naming how to enable it.
  e = run_cli({"exec", "--", app, d.path() + "/g", std::to_string(source)});
  EXPECT_NE(e.exit_code, 0);
  EXPECT_NE(e.err.find("'hwwl.double_buffer': no unit answers it"), std::string::npos) << e.err;
  EXPECT_NE(e.err.find("-s hwwl.enabled=true"), std::string::npos) << e.err;
}

}  // namespace
}  // namespace irr
