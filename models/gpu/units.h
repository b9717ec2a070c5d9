// SPDX-License-Identifier: Apache-2.0
// The unit registry: one entry per unit, and everything that attaches it found there — its
// configuration section and the key that enables it, its extension instructions, what it attaches
// to a timed GPU (SM units, partition units, a CTA scheduler), its standalone testbench top and its
// waveform group. `irrgpu run` (every workload family), `exec`, `gtkw`, `ptx check` and the tests
// take units only from here (docs/adding-a-model.md, "Adding a unit").
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/core/ptx/parser.h"
#include "models/gpu/gpu.h"

namespace irr::gpu {

// What a timed run keeps of an attached unit beyond what the GPU owns (its SmUnits), alive until
// the statistics are written (formulas may read it).
class Attached {
 public:
  virtual ~Attached() = default;
  // Registers the unit's host queries and commands with the runtime (Device::set_query/set_command).
  virtual void serve(runtime::Device& /*device*/) {}
};

using AttachFn = std::function<std::unique_ptr<Attached>(sim::Simulation&, Gpu&, core::ptx::ExtensionRegistry&)>;

struct Unit {
  std::string name;         // its configuration section
  std::string description;
  // How the configuration attaches it to every timed run, `key: value`: a bool key set true
  // (hwwl.enabled: true) or a string key naming it (gpu.cta_scheduler: dats).
  std::string enable_key, enable_value;
  bool enabled(const sim::Config& config) const;  // reads the key
  std::string enable() const { return enable_key + ": " + enable_value; }
  // Its instructions' syntax (a parser knows them; running one needs the unit); empty when it has none.
  std::function<void(core::ptx::ExtensionRegistry&)> instructions;
  // Attaches it to the GPU (SM units, partition units) and gives its instructions their
  // semantics; empty for a unit the GPU assembles itself (a CTA scheduler).
  AttachFn attach;
  // The CTA scheduler it is (gpu.cta_scheduler names it), made after the SMs; `front_end` is the
  // scheduler's path to memory.
  std::function<std::unique_ptr<CtaScheduler>(sim::Simulation&, FrontEndPort& front_end)> cta_scheduler;
  // Its standalone testbench, run when sim.top names the unit; empty when it has none.
  std::function<std::unique_ptr<sc_core::sc_module>(sim::Simulation&)> testbench;
  // Its probes on the timed GPU (patterns, as gtkw --trace takes them): its waveform group.
  std::vector<std::string> waves;
  // Why a sampled run (sim.sampling) cannot have it — state outside device memory that a sampled
  // launch's functional run would change and its undo not restore, or nothing to sample; empty: it can.
  std::string unsampled;
};

// Every unit, in the order a run attaches them.
const std::vector<Unit>& units();
// The unit named `name`; an irr::Error naming the known ones otherwise.
const Unit& unit(const std::string& name);
// The unit whose CTA scheduler gpu.cta_scheduler names; nullptr for the baseline (round_robin).
const Unit* cta_scheduler_unit(const std::string& name);
// Every unit's instructions, in registry order: what a parser of any program knows.
void add_all_instructions(core::ptx::ExtensionRegistry& registry);
// For a run without the timed GPU (functional mode): a unit the configuration enables would not
// be there, so it is a usage error saying so (how it is enabled, and that it needs --mode timing).
void check_none_enabled(const sim::Config& config);

// The units one timed run attached: those `needed` (a workload variant's unit) and every unit its
// configuration enables, each once, in registry order. A needed unit that only the configuration
// can attach (a CTA scheduler) and that it does not is an irr::Error saying how to enable it.
class AttachedUnits {
 public:
  AttachedUnits(sim::Simulation& sim, Gpu& gpu, core::ptx::ExtensionRegistry& registry,
                const std::vector<std::string>& needed = {});
  void serve(runtime::Device& device);
  std::vector<std::string> names() const;
  // The unit's kept part as its type (DacGpu for "dac"); an std::logic_error when it is not attached.
  template <class T>
  T& get(const std::string& name) {
    for (auto& [n, a] : attached_)
      if (n == name)
        if (auto* t = dynamic_cast<T*>(a.get())) return *t;
    throw std::logic_error("unit " + name + " is not attached to this run");
  }

 private:
  std::vector<std::pair<std::string, std::unique_ptr<Attached>>> attached_;
};

}  // namespace irr::gpu
