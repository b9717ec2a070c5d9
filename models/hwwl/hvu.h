// SPDX-License-Identifier: Apache-2.0
// One core's hardware virtualization unit (../shared/specs/hwwl_iru_dats.md 1.4, 1.5.6, 1.5.7):
// pushes that find their bank full are spilled to the core's overflow buffer in memory, up to a
// warp's worth (32 IDs) per coalesced store; refills load RefillPolicy::per_bank IDs per bank (by
// default one: 16 on the paper's cores — our resolution of the spec's "a warp's worth" vs 16 free
// entries conflict; two on 16 lanes is a warp's worth), reserving the entries until the load
// returns. Interval-based refills wait until every bank of the core has that many free entries
// [K L257]; on-demand ones, triggered by a pull from an empty bank, fill the banks that have room. Memory is reached through MemoryPort (FixedLatencyMemory in unit tests, the SM's
// LD/ST path in the GPU). The overflow buffer is a per-core FIFO of `capacity` IDs set by wlinit;
// a spill that finds it full is the paper's hardware exception.
//
// Double-buffer mode: a spilled ID is a push, so it belongs to the push partition — the next
// kernel's work. Each ID carries the kernel it was spilled in, and a refill (which writes the pull
// side) takes only IDs spilled before the current kernel; in single-buffer mode any ID.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "models/hwwl/bank.h"

namespace irr::hwwl {

// When the HVU refills banks from the overflow buffer [K L257]: periodically, once every bank of
// the core has a free entry, or on a pull from an empty bank (the pull then waits for the load).
enum class Refill { interval, on_demand };

// How refills are made: when, the loads a core keeps outstanding (hwwl.refill_loads), the IDs each
// load writes into each bank (hwwl.refill_per_bank), and which banks an on-demand load fills
// (hwwl.on_demand_targets): every bank of the core with room, or only the empty banks pulled.
struct RefillPolicy {
  Refill when = Refill::interval;
  std::uint32_t loads = 16;
  std::uint32_t per_bank = 1;
  bool pulled_only = false;
};

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
  Hvu(std::uint32_t core, std::uint64_t base, std::uint64_t capacity, MemoryPort& memory, Mode mode);
  // A push whose bank is full: queued for the next spill store; throws irr::Error (the hardware
  // exception) when the overflow buffer cannot take it.
  void spill(std::uint32_t id);
  // Once per cycle, after the cycle's pulls and pushes: writes returned IDs into their reserved
  // entries where the bank's port is free, issues a spill store of what is queued (up to 32) and,
  // while fewer than `limit` loads are outstanding, one load of the IDs request() set aside (up to
  // a warp's worth, 32).
  void step(std::vector<Bank*>& banks, sim::Cycle c, std::uint32_t limit = 16);
  // On-demand refill of one bank (the empty bank a pull found): up to `per_bank` refillable IDs
  // set aside for it and its entries reserved now; step() coalesces the cycle's requests into one
  // load. True if any.
  bool request(std::vector<Bank*>& banks, std::uint32_t bank, std::uint32_t per_bank);
  // Interval-based refill: one load, `per_bank` IDs per bank, if every bank has that many free
  // entries and fewer than `limit` loads are outstanding. True if issued. (Retired banks, whose
  // lanes pulled DONE, are left out.)
  bool refill_all(std::vector<Bank*>& banks, std::uint32_t limit, std::uint32_t per_bank = 1);
  // On-demand refill: one load, up to `per_bank` IDs into each bank with a free entry, while fewer
  // than `limit` loads are outstanding. True if issued.
  bool refill_free(std::vector<Bank*>& banks, std::uint32_t limit, std::uint32_t per_bank = 1);
  void kernel_end() {
    ++kernel_;
    refillable_ = overflow_.size();  // everything stored is now an earlier kernel's
  }

  std::uint64_t refillable() const { return mode_ == Mode::single ? overflow_.size() : refillable_; }  // loadable now
  // Work that reaches the pull side without a kernel end: refillable, loading or landing (for DONE).
  std::uint64_t pull_side() const { return refillable() + requested_.size() + loading_ + landing_.size(); }
  std::uint64_t held() const;  // queued, in flight, in the overflow buffer, returned-not-written
  void for_each(const std::function<void(std::uint32_t)>& f) const;  // every held ID (invariant checks)
  std::uint64_t stored() const { return overflow_.size(); }           // in the overflow buffer
  std::uint64_t queued() const { return queued_.size(); }
  std::uint32_t loads_outstanding() const { return static_cast<std::uint32_t>(loads_in_flight_.size()); }
  std::uint64_t stores() const { return stores_; }
  std::uint64_t loads() const { return loads_; }
  std::uint64_t spilled() const { return spilled_; }
  std::uint64_t refilled() const { return refilled_; }

 private:
  struct Entry {
    std::uint32_t id;
    std::uint64_t kernel;  // the kernel that spilled it
  };
  bool may_refill(const Entry& e) const { return mode_ == Mode::single || e.kernel < kernel_; }
  void load(std::vector<Bank*>& banks, const std::vector<std::uint32_t>& targets);
  // Up to one refillable ID for each target, oldest first: (bank, id) pairs, removed from the buffer.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> take(const std::vector<std::uint32_t>& targets);
  void issue(std::vector<std::pair<std::uint32_t, std::uint32_t>> ids);  // one load of them

  const std::uint32_t core_;
  const std::uint64_t base_, capacity_;
  MemoryPort& memory_;
  const Mode mode_;
  std::uint64_t kernel_ = 0;
  std::deque<Entry> queued_;                                // spilled, not yet stored
  std::map<std::uint64_t, std::vector<Entry>> storing_;      // per spill store in flight
  std::uint64_t storing_ids_ = 0;
  std::deque<Entry> overflow_;                              // in the overflow buffer, oldest first
  std::uint64_t refillable_ = 0;                            // of them, earlier kernels' (double-buffer)
  std::uint64_t tail_ = 0, head_ = 0;                       // FIFO indices (the HVU's index registers)
  std::map<std::uint64_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> loads_in_flight_;  // (bank, id)
  std::uint64_t loading_ = 0;
  std::deque<std::pair<std::uint32_t, std::uint32_t>> requested_;  // (bank, id) set aside by request()
  std::deque<std::pair<std::uint32_t, std::uint32_t>> landing_;  // (bank, id) returned, to write
  std::uint64_t next_access_ = 0;
  std::uint64_t stores_ = 0, loads_ = 0, spilled_ = 0, refilled_ = 0;
};

}  // namespace irr::hwwl
