// SPDX-License-Identifier: Apache-2.0
#include "workloads/locks/locks.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "sim/error.h"
#include "sim/hash.h"
#include "workloads/runner.h"

namespace irr::workloads::locks {
namespace {

// A host driver's runner over locks.ptx (workloads/runner.h), with the buffers these drivers use.
struct Run : Runner {
  explicit Run(Device& dev) : Runner(dev, "locks.ptx") {}
  std::uint64_t upload(const std::vector<std::int32_t>& v) {
    const std::uint64_t p = d.malloc(std::max<std::size_t>(1, v.size()) * 4);
    d.memcpy_to_device(p, v.data(), v.size() * 4);
    return p;
  }
  std::uint64_t zeros(std::uint64_t bytes) {
    const std::uint64_t p = d.malloc(std::max<std::uint64_t>(1, bytes));
    d.memset(p, 0, bytes);
    return p;
  }
  // The servers must all be resident with room for a client (they run until the clients end).
  void check_servers(const std::string& kernel, const Options& o) {
    const std::uint64_t blocks = resident(kernel);
    if (o.servers >= blocks)
      throw Error(kernel + ": " + std::to_string(o.servers) + " server blocks, but the device runs " +
                      std::to_string(blocks) + " blocks at once: the servers must leave room for a client",
                  Error::Kind::usage);
  }
  void launch_blocks(const std::string& kernel, std::uint32_t blocks, const Args& args) { launch(kernel, blocks * kBlock, args); }
  Outcome outcome(std::string error) const { return {std::move(error), r.launches, r.warp_instructions, r.thread_instructions}; }
};

// Bytes of a delegated kernel's metadata block (locks.cu): per channel and server a reservation
// counter, a read counter and a bit a slot; then two counters.
constexpr std::uint64_t kSlots = 4096;  // message slots per server and channel (locks.cu CAP)
std::uint64_t metadata(std::uint64_t channels, std::uint64_t servers) {
  return (channels * servers * (2 + kSlots / 32) + 2) * 4;
}

// Table 4.2's latency from the instrumented kernels' stamps, summed over launches: a lock's sections
// in the order they took it (they must not overlap), each acquire after the first against the
// release before it.
struct Handoffs {
  std::uint64_t count = 0, sum = 0, sections = 0, held = 0;
  void add(const std::string& name, const std::vector<std::int32_t>& keys, const std::vector<std::uint64_t>& acquired,
           const std::vector<std::uint64_t>& released) {
    std::vector<std::size_t> order(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      order[i] = i;
      held += released[i] - acquired[i];
    }
    sections += keys.size();
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return keys[a] != keys[b] ? keys[a] < keys[b] : acquired[a] < acquired[b];
    });
    for (std::size_t j = 1; j < order.size(); ++j) {
      const std::size_t prev = order[j - 1], cur = order[j];
      if (keys[prev] != keys[cur]) continue;
      if (acquired[cur] < released[prev])
        throw Error(name + ": items " + std::to_string(prev) + " and " + std::to_string(cur) + " held lock " +
                    std::to_string(keys[cur]) + " at once");
      sum += acquired[cur] - released[prev];
      ++count;
    }
  }
  std::vector<std::pair<std::string, std::uint64_t>> counters() const {
    return {{"handoffs", count}, {"handoff_cycles_mean", count ? sum / count : 0},
            {"section_cycles_mean", sections ? held / sections : 0}};
  }
};

// The lock kernels' buffers, made at a benchmark's first launch and zeroed before each (MST
// launches once a pass).
struct Buffer {
  std::uint64_t address = 0, bytes = 0;
};
struct Buffers {
  Buffer locks, msgs, offloads, requests, replies, unlocks, meta, acquired, released;
};
// `bytes` of zeros in `b`, made anew when it holds fewer.
std::uint64_t zeroed(Run& run, Buffer& b, std::uint64_t bytes) {
  if (b.bytes < bytes) b = {run.d.malloc(std::max<std::uint64_t>(1, bytes)), bytes};
  run.d.memset(b.address, 0, bytes);
  return b.address;
}

// A client block gathers its messages by server in scratchpad (locks.cu send_block, §3.3.2).
void check_sender(const std::string& name, const Options& o) {
  if (o.servers > 64)
    throw Error(name + "/delegated: at most 64 server blocks (a client block gathers its messages by server in "
                       "scratchpad, §3.3.2's sender)", Error::Kind::usage);
}

