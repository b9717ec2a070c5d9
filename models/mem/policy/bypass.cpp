// SPDX-License-Identifier: Apache-2.0
#include "models/mem/policy/bypass.h"

#include <cmath>

namespace irr::mem {

namespace {
std::uint32_t exponent(double p) { return static_cast<std::uint32_t>(std::lround(-std::log2(p))); }
}  // namespace

Bypass::Bypass(const PolicySite& site, const std::string& name)
    : name_(name),
      decisions_(site.counter(name, "decisions", "fills with a victim, decided", "fills")),
      bypassed_(site.counter(name, "bypassed", "of those, not installed", "fills")),
      bypass_probe_(site.probe(name, "bypassing", 1, "the last decision: 1 bypassed")) {}

bool Bypass::decided(bool bypass) {
  ++decisions_;
  bypass_probe_.set(bypass);
  if (bypass) ++bypassed_;
  return !bypass;
}

MemoryAddressTable::MemoryAddressTable(const PolicySite& site, std::uint32_t entries, std::uint64_t macroblock,
                                       double fraction, std::uint32_t counter_bits)
    : Bypass(site, "mat"),
      macroblock_(macroblock),
      fraction_(fraction),
      max_((1u << counter_bits) - 1),
      bits_(counter_bits),
      table_(entries) {}

std::uint32_t MemoryAddressTable::count(std::uint64_t line) const {
  const std::uint64_t mb = line / macroblock_;
  const Entry& e = table_[mb % table_.size()];
  return e.tag == mb / table_.size() ? e.count : 0;
}

void MemoryAddressTable::accessed(const CacheRequest& r, CacheArray::Lookup) {
  const std::uint64_t mb = r.line / macroblock_;
  Entry& e = table_[mb % table_.size()];
  if (e.tag == mb / table_.size()) e.count = std::min(e.count + 1, max_);
  else e = Entry{mb / table_.size(), 1};  // another macroblock takes the entry
}

bool MemoryAddressTable::allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) {
  if (!victim) return true;
  return decided(count(r.line) < fraction_ * count(*victim));
}

std::uint64_t MemoryAddressTable::storage_bits() const {
  return static_cast<std::uint64_t>(table_.size()) * (bits_ + 16);  // counter and a 16-bit tag (ours)
}

AdaptiveBypass::AdaptiveBypass(const PolicySite& site, double initial, double virtual_probability, double min_probability,
                               double max_probability)
    : Bypass(site, "adaptive"),
      array_(site.array),
      virtual_(virtual_probability),
      k_min_(exponent(max_probability)),
      k_max_(exponent(min_probability)),
      sets_(site.array.sets(), Set{exponent(initial)}),
      rng_(site.rng("adaptive")),
      right_(site.counter("adaptive", "right", "watched bypasses (real or virtual) whose victim was re-referenced first", "verdicts")),
      wrong_(site.counter("adaptive", "wrong", "watched bypasses whose incoming line was re-referenced first", "verdicts")) {}

void AdaptiveBypass::verdict(Set& s, bool right) {
  if (right) {
    ++right_;
    if (s.k > k_min_) --s.k;
  } else {
    ++wrong_;
    if (s.k < k_max_) ++s.k;
  }
  s.watching = false;
}

void AdaptiveBypass::accessed(const CacheRequest& r, CacheArray::Lookup) {
  Set& s = sets_[array_.set_of(r.line)];
  if (!s.watching) return;
  if (r.line == s.victim) verdict(s, true);
  else if (r.line == s.incoming) verdict(s, false);
}

bool AdaptiveBypass::allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) {
  if (!victim) return true;
  Set& s = sets_[array_.set_of(r.line)];
  const bool bypass = uniform(rng_) < std::ldexp(1.0, -static_cast<int>(s.k));
  if (!s.watching && (bypass || uniform(rng_) < virtual_)) {
    s.watching = true;
    s.real = bypass;
    s.incoming = r.line;
    s.victim = *victim;
  }
  return decided(bypass);
}

