// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/family.h"

#include <chrono>
#include <exception>
#include <filesystem>
#include <iostream>

#include "apps/irrgpu/kernel_stats.h"
#include "apps/irrgpu/timed_gpu.h"
#include "sim/output_file.h"
#include "workloads/locks/locks.h"
#include "workloads/suite/suite.h"
#include "workloads/wavefront/wavefront.h"

namespace irr::app {

const std::vector<Family>& families() {
  static const std::vector<Family> all = {
      {"wavefront", [](const std::string& w) { return workloads::wavefront::find(w) != nullptr; }, prepare_wavefront},
      {"suite", [](const std::string& w) { return workloads::suite::find(w) != nullptr; }, prepare_suite},
      {"locks", [](const std::string& w) { return workloads::locks::find(w) != nullptr; }, prepare_locks},
      {"graph", [](const std::string&) { return true; }, prepare_graph},
  };
  return all;
}

int run_workload(const RunOptions& o) {
  check_mode(o);
  const Family* family = nullptr;
  for (const auto& f : families())
    if (!family && f.owns(o.workload)) family = &f;
  std::unique_ptr<Job> job = family->prepare(o);
  Outcome r;
  const auto t0 = std::chrono::steady_clock::now();
  // The timed GPU and its units live until the statistics are written (formulas read them).
  core::ptx::ExtensionRegistry extensions;
  std::unique_ptr<TimedGpu> timed;
  if (o.mode == "timing") {
    timed = std::make_unique<TimedGpu>(o, extensions, job->unit());
    if (o.dry_run) return dry_run_done(o.workload + "/" + o.variant + " (timing)");
    // An error of the host program keeps its kind (and so its exit code) past the simulation.
    std::exception_ptr failure;
    gpu::Host host("host", [&] {
      try {
        r = job->run(*timed->device, extensions, timed.get());
      } catch (const Error&) {
        failure = std::current_exception();
      }
    });
    timed->sim->run();
    if (failure) std::rethrow_exception(failure);
    if (!host.finished()) throw Error("the host program did not finish");
  } else {
    gpu::check_none_enabled(load(o.config));
    if (o.dry_run) return dry_run_done(o.workload + "/" + o.variant + " (functional)");
    mem::BackingStore store;
    runtime::Device dev(store, &extensions);
    dev.echo_printf(!o.quiet);
    r = job->run(dev, extensions, nullptr);
  }
  const double host = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  job->check(r);
  const std::vector<KernelStats> kernels = timed ? kernel_stats(timed->sim->stats()) : std::vector<KernelStats>{};
  if (!o.quiet) {
    std::cout << job->summary(r, host) << "\n";
    if (timed) {
      print_kernel_table(kernels, std::cout);
      timed->sim->print_summary(std::cout, o.stats_pattern.empty() ? "gpu.total.*" : o.stats_pattern);
    }
  }
  std::cout << (r.check.empty() ? "check: PASS" : "check: FAIL " + r.check) << "\n";
  if (timed) timed->report_profile(o);
  if (timed && !o.output_dir.empty()) {
    timed->sim->write_outputs(o.output_dir, o.command_line);
    write_kernel_stats(kernels, o.output_dir);
  }
  if (!o.output_dir.empty()) {
    std::filesystem::create_directories(o.output_dir);
    job->write(o.output_dir, r);
    // The workload's own record, in both modes (timing runs also write the simulation's files).
    nlohmann::json record = job->record(r, host);
    record.update({{"mode", o.mode}, {"kernel_launches", r.launches}, {"warp_instructions", r.warp_instructions},
                   {"check", r.check.empty() ? "PASS" : "FAIL"}, {"host_seconds", host},
                   {"command_line", o.command_line}, {"versions", sim::versions()}});
    for (const auto& [name, value] : r.counters) record["counters"][name] = value;
    sim::write_file((std::filesystem::path(o.output_dir) / "workload.json").string(), record.dump(2) + "\n");
  }
  return r.check.empty() ? 0 : 1;
}

}  // namespace irr::app
