// SPDX-License-Identifier: Apache-2.0
// Graph readers and generators, and every workload variant against the CPU reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "testbenches/common/testing.h"
#include "workloads/graphmem/graphmem.h"
#include "workloads/locks/locks.h"
#include "workloads/wavefront/wavefront.h"
#include "workloads/workloads.h"

using namespace irr;
using namespace irr::workloads;

namespace {
const std::string kGraphs = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/";
const double kInf = std::numeric_limits<double>::infinity();

std::string error_of(const std::string& text, const std::string& ext) {
  irr::testing::TempDir d;
  try {
    load_graph(d.write("bad" + ext, text));
  } catch (const Error& e) {
    EXPECT_EQ(e.exit_code(), 2);
    const std::string w = e.what();
    return w.substr(w.find("bad" + ext));
  }
  return "";
}
}  // namespace

TEST(Graphs, MatrixMarketSymmetricWithValues) {
  Graph g = read_mtx(kGraphs + "small.mtx");
  EXPECT_EQ(g.n, 7u);
  EXPECT_EQ(g.edges(), 14u);  // symmetric: both directions
  // Row 2 of the file is vertex 1: linked to 0 (weight 4), 2 (2), 4 (9).
  ASSERT_EQ(g.degree(1), 3u);
  EXPECT_EQ(g.col[g.row[1]], 0u);
  EXPECT_EQ(g.weight[g.row[1]], 4u);
}

TEST(Graphs, DimacsAndSnap) {
  Graph gr = read_dimacs(kGraphs + "small.gr");
  EXPECT_EQ(gr.n, 6u);
  EXPECT_EQ(gr.edges(), 9u);
  EXPECT_EQ(gr.weight[gr.row[0] + 2], 14u);  // a 1 6 14: vertex 0 -> 5
  Graph sn = load_graph(kGraphs + "small.txt");
  EXPECT_EQ(sn.n, 7u);
  EXPECT_EQ(sn.edges(), 7u);
  EXPECT_EQ(sn.degree(0), 2u);
}

TEST(Graphs, MalformedInputsNameTheirLine) {
  EXPECT_EQ(error_of("%%MatrixMarket matrix array real general\n2 2\n", ".mtx"), "bad.mtx:1: not a MatrixMarket coordinate matrix ('%%MatrixMarket matrix coordinate ...')");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n", ".mtx"), "bad.mtx:3: truncated: 1 of 2 entries");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 9\n", ".mtx"), "bad.mtx:3: entry (1, 9) outside the 3 x 3 matrix");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 x 4\n", ".mtx"), "bad.mtx:3: expected a column index, found 'x'");
  // A huge header claim is rejected before anything is allocated for it.
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate pattern general\n3 3 4000000000\n1 2\n", ".mtx"),
            "bad.mtx:2: the header claims 4000000000 edges; the rest of the file has 4 bytes");
  // ... also when the header is the last line (found by fuzzing: it allocated 13 GB first).
  EXPECT_EQ(error_of("c\np sp 11111111 1111111117", ".gr"), "bad.gr:2: the header claims 1111111117 edges; the rest of the file has 0 bytes");
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate pattern general\n4000000000 3 1\n1 2\n", ".mtx"),
            "bad.mtx:2: too many vertices (4000000000; at most 268435455)");
  EXPECT_EQ(error_of("p sp 3 1\na 1 4 2\n", ".gr"), "bad.gr:2: arc 1 -> 4 outside 1..3");
  // Found by fuzzing: a second header shrank the graph under arcs already read.
  EXPECT_EQ(error_of("p sp 64 2\na 3 64 5\np sp 6 1\n", ".gr"), "bad.gr:3: a second 'p sp' line");
  EXPECT_EQ(error_of("p sp 3 2\na 1 2 2\n", ".gr"), "bad.gr:2: the header says 2 arcs; the file has 1");
  EXPECT_EQ(error_of("a 1 2 3\n", ".gr"), "bad.gr:1: an arc before the 'p sp' line");
  EXPECT_EQ(error_of("0 1\n2\n", ".txt"), "bad.txt:2: expected '<from> <to>'");
  EXPECT_EQ(error_of("0 -1\n", ".txt"), "bad.txt:1: expected a vertex id, found '-1'");
  // Found by fuzzing: vertex 2^64 - 1 wrapped the bound check to 0 and left an edge to vertex
  // 2^32 - 1 in a 5-vertex CSR.
  EXPECT_EQ(error_of("4 18446744073709551615\n", ".txt"), "bad.txt:1: vertex id too large");
  // ... and so would 2^63 symmetric entries, doubled (found reading the code after it).
  EXPECT_EQ(error_of("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 9223372036854775808\n1 2\n", ".mtx"),
            "bad.mtx:2: too many entries (9223372036854775808; at most 2^32 - 1)");
}

