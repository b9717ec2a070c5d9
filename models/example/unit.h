// SPDX-License-Identifier: Apache-2.0
// The demonstration unit: what adding a unit takes (docs/adding-a-model.md, "Adding a unit"). A
// pipelined multiply-add beside each SM's lanes, reached by one extension instruction:
//   exmad.u32 d, a, b, c    d = a * b + c in each active lane (modulo 2^32)
// The value is written at issue (the contract's functional effect); the unit decides when the warp
// may go on: each operation completes example_unit.latency core cycles after the unit accepts
// it, and the unit holds example_unit.slots operations at once — a warp that finds every slot taken
// stalls at issue ("unit"). It knows the SM only through the contract (models/core/unit_port.h) and
// is attached by its one line in the unit registry (models/gpu/units.cpp).
#pragma once

#include <deque>

#include "models/core/ptx/parser.h"
#include "models/core/unit_port.h"
#include "sim/clock.h"
#include "sim/simulation.h"

namespace irr::example {

class MadUnit : public core::SmUnit, public sim::Clocked {
 public:
  MadUnit(sim::Simulation& sim, const sc_core::sc_object& sm);
  bool can_accept(const core::UnitOp& op) override;
  void accept(const core::UnitOp& op, core::SmPort& port) override;
  bool tick(sim::Cycle cycle) override;

 private:
  struct Op {
    std::uint64_t token;
    sim::Cycle due;
  };
  sim::ClockScheduler& clock_;
  const sim::Cycle latency_;
  const std::size_t slots_;
  std::deque<Op> ops_;  // in acceptance order, which is completion order (one latency)
  core::SmPort* port_ = nullptr;
  sim::Counter &ops_count_, &full_;
  sim::Probe& in_flight_;
};

// exmad's syntax: a parser knows it; running it needs the unit (example_unit.enabled).
void add_unit_instructions(core::ptx::ExtensionRegistry& registry);
// Gives exmad its semantics and attaches a MadUnit to every SM on route "example_unit".
void attach_unit(sim::Simulation& sim, core::UnitSites& gpu, core::ptx::ExtensionRegistry& registry);

}  // namespace irr::example
