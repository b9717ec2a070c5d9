// SPDX-License-Identifier: Apache-2.0
// The inter-core redistribution network (../shared/specs/hwwl_iru_dats.md 1.4, 1.5.5): a tree with
// a hub at the root. Each core injects at most one work ID per cycle and receives at most one; an
// ID sent in cycle c reaches the hub (hop 1) and, without contention, its destination in cycle
// c + 2 (hop 2) [K L243]. The hub buffers up to `hub_buffer` IDs per destination (the paper gives
// no size) and forwards one per destination per cycle; a full buffer refuses the sender.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "sim/clock.h"

namespace irr::hwwl {

class Icrn {
 public:
  Icrn(std::uint32_t cores, std::uint32_t hub_buffer);
  bool can_send(std::uint32_t from, std::uint32_t to, sim::Cycle c) const;
  void send(std::uint32_t from, std::uint32_t to, std::uint32_t id, sim::Cycle c);
  // Moves IDs one hop: call once per cycle, before receive().
  void step(sim::Cycle c);
  // The ID delivered to `core` by cycle `c`, if any, oldest first; it stays in the network until
  // taken (the core writes it into a bank when a port is free).
  std::optional<std::uint32_t> peek(std::uint32_t core, sim::Cycle c) const;
  void take(std::uint32_t core);
  std::uint64_t in_flight() const;  // work in the system, for DONE
  void for_each(const std::function<void(std::uint32_t)>& f) const;  // every ID in the network
  std::uint64_t contention_cycles() const { return contention_; }

 private:
  struct Hop {
    sim::Cycle at;  // usable from this cycle
    std::uint32_t id;
  };
  const std::uint32_t cores_, hub_buffer_;
  std::vector<sim::Cycle> sent_at_;            // per core: last cycle it injected (one per cycle)
  std::vector<std::deque<Hop>> hub_;           // per destination
  std::vector<std::deque<Hop>> delivered_;     // per destination: at its input port
  std::uint64_t contention_ = 0;
};

}  // namespace irr::hwwl
