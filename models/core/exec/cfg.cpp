// SPDX-License-Identifier: Apache-2.0
#include "models/core/exec/cfg.h"

#include <algorithm>

namespace irr::core {

using ptx::Op;

Cfg build_cfg(const ptx::Function& f) {
  const auto n = static_cast<std::uint32_t>(f.code.size());
  Cfg g;
  // Basic blocks: leaders are the entry, branch targets and instructions after a branch/ret/exit.
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (std::uint32_t pc = 0; pc < n; ++pc) {
    const auto& i = f.code[pc];
    if (i.op == Op::bra) leader[i.target] = true;
    if (i.op == Op::bra || i.op == Op::ret || i.op == Op::exit) leader[pc + 1] = true;
  }
  auto& start = g.start;
  auto& block_of = g.block_of;
  block_of.resize(n + 1);
  for (std::uint32_t pc = 0; pc <= n; ++pc) {
    if (leader[pc] || pc == n) start.push_back(pc);
    block_of[pc] = static_cast<std::uint32_t>(start.size() - 1);
  }
  const auto blocks = static_cast<std::uint32_t>(start.size());  // the last one is the exit node
  const std::uint32_t exit = blocks - 1;
  auto& succ = g.succ;
  succ.resize(blocks);
  for (std::uint32_t b = 0; b + 1 < blocks; ++b) {
    const std::uint32_t end = start[b + 1] - 1;  // the block's last instruction
    const auto& i = f.code[end];
    if (i.op == Op::ret || i.op == Op::exit) {
      succ[b].push_back(exit);
      if (i.guarded) succ[b].push_back(block_of[end + 1]);
    } else if (i.op == Op::bra) {
      succ[b].push_back(block_of[i.target]);
      if (i.guarded) succ[b].push_back(block_of[end + 1]);
    } else {
      succ[b].push_back(block_of[end + 1]);
    }
  }
  // Post-dominator sets by iteration (functions are small): pdom(exit) = {exit};
  // pdom(b) = {b} ∪ ∩ pdom(successors).
  std::vector<std::vector<bool>> pdom(blocks, std::vector<bool>(blocks, true));
  pdom[exit].assign(blocks, false);
  pdom[exit][exit] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t b = blocks - 1; b-- > 0;) {
      std::vector<bool> meet(blocks, true);
      if (succ[b].empty()) meet.assign(blocks, false);  // an infinite loop: post-dominated by nothing
      for (std::uint32_t s : succ[b])
        for (std::uint32_t k = 0; k < blocks; ++k) meet[k] = meet[k] && pdom[s][k];
      meet[b] = true;
      if (meet != pdom[b]) {
        pdom[b] = std::move(meet);
        changed = true;
      }
    }
  }
  // The immediate post-dominator: the strict post-dominator that every other one post-dominates
  // (the closest one has the most post-dominators of its own).
  std::vector<std::size_t> size(blocks);
  for (std::uint32_t k = 0; k < blocks; ++k) size[k] = static_cast<std::size_t>(std::count(pdom[k].begin(), pdom[k].end(), true));
  g.ipdom.assign(blocks, exit);
  for (std::uint32_t b = 0; b < exit; ++b) {
    std::size_t best_size = 0;
    for (std::uint32_t k = 0; k < blocks; ++k) {
      if (k == b || !pdom[b][k]) continue;
      if (size[k] > best_size) {
        best_size = size[k];
        g.ipdom[b] = k;
      }
    }
  }
  return g;
}

std::vector<std::uint32_t> reconvergence_points(const ptx::Function& f) {
  const auto n = static_cast<std::uint32_t>(f.code.size());
  const Cfg g = build_cfg(f);
  std::vector<std::uint32_t> rpc(n, n);
  for (std::uint32_t pc = 0; pc < n; ++pc)
    if (f.code[pc].op == Op::bra) rpc[pc] = g.start[g.ipdom[g.block_of[pc]]];
  return rpc;
}

}  // namespace irr::core