void AdaptiveBypass::evicted(const CacheArray::Evicted& e) {
  Set& s = sets_[array_.set_of(e.line)];
  // The line that stayed left before either was re-referenced: no verdict. (A virtual bypass's
  // victim leaving at the fill itself is what is being watched, not an end.)
  if (s.watching && e.line == (s.real ? s.victim : s.incoming)) s.watching = false;
}

std::uint64_t AdaptiveBypass::storage_bits() const {
  // per set: the probability's exponent (4 bits), two 32-bit partial tags and two flags (ours)
  return static_cast<std::uint64_t>(sets_.size()) * (4 + 64 + 2);
}

OptimalBypassMonitor::OptimalBypassMonitor(const PolicySite& site, std::uint32_t rht_entries, double insert_probability,
                                           std::uint32_t bdct_entries, std::uint32_t counter_bits, std::uint32_t threshold,
                                           std::uint32_t initial)
    : Bypass(site, "obm"),
      array_(site.array),
      insert_probability_(insert_probability),
      max_((1u << counter_bits) - 1),
      threshold_(threshold),
      counter_bits_(counter_bits),
      rht_(rht_entries),
      rht_probe_(site.probe("obm", "rht_pairs", sim::bits_for(rht_entries), "incoming/victim pairs being watched")),
      bdct_(bdct_entries, static_cast<std::uint8_t>(initial)),
      rng_(site.rng("obm")),
      learnt_(site.counter("obm", "learnt", "incoming/victim pairs resolved into counter updates", "pairs")) {}

std::uint32_t OptimalBypassMonitor::slot(std::uint64_t pc) const {
  return static_cast<std::uint32_t>((pc >> 3 ^ pc >> 11) % bdct_.size());  // PTX instructions are 8-byte aligned
}

void OptimalBypassMonitor::vote(std::uint64_t pc, bool bypass) {
  std::uint8_t& c = bdct_[slot(pc)];
  if (bypass) c = static_cast<std::uint8_t>(std::min<std::uint32_t>(c + 1, max_));
  else if (c) --c;
}

void OptimalBypassMonitor::drop(std::uint32_t i) {
  by_line_.erase(rht_[i].incoming);
  by_line_.erase(rht_[i].victim);
  rht_[i].valid = false;
  rht_probe_.set(--pairs_);
}

void OptimalBypassMonitor::resolve(std::uint32_t i, bool victim_first) {
  vote(rht_[i].incoming_pc, victim_first);
  ++learnt_;
  drop(i);
}

void OptimalBypassMonitor::accessed(const CacheRequest& r, CacheArray::Lookup) {
  auto it = by_line_.find(r.line);
  if (it != by_line_.end()) resolve(it->second, rht_[it->second].victim == r.line);
}

bool OptimalBypassMonitor::allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) {
  if (!victim) return true;
  if (uniform(rng_) < insert_probability_ && !by_line_.count(r.line) && !by_line_.count(*victim)) {
    if (rht_[next_].valid) drop(next_);  // pushed out undecided
    rht_[next_] = Pair{true, r.line, r.pc, *victim, array_.pc_of(*victim)};
    by_line_[r.line] = by_line_[*victim] = next_;
    rht_probe_.set(++pairs_);
    next_ = (next_ + 1) % static_cast<std::uint32_t>(rht_.size());
  }
  return decided(bdct_[slot(r.pc)] >= threshold_);
}

void OptimalBypassMonitor::evicted(const CacheArray::Evicted& e) {
  // The incoming line left unreferenced: bypassing it would have lost nothing [G L1178].
  auto it = by_line_.find(e.line);
  if (it == by_line_.end() || rht_[it->second].incoming != e.line) return;
  vote(rht_[it->second].incoming_pc, true);
  ++learnt_;
  drop(it->second);
}

std::uint64_t OptimalBypassMonitor::storage_bits() const {
  // BDCT counters [G Table 13]; RHT entries of two 32-bit partial tags and two BDCT indices (ours)
  const std::uint32_t index_bits = 32 - static_cast<std::uint32_t>(__builtin_clz(static_cast<std::uint32_t>(bdct_.size())));
  return bdct_.size() * counter_bits_ + rht_.size() * (64 + 2 * index_bits + 1);
}

}  // namespace irr::mem
