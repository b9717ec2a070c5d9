// SPDX-License-Identifier: Apache-2.0
#include "models/mem/policy/region.h"

#include <algorithm>

namespace irr::mem {

namespace region {
Action decide(Reuse l1, Reuse shared, Reuse pvt) {
  Action a;
  a.copy_back = shared == Reuse::no && pvt == Reuse::yes;
  a.bypass_l2 = shared == Reuse::no && pvt != Reuse::unknown;
  a.bypass_l1 = l1 == Reuse::no && !a.copy_back;
  return a;
}
}  // namespace region

using region::Reuse;

namespace {
Reuse known(bool trained, bool flag) { return !trained ? Reuse::unknown : flag ? Reuse::yes : Reuse::no; }
std::uint32_t bits_for(std::uint32_t values) {  // bits to tell `values` values apart
  std::uint32_t b = 0;
  while ((1ull << b) < values) ++b;
  return b;
}
}  // namespace

RegionReuse::RegionReuse(const PolicySite& site, const std::string& name, const RegionTracking& t)
    : Bypass(site, name),
      t_(t),
      array_(site.array),
      max_(t.counter_bits >= 32 ? ~0u : (1u << t.counter_bits) - 1),
      upat_(t.l1_bypass ? t.upat : 0),
      copyback_hints_(site.counter(name, "copyback_hints", "misses sent asking the L2 to bypass and let the L1 copy back", "misses")),
      bypass_hints_(site.counter(name, "bypass_hints", "misses sent asking the L2 to bypass", "misses")),
      updates_(site.counter(name, "updates", "periodic updates of the tracking tables", "updates")),
      rtt_replaced_(site.counter(name, "rtt_replacements", "region tracking entries given to an untracked region", "entries")),
      ptt_replaced_(site.counter(name, "ptt_replacements", "PC tracking entries given to an untracked PC", "entries")),
      hint_probe_(site.probe(name, "hint", 2, "the last miss's hint to the L2: 1 bypass it, 3 bypass it and copy back")) {}

void RegionReuse::allocated(const std::vector<Region>& regions) {
  regions_.assign(regions.begin(), regions.begin() + std::min<std::size_t>(regions.size(), t_.region_table));
  // Entries of regions no longer in the table are freed.
  rtt_.erase(std::remove_if(rtt_.begin(), rtt_.end(), [&](const RegionEntry& e) { return !region_of(e.base); }), rtt_.end());
  if (first_untracked_ && !region_of(*first_untracked_)) first_untracked_.reset();
}

std::optional<std::uint64_t> RegionReuse::region_of(std::uint64_t address) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                             [](std::uint64_t a, const Region& r) { return a < r.base; });
  if (it == regions_.begin()) return std::nullopt;
  --it;
  if (address - it->base >= std::max<std::uint64_t>(it->size, 1)) return std::nullopt;
  return it->base;
}

const RegionReuse::RegionEntry* RegionReuse::rtt(std::uint64_t base) const {
  for (const RegionEntry& e : rtt_)
    if (e.base == base) return &e;
  return nullptr;
}

const RegionReuse::PcEntry* RegionReuse::ptt(std::uint64_t pc) const {
  for (const PcEntry& e : ptt_)
    if (e.pc == pc) return &e;
  return nullptr;
}

std::uint32_t RegionReuse::upat_slot(std::uint64_t pc) const {
  return static_cast<std::uint32_t>((pc >> 3 ^ pc >> 11) % upat_.size());  // PTX instructions are 8-byte aligned
}

Reuse RegionReuse::l1_reuse(std::uint64_t pc) const {
  const PcEntry* e = ptt(pc);
  return e ? known(e->trained, e->reuse) : Reuse::unknown;
}

std::pair<Reuse, Reuse> RegionReuse::l2_reuse(std::uint64_t line) const {
  const auto base = region_of(line);
  const RegionEntry* e = base ? rtt(*base) : nullptr;
  if (!e) return {Reuse::unknown, Reuse::unknown};
  return {known(e->trained, e->shared), known(e->trained, e->pvt)};
}

