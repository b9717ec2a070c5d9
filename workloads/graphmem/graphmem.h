// SPDX-License-Identifier: Apache-2.0
// The graph-memory thesis's workloads (seed 004 Table 4/9; workloads/kernels/graphmem.cu): the
// bfs variants harish (H-BFS), warp_centric (BFS-WC) and data_shared (BFS-DD), the sssp variant
// harish (H-SSSP), and the color (CLR), mis (MIS) and stcon (STCON) workloads, with their CPU references.
#pragma once

#include <string>
#include <vector>

#include "workloads/workloads.h"

namespace irr::workloads::graphmem {

bool bfs_variant(const std::string& variant);   // harish, warp_centric, data_shared
bool sssp_variant(const std::string& variant);  // harish
Result bfs(runtime::Device& d, const Graph& g, std::uint32_t source, const std::string& variant);
Result sssp(runtime::Device& d, const Graph& g, std::uint32_t source, const std::string& variant);
// The bfs and sssp variants' entries for the registry.
std::vector<Variant> bfs_variants();
std::vector<Variant> sssp_variants();
// The color, mis and stcon workloads.
std::vector<Workload> workloads();

// Vertex priorities, a fixed hash of the id (the same on the GPU's input and in the reference).
std::vector<std::uint32_t> priorities(std::uint32_t n);

}  // namespace irr::workloads::graphmem