TEST(Graphs, ReadersTakeALowerVertexBound) {
  // The fuzz targets' bound: the same checks as irrgpu's 2^28, at a size a fuzzer can afford.
  auto error_at = [](Graph (*read)(std::istream&, const std::string&, std::uint64_t), const std::string& text) {
    std::istringstream in(text);
    try {
      read(in, "g", 16);
    } catch (const irr::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_at(read_snap, "0 15\n"), "g:1: vertex id too large");
  EXPECT_EQ(error_at(read_snap, "0 14\n"), "no error");
  EXPECT_EQ(error_at(read_dimacs, "p sp 16 1\na 1 2 3\n"), "g:1: too many vertices (16; at most 15)");
  EXPECT_EQ(error_at(read_mtx, "%%MatrixMarket matrix coordinate pattern general\n15 15 1\n1 2\n"), "no error");
}

TEST(Graphs, EdgesAreSortedBySourceDestinationThenWeight) {
  // A hub, parallel edges with different weights, self loops, isolated vertices: the CSR is the
  // edges in the order of a sort by (source, destination, weight), every edge kept.
  std::mt19937 rng(7);
  std::vector<Edge> edges;
  for (int i = 0; i < 4000; ++i)
    edges.push_back({i % 3 ? static_cast<std::uint32_t>(rng() % 50) : 3u, static_cast<std::uint32_t>(rng() % 20),
                     static_cast<std::uint32_t>(rng() % 4)});
  std::vector<Edge> sorted = edges;
  std::sort(sorted.begin(), sorted.end(), [](const Edge& a, const Edge& b) {
    return std::tie(a.from, a.to, a.weight) < std::tie(b.from, b.to, b.weight);
  });
  const Graph g = from_edges(60, edges, "mixed");
  ASSERT_EQ(g.edges(), sorted.size());
  ASSERT_EQ(g.row.size(), 61u);
  for (std::uint32_t v = 0; v < g.n; ++v)
    for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
      ASSERT_EQ(sorted[e].from, v) << e;
      ASSERT_EQ(sorted[e].to, g.col[e]) << e;
      ASSERT_EQ(sorted[e].weight, g.weight[e]) << e;
    }
  EXPECT_EQ(g.degree(55), 0u);
  EXPECT_EQ(from_edges(3, {}, "none").row, (std::vector<std::uint32_t>{0, 0, 0, 0}));
}

TEST(Graphs, GeneratorsAreDeterministicWithTheirShapes) {
  auto same = [](const Graph& a, const Graph& b) { return a.row == b.row && a.col == b.col && a.weight == b.weight; };
  for (const char* spec : {"grid:rows=20,cols=30", "rmat:scale=10,edge_factor=8", "random:n=500,m=3000", "rgg:n=800,radius=0.08"}) {
    EXPECT_TRUE(same(load_graph(std::string(spec) + ",seed=4"), load_graph(std::string(spec) + ",seed=4"))) << spec;
  }
  EXPECT_FALSE(same(load_graph("random:n=500,m=3000,seed=1"), load_graph("random:n=500,m=3000,seed=2")));
  // Grid: a road-like mesh; corners have degree 2, the interior 4.
  Graph grid = load_graph("grid:rows=20,cols=30");
  EXPECT_EQ(grid.n, 600u);
  EXPECT_EQ(grid.degree(0), 2u);
  EXPECT_EQ(grid.degree(31), 4u);
  EXPECT_EQ(grid.edges(), 2u * (20 * 29 + 19 * 30));
  // R-MAT: a power law — the top 1 % of vertices hold a large share of the edges; many are isolated.
  Graph rmat = load_graph("rmat:scale=14,edge_factor=16");
  EXPECT_EQ(rmat.n, 1u << 14);
  EXPECT_EQ(rmat.edges(), 16u << 14);
  std::vector<std::uint32_t> deg(rmat.n);
  for (std::uint32_t v = 0; v < rmat.n; ++v) deg[v] = rmat.degree(v);
  std::sort(deg.rbegin(), deg.rend());
  std::uint64_t top = 0;
  for (std::uint32_t i = 0; i < rmat.n / 100; ++i) top += deg[i];
  EXPECT_GT(static_cast<double>(top) / static_cast<double>(rmat.edges()), 0.2);
  EXPECT_GT(std::count(deg.begin(), deg.end(), 0u), rmat.n / 10);
  // Random: degrees concentrate around m / n.
  Graph rnd = load_graph("random:n=1000,m=10000");
  std::uint32_t maxdeg = 0;
  for (std::uint32_t v = 0; v < rnd.n; ++v) maxdeg = std::max(maxdeg, rnd.degree(v));
  EXPECT_LT(maxdeg, 30u);
  // RGG: symmetric, mean degree near n * pi * r^2.
  Graph rgg = load_graph("rgg:n=2000,radius=0.05");
  const double mean = static_cast<double>(rgg.edges()) / rgg.n;
  EXPECT_NEAR(mean, 2000 * M_PI * 0.05 * 0.05, 4);
  // Random with a degree (LonestarGPU's r4-2e20): exactly that many edges out of every vertex.
  Graph r4 = load_graph("random:n=1000,degree=4");
  for (std::uint32_t v = 0; v < r4.n; ++v) ASSERT_EQ(r4.degree(v), 4u) << v;
  EXPECT_THROW(load_graph("random:n=10,m=40,degree=4"), Error);
  EXPECT_THROW(load_graph("random:n=10,degree=0"), Error);
  EXPECT_THROW(load_graph("random:n=10,degree=2.5"), Error);
  EXPECT_THROW(load_graph("rmat:edge_factor=4"), Error);   // scale is required
  EXPECT_THROW(load_graph("grid:rows=3,cols=3,colour=red"), Error);
}

