// SPDX-License-Identifier: Apache-2.0
#include "workloads/graphmem/graphmem.h"

#include <algorithm>

#include "sim/hash.h"
#include "workloads/runner.h"

namespace irr::workloads::graphmem {
namespace {

constexpr char kModule[] = "graphmem.ptx";

// Launches `step` until it clears the flag it was given (a device int set by any thread that
// wants another round).
template <typename Step>
void until_done(Runner& run, Step step) {
  const std::uint64_t flag = run.d.malloc(4);
  for (int round = 0;; ++round) {
    run.put<int>(flag, 0);
    step(flag, round);
    if (!run.get<int>(flag)) return;
  }
}

// What colouring and MIS share: the undirected graph on the device, the vertices' priorities,
// and a state per vertex starting at `initial`, which are the results.
struct PriorityRounds {
  Graph g;
  Runner run;
  DeviceGraph dg;
  std::uint64_t priority, state;
  PriorityRounds(Device& d, const Graph& input, std::int32_t initial)
      : g(undirected(input)), run(d, kModule), dg(d, g), priority(d.malloc(g.n * 4ull)), state(d.malloc(g.n * 4ull)) {
    d.memcpy_to_device(priority, priorities(g.n).data(), g.n * 4ull);
    d.memcpy_to_device(state, std::vector<std::int32_t>(g.n, initial).data(), g.n * 4ull);
  }
  Result result() {
    const auto s = run.download<std::int32_t>(state, g.n);
    run.r.values.assign(s.begin(), s.end());
    return run.r;
  }
};

Result colour(Device& d, const Graph& input, std::uint32_t, const std::string&) {
  PriorityRounds c(d, input, -1);
  until_done(c.run, [&](std::uint64_t more, int round) {
    c.run.launch("clr_kernel", c.g.n, Args() << c.dg.row << c.dg.col << c.priority << c.state << round << c.g.n << more);
  });
  return c.result();
}

Result mis(Device& d, const Graph& input, std::uint32_t, const std::string&) {
  PriorityRounds m(d, input, 2);
  until_done(m.run, [&](std::uint64_t more, int) {
    m.run.launch("mis_select", m.g.n, Args() << m.dg.row << m.dg.col << m.priority << m.state << m.g.n);
    m.run.launch("mis_remove", m.g.n, Args() << m.dg.row << m.dg.col << m.state << m.g.n << more);
    m.run.launch("mis_commit", m.g.n, Args() << m.state << m.g.n);
  });
  return m.result();
}

// s-t connectivity on the undirected input: s the source, t the last vertex with an edge.
std::uint32_t target(const Graph& g) {
  std::uint32_t t = g.n - 1;
  while (t > 0 && g.degree(t) == 0) --t;
  return t;
}

Result stcon(Device& d, const Graph& input, std::uint32_t s, const std::string&) {
  const Graph g = undirected(input);
  check_source(g, s);
  const std::uint32_t t = target(g);
  Runner run(d, kModule);
  DeviceGraph dg(d, g);
  const std::uint64_t mask = d.malloc(g.n), updating = d.malloc(g.n), colour = d.malloc(g.n), found = d.malloc(4);
  d.memset(mask, 0, g.n);
  d.memset(updating, 0, g.n);
  d.memset(colour, 0, g.n);
  run.put<int>(found, s == t);
  for (auto [v, c] : {std::pair{s, 1}, std::pair{t, 2}}) {
    run.put<std::uint8_t>(mask + v, 1);
    run.put<std::uint8_t>(colour + v, static_cast<std::uint8_t>(c));
  }
  const std::uint64_t over = d.malloc(4);
  while (!run.get<int>(found)) {
    run.put<int>(over, 0);
    run.launch("stcon_kernel", g.n, Args() << dg.row << dg.col << mask << updating << colour << found << g.n);
    run.launch("stcon_kernel2", g.n, Args() << mask << updating << over << g.n);
    if (!run.get<int>(over)) break;
  }
  run.r.values = {static_cast<double>(run.get<int>(found))};
  return run.r;
}

std::vector<double> stcon_reference(const Graph& input, std::uint32_t s) {
  const Graph g = undirected(input);
  const std::uint32_t t = target(g);
  std::vector<bool> seen(g.n);
  std::vector<std::uint32_t> stack = {s};
  seen[s] = true;
  while (!stack.empty()) {
    const std::uint32_t v = stack.back();
    stack.pop_back();
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
      if (!seen[g.col[e]]) seen[g.col[e]] = true, stack.push_back(g.col[e]);
  }
  return {seen[t] ? 1.0 : 0.0};
}

// The same rounds on the CPU: in round r every vertex uncoloured at its start whose priority
// beats (larger, ties to the larger id) every neighbour uncoloured then takes colour r.
std::vector<double> colour_reference(const Graph& input, std::uint32_t) {
  const Graph g = undirected(input);
  const auto p = priorities(g.n);
  std::vector<int> c(g.n, -1);
  for (int round = 0;; ++round) {
    std::vector<std::uint32_t> take;
    bool more = false;
    for (std::uint32_t v = 0; v < g.n; ++v) {
      if (c[v] != -1) continue;
      bool max = true;
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1] && max; ++e) {
        const std::uint32_t u = g.col[e];
        max = c[u] != -1 || p[u] < p[v] || (p[u] == p[v] && u < v);
      }
      if (max) take.push_back(v);
      else more = true;
    }
    for (std::uint32_t v : take) c[v] = round;
    if (!more) break;
  }
  return {c.begin(), c.end()};
}

