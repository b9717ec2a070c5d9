// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/dac_gpu.h"

#include "sim/error.h"

namespace irr::gpu {

dac::UnitConfig dac_config(const sim::Config& config) {
  dac::UnitConfig c;
  const auto warps = static_cast<unsigned>(config.get_uint("core.max_warps"));
  const auto atq = static_cast<unsigned>(config.get_uint("dac.atq_entries"));
  const auto pwaq = static_cast<unsigned>(config.get_uint("dac.pwaq_entries"));
  const auto pwpq = static_cast<unsigned>(config.get_uint("dac.pwpq_entries"));
  // The queues are split evenly among the SM's warp slots [S L691]: each needs at least one entry.
  for (const auto& [key, n] : {std::pair<const char*, unsigned>{"dac.pwaq_entries", pwaq}, {"dac.pwpq_entries", pwpq}})
    if (n < warps)
      throw Error(std::string(key) + " = " + std::to_string(n) + " gives the " + std::to_string(warps) +
                      " warp slots of an SM (core.max_warps) less than one entry each",
                  Error::Kind::config);
  c.expander.atq_entries = atq;
  c.expander.pwaq = dac::PwaqParams{warps, pwaq / warps, static_cast<unsigned>(config.get_uint("dac.pwaq_ports"))};
  c.expander.pwpq_depth = pwpq / warps;
  c.expander.impl = config.get_string("dac.impl");
  c.prefetch = config.get_bool("dac.prefetch");
  c.lock = config.get_bool("dac.lock_lines");
  c.barrier_gating = config.get_bool("dac.barrier_gating");
  c.wls_depth = static_cast<unsigned>(config.get_uint("dac.wls_depth"));
  c.pws_depth = static_cast<unsigned>(config.get_uint("dac.pws_depth"));
  c.stack_overflow_stops = config.get_string("dac.stack_overflow") == "stop";
  return c;
}

DacGpu::DacGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry) {
  dac::bind(registry, queues_);
  registry.at(registry.index_of("deq")).folded = sim.config().get_bool("dac.fold_deq");
  const dac::UnitConfig c = dac_config(sim.config());
  gpu.attach_sm_units("dac", [&](core::Sm& sm) { return std::make_unique<dac::SmUnit>(sim, sm, queues_, c); });
}

void attach_cae(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry&) {
  gpu.attach_sm_units(
      "cae", [&](core::Sm& sm) { return std::make_unique<dac::Cae>(sim, sm); }, true);
}

}  // namespace irr::gpu
