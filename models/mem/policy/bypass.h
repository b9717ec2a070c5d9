// SPDX-License-Identifier: Apache-2.0
// Bypass policies (seed 004 section 4.5, ../shared/specs/graph_memory_hierarchy.md section 3): at
// each fill of a line not cached they decide, knowing the victim it would evict, whether the
// line is installed; a bypassed fill still answers its requests. Loads only; atomics always
// allocate at the L2 [G L965].
#pragma once

#include <unordered_map>
#include <vector>

#include "models/mem/policy/policy.h"

namespace irr::mem {

// Statistics every bypass policy keeps: fills decided and fills bypassed.
class Bypass : public CachePolicy {
 public:
  Bypass(const PolicySite& site, const std::string& name);
  std::string name() const override { return name_; }

 protected:
  bool decided(bool bypass);  // counts a decision; returns !bypass (allocate)
  const std::string name_;

 private:
  sim::Counter &decisions_, &bypassed_;
  sim::Probe& bypass_probe_;
};

// Memory address table [G L1020]: a saturating access counter per macroblock, direct mapped and
// tagged; a miss's line bypasses when its macroblock's count is below `fraction` of the victim's.
class MemoryAddressTable : public Bypass {
 public:
  MemoryAddressTable(const PolicySite& site, std::uint32_t entries, std::uint64_t macroblock, double fraction,
                     std::uint32_t counter_bits);
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) override;
  std::uint64_t storage_bits() const override;
  std::uint32_t count(std::uint64_t line) const;  // the line's macroblock's counter (0: not in the table)

 private:
  struct Entry {
    std::uint64_t tag = ~0ull;
    std::uint32_t count = 0;
  };
  const std::uint64_t macroblock_;
  const double fraction_;
  const std::uint32_t max_, bits_;
  std::vector<Entry> table_;
};

// Adaptive bypass (Gao and Wilkerson [27], [G L1024]): per set, a bypass probability 2^-k. A miss
// with a victim bypasses with that probability; each set watches one incoming/victim pair: a
// real bypass, or with `virtual_probability` a virtual one (the line installed, the victim
// gone, as though it had been bypassed). The victim re-referenced first: bypassing was right (k
// one less: the probability doubles, up to `max_probability`); the incoming first: wrong (k one
// more, down to `min_probability`); the watched line evicted before either: no verdict.
class AdaptiveBypass : public Bypass {
 public:
  AdaptiveBypass(const PolicySite& site, double initial, double virtual_probability, double min_probability,
                 double max_probability);
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) override;
  void evicted(const CacheArray::Evicted& e) override;
  std::uint64_t storage_bits() const override;
  double probability(std::uint32_t set) const { return std::ldexp(1.0, -static_cast<int>(sets_[set].k)); }

 private:
  struct Set {
    std::uint32_t k;
    bool watching = false, real = false;  // real: the incoming line was bypassed
    std::uint64_t incoming = 0, victim = 0;
  };
  void verdict(Set& s, bool bypass_was_right);
  const CacheArray& array_;
  const double virtual_;
  const std::uint32_t k_min_, k_max_;
  std::vector<Set> sets_;
  std::mt19937_64 rng_;
  sim::Counter &right_, &wrong_;
};

// Optimal bypass monitor (Li et al. [45], [G L1028]): a replacement history table of incoming/
// victim pairs, sampled with `insert_probability` at misses with a victim, learns which block a
// bypass-optimal cache would have kept: the victim referenced first, or the incoming evicted
// unreferenced, counts for bypassing the incoming's PC; the incoming referenced first counts
// against. A miss bypasses when its PC's counter in the bypass decision counter table is at or
// above `threshold`. (Moving the victim's PC's counter the other way too, a reading of the
// thesis's "both PCs", cancels out whenever one PC makes the misses — a graph kernel's gather —
// and leaves only the eviction votes: every fill bypassed; docs/memory.md.)
class OptimalBypassMonitor : public Bypass {
 public:
  OptimalBypassMonitor(const PolicySite& site, std::uint32_t rht_entries, double insert_probability,
                       std::uint32_t bdct_entries, std::uint32_t counter_bits, std::uint32_t threshold,
                       std::uint32_t initial);
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) override;
  void evicted(const CacheArray::Evicted& e) override;
  std::uint64_t storage_bits() const override;
  std::uint32_t counter(std::uint64_t pc) const { return bdct_[slot(pc)]; }

 private:
  struct Pair {
    bool valid = false;
    std::uint64_t incoming = 0, incoming_pc = 0, victim = 0, victim_pc = 0;
  };
  std::uint32_t slot(std::uint64_t pc) const;
  void vote(std::uint64_t pc, bool bypass);
  void resolve(std::uint32_t i, bool victim_first);
  void drop(std::uint32_t i);
  const CacheArray& array_;
  const double insert_probability_;
  const std::uint32_t max_, threshold_, counter_bits_;
  std::vector<Pair> rht_;
  std::uint32_t next_ = 0, pairs_ = 0;  // FIFO replacement; pairs watched
  sim::Probe& rht_probe_;
  std::unordered_map<std::uint64_t, std::uint32_t> by_line_;  // incoming and victim lines -> their pair
  std::vector<std::uint8_t> bdct_;
  std::mt19937_64 rng_;
  sim::Counter &learnt_;
};

}  // namespace irr::mem