namespace {
// Every variant of every workload on one graph, against the reference.
void check_all(const std::string& spec) {
  const Graph g = load_graph(spec);
  std::uint32_t source = 0;
  while (source + 1 < g.n && g.degree(source) == 0) ++source;
  for (const Workload& w : irr::workloads::workloads()) {
    if (!w.refuses(g).empty()) continue;  // sp runs on factor graphs only
    const auto want = w.reference(g, source);
    for (const Variant& v : w.variants) {
      if (!v.unit.empty()) continue;  // needs a unit on the timed GPU: testbenches/system/hwwl_gpu_test.cpp
      mem::BackingStore m;
      runtime::Device dev(m);
      const Result r = w.run(dev, g, source, v.name);
      EXPECT_EQ(w.check(g, r.values, want), "") << w.name << "/" << v.name << " on " << spec;
      EXPECT_GT(r.warp_instructions, 0u);
    }
  }
}
}  // namespace

TEST(Workloads, EveryVariantOnGeneratedGraphs) {
  for (const char* spec : {"rmat:scale=9,edge_factor=8,seed=2", "grid:rows=12,cols=17,seed=3", "random:n=400,m=2400,seed=5",
                           "rgg:n=300,radius=0.1,seed=7", "random:n=300,degree=4,seed=6", "sat:vars=60,ratio=3,seed=3"})
    check_all(spec);
}

// The sat: generator's factor graph: round(ratio x vars) clauses of k distinct variables, each
// edge both ways with the literal's sign as its weight; bad parameters say which.
TEST(Workloads, SatGeneratorMakesARandomKSatFactorGraph) {
  const Graph g = load_graph("sat:vars=50,ratio=4.26,k=4,seed=9");
  ASSERT_EQ(g.clauses, 213u);
  ASSERT_EQ(g.n, 263u);
  std::uint64_t negated = 0;
  for (std::uint32_t a = 0; a < g.clauses; ++a) {
    ASSERT_EQ(g.degree(a), 4u) << a;
    for (std::uint32_t e = g.row[a]; e < g.row[a + 1]; ++e) {
      ASSERT_GE(g.col[e], g.clauses);
      ASSERT_TRUE(e == g.row[a] || g.col[e - 1] < g.col[e]) << "clause " << a << " repeats a variable";
      ASSERT_TRUE(g.weight[e] == 1 || g.weight[e] == 2);
      negated += g.weight[e] == 2;
      const std::uint32_t v = g.col[e];
      bool back = false;
      for (std::uint32_t f = g.row[v]; f < g.row[v + 1]; ++f) back = back || (g.col[f] == a && g.weight[f] == g.weight[e]);
      ASSERT_TRUE(back) << "clause " << a << " and variable vertex " << v;
    }
  }
  EXPECT_NEAR(static_cast<double>(negated) / (4 * 213), 0.5, 0.06);
  EXPECT_EQ(load_graph("sat:vars=50,ratio=4.26,k=4,seed=9").col, g.col);
  EXPECT_EQ(load_graph("grid:rows=3,cols=3").clauses, 0u);
  for (const char* bad : {"sat:ratio=4", "sat:vars=2,k=3", "sat:vars=10,k=9", "sat:vars=10,k=2.5", "sat:vars=10,ratio=0", "sat:vars=10,depth=3"})
    EXPECT_THROW(load_graph(bad), Error) << bad;
}

// Survey propagation: refused on a graph that is not a formula, with the reason; on a formula past
// the clustering threshold (ratio 4.0 > 3.92) the surveys are not trivial, so it decimates before
// WalkSAT; the check evaluates the formula, so an assignment that breaks a clause fails it.
TEST(Workloads, SurveyPropagationDecimatesAndIsCheckedOnTheFormula) {
  const Workload& w = workload("sp");
  mem::BackingStore m;
  runtime::Device dev(m);
  const Graph grid = load_graph("grid:rows=3,cols=3");
  EXPECT_NE(w.refuses(grid).find("not a factor graph"), std::string::npos);
  EXPECT_THROW(w.run(dev, grid, 0, "topology"), Error);
  const Graph g = load_graph("sat:vars=100,ratio=4.0,seed=3");
  EXPECT_EQ(w.refuses(g), "");
  const auto want = w.reference(g, 0);
  for (const char* variant : {"topology", "wl"}) {
    const Result r = w.run(dev, g, 0, variant);
    ASSERT_EQ(w.check(g, r.values, want), "") << variant;
    std::map<std::string, std::uint64_t> c(r.counters.begin(), r.counters.end());
    EXPECT_GT(c["decimation_steps"], 0u) << variant;
    EXPECT_GT(c["variables_fixed"], 0u) << variant;
    EXPECT_EQ(c["walksat_failed"], 0u) << variant;
  }
  const Result r = w.run(dev, g, 0, "topology");
  auto broken = r.values;
  // Falsify clause 0: every literal of it false.
  for (std::uint32_t e = g.row[0]; e < g.row[1]; ++e) broken[g.col[e]] = g.weight[e] == 2 ? 1 : 0;
  EXPECT_NE(w.check(g, broken, want).find("clause 0"), std::string::npos);
  auto half = r.values;
  half[g.clauses] = 0.5;
  EXPECT_NE(w.check(g, half, want).find("is not 0 or 1"), std::string::npos);
  EXPECT_THROW(w.run(dev, g, 0, "data"), Error);
}

