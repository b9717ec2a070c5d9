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

namespace irr::workloads::locks {

struct Options {
  std::uint32_t items = 16384;       // critical sections, one a client thread
  std::uint32_t collisions = 1024;   // distinct entries the items pick from at random (§3.5)
  std::uint32_t servers = 15;        // server thread blocks (delegated variant): one per SM of gtx480
  std::uint64_t seed = 1;            // the items' keys
  bool handoff = false;              // HT: run the kernels that measure the lock hand-off latency (Table 4.2)
};

struct Outcome {
  std::string error;  // "" when the data structure is what the items make
  std::uint64_t launches = 0, warp_instructions = 0, thread_instructions = 0;
  // With Options::handoff: handoffs (acquires after an unlock), their mean latency and the critical
  // sections' mean length (acquire to the start of the release), in cycles.
  std::vector<std::pair<std::string, std::uint64_t>> counters = {};
};

struct Benchmark {
  std::string name, description;
  std::function<Outcome(runtime::Device&, const std::string& variant, const Options&)> run;
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
// "" when every account holds what the transfers leave it (from 0); else the first that does not.
std::string check_balances(const Transfers& t, const std::vector<std::int32_t>& balance);
// "" when heads/next hold every item exactly once, each in its key's list; else the first fault.
std::string check_lists(const std::vector<std::int32_t>& keys, const std::vector<std::int32_t>& heads,
                        const std::vector<std::int32_t>& next);

}  // namespace irr::workloads::locks
