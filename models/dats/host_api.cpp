// SPDX-License-Identifier: Apache-2.0
#include "models/dats/host_api.h"

#include <cstring>

namespace irr::dats {

DependencyPlan plan(DependencyGraph graph) {
  DependencyPlan p;
  p.order = graph.block;  // parents first
  std::vector<std::uint8_t> nodes = node_array(graph);
  const std::uint64_t node_bytes = nodes.size();
  p.arrays.push_back({std::move(nodes), node_bytes});
  std::vector<std::uint8_t> edges(std::uint64_t{kEdgeEntryBytes} * graph.edges.size());
  if (!edges.empty()) std::memcpy(edges.data(), graph.edges.data(), edges.size());
  const std::uint64_t edge_bytes = edges.size() + kEdgeEntryBytes;  // one entry more: never empty
  p.arrays.push_back({std::move(edges), edge_bytes});
  p.needs = "the dependency-aware CTA scheduler (gpu.cta_scheduler: dats; docs/dats.md)";
  p.graph = std::move(graph);
  return p;
}

runtime::LaunchStats launch_with_dependencies(runtime::Device& device, const runtime::Kernel& k, core::Dim3 grid,
                                              core::Dim3 block, const runtime::Args& args,
                                              const std::function<void(DepLinks&)>& mapping,
                                              std::uint32_t dynamic_shared) {
  return device.launch_with_plan(k, grid, block, args, plan(build_graph(grid, mapping)), dynamic_shared);
}

}  // namespace irr::dats