// The plummer: generator: n bodies (no edges) of a Plummer cluster, centred near the origin with
// half its mass inside radius ~0.77 in N-body units (the scale factor 3 pi / 16), reproducible by seed.
TEST(Workloads, PlummerGeneratorMakesABodySet) {
  const Graph g = load_graph("plummer:n=4000,seed=3");
  ASSERT_EQ(g.n, 4000u);
  EXPECT_EQ(g.edges(), 0u);
  ASSERT_EQ(g.bodies.size(), 6u * 4000);
  std::vector<double> radius;
  double cx = 0, speed2 = 0;
  for (std::uint32_t b = 0; b < g.n; ++b) {
    const float* p = &g.bodies[6ull * b];
    radius.push_back(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    cx += p[0] / g.n;
    speed2 += (p[3] * p[3] + p[4] * p[4] + p[5] * p[5]) / g.n;
  }
  std::nth_element(radius.begin(), radius.begin() + 2000, radius.end());
  EXPECT_NEAR(radius[2000], 0.77, 0.06);  // the half-mass radius: 1.305 x 3 pi / 16
  EXPECT_NEAR(cx, 0, 0.1);
  EXPECT_NEAR(speed2, 0.5, 0.05);  // virial equilibrium: kinetic energy 1/4, so <v^2> 1/2
  EXPECT_EQ(load_graph("plummer:n=4000,seed=3").bodies, g.bodies);
  EXPECT_NE(load_graph("plummer:n=4000,seed=4").bodies, g.bodies);
  EXPECT_TRUE(load_graph("grid:rows=3,cols=3").bodies.empty());
  for (const char* bad : {"plummer:seed=3", "plummer:n=1", "plummer:n=2.5", "plummer:n=10,theta=1"})
    EXPECT_THROW(load_graph(bad), Error) << bad;
}

// The delaunay: generator: a valid Delaunay triangulation of the unit square over its corners and
// n - 4 random points (2n - 6 triangles: Euler's formula with a 4-point hull), its edges the graph's
// both ways; invalid() finds a broken neighbour, a flipped triangle and a non-Delaunay edge.
TEST(Workloads, DelaunayGeneratorTriangulatesTheSquare) {
  const Graph g = load_graph("delaunay:n=400,seed=2");
  ASSERT_EQ(g.n, 400u);
  EXPECT_EQ(g.mesh.triangles(), 2u * 400 - 6);
  EXPECT_EQ(g.mesh.invalid(), "");
  EXPECT_EQ(g.edges(), 2u * (3u * 400 - 7));  // 3n - 3 - h edges of a triangulation, hull h = 4
  EXPECT_EQ(load_graph("delaunay:n=400,seed=2").mesh.v, g.mesh.v);
  TriMesh broken = g.mesh;
  broken.nb[0] = broken.nb[0] == TriMesh::kNone ? 1 : TriMesh::kNone;
  EXPECT_NE(broken.invalid(), "");
  TriMesh flipped = g.mesh;
  std::swap(flipped.v[0], flipped.v[1]);
  EXPECT_NE(flipped.invalid().find("counter-clockwise"), std::string::npos);
  // Flip the diagonal of a triangle pair: still a triangulation, no longer Delaunay.
  TriMesh square = TriMesh::square({});
  EXPECT_EQ(square.invalid(), "");
  square.xy[2 * 2] = 0.9;  // pull corner (1, 1) in: point 3 is now inside triangle 0's circumcircle
  EXPECT_NE(square.invalid(), "");
  for (const char* bad : {"delaunay:seed=1", "delaunay:n=3", "delaunay:n=7.5"}) EXPECT_THROW(load_graph(bad), Error) << bad;
}

// scramble=1 numbers a generator's vertices in a random order: the same graph (degrees, edges and
// weights) under a permutation, the mesh still valid; refused where ids mean something.
TEST(Workloads, ScrambleRenumbersTheVertices) {
  for (const char* spec : {"grid:rows=8,cols=8", "delaunay:n=200", "rgg:n=300,radius=0.1", "random:n=50,m=400"}) {
    const Graph a = load_graph(spec), b = load_graph(std::string(spec) + ",scramble=1");
    ASSERT_EQ(a.n, b.n) << spec;
    ASSERT_EQ(a.edges(), b.edges()) << spec;
    EXPECT_NE(a.col, b.col) << spec;
    auto degrees = [](const Graph& g) {
      std::multiset<std::pair<std::uint32_t, std::uint64_t>> d;  // (degree, weights' sum) per vertex
      for (std::uint32_t v = 0; v < g.n; ++v) {
        std::uint64_t w = 0;
        for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) w += g.weight[e];
        d.insert({g.row[v + 1] - g.row[v], w});
      }
      return d;
    };
    EXPECT_EQ(degrees(a), degrees(b)) << spec;
  }
  const Graph m = load_graph("delaunay:n=200,scramble=1");
  EXPECT_EQ(m.mesh.invalid(), "");
  EXPECT_EQ(m.mesh.triangles(), 2u * 200 - 6);
  EXPECT_THROW(load_graph("mesh:rows=4,cols=4,scramble=1"), Error);
  EXPECT_THROW(load_graph("rmat:scale=6,scramble=1"), Error);
}

