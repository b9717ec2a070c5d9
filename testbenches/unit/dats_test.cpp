// SPDX-License-Identifier: Apache-2.0
// DATS, unit level: DepLinks graphs (renaming, levels, the boundary rule, cycles) and the
// dependency graph buffer, step by step through the Wireframe paper's Figure 5-7 example as the
// spec reconstructs it (../shared/specs/hwwl_iru_dats.md 3.10), and on random graphs.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "models/dats/dgb.h"
#include "models/dats/host_api.h"
#include "models/runtime/device.h"
#include "sim/error.h"

using namespace irr;
using dats::Dgb;
using dats::DependencyGraph;
using State = Dgb::State;

namespace {

// A wavefront: each block depends on its west and north neighbours (Code Block 5).
DependencyGraph wavefront(std::uint32_t w, std::uint32_t h) {
  return dats::build_graph(core::Dim3{w, h, 1}, [](dats::DepLinks& d) {
    const core::Dim3 b = d.block();
    d.add_dependency(core::Dim3{b.x - 1, b.y, b.z});  // x - 1 wraps at 0: outside the grid, ignored
    d.add_dependency(core::Dim3{b.x, b.y - 1, b.z});
  });
}

void expect_entry(const Dgb& dgb, std::uint32_t slot, std::uint32_t node, State state, std::uint32_t parents, int les) {
  const Dgb::Entry& e = dgb.slot(slot);
  SCOPED_TRACE("LNA slot " + std::to_string(slot));
  EXPECT_TRUE(e.valid());
  EXPECT_EQ(e.node, node);
  EXPECT_EQ(e.state, state);
  EXPECT_EQ(e.parents, parents);
  EXPECT_EQ(e.les, les);
}

}  // namespace

TEST(DepLinks, ThreeByThreeWavefrontRenamesLevelByLevel) {
  const DependencyGraph g = wavefront(3, 3);
  EXPECT_EQ(g.edge_start, (std::vector<std::uint32_t>{0, 2, 4, 6, 7, 9, 10, 11, 12, 12}));
  EXPECT_EQ(g.edges, (std::vector<std::uint32_t>{1, 2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 8}));
  EXPECT_EQ(g.parents, (std::vector<std::uint32_t>{0, 1, 1, 1, 2, 1, 2, 2, 2}));
  EXPECT_EQ(g.level, (std::vector<std::uint32_t>{0, 1, 1, 2, 2, 2, 3, 3, 4}));
  EXPECT_EQ(g.levels, 5u);
  EXPECT_EQ(g.name(1), "block (1,0,0)");  // level 1 in block order: (1,0) before (0,1)
  EXPECT_EQ(g.name(2), "block (0,1,0)");
  EXPECT_EQ(g.vid[4], 4u);                // block (1,1)
}

TEST(DepLinks, CodeBlockFiveGridAndEvaluationSizes) {
  const DependencyGraph g = wavefront(4, 4);  // 16 nodes, 24 edges, levels 0-6
  EXPECT_EQ(g.nodes(), 16u);
  EXPECT_EQ(g.edges.size(), 24u);
  EXPECT_EQ(g.levels, 7u);
  std::map<std::uint32_t, int> by_count;
  for (auto p : g.parents) ++by_count[p];
  EXPECT_EQ(by_count, (std::map<std::uint32_t, int>{{0, 1}, {1, 6}, {2, 9}}));
  EXPECT_EQ(wavefront(32, 32).levels, 63u);
  EXPECT_EQ(wavefront(96, 96).levels, 191u);  // HEAT2D's 9,216 nodes and 191 levels [W L270]
}

TEST(DepLinks, PoliciesRepeatsAndCycles) {
  auto g = dats::build_graph(core::Dim3{4, 1, 1}, [](dats::DepLinks& d) {
    if (d.block().x) d.add_dependency(core::Dim3{d.block().x - 1, 0, 0});
    if (d.block().x) d.add_dependency(core::Dim3{d.block().x - 1, 0, 0});  // once is enough
    d.set_policy(dats::Policy::lvl, 3);
  });
  EXPECT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.policy, dats::Policy::lvl);
  EXPECT_EQ(g.bound, 3u);
  try {
    dats::build_graph(core::Dim3{3, 1, 1}, [](dats::DepLinks& d) {
      d.add_dependency(core::Dim3{(d.block().x + 1) % 3, 0, 0});  // 0 <- 1 <- 2 <- 0
    });
    FAIL() << "a cycle was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(1,0,0)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(dats::build_graph(core::Dim3{2, 1, 1},
                                 [](dats::DepLinks& d) { d.set_policy(d.block().x ? dats::Policy::lvl : dats::Policy::lrr, 3); }),
               Error);
}

