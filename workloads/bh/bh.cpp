// SPDX-License-Identifier: Apache-2.0
#include "workloads/bh/bh.h"

#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <optional>

#include "sim/error.h"
#include "workloads/runner.h"

namespace irr::workloads::bh {
namespace {

// LonestarGPU's BH runs a given number of time steps of dt 0.025; two steps here, the second on
// a tree rebuilt from moved bodies (every step runs the same kernels). Opening angle 0.5 and
// softening 0.05 are in bh.cuh.
constexpr std::uint32_t kSteps = 2;
constexpr float kDt = 0.025f;
constexpr double kTheta2 = 0.25, kEps2 = 0.0025;
constexpr std::uint32_t kNone = 0xffffffffu;
constexpr std::uint32_t kMaxDepth = 48;  // bh.cuh's BH_MAX_DEPTH

// bh.cuh's BhTree as the kernels receive it (by value).
struct Tree {
  std::uint64_t x, y, z, mass, next, child, parent, count, start, first, half, sorted, ncells, error;
  std::uint32_t n, cap;
};
static_assert(sizeof(Tree) == 120);

std::string refuses(const Graph& g) {
  if (g.bodies.size() != 6ull * g.n) return g.name + " has no bodies: bh runs on a body set (generator plummer:n=N)";
  return "";
}

// The inverse of bh.cu's bh_ordered.
float from_ordered(int i) {
  const int bits = i >= 0 ? i : i ^ 0x7fffffff;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

Result barnes_hut(Device& d, const Graph& g, std::uint32_t, const std::string& variant) {
  if (const std::string why = refuses(g); !why.empty()) throw Error(why, Error::Kind::usage);
  const bool hardware = variant == "hwwl", worklist = hardware || variant == "wl";
  if (!worklist && variant != "topology") throw Error("'" + variant + "' is not a variant of bh (topology, wl, hwwl)", Error::Kind::usage);
  const std::uint32_t n = g.n, cap = 4 * n + 64, root = n;  // cells: LonestarGPU allots ~2n; chains of close pairs need more
  const auto floats = [&](std::size_t count) { return d.malloc(count * 4); };
  Tree t{};
  t.x = floats(n + cap), t.y = floats(n + cap), t.z = floats(n + cap), t.mass = floats(n + cap), t.next = floats(n + cap);
  t.child = floats(8ull * cap), t.parent = floats(cap), t.count = floats(cap), t.start = floats(cap), t.first = floats(cap);
  t.half = floats(cap), t.sorted = floats(n), t.ncells = floats(1), t.error = floats(1), t.n = n, t.cap = cap;
  const std::uint64_t vx = floats(n), vy = floats(n), vz = floats(n), ax = floats(n), ay = floats(n), az = floats(n), box = floats(6),
                      changed = floats(1), pending = floats(cap);
  {
    std::array<std::vector<float>, 6> column;
    for (std::uint32_t b = 0; b < n; ++b)
      for (unsigned k = 0; k < 6; ++k) column[k].push_back(g.bodies[6ull * b + k]);
    const std::uint64_t to[6] = {t.x, t.y, t.z, vx, vy, vz};
    for (unsigned k = 0; k < 6; ++k) d.memcpy_to_device(to[k], column[k].data(), n * 4ull);
    const std::vector<float> mass(n, 1.0f / static_cast<float>(n));
    d.memcpy_to_device(t.mass, mass.data(), n * 4ull);
  }

  Runner run(d, "bh.ptx");
  std::optional<Worklist> wl;  // the worklist versions (wl.cu), on the software worklist or the HWWL
  if (worklist) wl.emplace(d, hardware, "bh_force_wl", n + cap);
  std::uint32_t cells = 0;
  std::uint64_t sweeps = 0;
  for (std::uint32_t step = 0; step < kSteps; ++step) {
    const int start_box[6] = {INT_MAX, INT_MAX, INT_MAX, INT_MIN, INT_MIN, INT_MIN};
    d.memcpy_to_device(box, start_box, sizeof start_box);
    run.launch("bh_bbox", n, Args() << t.x << t.y << t.z << n << box);
    const auto b = run.download<int>(box, 6);
    float lo[3], hi[3];
    for (unsigned k = 0; k < 3; ++k) lo[k] = from_ordered(b[k]), hi[k] = from_ordered(b[3 + k]);
    const float cx = (lo[0] + hi[0]) / 2, cy = (lo[1] + hi[1]) / 2, cz = (lo[2] + hi[2]) / 2;
    const float h = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}) / 2 * 1.0001f;  // every body strictly inside
    d.memset(t.child, 0xff, 32ull * cap);
    run.put<std::uint32_t>(t.ncells, 1);
    run.put<std::uint32_t>(t.error, 0);
    run.put<float>(t.mass + 4ull * root, -1.f);
    run.put<float>(t.half, h);
    const Args geometry = Args() << t << cx << cy << cz << h;
    if (worklist) {
      wl->seed_all(n);
      wl->drain("bh_build_wl", geometry);
    } else {
      run.launch("bh_build", n, geometry);
    }
    if (const auto error = run.get<std::uint32_t>(t.error))
      throw Error(g.name + ": " + (error & 1 ? "the octree needs more than " + std::to_string(cap) + " cells" : "bodies closer than the octree's " + std::to_string(kMaxDepth) + " levels part (coincident bodies?)"), Error::Kind::usage);
    cells = run.get<std::uint32_t>(t.ncells);
    if (worklist) {
      wl->seed("bh_seed_summary", cells, Args() << t << pending);
      wl->drain("bh_summarise_wl", Args() << t << pending);
    } else {
      while (run.get<float>(t.mass + 4ull * root) < 0) run.launch("bh_summarise_all", cells, Args() << t), ++sweeps;
    }
    d.memset(t.start, 0xff, 4ull * cap);
    d.memset(t.first, 0xff, 4ull * cap);
    run.put<std::uint32_t>(t.start, 0);
    run.put<std::uint32_t>(t.next + 4ull * root, kNone);
    if (worklist) {
      wl->seed_one(root);
      wl->drain("bh_sort_wl", Args() << t);
      wl->seed("bh_seed_sorted", n, Args() << t);
      wl->drain("bh_force_wl", Args() << t << ax << ay << az);
    } else {
      for (int more = 1; more; more = run.get<int>(changed)) {
        run.put<int>(changed, 0);
        run.launch("bh_sort_all", cells, Args() << t << changed);
      }
      run.launch("bh_force_all", n, Args() << t << ax << ay << az);
    }
    if (run.get<std::uint32_t>(t.error) & 4)  // bh.cuh's BH_ERR_WALK
      throw Error(g.name + ": a body's tree walk visited more nodes than the tree has (the walk's threading is broken)", Error::Kind::simulation);
    if (step + 1 < kSteps) run.launch("bh_integrate", n, Args() << t.x << t.y << t.z << vx << vy << vz << ax << ay << az << n << kDt);
  }
  if (wl) run.absorb(wl->run);
  const std::uint64_t from[6] = {t.x, t.y, t.z, ax, ay, az};
  run.r.values.assign(6ull * n, 0);
  for (unsigned k = 0; k < 6; ++k) {
    const auto v = run.download<float>(from[k], n);
    for (std::uint32_t b = 0; b < n; ++b) run.r.values[6ull * b + k] = v[b];
  }
  run.r.counters = {{"steps", kSteps}, {"cells", cells}, {"topology_sweeps", sweeps}};
  return run.r;
}

// The same method on the host in double precision: each step an octree over the box, summarised,
// forces by the same opening test, then the same kick and drift.
struct Octree {
  struct Cell {
    double cx, cy, cz, half, m = 0, x = 0, y = 0, z = 0;
    std::array<std::int64_t, 8> child;  // -1 empty, >= 0 a body, <= -2 cell -(k + 2)
  };
  std::vector<Cell> cells;
  const std::vector<double>& p;  // x, y, z of each body, 3 a body
  Octree(const std::vector<double>& pos, std::uint32_t n) : p(pos) {
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (std::uint32_t b = 0; b < n; ++b)
      for (unsigned k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[3 * b + k]), hi[k] = std::max(hi[k], p[3 * b + k]);
    add((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2, std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]}) / 2 * 1.0001);
    for (std::uint32_t b = 0; b < n; ++b) insert(0, b);
    summarise(0);
  }
  std::size_t add(double cx, double cy, double cz, double half) {
    cells.push_back({cx, cy, cz, half, 0, 0, 0, 0, {-1, -1, -1, -1, -1, -1, -1, -1}});
    return cells.size() - 1;
  }
  unsigned octant(const Cell& c, std::uint32_t b) const {
    return (p[3 * b] > c.cx ? 1u : 0u) | (p[3 * b + 1] > c.cy ? 2u : 0u) | (p[3 * b + 2] > c.cz ? 4u : 0u);
  }
  std::size_t sub(std::size_t c, unsigned o) {
    const double h = cells[c].half / 2;
    return add(cells[c].cx + (o & 1 ? h : -h), cells[c].cy + (o & 2 ? h : -h), cells[c].cz + (o & 4 ? h : -h), h);
  }
  void insert(std::size_t c, std::uint32_t b) {
    for (std::uint32_t depth = 0;; ++depth) {
      if (depth > 4 * kMaxDepth) throw Error("bh reference: bodies coincide", Error::Kind::usage);
      const unsigned o = octant(cells[c], b);
      const std::int64_t k = cells[c].child[o];
      if (k == -1) {
        cells[c].child[o] = b;
        return;
      }
      if (k <= -2) {
        c = static_cast<std::size_t>(-k - 2);
        continue;
      }
      const std::size_t s = sub(c, o);
      cells[c].child[o] = -static_cast<std::int64_t>(s) - 2;
      cells[s].child[octant(cells[s], static_cast<std::uint32_t>(k))] = k;
      c = s;
    }
  }
  void summarise(std::size_t c) {
    double m = 0, x = 0, y = 0, z = 0;
    for (std::int64_t k : cells[c].child) {
      if (k == -1) continue;
      double km, kx, ky, kz;
      if (k >= 0) {
        km = 1.0 / static_cast<double>(p.size() / 3), kx = p[3 * k], ky = p[3 * k + 1], kz = p[3 * k + 2];
      } else {
        summarise(static_cast<std::size_t>(-k - 2));
        const Cell& s = cells[static_cast<std::size_t>(-k - 2)];
        km = s.m, kx = s.x, ky = s.y, kz = s.z;
      }
      m += km, x += km * kx, y += km * ky, z += km * kz;
    }
    cells[c].m = m, cells[c].x = x / m, cells[c].y = y / m, cells[c].z = z / m;
  }
  void force(std::uint32_t b, double* a) const {
    const double mb = 1.0 / static_cast<double>(p.size() / 3);
    std::vector<std::int64_t> stack{-2};
    a[0] = a[1] = a[2] = 0;
    while (!stack.empty()) {
      const std::int64_t k = stack.back();
      stack.pop_back();
      double m, x, y, z;
      if (k >= 0) {
        m = mb, x = p[3 * k], y = p[3 * k + 1], z = p[3 * k + 2];
      } else {
        const Cell& c = cells[static_cast<std::size_t>(-k - 2)];
        m = c.m, x = c.x, y = c.y, z = c.z;
      }
      const double dx = x - p[3 * b], dy = y - p[3 * b + 1], dz = z - p[3 * b + 2], d2 = dx * dx + dy * dy + dz * dz;
      if (k < 0) {
        const double side = 2 * cells[static_cast<std::size_t>(-k - 2)].half;
        if (side * side >= kTheta2 * d2) {
          for (std::int64_t c : cells[static_cast<std::size_t>(-k - 2)].child)
            if (c != -1) stack.push_back(c);
          continue;
        }
      }
      const double r2 = d2 + kEps2, s = m / (r2 * std::sqrt(r2));
      a[0] += dx * s, a[1] += dy * s, a[2] += dz * s;
    }
  }
};

