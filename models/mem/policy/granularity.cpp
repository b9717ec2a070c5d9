// SPDX-License-Identifier: Apache-2.0
#include "models/mem/policy/granularity.h"

#include <stdexcept>

#include "sim/hash.h"

namespace irr::mem {

namespace {
std::uint32_t popcount(std::uint32_t x) { return static_cast<std::uint32_t>(__builtin_popcount(x)); }
std::uint64_t log2_ceil(std::uint64_t n) { return n <= 1 ? 0 : 64 - static_cast<std::uint64_t>(__builtin_clzll(n - 1)); }
using sim::mix64;  // table indices from PCs and lines
}  // namespace

Granularity::Granularity(const PolicySite& site, const std::string& name)
    : name_(name),
      sectors_(site.sectors_per_line),
      all_(sector_mask(site.sectors_per_line)),
      lines_(static_cast<std::uint64_t>(site.array.sets()) * site.array.ways()),
      sector_misses_(site.counter(name, "sector_misses", "loads that found the line but not every sector", "accesses")),
      filled_(site.counter(name, "sectors_filled", "sectors of the lines that left the cache, as fetched", "sectors")),
      used_(site.counter(name, "sectors_used", "of those, sectors read while cached", "sectors")),
      used_per_line_(site.distribution(name, "used_per_line", "sectors read of each line that left the cache", "sectors",
                                       site.sectors_per_line + 1)),
      fetch_probe_(site.probe(name, "fetch", site.sectors_per_line, "the sectors the last miss fetched")) {}

std::uint32_t Granularity::fetch(const CacheRequest& r, std::uint32_t chosen, std::uint32_t present) {
  if (!(r.sectors & all_)) throw std::logic_error(name_ + ": a miss that reads no sector of its line");
  const std::uint32_t m = present ? chosen : predict(r, chosen);
  fetch_probe_.set(m & all_ & ~present);
  return m;
}

void Granularity::accessed(const CacheRequest&, CacheArray::Lookup l) {
  if (l == CacheArray::Lookup::sector_miss) ++sector_misses_;
}

void Granularity::evicted(const CacheArray::Evicted& e) {
  filled_ += popcount(e.valid & all_);
  used_ += popcount(e.valid & e.used & all_);
  used_per_line_.sample(popcount(e.valid & e.used & all_));
}

SpatialPatternPredictor::SpatialPatternPredictor(const PolicySite& site, std::uint32_t entries, std::uint32_t ways,
                                                 bool default_line)
    : Granularity(site, "spp"),
      sets_(entries / ways),
      ways_(ways),
      default_line_(default_line),
      table_(entries),
      hits_(site.counter("spp", "pht_hits", "misses whose PC and sector had a pattern", "accesses")),
      misses_(site.counter("spp", "pht_misses", "misses that fetched the default and allocated a pattern entry", "accesses")) {}

SpatialPatternPredictor::Entry* SpatialPatternPredictor::find(std::uint64_t key) {
  Entry* set = &table_[mix64(key) % sets_ * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].key == key) return &set[w];
  return nullptr;
}

std::uint32_t SpatialPatternPredictor::predict(const CacheRequest& r, std::uint32_t chosen) {
  const std::uint64_t key = r.pc * sectors_ + first_sector(r.sectors);
  if (Entry* e = find(key)) {
    ++hits_;
    e->used = ++clock_;
    return chosen | e->pattern;
  }
  ++misses_;
  Entry* set = &table_[mix64(key) % sets_ * ways_];
  Entry* victim = set;
  for (std::uint32_t w = 0; w < ways_; ++w)
    if (!set[w].valid || set[w].used < victim->used) victim = &set[w];
  const std::uint32_t def = default_line_ ? all() : 0;
  *victim = Entry{true, key, ++clock_, def};
  return chosen | def;
}

void SpatialPatternPredictor::evicted(const CacheArray::Evicted& e) {
  Granularity::evicted(e);
  if (Entry* x = find(e.pc * sectors_ + e.first)) x->pattern = e.used & all();  // the last pattern [G L1254]
}

// Per line: valid and used sectors, and the pointer to its pattern entry (the CPT [G L1238]).
std::uint64_t SpatialPatternPredictor::line_bits() const { return 2 * sectors_ + log2_ceil(table_.size()); }

std::uint64_t SpatialPatternPredictor::table_bits() const {
  return static_cast<std::uint64_t>(table_.size()) * (sectors_ + 16);  // pattern and a 16-bit partial tag (ours)
}

BimodalGranularityPredictor::BimodalGranularityPredictor(const PolicySite& site, std::uint32_t bits, std::uint32_t hashes,
                                                         std::uint32_t refresh, double skew, std::uint32_t fine_threshold)
    : Granularity(site, "lamar"),
      bits_(bits),
      hashes_(hashes),
      refresh_(refresh),
      fine_threshold_(fine_threshold),
      skew_(skew),
      arrays_{std::vector<bool>(bits), std::vector<bool>(bits)},
      fine_predictions_(site.counter("lamar", "fine_predictions", "misses predicted fine-grained: the requested sectors only", "accesses")),
      flips_(site.counter("lamar", "mode_flips", "times the default granularity flipped (skew)", "flips")),
      mode_probe_(site.probe("lamar", "default_fine", 1, "the default granularity: 1 fine (the filter holds coarse lines)")) {}