// The one-lock kernels' launch (locks.cu single_global / single_delegated): item i runs its
// section under the lock of id keys[i] (of `ids`; `key` holds them on the device); `section`
// appends the kernel's section arguments. With `handoffs` (--handoff) the _handoff kernels run and
// their stamps are added to it.
void run_single(Run& run, Buffers& b, const std::string& name, const std::string& variant, const Options& o,
                std::uint64_t ids, const std::vector<std::int32_t>& keys, std::uint64_t key,
                const std::function<void(Args&)>& section, Handoffs* handoffs) {
  const auto items = static_cast<std::uint32_t>(keys.size());
  const std::uint32_t client_blocks = (items + kBlock - 1) / kBlock;
  Args args;
  args << key << static_cast<std::int32_t>(items);
  section(args);
  const std::string suffix = handoffs ? "_handoff" : "";
  if (variant == "global") {
    args << zeroed(run, b.locks, ids * 4);
  } else {
    check_sender(name, o);
    run.check_servers(name + "_delegated", o);
    args << zeroed(run, b.msgs, o.servers * kSlots * 8) << zeroed(run, b.meta, metadata(1, o.servers)) << o.servers;
  }
  // The hand-off kernels take two more buffers: the cycle each item took its lock and released it.
  if (handoffs) args << zeroed(run, b.acquired, items * 8ull) << zeroed(run, b.released, items * 8ull);
  run.launch_blocks(name + "_" + variant + suffix, (variant == "global" ? 0 : o.servers) + client_blocks, args);
  if (handoffs)
    handoffs->add(name, keys, run.download<std::uint64_t>(b.acquired.address, items),
                  run.download<std::uint64_t>(b.released.address, items));
}

// --handoff reads %clock64, which counts a warp's instructions in the functional executor.
void check_handoff(Run& run, const std::string& name, const std::string& kernel) {
  if (!run.d.resident_blocks(run.d.kernel(run.module, kernel), Dim3{kBlock}))
    throw Error(name + ": --handoff needs the timed GPU (--mode timing): functionally %clock64 counts a warp's instructions",
                Error::Kind::usage);
}

Outcome hash_table(Device& d, const std::string& variant, const Options& o) {
  const std::vector<std::int32_t> k = keys(o);
  Run run(d);
  if (o.handoff) check_handoff(run, "ht", "ht_global");
  const std::uint64_t heads = run.upload(std::vector<std::int32_t>(o.collisions, -1)), next = run.zeros(o.items * 4ull);
  Buffers b;
  Handoffs handoffs;
  run_single(run, b, "ht", variant, o, o.collisions, k, run.upload(k), [&](Args& a) { a << heads << next; },
             o.handoff ? &handoffs : nullptr);
  Outcome out = run.outcome(check_lists(k, run.download<std::int32_t>(heads, o.collisions), run.download<std::int32_t>(next, o.items)));
  if (o.handoff) out.counters = handoffs.counters();
  return out;
}

// The two-nested-lock kernels' launch (locks.cu nested_global / nested_delegated): item i runs its
// section under the locks of ids from[i] and to[i] (of `ids`) with payload[i]; `section` appends
// the kernel's section arguments.
// With `handoffs` (--handoff) the _handoff kernels run, their stamps added for both locks of each
// item (`keys` the ids of one, `keys2` of the other; the same id space).
void run_nested(Run& run, Buffers& b, const std::string& name, const std::string& variant, const Options& o,
                std::uint32_t items, std::uint64_t ids, std::uint64_t from, std::uint64_t to, std::uint64_t payload,
                const std::function<void(Args&)>& section, Handoffs* handoffs = nullptr,
                const std::vector<std::int32_t>& keys = {}, const std::vector<std::int32_t>& keys2 = {}) {
  const std::uint32_t client_blocks = (items + kBlock - 1) / kBlock;
  Args args;
  args << from << to << payload << static_cast<std::int32_t>(items);
  section(args);
  if (variant == "global") {
    args << zeroed(run, b.locks, ids * 4);
  } else {
    // A server's request ring must hold every request that can be outstanding at once (locks.cu).
    if (o.servers > 32) throw Error(name + "/delegated: at most 32 server blocks (each server's 4,096 request slots hold "
                                    "one request a follower lane of every server)", Error::Kind::usage);
    run.check_servers(name + "_delegated", o);
    const std::uint64_t s = o.servers * kSlots;
    args << zeroed(run, b.offloads, s * 16) << zeroed(run, b.requests, s * 8) << zeroed(run, b.replies, s * 4)
         << zeroed(run, b.unlocks, s * 4) << zeroed(run, b.meta, metadata(4, o.servers)) << o.servers;
  }
  if (handoffs) args << zeroed(run, b.acquired, items * 8ull) << zeroed(run, b.released, items * 8ull);
  run.launch_blocks(name + "_" + variant + (handoffs ? "_handoff" : ""), (variant == "global" ? 0 : o.servers) + client_blocks,
                    args);
  if (handoffs) {  // a lock's sections are those of the items that take it first or second
    const auto acquired = run.download<std::uint64_t>(b.acquired.address, items),
               released = run.download<std::uint64_t>(b.released.address, items);
    std::vector<std::int32_t> both = keys;
    both.insert(both.end(), keys2.begin(), keys2.end());
    std::vector<std::uint64_t> a2 = acquired, r2 = released;
    a2.insert(a2.end(), acquired.begin(), acquired.end());
    r2.insert(r2.end(), released.begin(), released.end());
    handoffs->add(name, both, a2, r2);
  }
}

