// SPDX-License-Identifier: Apache-2.0
#include "workloads/workloads.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <limits>
#include <queue>

#include "sim/error.h"
#include "workloads/adds/adds.h"
#include "workloads/bh/bh.h"
#include "workloads/dmr/dmr.h"
#include "workloads/frontier/frontier.h"
#include "workloads/graphmem/graphmem.h"
#include "workloads/runner.h"
#include "workloads/sp/sp.h"

namespace irr::workloads {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr float kDamping = 0.85f;


// The worklist loop shared by the data-driven variants: double-buffered until empty.
template <typename Launch>
void worklist_loop(Runner& run, std::uint64_t in, std::uint64_t out, std::uint64_t out_count, std::uint32_t count, Launch launch) {
  while (count) {
    run.put<std::uint32_t>(out_count, 0);
    launch(in, count, out);
    count = run.get<std::uint32_t>(out_count);
    std::swap(in, out);
  }
}

bool uses_api(const std::string& variant) { return variant == "wl" || variant == "hwwl"; }

// The module a variant's kernels are in: its workload's own, or the worklist API's.
std::string module(const std::string& own, const std::string& variant) {
  return variant == "hwwl" ? "wl_hwwl.ptx" : variant == "wl" ? "wl.ptx" : own;
}

// The worklist-API kernels (wl.cu): `wl` on the software worklist, `hwwl` on the hardware
// worklist. `args` gives the kernel's own arguments; `cap` bounds the IDs one kernel may push.
void api_worklist(Runner& run, std::uint32_t src, const std::string& variant, const std::string& kernel,
                  std::uint64_t cap, const std::function<Args()>& args) {
  Device& d = run.d;
  const std::uint64_t grid = run.persistent(kernel);
  if (variant == "hwwl") {
    // Overflow buffers for a whole kernel's pushes on every core; the host relaunches while the
    // HWWL holds work (the query docs/hwwl.md documents).
    const std::uint64_t cores = d.query("hwwl.cores"), buffer = d.malloc(cores * cap * 4);
    // The mode the user configured (hwwl.mode), set by the kernel's wlcfg as a program would.
    const auto mode = static_cast<std::uint32_t>(d.query("hwwl.double_buffer"));
    run.launch("wl_hwwl_init", 1, Args() << mode << buffer << cap);
    run.launch("wl_hwwl_seed", 1, Args() << src);
    while (d.query("hwwl.work_remains")) run.launch(kernel, grid, args() << 0);
  } else {
    const std::uint64_t a = d.malloc(cap * 4), b = d.malloc(cap * 4), count = d.malloc(4), next = d.malloc(4);
    run.put<std::uint32_t>(a, src);
    worklist_loop(run, a, b, count, 1, [&](std::uint64_t in, std::uint32_t n, std::uint64_t out) {
      run.put<std::uint32_t>(next, 0);
      run.launch(kernel, grid, args() << in << n << next << out << count);
    });
  }
}

bool frontier_variant(const std::string& variant) { return variant == "frontier" || variant == "iru"; }

Result bfs(Device& d, const Graph& g, std::uint32_t src, const std::string& variant) {
  if (frontier_variant(variant)) return frontier::bfs(d, g, src, variant == "iru");
  if (graphmem::bfs_variant(variant)) return graphmem::bfs(d, g, src, variant);
  check_source(g, src);
  Runner run(d, module("bfs.ptx", variant));
  DeviceGraph dg(d, g);
  const std::uint64_t level = d.malloc(g.n * 4);
  d.memset(level, 0xff, g.n * 4);
  run.put<std::uint32_t>(level + src * 4ull, 0);
  if (uses_api(variant)) {
    // A vertex's level is claimed once (CAS), so that kernel must see the levels in order, as a
    // double-buffered worklist gives them; a single-buffer HWWL mixes levels within its kernel,
    // so there a vertex is relaxed (atomicMin) and pushed again each time its level improves.
    if (variant == "hwwl" && !d.query("hwwl.double_buffer"))
      api_worklist(run, src, variant, "bfs_wl_relax", std::max<std::uint64_t>(g.edges(), 1) + 1,
                   [&] { return Args() << dg.row << dg.col << level; });
    else
      api_worklist(run, src, variant, "bfs_wl", g.n, [&] { return Args() << dg.row << dg.col << level; });
  } else if (variant == "topology") {
    const std::uint64_t changed = d.malloc(4);
    for (std::uint32_t cur = 0;; ++cur) {
      run.put<int>(changed, 0);
      run.launch("bfs_topology", g.n, Args() << dg.row << dg.col << level << cur << g.n << changed);
      if (!run.get<int>(changed)) break;
    }
  } else {
    const std::string kernel = variant == "data" || variant == "data_vkc" ? "bfs_data"
                               : variant == "data_warp"                   ? "bfs_data_warp"
                                                                          : "bfs_data_block";
    const bool fixed = variant == "data";
    // Each vertex enters the worklist at most once (its level is claimed by CAS).
    const std::uint64_t a = d.malloc(g.n * 4), b = d.malloc(g.n * 4), count = d.malloc(4);
    run.put<std::uint32_t>(a, src);
    worklist_loop(run, a, b, count, 1, [&](std::uint64_t in, std::uint32_t n, std::uint64_t out) {
      run.launch(kernel, fixed ? 0 : n, Args() << dg.row << dg.col << level << in << n << out << count);
    });
  }
  run.r.values = as_values(run.download<std::uint32_t>(level, g.n));
  return run.r;
}

Result sssp(Device& d, const Graph& g, std::uint32_t src, const std::string& variant) {
  if (frontier_variant(variant) || variant == "frontier_culled")
    return frontier::sssp(d, g, src, variant == "iru", variant == "frontier_culled");
  if (graphmem::sssp_variant(variant)) return graphmem::sssp(d, g, src, variant);
  if (adds::sssp_variant(variant)) return adds::sssp(d, g, src, variant);
  check_source(g, src);
  Runner run(d, module("sssp.ptx", variant));
  DeviceGraph dg(d, g);
  const std::uint64_t dist = d.malloc(g.n * 4);
  d.memset(dist, 0xff, g.n * 4);
  run.put<std::uint32_t>(dist + src * 4ull, 0);
  if (uses_api(variant)) {
    api_worklist(run, src, variant, "sssp_wl", std::max<std::uint64_t>(g.edges(), 1) + 1,
                 [&] { return Args() << dg.row << dg.col << dg.weight << dist; });
  } else if (variant == "topology") {
    const std::uint64_t changed = d.malloc(4);
    do {
      run.put<int>(changed, 0);
      run.launch("sssp_topology", g.n, Args() << dg.row << dg.col << dg.weight << dist << g.n << changed);
    } while (run.get<int>(changed));
  } else {
    // A vertex can be pushed once per improving edge: the worklists hold up to m entries.
    const std::uint64_t cap = std::max<std::uint64_t>(g.edges(), 1) + 1;
    const std::uint64_t a = d.malloc(cap * 4), b = d.malloc(cap * 4), count = d.malloc(4);
    run.put<std::uint32_t>(a, src);
    const std::string kernel = variant == "data_warp" ? "sssp_data_warp" : "sssp_data";
    const bool fixed = variant == "data";
    worklist_loop(run, a, b, count, 1, [&](std::uint64_t in, std::uint32_t n, std::uint64_t out) {
      run.launch(kernel, fixed ? 0 : n, Args() << dg.row << dg.col << dg.weight << dist << in << n << out << count);
    });
  }
  run.r.values = as_values(run.download<std::uint32_t>(dist, g.n));
  return run.r;
}

Result pagerank(Device& d, const Graph& g, std::uint32_t, const std::string& variant) {
  // frontier[_fused|_vertices] and iru[...]: where the next frontier is built.
  const std::pair<std::string, frontier::PrFrontier> forms[] = {
      {"", frontier::PrFrontier::edges}, {"_fused", frontier::PrFrontier::contraction}, {"_vertices", frontier::PrFrontier::vertices}};
  for (const auto& [suffix, next] : forms)
    if (variant == "frontier" + suffix || variant == "iru" + suffix)
      return frontier::pagerank(d, g, variant.compare(0, 3, "iru") == 0, next);
  Runner run(d, "pr.ptx");
  DeviceGraph dg(d, g);
  const std::uint64_t rank = d.malloc(g.n * 4);
  std::vector<float> values;
  if (variant == "topology") {
    const std::uint64_t next = d.malloc(g.n * 4), delta = d.malloc(4);
    std::vector<float> init(g.n, 1.0f / static_cast<float>(g.n));
    d.memcpy_to_device(rank, init.data(), g.n * 4);
    d.memset(next, 0, g.n * 4);
    for (int it = 0; it < 500; ++it) {
      run.put<float>(delta, 0.0f);
      run.launch("pr_push", g.n, Args() << dg.row << dg.col << rank << next << g.n);
      run.launch("pr_update", g.n, Args() << rank << next << g.n << delta);
      if (run.get<float>(delta) < 1e-7f) break;
    }
  } else {
    const std::uint64_t residual = d.malloc(g.n * 4);
    std::vector<float> r0(g.n, (1.0f - kDamping) / static_cast<float>(g.n));
    d.memcpy_to_device(residual, r0.data(), g.n * 4);
    d.memset(rank, 0, g.n * 4);
    const float eps = 1e-4f / static_cast<float>(g.n);
    const std::uint64_t cap = g.edges() + g.n + 1;
    const std::uint64_t a = d.malloc(cap * 4), b = d.malloc(cap * 4), count = d.malloc(4);
    std::vector<std::uint32_t> all(g.n);
    for (std::uint32_t v = 0; v < g.n; ++v) all[v] = v;
    d.memcpy_to_device(a, all.data(), g.n * 4);
    const bool fixed = variant == "data";
    worklist_loop(run, a, b, count, g.n, [&](std::uint64_t in, std::uint32_t n, std::uint64_t out) {
      run.launch("pr_data", fixed ? 0 : n, Args() << dg.row << dg.col << rank << residual << in << n << out << count << eps);
    });
  }
  for (float f : run.download<float>(rank, g.n)) run.r.values.push_back(f);
  return run.r;
}

std::vector<double> bfs_reference(const Graph& g, std::uint32_t src) {
  std::vector<double> level(g.n, kInfinity);
  std::deque<std::uint32_t> q{src};
  level[src] = 0;
  while (!q.empty()) {
    const std::uint32_t v = q.front();
    q.pop_front();
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
      if (level[g.col[e]] == kInfinity) {
        level[g.col[e]] = level[v] + 1;
        q.push_back(g.col[e]);
      }
  }
  return level;
}

std::vector<double> sssp_reference(const Graph& g, std::uint32_t src) {
  std::vector<double> dist(g.n, kInfinity);
  using Item = std::pair<double, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
  dist[src] = 0;
  pq.push({0, src});
  while (!pq.empty()) {
    auto [d, v] = pq.top();
    pq.pop();
    if (d > dist[v]) continue;
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
      if (d + g.weight[e] < dist[g.col[e]]) {
        dist[g.col[e]] = d + g.weight[e];
        pq.push({dist[g.col[e]], g.col[e]});
      }
  }
  return dist;
}

std::vector<double> pagerank_reference(const Graph& g, std::uint32_t) {
  const double d = kDamping;
  std::vector<double> rank(g.n, 1.0 / g.n), next(g.n);
  for (int it = 0; it < 10000; ++it) {
    std::fill(next.begin(), next.end(), 0.0);
    for (std::uint32_t v = 0; v < g.n; ++v) {
      const std::uint32_t deg = g.degree(v);
      if (!deg) continue;
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) next[g.col[e]] += rank[v] / deg;
    }
    double delta = 0;
    for (std::uint32_t v = 0; v < g.n; ++v) {
      const double r = (1 - d) / g.n + d * next[v];
      delta += std::fabs(r - rank[v]);
      rank[v] = r;
    }
    if (delta < 1e-12) break;
  }
  return rank;
}

