// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload dtw|heat2d|hist|int_img|sor|sw`: a wavefront workload (workloads/wavefront)
// in one of its five versions, functionally or on the timed GPU, checked against its CPU reference.
#include <nlohmann/json.hpp>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "apps/irrgpu/commands.h"
#include "apps/irrgpu/timed_gpu.h"
#include "models/gpu/gpu.h"
#include "sim/output_file.h"
#include "sim/simulation.h"
#include "workloads/wavefront/wavefront.h"

namespace irr::app {

int run_wavefront(const RunOptions& o) {
  namespace wf = workloads::wavefront;
  check_mode(o);
  if (!o.graph.empty()) throw Error({"--graph", 0, 0}, o.workload + " is a wavefront workload: it takes --tiles, not a graph", Error::Kind::usage);
  const wf::Workload& w = *wf::find(o.workload);
  const std::string variant = o.variant == "data" ? "global" : o.variant;  // "data": --variant not given
  const wf::Variant& v = wf::variant(variant);
  wf::Shape shape;
  wf::parse_tiles(o.tiles, shape);
  if (o.tile == 0 || o.tile > 32)
    throw Error({"--tile", 0, 0}, std::to_string(o.tile) + " elements per tile side: 1 to 32 (one thread each)", Error::Kind::usage);
  shape.tile = o.tile;
  wf::Result r;
  const auto t0 = std::chrono::steady_clock::now();
  if (o.mode == "timing") {
    // The units the configuration enables attach here as in every other family's timed run.
    core::ptx::ExtensionRegistry extensions;
    TimedGpu timed(o, extensions);
    sim::Simulation& sim = *timed.sim;
    if (v.dependencies && sim.config().get_string("gpu.cta_scheduler") != "dats")
      throw Error({"--variant", 0, 0}, variant + " launches with block dependencies: it needs the dependency-aware CTA "
                                       "scheduler (--set gpu.cta_scheduler=dats)", Error::Kind::usage);
    if (!o.seed.empty()) shape.seed = sim.config().get_uint("sim.seed");
    gpu::Host host("host", [&] { r = w.run(*timed.device, shape, variant); });
    sim.run();
    if (!host.finished()) throw Error("the host program did not finish");
    if (!o.quiet) sim.print_summary(std::cout, o.stats_pattern.empty() ? "gpu.total.*" : o.stats_pattern);
    if (!o.output_dir.empty()) sim.write_outputs(o.output_dir, o.command_line);
  } else {
    if (!o.seed.empty()) {
      std::size_t used = 0;
      try {
        shape.seed = std::stoull(o.seed, &used);
      } catch (const std::exception&) {
      }
      if (used == 0 || used != o.seed.size() || o.seed[0] == '-')
        throw Error({"--seed", 0, 0}, "'" + o.seed + "' is not a non-negative integer", Error::Kind::usage);
    }
    mem::BackingStore store;
    runtime::Device dev(store);
    dev.echo_printf(!o.quiet);
    r = w.run(dev, shape, variant);
  }
  const double host = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (!o.quiet)
    std::cout << w.name << "/" << variant << " on " << shape.tiles_x << " x " << shape.tiles_y << " tiles of " << shape.tile
              << " x " << shape.tile << ": " << r.launches << " kernel launches, " << r.warp_instructions
              << " warp instructions, " << r.thread_instructions << " thread instructions in " << std::setprecision(3)
              << host << " s host\n";
  std::cout << (r.check.empty() ? "check: PASS" : "check: FAIL " + r.check) << "\n";
  if (!o.output_dir.empty()) {
    std::filesystem::create_directories(o.output_dir);
    const nlohmann::json record = {{"workload", w.name}, {"variant", variant}, {"mode", o.mode},
                                   {"tiles_x", shape.tiles_x}, {"tiles_y", shape.tiles_y}, {"tile", shape.tile},
                                   {"blocks", std::uint64_t{shape.tiles_x} * shape.tiles_y},
                                   {"waves", shape.tiles_x + shape.tiles_y - 1}, {"seed", shape.seed},
                                   {"kernel_launches", r.launches}, {"warp_instructions", r.warp_instructions},
                                   {"thread_instructions", r.thread_instructions},
                                   {"check", r.check.empty() ? "PASS" : "FAIL"}, {"host_seconds", host},
                                   {"command_line", o.command_line}, {"versions", sim::versions()}};
    sim::write_file((std::filesystem::path(o.output_dir) / "workload.json").string(), record.dump(2) + "\n");
  }
  return r.check.empty() ? 0 : 1;
}

}  // namespace irr::app
