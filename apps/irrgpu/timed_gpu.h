// SPDX-License-Identifier: Apache-2.0
// The timed GPU a host program drives, as `irrgpu run --workload` and `irrgpu exec` set it up: the
// simulation the options ask for, the GPU, the units a workload's variant needs or the
// configuration enables (hwwl.enabled, iru.enabled, dac.enabled, spref.enabled, cae.enabled) with their instructions in `extensions`, and
// the device the host calls. It lives until the statistics are written (formulas read the units).
#pragma once

#include <memory>
#include <string>

#include "apps/irrgpu/commands.h"
#include "models/gpu/dac_gpu.h"
#include "models/gpu/gpu.h"
#include "models/gpu/hwwl_gpu.h"
#include "models/gpu/iru_gpu.h"
#include "models/gpu/spref_gpu.h"
#include "sim/simulation.h"

namespace irr::app {

struct TimedGpu {
  std::unique_ptr<sim::Simulation> sim;
  std::unique_ptr<gpu::Gpu> gpu;
  std::unique_ptr<gpu::HwwlGpu> hwwl;
  std::unique_ptr<gpu::IruGpu> iru;
  std::unique_ptr<gpu::DacGpu> dac;
  std::unique_ptr<runtime::Device> device;

  // `unit`: the unit a workload's variant needs ("" for none).
  TimedGpu(const RunOptions& o, core::ptx::ExtensionRegistry& extensions, const std::string& unit = "") {
    sim = make_simulation(o);
    gpu = std::make_unique<gpu::Gpu>("gpu", *sim);
    if (unit == "hwwl" || sim->config().get_bool("hwwl.enabled")) hwwl = std::make_unique<gpu::HwwlGpu>(*sim, *gpu, extensions);
    if (unit == "iru" || sim->config().get_bool("iru.enabled")) iru = std::make_unique<gpu::IruGpu>(*sim, *gpu, extensions);
    if (unit == "dac" || sim->config().get_bool("dac.enabled")) dac = std::make_unique<gpu::DacGpu>(*sim, *gpu, extensions);
    if (sim->config().get_bool("spref.enabled")) gpu::attach_spref(*sim, *gpu);
    if (sim->config().get_bool("cae.enabled")) gpu::attach_cae(*sim, *gpu);
    check_trace(o, *sim);
    device = std::make_unique<runtime::Device>(gpu->memory(), &extensions);
    if (hwwl) hwwl->serve(*device);
    if (iru) iru->serve(*device);
    device->echo_printf(!o.quiet);
    device->set_backend(gpu.get());
  }
};

}  // namespace irr::app