// Figure 7 (a)-(g) and what follows, on the 3x3 wavefront: LNA 4, LEA 8, chunk 2 nodes.
TEST(Dgb, PaperWalkThrough) {
  const DependencyGraph g = wavefront(3, 3);
  Dgb dgb(g, {4, 8, 64, 2, 4});
  // (a) Two chunks fill the LNA; node 0 starts.
  EXPECT_GT(dgb.load(), 0u);
  EXPECT_GT(dgb.load(), 0u);
  EXPECT_EQ(dgb.load(), 0u);  // no room for another chunk
  expect_entry(dgb, 0, 0, State::ready, 0, 0);
  expect_entry(dgb, 1, 1, State::waiting, 1, 2);
  expect_entry(dgb, 2, 2, State::waiting, 1, 4);
  expect_entry(dgb, 3, 3, State::waiting, 1, 6);
  const std::uint32_t lea[] = {1, 2, 3, 4, 4, 5, 6};
  for (std::uint32_t i = 0; i < 7; ++i) EXPECT_EQ(dgb.lea_entry(i), lea[i]) << "LEA " << i;
  EXPECT_EQ(dgb.lea_tail(), 0u);
  EXPECT_EQ(dgb.lea_head(), 7u);
  EXPECT_EQ(dgb.pick(dats::Policy::lrr, 0), 0u);
  dgb.issue(0);
  // (b) Node 0 done: 1 and 2 ready, the tails at LNA 1 and LEA 2 [W L368].
  ASSERT_TRUE(dgb.complete(0));
  EXPECT_EQ(dgb.slot(1).state, State::ready);
  EXPECT_EQ(dgb.slot(2).state, State::ready);
  EXPECT_EQ(dgb.lna_tail(), 1u);
  EXPECT_EQ(dgb.lea_tail(), 2u);
  EXPECT_EQ(dgb.load(), 0u);  // one free entry: less than a chunk
  dgb.issue(1);
  dgb.issue(2);
  // (c) Node 2 finishes first: its children 4 and 5 are not on chip, their updates go to the PUB;
  // its entry is a hole, the tail stays.
  ASSERT_TRUE(dgb.complete(2));
  EXPECT_EQ(dgb.pub(), (std::vector<std::uint32_t>{4, 5}));
  EXPECT_FALSE(dgb.slot(2).valid());
  EXPECT_EQ(dgb.lna_tail(), 1u);
  // (d) Node 1 finishes: 3 ready, another update for 4; the tail passes the hole to node 3. Node 3
  // is the head node with children: not schedulable yet [W L330].
  ASSERT_TRUE(dgb.complete(1));
  EXPECT_EQ(dgb.pub(), (std::vector<std::uint32_t>{4, 5, 4}));
  EXPECT_EQ(dgb.slot(3).state, State::ready);
  EXPECT_EQ(dgb.lna_tail(), 3u);
  EXPECT_EQ(dgb.lea_tail(), 6u);
  EXPECT_FALSE(dgb.schedulable(3));
  EXPECT_EQ(dgb.pick(dats::Policy::lrr, 0), std::nullopt);
  // (e)-(g) The next chunk: node 4 takes its two pending updates, node 5 its one [W L386];
  // LES 7 and 1 (GES 7 and 9 modulo 8) [W L326].
  EXPECT_GT(dgb.load(), 0u);
  expect_entry(dgb, 0, 4, State::ready, 0, 7);
  expect_entry(dgb, 1, 5, State::ready, 0, 1);
  EXPECT_TRUE(dgb.pub().empty());
  EXPECT_EQ(dgb.lea_entry(7), 6u);
  EXPECT_EQ(dgb.lea_entry(0), 7u);
  EXPECT_EQ(dgb.lea_entry(1), 7u);
  EXPECT_TRUE(dgb.schedulable(3));   // no longer the head node
  EXPECT_TRUE(dgb.schedulable(4));
  EXPECT_FALSE(dgb.schedulable(5));  // the head node now, with a child
  EXPECT_EQ(dgb.pick(dats::Policy::lrr, 0), 3u);
  // (h) One free entry (slot 2): no chunk until node 3 leaves.
  EXPECT_EQ(dgb.load(), 0u);
  dgb.issue(3);
  dgb.issue(4);
  ASSERT_TRUE(dgb.complete(3));
  EXPECT_EQ(dgb.pub(), (std::vector<std::uint32_t>{6}));
  EXPECT_EQ(dgb.lna_tail(), 0u);  // node 4's slot
  EXPECT_GT(dgb.load(), 0u);
  expect_entry(dgb, 2, 6, State::waiting, 1, 2);  // one of its two parents already done
  expect_entry(dgb, 3, 7, State::waiting, 2, 3);
  EXPECT_TRUE(dgb.schedulable(5));
}

