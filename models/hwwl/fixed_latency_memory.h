// SPDX-License-Identifier: Apache-2.0
// The HVU's memory at unit level: every access completes a fixed number of cycles after issue, in
// issue order. Stepped by its owner (the unit testbench or a test) once per cycle, before the HVU.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "models/hwwl/hvu.h"

namespace irr::hwwl {

class FixedLatencyMemory : public MemoryPort {
 public:
  explicit FixedLatencyMemory(sim::Cycle latency) : latency_(latency) {}
  void store(std::uint64_t address, std::vector<std::uint32_t>, std::function<void()> done) override {
    store_addresses.push_back(address);
    pending_.push_back({now_ + latency_, std::move(done)});
  }
  void load(std::uint64_t address, std::uint32_t count, std::function<void(std::vector<std::uint32_t>)> done) override {
    load_addresses.push_back(address);
    pending_.push_back({now_ + latency_, [done, count] { done(std::vector<std::uint32_t>(count)); }});
  }
  // Completes what is due by cycle `c`; later accesses are issued at `c`.
  void step(sim::Cycle c) {
    now_ = c;
    while (!pending_.empty() && pending_.front().first <= c) {
      auto done = std::move(pending_.front().second);
      pending_.pop_front();
      done();
    }
  }
  sim::Cycle latency() const { return latency_; }
  std::vector<std::uint64_t> store_addresses, load_addresses;  // for tests

 private:
  const sim::Cycle latency_;
  sim::Cycle now_ = 0;
  std::deque<std::pair<sim::Cycle, std::function<void()>>> pending_;
};

}  // namespace irr::hwwl