// Luby's rounds on the CPU: undecided local minima join, their undecided neighbours leave.
std::vector<double> mis_reference(const Graph& input, std::uint32_t) {
  const Graph g = undirected(input);
  const auto p = priorities(g.n);
  std::vector<int> s(g.n, 2);
  for (bool more = true; more;) {
    std::vector<std::uint32_t> join;
    for (std::uint32_t v = 0; v < g.n; ++v) {
      if (s[v] != 2) continue;
      bool min = true;
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1] && min; ++e) {
        const std::uint32_t u = g.col[e];
        min = s[u] != 2 || p[u] > p[v] || (p[u] == p[v] && u > v);
      }
      if (min) join.push_back(v);
    }
    for (std::uint32_t v : join) s[v] = 1;
    more = false;
    for (std::uint32_t v = 0; v < g.n; ++v) {
      if (s[v] != 2) continue;
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
        if (s[g.col[e]] == 1) s[v] = 0;
      more = more || s[v] == 2;
    }
  }
  return {s.begin(), s.end()};
}

std::string exact(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return "got " + std::to_string(got.size()) + " values, expected " + std::to_string(want.size());
  for (std::size_t v = 0; v < want.size(); ++v)
    if (got[v] != want[v])
      return "vertex " + std::to_string(v) + ": got " + std::to_string(got[v]) + ", expected " + std::to_string(want[v]);
  return "";
}

}  // namespace

Graph undirected(const Graph& g) {
  std::vector<Edge> edges;
  edges.reserve(2 * g.edges());
  for (std::uint32_t v = 0; v < g.n; ++v)
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
      if (g.col[e] != v) {
        edges.push_back({v, g.col[e], 1});
        edges.push_back({g.col[e], v, 1});
      }
  Graph u = from_edges(g.n, std::move(edges), g.name);
  // from_edges sorts: duplicates are neighbours in each row.
  Graph out;
  out.n = u.n;
  out.name = u.name;
  out.row.assign(u.n + 1, 0);
  for (std::uint32_t v = 0; v < u.n; ++v) {
    for (std::uint32_t e = u.row[v]; e < u.row[v + 1]; ++e)
      if (e == u.row[v] || u.col[e] != u.col[e - 1]) {
        out.col.push_back(u.col[e]);
        out.weight.push_back(1);
      }
    out.row[v + 1] = static_cast<std::uint32_t>(out.col.size());
  }
  return out;
}

std::vector<std::uint32_t> priorities(std::uint32_t n) {
  std::vector<std::uint32_t> p(n);
  for (std::uint32_t v = 0; v < n; ++v) p[v] = static_cast<std::uint32_t>(sim::splitmix64(v) >> 32);
  return p;
}

bool bfs_variant(const std::string& v) { return v == "harish" || v == "warp_centric" || v == "data_shared"; }
bool sssp_variant(const std::string& v) { return v == "harish"; }

std::vector<Variant> bfs_variants() {
  return {{"harish", "Harish and Narayanan's BFS (the thesis's H-BFS): frontier, updating and visited flag arrays, Kernel and Kernel2 per level (workloads/kernels/graphmem.cu)"},
          {"warp_centric", "warp-centric BFS (BFS-WC, Hong et al.): a warp per 32 vertices, its lanes over each active one's edges"},
          {"data_shared", "data-driven BFS with a block queue in shared memory (BFS-DD, SHOC): a thread per frontier vertex, the block's queue copied out with one atomic"}};
}

