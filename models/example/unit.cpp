// SPDX-License-Identifier: Apache-2.0
#include "models/example/unit.h"

#include <stdexcept>

#include "models/core/sm.h"

namespace irr::example {

MadUnit::MadUnit(sim::Simulation& sim, const sc_core::sc_object& sm)
    : clock_(sim.clock("core")),
      latency_(sim.config().get_uint("example_unit.latency")),
      slots_(sim.config().get_uint("example_unit.slots")),
      ops_count_(sim.counter(sm, "example_unit.ops", "exmad warp operations the unit completed", "operations")),
      full_(sim.counter(sm, "example_unit.full", "issue attempts refused: every slot held an operation", "attempts")),
      in_flight_(sim.probe(sm, "example_unit.in_flight", sim::bits_for(slots_), "operations the unit holds")) {
  clock_.add(*this);
}

bool MadUnit::can_accept(const core::UnitOp&) {
  if (ops_.size() < slots_) return true;
  ++full_;
  return false;
}

void MadUnit::accept(const core::UnitOp& op, core::SmPort& port) {
  port_ = &port;
  ops_.push_back({op.token, clock_.now_cycle() + latency_});
  in_flight_.set(ops_.size());
  wake();
}

bool MadUnit::tick(sim::Cycle cycle) {
  while (!ops_.empty() && ops_.front().due <= cycle) {
    port_->complete(ops_.front().token);
    ops_.pop_front();
    ++ops_count_;
  }
  in_flight_.set(ops_.size());
  // Nothing changes before the oldest operation is due.
  return !ops_.empty() && idle_until(cycle, ops_.front().due);
}

void add_unit_instructions(core::ptx::ExtensionRegistry& registry) {
  if (registry.find("exmad")) return;
  core::ptx::Extension e;
  e.name = "exmad";
  e.unit = "example_unit";
  e.route = "example_unit";
  e.enable = "example_unit.enabled: true, timing mode";
  e.decode = [](core::ptx::Instruction& i, const std::vector<std::string>& modifiers) {
    if (modifiers != std::vector<std::string>{"u32"}) throw std::invalid_argument("exmad takes .u32");
    if (i.ops.size() != 4) throw std::invalid_argument("exmad takes four operands: d, a, b, c");
    i.type = core::ptx::Type::u32;
  };
  registry.add(e);
}

void attach_unit(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry& registry) {
  add_unit_instructions(registry);
  registry.at(registry.index_of("exmad")).execute = [](core::ptx::ExtensionCall& c) {
    for (unsigned l = 0; l < 32; ++l)
      if (c.active() >> l & 1) c.write(0, l, (c.read(1, l) * c.read(2, l) + c.read(3, l)) & 0xffffffffu);
  };
  gpu.attach_sm_units("example_unit", [&sim](core::Sm& sm) -> std::unique_ptr<core::SmUnit> {
    return std::make_unique<MadUnit>(sim, sm);
  });
}

}  // namespace irr::example
