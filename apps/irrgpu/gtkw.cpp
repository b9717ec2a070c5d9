// SPDX-License-Identifier: Apache-2.0
// irrgpu gtkw: a GTKWave save file grouping the probes of the model `sim.top` names, or of the
// timed GPU (--gpu: its CTA scheduler, e.g. DATS's buffer, its memory system, and every unit the
// configuration enables); --unit NAME attaches a unit and adds its waveform group (the unit
// registry's, models/gpu/units.cpp).
#include "apps/irrgpu/commands.h"
#include "models/gpu/gpu.h"
#include "models/gpu/units.h"
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
    std::unique_ptr<gpu::AttachedUnits> units;
    std::vector<std::string> patterns = o.trace;
    if (o.gpu || !o.units.empty()) {
      gpu = std::make_unique<gpu::Gpu>("gpu", sim);
      units = std::make_unique<gpu::AttachedUnits>(sim, *gpu, extensions, o.units);
      for (const auto& name : o.units) {
        const auto& waves = gpu::unit(name).waves;
        patterns.insert(patterns.end(), waves.begin(), waves.end());
      }
    } else {
      top = build_top(sim);
    }
    auto probes = sim.probes().select(patterns);
    if (probes.empty()) no_probe_matches(o.units.empty() ? "--trace" : "--unit", patterns, sim);
    sim::write_file(o.output, sim::gtkw_save_file(probes, o.dumpfile), "GTKWave save file");
    return 0;
  });
}

}  // namespace irr::app