TEST(Dgb, CompletionWaitsForPubRoom) {
  const DependencyGraph g = wavefront(3, 3);
  Dgb dgb(g, {4, 8, 1, 2, 4});  // a one-entry PUB
  dgb.load();
  dgb.load();
  dgb.issue(0);
  ASSERT_TRUE(dgb.complete(0));
  dgb.issue(1);
  dgb.issue(2);
  EXPECT_FALSE(dgb.complete(2));  // children 4 and 5 are off chip: two updates, one entry [W L372]
  EXPECT_EQ(dgb.slot(2).state, State::processing);
  EXPECT_TRUE(dgb.pub().empty());
  ASSERT_TRUE(dgb.complete(1));   // child 3 on chip, child 4 into the PUB
  EXPECT_EQ(dgb.pub(), (std::vector<std::uint32_t>{4}));
}

TEST(Dgb, EdgesThatDoNotFitParkTheNodeAndHaltLoading) {
  // Block 0 is the parent of 1-4, block 1 of 5-7 (VIDs equal block indices).
  const DependencyGraph g = dats::build_graph(core::Dim3{8, 1, 1}, [](dats::DepLinks& d) {
    const std::uint32_t b = d.block().x;
    if (b >= 1 && b <= 4) d.add_dependency(core::Dim3{0, 0, 0});
    if (b >= 5) d.add_dependency(core::Dim3{1, 0, 0});
  });
  EXPECT_THROW(Dgb(g, {8, 3, 8, 4, 4}), Error);  // 4 children can never fit a 3-entry LEA
  EXPECT_THROW(Dgb(g, {4, 8, 8, 4, 4}), Error);  // a chunk as large as the LNA
  Dgb dgb(g, {8, 5, 8, 4, 4});
  dgb.load();  // node 0 takes 4 of the 5 LEA entries; node 1's 3 edges do not fit
  EXPECT_EQ(dgb.inserted(), 1u);
  EXPECT_EQ(dgb.nib(), 1u);
  EXPECT_EQ(dgb.load(), 0u);  // loading halts behind the parked node
  EXPECT_EQ(dgb.inserted(), 1u);
  EXPECT_TRUE(dgb.schedulable(0));  // the head node, but the NIB holds its successor's edge start
  dgb.issue(0);
  ASSERT_TRUE(dgb.complete(0));  // all four children are off chip
  EXPECT_EQ(dgb.pub(), (std::vector<std::uint32_t>{1, 2, 3, 4}));
  dgb.load();  // node 0's edges are gone: node 1 goes in and takes its update
  EXPECT_EQ(dgb.nib(), std::nullopt);
  expect_entry(dgb, 1, 1, State::ready, 0, 4);
  EXPECT_EQ(dgb.pub(), (std::vector<std::uint32_t>{2, 3, 4}));
}

