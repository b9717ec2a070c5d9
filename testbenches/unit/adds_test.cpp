// SPDX-License-Identifier: Apache-2.0
// ADDS and near-far (workloads/adds): the Fig. 5.2 SSSP trace (seed 001 §4.8) as a test vector of
// the bucketed-worklist model, both GPU variants on the Fig. 5.1 graph and the chapter's graph
// classes against Dijkstra, and the deltas they start from.
#include <gtest/gtest.h>

#include <algorithm>

#include "models/mem/backing_store.h"
#include "workloads/adds/adds.h"
#include "workloads/workloads.h"

using namespace irr;
using namespace irr::workloads;

namespace {

// Fig. 5.1 as §4.8 implies it: A..F = 0..5, A->B 1, B->C 100, B->E 3, C->D 5, E->C 1, E->F 2.
Graph figure51() {
  return from_edges(6, {{0, 1, 1}, {1, 2, 100}, {1, 4, 3}, {2, 3, 5}, {4, 2, 1}, {4, 5, 2}}, "fig5.1");
}

constexpr std::uint64_t U = UINT64_MAX;  // not reached

Result run(const Graph& g, const std::string& variant) {
  mem::BackingStore m;
  runtime::Device dev(m);
  return workload("sssp").run(dev, g, 0, variant);
}

std::uint64_t counter(const Result& r, const std::string& name) {
  for (const auto& [n, v] : r.counters)
    if (n == name) return v;
  ADD_FAILURE() << "no counter " << name;
  return 0;
}

}  // namespace

// Fig. 5.2 step by step: one bucket (delta beyond every distance) is the plain worklist, processed
// in rounds; C is processed twice because ABC (101) is not its shortest path (ABEC, 5). The
// figure lists each step's worklist as a set, so it is compared sorted.
TEST(Adds, Figure52TraceStepByStep) {
  const auto steps = adds::bucketed_trace(figure51(), 0, 1ull << 40);
  struct Want {
    std::uint32_t vertex;
    std::vector<std::uint64_t> dist;
    std::vector<std::uint32_t> worklist;
  };
  const std::vector<Want> want = {{0, {0, 1, U, U, U, U}, {1}},
                                  {1, {0, 1, 101, U, 4, U}, {2, 4}},
                                  {2, {0, 1, 101, 106, 4, U}, {3, 4}},
                                  {4, {0, 1, 5, 106, 4, 6}, {2, 3, 5}},
                                  {2, {0, 1, 5, 10, 4, 6}, {3, 3, 5}}};
  ASSERT_GE(steps.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    auto got = steps[i].worklist;
    std::sort(got.begin(), got.end());
    EXPECT_EQ(steps[i].vertex, want[i].vertex) << "step " << i + 1;
    EXPECT_EQ(steps[i].dist, want[i].dist) << "step " << i + 1;
    EXPECT_EQ(got, want[i].worklist) << "step " << i + 1;
  }
  // Then D twice and F; eight vertices processed for six.
  ASSERT_EQ(steps.size(), 8u);
  EXPECT_EQ(steps.back().worklist, std::vector<std::uint32_t>{});
  // Buckets 4 wide (delta-stepping): E (4) goes before C's stale 101, so D is reached once, at
  // 10; C's entry from bucket 25 still comes round (ids carry no distance) and lowers nothing.
  const auto bucketed = adds::bucketed_trace(figure51(), 0, 4);
  const auto times = [](const std::vector<adds::Step>& s, std::uint32_t v) {
    return std::count_if(s.begin(), s.end(), [v](const adds::Step& x) { return x.vertex == v; });
  };
  EXPECT_EQ(times(steps, 3), 2);
  EXPECT_EQ(times(bucketed, 3), 1);
  ASSERT_EQ(bucketed.size(), 7u);
  EXPECT_EQ(bucketed.back().vertex, 2u);
  EXPECT_EQ(bucketed[5].dist, bucketed[6].dist);
  EXPECT_EQ(bucketed.back().dist, (std::vector<std::uint64_t>{0, 1, 5, 10, 4, 6}));
}

