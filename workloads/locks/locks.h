// SPDX-License-Identifier: Apache-2.0
// Fine-grained synchronisation benchmarks (seed 001 chapter 4; workloads/kernels/locks.cu): each
// in a variant with global-memory spin locks (Listing 4.1) and one that delegates its critical
// sections to server thread blocks through a software message-passing system (Listing 4.2), with a
// host driver and a CPU check of the data structure the critical sections leave.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/runtime/device.h"
#include "workloads/graph/graph.h"

namespace irr::workloads::locks {

struct Options {
  std::uint32_t items = 16384;       // critical sections, one a client thread
  std::uint32_t collisions = 1024;   // distinct entries the items pick from at random (§3.5)
  std::uint32_t servers = 15;        // server thread blocks (delegated variant): one per SM of gtx480
  std::uint64_t seed = 1;            // the items' keys
  bool handoff = false;              // HT, ATM, MST: run the kernels that measure the lock hand-off latency (Table 4.2)
  std::string graph;                 // MST's and MF's input: a file or generator ("" for the benchmark's default)
};

struct Outcome {
  std::string error;  // "" when the data structure is what the items make
  std::uint64_t launches = 0, warp_instructions = 0, thread_instructions = 0;
  // A benchmark's own counts (SGD's error, MST's merges, MF's flow); with Options::handoff,
  // handoffs (acquires after an unlock), their mean latency and the critical sections' mean length
  // (acquire to the start of the release), in cycles.
  std::vector<std::pair<std::string, std::uint64_t>> counters = {};
};

struct Benchmark {
  std::string name, description;
  std::function<Outcome(runtime::Device&, const std::string& variant, const Options&)> run;
  std::string graph = {};  // its default input where it runs on a graph (Options::graph), not items
};

// The variants every benchmark has: global (spin locks) and delegated (server blocks).
const std::vector<std::pair<std::string, std::string>>& variants();
const std::vector<Benchmark>& benchmarks();
const Benchmark* find(const std::string& name);  // nullptr when unknown

// The keys the items draw (each below `collisions`), the same on the GPU and in the check.
std::vector<std::int32_t> keys(const Options& o);
// ATM's transfers: item i moves amount[i] (1 to 100) from account from[i] (its key) to to[i] != from[i].
struct Transfers {
  std::vector<std::int32_t> from, to, amount;
};
Transfers transfers(const Options& o);  // needs o.collisions >= 2
// SGD's ratings: item i is user[i]'s rating (1 to 5 stars) of movie[i]. Movies are o.collisions,
// rated with a skew (movie floor(u^2 * movies) for u uniform: the low ones popular); users are one
// for 16 ratings, each rating's drawn uniformly. Lock ids: users first, then movies.
struct Ratings {
  std::uint32_t users = 0, movies = 0;
  std::vector<std::int32_t> user, movie, rating;
};
Ratings ratings(const Options& o);
constexpr std::uint32_t kSgdFeatures = 16;  // latent features a vertex (locks.cu SGD_FEATURES)
constexpr float kSgdRate = 0.02f, kSgdLambda = 0.05f;
// The latent vectors before the first step: users' then movies', kSgdFeatures each, in [0.1, 0.5).
std::vector<float> sgd_features(const Ratings& r);
// SGD's critical section on the host, rounding as locks.cu's does: rating `rating` of the user whose
// latent vector is x for the movie whose vector is y.
void sgd_update(float* x, float* y, std::int32_t rating);
// "" when the kernel's sections ran as if one at a time: order[2i], order[2i+1] are rating i's
// places among its user's and its movie's sections, each place taken once, and replaying the
// ratings in an order both agree with from `initial` gives `result` bit for bit.
std::string check_sgd(const Ratings& r, const std::vector<float>& initial, const std::vector<std::int32_t>& order,
                      const std::vector<float>& result);

// "" when `chosen` (edges of the undirected g) is a spanning forest of Kruskal's weight.
std::string check_forest(const Graph& g, const std::vector<Edge>& chosen);

// MF's residual arcs: each edge of g (no self loops; capacity its weight, at most 2^20) and a reverse
// arc of capacity 0, in CSR by tail; rev[e] is the opposite arc.
struct Residual {
  std::vector<std::uint32_t> row;
  std::vector<std::int32_t> head, cap, rev;
};
Residual residual(const Graph& g);
// "" when cap (the residual capacities a run leaves) and excess are a maximum flow from vertex 0 to
// the last: no capacity overdrawn, each arc pair's sum kept, every other vertex's excess drained,
// and the sink's inflow what Edmonds-Karp finds.
std::string check_flow(const Graph& g, const Residual& r, const std::vector<std::int32_t>& cap,
                       const std::vector<std::int32_t>& excess);

// "" when every account holds what the transfers leave it (from 0); else the first that does not.
std::string check_balances(const Transfers& t, const std::vector<std::int32_t>& balance);
// "" when heads/next hold every item exactly once, each in its key's list; else the first fault.
std::string check_lists(const std::vector<std::int32_t>& keys, const std::vector<std::int32_t>& heads,
                        const std::vector<std::int32_t>& next);

}  // namespace irr::workloads::locks
