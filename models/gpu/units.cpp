// SPDX-License-Identifier: Apache-2.0
#include "models/gpu/units.h"

#include <algorithm>

#include "models/dac/queues.h"
#include "models/example/unit.h"
#include "models/gpu/dac_gpu.h"
#include "models/gpu/dats_scheduler.h"
#include "models/gpu/hwwl_gpu.h"
#include "models/gpu/iru_gpu.h"
#include "models/gpu/spref_gpu.h"
#include "models/hwwl/testbench.h"
#include "models/iru/testbench.h"
#include "sim/error.h"

namespace irr::gpu {
namespace {

// An entry's `attach` for a kept part of type T, built as T(sim, gpu, registry).
template <class T>
std::unique_ptr<Attached> keep(sim::Simulation& sim, Gpu& gpu, core::ptx::ExtensionRegistry& registry) {
  return std::make_unique<T>(sim, gpu, registry);
}

// An entry's `attach` for a unit whose every part the GPU owns (its SmUnits).
template <void (*F)(sim::Simulation&, core::UnitSites&, core::ptx::ExtensionRegistry&)>
std::unique_ptr<Attached> owned(sim::Simulation& sim, Gpu& gpu, core::ptx::ExtensionRegistry& registry) {
  F(sim, gpu, registry);
  return nullptr;
}

template <class T>
std::unique_ptr<sc_core::sc_module> testbench(const char* name, sim::Simulation& sim) {
  return std::make_unique<T>(name, sim);
}

std::vector<Unit> make_units() {
  std::vector<Unit> u;
  // The order is the order of attachment, which fixes the order of the units' steps in a cycle.
  u.push_back({"hwwl", "hardware worklist: per-lane banks, WRU, ICRN, HVU (docs/hwwl.md)", "hwwl.enabled", "true",
               add_hwwl_instructions, keep<HwwlGpu>, {},
               [](sim::Simulation& s) { return testbench<hwwl::Testbench>("hwwl_tb", s); }, {"hwwl.*"},
               "its banks hold work items from one launch to the next, outside device memory"});
  u.push_back({"iru", "irregular-accesses reorder unit beside each L2 slice (docs/iru.md)", "iru.enabled", "true",
               add_iru_instructions, keep<IruGpu>, {},
               [](sim::Simulation& s) { return testbench<iru::Testbench>("iru_tb", s); }, {"iru.*"},
               "each launch consumes the arrays the host configured for it (iru.configure), and a functional run "
               "hands its elements out unreordered"});
  u.push_back({"dac", "decoupled affine computation: expansion units, queues, affine SIMT stack (docs/dac.md)",
               "dac.enabled", "true", dac::add_dac_instructions, keep<DacGpu>, {}, {}, {"gpu.sm*.dac.*"}, ""});
  u.push_back({"spref", "spare-register-aware prefetching (docs/memory.md)", "spref.enabled", "true", {}, owned<attach_spref>,
               {}, {}, {"gpu.sm*.spref*"}, ""});
  u.push_back({"cae", "CAE, DAC's compute-side baseline: an affine unit beside each SM's lanes (docs/dac.md)",
               "cae.enabled", "true", {}, owned<attach_cae>, {}, {}, {"gpu.sm*.cae*"}, ""});
  u.push_back({"dats", "dependency-aware thread-block scheduler and its dependency graph buffer (docs/dats.md)",
               "gpu.cta_scheduler", "dats", {}, {},
               [](sim::Simulation& s, FrontEndPort& front_end) {
                 return std::make_unique<DatsCtaScheduler>("dats", s, front_end);
               },
               {}, {"gpu.dats.*"},
               "a wavefront runs as one launch whose CTAs wait on each other: there is no second launch to charge"});
  u.push_back({"example_unit", "the demonstration unit: a pipelined multiply-add beside each SM (models/example/unit.h)",
               "example_unit.enabled", "true", example::add_unit_instructions, owned<example::attach_unit>, {}, {},
               {"gpu.sm*.example_unit*"}, ""});
  return u;
}

}  // namespace

bool Unit::enabled(const sim::Config& config) const {
  return enable_value == "true" ? config.get_bool(enable_key) : config.get_string(enable_key) == enable_value;
}

const std::vector<Unit>& units() {
  static const std::vector<Unit> all = make_units();
  return all;
}

const Unit& unit(const std::string& name) {
  std::string known;
  for (const auto& u : units()) {
    if (u.name == name) return u;
    known += (known.empty() ? "" : ", ") + u.name;
  }
  throw Error("no unit named '" + name + "' (units: " + known + ")", Error::Kind::usage);
}

const Unit* cta_scheduler_unit(const std::string& name) {
  for (const auto& u : units())
    if (u.cta_scheduler && u.name == name) return &u;
  return nullptr;
}

void add_all_instructions(core::ptx::ExtensionRegistry& registry) {
  for (const auto& u : units())
    if (u.instructions) u.instructions(registry);
}

void check_none_enabled(const sim::Config& config) {
  for (const auto& u : units())
    if (u.enabled(config))
      throw Error({"--mode", 0, 0}, u.enable() + " attaches the " + u.name + " unit to the timed GPU; a functional run has none (--mode timing)",
                  Error::Kind::usage);
}

AttachedUnits::AttachedUnits(sim::Simulation& sim, Gpu& gpu, core::ptx::ExtensionRegistry& registry,
                             const std::vector<std::string>& needed) {
  for (const auto& name : needed) unit(name);  // an unknown name is an error, not nothing attached
  for (const auto& u : units()) {
    // Asked even when needed, so the configuration's key is read (a key set but unread is an error).
    const bool on = u.enabled(sim.config());
    const bool need = std::find(needed.begin(), needed.end(), u.name) != needed.end();
    if (need && !on && !u.attach)
      throw Error("unit " + u.name + " is attached by the configuration: set " + u.enable(), Error::Kind::usage);
    if ((on || need) && !u.unsampled.empty() && sim.config().get_string("sim.sampling") != "off")
      throw Error("sim.sampling " + sim.config().get_string("sim.sampling") + " cannot run with the " + u.name +
                      " unit: " + u.unsampled + " (sim.sampling off times every launch)",
                  Error::Kind::usage);
    if (!(on || need) || !u.attach) continue;
    attached_.emplace_back(u.name, u.attach(sim, gpu, registry));
  }
}

void AttachedUnits::serve(runtime::Device& device) {
  for (auto& [name, a] : attached_)
    if (a) a->serve(device);
}

std::vector<std::string> AttachedUnits::names() const {
  std::vector<std::string> v;
  for (const auto& [n, a] : attached_) v.push_back(n);
  return v;
}

}  // namespace irr::gpu