std::string exact(const Graph&, const std::vector<double>& got, const std::vector<double>& want) {
  for (std::size_t v = 0; v < want.size(); ++v)
    if (got[v] != want[v])
      return "vertex " + std::to_string(v) + ": got " + std::to_string(got[v]) + ", expected " + std::to_string(want[v]);
  return "";
}

std::string close(const Graph&, const std::vector<double>& got, const std::vector<double>& want) {
  double err = 0, total = 0;
  std::size_t worst = 0;
  for (std::size_t v = 0; v < want.size(); ++v) {
    const double e = std::fabs(got[v] - want[v]);
    if (e > std::fabs(got[worst] - want[worst])) worst = v;
    err += e;
    total += std::fabs(want[v]);
  }
  if (total > 0 && err / total <= 1e-3) return "";
  return "relative L1 error " + std::to_string(total > 0 ? err / total : err) + " > 1e-3 (worst: vertex " +
         std::to_string(worst) + ", got " + std::to_string(got[worst]) + ", expected " + std::to_string(want[worst]) + ")";
}

}  // namespace

std::string kernels_dir() {
  if (const char* env = std::getenv("IRRGPU_WORKLOADS_DIR")) return env;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "irrgpu" / "workloads";
    if (std::filesystem::exists(installed / "bfs.ptx")) return installed.string();
  }
  return std::string(IRRGPU_SOURCE_DIR) + "/workloads/kernels";
}

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> all = [] {
  std::vector<Workload> all = {
      {"bfs", "breadth-first search: the level of every vertex from the source",
       {{"topology", "a kernel over every vertex per level"},
        {"data", "double-buffered worklist, one atomic per push, a fixed grid (120 blocks of 256)"},
        {"data_vkc", "the same with variable kernel configuration: the grid sized to the worklist"},
        {"data_warp", "worklist with warp-aggregated pushes (one atomic per warp)"},
        {"data_block", "worklist with atomic-reduced pushes (block prefix sum, one atomic per block)"},
        {"wl", "the worklist API (worklist.cuh) on the software worklist: threads pull until DONE, a persistent grid (the blocks the GPU holds at once)"},
        {"hwwl", "the same kernel on the hardware worklist (timing mode); with hwwl.mode: single, bfs_wl_relax (levels lowered by atomicMin)", "hwwl"},
        {"frontier", "Merrill-style expand and contract over vertex and edge frontiers (the IRU paper's baseline, workloads/kernels/frontier.cu)"},
        {"iru", "the same, the contraction reading the edge frontier through the reorder unit (load_iru; timing mode)", "iru"}},
       true, bfs, bfs_reference, exact, "exact"},
      {"sssp", "single-source shortest paths over positive integer weights",
       {{"topology", "Bellman-Ford rounds over every vertex"},
        {"data", "double-buffered worklist of improved vertices, a fixed grid"},
        {"data_vkc", "the same, the grid sized to the worklist"},
        {"data_warp", "worklist with warp-aggregated pushes"},
        {"wl", "the worklist API (worklist.cuh) on the software worklist: threads pull until DONE, a persistent grid (the blocks the GPU holds at once)"},
        {"hwwl", "the same kernel on the hardware worklist (timing mode)", "hwwl"},
        {"frontier", "Davidson-style expansion with tentative distances, compaction by atomicMin with a lookup of the winning position"},
        {"frontier_culled", "the same with a software duplicate filter before the atomicMin: warp culling that keeps each vertex's smallest distance, then a check against its distance"},
        {"iru", "the same, the compaction reading through the reorder unit with the min filter (timing mode)", "iru"}},
       true, sssp, sssp_reference, exact, "exact"},
      {"pr", "PageRank (damping 0.85), push style with atomic adds",
       {{"topology", "power iterations until the L1 change is below 1e-7"},
        {"data", "residual push over a worklist (threshold 1e-4 / n), a fixed grid"},
        {"data_vkc", "the same, the grid sized to the worklist"},
        {"frontier", "residual push over vertex and edge frontiers: expansion writes contributions, contraction adds them atomically"},
        {"iru", "the same, the contraction reading through the reorder unit with the add filter (timing mode)", "iru"},
        {"frontier_fused", "the same as frontier, the contraction building the next frontier itself (the add that takes a residual across the threshold pushes its vertex) instead of a second kernel over the edge frontier"},
        {"iru_fused", "iru with frontier_fused's contraction: threads the IRU merged out do neither the add nor the frontier's work (timing mode)", "iru"},
        {"frontier_vertices", "the same as frontier, the next frontier from a kernel over every vertex (those whose residual reached the threshold, in vertex order) instead of over the edge frontier"},
        {"iru_vertices", "iru with frontier_vertices' next frontier (timing mode)", "iru"}},
       false, pagerank, pagerank_reference, close, "relative L1 error <= 1e-3 against double-precision power iteration"},
  };
  // The graph-memory thesis's kernels (workloads/graphmem/): variants of bfs and sssp, and workloads of their own.
  for (Variant v : graphmem::bfs_variants()) all[0].variants.push_back(v);
  for (Variant v : graphmem::sssp_variants()) all[1].variants.push_back(v);
  // ADDS and its near-far baseline (workloads/adds/).
  for (Variant v : adds::sssp_variants()) all[1].variants.push_back(v);
  for (Workload w : graphmem::workloads()) all.push_back(w);
  all.push_back(sp::workload());
  all.push_back(bh::workload());
  all.push_back(dmr::workload());
  return all;
  }();
  return all;
}

const Workload& workload(const std::string& name) {
  std::string names;
  for (const auto& w : workloads()) {
    if (w.name == name) return w;
    names += (names.empty() ? "" : ", ") + w.name;
  }
  throw Error("unknown workload '" + name + "' (" + names + ")", Error::Kind::usage);
}

}  // namespace irr::workloads
