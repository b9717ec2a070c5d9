// SPDX-License-Identifier: Apache-2.0
#include "workloads/dmr/dmr.h"

#include "sim/error.h"
#include "workloads/runner.h"

namespace irr::workloads::dmr {
namespace {

constexpr std::uint32_t kSlots = 32;  // dmr.cuh's DMR_SLOTS
constexpr std::uint32_t kMaxRounds = 100000;

// dmr.cuh's DmrMesh as the kernels receive it (by value).
struct Mesh {
  std::uint64_t xy, v, nb, npoints, ntri, owner, cav, cavn, split, cx, cy, error;
  std::uint32_t pcap, tcap;
};
static_assert(sizeof(Mesh) == 104);

std::string refuses(const Graph& g) {
  if (!g.mesh.triangles()) return g.name + " is not a triangulation: dmr runs on a mesh (generator delaunay:n=N)";
  return "";
}

// The mesh as values: points, triangles, then x, y of each point, the triangles' points, their
// neighbours.
std::vector<double> serialise(const TriMesh& m) {
  std::vector<double> out{static_cast<double>(m.xy.size() / 2), static_cast<double>(m.triangles())};
  out.insert(out.end(), m.xy.begin(), m.xy.end());
  out.insert(out.end(), m.v.begin(), m.v.end());
  out.insert(out.end(), m.nb.begin(), m.nb.end());
  return out;
}

Result refine(Device& d, const Graph& g, std::uint32_t, const std::string& variant) {
  if (const std::string why = refuses(g); !why.empty()) throw Error(why, Error::Kind::usage);
  const bool hardware = variant == "hwwl", worklist = hardware || variant == "wl";
  if (!worklist && variant != "topology") throw Error("'" + variant + "' is not a variant of dmr (topology, wl, hwwl)", Error::Kind::usage);
  const TriMesh& in = g.mesh;
  const auto points = static_cast<std::uint32_t>(in.xy.size() / 2), triangles = in.triangles();
  // Refinement to 30 degrees adds a few points for each bad triangle; the run stops naming the
  // bound if it needs more.
  Mesh m{};
  m.pcap = 8 * points + 1024, m.tcap = 2 * m.pcap;
  const auto bytes = [&](std::uint64_t b) { return d.malloc(b); };
  m.xy = bytes(16ull * m.pcap), m.v = bytes(12ull * m.tcap), m.nb = bytes(12ull * m.tcap), m.npoints = bytes(4), m.ntri = bytes(4);
  m.owner = bytes(8ull * m.tcap), m.cav = bytes(4ull * kSlots * m.tcap), m.cavn = bytes(4ull * m.tcap), m.split = bytes(4ull * m.tcap);
  m.cx = bytes(8ull * m.tcap), m.cy = bytes(8ull * m.tcap), m.error = bytes(4);
  d.memcpy_to_device(m.xy, in.xy.data(), in.xy.size() * 8);
  d.memcpy_to_device(m.v, in.v.data(), in.v.size() * 4);
  d.memcpy_to_device(m.nb, in.nb.data(), in.nb.size() * 4);
  d.memset(m.owner, 0, 8ull * m.tcap);
  Runner run(d, "dmr.ptx");
  run.put<std::uint32_t>(m.npoints, points);
  run.put<std::uint32_t>(m.ntri, triangles);
  run.put<std::uint32_t>(m.error, 0);

  const auto check_error = [&] {
    const auto e = run.get<std::uint32_t>(m.error);
    if (e & 1) throw Error(g.name + ": refinement needs more than " + std::to_string(m.pcap) + " points or " + std::to_string(m.tcap) + " triangles", Error::Kind::usage);
    if (e & 2) throw Error(g.name + ": a cavity of more than " + std::to_string(kSlots - 2) + " triangles (dmr.cuh's DMR_CAVITY)", Error::Kind::usage);
    if (e & 4) throw Error(g.name + ": a point location walk did not end (the mesh is not valid)", Error::Kind::usage);
  };
  std::uint32_t round = 0;
  const auto next_round = [&] {
    if (++round > kMaxRounds) throw Error(g.name + ": refinement did not end in " + std::to_string(kMaxRounds) + " rounds", Error::Kind::usage);
  };
  if (!worklist) {
    const std::uint64_t attempt = bytes(4ull * m.tcap), changed = bytes(4);
    d.memset(attempt, 0, 4ull * m.tcap);
    for (;;) {
      next_round();
      const auto now = run.get<std::uint32_t>(m.ntri);
      run.put<int>(changed, 0);
      run.launch("dmr_cavity_all", now, Args() << m << now << round << attempt << changed);
      check_error();
      if (!run.get<int>(changed)) break;
      run.launch("dmr_refine_all", now, Args() << m << now << round << attempt);
      check_error();
    }
  } else {
    // The cavity and refine launches alternate, each one's pushes the other's work.
    const std::uint64_t queued = bytes(4ull * m.tcap);
    d.memset(queued, 0, 4ull * m.tcap);
    Worklist wl(d, hardware, "dmr_refine_wl", m.tcap, "dmr/hwwl: DMR's rounds need hwwl.mode: double (a round's marks are checked by the next launch)");
    wl.round("dmr_seed_wl", Args() << m << triangles << queued, triangles);
    while (wl.more()) {
      next_round();
      wl.round("dmr_cavity_wl", Args() << m << round << queued);
      check_error();
      if (!wl.more()) break;
      wl.round("dmr_refine_wl", Args() << m << round << queued);
      check_error();
    }
    run.absorb(wl.run);
  }
  TriMesh out;
  const auto np = run.get<std::uint32_t>(m.npoints), nt = run.get<std::uint32_t>(m.ntri);
  out.xy = run.download<double>(m.xy, 2ull * np);
  out.v = run.download<std::uint32_t>(m.v, 3ull * nt);
  out.nb = run.download<std::uint32_t>(m.nb, 3ull * nt);
  run.r.values = serialise(out);
  run.r.counters = {{"rounds", round}, {"points_added", np - points}, {"triangles", nt}};
  return run.r;
}

// What is compared against: the input mesh (its points must stay where they are).
std::vector<double> reference(const Graph& g, std::uint32_t) { return serialise(g.mesh); }

std::string valid(const Graph&, const std::vector<double>& got, const std::vector<double>& want) {
  const auto header = [](const std::vector<double>& s, std::uint64_t& p, std::uint64_t& t) {
    if (s.size() < 2) return false;
    p = static_cast<std::uint64_t>(s[0]), t = static_cast<std::uint64_t>(s[1]);
    return s.size() == 2 + 2 * p + 6 * t;
  };
  std::uint64_t p = 0, t = 0, p0 = 0, t0 = 0;
  if (!header(got, p, t)) return "the result is not a serialised mesh (points, triangles, xy, points, neighbours)";
  if (!header(want, p0, t0) || p < p0) return "the refined mesh has fewer points (" + std::to_string(p) + ") than the input's " + std::to_string(p0);
  TriMesh m;
  m.xy.assign(got.begin() + 2, got.begin() + 2 + 2 * p);
  for (std::uint64_t i = 0; i < 3 * t; ++i) m.v.push_back(static_cast<std::uint32_t>(got[2 + 2 * p + i]));
  for (std::uint64_t i = 0; i < 3 * t; ++i) m.nb.push_back(static_cast<std::uint32_t>(got[2 + 2 * p + 3 * t + i]));
  for (std::uint64_t i = 0; i < 2 * p0; ++i)
    if (m.xy[i] != want[2 + i]) return "input point " + std::to_string(i / 2) + " moved";
  if (std::string why = m.invalid(); !why.empty()) return why;
  for (std::uint32_t k = 0; k < m.triangles(); ++k) {
    const double* a = &m.xy[2ull * m.v[3ull * k]];
    const double* b = &m.xy[2ull * m.v[3ull * k + 1]];
    const double* c = &m.xy[2ull * m.v[3ull * k + 2]];
    if (min_angle_cos(a, b, c) > kBadCos) return "triangle " + std::to_string(k) + " still has an angle below 30 degrees";
  }
  return "";
}

}  // namespace

Workload workload() {
  return {"dmr",
          "Delaunay mesh refinement (LonestarGPU's DMR) to a 30-degree minimum angle on a triangulation of the unit square (delaunay:n=N)",
          {{"topology", "every triangle each round: the bad ones mark their cavities, then those whose marks survived re-triangulate"},
           {"wl", "the same rounds over the worklist API (worklist.cuh) on the software worklist: bad triangles, a cavity's new bad triangles and the attempts that lost queued; a persistent grid"},
           {"hwwl", "the same kernels on the hardware worklist (timing mode, hwwl.mode: double)", "hwwl"}},
          false,
          refine,
          reference,
          valid,
          "a valid Delaunay triangulation of the square (counter-clockwise, mutual neighbours, area 1, empty circumcircles) keeping the input's points, no angle below 30 degrees",
          refuses,
          "delaunay:n=24,seed=1"};
}

}  // namespace irr::workloads::dmr
