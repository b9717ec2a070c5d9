// SPDX-License-Identifier: Apache-2.0
// The IRU paper's frontier-based graph algorithms [S L188-L203] (workloads/kernels/frontier.cu):
// BFS after Merrill, SSSP after Davidson, push PageRank, each an expansion kernel that writes an
// edge frontier and a contraction kernel that reads it — with plain loads, or with `iru` through
// the IRU (configure_iru before each contraction; the IRU must be attached, timing mode). SSSP's
// `culled` compaction filters duplicates in software first, as the paper's baseline does [S L268]
// (a warp's duplicate vertices, then elements no nearer than the vertex's distance; without the IRU).
// PageRank builds its next vertex frontier in one of three places (PrFrontier), with or without the IRU.
#pragma once

#include "workloads/workloads.h"

namespace irr::workloads::frontier {

Result bfs(runtime::Device& d, const Graph& g, std::uint32_t source, bool iru);
Result sssp(runtime::Device& d, const Graph& g, std::uint32_t source, bool iru, bool culled = false);
// Where PageRank's next frontier is built: `edges` a kernel over the edge frontier after the
// contraction (pr_frontier, with flags cleared by pr_clear); `contraction` in the contraction, by the
// add that takes a residual across the threshold (pr_contract_fused); `vertices` a kernel over every
// vertex after it (pr_frontier_vertices). The three give the same frontiers.
enum class PrFrontier { edges, contraction, vertices };

Result pagerank(runtime::Device& d, const Graph& g, bool iru, PrFrontier next = PrFrontier::edges);

}  // namespace irr::workloads::frontier