std::vector<Variant> sssp_variants() {
  return {{"harish", "Harish and Narayanan's SSSP (the thesis's H-SSSP): DijkstraKernel1 lowers neighbours' tentative costs by atomicMin, DijkstraKernel2 settles them"}};
}

Result bfs(Device& d, const Graph& g, std::uint32_t src, const std::string& variant) {
  check_source(g, src);
  Runner run(d, kModule);
  DeviceGraph dg(d, g);
  const std::uint64_t cost = d.malloc(g.n * 4ull);
  d.memset(cost, 0xff, g.n * 4ull);
  run.put<std::uint32_t>(cost + src * 4ull, 0);
  if (variant == "harish") {
    const std::uint64_t mask = d.malloc(g.n), updating = d.malloc(g.n), visited = d.malloc(g.n);
    d.memset(mask, 0, g.n);
    d.memset(updating, 0, g.n);
    d.memset(visited, 0, g.n);
    run.put<std::uint8_t>(mask + src, 1);
    run.put<std::uint8_t>(visited + src, 1);
    until_done(run, [&](std::uint64_t over, int) {
      run.launch("hbfs_kernel", g.n, Args() << dg.row << dg.col << mask << updating << visited << cost << g.n);
      run.launch("hbfs_kernel2", g.n, Args() << mask << updating << visited << over << g.n);
    });
  } else if (variant == "warp_centric") {
    until_done(run, [&](std::uint64_t changed, int level) {
      run.launch("bfs_wc", (g.n + 31) / 32 * 32, Args() << dg.row << dg.col << cost << level << g.n << changed);
    });
  } else {
    const std::uint64_t a = d.malloc(g.n * 4ull), b = d.malloc(g.n * 4ull), count = d.malloc(4);
    run.put<std::uint32_t>(a, src);
    std::uint64_t in = a, out = b;
    for (std::uint32_t n = 1; n;) {
      run.put<std::uint32_t>(count, 0);
      run.launch("bfs_dd", n, Args() << dg.row << dg.col << cost << in << n << out << count);
      n = run.get<std::uint32_t>(count);
      std::swap(in, out);
    }
  }
  run.r.values = as_values(run.download<std::uint32_t>(cost, g.n));
  return run.r;
}

Result sssp(Device& d, const Graph& g, std::uint32_t src, const std::string&) {
  check_source(g, src);
  Runner run(d, kModule);
  DeviceGraph dg(d, g);
  const std::uint64_t cost = d.malloc(g.n * 4ull), updating = d.malloc(g.n * 4ull), mask = d.malloc(g.n);
  d.memset(cost, 0xff, g.n * 4ull);
  d.memset(updating, 0xff, g.n * 4ull);
  d.memset(mask, 0, g.n);
  run.put<std::uint32_t>(cost + src * 4ull, 0);
  run.put<std::uint32_t>(updating + src * 4ull, 0);
  run.put<std::uint8_t>(mask + src, 1);
  until_done(run, [&](std::uint64_t over, int) {
    run.launch("hsssp_kernel1", g.n, Args() << dg.row << dg.col << dg.weight << mask << cost << updating << g.n);
    run.launch("hsssp_kernel2", g.n, Args() << mask << cost << updating << over << g.n);
  });
  run.r.values = as_values(run.download<std::uint32_t>(cost, g.n));
  return run.r;
}

std::vector<Workload> workloads() {
  return {
      {"color", "graph colouring (the thesis's CLR, Pannotia-style): rounds in which an uncoloured vertex whose random priority beats every uncoloured neighbour's takes the round's colour, on the undirected input",
       {{"topology", "a kernel over every vertex per round (workloads/kernels/graphmem.cu)"}},
       false, colour, colour_reference, exact, "exact: the CPU's rounds with the same priorities"},
      {"mis", "maximal independent set (Luby, the thesis's MIS): rounds in which undecided local minima of a random priority join and their neighbours leave, on the undirected input (1 in the set, 0 not)",
       {{"topology", "three kernels over every vertex per round: select, remove, commit"}},
       false, mis, mis_reference, exact, "exact: the CPU's rounds with the same priorities"},
      {"stcon", "s-t connectivity (Harish, the thesis's STCON): searches from the source and from the last vertex with an edge at once, on the undirected input, until they meet or stop (1: connected)",
       {{"harish", "Kernel and Kernel2 per level over frontier flags and a colour per vertex (workloads/kernels/graphmem.cu)"}},
       true, stcon, stcon_reference, exact, "exact: connected or not, as a CPU search finds"},
  };
}

}  // namespace irr::workloads::graphmem