std::uint32_t BimodalGranularityPredictor::hash(std::uint64_t line, std::uint32_t i) const {
  return static_cast<std::uint32_t>(mix64(line * 0x9e3779b97f4a7c15ull + i) % bits_);
}

bool BimodalGranularityPredictor::member(std::uint64_t line) const {
  for (const auto& a : arrays_) {
    bool all = true;
    for (std::uint32_t i = 0; i < hashes_ && all; ++i) all = a[hash(line, i)];
    if (all) return true;
  }
  return false;
}

std::uint32_t BimodalGranularityPredictor::predict(const CacheRequest& r, std::uint32_t chosen) {
  const bool fine = member(r.line) != default_fine_;
  if (!fine) return all();
  ++fine_predictions_;
  return chosen;
}

void BimodalGranularityPredictor::evicted(const CacheArray::Evicted& e) {
  Granularity::evicted(e);
  const bool fine = popcount(e.used & all()) <= fine_threshold_;
  ++window_evictions_;
  if (fine != default_fine_) {  // unlike the default: remember it
    for (std::uint32_t i = 0; i < hashes_; ++i) arrays_[newer_][hash(e.line, i)] = true;
    ++window_insertions_;
    if (++insertions_ >= refresh_) {
      newer_ ^= 1;
      arrays_[newer_].assign(bits_, false);
      insertions_ = 0;
    }
  }
  if (window_evictions_ >= refresh_) {
    if (static_cast<double>(window_insertions_) > skew_ * window_evictions_) {
      default_fine_ = !default_fine_;
      mode_probe_.set(default_fine_);
      for (auto& a : arrays_) a.assign(bits_, false);
      insertions_ = 0;
      ++flips_;
    }
    window_evictions_ = window_insertions_ = 0;
  }
}

NeighbourAccessPredictor::NeighbourAccessPredictor(const PolicySite& site, std::uint32_t entries, std::uint32_t counter_bits,
                                                   std::uint32_t threshold, std::uint32_t initial)
    : Granularity(site, "nap"),
      max_((1u << counter_bits) - 1),
      threshold_(threshold),
      initial_(initial),
      table_(entries),
      neighbours_(site.counter("nap", "neighbours_fetched", "sectors fetched beside the requested ones", "sectors")) {}

NeighbourAccessPredictor::Entry* NeighbourAccessPredictor::find(std::uint64_t pc) {
  for (Entry& e : table_)
    if (e.valid && e.pc == pc) return &e;
  return nullptr;
}

std::uint32_t NeighbourAccessPredictor::predict(const CacheRequest& r, std::uint32_t chosen) {
  Entry* e = find(r.pc);
  if (!e) {  // a new PC takes the least recently used entry, its counters at the initial value
    e = &table_.front();
    for (Entry& x : table_)
      if (!x.valid || x.used < e->used) e = &x;
    *e = Entry{true, r.pc, 0, std::vector<std::uint8_t>(2 * sectors_ - 1, static_cast<std::uint8_t>(initial_))};
  }
  e->used = ++clock_;
  const std::uint32_t first = first_sector(r.sectors);
  std::uint32_t m = chosen;
  for (std::uint32_t s = 0; s < sectors_; ++s)
    if (e->counters[s + sectors_ - 1 - first] > threshold_) m |= 1u << s;
  neighbours_ += popcount(m & ~chosen);
  return m;
}

void NeighbourAccessPredictor::evicted(const CacheArray::Evicted& e) {
  Granularity::evicted(e);
  Entry* x = find(e.pc);
  if (!x) return;
  for (std::uint32_t s = 0; s < sectors_; ++s) {
    if (s == e.first) continue;
    std::uint8_t& c = x->counters[s + sectors_ - 1 - e.first];
    if (e.used >> s & 1) c = static_cast<std::uint8_t>(std::min<std::uint32_t>(c + 1, max_));
    else if (c) --c;
  }
}

std::uint32_t NeighbourAccessPredictor::counter(std::uint64_t pc, int offset) const {
  for (const Entry& e : table_)
    if (e.valid && e.pc == pc) return e.counters[static_cast<std::uint32_t>(offset + static_cast<int>(sectors_) - 1)];
  return initial_;
}

// Per line: valid and used sectors, its PC's entry and the first-missed sector [G L1256].
std::uint64_t NeighbourAccessPredictor::line_bits() const {
  return 2 * sectors_ + log2_ceil(table_.size()) + log2_ceil(sectors_);
}

std::uint64_t NeighbourAccessPredictor::table_bits() const {
  // 7 four-bit counters an entry [G L1276], and a 32-bit PC tag (ours: the thesis gives none)
  return static_cast<std::uint64_t>(table_.size()) * ((2 * sectors_ - 1) * (32 - __builtin_clz(max_)) + 32);
}

}  // namespace irr::mem
