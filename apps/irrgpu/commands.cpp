// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/commands.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <systemc>

#include "apps/irrgpu/area.h"
#include "apps/irrgpu/timed_gpu.h"
#include "models/core/ptx/parser.h"
#include "models/core/ptx/resources.h"
#include "workloads/locks/locks.h"
#include "workloads/wavefront/wavefront.h"
#include "models/dac/queues.h"
#include "workloads/suite/suite.h"
#include "workloads/workloads.h"
#include "models/example/pipeline.h"
#include "models/gpu/gpu.h"
#include "models/gpu/hwwl_gpu.h"
#include "models/gpu/iru_gpu.h"
#include "models/hwwl/testbench.h"
#include "models/iru/testbench.h"
#include "models/mem/memory_system.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/output_file.h"
#include "sim/simulation.h"

namespace irr::app {
namespace {

int report(const std::exception& e, int code) {
  std::cerr << "irrgpu: error: " << e.what() << "\n";
  return code;
}

}  // namespace

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    return report(e, e.exit_code());
  } catch (const sc_core::sc_report& r) {
    std::cerr << "irrgpu: error: " << sim::describe(r) << "\n";
    return 1;
  } catch (const std::logic_error& e) {
    std::cerr << "irrgpu: internal error (please report): " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    return report(e, 1);
  }
}

sim::Config load(const ConfigOptions& o) {
  sim::Config cfg(sim::Schema::builtin());
  if (o.configs.empty()) cfg.load("gtx480");
  for (const auto& c : o.configs) cfg.load(c);
  for (std::size_t i = 0; i < o.sets.size(); ++i) cfg.set(o.sets[i], {"--set #" + std::to_string(i + 1), 0, 0});
  return cfg;
}

std::unique_ptr<sc_core::sc_module> build_top(sim::Simulation& sim) {
  const std::string top = sim.config().get_string("sim.top");
  if (top == "memory") return std::make_unique<mem::MemorySystem>("memory", sim);
  if (top == "hwwl") return std::make_unique<hwwl::Testbench>("hwwl_tb", sim);
  if (top == "iru") return std::make_unique<iru::Testbench>("iru_tb", sim);
  return std::make_unique<example::Pipeline>("example", sim);
}

std::unique_ptr<sim::Simulation> make_simulation(const RunOptions& o) {
  sim::Config cfg = load(o.config);
  if (!o.seed.empty()) cfg.set("sim.seed=" + o.seed, {"--seed", 0, 0});
  if (!o.sample_every.empty()) cfg.set("stats.sample_every=" + o.sample_every, {"--sample-every", 0, 0});
  if (!o.timing_from_kernel.empty())
    cfg.set("gpu.timing_from_kernel=" + o.timing_from_kernel, {"--timing-from-kernel", 0, 0});
  auto sim = std::make_unique<sim::Simulation>(std::move(cfg), o.log_file);
  if (o.quiet) sim->logging().add_level("*", "warn");
  for (const auto& spec : o.log_levels) {
    try {
      sim->logging().add_level(spec);
    } catch (const std::invalid_argument& e) {
      throw Error({"--log", 0, 0}, e.what(), Error::Kind::usage);
    }
  }
  sim::ObserveOptions observe;
  observe.vcd = o.vcd;
  observe.fst = o.fst;
  observe.trace = o.trace;
  observe.txn_trace = o.txn_trace;
  observe.txn_trace_limit = o.txn_trace_limit;
  if (!o.quiet && (o.progress || isatty(STDERR_FILENO))) observe.progress = &std::cerr;
  sim->observe(observe);
  if (!o.output_dir.empty()) sim->write_outputs_on_interrupt(o.output_dir, o.command_line);
  return sim;
}

void check_trace(const RunOptions& o, sim::Simulation& sim) {
  if (!o.trace.empty() && sim.probes().select(o.trace).empty())
    throw Error({"--trace", 0, 0}, "no probe matches " + o.trace.front() + (o.trace.size() > 1 ? " ..." : ""),
                Error::Kind::usage);
}

