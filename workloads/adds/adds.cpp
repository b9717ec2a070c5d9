// SPDX-License-Identifier: Apache-2.0
#include "workloads/adds/adds.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>

#include "sim/error.h"
#include "workloads/runner.h"

namespace irr::workloads::adds {
namespace {

constexpr std::uint32_t kBuckets = 32;
constexpr std::uint32_t kMaxAssign = 1024;  // adds.cu MAX_ASSIGN
constexpr std::uint64_t kMaxBlocks = 4096;   // adds.cu MAX_BLOCKS
constexpr std::uint32_t kStats = 8;
// ADDS's tuning where the dissertation gives no number (docs/workloads.md "ADDS"): the utilisation
// band (edges in flight per worker thread) that holds the CDB count and delta; the tail bucket's
// share of an epoch's pushes that means delta clips (65%, §4.6) and the pushes an epoch needs
// before that share counts; how long an idle worker warp sleeps between looks at its assignment
// (the spinning of 59 workers' warps starves the manager of issue slots; measured in
// docs/results/delegate.md).
constexpr float kUtilLow = 0.5f, kUtilHigh = 2.0f, kClipShare = 0.65f;
constexpr std::uint32_t kClipMin = 256, kBackoffNs = 10000;

double average(const std::vector<std::uint32_t>& v) {
  double s = 0;
  for (std::uint32_t x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double average_degree(const Graph& g) { return g.n ? static_cast<double>(g.edges()) / g.n : 0; }

// Vertices a warp takes at least: 32 / degree, a power of two, so that each lane has an edge (§4.3).
std::uint32_t grain_min(const Graph& g) {
  const double degree = std::max(1.0, average_degree(g));
  return static_cast<std::uint32_t>(std::clamp(std::ceil(std::log2(32.0 / degree)), 0.0, 5.0));
}

// ADDS: one launch, the manager block and as many workers as the device holds beside it.
Result run_adds(Device& d, const Graph& g, std::uint32_t src, const AddsOptions& o) {
  Runner run(d, "adds.ptx");
  const std::uint64_t blocks = run.resident("adds_sssp");
  if (blocks < 2) throw Error("sssp/adds: the device holds " + std::to_string(blocks) + " block of adds_sssp at once; "
                              "ADDS needs its manager and at least one worker resident together");
  if (o.block_log2 < 8 || o.block_log2 > 20)
    throw Error("sssp/adds: data blocks of 2^" + std::to_string(o.block_log2) + " ids (2^8, one segment, to 2^20)", Error::Kind::usage);
  const auto workers = static_cast<std::uint32_t>(blocks - 1);
  // A bucket holds every id pushed and not yet done, plus what its assigned work has not read:
  // the edges bound the first (each lowering pushes once), two 1K assignments a worker the second.
  // Its virtual blocks cover that and two ahead; the pool, three blocks a bucket and that once.
  const std::uint64_t slack = workers * 2ull * kMaxAssign, block = 1ull << o.block_log2;
  const std::uint64_t live = (g.edges() + 1 + slack + block - 1) / block;
  std::uint32_t nvb_log2 = 1;
  while ((1ull << nvb_log2) < live + 2) ++nvb_log2;
  const std::uint64_t pool_blocks = o.pool_blocks ? o.pool_blocks : 3 * kBuckets + live;
  if (nvb_log2 > 13 || o.block_log2 + nvb_log2 > 31 || pool_blocks > kMaxBlocks)
    throw Error("sssp/adds: " + std::to_string(g.edges()) + " edges need " + std::to_string(pool_blocks) + " data blocks of 2^" +
                    std::to_string(o.block_log2) + " ids (at most " + std::to_string(kMaxBlocks) + ", 2^13 a bucket)",
                Error::Kind::usage);
  DeviceGraph dg(d, g);
  const std::uint64_t dist = d.malloc(g.n * 4ull);
  d.memset(dist, 0xff, g.n * 4ull);
  run.put<std::uint32_t>(dist + src * 4ull, 0);
  // Metadata (adds.cu buckets()): resv, DWC, statistics, bk_ptr, RDCs, WFCs.
  const std::uint64_t bk = 3 * kBuckets, rdc = bk + (std::uint64_t{kBuckets} << nvb_log2), wfc = rdc + pool_blocks;
  const std::uint64_t meta_words = wfc + (pool_blocks << (o.block_log2 - 8));
  const std::uint64_t pool = d.malloc((pool_blocks << o.block_log2) * 4), meta = d.malloc(meta_words * 4), head = d.malloc(8),
                      af = d.malloc(workers * 8ull);
  d.memset(meta, 0, meta_words * 4);
  d.memset(af, 0, workers * 8ull);
  // The source in bucket 0: its first virtual block mapped to data block 0, reserved, written, counted.
  run.put<std::uint32_t>(pool, src);
  run.put<std::uint32_t>(meta, 1);               // resv[0]
  run.put<std::uint32_t>(meta + bk * 4, 1);      // bk_ptr[0][0]: virtual block 0, data block 0
  run.put<std::uint32_t>(meta + wfc * 4, 1);     // WFC of data block 0's first segment
  const std::uint32_t shift = adds_initial_shift(g);
  run.put<std::uint64_t>(head, std::uint64_t{shift} << 40);
  const double degree = std::max(1.0, average_degree(g));
  run.launch("adds_sssp", blocks * kBlock,
             Args() << dg.row << dg.col << dg.weight << dist << pool << meta << head << af << o.block_log2 << nvb_log2
                    << static_cast<std::uint32_t>(pool_blocks) << static_cast<std::uint32_t>(slack) << shift << workers
                    << grain_min(g) << static_cast<float>(degree) << kUtilLow << kUtilHigh << kClipShare << kClipMin
                    << (o.spin ? 0u : kBackoffNs));
  const auto stats = run.download<std::uint32_t>(meta + 2 * kBuckets * 4, kStats);
  if (stats[0] & 1) throw Error("sssp/adds: a bucket wrapped onto ids not yet done");
  if (stats[0] & 2) throw Error("sssp/adds: the pool's " + std::to_string(pool_blocks) + " data blocks ran out");
  std::uint64_t pushes = 0;
  for (std::uint32_t r : run.download<std::uint32_t>(meta, kBuckets)) pushes += r;
  run.r.counters = {{"vertices_processed", stats[1]}, {"pushes", pushes}, {"delta_changes", stats[3]},
                    {"initial_delta", std::uint64_t{1} << shift}, {"final_delta", std::uint64_t{1} << stats[4]},
                    {"workers", workers}, {"data_blocks", pool_blocks}, {"blocks_mapped", stats[5] + 1},
                    {"blocks_freed", stats[6]}};
  run.r.values = as_values(run.download<std::uint32_t>(dist, g.n));
  return run.r;
}

// Near-far's buffers: a near list holds the lowerings of one step, the far pile those of every
// step since the last split (duplicates kept); a list that outgrows its buffer fails the run.
struct NearFar {
  std::uint64_t delta, near_cap, far_cap, dist, mark;
  NearFar(Device& d, Runner& run, const Graph& g, std::uint32_t src)
      : delta(nearfar_delta(g)), near_cap(2 * (g.edges() + 1)), far_cap(4 * (g.edges() + 1)),
        dist(d.malloc(g.n * 4ull)), mark(d.malloc(g.n * 4ull)) {
    d.memset(dist, 0xff, g.n * 4ull);
    d.memset(mark, 0, g.n * 4ull);
    run.put<std::uint32_t>(dist + src * 4ull, 0);
  }
  static void overflowed() { throw Error("sssp/nearfar: a near list or far pile outgrew its buffer"); }
};

// NF-OPT: one persistent launch, a software global barrier between steps (adds.cu nf_persistent).
Result run_nearfar(Device& d, const Graph& g, std::uint32_t src) {
  Runner run(d, "adds.ptx");
  DeviceGraph dg(d, g);
  NearFar nf(d, run, g, src);
  const std::uint64_t blocks = run.resident("nf_persistent");
  std::uint64_t near[2], far[3];
  for (auto& p : near) p = d.malloc(nf.near_cap * 4);
  for (auto& p : far) p = d.malloc(nf.far_cap * 4);
  const std::uint64_t ctl = d.malloc(16 * 4);
  d.memset(ctl, 0, 16 * 4);
  run.put<std::uint32_t>(ctl, 1);  // the near list: the source
  run.put<std::uint32_t>(near[0], src);
  run.launch("nf_persistent", blocks * kBlock,
             Args() << dg.row << dg.col << dg.weight << nf.dist << near[0] << near[1] << far[0] << far[1] << far[2] << nf.mark
                    << ctl << static_cast<std::uint32_t>(std::min<std::uint64_t>(nf.delta, kInf))
                    << static_cast<std::uint32_t>(nf.near_cap) << static_cast<std::uint32_t>(nf.far_cap) << grain_min(g));
  const auto c = run.download<std::uint32_t>(ctl, 16);
  if (c[9]) NearFar::overflowed();
  run.r.counters = {{"vertices_processed", c[8]}, {"delta", nf.delta}, {"steps", c[10]}, {"splits", c[11]}};
  run.r.values = as_values(run.download<std::uint32_t>(nf.dist, g.n));
  return run.r;
}

// The same with a launch a step (the host reads the counts between launches), as near-far ran
// before NF-OPT's single kernel.
Result run_nearfar_host(Device& d, const Graph& g, std::uint32_t src) {
  Runner run(d, "adds.ptx");
  DeviceGraph dg(d, g);
  NearFar nf(d, run, g, src);
  const std::uint64_t stats = d.malloc(kStats * 4);
  d.memset(stats, 0, kStats * 4);
  std::uint64_t near[2] = {d.malloc(nf.near_cap * 4), d.malloc(nf.near_cap * 4)}, far[2] = {d.malloc(nf.far_cap * 4), d.malloc(nf.far_cap * 4)};
  const std::uint64_t near_count = d.malloc(4);
  std::uint64_t far_count[2] = {d.malloc(4), d.malloc(4)};
  run.put<std::uint32_t>(near[0], src);
  run.put<std::uint32_t>(far_count[0], 0);
  const auto with_caps = [&](Args a) { return a << static_cast<std::uint32_t>(nf.near_cap) << static_cast<std::uint32_t>(nf.far_cap) << stats; };
  const std::uint32_t grain = grain_min(g);
  std::uint32_t n_near = 1, n_far = 0, phase = 0;
  std::uint64_t lo = 0, split = nf.delta, steps = 0;
  const auto clamp32 = [](std::uint64_t x) { return static_cast<std::uint32_t>(std::min<std::uint64_t>(x, kInf)); };
  const auto overflow = [&] {
    if (run.get<std::uint32_t>(stats)) NearFar::overflowed();
  };
  for (;;) {
    while (n_near) {
      run.put<std::uint32_t>(near_count, 0);
      run.launch("nf_relax", ((n_near + (1u << grain) - 1) >> grain) * 32ull,
                 with_caps(Args() << dg.row << dg.col << dg.weight << nf.dist << near[0] << n_near << clamp32(split) << near[1]
                                  << near_count << far[0] << far_count[0]) << grain);
      ++steps;
      overflow();
      n_near = run.get<std::uint32_t>(near_count);
      n_far = run.get<std::uint32_t>(far_count[0]);
      std::swap(near[0], near[1]);
    }
    if (!n_far) break;
    lo = split;
    split += nf.delta;
    ++phase;
    ++steps;
    run.put<std::uint32_t>(near_count, 0);
    run.put<std::uint32_t>(far_count[1], 0);
    run.launch("nf_split", n_far, with_caps(Args() << far[0] << n_far << nf.dist << clamp32(lo) << clamp32(split) << phase
                                                   << nf.mark << near[0] << near_count << far[1] << far_count[1]));
    overflow();
    n_near = run.get<std::uint32_t>(near_count);
    n_far = run.get<std::uint32_t>(far_count[1]);
    std::swap(far[0], far[1]);
    std::swap(far_count[0], far_count[1]);
  }
  const auto s = run.download<std::uint32_t>(stats, kStats);
  run.r.counters = {{"vertices_processed", s[1]}, {"delta", nf.delta}, {"steps", steps}, {"splits", phase}};
  run.r.values = as_values(run.download<std::uint32_t>(nf.dist, g.n));
  return run.r;
}

}  // namespace

Result adds_sssp(Device& d, const Graph& g, std::uint32_t src, const AddsOptions& o) {
  check_source(g, src);
  return run_adds(d, g, src, o);
}

bool sssp_variant(const std::string& variant) {
  return variant == "adds" || variant == "adds_spin" || variant == "nearfar" || variant == "nearfar_host";
}

std::vector<Variant> sssp_variants() {
  return {{"adds", "ADDS: a manager block hands out 32 delta buckets (concurrent FIFOs) to worker blocks, delta and the "
                   "concurrent dequeue buckets adapted as it runs (seed 001 chapter 5; one launch); idle worker warps "
                   "sleep 10 us between looks at their assignment (nanosleep)"},
          {"adds_spin", "the same with idle worker warps spinning (no nanosleep)"},
          {"nearfar", "near-far as the chapter's NF-OPT baseline: steps over the near list, the far pile split when it "
                      "empties, delta = 32 w / d, one persistent launch with a software global barrier between steps"},
          {"nearfar_host", "the same with a kernel launch a step, the host reading the lists' counts between them"}};
}

Result sssp(Device& d, const Graph& g, std::uint32_t src, const std::string& variant) {
  check_source(g, src);
  if (variant == "nearfar") return run_nearfar(d, g, src);
  if (variant == "nearfar_host") return run_nearfar_host(d, g, src);
  AddsOptions o;
  o.spin = variant == "adds_spin";
  return run_adds(d, g, src, o);
}

std::uint64_t nearfar_delta(const Graph& g) {
  const double degree = average_degree(g);
  if (degree <= 0) return 1;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::llround(32 * average(g.weight) / degree)));
}

std::uint32_t adds_initial_shift(const Graph& g) {
  return static_cast<std::uint32_t>(std::clamp(std::round(std::log2(static_cast<double>(nearfar_delta(g)))), 0.0, 31.0));
}

std::vector<Step> bucketed_trace(const Graph& g, std::uint32_t source, std::uint64_t delta) {
  constexpr std::uint64_t kUnreached = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> dist(g.n, kUnreached);
  dist[source] = 0;
  // Per bucket: the round being processed (sorted by id when it starts) and the next round.
  std::map<std::uint64_t, std::pair<std::deque<std::uint32_t>, std::vector<std::uint32_t>>> buckets;
  buckets[0].second.push_back(source);
  std::vector<Step> steps;
  while (!buckets.empty()) {
    auto it = buckets.begin();
    auto& [round, next] = it->second;
    if (round.empty()) {
      if (next.empty()) {
        buckets.erase(it);
        continue;
      }
      std::sort(next.begin(), next.end());
      round.assign(next.begin(), next.end());
      next.clear();
    }
    const std::uint32_t v = round.front();
    round.pop_front();
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
      const std::uint64_t nd = dist[v] + g.weight[e];
      if (nd < dist[g.col[e]]) {
        dist[g.col[e]] = nd;
        buckets[nd / delta].second.push_back(g.col[e]);
      }
    }
    Step s{v, dist, {}};
    for (const auto& [b, lists] : buckets) {
      s.worklist.insert(s.worklist.end(), lists.first.begin(), lists.first.end());
      s.worklist.insert(s.worklist.end(), lists.second.begin(), lists.second.end());
    }
    steps.push_back(std::move(s));
  }
  return steps;
}

}  // namespace irr::workloads::adds