// Delaunay mesh refinement: refused on a graph without triangles; both variants leave a valid
// Delaunay mesh with no angle below 30 degrees that keeps the input's points; the check fails the
// unrefined input, a moved input point and a broken neighbour.
TEST(Workloads, DelaunayRefinementLeavesNoBadTriangle) {
  const Workload& w = workload("dmr");
  mem::BackingStore m;
  runtime::Device dev(m);
  const Graph grid = load_graph("grid:rows=3,cols=3");
  EXPECT_NE(w.refuses(grid).find("not a triangulation"), std::string::npos);
  EXPECT_THROW(w.run(dev, grid, 0, "topology"), Error);
  const Graph g = load_graph("delaunay:n=120,seed=4");
  const auto want = w.reference(g, 0);
  EXPECT_NE(w.check(g, want, want).find("angle below 30 degrees"), std::string::npos);  // the input is not refined
  for (const char* variant : {"topology", "wl"}) {
    const Result r = w.run(dev, g, 0, variant);
    ASSERT_EQ(w.check(g, r.values, want), "") << variant;
    std::map<std::string, std::uint64_t> c(r.counters.begin(), r.counters.end());
    EXPECT_GT(c["points_added"], 0u) << variant;
    EXPECT_GT(c["rounds"], 1u) << variant;
    EXPECT_EQ(r.values[1], c["triangles"]) << variant;
  }
  const Result r = w.run(dev, g, 0, "topology");
  auto moved = r.values;
  moved[2 + 2 * 7] += 1e-6;  // input point 7's x
  EXPECT_NE(w.check(g, moved, want).find("input point 7 moved"), std::string::npos);
  auto torn = r.values;
  const auto points = static_cast<std::size_t>(r.values[0]), triangles = static_cast<std::size_t>(r.values[1]);
  double& neighbour = torn[2 + 2 * points + 3 * triangles];  // triangle 0's first neighbour
  neighbour = neighbour == TriMesh::kNone ? 0 : TriMesh::kNone;
  EXPECT_NE(w.check(g, torn, want).find("triangle 0"), std::string::npos);
  EXPECT_THROW(w.run(dev, g, 0, "data"), Error);
}

// Barnes-Hut: refused on a graph without bodies; both variants match the double-precision
// Barnes-Hut; the check catches a body moved wrongly, one left out of the force kernel, wrong masses.
TEST(Workloads, BarnesHutMatchesTheDoublePrecisionTree) {
  const Workload& w = workload("bh");
  mem::BackingStore m;
  runtime::Device dev(m);
  const Graph grid = load_graph("grid:rows=3,cols=3");
  EXPECT_NE(w.refuses(grid).find("has no bodies"), std::string::npos);
  EXPECT_THROW(w.run(dev, grid, 0, "topology"), Error);
  const Graph g = load_graph("plummer:n=700,seed=5");
  EXPECT_EQ(w.refuses(g), "");
  const auto want = w.reference(g, 0);
  for (const char* variant : {"topology", "wl"}) {
    const Result r = w.run(dev, g, 0, variant);
    ASSERT_EQ(w.check(g, r.values, want), "") << variant;
    std::map<std::string, std::uint64_t> c(r.counters.begin(), r.counters.end());
    EXPECT_GT(c["cells"], 700u / 8) << variant;
    EXPECT_LT(c["cells"], 4u * 700) << variant;
  }
  const Result r = w.run(dev, g, 0, "topology");
  auto moved = r.values;
  moved[6 * 17 + 1] += 1e-3;
  EXPECT_NE(w.check(g, moved, want).find("body 17: y"), std::string::npos);
  auto unforced = r.values;  // body 3 left out of the force kernel
  for (int k = 3; k < 6; ++k) unforced[6 * 3 + k] = 0;
  EXPECT_NE(w.check(g, unforced, want).find("body 3: a"), std::string::npos);
  auto heavier = r.values;  // every body 3 % heavier
  for (std::size_t i = 0; i < heavier.size(); ++i) heavier[i] *= i % 6 < 3 ? 1 : 1.03;
  EXPECT_NE(w.check(g, heavier, want), "");
  EXPECT_THROW(w.run(dev, g, 0, "data"), Error);
}

// A workload that refuses an ordinary graph names a small input of its own kind, which it takes
// (the listing and the --graph error show it; the PTX corpus test runs on it).
TEST(Workloads, ExampleInputsAreOfTheirOwnKind) {
  const Graph plain = load_graph(kGraphs + "small.mtx");
  for (const Workload& w : irr::workloads::workloads()) {
    if (w.example_input.empty()) {
      EXPECT_EQ(w.refuses(plain), "") << w.name << " refuses a graph but names no input of its own";
      continue;
    }
    EXPECT_NE(w.refuses(plain), "") << w.name;
    EXPECT_EQ(w.refuses(load_graph(w.example_input)), "") << w.name << " on " << w.example_input;
  }
}