namespace {

// Runs every block of `g` through the DGB with `slots` blocks in flight, finishing them in random
// order; checks that each runs once, after all its parents. Returns false on a deadlock (nothing
// can move), with `why` from the DGB.
bool run_all(const DependencyGraph& g, dats::DgbParams p, std::uint32_t slots, dats::Policy policy, std::uint32_t bound,
             std::mt19937& rng, std::vector<std::string>& why, std::uint32_t* max_range = nullptr) {
  Dgb dgb(g, p);
  std::vector<std::vector<std::uint32_t>> parents_of(g.nodes());
  for (std::uint32_t k = 0; k < g.nodes(); ++k)
    for (std::uint32_t e = g.edge_start[k]; e < g.edge_start[k + 1]; ++e) parents_of[g.edges[e]].push_back(k);
  std::vector<int> state(g.nodes(), 0);  // 0 not run, 1 running, 2 done
  std::vector<std::uint32_t> running;
  while (!dgb.finished()) {
    const std::uint32_t before = dgb.inserted();
    dgb.load();
    bool moved = dgb.inserted() != before;
    while (running.size() < slots) {
      const auto v = dgb.pick(policy, bound);
      if (!v) break;
      for (std::uint32_t k : parents_of[*v]) EXPECT_EQ(state[k], 2) << g.name(*v) << " ran before its parent " << g.name(k);
      EXPECT_EQ(state[*v], 0) << g.name(*v) << " ran twice";
      state[*v] = 1;
      dgb.issue(*v);
      running.push_back(*v);
      moved = true;
      if (max_range) {
        const auto [lo, hi] = dgb.running_levels();
        *max_range = std::max(*max_range, hi - lo);
      }
    }
    std::shuffle(running.begin(), running.end(), rng);
    for (std::size_t i = 0; i < running.size(); ++i)
      if (dgb.complete(running[i])) {
        state[running[i]] = 2;
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
        moved = true;
        break;
      }
    if (!moved) {
      why = dgb.waiting();
      return false;
    }
  }
  for (std::uint32_t v = 0; v < g.nodes(); ++v) EXPECT_EQ(state[v], 2) << g.name(v);
  return true;
}

// A random DAG with the locality of a wavefront: each block depends on up to `fan` blocks among
// the `window` before it (in block order, so acyclic).
DependencyGraph random_dag(std::mt19937& rng, std::uint32_t n, std::uint32_t fan, std::uint32_t window) {
  std::vector<std::vector<std::uint32_t>> parents(n);
  for (std::uint32_t b = 1; b < n; ++b) {
    const std::uint32_t k = std::uniform_int_distribution<std::uint32_t>(0, fan)(rng);
    for (std::uint32_t i = 0; i < k; ++i)
      parents[b].push_back(b - 1 - std::uniform_int_distribution<std::uint32_t>(0, std::min(b, window) - 1)(rng));
  }
  return dats::build_graph(core::Dim3{n, 1, 1}, [&](dats::DepLinks& d) {
    for (std::uint32_t p : parents[d.block().x]) d.add_dependency(core::Dim3{p, 0, 0});
  });
}

}  // namespace

namespace {
// A w x h wavefront whose blocks depend on the neighbours `mask` names: 1 west, 2 north,
// 4 north-west, 8 north-east.
DependencyGraph stencil(std::uint32_t w, std::uint32_t h, unsigned mask) {
  return dats::build_graph(core::Dim3{w, h, 1}, [&](dats::DepLinks& d) {
    const core::Dim3 b = d.block();
    if (mask & 1) d.add_dependency(core::Dim3{b.x - 1, b.y, 0});
    if (mask & 2) d.add_dependency(core::Dim3{b.x, b.y - 1, 0});
    if (mask & 4) d.add_dependency(core::Dim3{b.x - 1, b.y - 1, 0});
    if (mask & 8) d.add_dependency(core::Dim3{b.x + 1, b.y - 1, 0});
  });
}
}  // namespace

// A random graph (many roots, children up to 24 VIDs on; or a wavefront with a random neighbour
// mask) and random buffer sizes that can hold its widest node.
std::pair<DependencyGraph, dats::DgbParams> random_case(std::mt19937& rng, bool wavefront) {
  DependencyGraph g = !wavefront ? random_dag(rng, std::uniform_int_distribution<std::uint32_t>(1, 400)(rng), 3, 24)
                                 : stencil(std::uniform_int_distribution<std::uint32_t>(1, 40)(rng),
                                           std::uniform_int_distribution<std::uint32_t>(1, 40)(rng),
                                           std::uniform_int_distribution<unsigned>(1, 15)(rng));
  dats::DgbParams p;
  p.chunk = std::uniform_int_distribution<std::uint32_t>(1, 8)(rng);
  p.lna = p.chunk * std::uniform_int_distribution<std::uint32_t>(2, 8)(rng);
  std::uint32_t widest = 0;
  for (std::uint32_t v = 0; v < g.nodes(); ++v) widest = std::max(widest, g.children(v));
  p.lea = std::max(widest, 1u) * std::uniform_int_distribution<std::uint32_t>(2, 6)(rng);
  p.pub = std::uniform_int_distribution<std::uint32_t>(widest, 64)(rng);
  return {std::move(g), p};
}

