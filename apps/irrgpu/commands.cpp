// SPDX-License-Identifier: Apache-2.0
#include "apps/irrgpu/commands.h"

#include <unistd.h>

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <systemc>

#include "apps/irrgpu/area.h"
#include "apps/irrgpu/family.h"
#include "models/core/ptx/parser.h"
#include "models/core/ptx/resources.h"
#include "models/example/pipeline.h"
#include "models/gpu/units.h"
#include "models/mem/memory_system.h"
#include "sim/config.h"
#include "sim/log.h"
#include "sim/probe.h"
#include "sim/simulation.h"
#include "workloads/locks/locks.h"
#include "workloads/suite/suite.h"
#include "workloads/wavefront/wavefront.h"
#include "workloads/workloads.h"

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
  if (top == "example") return std::make_unique<example::Pipeline>("example", sim);
  std::string tops = "memory, example";
  for (const auto& u : gpu::units()) {
    if (!u.testbench) continue;
    if (u.name == top) return u.testbench(sim);
    tops += ", " + u.name;
  }
  throw Error("sim.top: '" + top + "' is not a model or a unit with a testbench (" + tops + ")", Error::Kind::config);
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

void no_probe_matches(const std::string& option, const std::vector<std::string>& patterns, sim::Simulation& sim) {
  std::set<std::string> tops;  // the models elaborated here, by their probes' first name
  for (const sim::Probe* p : sim.probes().select({"*"})) tops.insert(p->name().substr(0, p->name().find('.')) + ".*");
  std::string here;
  for (const auto& t : tops) here += (here.empty() ? "" : ", ") + t;
  throw Error({option, 0, 0},
              "no probe matches " + (patterns.empty() ? std::string("its waveform group") : patterns.front()) +
                  (patterns.size() > 1 ? " ..." : "") + " (the probes here: " + (here.empty() ? "none" : here) +
                  "; another model: -s sim.top=NAME, the timed GPU: --gpu, a unit's: --unit NAME)",
              Error::Kind::usage);
}

void check_trace(const RunOptions& o, sim::Simulation& sim) {
  if (!o.trace.empty() && sim.probes().select(o.trace).empty()) no_probe_matches("--trace", o.trace, sim);
}

void check_mode(const RunOptions& o) {
  if (o.mode != "functional" && o.mode != "timing")
    throw Error({"--mode", 0, 0}, "'" + o.mode + "' is not functional or timing", Error::Kind::usage);
}

int dry_run_done(const std::string& what) {
  std::cout << "irrgpu: dry run: " << what << ": checked, nothing run\n";
  return 0;
}

int list_workloads() {
  for (const auto& w : workloads::workloads()) {
    std::cout << w.name << ": " << w.description << " (check: " << w.tolerance << ")"
              << (w.example_input.empty() ? "" : " [e.g. --graph " + w.example_input + "]") << "\n";
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
  if (!o.workload.empty()) return guarded([&] { return run_workload(o); });  // apps/irrgpu/family.cpp
  return guarded([&] {
    if (!o.timing_from_kernel.empty())
      throw Error({"--timing-from-kernel", 0, 0}, "fast-forward needs --workload", Error::Kind::usage);
    auto owned = make_simulation(o);
    sim::Simulation& sim = *owned;
    auto top = build_top(sim);
    check_trace(o, sim);
    if (o.dry_run) return dry_run_done("sim.top " + sim.config().get_string("sim.top"));
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
    gpu::add_all_instructions(extensions);
    const core::ptx::Module m = core::ptx::parse_file(file, &extensions);
    if (m.version.empty())  // an empty or comment-only file parses to nothing
      throw Error({file, 0, 0}, "not a PTX module: no .version directive", Error::Kind::usage);
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
