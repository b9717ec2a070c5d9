// SPDX-License-Identifier: Apache-2.0
// A source-line profile of the timed SMs (`--profile`): per PTX instruction, the warp
// instructions issued, the scheduler cycles it stalled by reason (a scheduler's stalled cycle goes
// to the instruction of the warp whose reason it counts, so the lines add up to the SMs' stall.*
// statistics), the line requests it sent to memory and how many missed the L1 and the L2; then
// summed per PTX line and per CUDA source line (from `.loc`). Beside it, what the L1s and the L2
// slices did with each load PC's and each allocation's lines (mem::CacheProfile). Off, the SMs and
// caches never reach it.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/core/ptx/module.h"
#include "models/mem/cache_profile.h"

namespace irr::core {

class Profile {
 public:
  // The SM's stall reasons, in its order (Sm::Stall without none).
  static constexpr const char* kStalls[] = {"empty", "dependence", "memory", "barrier", "unit", "structural.sfu", "structural.ldst"};
  static constexpr std::size_t kStallKinds = std::size(kStalls);
  struct Counters {
    std::uint64_t issued = 0, thread_instructions = 0, requests = 0, l1_misses = 0, l2_misses = 0;
    std::array<std::uint64_t, kStallKinds> stalls{};
    std::uint64_t stall_cycles() const;
    std::uint64_t cost() const { return issued + stall_cycles(); }  // scheduler cycles it holds
    Counters& operator+=(const Counters& o);
  };

  void module(const ptx::Module* m);  // a module whose kernels run (to name instructions later)
  void issued(const ptx::Instruction* in, std::uint32_t threads) {
    Counters& c = by_instruction_[in];
    ++c.issued;
    c.thread_instructions += threads;
  }
  // `in` null: no warp to charge (the scheduler had none, or none with an instruction).
  void stalled(const ptx::Instruction* in, std::size_t why, std::uint64_t cycles) { by_instruction_[in].stalls[why] += cycles; }
  void requested(const ptx::Instruction* in, std::uint32_t lines) { by_instruction_[in].requests += lines; }
  void served(const ptx::Instruction* in, bool l1_miss, bool l2_miss) {
    Counters& c = by_instruction_[in];
    c.l1_misses += l1_miss;
    c.l2_misses += l2_miss;
  }

  mem::CacheProfile& l1() { return l1_; }  // every L1's loads
  mem::CacheProfile& l2() { return l2_; }  // every L2 slice's

  // profile.json: per PTX line and per CUDA line, most costly first, the totals and what no
  // instruction was charged with; per cache level, its loads by PC and by region.
  nlohmann::json report() const;
  // The `top` costliest PTX lines as a table, then the costliest CUDA lines with their source text
  // where the file can be read.
  void print(std::ostream& out, std::size_t top = 10) const;

 private:
  void print_l1(std::ostream& out, std::size_t top) const;
  std::unordered_map<const ptx::Instruction*, Counters> by_instruction_;
  std::vector<const ptx::Module*> modules_;
  mem::CacheProfile l1_, l2_;
};

}  // namespace irr::core
