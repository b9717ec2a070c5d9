// SPDX-License-Identifier: Apache-2.0
// The graph workloads: BFS, SSSP and PageRank in topology-driven, data-driven and optimised
// variants (workloads/kernels/*.cu, PTX checked in), host drivers on the runtime API, and CPU
// references to check them against.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "models/runtime/device.h"
#include "workloads/graph/graph.h"

namespace irr::workloads {

struct Result {
  std::vector<double> values;  // per vertex; +infinity for unreachable
  std::uint64_t launches = 0, warp_instructions = 0, thread_instructions = 0;
  // What a variant counts of its own work (e.g. vertices processed), in workload.json.
  std::vector<std::pair<std::string, std::uint64_t>> counters = {};
};

struct Variant {
  std::string name, description;
  std::string unit = {};  // a unit it needs on the timed GPU ("hwwl"); empty: runs anywhere
};

struct Workload {
  std::string name, description;
  std::vector<Variant> variants;
  bool needs_source;
  std::function<Result(runtime::Device&, const Graph&, std::uint32_t source, const std::string& variant)> run;
  std::function<std::vector<double>(const Graph&, std::uint32_t source)> reference;
  // "" when the result matches the reference on graph g; else the first difference.
  std::function<std::string(const Graph& g, const std::vector<double>& got, const std::vector<double>& want)> check;
  std::string tolerance;  // how check compares, for the docs and the CLI
  // Why the workload cannot run on g ("" when it can; by default it runs on any graph).
  std::function<std::string(const Graph& g)> refuses = [](const Graph&) { return std::string(); };
  // A small input of the kind it needs, as a generator (for the listing, errors and tests); ""
  // when any graph will do.
  std::string example_input = {};
};

const std::vector<Workload>& workloads();
const Workload& workload(const std::string& name);  // throws irr::Error naming the known ones
// Where the workloads' PTX lives: $IRRGPU_WORKLOADS_DIR, the installed share/irrgpu/workloads,
// or the source tree.
std::string kernels_dir();

}  // namespace irr::workloads
