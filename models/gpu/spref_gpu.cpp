// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/spref_gpu.h"

#include "models/spref/spref.h"

namespace irr::gpu {

void attach_spref(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry&) {
  gpu.attach_sm_units(
      "spref", [&](core::Sm& sm) { return std::make_unique<spref::Spref>(sim, sm); }, true);
  const auto bits = spref::storage_bits(spref::Options::from_config(sim.config()),
                                        static_cast<std::uint32_t>(sim.config().get_uint("core.max_warps")));
  sim.stats().formula("gpu.spref.storage_bytes", "SPREF's storage per SM: tags, MaxReg_s/d, distance counters, shadow iteration counts, AllocatedReg lists (the thesis: 1,365 B)",
                      "bytes", [bits] { return static_cast<double>(bits) / 8; });
}

}  // namespace irr::gpu
