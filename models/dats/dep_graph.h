// SPDX-License-Identifier: Apache-2.0
// DepLinks (Wireframe, Abdolrashidi et al., MICRO 2017 [W]): the host side of the dependency-aware
// thread-block scheduler. A mapping function, run once per block of the grid, names the blocks it
// depends on; at launch the dependencies become a CSR dependency graph with parent counts and
// levels, renamed level by level to virtual IDs (spec 3.2-3.3, [W L154-L284]).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/core/exec/warp.h"

namespace irr::dats {

// Loose round-robin (the default) and level-bound [W L392-L403]; in_order is irrgpu's DepLinks
// baseline without run-ahead: blocks take the GPU's slots in launch order and wait there for their
// parents (docs/dats.md).
enum class Policy { lrr, lvl, in_order };

// What the mapping function sees for one block (Code Block 5: WF::AddDependency, WF::SetPolicy).
class DepLinks {
 public:
  DepLinks(core::Dim3 grid, core::Dim3 block) : grid_(grid), block_(block) {}
  const core::Dim3& block() const { return block_; }  // this block's blockIdx
  const core::Dim3& grid() const { return grid_; }
  // An edge parent -> this block. A parent outside the grid is ignored (the paper's boundary rule:
  // blockIdx.x - 1 at x = 0 wraps to a coordinate past the grid); naming one parent twice adds
  // one edge.
  void add_dependency(core::Dim3 parent);
  void set_policy(Policy p, std::uint32_t bound = 0);

  std::vector<std::uint64_t> parents;  // linear block indices
  bool policy_set = false;
  Policy policy = Policy::lrr;
  std::uint32_t bound = 0;

 private:
  core::Dim3 grid_, block_;
};

// The launch's dependency graph in CSR, nodes renamed to virtual IDs (VIDs) level by level; within
// a level in block order (x fastest, then y, z), which the paper leaves open.
struct DependencyGraph {
  core::Dim3 grid;
  std::vector<std::uint32_t> edge_start;  // GES: n + 1 offsets into `edges`
  std::vector<std::uint32_t> edges;       // GEA: children, as VIDs
  std::vector<std::uint32_t> parents;     // parent count per VID
  std::vector<std::uint32_t> level;       // longest distance from a root per VID
  std::vector<std::uint64_t> block;       // VID -> linear block index
  std::vector<std::uint32_t> vid;         // linear block index -> VID
  std::uint32_t levels = 0;
  Policy policy = Policy::lrr;
  std::uint32_t bound = 0;

  std::uint32_t nodes() const { return static_cast<std::uint32_t>(parents.size()); }
  std::uint32_t children(std::uint32_t v) const { return edge_start[v + 1] - edge_start[v]; }
  std::string name(std::uint32_t v) const;  // "block (x,y,z)"
};

// The graph in device memory, where the CTA scheduler reads it from: node entries of
// kNodeEntryBytes in VID order (edge start u32, parent count u16, level u16) and child VIDs of
// kEdgeEntryBytes (u32).
constexpr std::uint32_t kNodeEntryBytes = 8, kEdgeEntryBytes = 4;
std::vector<std::uint8_t> node_array(const DependencyGraph& g);

// Runs `mapping` for every block and builds the graph in O(V + E) (each node's children then
// sorted by VID). A dependency cycle is an error
// naming two blocks on it; so is a graph of more than 65,536 blocks (the DGB's 16-bit node IDs,
// [W L452]) or blocks that set different policies.
DependencyGraph build_graph(core::Dim3 grid, const std::function<void(DepLinks&)>& mapping);

// The block at a linear index, and back.
core::Dim3 block_at(core::Dim3 grid, std::uint64_t linear);
std::uint64_t linear_index(core::Dim3 grid, core::Dim3 block);

}  // namespace irr::dats
