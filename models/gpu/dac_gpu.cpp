// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/dac_gpu.h"

#include <cstring>

#include "models/dac/pwaq.h"
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
  c.expander.rate = static_cast<unsigned>(config.get_uint("dac.aeu_rate"));
  c.expander.gate_per_cta = config.get_string("dac.gate_scope") == "cta";
  c.prefetch = config.get_bool("dac.prefetch");
  c.lock = config.get_bool("dac.lock_lines");
  c.dma = config.get_string("dac.request_path") == "dma";
  c.barrier_gating = config.get_bool("dac.barrier_gating");
  c.wls_depth = static_cast<unsigned>(config.get_uint("dac.wls_depth"));
  c.pws_depth = static_cast<unsigned>(config.get_uint("dac.pws_depth"));
  c.stack_overflow_stops = config.get_string("dac.stack_overflow") == "stop";
  return c;
}

DacGpu::DacGpu(sim::Simulation& sim, gpu::Gpu& gpu, core::ptx::ExtensionRegistry& registry) : registry_(registry) {
  options_.dcrf_entries = static_cast<unsigned>(sim.config().get_uint("dac.dcrf_entries"));  // the rest the dissertation's pass
  dac::bind(registry, queues_);
  registry.at(registry.index_of("deq")).folded = sim.config().get_bool("dac.fold_deq");
  const dac::UnitConfig c = dac_config(sim.config());
  gpu.attach_sm_units("dac", [&](core::Sm& sm) { return std::make_unique<dac::SmUnit>(sim, sm, queues_, c); });
}

core::ptx::Module DacGpu::split_application(const core::ptx::Module& m) {
  core::ptx::Module out = m;
  for (const auto* k : m.kernels()) {
    std::string& note = notes_[k->name];
    if (const std::string why = m.unsupported_from(*k); !why.empty()) {
      note = "dac: not decoupled: not read (" + why + ")";
      continue;
    }
    try {
      dac::Streams s = dac::split(*k, registry_, options_);
      const dac::Summary& sum = s.summary;
      if (!sum.decoupled()) {
        const std::string why = !sum.not_decoupled.empty()
                                    ? sum.not_decoupled.front().why + " (PTX line " + std::to_string(sum.not_decoupled.front().line) + ")"
                                : sum.loads + sum.stores ? "none of its global loads and stores has an affine address"
                                                         : "no ld.global or st.global";
        note = "dac: not decoupled: " + why;
        continue;
      }
      note = "dac: decoupled " + std::to_string(sum.loads_decoupled) + " of " + std::to_string(sum.loads) + " loads, " +
             std::to_string(sum.stores_decoupled) + " of " + std::to_string(sum.stores) + " stores";
      out.functions.push_back(std::move(s.affine));
      out.functions.push_back(std::move(s.non_affine));
      decoupled_.insert(k->name);
    } catch (const std::exception& e) {
      note = std::string("dac: not decoupled: ") + e.what();
    }
  }
  return out;
}

void DacGpu::serve(runtime::Device& device) {
  runtime::Device::ApplicationRewrite r;
  r.module = [this](const core::ptx::Module& m) { return split_application(m); };
  r.launch = [this](runtime::Device& d, std::size_t module, const std::string& kernel, runtime::Dim3 grid,
                    runtime::Dim3 block, const runtime::Args& args,
                    std::uint32_t shared) -> std::optional<runtime::LaunchStats> {
    if (!decoupled_.count(kernel)) return std::nullopt;
    // The PWAQ holds 40-bit byte addresses (dac::kPwaqAddressBits): a launch with a pointer beyond
    // them (managed memory at the host's address) runs as written.
    const auto& values = args.values();
    for (std::size_t i = 0; i < values.size(); ++i) {
      std::uint64_t v = 0;
      if (values[i].size() != 8) continue;
      std::memcpy(&v, values[i].data(), 8);
      if (v >> dac::kPwaqAddressBits) {
        std::string& note = notes_[kernel];
        if (note.find("as written") == std::string::npos)
          note += "; launched as written where an argument is beyond the PWAQ's " + std::to_string(dac::kPwaqAddressBits) +
                  "-bit addresses (parameter " +
                  std::to_string(i) + ")";
        return std::nullopt;
      }
    }
    const runtime::LaunchStats s = d.launch_with_companion(d.kernel(module, dac::non_affine_name(kernel)),
                                                           d.kernel(module, dac::affine_name(kernel)), grid, block, args, shared);
    queues_.check_drained();
    queues_.clear();
    return s;
  };
  r.note = [this](const std::string& kernel) {
    const auto it = notes_.find(kernel);
    return it == notes_.end() ? std::string() : it->second;
  };
  device.set_application_rewrite(std::move(r));
}

void attach_cae(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry&) {
  gpu.attach_sm_units(
      "cae", [&](core::Sm& sm) { return std::make_unique<dac::Cae>(sim, sm); }, true);
}

}  // namespace irr::gpu
