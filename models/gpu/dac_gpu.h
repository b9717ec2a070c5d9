// SPDX-License-Identifier: Apache-2.0
// DAC attached to the GPU (docs/dac.md): enq and deq bound to the reference queues, and a
// dac::SmUnit on every SM on route "dac", each CTA of a split kernel running its affine stream
// in its companion warp (runtime::Device::launch_with_companion). It lives with the GPU's
// assembly (DESIGN.md: units meet only in models/gpu); the unit itself is models/dac.
#pragma once

#include <memory>

#include "models/core/ptx/parser.h"
#include "models/dac/cae.h"
#include "models/dac/queues.h"
#include "models/dac/unit.h"
#include "models/gpu/gpu.h"
#include "models/gpu/units.h"

namespace irr::gpu {

class DacGpu : public Attached {
 public:
  DacGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry);
  dac::Queues& queues() { return queues_; }

 private:
  dac::Queues queues_;
};

// The unit's configuration from the dac.* keys (docs/configuration.md).
dac::UnitConfig dac_config(const sim::Config& config);

// CAE, DAC's compute-side baseline: an affine unit beside each SM's lanes, observing its warps
// (models/dac/cae.h); attached when cae.enabled. It has no instructions.
void attach_cae(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry& registry);

}  // namespace irr::gpu
