// SPDX-License-Identifier: Apache-2.0
// One core's hardware virtualization unit (../shared/specs/hwwl_iru_dats.md 1.4, 1.5.6, 1.5.7):
// pushes that find their bank full are spilled to the core's overflow buffer in memory, up to a
// warp's worth (32 IDs) per coalesced store; the interval-based refill, when every bank of the
// core has a free entry, loads one ID per bank (16 on the paper's cores — our resolution of the
// spec's "a warp's worth" vs 16 free entries conflict), reserving the entries until the load
// returns. Memory is reached through MemoryPort (a stub with a fixed latency in unit tests, the
// SM's LD/ST path in the GPU). The overflow buffer is a per-core FIFO of `capacity` IDs set by
// wlinit; a spill that finds it full is the paper's hardware exception.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "models/hwwl/bank.h"

namespace irr::hwwl {

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;
  // A store of `ids` or a load of `count` IDs at `address`; `done` runs when the access completes
  // (a load's `done` gets the IDs).
  virtual void store(std::uint64_t address, std::vector<std::uint32_t> ids, std::function<void()> done) = 0;
  virtual void load(std::uint64_t address, std::uint32_t count, std::function<void(std::vector<std::uint32_t>)> done) = 0;
};

class Hvu {
 public:
  Hvu(std::uint32_t core, std::uint64_t base, std::uint64_t capacity, MemoryPort& memory);
  // A push whose bank is full: queued for the next spill store; throws irr::Error (the hardware
  // exception) when the overflow buffer cannot take it.
  void spill(std::uint32_t id);
  // Once per cycle: issues a spill store of what is queued (up to 32 IDs), and, at refill points,
  // a refill load for `banks` (one ID each, entries reserved) if all have room and IDs wait.
  void step(std::vector<Bank*>& banks, bool refill_point, sim::Cycle c);
  std::uint64_t held() const;  // queued, in flight, in the overflow buffer, returned-not-written
  std::uint64_t stores() const { return stores_; }
  std::uint64_t loads() const { return loads_; }

 private:
  const std::uint32_t core_;
  const std::uint64_t base_, capacity_;
  MemoryPort& memory_;
  std::deque<std::uint32_t> queued_;     // spilled, not yet stored
  std::uint64_t storing_ = 0;            // in spill stores not yet complete
  std::deque<std::uint32_t> overflow_;   // stored in the overflow buffer
  std::uint64_t head_ = 0;               // FIFO index of the oldest stored ID
  std::deque<std::pair<std::uint32_t, std::uint32_t>> landing_;  // (bank, id) returned, to write
  std::uint64_t loading_ = 0;            // IDs in refill loads not yet returned
  std::uint64_t stores_ = 0, loads_ = 0;
};

}  // namespace irr::hwwl