TEST(Workloads, EveryVariantOnSmallFiles) {
  for (const char* f : {"small.mtx", "small.gr", "small.txt"}) check_all(kGraphs + f);
  // Unreachable vertices are infinite; the BFS levels of the DIMACS graph are known.
  const Graph g = read_dimacs(kGraphs + "small.gr");
  mem::BackingStore m;
  runtime::Device dev(m);
  const Result bfs = workload("bfs").run(dev, g, 0, "data");
  EXPECT_EQ(bfs.values, (std::vector<double>{0, 1, 1, 2, 2, 1}));
  const Result sssp = workload("sssp").run(dev, g, 0, "data");
  EXPECT_EQ(sssp.values, (std::vector<double>{0, 7, 9, 20, 20, 11}));  // the classic Dijkstra example
  const Graph two = read_mtx(kGraphs + "small.mtx");
  const Result reach = workload("bfs").run(dev, two, 0, "topology");
  EXPECT_EQ(reach.values[5], kInf);
  EXPECT_EQ(reach.values[6], kInf);
}

// The references the color and mis kernels are checked against are what they claim: a proper
// colouring and a maximal independent set of the undirected input.
TEST(Workloads, ColourAndMisReferencesAreProper) {
  for (const char* spec : {"rmat:scale=9,edge_factor=8,seed=2", "grid:rows=12,cols=17,seed=3", "rgg:n=300,radius=0.1,seed=7"}) {
    const Graph g = irr::workloads::undirected(load_graph(spec));
    for (std::uint32_t v = 0; v < g.n; ++v)
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
        const std::uint32_t u = g.col[e];
        ASSERT_NE(u, v) << spec;
        ASSERT_TRUE(std::binary_search(g.col.begin() + g.row[u], g.col.begin() + g.row[u + 1], v)) << spec;  // symmetric
        ASSERT_TRUE(e == g.row[v] || g.col[e - 1] < u) << spec;                                             // simple
      }
    const auto colour = workload("color").reference(g, 0), in = workload("mis").reference(g, 0);
    for (std::uint32_t v = 0; v < g.n; ++v) {
      bool member_neighbour = false;
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e) {
        EXPECT_NE(colour[v], colour[g.col[e]]) << spec << ": " << v << " and " << g.col[e];
        member_neighbour = member_neighbour || in[g.col[e]] == 1;
      }
      EXPECT_GE(colour[v], 0);
      if (in[v] == 1) EXPECT_FALSE(member_neighbour) << spec << ": " << v << " has a neighbour in the set";
      else EXPECT_TRUE(member_neighbour) << spec << ": " << v << " could join (not maximal)";
    }
  }
}

TEST(Workloads, ErrorsForBadSourcesAndNames) {
  EXPECT_THROW(workload("dfs"), Error);
  const Graph g = load_graph("grid:rows=2,cols=2");
  mem::BackingStore m;
  runtime::Device dev(m);
  EXPECT_THROW(workload("bfs").run(dev, g, 9, "data"), Error);
}

// The wavefront workloads, functionally: every version of each gives its CPU reference (a tile
// grid that is not square, tiles that do not fill a warp); Global and CDP launch once per wave.
TEST(Wavefront, EveryVariantMatchesTheReference) {
  namespace wf = irr::workloads::wavefront;
  for (const auto& w : wf::workloads())
    for (const auto& v : wf::variants()) {
      mem::BackingStore store;
      runtime::Device dev(store);
      dev.echo_printf(false);
      const wf::Result r = w.run(dev, {5, 3, 6, 7}, v.name);
      EXPECT_EQ(r.check, "") << w.name << "/" << v.name;
      EXPECT_EQ(r.launches, v.dependencies ? 1u : 7u) << w.name << "/" << v.name;
    }
}

TEST(Wavefront, TilesAndVariantsAreCheckedWithClearErrors) {
  namespace wf = irr::workloads::wavefront;
  wf::Shape s;
  wf::parse_tiles("12x5", s);
  EXPECT_EQ(s.tiles_x, 12u);
  EXPECT_EQ(s.tiles_y, 5u);
  wf::parse_tiles("9", s);
  EXPECT_EQ(s.tiles_x * s.tiles_y, 81u);
  for (const char* bad : {"", "0x4", "4x", "4y4", "4x4x4", "300x300", "-3"})
    EXPECT_THROW(wf::parse_tiles(bad, s), Error) << bad;
  try {
    wf::variant("fast");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("global, cdp, deplinks, lrr, lvl"), std::string::npos) << e.what();
  }
  EXPECT_EQ(wf::find("bfs"), nullptr);
}

