// SPDX-License-Identifier: Apache-2.0
// Spare-register-aware prefetching (models/spref) attached to the GPU: one prefetcher per SM,
// observing its warps (route "spref"; it has no instructions), and its storage as a statistic.
#pragma once

#include "models/gpu/gpu.h"
#include "sim/simulation.h"

namespace irr::gpu {

// Attaches SPREF to every SM (spref.enabled; docs/memory.md "Spare-register prefetching"); it has
// no instructions.
void attach_spref(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry& registry);

}  // namespace irr::gpu