std::vector<double> reference(const Graph& g, std::uint32_t) {
  const std::uint32_t n = g.n;
  std::vector<double> pos(3ull * n), vel(3ull * n), acc(3ull * n);
  for (std::uint32_t b = 0; b < n; ++b)
    for (unsigned k = 0; k < 3; ++k) pos[3ull * b + k] = g.bodies[6ull * b + k], vel[3ull * b + k] = g.bodies[6ull * b + 3 + k];
  for (std::uint32_t step = 0; step < kSteps; ++step) {
    const Octree tree(pos, n);
    for (std::uint32_t b = 0; b < n; ++b) tree.force(b, &acc[3ull * b]);
    if (step + 1 == kSteps) break;
    for (std::size_t i = 0; i < pos.size(); ++i) vel[i] += acc[i] * kDt, pos[i] += vel[i] * kDt;
  }
  std::vector<double> want(6ull * n);
  for (std::uint32_t b = 0; b < n; ++b)
    for (unsigned k = 0; k < 3; ++k) want[6ull * b + k] = pos[3ull * b + k], want[6ull * b + 3 + k] = acc[3ull * b + k];
  return want;
}

// Positions to single precision's rounding over the steps; accelerations within 1 % of the body's
// own plus 0.5 % of the bodies' RMS (a cell on the opening test's edge may be opened on one side
// and not on the other: Barnes-Hut's own error, not the kernels').
std::string close(const Graph& g, const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != 6ull * g.n || want.size() != got.size())
    return "got " + std::to_string(got.size()) + " values, expected " + std::to_string(6ull * g.n) + " (x, y, z, ax, ay, az a body)";
  double sum = 0;
  for (std::uint32_t b = 0; b < g.n; ++b)
    for (unsigned k = 3; k < 6; ++k) sum += want[6ull * b + k] * want[6ull * b + k];
  const double rms = std::sqrt(sum / g.n);
  const char* what[6] = {"x", "y", "z", "ax", "ay", "az"};
  for (std::uint32_t b = 0; b < g.n; ++b) {
    const double* w = &want[6ull * b];
    const double a = std::sqrt(w[3] * w[3] + w[4] * w[4] + w[5] * w[5]);
    for (unsigned k = 0; k < 6; ++k) {
      const double err = std::fabs(got[6ull * b + k] - w[k]);
      const double bound = k < 3 ? 1e-5 * (1 + std::fabs(w[k])) : 0.01 * a + 0.005 * rms;
      if (!(err <= bound))
        return "body " + std::to_string(b) + ": " + what[k] + " " + std::to_string(got[6ull * b + k]) + ", expected " + std::to_string(w[k]) +
               " (off by " + std::to_string(err) + ", more than " + std::to_string(bound) + ")";
    }
  }
  return "";
}

}  // namespace

Workload workload() {
  return {"bh",
          "Barnes-Hut N-body (LonestarGPU's BH): two time steps of octree build, summary, sort, force and integration on bodies (plummer:n=N)",
          {{"topology", "every body or cell each launch: bodies retry their insertion in place, sweeps over the cells until the root is summarised and every cell sorted"},
           {"wl", "the build, summary, sort and force over the worklist API (worklist.cuh) on the software worklist: a body that met a lock goes back in the worklist, a cell enters it when its children are done (summary) or placed (sort); a persistent grid"},
           {"hwwl", "the same kernels on the hardware worklist (timing mode)", "hwwl"}},
          false,
          barnes_hut,
          reference,
          close,
          "positions within 1e-5 relative, accelerations within 1 % of the body's plus 0.5 % of the RMS, against a double-precision Barnes-Hut",
          refuses,
          "plummer:n=64,seed=1"};
}

}  // namespace irr::workloads::bh