namespace {

int run_workload(const RunOptions& o) {
  check_mode(o);
  if (o.mode == "functional" && !o.timing_from_kernel.empty())
    throw Error({"--timing-from-kernel", 0, 0}, "fast-forward needs --mode timing", Error::Kind::usage);
  if (o.graph.empty()) throw Error({"--graph", 0, 0}, "a workload needs --graph FILE|GENERATOR", Error::Kind::usage);
  const workloads::Workload& w = workloads::workload(o.workload);
  std::string names, unit;
  bool known = false;
  for (const auto& v : w.variants) {
    names += (names.empty() ? "" : ", ") + v.name;
    if (v.name == o.variant) {
      known = true;
      unit = v.unit;
    }
  }
  if (!known) throw Error({"--variant", 0, 0}, "'" + o.variant + "' is not a variant of " + w.name + " (" + names + ")", Error::Kind::usage);
  const workloads::Graph g = workloads::load_graph(o.graph);
  std::uint32_t source = 0;
  if (o.source >= 0) {
    source = static_cast<std::uint32_t>(o.source);
  } else {  // as Graph500 does, start from a vertex that has edges
    while (source + 1 < g.n && g.degree(source) == 0) ++source;
  }
  workloads::Result r;
  const auto t0 = std::chrono::steady_clock::now();
  // The timed GPU and its units live until the statistics are written (formulas read them).
  core::ptx::ExtensionRegistry extensions;
  std::unique_ptr<TimedGpu> timed_gpu;
  sim::Simulation* timed = nullptr;
  if (o.mode == "timing") {
    // The GPU model; the workload's host driver runs as a SystemC thread on it.
    timed_gpu = std::make_unique<TimedGpu>(o, extensions, unit);
    timed = timed_gpu->sim.get();
    gpu::Host host("host", [&] { r = w.run(*timed_gpu->device, g, source, o.variant); });
    timed->run();
    if (!host.finished()) throw Error("the host program did not finish");
  } else {
    if (!unit.empty())
      throw Error({"--variant", 0, 0}, o.variant + " needs the " + unit + " unit, which runs in timing mode (--mode timing)",
                  Error::Kind::usage);
    mem::BackingStore store;
    runtime::Device dev(store);
    dev.echo_printf(!o.quiet);
    r = w.run(dev, g, source, o.variant);
  }
  const double host = std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  const std::string diff = w.check(r.values, w.reference(g, source));
  if (!o.quiet) {
    std::cout << w.name << "/" << o.variant << " on " << g.name << " (" << g.n << " vertices, " << g.edges() << " edges): "
              << r.launches << " kernel launches, " << r.warp_instructions << " warp instructions, " << r.thread_instructions
              << " thread instructions in " << std::setprecision(3) << host << " s host: "
              << static_cast<double>(r.warp_instructions) / host / 1e6 << " M warp, "
              << static_cast<double>(r.thread_instructions) / host / 1e6 << " M thread instructions/s\n";
  }
  if (timed && !o.quiet) timed->print_summary(std::cout, o.stats_pattern.empty() ? "gpu.total.*" : o.stats_pattern);
  std::cout << (diff.empty() ? "check: PASS" : "check: FAIL " + diff) << "\n";
  if (timed && !o.output_dir.empty()) timed->write_outputs(o.output_dir, o.command_line);
  if (!o.output_dir.empty()) {
    std::filesystem::create_directories(o.output_dir);
    std::ostringstream res;
    for (std::size_t v = 0; v < r.values.size(); ++v) {
      res << v << " ";
      if (std::isinf(r.values[v])) res << "inf";
      else res << std::setprecision(9) << r.values[v];
      res << "\n";
    }
    sim::write_file((std::filesystem::path(o.output_dir) / "result.txt").string(), res.str());
    // The workload's own record, in both modes (timing runs also write the simulation's files).
    std::uint32_t max_degree = 0;  // a graph kernel's critical path is often the largest vertex's edge walk
    for (std::uint32_t v = 0; v < g.n; ++v) max_degree = std::max(max_degree, g.degree(v));
    nlohmann::json record = {{"workload", w.name}, {"variant", o.variant}, {"mode", o.mode}, {"graph", g.name},
                                   {"vertices", g.n}, {"edges", g.edges()}, {"max_degree", max_degree}, {"source", source},
                                   {"kernel_launches", r.launches}, {"warp_instructions", r.warp_instructions},
                                   {"thread_instructions", r.thread_instructions},
                                   {"check", diff.empty() ? "PASS" : "FAIL"}, {"host_seconds", host},
                                   {"warp_instructions_per_second", static_cast<double>(r.warp_instructions) / host},
                                   {"thread_instructions_per_second", static_cast<double>(r.thread_instructions) / host},
                                   {"command_line", o.command_line}, {"versions", sim::versions()}};
    for (const auto& [name, value] : r.counters) record["counters"][name] = value;
    sim::write_file((std::filesystem::path(o.output_dir) / "workload.json").string(), record.dump(2) + "\n");
  }
  return diff.empty() ? 0 : 1;
}

}  // namespace

void check_mode(const RunOptions& o) {
  if (o.mode != "functional" && o.mode != "timing")
    throw Error({"--mode", 0, 0}, "'" + o.mode + "' is not functional or timing", Error::Kind::usage);
}