// The paper's evaluated configurations: wavefronts (west and north, as SOR, HEAT2D and INT_IMG;
// plus north-west, as DTW and SW) of 1K, 4K and 9K blocks, at its buffer sizes — LVL 128 / 512,
// LRR 512 / 2K, a 64-entry PUB, 16-node chunks [W L417] — with up to 120 blocks in flight (15 SMs
// x 8) finishing in random order: every block runs once, after its parents; nothing stops; LVL
// keeps the running blocks within its bound of 3.
TEST(Dgb, PaperWavefrontsRunAtThePapersSizes) {
  std::mt19937 rng(11);
  for (unsigned mask : {3u, 7u})
    for (std::uint32_t side : {32u, 64u, 96u})
      for (bool lvl : {false, true}) {
        if (mask == 7 && lvl && side > 32) continue;  // see TransitiveEdgesWidenTheWindow
        const DependencyGraph g = stencil(side, side, mask);
        const dats::DgbParams p = lvl ? dats::DgbParams{128, 512, 64, 16, 4} : dats::DgbParams{512, 2048, 64, 16, 4};
        std::vector<std::string> why;
        std::uint32_t range = 0;
        SCOPED_TRACE(std::to_string(side) + " x " + std::to_string(side) + ", stencil " + std::to_string(mask) +
                     (lvl ? ", LVL" : ", LRR"));
        EXPECT_TRUE(run_all(g, p, 120, lvl ? dats::Policy::lvl : dats::Policy::lrr, 3, rng, why, &range))
            << (why.empty() ? "" : why.back());
        if (lvl) {
          EXPECT_LE(range, 3u);
        }
      }
}

// A north-west edge is implied by west then north; naming it anyway links each block to one two
// levels on, some 2 x 64 VIDs ahead on a 64 x 64 wavefront: past the 128-entry LNA, so each
// completion parks an update, the 64-entry PUB fills, and the blocks that would drain it cannot
// load. The DGB stops and says so; without the redundant edge the same wavefront runs.
TEST(Dgb, TransitiveEdgesWidenTheWindow) {
  std::mt19937 rng(3);
  std::vector<std::string> why;
  EXPECT_FALSE(run_all(stencil(64, 64, 7), {128, 512, 64, 16, 4}, 120, dats::Policy::lvl, 3, rng, why));
  ASSERT_FALSE(why.empty());
  EXPECT_EQ(why.back(), "64 of 64 PUB entries in use, 0 reserved");
  EXPECT_NE(why.front().find("completion needs"), std::string::npos) << why.front();
  EXPECT_TRUE(run_all(stencil(64, 64, 3), {128, 512, 64, 16, 4}, 120, dats::Policy::lvl, 3, rng, why));
}

// Any DAG, any sizes: blocks still run once and after their parents. The paper sizes the PUB by
// experiment [W L448]; on graphs without a wavefront's locality (here: many roots whose children
// lie far ahead in VID order) a full PUB can stop every completion while the nodes that would
// drain it cannot load (spec 3.7, hazard 9b). Such a stop is reported with the blocks and what
// they wait for.
TEST(Dgb, AnyGraphRunsBlocksOnceParentsFirstOrNamesTheStop) {
  std::mt19937 rng(7);
  int stops = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const auto [g, p] = random_case(rng, trial % 3 == 0);
    std::vector<std::string> why;
    if (!run_all(g, p, std::uniform_int_distribution<std::uint32_t>(1, 16)(rng),
                 trial % 2 ? dats::Policy::lvl : dats::Policy::lrr, 3, rng, why)) {
      ++stops;
      ASSERT_FALSE(why.empty());
      std::string all;
      for (const auto& w : why) all += w + "\n";
      EXPECT_NE(all.find("completion needs"), std::string::npos) << all;  // a full PUB, nothing else
    }
  }
  RecordProperty("stops", stops);
}

