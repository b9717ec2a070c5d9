// SPDX-License-Identifier: Apache-2.0
// The graph-memory thesis's workloads (seed 004 Table 4/9 and chapter V; workloads/kernels/graphmem.cu):
// the bfs variants harish (H-BFS) with chapter V's edge loops harish_swp, _swpnc, _unr2, _unr3,
// _unr2_swp, _unr2_swpnc and harish_hoisted, warp_centric (BFS-WC), data_shared (BFS-DD) and
// unrolled (LS-BFS); the sssp variants harish (H-SSSP), warp_centric, data_shared and unrolled
// (LS-SSSP); and the color (CLR: topology, warp_centric, data_shared), mis (MIS), stcon (STCON) and
// boruvka (H-MST, LS-MST) workloads, with their CPU references.
#pragma once

#include <string>
#include <vector>

#include "workloads/workloads.h"

namespace irr::workloads::graphmem {

bool bfs_variant(const std::string& variant);   // one of those above
bool sssp_variant(const std::string& variant);
Result bfs(runtime::Device& d, const Graph& g, std::uint32_t source, const std::string& variant);
Result sssp(runtime::Device& d, const Graph& g, std::uint32_t source, const std::string& variant);
// The bfs and sssp variants' entries for the registry.
std::vector<Variant> bfs_variants();
std::vector<Variant> sssp_variants();
// The color, mis, stcon and boruvka workloads.
std::vector<Workload> workloads();

// Vertex priorities, a fixed hash of the id (the same on the GPU's input and in the reference).
std::vector<std::uint32_t> priorities(std::uint32_t n);

}  // namespace irr::workloads::graphmem
