// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload vecadd|saxpy|…`: a suite kernel (workloads/suite) as written (variant
// original) or split by the DAC pass (variant dac), functionally or on the timed GPU — where the
// dac variant runs each CTA's affine stream in its companion warp with DAC in every SM
// (docs/dac.md) — checked against its CPU reference.
#include <nlohmann/json.hpp>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "apps/irrgpu/commands.h"
#include "apps/irrgpu/timed_gpu.h"
#include "sim/output_file.h"
#include "workloads/suite/suite.h"

namespace irr::app {

int run_suite(const RunOptions& o) {
  namespace suite = workloads::suite;
  check_mode(o);
  if (!o.graph.empty()) throw Error({"--graph", 0, 0}, o.workload + " is a suite kernel: it takes no graph", Error::Kind::usage);
  if (!o.timing_from_kernel.empty())
    throw Error({"--timing-from-kernel", 0, 0}, "suite kernels run timed from their first launch", Error::Kind::usage);
  const suite::Kernel& k = suite::kernel(o.workload);
  if (o.scale == 0 || o.scale > 4096)
    throw Error({"--scale", 0, 0}, std::to_string(o.scale) + ": an input size multiplier from 1 to 4096", Error::Kind::usage);
  const std::string variant = o.variant == "data" ? "original" : o.variant;  // "data": --variant not given
  if (variant != "original" && variant != "dac")
    throw Error({"--variant", 0, 0}, "'" + variant + "' is not a variant of suite kernel " + k.name + " (original, dac)",
                Error::Kind::usage);
  const bool split = variant == "dac";
  suite::Outcome r;
  std::uint64_t launches = 0, warp_instructions = 0;
  const auto t0 = std::chrono::steady_clock::now();
  core::ptx::ExtensionRegistry extensions;
  std::unique_ptr<TimedGpu> timed;
  if (o.mode == "timing") {
    timed = std::make_unique<TimedGpu>(o, extensions, split ? "dac" : "");
    dac::Queues* queues = split ? &timed->dac->queues() : nullptr;
    gpu::Host host("host", [&] {
      dac::Options options;  // the DCRF's size is the hardware's; the rest the dissertation's pass
      options.dcrf_entries = static_cast<unsigned>(timed->sim->config().get_uint("dac.dcrf_entries"));
      suite::Launcher l(*timed->device, split ? &extensions : nullptr, queues, options, true);
      l.scale = o.scale;
      r = k.run(l);
      launches = l.launches;
      warp_instructions = l.warp_instructions;
    });
    timed->sim->run();
    if (!host.finished()) throw Error("the host program did not finish");
  } else {
    dac::Queues queues;
    if (split) dac::bind(extensions, queues);
    mem::BackingStore store;
    runtime::Device dev(store, &extensions);
    dev.echo_printf(!o.quiet);
    suite::Launcher l(dev, split ? &extensions : nullptr, split ? &queues : nullptr, {}, true);
    l.scale = o.scale;
    r = k.run(l);
    launches = l.launches;
    warp_instructions = l.warp_instructions;
  }
  const double host = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (!o.quiet) {
    std::cout << k.name << "/" << variant << ": " << launches << " kernel launches, " << warp_instructions
              << " warp instructions in " << std::setprecision(3) << host << " s host\n";
    if (timed) timed->sim->print_summary(std::cout, o.stats_pattern.empty() ? "gpu.total.*" : o.stats_pattern);
  }
  std::cout << (r.error.empty() ? "check: PASS" : "check: FAIL " + r.error) << "\n";
  if (timed && !o.output_dir.empty()) timed->sim->write_outputs(o.output_dir, o.command_line);
  if (!o.output_dir.empty()) {
    std::filesystem::create_directories(o.output_dir);
    const nlohmann::json record = {{"workload", k.name}, {"variant", variant}, {"mode", o.mode},
                                   {"scale", o.scale}, {"kernel_launches", launches}, {"warp_instructions", warp_instructions},
                                   {"check", r.error.empty() ? "PASS" : "FAIL"}, {"host_seconds", host},
                                   {"command_line", o.command_line}, {"versions", sim::versions()}};
    sim::write_file((std::filesystem::path(o.output_dir) / "workload.json").string(), record.dump(2) + "\n");
  }
  return r.error.empty() ? 0 : 1;
}

}  // namespace irr::app