// The PUB reservation (irrgpu's rule, dats.pub_reservation): the redundant-edge wavefront that
// stops the paper's rule runs, under LVL and LRR. On random graphs no completion ever waits for
// PUB room; what can still stop them is a PUB full of updates for nodes beyond the head while the
// ready nodes' children are off chip too — a stop the reservation does not remove, reported as such.
TEST(Dgb, PubReservationRunsWhatThePapersRuleStopsOn) {
  std::mt19937 rng(3);
  std::vector<std::string> why;
  dats::DgbParams reserve{128, 512, 64, 16, 4, true};
  EXPECT_TRUE(run_all(stencil(64, 64, 7), reserve, 120, dats::Policy::lvl, 3, rng, why)) << (why.empty() ? "" : why[0]);
  EXPECT_TRUE(run_all(stencil(64, 64, 7), reserve, 120, dats::Policy::lrr, 3, rng, why)) << (why.empty() ? "" : why[0]);
  std::mt19937 graphs(7);
  int stops = 0, stencil_stops = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const bool wavefront = trial % 3 == 0;
    auto [g, p] = random_case(graphs, wavefront);
    p.reserve_pub = true;
    if (run_all(g, p, std::uniform_int_distribution<std::uint32_t>(1, 16)(graphs),
                trial % 2 ? dats::Policy::lvl : dats::Policy::lrr, 3, graphs, why))
      continue;
    ++stops;
    stencil_stops += wavefront;
    std::string all;
    for (const auto& w : why) all += w + "\n";
    EXPECT_EQ(all.find("completion needs"), std::string::npos) << all;
    EXPECT_NE(all.find("need more PUB entries than are free or reserved"), std::string::npos) << all;
  }
  RecordProperty("stops", stops);
  RecordProperty("stencil_stops", stencil_stops);
}

namespace {

// v[y][x] = 1 + max(v[y][x+1], v[y+1][x]) (0 outside): a wavefront from the south-east corner,
// against block order. One thread per block.
const char* kSouthEastDp = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry dp(.param .u64 v, .param .u32 w, .param .u32 h)
{
.reg .b32 %r<16>;
.reg .b64 %rd<8>;
.reg .pred %p<4>;
mov.u32 %r1, %ctaid.x;
mov.u32 %r2, %ctaid.y;
ld.param.u32 %r3, [w];
ld.param.u32 %r4, [h];
ld.param.u64 %rd1, [v];
mov.u32 %r5, 0;
mov.u32 %r6, 0;
add.u32 %r7, %r1, 1;
setp.ge.u32 %p1, %r7, %r3;
@%p1 bra NOEAST;
mad.lo.u32 %r8, %r2, %r3, %r7;
mul.wide.u32 %rd2, %r8, 4;
add.u64 %rd3, %rd1, %rd2;
ld.global.u32 %r5, [%rd3];
NOEAST:
add.u32 %r9, %r2, 1;
setp.ge.u32 %p2, %r9, %r4;
@%p2 bra NOSOUTH;
mad.lo.u32 %r10, %r9, %r3, %r1;
mul.wide.u32 %rd4, %r10, 4;
add.u64 %rd5, %rd1, %rd4;
ld.global.u32 %r6, [%rd5];
NOSOUTH:
max.u32 %r11, %r5, %r6;
add.u32 %r11, %r11, 1;
mad.lo.u32 %r12, %r2, %r3, %r1;
mul.wide.u32 %rd6, %r12, 4;
add.u64 %rd7, %rd1, %rd6;
st.global.u32 [%rd7], %r11;
ret;
}
)";

std::vector<std::uint32_t> south_east(bool dependencies) {
  mem::BackingStore m;
  runtime::Device d(m);
  const auto mod = d.load_module_text(kSouthEastDp, "dp.ptx");
  constexpr std::uint32_t w = 12, h = 9;
  const std::uint64_t v = d.malloc(4 * w * h);
  d.memset(v, 0, 4 * w * h);
  const auto args = runtime::Args() << v << w << h;
  if (dependencies) {
    dats::launch_with_dependencies(d, d.kernel(mod, "dp"), runtime::Dim3{w, h}, runtime::Dim3{1}, args, [](dats::DepLinks& l) {
      l.add_dependency(core::Dim3{l.block().x + 1, l.block().y, 0});  // east and south: outside the grid at the edges
      l.add_dependency(core::Dim3{l.block().x, l.block().y + 1, 0});
    });
  } else {
    d.launch(d.kernel(mod, "dp"), runtime::Dim3{w, h}, runtime::Dim3{1}, args);
  }
  std::vector<std::uint32_t> out(w * h);
  d.memcpy_to_host(out.data(), v, 4 * w * h);
  return out;
}

}  // namespace

// The runtime's DepLinks launch: functionally, blocks run in the dependency graph's order, so a
// wavefront against block order computes what it should; the same launch without dependencies
// does not (blocks read neighbours not yet written).
TEST(DepLinks, FunctionalLaunchRunsParentsFirst) {
  const auto with = south_east(true);
  for (std::uint32_t y = 0; y < 9; ++y)
    for (std::uint32_t x = 0; x < 12; ++x) EXPECT_EQ(with[y * 12 + x], (11 - x) + (8 - y) + 1) << x << "," << y;
  EXPECT_NE(south_east(false), with);
}
