// SPDX-License-Identifier: Apache-2.0
// A function's control-flow graph and its post-dominators: reconvergence points for the SIMT
// stack (for each branch, the immediate post-dominator of its basic block, the pre-Volta rule),
// and control dependence for compiler passes over PTX (models/dac). `ret` and `exit` lead to a
// virtual exit node, the last block, starting at code.size().
#pragma once

#include <cstdint>
#include <vector>

#include "models/core/ptx/module.h"

namespace irr::core {

struct Cfg {
  std::vector<std::uint32_t> start;     // first instruction of each block; the last block is the exit
  std::vector<std::uint32_t> block_of;  // per pc (code.size() included: the exit)
  std::vector<std::vector<std::uint32_t>> succ;
  std::vector<std::uint32_t> ipdom;     // per block: immediate post-dominator (exit for the exit and for blocks in endless loops)
  std::uint32_t exit() const { return static_cast<std::uint32_t>(start.size() - 1); }
  std::uint32_t last(std::uint32_t b) const { return start[b + 1] - 1; }  // a block's last instruction
};
Cfg build_cfg(const ptx::Function& f);

// reconvergence[pc] for every branch instruction pc (others: unused); code.size() means the
// function's exit.
std::vector<std::uint32_t> reconvergence_points(const ptx::Function& f);

}  // namespace irr::core