Outcome bank_transfers(Device& d, const std::string& variant, const Options& o) {
  if (o.collisions < 2) throw Error("atm: a transfer needs two accounts (--collisions 2 or more)", Error::Kind::usage);
  const Transfers t = transfers(o);
  Run run(d);
  if (o.handoff) check_handoff(run, "atm", "atm_global");
  const std::uint64_t balance = run.zeros(o.collisions * 4ull);
  Buffers b;
  Handoffs handoffs;
  run_nested(run, b, "atm", variant, o, o.items, o.collisions, run.upload(t.from), run.upload(t.to), run.upload(t.amount),
             [&](Args& a) { a << balance; }, o.handoff ? &handoffs : nullptr, t.from, t.to);
  Outcome out = run.outcome(check_balances(t, run.download<std::int32_t>(balance, o.collisions)));
  if (o.handoff) out.counters = handoffs.counters();
  return out;
}

// Root mean square error of the ratings' predictions, in thousandths of a star.
std::uint64_t rmse_milli(const Ratings& r, const std::vector<float>& f) {
  double sum = 0;
  for (std::size_t i = 0; i < r.user.size(); ++i) {
    const float* x = &f[static_cast<std::size_t>(r.user[i]) * kSgdFeatures];
    const float* y = &f[static_cast<std::size_t>(r.users + r.movie[i]) * kSgdFeatures];
    double p = 0;
    for (std::uint32_t k = 0; k < kSgdFeatures; ++k) p += static_cast<double>(x[k]) * y[k];
    sum += (r.rating[i] - p) * (r.rating[i] - p);
  }
  return r.user.empty() ? 0 : static_cast<std::uint64_t>(std::lround(1000 * std::sqrt(sum / static_cast<double>(r.user.size()))));
}

Outcome matrix_factorisation(Device& d, const std::string& variant, const Options& o) {
  if (o.handoff) throw Error("sgd: --handoff is measured for ht, mst and atm", Error::Kind::usage);
  const Ratings r = ratings(o);
  const std::vector<float> initial = sgd_features(r);
  std::vector<std::int32_t> ids(r.movie.size());  // movies' lock ids follow the users'
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int32_t>(r.users) + r.movie[i];
  Run run(d);
  const std::uint64_t vertices = r.users + r.movies, features = run.d.malloc(initial.size() * 4),
                      version = run.zeros(vertices * 4), order = run.zeros(o.items * 8ull);
  run.d.memcpy_to_device(features, initial.data(), initial.size() * 4);
  Buffers b;
  run_nested(run, b, "sgd", variant, o, o.items, vertices, run.upload(r.user), run.upload(ids), run.upload(r.rating),
             [&](Args& a) { a << features << version << order << kSgdRate << kSgdLambda; });
  const auto result = run.download<float>(features, initial.size());
  Outcome out = run.outcome(check_sgd(r, initial, run.download<std::int32_t>(order, o.items * 2ull), result));
  out.counters = {{"rmse_start_milli", rmse_milli(r, initial)}, {"rmse_end_milli", rmse_milli(r, result)}};
  return out;
}

