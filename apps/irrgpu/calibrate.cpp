// SPDX-License-Identifier: Apache-2.0
// `irrgpu calibrate`: the calibration microbenchmarks (workloads/micro) on the timed GPU of the
// configuration given, one figure a line; docs/results/calibration.md sets them beside published
// hardware measurements.
#include <iomanip>
#include <iostream>
#include <optional>

#include <nlohmann/json.hpp>

#include "apps/irrgpu/commands.h"
#include "models/gpu/gpu.h"
#include "sim/config.h"
#include "sim/error.h"
#include "sim/output_file.h"
#include "sim/simulation.h"
#include "workloads/micro/micro.h"

namespace irr::app {

int calibrate(const CalibrateOptions& o) {
  return guarded([&] {
    // Bad names and an unwritable --json fail before anything is simulated.
    workloads::micro::check(o.benchmarks);
    std::optional<sim::OutputFile> json;
    if (!o.json.empty()) {
      try {
        json.emplace(o.json, "calibration figures");
      } catch (const Error&) {
        throw Error({"--json", 0, 0}, "cannot write " + o.json, Error::Kind::usage);
      }
    }
    sim::Config cfg = load(o.config);
    cfg.set("log.level=warn", {"irrgpu calibrate", 0, 0});
    sim::Simulation sim(std::move(cfg));
    gpu::Gpu g("gpu", sim);
    runtime::Device dev(g.memory());
    dev.echo_printf(false);
    dev.set_backend(&g);
    if (o.dry_run) return dry_run_done("calibrate");
    std::vector<workloads::micro::Figure> figures;
    gpu::Host host("host", [&] { figures = workloads::micro::run(dev, sim, o.benchmarks); });
    sim.run();
    if (!host.finished()) throw Error("the microbenchmarks did not finish");
    nlohmann::json j = nlohmann::json::object();
    for (const auto& f : figures) {
      std::cout << std::left << std::setw(40) << f.name << std::right << std::setw(12) << std::setprecision(4)
                << f.value << "  " << f.unit << "\n";
      j[f.name] = {{"value", f.value}, {"unit", f.unit}};
    }
    if (json) {
      json->stream() << j.dump(2) << "\n";
      json->commit();
    }
    return 0;
  });
}

}  // namespace irr::app
