// SPDX-License-Identifier: Apache-2.0
// `irrgpu run --workload ht --variant global|delegated`: a fine-grained lock benchmark
// (workloads/locks) with global spin locks or with its critical sections delegated to server
// blocks, functionally or on the timed GPU, checked against the data structure it must leave.
#include <nlohmann/json.hpp>
#include <chrono>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "apps/irrgpu/commands.h"
#include "apps/irrgpu/timed_gpu.h"
#include "sim/config.h"
#include "sim/output_file.h"
#include "workloads/locks/locks.h"

namespace irr::app {

int run_locks(const RunOptions& o) {
  namespace locks = workloads::locks;
  check_mode(o);
  const locks::Benchmark& b = *locks::find(o.workload);
  if (!o.graph.empty() && b.graph.empty())
    throw Error({"--graph", 0, 0}, b.name + " is a lock benchmark: it takes no graph", Error::Kind::usage);
  if (!b.graph.empty() && o.scale != 1)
    throw Error({"--scale", 0, 0}, b.name + " runs on its graph (--graph): it takes no scale", Error::Kind::usage);
  if (!o.timing_from_kernel.empty())
    throw Error({"--timing-from-kernel", 0, 0}, "lock benchmarks are one launch, timed from its start", Error::Kind::usage);
  if (o.scale == 0 || o.scale > 1024)
    throw Error({"--scale", 0, 0}, std::to_string(o.scale) + ": 16,384 items times 1 to 1024", Error::Kind::usage);
  if (o.collisions == 0 || o.collisions > (1u << 24))
    throw Error({"--collisions", 0, 0}, std::to_string(o.collisions) + ": entries to pick from, 1 to 2^24", Error::Kind::usage);
  if (o.servers == 0 || o.servers > 1024)
    throw Error({"--servers", 0, 0}, std::to_string(o.servers) + ": server blocks, 1 to 1024", Error::Kind::usage);
  const std::string variant = o.variant == "data" ? "global" : o.variant;  // "data": --variant not given
  std::string names;
  bool known = false;
  for (const auto& v : locks::variants()) {
    names += (names.empty() ? "" : ", ") + v.first;
    known = known || v.first == variant;
  }
  if (!known)
    throw Error({"--variant", 0, 0}, "'" + variant + "' is not a variant of lock benchmark " + b.name + " (" + names + ")",
                Error::Kind::usage);
  locks::Options opt;
  opt.items = 16384 * o.scale;
  opt.collisions = o.collisions;
  opt.servers = o.servers;
  opt.handoff = o.handoff;
  opt.graph = o.graph.empty() ? b.graph : o.graph;
  {  // the items' keys from sim.seed, in either mode
    sim::Config cfg = load(o.config);
    if (!o.seed.empty()) cfg.set("sim.seed=" + o.seed, {"--seed", 0, 0});
    opt.seed = cfg.get_uint("sim.seed");
  }
  locks::Outcome r;
  const auto t0 = std::chrono::steady_clock::now();
  core::ptx::ExtensionRegistry extensions;
  std::unique_ptr<TimedGpu> timed;
  if (o.mode == "timing") {
    timed = std::make_unique<TimedGpu>(o, extensions);
    std::exception_ptr failure;  // a usage error found on the host thread keeps its exit code
    gpu::Host host("host", [&] {
      try {
        r = b.run(*timed->device, variant, opt);
      } catch (const Error&) {
        failure = std::current_exception();
      }
    });
    timed->sim->run();
    if (failure) std::rethrow_exception(failure);
    if (!host.finished()) throw Error("the host program did not finish");
  } else {
    mem::BackingStore store;
    runtime::Device dev(store, &extensions);
    dev.echo_printf(!o.quiet);
    r = b.run(dev, variant, opt);
  }
  const double host = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  if (!o.quiet) {
    std::cout << b.name << "/" << variant << ": "
              << (opt.graph.empty() ? std::to_string(opt.items) + " items over " + std::to_string(opt.collisions) + " entries"
                                    : "graph " + opt.graph)
              << ", "
              << r.warp_instructions << " warp instructions in " << std::setprecision(3) << host << " s host\n";
    for (const auto& [name, value] : r.counters) std::cout << "  " << name << ": " << value << "\n";
    if (timed) timed->sim->print_summary(std::cout, o.stats_pattern.empty() ? "gpu.total.*" : o.stats_pattern);
  }
  std::cout << (r.error.empty() ? "check: PASS" : "check: FAIL " + r.error) << "\n";
  if (timed && !o.output_dir.empty()) timed->sim->write_outputs(o.output_dir, o.command_line);
  if (!o.output_dir.empty()) {
    std::filesystem::create_directories(o.output_dir);
    nlohmann::json record = {{"workload", b.name}, {"variant", variant}, {"mode", o.mode},
                                   {"items", opt.items}, {"collisions", opt.collisions}, {"servers", opt.servers},
                                   {"kernel_launches", r.launches}, {"warp_instructions", r.warp_instructions},
                                   {"check", r.error.empty() ? "PASS" : "FAIL"}, {"host_seconds", host},
                                   {"command_line", o.command_line}, {"versions", sim::versions()}};
    if (!opt.graph.empty()) record["graph"] = opt.graph;
    for (const auto& [name, value] : r.counters) record["counters"][name] = value;
    sim::write_file((std::filesystem::path(o.output_dir) / "workload.json").string(), record.dump(2) + "\n");
  }
  return r.error.empty() ? 0 : 1;
}

}  // namespace irr::app