// Boruvka's MST with component locks (locks.cu "MST"): rounds of mst_min, passes of mst_items and
// the nested-lock merge until every pending merge is made, then mst_compress; until no component
// has an edge out. The taken edges must be a spanning forest of Kruskal's weight.
Outcome spanning_tree(Device& d, const std::string& variant, const Options& o) {
  const Graph g = undirected(load_graph(o.graph.empty() ? find("mst")->graph : o.graph));
  const auto m = static_cast<std::uint32_t>(g.edges());
  std::vector<std::int32_t> src(m), canon(m), parent(g.n);
  for (std::uint32_t v = 0; v < g.n; ++v) {
    parent[v] = static_cast<std::int32_t>(v);
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
      src[e] = static_cast<std::int32_t>(v);
      const std::uint32_t w = g.col[e];  // the lower-to-higher direction's id
      canon[e] = static_cast<std::int32_t>(
          v < w ? e : std::lower_bound(g.col.begin() + g.row[w], g.col.begin() + g.row[w + 1], v) - g.col.begin());
    }
  }
  Run run(d);
  if (o.handoff) check_handoff(run, "mst", "mst_min");
  const DeviceGraph dg(d, g);
  const std::uint64_t srcs = run.upload(src), canons = run.upload(canon), parents = run.upload(parent),
                      minedge = d.malloc(std::max<std::uint64_t>(1, g.n) * 8ull), hi = run.zeros(g.n * 4ull),
                      lo = run.zeros(g.n * 4ull), comp = run.zeros(g.n * 4ull), count = run.zeros(4),
                      taken = run.zeros(m * 4ull);
  d.memset(minedge, 0xff, g.n * 8ull);
  const auto n = static_cast<std::int32_t>(g.n);
  Buffers b;
  Handoffs handoffs;
  std::uint64_t rounds = 0, passes = 0, merges = 0;
  for (bool edges_out = true; edges_out; ++rounds) {
    run.launch("mst_min", g.n, Args() << dg.row << dg.col << dg.weight << canons << n << parents << minedge);
    edges_out = false;
    for (;;) {
      run.put<std::uint32_t>(count, 0);
      run.launch("mst_items", g.n, Args() << srcs << dg.col << n << parents << minedge << hi << lo << comp << count);
      const auto items = run.get<std::uint32_t>(count);
      if (items == 0) break;
      edges_out = true;
      ++passes;
      merges += items;
      run_single(run, b, "mst_merge", variant, o, g.n, run.download<std::int32_t>(hi, items), hi,
                 [&](Args& a) { a << lo << comp << parents << minedge << taken; }, o.handoff ? &handoffs : nullptr);
    }
    run.launch("mst_compress", g.n, Args() << n << parents);
  }
  const auto took = run.download<std::int32_t>(taken, m);
  std::vector<Edge> chosen;
  for (std::uint32_t e = 0; e < m; ++e)
    if (took[e]) chosen.push_back({static_cast<std::uint32_t>(src[e]), g.col[e], g.weight[e]});
  Outcome out = run.outcome(check_forest(g, chosen));
  std::uint64_t weight = 0;
  for (const Edge& e : chosen) weight += e.weight;
  out.counters = {{"rounds", rounds}, {"merge_launches", passes}, {"merges_tried", merges},
                  {"tree_edges", chosen.size()}, {"tree_weight", weight}};
  if (o.handoff)
    for (const auto& c : handoffs.counters()) out.counters.push_back(c);
  return out;
}

