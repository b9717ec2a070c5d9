// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/testbench.h"

#include <string>

#include "sim/error.h"

namespace irr::hwwl {

Testbench::Testbench(const sc_core::sc_module_name& name, sim::Simulation& sim)
    : sc_core::sc_module(name),
      cores_(static_cast<std::uint32_t>(sim.config().get_uint("hwwl.testbench.cores"))),
      lanes_(static_cast<std::uint32_t>(sim.config().get_uint("hwwl.testbench.lanes"))),
      work_ids_(sim.config().get_uint("hwwl.testbench.work_ids")),
      work_cycles_(sim.config().get_uint("hwwl.testbench.work_cycles")),
      rng_(sim.rng(this->name())),
      memory_(sim.config().get_uint("hwwl.testbench.memory_latency")),
      lanes_state_(static_cast<std::size_t>(cores_) * lanes_),
      pulled_(work_ids_, false),
      processed_(sim.counter(*this, "processed", "work IDs pulled and processed", "IDs")),
      kernels_(sim.counter(*this, "kernels", "kernels run (all lanes pulled DONE)", "kernels")) {
  sim.clock("core").add(*this);
  sim.watch(this->name(), *this);
  unit_ = std::make_unique<HwwlUnit>("hwwl", sim, cores_, lanes_);
  unit_->wlinit(0x10000000, sim.config().get_uint("hwwl.testbench.overflow_ids"), memory_);
  unit_->push(0, 0, 0);  // the root, pushed before the first kernel (the host's initial push)
  unit_->kernel_end();   // double-buffer: the root moves to the pull side
  wake();
}

void Testbench::step_lane(std::uint32_t core, std::uint32_t lane, sim::Cycle c) {
  Lane& l = lanes_state_[core * lanes_ + lane];
  switch (l.state) {
    case State::pull: {
      if (!unit_->port_free(core, lane)) return;
      const std::uint32_t id = unit_->pull(core, lane);
      if (id == kDone) l.state = State::done;
      if (id >= kRefill) return;  // WAIT or a refill on its way: pull again next cycle
      if (id >= work_ids_ || pulled_[id])
        throw Error("HWWL testbench: core " + std::to_string(core) + " lane " + std::to_string(lane) + " pulled " +
                    (id >= work_ids_ ? "work ID " + std::to_string(id) + ", never pushed"
                                     : "work ID " + std::to_string(id) + " a second time"));
      pulled_[id] = true;
      ++pulled_count_;
      ++processed_;
      l.id = id;
      l.until = c + 1 + rng_() % (2 * work_cycles_);
      l.state = State::work;
      return;
    }
    case State::work:
      if (c < l.until) return;
      l.children.clear();
      for (std::uint64_t child : {2ull * l.id + 2, 2ull * l.id + 1})  // pushed from the back
        if (child < work_ids_) l.children.push_back(static_cast<std::uint32_t>(child));
      l.state = State::push;
      [[fallthrough]];
    case State::push:
      if (l.children.empty()) {
        l.state = State::pull;
        return;
      }
      if (!unit_->port_free(core, lane)) return;
      unit_->push(core, lane, l.children.back());
      l.children.pop_back();
      if (l.children.empty()) l.state = State::pull;
      return;
    case State::done:
      return;
  }
}

bool Testbench::tick(sim::Cycle c) {
  memory_.step(c);
  bool all_done = true;
  for (std::uint32_t k = 0; k < cores_; ++k)
    for (std::uint32_t l = 0; l < lanes_; ++l) {
      step_lane(k, l, c);
      all_done = all_done && lanes_state_[k * lanes_ + l].state == State::done;
    }
  if (!all_done) return true;
  ++kernels_;
  unit_->kernel_end();
  if (unit_->work_remains()) {
    for (Lane& l : lanes_state_) l.state = State::pull;
    return true;
  }
  if (pulled_count_ != work_ids_)
    throw Error("HWWL testbench: every lane pulled DONE with " + std::to_string(work_ids_ - pulled_count_) +
                " work IDs never pulled");
  finished_ = true;
  return false;
}

std::vector<std::string> Testbench::outstanding() const {
  if (finished_) return {};
  return {std::to_string(work_ids_ - pulled_count_) + " work IDs not pulled yet"};
}

}  // namespace irr::hwwl