TEST(Adds, BothVariantsOnTheFigure51Graph) {
  for (const char* v : {"adds", "nearfar"}) {
    const Result r = run(figure51(), v);
    EXPECT_EQ(r.values, (std::vector<double>{0, 1, 5, 10, 4, 6})) << v;
    EXPECT_GE(counter(r, "vertices_processed"), 6u) << v;
  }
}

// The chapter's graph classes at test sizes (road: a random geometric graph, social: R-MAT, mesh:
// a grid, random), each against Dijkstra; ADDS processes at least every reached vertex once and
// pushes each id it processes (the source is put in by the host). A test a class: together they
// took close to a test's time limit on a slow, loaded machine.
class AddsGraphClass : public ::testing::TestWithParam<std::string> {};

TEST_P(AddsGraphClass, AgainstDijkstra) {
  const std::string& spec = GetParam();
  const Graph g = load_graph(spec);
  const auto want = workload("sssp").reference(g, 0);
  const auto reached = static_cast<std::uint64_t>(std::count_if(want.begin(), want.end(), [](double d) { return std::isfinite(d); }));
  Result a;
  for (const char* v : {"adds", "nearfar"}) {
    const Result r = run(g, v);
    EXPECT_EQ(workload("sssp").check(g, r.values, want), "") << v << " on " << spec;
    EXPECT_GE(counter(r, "vertices_processed"), reached) << v << " on " << spec;
    if (v == std::string("adds")) a = r;
  }
  EXPECT_EQ(counter(a, "pushes"), counter(a, "vertices_processed")) << spec;
  EXPECT_EQ(counter(a, "workers"), runtime::Device::kFunctionalResidentBlocks - 1);
}

INSTANTIATE_TEST_SUITE_P(Adds, AddsGraphClass,
                         ::testing::Values("rgg:n=2000,radius=0.04,seed=3", "rmat:scale=11,edge_factor=8,seed=2",
                                           "grid:rows=40,cols=40,seed=1", "random:n=2000,m=16000,seed=4"),
                         [](const auto& info) { return info.param.substr(0, info.param.find(':')); });

// §4.5's dynamic data structure at work: with data blocks of 256 ids and a pool of 100, blocks
// are mapped ahead of the writers, freed once read whole and mapped again; a pool too small for the
// run fails it with an error rather than wrong distances.
TEST(Adds, DataBlocksAreMappedFreedAndReused) {
  const Graph g = load_graph("grid:rows=64,cols=64,seed=1");
  const auto want = workload("sssp").reference(g, 0);
  mem::BackingStore m;
  runtime::Device dev(m);
  adds::AddsOptions o;
  o.block_log2 = 8;
  o.pool_blocks = 100;
  const Result r = adds::adds_sssp(dev, g, 0, o);
  EXPECT_EQ(workload("sssp").check(g, r.values, want), "");
  EXPECT_GT(counter(r, "blocks_freed"), 0u);
  EXPECT_GT(counter(r, "blocks_mapped"), 100u);  // more than the pool holds: freed blocks were mapped again
  o.pool_blocks = 40;  // fewer than the 32 buckets' two blocks ahead
  EXPECT_THROW(
      {
        try {
          adds::adds_sssp(dev, g, 0, o);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("the pool's 40 data blocks ran out"), std::string::npos) << e.what();
          throw;
        }
      },
      Error);
  o.block_log2 = 7;
  EXPECT_THROW(adds::adds_sssp(dev, g, 0, o), Error);  // below one segment
}

// Delta = 32 * (average weight) / (average degree) (§4.7's NF-OPT setting), ADDS's rounded to a
// power of two (§4.6).
TEST(Adds, InitialDeltas) {
  // Four edges of weights 10, 20, 30, 40 over two vertices: w = 25, d = 2, delta = 400.
  const Graph g = from_edges(2, {{0, 1, 10}, {0, 1, 20}, {1, 0, 30}, {1, 0, 40}}, "two");
  EXPECT_EQ(adds::nearfar_delta(g), 400u);
  EXPECT_EQ(adds::adds_initial_shift(g), 9u);  // log2(400) = 8.64 -> 512
  EXPECT_EQ(adds::nearfar_delta(from_edges(3, {}, "none")), 1u);
}
