// SPDX-License-Identifier: Apache-2.0
// Spare-register prefetching's view of a kernel's loops (seed 004 chapter III; docs/memory.md
// "Spare-register prefetching"): a loop is a backward branch (its target the start, the branch
// the end [G L429]); its load pairs are what Table 1's tag propagation finds over two iterations
// [G L433-L445]: a strided head load, and a tail load whose address comes from the head's value.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "models/core/ptx/module.h"

namespace irr::spref {

inline constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

struct Pair {
  std::uint32_t head = kNone, tail = kNone;  // the loads' pcs (tail kNone: a head load alone)
  std::int64_t stride = 0;  // the head's address step an iteration, in bytes (0: not from immediates)
  std::int64_t scale = 0;   // the tail's address per unit of the head's value (0: none prefetched)
};

struct Loop {
  std::uint32_t start = 0, end = 0;  // the backward branch's target and the branch itself
  // The iteration count (the shadow registers [G L482]): the setp that sets the branch's
  // predicate, comparing an induction register (updated by `increment` an iteration) with a bound.
  std::uint32_t setp = kNone;
  std::uint32_t induction_operand = 0, bound_operand = 0;  // setp's operand indices
  std::int64_t increment = 0;
  std::vector<Pair> pairs;
  bool analysed = false;  // pairs found (possibly none)
  bool contains(std::uint32_t pc) const { return pc >= start && pc <= end; }
};

// Every backward branch of `f` (ordered by end pc).
std::vector<Loop> find_loops(const core::ptx::Function& f);

// Table 1 over two iterations of `loop`, each given as the pcs executed in order: the first finds
// the loop-index updates (an add/sub of a register to itself with an immediate: the "WAR update"),
// which are strided in the second; there a global load with a strided address is a head load and
// one whose address carries a head's load-id its tail. `nc_only`: only ld.global.nc loads (the
// `const __restrict` arrays' [G L427]) qualify. At most `max_pairs` pairs, in program order.
// `through_copies`: an index updated by way of movs and conversions counts as updated too.
void find_pairs(const core::ptx::Function& f, Loop& loop, const std::vector<std::uint32_t>& first,
                const std::vector<std::uint32_t>& second, unsigned max_pairs, bool nc_only, bool through_copies = false);

// The compiler-assisted variant's view: both iterations are the loop's body in program order.
void find_pairs_statically(const core::ptx::Function& f, Loop& loop, unsigned max_pairs, bool nc_only,
                           bool through_copies = false);

}  // namespace irr::spref
