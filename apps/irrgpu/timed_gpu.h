// SPDX-License-Identifier: Apache-2.0
// The timed GPU a host program drives, as every `irrgpu run` family and `irrgpu exec` set it up:
// the simulation the options ask for, the GPU, the units a workload's variant needs or the
// configuration enables (the unit registry, models/gpu/units.h) with their instructions in
// `extensions`, and the device the host calls. It lives until the statistics are written
// (formulas read the units).
#pragma once

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "apps/irrgpu/commands.h"
#include "models/gpu/gpu.h"
#include "models/gpu/units.h"
#include "sim/output_file.h"
#include "sim/simulation.h"

namespace irr::app {

struct TimedGpu {
  std::unique_ptr<sim::Simulation> sim;
  std::unique_ptr<gpu::Gpu> gpu;
  std::unique_ptr<gpu::AttachedUnits> units;
  std::unique_ptr<runtime::Device> device;

  // `unit`: the unit a workload's variant needs ("" for none).
  TimedGpu(const RunOptions& o, core::ptx::ExtensionRegistry& extensions, const std::string& unit = "") {
    sim = make_simulation(o);
    gpu = std::make_unique<gpu::Gpu>("gpu", *sim);
    units = std::make_unique<gpu::AttachedUnits>(*sim, *gpu, extensions,
                                                 unit.empty() ? std::vector<std::string>{} : std::vector<std::string>{unit});
    check_trace(o, *sim);
    device = std::make_unique<runtime::Device>(gpu->memory(), &extensions);
    units->serve(*device);
    device->echo_printf(!o.quiet);
    device->set_backend(gpu.get());
    if (o.profile) gpu->enable_profile();
  }

  // The profile's table (unless quiet) and DIR/profile.json (with an output folder).
  void report_profile(const RunOptions& o) const {
    const core::Profile* p = gpu->profile();
    if (!p) return;
    if (!o.quiet) p->print(std::cout);
    if (!o.output_dir.empty()) {
      std::filesystem::create_directories(o.output_dir);
      sim::write_file((std::filesystem::path(o.output_dir) / "profile.json").string(), p->report().dump(2) + "\n");
    }
  }
};

}  // namespace irr::app
