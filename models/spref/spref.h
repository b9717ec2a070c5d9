// SPDX-License-Identifier: Apache-2.0
// Spare-register-aware prefetching (SPREF, seed 004 chapter III; docs/memory.md "Spare-register
// prefetching"), one per SM, observing its warps through the unit contract (SmUnit::issued): a
// loop's load pairs found by Table 1 (hardware) or marked by the compiler; in each iteration of a
// warp's loop invocation, the head load of iteration i + d prefetched into a spare register, the
// tail load from that value into another; the demand loads of iterations whose values are
// prefetched become register moves. The prefetched values are read from memory when the
// prefetch's lines return; a demand load that would read another value ends the run (the array
// was not read-only, the binding prefetch would be wrong).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "models/core/sm.h"
#include "models/core/unit_port.h"
#include "models/mem/coalescer.h"
#include "models/spref/loops.h"
#include "sim/simulation.h"

namespace irr::spref {

struct Options {
  bool compiler = false;        // C-SPREF: pairs marked by the compiler, counts from the pre-loop compare
  unsigned distance = 1;        // 1-3; 0: Listing 1's rule by the average iteration count
  unsigned mid = 4, high = 6;   // Listing 1's MID and HIGH
  bool tail_in_cache = false;   // SPREF1-C: tail prefetches fill the caches only
  bool nc_only = true;          // only ld.global.nc loads (`const __restrict` arrays) qualify
  bool through_copies = false;  // an index updated by way of movs and cvts counts as a WAR update
  unsigned max_pairs = 2, max_distance = 3, max_registers = 63, shadow_bits = 4;
  static Options from_config(const sim::Config& c);
};

// Bits of storage per SM (the thesis's 1,365 bytes for 63 registers and 48 warps [G L500-L515]).
std::uint64_t storage_bits(const Options& o, std::uint32_t warps);

class Spref : public core::SmUnit {
 public:
  Spref(sim::Simulation& sim, const sc_core::sc_object& sm);

  bool can_accept(const core::UnitOp&) override { return false; }  // it has no instructions
  void accept(const core::UnitOp&, core::SmPort&) override;
  Take issued(const core::UnitOp& op, const core::Step& step, const core::Warp& warp, core::SmPort& port) override;
  void memory_reply(std::uint64_t tag, core::SmPort& port) override;
  void kernel_begin(const core::KernelLaunch& k, core::SmPort& port) override;
  void kernel_end(const core::KernelLaunch& k, core::SmPort& port) override;
  void warp_exit(std::uint32_t warp, core::SmPort& port) override;

 private:
  enum class Phase { unseen, seen, first, second, ready };
  struct LoopState {
    Loop loop;
    Phase phase = Phase::unseen;
    unsigned registers = 0;  // spare registers a distance step takes (a head, and a tail in a register, a pair)
    std::vector<std::uint64_t> base;  // per pair: the tail array's base, learnt from a demand tail load
    std::vector<bool> based;
  };
  struct Prefetch {
    std::uint32_t warp = 0;
    std::size_t pair = 0;
    bool tail = false, cache_only = false, ready = false;
    std::uint64_t iteration = 0;
    std::uint32_t lanes = 0, lines = 0;
    std::array<std::uint64_t, 32> address{}, value{};
    std::uint64_t token = 0;  // a demand load waiting for it (0: none)
    std::array<std::uint64_t, 32> demand{};
    std::uint32_t demand_lanes = 0;
  };
  struct Invocation {  // a warp's run through a loop
    int loop = -1;
    std::uint64_t iteration = 0;
    std::uint32_t last_pc = kNone;
    bool counted = false;  // its shadow iteration counts are valid
    std::uint64_t counted_at = 0;  // runs[l]: iterations lane l has from this one on
    std::array<std::uint8_t, 32> runs{};
    unsigned distance = 0;  // 0: not prefetching
    bool decided = false;
    // Per pair and lane: the head's address and value when the lane last ran it, and in which iteration (0: not yet).
    std::vector<std::array<std::uint64_t, 32>> head_address, head_value, head_seen;
    std::vector<std::uint64_t> prefetches;  // ids in flight or waiting for their demand
  };

  void detect(std::uint32_t slot, std::uint32_t pc, const core::ptx::Instruction& in);
  void end_invocation(Invocation& inv);
  void count(Invocation& inv, const LoopState& ls, const core::ptx::Instruction& setp, std::uint32_t active,
             const core::Warp& warp, std::uint64_t from_iteration);
  void decide(Invocation& inv, const LoopState& ls, std::uint32_t active);
  Take demand(Invocation& inv, std::size_t pair, bool tail, const core::UnitOp& op, const core::Step& step);
  void prefetch(std::uint32_t slot, Invocation& inv, std::size_t pair, bool tail, std::uint64_t iteration,
                std::uint32_t lanes, const std::array<std::uint64_t, 32>& address, core::SmPort& port);
  void check(const Prefetch& p, std::uint32_t lanes, const std::array<std::uint64_t, 32>& demand) const;
  unsigned load_bytes(std::uint32_t pc) const;
  int innermost(std::uint32_t pc) const { return pc < loop_of_pc_.size() ? loop_of_pc_[pc] : -1; }

  Options opt_;
  mem::Coalescer coalescer_;
  const core::KernelLaunch* kernel_ = nullptr;
  std::vector<LoopState> loops_;
  std::vector<int> loop_of_pc_;  // the innermost loop holding each pc (-1: none)
  unsigned spare_ = 0;           // MaxReg_d - MaxReg_s of this kernel
  // Hardware detection: one set of tags per SM, so one loop at a time [G L500].
  int tracking_loop_ = -1;
  std::uint32_t tracking_warp_ = kNone;
  std::vector<std::uint32_t> path_[2];
  std::vector<Invocation> warps_;  // by warp slot
  std::map<std::uint64_t, Prefetch> prefetches_;
  std::uint64_t next_id_ = 1;
  void note_prefetches() { prefetch_probe_.set(std::min<std::size_t>(prefetches_.size(), 0xffff)); }
  sim::Counter &loops_found_, &pairs_found_, &invocations_, &no_registers_, &head_prefetches_, &tail_prefetches_,
      &lines_, &moves_, &waited_, &mispredicted_, &unused_, &distance_sum_;
  sim::Probe& prefetch_probe_;
};

}  // namespace irr::spref