int list_workloads() {
  for (const auto& w : workloads::workloads()) {
    std::cout << w.name << ": " << w.description << " (check: " << w.tolerance << ")\n";
    for (const auto& v : w.variants) std::cout << "  " << v.name << ": " << v.description << "\n";
  }
  std::cout << "\nwavefront workloads (--tiles WxH --tile T; docs/dats.md), each in every variant:\n";
  for (const auto& w : workloads::wavefront::workloads())
    std::cout << w.name << ": " << w.description << " (check: " << w.tolerance << ")\n";
  for (const auto& v : workloads::wavefront::variants())
    std::cout << "  " << v.name << ": " << v.description << (v.dependencies ? " [timed: gpu.cta_scheduler dats]" : "") << "\n";
  std::cout << "\nsuite kernels (docs/dac.md), variants original and dac (split by the DAC pass; timed: DAC in every SM):\n";
  for (const auto& k : workloads::suite::kernels()) std::cout << k.name << ": " << k.description << " [" << k.access << "]\n";
  std::cout << "\nlock benchmarks (--collisions N --servers N --scale K, or --graph G; docs/workloads.md), each in every variant:\n";
  for (const auto& b : workloads::locks::benchmarks()) std::cout << b.name << ": " << b.description << "\n";
  for (const auto& [name, description] : workloads::locks::variants()) std::cout << "  " << name << ": " << description << "\n";
  return 0;
}

int run(const RunOptions& o) {
  if (workloads::wavefront::find(o.workload)) return guarded([&] { return run_wavefront(o); });
  if (workloads::suite::find(o.workload)) return guarded([&] { return run_suite(o); });
  if (workloads::locks::find(o.workload)) return guarded([&] { return run_locks(o); });
  if (!o.workload.empty()) return guarded([&] { return run_workload(o); });
  return guarded([&] {
    if (!o.timing_from_kernel.empty())
      throw Error({"--timing-from-kernel", 0, 0}, "fast-forward needs --workload", Error::Kind::usage);
    auto owned = make_simulation(o);
    sim::Simulation& sim = *owned;
    auto top = build_top(sim);
    check_trace(o, sim);
    sim.run();
    if (!o.output_dir.empty()) sim.write_outputs(o.output_dir, o.command_line);
    if (!o.quiet) sim.print_summary(std::cout, o.stats_pattern);
    return 0;
  });
}

int config_show(const ConfigOptions& o, bool origins) {
  return guarded([&] {
    std::cout << load(o).to_yaml(origins);
    return 0;
  });
}

int config_check(const std::string& file, const ConfigOptions& o) {
  return guarded([&] {
    ConfigOptions with_file = o;
    with_file.configs.insert(with_file.configs.begin(), file);
    load(with_file);
    std::cout << file << ": ok\n";
    return 0;
  });
}

int config_doc() {
  return guarded([] {
    std::cout << sim::configuration_reference();
    return 0;
  });
}

int run_area(const AreaOptions& o) {
  return guarded([&] { return area(o); });
}

int ptx_check(const std::string& file, const ConfigOptions& config) {
  return guarded([&] {
    sim::Config cfg = load(config);
    std::map<std::string, unsigned> regs;
    for (const auto& [kernel, n] : cfg.get_map("core.kernel_registers")) regs[kernel] = static_cast<unsigned>(std::stoul(n));
    // Every unit's instructions are known to the check (their syntax; running them needs the unit).
    core::ptx::ExtensionRegistry extensions;
    gpu::add_hwwl_instructions(extensions);
    gpu::add_iru_instructions(extensions);
    dac::add_dac_instructions(extensions);
    const core::ptx::Module m = core::ptx::parse_file(file, &extensions);
    const auto kernels = m.kernels();
    std::cout << file << ": ok (PTX " << m.version << ", " << m.target << "), " << kernels.size() << " kernel"
              << (kernels.size() == 1 ? "" : "s") << ", " << m.functions.size() - kernels.size() << " other function"
              << (m.functions.size() - kernels.size() == 1 ? "" : "s") << "\n";
    for (const auto* k : kernels) {
      std::cout << "  " << k->name << "(";
      for (std::size_t i = 0; i < k->params.size(); ++i)
        std::cout << (i ? ", " : "") << "." << core::ptx::type_name(k->params[i].type) << " " << k->params[i].name;
      const core::ptx::Resources res = core::ptx::kernel_resources(m, *k, regs);
      std::cout << ")\n    " << k->code.size() << " instructions; " << res.registers << " registers (" << res.source
                << "); shared " << res.shared_bytes << " B; local " << res.local_bytes << " B; params " << k->param_bytes
                << " B\n";
    }
    return 0;
  });
}

int version() {
  std::cout << sim::version_string() << "\n";
  return 0;
}

}  // namespace irr::app
