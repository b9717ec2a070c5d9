// SPDX-License-Identifier: Apache-2.0
// The HWWL unit testbench (`sim.top: hwwl`, keys hwwl.testbench.*): cores x lanes of threads
// process a binary tree of work IDs through the unit — a thread pulls from its lane's bank,
// works for a random number of cycles, then pushes the ID's children (2i+1, 2i+2) to the same
// bank, one per cycle its port is free — with a fixed-latency memory behind the HVUs. When every
// lane has pulled DONE the kernel ends; if work remains the next one starts (with double-buffer
// banks, one tree level per kernel). Each ID must be pulled exactly once: anything else fails the
// run. It drives the unit as the GPU's wlpull/wlpush will, so a designer can study the unit alone.
#pragma once

#include <memory>
#include <random>
#include <vector>

#include "models/hwwl/fixed_latency_memory.h"
#include "models/hwwl/hwwl_unit.h"

namespace irr::hwwl {

class Testbench : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding {
 public:
  Testbench(const sc_core::sc_module_name& name, sim::Simulation& sim);
  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;
  const HwwlUnit& unit() const { return *unit_; }
  bool finished() const { return finished_; }

 private:
  enum class State { pull, work, push, done };
  struct Lane {
    State state = State::pull;
    std::uint32_t id = 0;
    sim::Cycle until = 0;
    std::vector<std::uint32_t> children;
  };
  void step_lane(std::uint32_t core, std::uint32_t lane, sim::Cycle c);

  const std::uint32_t cores_, lanes_;
  const std::uint64_t work_ids_, work_cycles_;
  std::mt19937_64 rng_;
  FixedLatencyMemory memory_;
  std::unique_ptr<HwwlUnit> unit_;  // created after the testbench joins the clock: its tick follows the lanes'
  std::vector<Lane> lanes_state_;
  std::vector<bool> pulled_;
  std::uint64_t pulled_count_ = 0;
  bool finished_ = false;
  sim::Counter &processed_, &kernels_;
};

}  // namespace irr::hwwl
