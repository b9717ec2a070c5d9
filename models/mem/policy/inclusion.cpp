// SPDX-License-Identifier: Apache-2.0
#include "models/mem/policy/inclusion.h"

namespace irr::mem {

Inclusion::Inclusion(const PolicySite& site, std::uint32_t leader_sets, std::uint32_t psel_bits)
    : site_(site),
      leaders_(leader_sets),
      psel_bits_(leader_sets ? psel_bits : 0),
      psel_max_(leader_sets ? (1u << psel_bits) - 1 : 0),
      spacing_(leader_sets ? site.array.sets() * site.count / leader_sets : 0),
      psel_(psel_max_ / 2),  // at the midpoint: the followers start non-inclusive, as the baseline
      bypassed_(site.counter(name(), "fills_bypassed", "DRAM fills given to the L1 only", "lines")),
      moved_(site.counter(name(), "moved", "L2 hits whose line moved to the requesting L1", "lines")),
      copybacks_(site.counter(name(), "copybacks", "lines L1s copied back, installed here", "lines")) {
  if (leaders_) psel_probe_ = &site.probe(name(), "psel", psel_bits_, "PSEL (above its midpoint: followers exclusive)");
}

Inclusion::Role Inclusion::role(std::uint64_t line) const {
  if (!leaders_) return Role::follower;
  const std::uint64_t set = static_cast<std::uint64_t>(site_.index) * site_.array.sets() + site_.array.set_of(line);
  if (set % spacing_ == 0) return Role::non_inclusive_leader;
  if (set % spacing_ == spacing_ / 2) return Role::exclusive_leader;
  return Role::follower;
}

bool Inclusion::exclusive(std::uint64_t line) const {
  switch (role(line)) {
    case Role::non_inclusive_leader: return false;
    case Role::exclusive_leader: return true;
    case Role::follower: break;
  }
  return !leaders_ || psel_ > psel_max_ / 2;
}

void Inclusion::accessed(const CacheRequest& r, CacheArray::Lookup l) {
  if (!leaders_ || l == CacheArray::Lookup::hit) return;
  const Role role_of = role(r.line);
  if (role_of == Role::non_inclusive_leader && psel_ < psel_max_) ++psel_;
  else if (role_of == Role::exclusive_leader && psel_ > 0) --psel_;
  else return;
  psel_probe_->set(psel_);
}

bool Inclusion::allocate(const CacheRequest& r, std::optional<std::uint64_t>) {
  if (r.copyback) {
    ++copybacks_;
    return true;
  }
  if (!exclusive(r.line)) return true;
  ++bypassed_;
  return false;
}

bool Inclusion::keep_on_hit(const CacheRequest& r) {
  if (!exclusive(r.line)) return true;
  ++moved_;
  return false;
}

}  // namespace irr::mem