TEST(Workloads, LockBenchmarkCheckFindsEveryFault) {
  namespace locks = irr::workloads::locks;
  locks::Options o;
  o.items = 1000;
  o.collisions = 7;
  const auto keys = locks::keys(o);
  EXPECT_EQ(keys, locks::keys(o));  // the same seed, the same keys
  std::vector<std::int32_t> heads(7, -1), next(1000, -1);
  for (std::int32_t i = 0; i < 1000; ++i) {
    ASSERT_GE(keys[i], 0);
    ASSERT_LT(keys[i], 7);
    next[i] = heads[keys[i]];
    heads[keys[i]] = i;
  }
  EXPECT_EQ(locks::check_lists(keys, heads, next), "");
  auto lost = next;
  lost[heads[3]] = -1;  // the list of entry 3 cut after its first item
  EXPECT_NE(locks::check_lists(keys, heads, lost).find("an insert was lost"), std::string::npos);
  auto cycle = next;
  cycle[heads[2]] = heads[2];
  EXPECT_NE(locks::check_lists(keys, heads, cycle).find("linked twice"), std::string::npos);
  auto swapped = heads;
  std::swap(swapped[0], swapped[1]);
  EXPECT_NE(locks::check_lists(keys, swapped, next).find("is in entry"), std::string::npos);
  auto wild = heads;
  wild[4] = 1000;
  EXPECT_NE(locks::check_lists(keys, wild, next).find("no item"), std::string::npos);
  o.seed = 2;
  EXPECT_NE(keys, locks::keys(o));
}

TEST(Workloads, BankTransferCheckFindsALostTransfer) {
  namespace locks = irr::workloads::locks;
  locks::Options o;
  o.items = 500;
  o.collisions = 3;
  const auto t = locks::transfers(o);
  std::vector<std::int32_t> balance(3, 0);
  for (std::size_t i = 0; i < t.from.size(); ++i) {
    ASSERT_NE(t.from[i], t.to[i]);
    ASSERT_GE(t.amount[i], 1);
    ASSERT_LE(t.amount[i], 100);
    balance[t.from[i]] -= t.amount[i];
    balance[t.to[i]] += t.amount[i];
  }
  EXPECT_EQ(locks::check_balances(t, balance), "");
  balance[t.to[7]] -= t.amount[7];  // one transfer's deposit lost (a torn update)
  EXPECT_NE(locks::check_balances(t, balance).find("a transfer was lost or torn"), std::string::npos);
}

TEST(Workloads, SgdCheckReplaysTheSectionsAndFindsEveryFault) {
  namespace locks = irr::workloads::locks;
  locks::Options o;
  o.items = 2000;
  o.collisions = 50;
  const auto r = locks::ratings(o);
  ASSERT_EQ(r.users, 125u);
  ASSERT_EQ(r.movies, 50u);
  std::vector<std::uint32_t> per_movie(50);
  for (std::size_t i = 0; i < r.user.size(); ++i) {
    ASSERT_LT(static_cast<std::uint32_t>(r.user[i]), r.users);
    ASSERT_GE(r.rating[i], 1);
    ASSERT_LE(r.rating[i], 5);
    ++per_movie.at(static_cast<std::size_t>(r.movie[i]));
  }
  EXPECT_GT(per_movie[0], 4 * per_movie[49]);  // the low movies are the popular ones
  // The ratings run one at a time, in reverse: the order the sections note, and the result.
  const auto initial = locks::sgd_features(r);
  auto f = initial;
  std::vector<std::int32_t> version(r.users + r.movies), order(2 * r.user.size());
  for (std::size_t i = r.user.size(); i-- > 0;) {
    const std::size_t u = static_cast<std::size_t>(r.user[i]), m = r.users + static_cast<std::size_t>(r.movie[i]);
    locks::sgd_update(&f[u * locks::kSgdFeatures], &f[m * locks::kSgdFeatures], r.rating[i]);
    order[2 * i] = version[u]++;
    order[2 * i + 1] = version[m]++;
  }
  EXPECT_EQ(locks::check_sgd(r, initial, order, f), "");
  EXPECT_LT(std::abs(f[0] - initial[0]), 1.0f);
  auto torn = f;
  torn[5 * locks::kSgdFeatures + 3] += 1e-6f;
  EXPECT_NE(locks::check_sgd(r, initial, order, torn).find("an update was torn or lost"), std::string::npos);
  auto lost = order;
  lost[10] = 100000;
  EXPECT_NE(locks::check_sgd(r, initial, lost, f).find("lost or never ran"), std::string::npos);
  // Two ratings of one movie noted the same place: both held its lock.
  std::size_t a = 0, b = 1;
  while (r.movie[b] != r.movie[a]) ++b;
  auto twice = order;
  twice[2 * b + 1] = twice[2 * a + 1];
  EXPECT_NE(locks::check_sgd(r, initial, twice, f).find("held its lock at once"), std::string::npos);
  // One user's two ratings of one movie, in opposite orders on the two vertices.
  locks::Ratings pair;
  pair.users = pair.movies = 1;
  pair.user = pair.movie = {0, 0};
  pair.rating = {3, 4};
  EXPECT_NE(locks::check_sgd(pair, locks::sgd_features(pair), {0, 1, 1, 0}, locks::sgd_features(pair)).find("has a cycle"),
            std::string::npos);
}

