// SPDX-License-Identifier: Apache-2.0
// Inclusion between the L1s and the L2 (seed 004 section 4.4, ../shared/specs/graph_memory_hierarchy.md
// section 2), a policy of each L2 slice chosen by l2.inclusion. The baseline is non-inclusive (no
// policy). Exclusive [G L772-L777]: a DRAM fill goes to the L1 only; an L2 hit gives the line to the
// requesting L1 and invalidates it here; the L1 copies the line back when it evicts it, and the
// copy-back is installed here. Flexclusion [68] [G L779]: per set, non-inclusive or exclusive by
// set dueling: `leader_sets` sets always non-inclusive and as many always exclusive, spread over
// the whole L2; each slice's PSEL counts its non-inclusive leaders' misses up and its exclusive
// leaders' down, and its other sets are exclusive while it is above its midpoint.
#pragma once

#include "models/mem/policy/policy.h"

namespace irr::mem {

class Inclusion : public CachePolicy {
 public:
  // leader_sets 0: exclusive everywhere.
  Inclusion(const PolicySite& site, std::uint32_t leader_sets, std::uint32_t psel_bits);
  std::string name() const override { return leaders_ ? "flexclusion" : "exclusive"; }
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) override;
  bool keep_on_hit(const CacheRequest& r) override;
  bool copy_back(const CacheRequest& r) override { return exclusive(r.line); }
  std::uint64_t storage_bits() const override { return psel_bits_; }
  enum class Role { follower, non_inclusive_leader, exclusive_leader };
  Role role(std::uint64_t line) const;
  bool exclusive(std::uint64_t line) const;  // the line's set acts exclusively now
  std::uint32_t psel() const { return psel_; }

 private:
  const PolicySite site_;
  const std::uint32_t leaders_, psel_bits_, psel_max_, spacing_;
  std::uint32_t psel_;
  sim::Counter &bypassed_, &moved_, &copybacks_;
  sim::Probe* psel_probe_ = nullptr;
};

}  // namespace irr::mem
