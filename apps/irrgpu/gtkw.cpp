// SPDX-License-Identifier: Apache-2.0
// irrgpu gtkw: a GTKWave save file grouping the probes of the model `sim.top` names, or of the
// timed GPU (--gpu: its CTA scheduler, e.g. DATS's buffer, its memory system, and the IRU or DAC
// when iru.enabled or dac.enabled).
#include "apps/irrgpu/commands.h"
#include "models/gpu/dac_gpu.h"
#include "models/gpu/gpu.h"
#include "models/gpu/iru_gpu.h"
#include "sim/error.h"
#include "sim/output_file.h"
#include "sim/probe.h"
#include "sim/simulation.h"

namespace irr::app {

int gtkw(const GtkwOptions& o) {
  return guarded([&] {
    sim::Simulation sim(load(o.config));
    std::unique_ptr<sc_core::sc_module> top;
    std::unique_ptr<gpu::Gpu> gpu;
    core::ptx::ExtensionRegistry extensions;
    std::unique_ptr<gpu::IruGpu> iru;
    std::unique_ptr<gpu::DacGpu> dac;
    if (o.gpu) {
      gpu = std::make_unique<gpu::Gpu>("gpu", sim);
      if (sim.config().get_bool("iru.enabled")) iru = std::make_unique<gpu::IruGpu>(sim, *gpu, extensions);
      if (sim.config().get_bool("dac.enabled")) dac = std::make_unique<gpu::DacGpu>(sim, *gpu, extensions);
    } else {
      top = build_top(sim);
    }
    auto probes = sim.probes().select(o.trace);
    if (probes.empty()) throw Error({"--trace", 0, 0}, "no probe matches", Error::Kind::usage);
    sim::write_file(o.output, sim::gtkw_save_file(probes, o.dumpfile), "GTKWave save file");
    return 0;
  });
}

}  // namespace irr::app