// Push-relabel maximum flow with node locks (locks.cu "MF") from vertex 0 to the last vertex of
// o.graph (mesh: puts its source and sink there): rounds of mf_items and the nested-lock pushes,
// with a global relabel every kMfRelabelRounds rounds (mf_items relabels locally in between), until
// no vertex is active; checked against Edmonds-Karp on the host. On the 16 x 16 mesh a relabel
// every round took 89% of the kernel cycles (one block's breadth-first search, a level a barrier)
// for 51 rounds; every 8, 79 rounds and a third of the instructions.
constexpr std::uint64_t kMfRelabelRounds = 8;
Outcome max_flow(Device& d, const std::string& variant, const Options& o) {
  if (o.handoff) throw Error("mf: --handoff is measured for ht, mst and atm", Error::Kind::usage);
  const Graph g = load_graph(o.graph.empty() ? find("mf")->graph : o.graph);
  if (g.n < 2) throw Error("mf: " + g.name + " has fewer than two vertices (source 0, sink the last)", Error::Kind::usage);
  const Residual r = residual(g);
  const auto n = static_cast<std::int32_t>(g.n), s = 0, t = n - 1;
  const auto m = r.head.size();
  // The source's arcs saturated: their capacity is the excess of their heads.
  std::vector<std::int32_t> cap = r.cap, excess(g.n);
  for (std::uint32_t e = r.row[0]; e < r.row[1]; ++e) {
    excess[static_cast<std::size_t>(r.head[e])] += cap[e];
    excess[0] -= cap[e];
    cap[static_cast<std::size_t>(r.rev[e])] += cap[e];
    cap[e] = 0;
  }
  Run run(d);
  const std::uint64_t row = run.upload(std::vector<std::int32_t>(r.row.begin(), r.row.end())), head = run.upload(r.head),
                      rev = run.upload(r.rev), caps = run.upload(cap), excesses = run.upload(excess),
                      height = run.zeros(g.n * 4ull), from = run.zeros(m * 4), to = run.zeros(m * 4),
                      arc = run.zeros(m * 4), counts = run.zeros(8);
  Buffers b;
  std::uint64_t rounds = 0, pushes = 0;
  for (;; ++rounds) {
    if (rounds > 4ull * g.n * g.n + 64) throw Error("mf: no convergence after " + std::to_string(rounds) + " rounds");
    if (rounds % kMfRelabelRounds == 0) run.launch("mf_relabel", kBlock, Args() << row << head << caps << n << s << t << height);
    run.put<std::uint64_t>(counts, 0);
    run.launch("mf_items", g.n, Args() << row << head << caps << excesses << n << s << t << height << from << to << arc << counts);
    const auto items = run.get<std::uint32_t>(counts), active = run.get<std::uint32_t>(counts + 4);
    if (active == 0) break;
    pushes += items;
    if (items > 0)
      run_nested(run, b, "mf_push", variant, o, items, g.n, from, to, arc, [&](Args& a) { a << caps << excesses << rev; });
  }
  Outcome out = run.outcome(check_flow(g, r, run.download<std::int32_t>(caps, m), run.download<std::int32_t>(excesses, g.n)));
  out.counters = {{"rounds", rounds}, {"pushes_tried", pushes},
                  {"flow", static_cast<std::uint64_t>(std::max(0, run.get<std::int32_t>(excesses + 4ull * (g.n - 1))))}};
  return out;
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& variants() {
  static const std::vector<std::pair<std::string, std::string>> v = {
      {"global", "spin locks in global memory around each critical section (Listing 4.1)"},
      {"delegated", "critical sections sent as messages to server blocks holding scratchpad locks (Listing 4.2)"}};
  return v;
}

const std::vector<Benchmark>& benchmarks() {
  static const std::vector<Benchmark> b = {
      {"ht", "hash table: each item pushed onto its entry's linked list under the entry's lock (HT, §3.5)", hash_table},
      {"atm", "bank transfers: each item moves an amount between two accounts under both accounts' locks, the "
              "lower first (ATM, two nested locks, §3.4-3.5)", bank_transfers},
      {"mst", "minimum spanning tree by Boruvka: a component joins another along its lightest edge under the lock "
              "of the higher root (MST, LonestarGPU's component locks, §3.5; --graph)", spanning_tree,
       // R-MAT (power law), as the dissertation's rmat22, at 4,096 vertices
       "rmat:scale=12,edge_factor=8"},
      {"mf", "maximum flow by push-relabel: each push under the locks of both its vertices, from vertex 0 to the "
             "last (MF, node locks, two nested locks, §3.5; --graph)", max_flow,
       // a Washington-style mesh, as the dissertation's 2k x 2k to 8k x 4k, at 16 x 16
       "mesh:rows=16,cols=16"},
      {"sgd", "matrix factorisation by SGD: each rating updates its user's and movie's latent vectors under both "
              "vertices' locks (SGD, Kaleem et al.'s edge locks, two nested locks, §3.5)", matrix_factorisation}};
  return b;
}

const Benchmark* find(const std::string& name) {
  for (const auto& b : benchmarks())
    if (b.name == name) return &b;
  return nullptr;
}

std::vector<std::int32_t> keys(const Options& o) {
  std::vector<std::int32_t> k(o.items);
  for (std::uint32_t i = 0; i < o.items; ++i)
    k[i] = static_cast<std::int32_t>(sim::splitmix64(o.seed * 0x100000001b3ull + i) % o.collisions);
  return k;
}

Transfers transfers(const Options& o) {
  Transfers t;
  t.from = keys(o);
  for (std::uint32_t i = 0; i < o.items; ++i) {
    const std::uint64_t h = sim::splitmix64(o.seed * 0x100000001b3ull + i + (1ull << 40));
    t.to.push_back(static_cast<std::int32_t>((t.from[i] + 1 + h % (o.collisions - 1)) % o.collisions));
    t.amount.push_back(static_cast<std::int32_t>(1 + (h >> 32) % 100));
  }
  return t;
}

std::string check_balances(const Transfers& t, const std::vector<std::int32_t>& balance) {
  std::vector<std::int64_t> want(balance.size());
  for (std::size_t i = 0; i < t.from.size(); ++i) {
    want[static_cast<std::size_t>(t.from[i])] -= t.amount[i];
    want[static_cast<std::size_t>(t.to[i])] += t.amount[i];
  }
  for (std::size_t a = 0; a < balance.size(); ++a)
    if (balance[a] != want[a])
      return "account " + std::to_string(a) + " holds " + std::to_string(balance[a]) + ", not " + std::to_string(want[a]) +
             ": a transfer was lost or torn";
  return "";
}

std::string check_lists(const std::vector<std::int32_t>& keys, const std::vector<std::int32_t>& heads,
                        const std::vector<std::int32_t>& next) {
  std::vector<bool> seen(keys.size());
  for (std::size_t e = 0; e < heads.size(); ++e) {
    for (std::int32_t i = heads[e]; i != -1; i = next[static_cast<std::size_t>(i)]) {
      if (i < 0 || static_cast<std::size_t>(i) >= keys.size())
        return "entry " + std::to_string(e) + " links to " + std::to_string(i) + ", no item";
      if (seen[static_cast<std::size_t>(i)])
        return "item " + std::to_string(i) + " is linked twice (entry " + std::to_string(e) + ")";
      if (keys[static_cast<std::size_t>(i)] != static_cast<std::int32_t>(e))
        return "item " + std::to_string(i) + " with key " + std::to_string(keys[static_cast<std::size_t>(i)]) +
               " is in entry " + std::to_string(e);
      seen[static_cast<std::size_t>(i)] = true;  // a cycle comes back to a seen item
    }
  }
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!seen[i]) return "item " + std::to_string(i) + " (key " + std::to_string(keys[i]) + ") is in no list: an insert was lost";
  return "";
}

