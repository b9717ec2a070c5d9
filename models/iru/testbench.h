// SPDX-License-Identifier: Apache-2.0
// The IRU unit testbench (`sim.top: iru`, keys iru.testbench.*): warps ask the IRU alone for the
// elements of an indices array, as the SMs' ldiru do, with a fixed-latency memory behind its
// prefetchers (a line's home partition by 256-byte interleaving, as the GPU's address map). When
// every thread has asked, the kernel ends and the IRU checks that each element was delivered or
// merged exactly once. Tests give it their own arrays and request times (Stimulus).
#pragma once

#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/iru/iru.h"

namespace irr::iru {

class Testbench : public sc_core::sc_module, public sim::Clocked, public sim::Outstanding, public Memory {
 public:
  struct Stimulus {
    std::vector<std::uint32_t> indices, secondary;  // secondary empty: none
    Filter filter = Filter::none;
    std::uint64_t offset = 0;  // bytes the indices (and secondary) array start past a line boundary
    // Requests at given cycles (cycle, threads), in order; empty: `warps` warps of 32 threads ask
    // in a closed loop, `think` cycles after each reply, until every element was asked for.
    std::vector<std::pair<sim::Cycle, std::uint32_t>> requests;
    std::uint32_t warps = 64;
    sim::Cycle think = 20;
  };
  static constexpr std::uint64_t kTarget = 0x40000000, kIndices = 0x10000000, kSecondary = 0x20000000;

  // From the configuration (iru.testbench.*).
  Testbench(const sc_core::sc_module_name& name, sim::Simulation& sim);
  Testbench(const sc_core::sc_module_name& name, sim::Simulation& sim, const Params& p, Stimulus s, sim::Cycle latency);
  ~Testbench() override;

  bool tick(sim::Cycle cycle) override;
  std::vector<std::string> outstanding() const override;
  void read(std::uint32_t partition, std::uint64_t line, bool bypass_l2, std::uint64_t tag) override;
  std::uint32_t home(std::uint64_t line) const override { return static_cast<std::uint32_t>(line / 256 % partitions_); }
  std::uint32_t load32(std::uint64_t address) const override;

  Iru& unit() { return *unit_; }
  const std::vector<Reply>& replies() const { return replies_; }  // in the order they were sent
  const std::vector<sim::Cycle>& reply_cycles() const { return reply_cycles_; }
  bool finished() const { return finished_; }

 private:
  void on_reply(const Reply& r);

  sim::ClockScheduler& clock_;
  const std::uint32_t partitions_;
  const Stimulus s_;
  const sim::Cycle latency_;
  std::unordered_map<std::uint64_t, std::uint32_t> words_;
  std::unique_ptr<Iru> unit_;
  std::deque<std::pair<sim::Cycle, std::uint64_t>> reads_;  // (due, tag)
  std::deque<sim::Cycle> ready_;     // closed loop: when each idle warp asks next
  std::size_t next_request_ = 0;     // explicit requests issued
  std::uint64_t asked_ = 0, answered_ = 0, requests_ = 0;
  std::uint32_t next_partition_ = 0;
  std::vector<Reply> replies_;
  std::vector<sim::Cycle> reply_cycles_;
  bool started_ = false, finished_ = false;
};

}  // namespace irr::iru
