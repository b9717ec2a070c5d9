// SPDX-License-Identifier: Apache-2.0
// DAC attached to the GPU (docs/dac.md): enq and deq bound to the reference queues, and a
// dac::SmUnit on every SM on route "dac", each CTA of a split kernel running its affine stream
// in its companion warp (runtime::Device::launch_with_companion). It lives with the GPU's
// assembly (DESIGN.md: units meet only in models/gpu); the unit itself is models/dac.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>

#include "models/core/ptx/parser.h"
#include "models/dac/cae.h"
#include "models/dac/queues.h"
#include "models/dac/split.h"
#include "models/dac/unit.h"
#include "models/gpu/gpu.h"
#include "models/gpu/units.h"

namespace irr::gpu {

class DacGpu : public Attached {
 public:
  DacGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry);
  dac::Queues& queues() { return queues_; }
  // The decoupling pass's options for this hardware (the DCRF's size from dac.dcrf_entries).
  const dac::Options& pass_options() const { return options_; }
  // An unmodified application's kernels (irrgpu exec) split by the decoupling pass as their module
  // loads, each decoupled kernel launched with its affine stream in every CTA's companion warp;
  // a kernel the pass cannot decouple runs as written, the reason in its note.
  void serve(runtime::Device& device) override;

 private:
  core::ptx::Module split_application(const core::ptx::Module& m);

  dac::Queues queues_;
  const core::ptx::ExtensionRegistry& registry_;
  dac::Options options_;
  std::map<std::string, std::string> notes_;  // per application kernel: what the pass did
  std::set<std::string> decoupled_;           // application kernels launched split
};

// The unit's configuration from the dac.* keys (docs/configuration.md).
dac::UnitConfig dac_config(const sim::Config& config);

// CAE, DAC's compute-side baseline: an affine unit beside each SM's lanes, observing its warps
// (models/dac/cae.h); attached when cae.enabled. It has no instructions.
void attach_cae(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry& registry);

}  // namespace irr::gpu