Ratings ratings(const Options& o) {
  Ratings r;
  r.movies = o.collisions;
  r.users = std::max<std::uint32_t>(1, o.items / 16);
  for (std::uint32_t i = 0; i < o.items; ++i) {
    const std::uint64_t h = sim::splitmix64(o.seed * 0x100000001b3ull + i + (2ull << 40));
    const double u = static_cast<double>(h >> 11) / static_cast<double>(1ull << 53);
    r.user.push_back(static_cast<std::int32_t>(sim::splitmix64(h) % r.users));
    r.movie.push_back(static_cast<std::int32_t>(std::min<double>(r.movies - 1, u * u * r.movies)));
    r.rating.push_back(static_cast<std::int32_t>(1 + (h >> 3) % 5));
  }
  return r;
}

std::vector<float> sgd_features(const Ratings& r) {
  std::vector<float> f((static_cast<std::size_t>(r.users) + r.movies) * kSgdFeatures);
  for (std::size_t j = 0; j < f.size(); ++j) f[j] = 0.1f + 0.4f * static_cast<float>(sim::splitmix64(j) % 65536) / 65536.0f;
  return f;
}

void sgd_update(float* x, float* y, std::int32_t rating) {
  float predicted = 0.0f;
  for (std::uint32_t k = 0; k < kSgdFeatures; ++k) predicted = std::fma(x[k], y[k], predicted);
  const float error = static_cast<float>(rating) - predicted;
  for (std::uint32_t k = 0; k < kSgdFeatures; ++k) {
    const float u = x[k], v = y[k];
    x[k] = std::fma(kSgdRate, std::fma(error, v, -(kSgdLambda * u)), u);
    y[k] = std::fma(kSgdRate, std::fma(error, u, -(kSgdLambda * v)), v);
  }
}

