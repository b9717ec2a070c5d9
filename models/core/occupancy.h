// SPDX-License-Identifier: Apache-2.0
// What an SM can hold and what one CTA of a launch takes from it: the one rule by which the timed
// SM admits CTAs (Sm::fits, Sm::max_resident) and the CUDA runtime's occupancy calls answer, in
// functional mode too (models/cudart/server.cpp), so the two never disagree.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sim/config.h"

namespace irr::core {

// An SM's limits: core.max_ctas, core.max_warps, core.max_threads, core.registers (32-bit) and
// core.shared_memory (bytes).
struct SmCapacity {
  std::uint32_t ctas, warps, threads, registers;
  std::uint64_t shared;
  static SmCapacity from_config(const sim::Config& c) {
    return {static_cast<std::uint32_t>(c.get_uint("core.max_ctas")), static_cast<std::uint32_t>(c.get_uint("core.max_warps")),
            static_cast<std::uint32_t>(c.get_uint("core.max_threads")), static_cast<std::uint32_t>(c.get_uint("core.registers")),
            c.get_size("core.shared_memory")};
  }
};

// One CTA's share: its threads in whole warps of registers, its static and dynamic shared memory;
// a companion warp (LaunchContext::companion) takes a warp's slot, threads and registers too.
struct CtaNeeds {
  std::uint32_t threads, warps, registers;
  std::uint64_t shared;
  CtaNeeds(std::uint64_t block_threads, std::uint32_t registers_per_thread, std::uint64_t shared_bytes,
           bool companion = false, std::uint32_t companion_registers = 0)
      : threads(static_cast<std::uint32_t>(block_threads)),
        warps((threads + 31) / 32),
        registers(registers_per_thread * warps * 32),
        shared(shared_bytes) {
    if (companion) {
      ++warps;
      threads += 32;
      registers += companion_registers * 32;
    }
  }
};

// How many such CTAs an empty SM holds at once (0: not even one).
inline std::uint32_t ctas_per_sm(const SmCapacity& sm, const CtaNeeds& n) {
  std::uint64_t m = std::min({sm.ctas, n.warps ? sm.warps / n.warps : sm.warps, n.threads ? sm.threads / n.threads : sm.threads});
  if (n.registers) m = std::min<std::uint64_t>(m, sm.registers / n.registers);
  if (n.shared) m = std::min<std::uint64_t>(m, sm.shared / n.shared);
  return static_cast<std::uint32_t>(m);
}

}  // namespace irr::core