// Every load access counts for its PC (Listing 6); a hit credits the PC that fetched the line.
void RegionReuse::accessed(const CacheRequest& r, CacheArray::Lookup l) {
  if (t_.l1_bypass) {
    if (PcEntry* e = find_pc(r.pc)) count(e->acc);
    else if (ptt_.size() < t_.ptt) ptt_.push_back(PcEntry{r.pc, false, false, 1, 0});
    else {
      Untracked& u = upat_[upat_slot(r.pc)];
      count(u.acc);
      if (!u.first_pc) u.first_pc = r.pc;
    }
    if (l == CacheArray::Lookup::hit)
      if (PcEntry* f = find_pc(array_.pc_of(r.line))) count(f->hits);
  }
  if (++accesses_ == t_.period) update();
}

std::uint8_t RegionReuse::hint(const CacheRequest& r) {
  const auto [shared, pvt] = l2_reuse(r.line);
  const region::Action a = region::decide(Reuse::unknown, shared, pvt);
  std::uint8_t bits = 0;
  if (a.copy_back && t_.exclusion) {
    ++copyback_hints_;
    bits = region::kCopyBack | region::kBypassL2;
  } else if (a.bypass_l2 && t_.l2_bypass) {
    ++bypass_hints_;
    bits = region::kBypassL2;
  }
  hint_probe_.set(bits);
  return bits;
}

// Each L1 fill counts for its region, with the reuse the L2 reported (Listing 4).
void RegionReuse::filled(const CacheRequest& r) {
  if (!t_.exclusion) return;
  const auto base = region_of(r.line);
  if (!base) return;
  RegionEntry* e = find_region(*base);
  if (!e && rtt_.size() < t_.rtt) e = &rtt_.emplace_back(RegionEntry{*base});
  if (!e) {
    count(untracked_);
    if (!first_untracked_) first_untracked_ = *base;
    return;
  }
  count(e->acc);
  if (r.hint & region::kShared) count(e->shd_hits);
  if (r.hint & region::kPrivate) count(e->pvt_hits);
}

bool RegionReuse::allocate(const CacheRequest& r, std::optional<std::uint64_t>) {
  if (!t_.l1_bypass) return true;
  return decided(region::decide(l1_reuse(r.pc), Reuse::unknown, Reuse::unknown).bypass_l1 && !r.copyback);
}

void RegionReuse::update() {
  accesses_ = 0;
  ++updates_;
  // The least-used entry goes to the first untracked region or PC when those were used more [G L864, L1124].
  if (first_untracked_ && !rtt_.empty()) {
    auto least = std::min_element(rtt_.begin(), rtt_.end(), [](auto& a, auto& b) { return a.acc < b.acc; });
    if (untracked_ > least->acc) {
      *least = RegionEntry{*first_untracked_};
      ++rtt_replaced_;
    }
  }
  untracked_ = 0;
  first_untracked_.reset();
  if (!upat_.empty() && !ptt_.empty()) {
    auto most = std::max_element(upat_.begin(), upat_.end(), [](auto& a, auto& b) { return a.acc < b.acc; });
    auto least = std::min_element(ptt_.begin(), ptt_.end(), [](auto& a, auto& b) { return a.acc < b.acc; });
    if (most->first_pc && least->acc < most->acc && !find_pc(*most->first_pc)) {
      *least = PcEntry{*most->first_pc};
      ++ptt_replaced_;
    }
    std::fill(upat_.begin(), upat_.end(), Untracked{});
  }
  // Listings 4 and 6: halve, then a flag set when the hits exceed 1/64 of the accesses. As listed,
  // flags are only ever set.
  for (RegionEntry& e : rtt_) {
    if (!e.acc) continue;
    e.acc /= 2;
    e.shd_hits /= 2;
    e.pvt_hits /= 2;
    e.shared = e.shared || e.shd_hits > e.acc / t_.divisor;
    e.pvt = e.pvt || e.pvt_hits > e.acc / t_.divisor;
    e.trained = true;
  }
  for (PcEntry& e : ptt_) {
    if (!e.acc) continue;
    e.acc /= 2;
    e.hits /= 2;
    e.reuse = e.reuse || e.hits > e.acc / t_.divisor;
    e.trained = true;
  }
}