std::string check_sgd(const Ratings& r, const std::vector<float>& initial, const std::vector<std::int32_t>& order,
                      const std::vector<float>& result) {
  const std::size_t n = r.user.size(), vertices = static_cast<std::size_t>(r.users) + r.movies;
  const auto vertex = [&](std::size_t i, int side) {
    return side == 0 ? static_cast<std::size_t>(r.user[i]) : r.users + static_cast<std::size_t>(r.movie[i]);
  };
  // sequence[v][p]: the rating whose section was the p-th on vertex v (each place taken once).
  std::vector<std::vector<std::int64_t>> sequence(vertices);
  for (std::size_t i = 0; i < n; ++i)
    for (int side = 0; side < 2; ++side) sequence[vertex(i, side)].push_back(-1);
  for (std::size_t i = 0; i < n; ++i)
    for (int side = 0; side < 2; ++side) {
      auto& seq = sequence[vertex(i, side)];
      const std::int64_t p = order[2 * i + static_cast<std::size_t>(side)];
      if (p < 0 || static_cast<std::size_t>(p) >= seq.size())
        return "rating " + std::to_string(i) + " ran as section " + std::to_string(p) + " of vertex " +
               std::to_string(vertex(i, side)) + ", which has " + std::to_string(seq.size()) + ": a section was lost or never ran";
      if (seq[static_cast<std::size_t>(p)] != -1)
        return "ratings " + std::to_string(seq[static_cast<std::size_t>(p)]) + " and " + std::to_string(i) +
               " both ran as section " + std::to_string(p) + " of vertex " + std::to_string(vertex(i, side)) +
               ": they held its lock at once";
      seq[static_cast<std::size_t>(p)] = static_cast<std::int64_t>(i);
    }
  // Replay in an order every vertex's sequence agrees with (each rating once both its vertices
  // reach it); with two-phase locking one exists.
  std::vector<float> f = initial;
  std::vector<std::size_t> next(vertices);
  std::vector<std::size_t> ready;
  std::vector<bool> queued(n);
  const auto offer = [&](std::int64_t j) {  // queues rating j once it is next on both its vertices
    const auto i = static_cast<std::size_t>(j);
    if (!queued[i] && sequence[vertex(i, 0)][next[vertex(i, 0)]] == j && sequence[vertex(i, 1)][next[vertex(i, 1)]] == j) {
      queued[i] = true;
      ready.push_back(i);
    }
  };
  for (std::size_t v = 0; v < vertices; ++v)
    if (!sequence[v].empty()) offer(sequence[v][0]);
  std::size_t replayed = 0;
  while (!ready.empty()) {
    const std::size_t i = ready.back();
    ready.pop_back();
    sgd_update(&f[vertex(i, 0) * kSgdFeatures], &f[vertex(i, 1) * kSgdFeatures], r.rating[i]);
    ++replayed;
    for (int side = 0; side < 2; ++side) {
      const std::size_t v = vertex(i, side);
      if (++next[v] < sequence[v].size()) offer(sequence[v][next[v]]);
    }
  }
  if (replayed != n)
    return "the sections' order on the vertices has a cycle (" + std::to_string(n - replayed) +
           " ratings unordered): they did not run as if one at a time";
  for (std::size_t j = 0; j < f.size(); ++j)
    if (f[j] != result[j] && !(std::isnan(f[j]) && std::isnan(result[j])))
      return "feature " + std::to_string(j % kSgdFeatures) + " of vertex " + std::to_string(j / kSgdFeatures) + " is " +
             std::to_string(result[j]) + ", not the replay's " + std::to_string(f[j]) + ": an update was torn or lost";
  return "";
}

std::string check_forest(const Graph& g, const std::vector<Edge>& chosen) {
  // Union-find over the vertices (path halving).
  std::vector<std::uint32_t> up(g.n);
  for (std::uint32_t v = 0; v < g.n; ++v) up[v] = v;
  const auto find = [&](std::uint32_t v) {
    while (up[v] != v) v = up[v] = up[up[v]];
    return v;
  };
  std::uint64_t weight = 0;
  for (const Edge& e : chosen) {
    const std::uint32_t a = find(e.from), b = find(e.to);
    if (a == b) return "edge " + std::to_string(e.from) + "-" + std::to_string(e.to) + " closes a cycle: two merges joined one pair";
    up[std::max(a, b)] = std::min(a, b);
    weight += e.weight;
  }
  // Kruskal's forest on the same graph.
  std::vector<Edge> edges;
  for (std::uint32_t v = 0; v < g.n; ++v)
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
      if (v < g.col[e]) edges.push_back({v, g.col[e], g.weight[e]});
  std::stable_sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.weight < b.weight; });
  for (std::uint32_t v = 0; v < g.n; ++v) up[v] = v;
  std::uint64_t want = 0, want_edges = 0;
  for (const Edge& e : edges) {
    const std::uint32_t a = find(e.from), b = find(e.to);
    if (a == b) continue;
    up[std::max(a, b)] = std::min(a, b);
    want += e.weight;
    ++want_edges;
  }
  if (chosen.size() != want_edges)
    return std::to_string(chosen.size()) + " edges taken, but a spanning forest has " + std::to_string(want_edges) +
           ": a merge was lost";
  if (weight != want)
    return "the forest weighs " + std::to_string(weight) + ", not Kruskal's " + std::to_string(want) + ": an edge was not the lightest";
  return "";
}

