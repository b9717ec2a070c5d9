// SPDX-License-Identifier: Apache-2.0
#include "models/dats/dep_graph.h"

#include <algorithm>
#include <cstring>

#include "sim/error.h"

namespace irr::dats {

core::Dim3 block_at(core::Dim3 grid, std::uint64_t linear) {
  core::Dim3 b;
  b.x = static_cast<std::uint32_t>(linear % grid.x);
  b.y = static_cast<std::uint32_t>(linear / grid.x % grid.y);
  b.z = static_cast<std::uint32_t>(linear / grid.x / grid.y);
  return b;
}

std::uint64_t linear_index(core::Dim3 grid, core::Dim3 b) {
  return b.x + static_cast<std::uint64_t>(grid.x) * (b.y + static_cast<std::uint64_t>(grid.y) * b.z);
}

void DepLinks::add_dependency(core::Dim3 parent) {
  if (parent.x >= grid_.x || parent.y >= grid_.y || parent.z >= grid_.z) return;  // outside the grid
  const std::uint64_t p = linear_index(grid_, parent);
  if (std::find(parents.begin(), parents.end(), p) == parents.end()) parents.push_back(p);
}

void DepLinks::set_policy(Policy p, std::uint32_t b) {
  policy_set = true;
  policy = p;
  bound = b;
}

std::string DependencyGraph::name(std::uint32_t v) const {
  const core::Dim3 b = block_at(grid, block.at(v));
  return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

DependencyGraph build_graph(core::Dim3 grid, const std::function<void(DepLinks&)>& mapping) {
  const std::uint64_t n = grid.count();
  if (n > 65536)
    throw Error("DepLinks: a grid of " + std::to_string(n) +
                " blocks; the dependency graph buffer's node IDs are 16 bits (at most 65,536 blocks)");
  DependencyGraph g;
  g.grid = grid;
  // Parents per block, then children per block (counting sort): O(V + E).
  std::vector<std::uint32_t> parent_start(n + 1, 0), parent_list;
  bool policy_seen = false;
  for (std::uint64_t b = 0; b < n; ++b) {
    DepLinks d(grid, block_at(grid, b));
    mapping(d);
    parent_start[b + 1] = parent_start[b] + static_cast<std::uint32_t>(d.parents.size());
    for (std::uint64_t p : d.parents) parent_list.push_back(static_cast<std::uint32_t>(p));
    if (d.policy_set) {
      if (policy_seen && (d.policy != g.policy || d.bound != g.bound))
        throw Error("DepLinks: blocks set different scheduling policies (SetPolicy must agree)");
      policy_seen = true;
      g.policy = d.policy;
      g.bound = d.bound;
    }
  }
  std::vector<std::uint32_t> child_start(n + 1, 0), child_list(parent_list.size());
  for (std::uint32_t p : parent_list) ++child_start[p + 1];
  for (std::uint64_t b = 0; b < n; ++b) child_start[b + 1] += child_start[b];
  {
    std::vector<std::uint32_t> fill(child_start.begin(), child_start.end() - 1);
    for (std::uint64_t b = 0; b < n; ++b)
      for (std::uint32_t i = parent_start[b]; i < parent_start[b + 1]; ++i)
        child_list[fill[parent_list[i]]++] = static_cast<std::uint32_t>(b);
  }
  // Levels in topological order (Kahn): a root is level 0, a child one past its deepest parent.
  std::vector<std::uint32_t> waiting(n), level(n, 0), order;
  order.reserve(n);
  for (std::uint64_t b = 0; b < n; ++b) {
    waiting[b] = parent_start[b + 1] - parent_start[b];
    if (!waiting[b]) order.push_back(static_cast<std::uint32_t>(b));
  }
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint32_t b = order[i];
    for (std::uint32_t c = child_start[b]; c < child_start[b + 1]; ++c) {
      const std::uint32_t k = child_list[c];
      level[k] = std::max(level[k], level[b] + 1);
      if (--waiting[k] == 0) order.push_back(k);
    }
  }
  if (order.size() < n) {  // a cycle: walk parents among the blocks never freed until one repeats
    std::uint32_t b = 0;
    while (!waiting[b]) ++b;
    std::vector<bool> seen(n, false);
    while (!seen[b]) {
      seen[b] = true;
      for (std::uint32_t i = parent_start[b]; i < parent_start[b + 1]; ++i)
        if (waiting[parent_list[i]]) {
          b = parent_list[i];
          break;
        }
    }
    std::uint32_t other = b;
    for (std::uint32_t i = parent_start[b]; i < parent_start[b + 1]; ++i)
      if (waiting[parent_list[i]]) other = parent_list[i];
    auto name = [&](std::uint32_t x) {
      const core::Dim3 d = block_at(grid, x);
      return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
    };
    throw Error("DepLinks: the dependencies form a cycle: blocks " + name(b) + " and " + name(other) +
                " are on it (block " + name(other) + " is a parent of " + name(b) + ")");
  }
  // Rename level by level (counting sort by level keeps block order inside a level).
  const std::uint32_t levels = n ? *std::max_element(level.begin(), level.end()) + 1 : 0;
  std::vector<std::uint32_t> at_level(levels + 1, 0);
  for (std::uint64_t b = 0; b < n; ++b) ++at_level[level[b] + 1];
  for (std::uint32_t l = 0; l < levels; ++l) at_level[l + 1] += at_level[l];
  g.vid.resize(n);
  g.block.resize(n);
  for (std::uint64_t b = 0; b < n; ++b) {
    g.vid[b] = at_level[level[b]]++;
    g.block[g.vid[b]] = b;
  }
  g.levels = levels;
  g.parents.resize(n);
  g.level.resize(n);
  g.edge_start.assign(n + 1, 0);
  g.edges.reserve(child_list.size());
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint64_t b = g.block[v];
    g.parents[v] = parent_start[b + 1] - parent_start[b];
    g.level[v] = level[b];
    const std::size_t first = g.edges.size();
    for (std::uint32_t c = child_start[b]; c < child_start[b + 1]; ++c) g.edges.push_back(g.vid[child_list[c]]);
    std::sort(g.edges.begin() + static_cast<std::ptrdiff_t>(first), g.edges.end());
    g.edge_start[v + 1] = static_cast<std::uint32_t>(g.edges.size());
  }
  return g;
}

std::vector<std::uint8_t> node_array(const DependencyGraph& g) {
  std::vector<std::uint8_t> out(std::size_t{kNodeEntryBytes} * g.nodes());
  for (std::uint32_t v = 0; v < g.nodes(); ++v) {
    const std::uint32_t ges = g.edge_start[v];
    const auto pc = static_cast<std::uint16_t>(g.parents[v]), lvl = static_cast<std::uint16_t>(g.level[v]);
    std::memcpy(&out[std::size_t{kNodeEntryBytes} * v], &ges, 4);
    std::memcpy(&out[std::size_t{kNodeEntryBytes} * v + 4], &pc, 2);
    std::memcpy(&out[std::size_t{kNodeEntryBytes} * v + 6], &lvl, 2);
  }
  return out;
}

}  // namespace irr::dats
