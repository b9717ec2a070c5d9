// SPDX-License-Identifier: Apache-2.0
#include "workloads/frontier/frontier.h"

#include "models/iru/host_api.h"
#include "workloads/runner.h"

namespace irr::workloads::frontier {

using iru::configure_iru;

namespace {

constexpr float kDamping = 0.85f;
// Threads an expansion launches per frontier vertex: a block of kBlock takes EXPAND_V = 32
// vertices (kernels/frontier.cu).
constexpr std::uint64_t kExpandThreads = kBlock / 32;

// The frontiers: vertex frontier in and out, edge frontier with its secondary values.
struct Frontiers {
  std::uint64_t vf, ef, wf, nv, ne;
  Frontiers(Device& d, const Graph& g) {
    // Expansions write each frontier vertex's edges once per level: at most m entries.
    const std::uint64_t edges = std::max<std::uint64_t>(g.edges(), 1);
    vf = d.malloc(g.n * 4ull);
    ef = d.malloc(edges * 4);
    wf = d.malloc(edges * 4);
    nv = d.malloc(4);
    ne = d.malloc(4);
  }
};

// One contraction step over the edge frontier's ne elements: at most kIndexLimit at once through the
// IRU, whose positions are 24-bit [S L177], so a longer frontier goes through it in chunks, each
// configured and contracted on its own (the paper does not say how its software splits one); with
// the IRU off, one chunk. step(at, n) runs elements at .. at + n - 1.
template <class Step>
void in_chunks(std::uint32_t ne, bool iru, Step step) {
  const std::uint32_t most = iru ? iru::kIndexLimit : ne;
  for (std::uint32_t at = 0; at < ne;) {
    const std::uint32_t n = std::min(most, ne - at);
    step(4ull * at, n);
    at += n;
  }
}

}  // namespace

Result bfs(Device& d, const Graph& g, std::uint32_t src, bool iru) {
  check_source(g, src);
  Runner run(d, iru ? "frontier_iru.ptx" : "frontier.ptx");
  DeviceGraph dg(d, g);
  Frontiers f(d, g);
  const std::uint64_t label = d.malloc(g.n * 4ull);
  d.memset(label, 0xff, g.n * 4ull);
  run.put<std::uint32_t>(label + src * 4ull, 0);
  run.put<std::uint32_t>(f.vf, src);
  std::uint32_t nv = 1;
  for (std::uint32_t distance = 1; nv; ++distance) {
    run.put<std::uint32_t>(f.ne, 0);
    run.launch("bfs_expand", nv * kExpandThreads, Args() << dg.row << dg.col << f.vf << nv << f.ef << f.ne);
    const auto ne = run.get<std::uint32_t>(f.ne);
    run.put<std::uint32_t>(f.nv, 0);
    in_chunks(ne, iru, [&](std::uint64_t at, std::uint32_t n) {
      if (iru) configure_iru(d, label, 4, f.ef + at, n);
      run.launch("bfs_contract", n, Args() << f.ef + at << n << label << distance << f.vf << f.nv);
    });
    nv = run.get<std::uint32_t>(f.nv);
  }
  run.r.values = as_values(run.download<std::uint32_t>(label, g.n));
  return run.r;
}

Result sssp(Device& d, const Graph& g, std::uint32_t src, bool iru, bool culled) {
  check_source(g, src);
  Runner run(d, iru ? "frontier_iru.ptx" : "frontier.ptx");
  DeviceGraph dg(d, g);
  Frontiers f(d, g);
  const std::uint64_t label = d.malloc(g.n * 4ull), lookup = d.malloc(g.n * 4ull);
  d.memset(label, 0xff, g.n * 4ull);
  d.memset(lookup, 0xff, g.n * 4ull);
  run.put<std::uint32_t>(label + src * 4ull, 0);
  run.put<std::uint32_t>(f.vf, src);
  std::uint32_t nv = 1;
  while (nv) {
    run.put<std::uint32_t>(f.ne, 0);
    run.launch("sssp_expand", nv * kExpandThreads, Args() << dg.row << dg.col << dg.weight << label << f.vf << nv << f.ef << f.wf << f.ne);
    const auto ne = run.get<std::uint32_t>(f.ne);
    run.put<std::uint32_t>(f.nv, 0);
    in_chunks(ne, iru, [&](std::uint64_t at, std::uint32_t n) {
      // Duplicates concurrently in the IRU keep the smaller distance and its position [S L198].
      if (iru) configure_iru(d, label, 4, f.ef + at, f.wf + at, n, iru::IRU_FILTER_MIN);
      run.launch(culled ? "sssp_compaction_culled" : "sssp_compaction", n, Args() << f.ef + at << f.wf + at << n << label << lookup);
    });
    // After every chunk's compaction: a lookup holds a position within the chunk that improved its
    // vertex last, and the first frontier kernel to match it resets it, so each improved vertex is
    // pushed once (the frontiers' bound: n vertices, m edges).
    in_chunks(ne, iru, [&](std::uint64_t at, std::uint32_t n) {
      run.launch("sssp_frontier", n, Args() << f.ef + at << n << lookup << f.vf << f.nv);
    });
    nv = run.get<std::uint32_t>(f.nv);
  }
  run.r.values = as_values(run.download<std::uint32_t>(label, g.n));
  return run.r;
}

Result pagerank(Device& d, const Graph& g, bool iru, PrFrontier next) {
  Runner run(d, iru ? "frontier_iru.ptx" : "frontier.ptx");
  DeviceGraph dg(d, g);
  Frontiers f(d, g);
  const std::uint64_t rank = d.malloc(g.n * 4ull), residual = d.malloc(g.n * 4ull), flag = d.malloc(g.n * 4ull);
  d.memset(rank, 0, g.n * 4ull);
  d.memset(flag, 0, g.n * 4ull);
  std::vector<float> r0(g.n, (1.0f - kDamping) / static_cast<float>(g.n));
  d.memcpy_to_device(residual, r0.data(), g.n * 4ull);
  std::vector<std::uint32_t> all(g.n);
  for (std::uint32_t v = 0; v < g.n; ++v) all[v] = v;
  d.memcpy_to_device(f.vf, all.data(), g.n * 4ull);
  const float eps = 1e-4f / static_cast<float>(g.n);  // as the worklist variant's threshold
  std::uint32_t nv = g.n;
  while (nv) {
    run.put<std::uint32_t>(f.ne, 0);
    if (next == PrFrontier::edges) run.launch("pr_clear", nv, Args() << f.vf << nv << flag);
    run.launch("pr_expand", nv * kExpandThreads, Args() << dg.row << dg.col << rank << residual << f.vf << nv << f.ef << f.wf << f.ne);
    const auto ne = run.get<std::uint32_t>(f.ne);
    run.put<std::uint32_t>(f.nv, 0);
    in_chunks(ne, iru, [&](std::uint64_t at, std::uint32_t n) {
      // Duplicates concurrently in the IRU arrive with their contributions summed [S L203].
      if (iru) configure_iru(d, residual, 4, f.ef + at, f.wf + at, n, iru::IRU_FILTER_ADD_F32);
      if (next == PrFrontier::contraction)
        run.launch("pr_contract_fused", n, Args() << f.ef + at << f.wf + at << n << residual << f.vf << f.nv << eps);
      else
        run.launch("pr_contract", n, Args() << f.ef + at << f.wf + at << n << residual);
    });
    if (ne && next == PrFrontier::edges)
      run.launch("pr_frontier", ne, Args() << f.ef << ne << residual << flag << f.vf << f.nv << eps);
    else if (ne && next == PrFrontier::vertices)
      run.launch("pr_frontier_vertices", g.n, Args() << residual << g.n << f.vf << f.nv << eps);
    nv = run.get<std::uint32_t>(f.nv);
  }
  for (float v : run.download<float>(rank, g.n)) run.r.values.push_back(v);
  return run.r;
}

}  // namespace irr::workloads::frontier