Residual residual(const Graph& g) {
  struct Arc {
    std::int32_t from, to, cap, pair;
  };
  std::vector<Arc> arcs;
  for (std::uint32_t v = 0; v < g.n; ++v)
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
      if (g.col[e] == v) continue;
      const auto k = static_cast<std::int32_t>(arcs.size());
      arcs.push_back({static_cast<std::int32_t>(v), static_cast<std::int32_t>(g.col[e]),
                      static_cast<std::int32_t>(std::min<std::uint32_t>(g.weight[e], 1u << 20)), k + 1});
      arcs.push_back({static_cast<std::int32_t>(g.col[e]), static_cast<std::int32_t>(v), 0, k});
    }
  std::vector<std::size_t> order(arcs.size()), place(arcs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return arcs[a].from < arcs[b].from; });
  for (std::size_t i = 0; i < order.size(); ++i) place[order[i]] = i;
  Residual r;
  r.row.assign(g.n + 1, 0);
  for (const Arc& a : arcs) ++r.row[static_cast<std::size_t>(a.from) + 1];
  for (std::uint32_t v = 0; v < g.n; ++v) r.row[v + 1] += r.row[v];
  for (std::size_t i : order) {
    r.head.push_back(arcs[i].to);
    r.cap.push_back(arcs[i].cap);
    r.rev.push_back(static_cast<std::int32_t>(place[static_cast<std::size_t>(arcs[i].pair)]));
  }
  return r;
}

std::string check_flow(const Graph& g, const Residual& r, const std::vector<std::int32_t>& cap,
                       const std::vector<std::int32_t>& excess) {
  const std::size_t t = g.n - 1;
  for (std::size_t e = 0; e < cap.size(); ++e) {
    if (cap[e] < 0) return "arc " + std::to_string(e) + " has capacity " + std::to_string(cap[e]) + " left: a push overdrew it";
    if (cap[e] + cap[static_cast<std::size_t>(r.rev[e])] != r.cap[e] + r.cap[static_cast<std::size_t>(r.rev[e])])
      return "arc " + std::to_string(e) + " and its reverse do not sum to their capacity: a push was torn";
  }
  for (std::size_t v = 1; v < t; ++v)
    if (excess[v] != 0) return "vertex " + std::to_string(v) + " keeps an excess of " + std::to_string(excess[v]) + ": flow is not conserved";
  // Edmonds-Karp on the host: shortest augmenting paths over the residual arcs.
  std::vector<std::int32_t> c = r.cap;
  std::int64_t want = 0;
  for (;;) {
    std::vector<std::int32_t> via(g.n, -1);
    std::vector<std::size_t> queue = {0};
    for (std::size_t q = 0; q < queue.size() && via[t] < 0; ++q)
      for (std::uint32_t e = r.row[queue[q]]; e < r.row[queue[q] + 1]; ++e) {
        const auto w = static_cast<std::size_t>(r.head[e]);
        if (c[e] > 0 && w != 0 && via[w] < 0) {
          via[w] = static_cast<std::int32_t>(e);
          queue.push_back(w);
        }
      }
    if (t == 0 || via[t] < 0) break;
    std::int32_t d = std::numeric_limits<std::int32_t>::max();
    for (std::size_t v = t; v != 0; v = static_cast<std::size_t>(r.head[static_cast<std::size_t>(r.rev[static_cast<std::size_t>(via[v])])]))
      d = std::min(d, c[static_cast<std::size_t>(via[v])]);
    for (std::size_t v = t; v != 0; v = static_cast<std::size_t>(r.head[static_cast<std::size_t>(r.rev[static_cast<std::size_t>(via[v])])])) {
      c[static_cast<std::size_t>(via[v])] -= d;
      c[static_cast<std::size_t>(r.rev[static_cast<std::size_t>(via[v])])] += d;
    }
    want += d;
  }
  if (excess[t] != want)
    return "the flow into the sink is " + std::to_string(excess[t]) + ", not the maximum " + std::to_string(want);
  return "";
}

}  // namespace irr::workloads::locks
