// SPDX-License-Identifier: Apache-2.0
#include "workloads/graphmem/graphmem.h"

#include <algorithm>
#include <optional>

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

// Data-driven rounds: `step(in, n, out, round)` launches over the n vertices listed at `in`, listing
// the next round's at `out` and counting them at `count`, until a round lists none.
template <typename Step>
void worklist_rounds(Runner& run, std::uint64_t in, std::uint32_t n, std::uint64_t out, std::uint64_t count, Step step) {
  for (std::uint32_t round = 0; n; ++round) {
    run.put<std::uint32_t>(count, 0);
    step(in, n, out, round);
    n = run.get<std::uint32_t>(count);
    std::swap(in, out);
  }
}

Result colour(Device& d, const Graph& input, std::uint32_t, const std::string& variant) {
  PriorityRounds c(d, input, -1);
  if (variant == "data_shared") {  // the first round's list: every vertex
    const std::uint64_t a = d.malloc(c.g.n * 4ull), b = d.malloc(c.g.n * 4ull), count = d.malloc(4);
    std::vector<std::uint32_t> all(c.g.n);
    for (std::uint32_t v = 0; v < c.g.n; ++v) all[v] = v;
    d.memcpy_to_device(a, all.data(), c.g.n * 4ull);
    worklist_rounds(c.run, a, c.g.n, b, count, [&](std::uint64_t in, std::uint32_t n, std::uint64_t out, std::uint32_t round) {
      c.run.launch("clr_dd", n, Args() << c.dg.row << c.dg.col << c.priority << c.state << static_cast<int>(round) << in << n
                                       << out << count);
    });
    return c.result();
  }
  const bool wc = variant == "warp_centric";
  until_done(c.run, [&](std::uint64_t more, int round) {
    c.run.launch(wc ? "clr_wc" : "clr_kernel", wc ? (c.g.n + 31) / 32 * 32 : c.g.n,
                 Args() << c.dg.row << c.dg.col << c.priority << c.state << round << c.g.n << more);
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

Result stcon(Device& d, const Graph& input, std::uint32_t s, const std::string& variant) {
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
    run.launch(variant == "harish" ? "stcon_kernel" : "stcon_restrict", g.n, Args() << dg.row << dg.col << mask << updating << colour << found << g.n);
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

// MST's edges: each undirected edge of the simple graph g (undirected()) numbered in the CSR
// order of its lower end; eid[a] is arc a's edge in either direction, ends[2i], ends[2i+1] edge
// i's lower and higher end.
struct MstEdges {
  std::vector<std::uint32_t> eid, ends, weight;
  explicit MstEdges(const Graph& g) : eid(g.edges()) {
    for (std::uint32_t v = 0; v < g.n; ++v)
      for (std::uint32_t a = g.row[v]; a < g.row[v + 1]; ++a)
        if (v < g.col[a]) {
          eid[a] = static_cast<std::uint32_t>(weight.size());
          ends.insert(ends.end(), {v, g.col[a]});
          weight.push_back(g.weight[a]);
        }
    for (std::uint32_t v = 0; v < g.n; ++v)
      for (std::uint32_t a = g.row[v]; a < g.row[v + 1]; ++a)
        if (v > g.col[a]) {  // the reverse arc, found in the lower end's sorted row
          const std::uint32_t u = g.col[a];
          eid[a] = eid[std::lower_bound(g.col.begin() + g.row[u], g.col.begin() + g.row[u + 1], v) - g.col.begin()];
        }
  }
  std::size_t size() const { return weight.size(); }
};

Result mst(Device& d, const Graph& input, std::uint32_t, const std::string& variant) {
  const Graph g = undirected(input);
  const MstEdges edges(g);
  Runner run(d, kModule);
  DeviceGraph dg(d, g);
  const std::size_t m = std::max<std::size_t>(1, edges.size());
  const std::uint64_t eid = d.malloc(std::max<std::size_t>(1, g.edges()) * 4), ends = d.malloc(m * 8), in_tree = d.malloc(m),
                      cmin = d.malloc(g.n * 8ull), comp = d.malloc(g.n * 4ull);
  d.memcpy_to_device(eid, edges.eid.data(), edges.eid.size() * 4);
  d.memcpy_to_device(ends, edges.ends.data(), edges.ends.size() * 4);
  d.memset(in_tree, 0, m);
  d.memset(cmin, 0xff, g.n * 8ull);
  std::vector<std::uint32_t> identity(g.n);
  for (std::uint32_t v = 0; v < g.n; ++v) identity[v] = v;
  d.memcpy_to_device(comp, identity.data(), g.n * 4ull);
  const bool restricted = variant == "harish_restrict" || variant == "lonestar_restrict";
  if (variant == "harish" || variant == "harish_restrict") {
    const std::uint64_t next = d.malloc(g.n * 4ull);
    d.memcpy_to_device(next, identity.data(), g.n * 4ull);
    until_done(run, [&](std::uint64_t linked, int) {
      run.launch(restricted ? "hmst_find_min_restrict" : "hmst_find_min", g.n, Args() << dg.row << dg.col << dg.weight << eid << comp << cmin << g.n);
      run.launch("hmst_link", g.n, Args() << ends << comp << cmin << next << in_tree << g.n << linked);
      run.launch("hmst_recolour", g.n, Args() << comp << next << cmin << g.n);
    });
  } else {
    const std::uint64_t partner = d.malloc(g.n * 4ull);
    // LS-MST's find-min over every vertex, or over the worklist of vertices with an edge out of
    // their component (the worklist API's `wl` and `hwwl`: wl.cu's mst_find_min_wl).
    // Its worklist: every vertex at first, then those still bordering another component; the
    // HWWL holds a round's pushes for the next (double-buffer mode: a vertex pushed in a round must
    // not be pulled again in it).
    std::optional<Worklist> wl;
    if (variant == "wl" || variant == "hwwl") {
      wl.emplace(d, variant == "hwwl", "mst_find_min_wl", g.n,
                 "boruvka/hwwl: Boruvka's rounds need hwwl.mode: double (a vertex pushed in a round is the next round's work)");
      wl->seed_all(g.n);
    }
    until_done(run, [&](std::uint64_t linked, int) {
      const Args find = Args() << dg.row << dg.col << dg.weight << eid << comp << cmin;
      if (wl) wl->round("mst_find_min_wl", find);
      else run.launch(restricted ? "lsmst_find_min_restrict" : "lsmst_find_min", g.n, Args(find) << g.n);
      run.launch("lsmst_partner", g.n, Args() << ends << comp << cmin << partner << g.n);
      run.launch("lsmst_link", g.n, Args() << comp << cmin << partner << in_tree << g.n << linked);
      run.launch("lsmst_compress", g.n, Args() << comp << cmin << g.n);
    });
    if (wl) run.absorb(wl->run);
  }
  const auto chosen = run.download<std::uint8_t>(in_tree, edges.size());
  run.r.values.assign(chosen.begin(), chosen.end());
  return run.r;
}

// Kruskal's forest under the kernels' order (weight, then edge id): 1 for an edge in it.
std::vector<double> mst_reference(const Graph& input, std::uint32_t) {
  const MstEdges edges(undirected(input));
  std::vector<std::uint32_t> order(edges.size()), up(input.n);
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return edges.weight[a] < edges.weight[b]; });
  for (std::uint32_t v = 0; v < input.n; ++v) up[v] = v;
  const auto find = [&](std::uint32_t v) {
    while (up[v] != v) v = up[v] = up[up[v]];
    return v;
  };
  std::vector<double> in(edges.size(), 0);
  for (std::uint32_t i : order) {
    const std::uint32_t a = find(edges.ends[2 * i]), b = find(edges.ends[2 * i + 1]);
    if (a != b) up[std::max(a, b)] = std::min(a, b), in[i] = 1;
  }
  return in;
}

std::string same_tree(const Graph&, const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return "got " + std::to_string(got.size()) + " edges, expected " + std::to_string(want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      return "undirected edge " + std::to_string(i) + (got[i] != 0 ? " taken, but Kruskal's tree leaves it out" : " left out, but Kruskal's tree takes it");
  return "";
}

std::string exact(const Graph&, const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return "got " + std::to_string(got.size()) + " values, expected " + std::to_string(want.size());
  for (std::size_t v = 0; v < want.size(); ++v)
    if (got[v] != want[v])
      return "vertex " + std::to_string(v) + ": got " + std::to_string(got[v]) + ", expected " + std::to_string(want[v]);
  return "";
}

}  // namespace

std::vector<std::uint32_t> priorities(std::uint32_t n) {
  std::vector<std::uint32_t> p(n);
  for (std::uint32_t v = 0; v < n; ++v) p[v] = static_cast<std::uint32_t>(sim::splitmix64(v) >> 32);
  return p;
}

namespace {
// Chapter V's edge loops of H-BFS (section 5.5): each a kernel hbfs_<name> in place of hbfs_kernel.
const char* const kEdgeLoops[] = {"swp", "swpnc", "unr2", "unr3", "unr2_swp", "unr2_swpnc", "hoisted", "restrict"};

// The kernel H-BFS's variant `v` expands its frontier with ("" when v is not one).
std::string harish_kernel(const std::string& v) {
  if (v == "harish") return "hbfs_kernel";
  for (const char* loop : kEdgeLoops)
    if (v == std::string("harish_") + loop) return std::string("hbfs_") + loop;
  return "";
}
}  // namespace

bool bfs_variant(const std::string& v) {
  return !harish_kernel(v).empty() || v == "warp_centric" || v == "data_shared" || v == "unrolled" || v == "unrolled_restrict";
}
bool sssp_variant(const std::string& v) {
  return v == "harish" || v == "unrolled" || v == "warp_centric" || v == "data_shared" || v == "harish_restrict" ||
         v == "unrolled_restrict";
}

std::vector<Variant> bfs_variants() {
  return {{"harish", "Harish and Narayanan's BFS (the thesis's H-BFS): frontier, updating and visited flag arrays, Kernel and Kernel2 per level (workloads/kernels/graphmem.cu)"},
          {"warp_centric", "warp-centric BFS (BFS-WC, Hong et al.): a warp per 32 vertices, its lanes over each active one's edges"},
          {"data_shared", "data-driven BFS with a block queue in shared memory (BFS-DD, SHOC): a thread per frontier vertex, the block's queue copied out with one atomic"},
          {"unrolled", "LonestarGPU's drelax with kernel unrolling (the thesis's LS-BFS): every vertex expanded each launch, lowered neighbours expanded again from a 12-entry queue a thread in shared memory"},
          {"harish_swp", "H-BFS with software prefetching (the thesis's SWP, chapter V): the next neighbour's id and visited flag loaded an iteration ahead"},
          {"harish_swpnc", "the same without the in-loop bound check, the last neighbour after the loop (SWPNC)"},
          {"harish_unr2", "H-BFS's edge loop unrolled by two (UNR2): two ids, then two flags an iteration"},
          {"harish_unr3", "unrolled by three (UNR3)"},
          {"harish_unr2_swp", "unrolled by two with the next pair prefetched (UNR2_SWP)"},
          {"harish_unr2_swpnc", "the same without the in-loop check (UNR2_SWPNC)"},
          {"harish_hoisted", "H-BFS with its edge range and new cost in registers, as Figure 75 and the edge loops above have them (harish reloads them after every store)"},
          {"harish_restrict", "H-BFS with its arrays __restrict__ and its edge loop not unrolled: the edges' and visited flags' loads ld.global.nc, the loads spare-register prefetching (SPREF) may prefetch"},
          {"unrolled_restrict", "LS-BFS with its arrays __restrict__ and its edge loop not unrolled (for SPREF: the edges ld.global.nc)"}};
}

std::vector<Variant> sssp_variants() {
  return {{"harish", "Harish and Narayanan's SSSP (the thesis's H-SSSP): DijkstraKernel1 lowers neighbours' tentative costs by atomicMin, DijkstraKernel2 settles them"},
          {"unrolled", "LonestarGPU's drelax with kernel unrolling (the thesis's LS-SSSP): as bfs unrolled, with the edges' weights"},
          {"warp_centric", "H-SSSP's relaxation warp-centric (chapter V's WARPC): a warp per 32 vertices, its lanes over each frontier vertex's edges; DijkstraKernel2 settles"},
          {"data_shared", "data-driven (chapter V's DD): a thread per frontier vertex, a lowered neighbour joining the next frontier once a round through the block's queue in shared memory"},
          {"harish_restrict", "H-SSSP with its arrays __restrict__ and its edge loop not unrolled (for SPREF: the edges and weights ld.global.nc)"},
          {"unrolled_restrict", "LS-SSSP the same way (for SPREF)"}};
}

Result bfs(Device& d, const Graph& g, std::uint32_t src, const std::string& variant) {
  check_source(g, src);
  Runner run(d, kModule);
  DeviceGraph dg(d, g);
  const std::uint64_t cost = d.malloc(g.n * 4ull);
  d.memset(cost, 0xff, g.n * 4ull);
  run.put<std::uint32_t>(cost + src * 4ull, 0);
  if (const std::string expand = harish_kernel(variant); !expand.empty()) {
    const std::uint64_t mask = d.malloc(g.n), updating = d.malloc(g.n), visited = d.malloc(g.n);
    d.memset(mask, 0, g.n);
    d.memset(updating, 0, g.n);
    d.memset(visited, 0, g.n);
    run.put<std::uint8_t>(mask + src, 1);
    run.put<std::uint8_t>(visited + src, 1);
    until_done(run, [&](std::uint64_t over, int) {
      run.launch(expand, g.n, Args() << dg.row << dg.col << mask << updating << visited << cost << g.n);
      run.launch("hbfs_kernel2", g.n, Args() << mask << updating << visited << over << g.n);
    });
  } else if (variant == "unrolled" || variant == "unrolled_restrict") {
    const char* kernel = variant == "unrolled" ? "ls_bfs_drelax" : "ls_bfs_restrict";
    until_done(run, [&](std::uint64_t changed, int) { run.launch(kernel, g.n, Args() << dg.row << dg.col << cost << g.n << changed); });
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

Result sssp(Device& d, const Graph& g, std::uint32_t src, const std::string& variant) {
  check_source(g, src);
  Runner run(d, kModule);
  DeviceGraph dg(d, g);
  const bool flags = variant == "harish" || variant == "warp_centric" || variant == "harish_restrict";  // H-SSSP's arrays
  const std::uint64_t cost = d.malloc(g.n * 4ull), updating = flags ? d.malloc(g.n * 4ull) : 0, mask = flags ? d.malloc(g.n) : 0;
  d.memset(cost, 0xff, g.n * 4ull);
  run.put<std::uint32_t>(cost + src * 4ull, 0);
  if (flags) {
    d.memset(updating, 0xff, g.n * 4ull);
    d.memset(mask, 0, g.n);
    run.put<std::uint32_t>(updating + src * 4ull, 0);
    run.put<std::uint8_t>(mask + src, 1);
    const bool wc = variant == "warp_centric";
    until_done(run, [&](std::uint64_t over, int) {
      run.launch(wc ? "sssp_wc" : variant == "harish" ? "hsssp_kernel1" : "hsssp_restrict", wc ? (g.n + 31) / 32 * 32 : g.n,
                 Args() << dg.row << dg.col << dg.weight << mask << cost << updating << g.n);
      run.launch("hsssp_kernel2", g.n, Args() << mask << cost << updating << over << g.n);
    });
  } else if (variant == "unrolled" || variant == "unrolled_restrict") {
    until_done(run, [&](std::uint64_t changed, int) {
      run.launch(variant == "unrolled" ? "ls_sssp_drelax" : "ls_sssp_restrict", g.n, Args() << dg.row << dg.col << dg.weight << cost << g.n << changed);
    });
  } else {  // data_shared
    const std::uint64_t a = d.malloc(g.n * 4ull), b = d.malloc(g.n * 4ull), count = d.malloc(4), queued = d.malloc(g.n * 4ull);
    d.memset(queued, 0xff, g.n * 4ull);
    run.put<std::uint32_t>(a, src);
    worklist_rounds(run, a, 1, b, count, [&](std::uint64_t in, std::uint32_t n, std::uint64_t out, std::uint32_t round) {
      run.launch("sssp_dd", n, Args() << dg.row << dg.col << dg.weight << cost << queued << round << in << n << out << count);
    });
  }
  run.r.values = as_values(run.download<std::uint32_t>(cost, g.n));
  return run.r;
}

std::vector<Workload> workloads() {
  return {
      {"color", "graph colouring (the thesis's CLR, Pannotia-style): rounds in which an uncoloured vertex whose random priority beats every uncoloured neighbour's takes the round's colour, on the undirected input",
       {{"topology", "a kernel over every vertex per round (workloads/kernels/graphmem.cu)"},
        {"warp_centric", "chapter V's warp-centric CLR: a warp per 32 vertices, its lanes over each uncoloured one's neighbours 32 at a time, stopping at the first 32 that beat it"},
        {"data_shared", "chapter V's data-driven CLR: a thread per vertex still uncoloured, one beaten joining the next round's list through the block's queue in shared memory"}},
       false, colour, colour_reference, exact, "exact: the CPU's rounds with the same priorities"},
      {"mis", "maximal independent set (Luby, the thesis's MIS): rounds in which undecided local minima of a random priority join and their neighbours leave, on the undirected input (1 in the set, 0 not)",
       {{"topology", "three kernels over every vertex per round: select, remove, commit"}},
       false, mis, mis_reference, exact, "exact: the CPU's rounds with the same priorities"},
      {"boruvka", "minimum spanning forest (MST) by Boruvka's rounds on the undirected input (parallel edges as the lightest), ties broken by edge id: 1 for each undirected edge in the forest, numbered in the CSR order of its lower end",
       {{"harish", "colours per vertex (the thesis's H-MST, Harish and Vineet's Find_Min_Edge_Weight): each vertex offers its lightest edge to another colour, roots link, vertices follow the links (workloads/kernels/graphmem.cu)"},
        {"lonestar", "a union-find forest (the thesis's LS-MST, LonestarGPU's Boruvka): the weight tested before the neighbour's root is chased, roots link, paths compressed"},
        {"harish_restrict", "H-MST with Find_Min_Edge_Weight's arrays __restrict__ and its edge loop not unrolled (for SPREF: the edges, weights and neighbours' colours ld.global.nc)"},
        {"lonestar_restrict", "LS-MST the same way (for SPREF)"},
        {"wl", "LS-MST with its find-min over the worklist API (worklist.cuh) on the software worklist: the vertices that still have an edge out of their component, all at first, a persistent grid"},
        {"hwwl", "the same find-min on the hardware worklist (timing mode; hwwl.mode: double)", "hwwl"}},
       false, mst, mst_reference, same_tree, "exact: Kruskal's forest under the same order"},
      {"stcon", "s-t connectivity (Harish, the thesis's STCON): searches from the source and from the last vertex with an edge at once, on the undirected input, until they meet or stop (1: connected)",
       {{"harish", "Kernel and Kernel2 per level over frontier flags and a colour per vertex (workloads/kernels/graphmem.cu)"},
        {"harish_restrict", "with Kernel's arrays __restrict__ and its edge loop not unrolled (for SPREF: the edges ld.global.nc; colour is written, an ordinary load)"}},
       true, stcon, stcon_reference, exact, "exact: connected or not, as a CPU search finds"},
  };
}

}  // namespace irr::workloads::graphmem
