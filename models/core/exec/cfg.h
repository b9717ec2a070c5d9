// SPDX-License-Identifier: Apache-2.0
// Reconvergence points for the SIMT stack: for each branch, the immediate post-dominator of its
// basic block (the pre-Volta rule), from the function's control-flow graph. `ret` and `exit`
// lead to a virtual exit node at index code.size().
#pragma once

#include <cstdint>
#include <vector>

#include "models/core/ptx/module.h"

namespace irr::core {

// reconvergence[pc] for every branch instruction pc (others: unused); code.size() means the
// function's exit.
std::vector<std::uint32_t> reconvergence_points(const ptx::Function& f);

}  // namespace irr::core