std::uint64_t RegionReuse::storage_bits() const {
  const std::uint64_t c = t_.counter_bits;
  std::uint64_t bits = 0;
  if (t_.exclusion)
    bits += std::uint64_t{t_.region_table} * 2 * 48                  // base and size, 48-bit addresses
            + std::uint64_t{t_.rtt} * (bits_for(t_.region_table) + 4 + 3 * c)  // region id, 4 flags, 3 counters
            + c                                                    // the untracked counter
            + array_.sets() * std::uint64_t{array_.ways()};        // the L1's CB bits
  if (t_.l1_bypass)
    bits += std::uint64_t{t_.ptt} * (32 + 3 + 2 * c) + std::uint64_t{t_.upat} * c +  // PTT (32-bit PC), UPAT
            array_.sets() * std::uint64_t{array_.ways()} * bits_for(t_.ptt + 1);  // PTT index in each L1 tag
  return bits;
}

RegionTags::RegionTags(const PolicySite& site, const std::string& name, std::uint32_t cores)
    : Bypass(site, name),
      array_(site.array),
      core_bits_(bits_for(cores)),
      copybacks_(site.counter(name, "copybacks", "lines copied back by an L1 and installed", "lines")),
      moved_(site.counter(name, "moved", "copied-back lines given back to their copier on its hit", "lines")) {}

const RegionTags::Tag* RegionTags::tag(std::uint64_t line) const {
  auto it = tags_.find(line);
  return it == tags_.end() ? nullptr : &it->second;
}

// Listing 3: a hit of the core that filled the line is private reuse, of any other shared reuse.
void RegionTags::accessed(const CacheRequest& r, CacheArray::Lookup l) {
  if (l != CacheArray::Lookup::hit) return;
  auto [it, fresh] = tags_.try_emplace(r.line, Tag{r.sm});  // a line installed without a decision (an atomic's)
  if (fresh) return;
  (r.sm == it->second.core ? it->second.pvt : it->second.shared) = true;
}

bool RegionTags::allocate(const CacheRequest& r, std::optional<std::uint64_t>) {
  if (r.copyback) {
    tags_[r.line] = Tag{r.sm, false, false, true};
    ++copybacks_;
    return true;
  }
  if (!decided(r.hint & region::kBypassL2)) return false;
  tags_[r.line] = Tag{r.sm};  // a fill: its core, the bits cleared
  return true;
}

// Sent with every reply; a request of another core answered by the fill shares the line too.
std::uint8_t RegionTags::feedback(const CacheRequest& r) {
  auto it = tags_.find(r.line);
  if (it == tags_.end() || !array_.contains(r.line)) return 0;
  if (r.sm != it->second.core) it->second.shared = true;
  return (it->second.shared ? region::kShared : 0) | (it->second.pvt ? region::kPrivate : 0);
}

bool RegionTags::gives_back(const CacheRequest& r) const {
  const Tag* t = tag(r.line);
  return t && t->copied_back && t->core == r.sm && (r.hint & region::kCopyBack) && array_.contains(r.line);
}

bool RegionTags::keep_on_hit(const CacheRequest& r) {
  if (!gives_back(r)) return true;
  ++moved_;
  return false;
}

bool RegionTags::copy_back(const CacheRequest& r) {
  return array_.contains(r.line) ? gives_back(r) : (r.hint & region::kCopyBack) != 0;
}

std::uint64_t RegionTags::storage_bits() const {
  return array_.sets() * std::uint64_t{array_.ways()} * (core_bits_ + 3);  // core id, SR, PR, CB [G L1128]
}

}  // namespace irr::mem