TEST(Workloads, MstCheckWantsKruskalsForest) {
  namespace locks = irr::workloads::locks;
  using irr::workloads::Edge;
  // A 4-cycle 0-1-2-3 with weights 1, 2, 3, 4, a chord 0-2 of 5, a self loop and a heavier parallel
  // 0-1; vertex 4 alone.
  const auto g = irr::workloads::undirected(irr::workloads::from_edges(
      5, {{0, 1, 1}, {1, 0, 9}, {1, 2, 2}, {2, 3, 3}, {3, 0, 4}, {0, 2, 5}, {3, 3, 1}}, "test"));
  EXPECT_EQ(g.edges(), 10u);  // five undirected edges, both ways
  EXPECT_EQ(g.weight[g.row[1]], 1u);  // 1-0 kept at the lighter weight
  EXPECT_EQ(locks::check_forest(g, {{0, 1, 1}, {1, 2, 2}, {3, 2, 3}}), "");
  EXPECT_NE(locks::check_forest(g, {{0, 1, 1}, {1, 2, 2}}).find("a merge was lost"), std::string::npos);
  EXPECT_NE(locks::check_forest(g, {{0, 1, 1}, {1, 2, 2}, {3, 0, 4}}).find("not Kruskal's 6"), std::string::npos);
  EXPECT_NE(locks::check_forest(g, {{0, 1, 1}, {1, 2, 2}, {0, 2, 5}}).find("closes a cycle"), std::string::npos);
}

TEST(Workloads, MfCheckWantsAMaximumFlow) {
  namespace locks = irr::workloads::locks;
  // 0 -> 1 (5), 1 -> 2 (3), 0 -> 2 (2): the maximum flow from 0 to 2 is 5.
  const auto g = irr::workloads::from_edges(3, {{0, 1, 5}, {1, 2, 3}, {0, 2, 2}, {1, 1, 7}}, "test");
  const auto r = locks::residual(g);
  ASSERT_EQ(r.head.size(), 6u);  // three arcs and their reverses; the self loop dropped
  std::vector<std::int32_t> cap = r.cap, excess = {-5, 0, 5};
  const auto send = [&](std::int32_t u, std::int32_t v, std::int32_t f) {  // f units along u -> v
    for (std::uint32_t e = r.row[u]; e < r.row[u + 1]; ++e)
      if (r.head[e] == v && r.cap[e] > 0) {
        cap[e] -= f;
        cap[r.rev[e]] += f;
      }
  };
  send(0, 1, 3);
  send(1, 2, 3);
  send(0, 2, 2);
  EXPECT_EQ(locks::check_flow(g, r, cap, excess), "");
  auto kept = excess;
  kept[1] = 1;
  EXPECT_NE(locks::check_flow(g, r, cap, kept).find("flow is not conserved"), std::string::npos);
  auto less = excess;
  less[2] = 4;
  EXPECT_NE(locks::check_flow(g, r, cap, less).find("not the maximum 5"), std::string::npos);
  auto torn = cap;
  torn[r.row[1]] -= 1;  // an arc's capacity taken without its reverse's
  EXPECT_NE(locks::check_flow(g, r, torn, excess).find("a push was torn"), std::string::npos);
  send(1, 2, 1);  // 4 along an arc of 3
  EXPECT_NE(locks::check_flow(g, r, cap, excess).find("a push overdrew it"), std::string::npos);
}

TEST(Workloads, MeshHasASourceAndASinkAroundItsColumns) {
  const auto g = irr::workloads::load_graph("mesh:rows=4,cols=3");
  ASSERT_EQ(g.n, 14u);
  EXPECT_EQ(g.degree(0), 4u);   // the source feeds column 0
  EXPECT_EQ(g.degree(13), 0u);  // the sink feeds nothing
  EXPECT_EQ(g.degree(1), 3u);   // row 0, column 0: three arcs into column 1
  EXPECT_EQ(g.degree(3), 1u);   // row 0, last column: to the sink
  EXPECT_EQ(g.edges(), 4u + 4u + 4u * 2u * 3u);
}

// The boruvka workload's reference is Kruskal's forest (an independent check: locks::check_forest),
// ties broken by edge id, and its check names the first edge taken or left wrongly.
TEST(Workloads, BoruvkaReferenceIsKruskalsForest) {
  using irr::workloads::Edge;
  const Workload& w = workload("boruvka");
  // Equal weights everywhere on a 4-cycle 0-1-2-3 with a chord 0-2: the three lowest edge ids
  // (0-1, 0-2, 0-3, numbered in CSR order of the lower end) are the tree.
  const Graph square = irr::workloads::from_edges(4, {{0, 1, 7}, {1, 2, 7}, {2, 3, 7}, {3, 0, 7}, {0, 2, 7}}, "square");
  EXPECT_EQ(w.reference(square, 0), (std::vector<double>{1, 1, 1, 0, 0}));
  for (const char* spec : {"rmat:scale=9,edge_factor=8,seed=2", "random:n=500,degree=4,seed=3", "grid:rows=9,cols=11"}) {
    const Graph g = irr::workloads::undirected(load_graph(spec));
    const auto in = w.reference(g, 0);
    std::vector<Edge> chosen;
    std::size_t i = 0;
    for (std::uint32_t v = 0; v < g.n; ++v)
      for (std::uint32_t e = g.row[v]; e < g.row[v + 1]; ++e)
        if (v < g.col[e] && in[i++] != 0) chosen.push_back({v, g.col[e], g.weight[e]});
    ASSERT_EQ(i, in.size()) << spec;
    EXPECT_EQ(irr::workloads::locks::check_forest(g, chosen), "") << spec;
    auto wrong = in;
    wrong[3] = 1 - wrong[3];
    EXPECT_NE(w.check(g, wrong, in).find("undirected edge 3"), std::string::npos);
  }
}
