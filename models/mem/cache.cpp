// SPDX-License-Identifier: Apache-2.0
#include "models/mem/cache.h"

#include <algorithm>

#include "sim/error.h"

namespace irr::mem {

CacheArray::CacheArray(std::uint64_t size, std::uint32_t ways, std::uint32_t line_size, const std::string& name)
    : ways_(ways), line_size_(line_size) {
  if (!ways || !line_size || size % (static_cast<std::uint64_t>(ways) * line_size))
    throw Error(name + ": a capacity of " + std::to_string(size) + " B is not a whole number of sets of ways x line size = " +
                    std::to_string(static_cast<std::uint64_t>(ways) * line_size) + " B",
                Error::Kind::config);
  sets_ = static_cast<std::uint32_t>(size / (static_cast<std::uint64_t>(ways) * line_size));
  ways_array_.resize(static_cast<std::size_t>(sets_) * ways_);
  pow2_ = sets_ && (line_size_ & (line_size_ - 1)) == 0 && (sets_ & (sets_ - 1)) == 0;
  while (pow2_ && (std::uint64_t{1} << line_shift_) < line_size_) ++line_shift_;
}

CacheArray::Way* CacheArray::find(std::uint64_t line) {
  Way* set = &ways_array_[static_cast<std::size_t>(set_of(line)) * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].line == line) return &set[w];
  return nullptr;
}

const CacheArray::Way* CacheArray::find(std::uint64_t line) const { return const_cast<CacheArray*>(this)->find(line); }

CacheArray::Lookup CacheArray::lookup(std::uint64_t line, std::uint32_t sectors) {
  Way* w = find(line);
  if (!w) return Lookup::miss;
  if (sectors & ~w->sectors) return Lookup::sector_miss;
  w->used = ++clock_;
  w->touched |= sectors;
  return Lookup::hit;
}

bool CacheArray::contains(std::uint64_t line) const { return find(line) != nullptr; }

std::uint32_t CacheArray::valid_sectors(std::uint64_t line) const {
  const Way* w = find(line);
  return w ? w->sectors : 0;
}

std::uint64_t CacheArray::pc_of(std::uint64_t line) const {
  const Way* w = find(line);
  return w ? w->pc : 0;
}

CacheArray::Place CacheArray::place(std::uint64_t line) {
  Way* set = &ways_array_[static_cast<std::size_t>(set_of(line)) * ways_];
  Way *free = nullptr, *lru = nullptr;
  for (std::uint32_t i = 0; i < ways_; ++i) {
    Way& w = set[i];
    if (w.valid) {
      if (w.line == line) return {&w, nullptr};
      if (!w.locked && (!lru || w.used < lru->used)) lru = &w;
    } else if (!free && !w.locked) {
      free = &w;
    }
  }
  return {nullptr, free ? free : lru};
}

std::optional<std::uint64_t> CacheArray::victim(std::uint64_t line) const {
  const Place p = const_cast<CacheArray*>(this)->place(line);
  if (p.hit || !p.victim || !p.victim->valid) return std::nullopt;
  return p.victim->line;
}

std::optional<CacheArray::Evicted> CacheArray::fill(std::uint64_t line, bool dirty, bool mru, bool* installed,
                                                    const LineFill& f) {
  if (installed) *installed = true;
  const std::uint32_t sectors = sectored_ ? f.sectors : kWholeLine;
  auto [w, victim] = place(line);
  if (w) {
    w->dirty = w->dirty || dirty;
    w->copyback = w->copyback || f.copyback;
    w->used = ++clock_;
    w->sectors |= sectors;
    w->touched |= f.used;
    return std::nullopt;
  }
  if (!victim) {
    if (installed) *installed = false;
    return std::nullopt;
  }
  std::optional<Evicted> out;
  if (victim->valid) out = evicted(*victim);
  *victim = Way{line, mru ? ++clock_ : 0, true, dirty, false, sectors, f.used, f.first, f.pc, f.copyback};
  return out;
}

void CacheArray::mark_dirty(std::uint64_t line) {
  if (Way* w = find(line)) w->dirty = true;
}

std::optional<CacheArray::Evicted> CacheArray::invalidate(std::uint64_t line) {
  Way* w = find(line);
  if (!w) return std::nullopt;
  Evicted e = evicted(*w);
  *w = Way{};
  return e;
}

void CacheArray::clear() { std::fill(ways_array_.begin(), ways_array_.end(), Way{}); }

void CacheArray::lock(std::uint64_t line, bool locked) {
  if (Way* w = find(line)) w->locked = locked;
}

std::optional<CacheArray::Evicted> VictimBuffer::insert(const CacheArray::Evicted& e) {
  held_.push_back(e);
  if (held_.size() <= lines_) return std::nullopt;
  CacheArray::Evicted oldest = held_.front();
  held_.erase(held_.begin());
  return oldest;
}

std::optional<CacheArray::Evicted> VictimBuffer::take(std::uint64_t line) {
  for (auto it = held_.begin(); it != held_.end(); ++it)
    if (it->line == line) {
      CacheArray::Evicted e = *it;
      held_.erase(it);
      return e;
    }
  return std::nullopt;
}

void CachePolicies::accessed(const CacheRequest& r, CacheArray::Lookup l) const {
  for (const auto& p : list_) p->accessed(r, l);
}

std::uint32_t CachePolicies::fetch(const CacheRequest& r, std::uint32_t present) const {
  std::uint32_t chosen = r.sectors;
  for (const auto& p : list_) chosen = p->fetch(r, chosen, present) | r.sectors;
  return chosen;
}

bool CachePolicies::allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) const {
  bool all = true;
  for (const auto& p : list_) all = p->allocate(r, victim) && all;  // every policy sees the decision point
  return all;
}

bool CachePolicies::insert_mru(const CacheRequest& r) const {
  for (const auto& p : list_)
    if (!p->insert_mru(r)) return false;
  return true;
}

void CachePolicies::evicted(const CacheArray::Evicted& e) const {
  for (const auto& p : list_) p->evicted(e);
}

bool CachePolicies::keep_on_hit(const CacheRequest& r) const {
  bool all = true;
  for (const auto& p : list_) all = p->keep_on_hit(r) && all;
  return all;
}

bool CachePolicies::copy_back(const CacheRequest& r) const {
  bool any = false;
  for (const auto& p : list_) any = p->copy_back(r) || any;
  return any;
}

std::uint8_t CachePolicies::hint(const CacheRequest& r) const {
  std::uint8_t bits = 0;
  for (const auto& p : list_) bits |= p->hint(r);
  return bits;
}

std::uint8_t CachePolicies::feedback(const CacheRequest& r) const {
  std::uint8_t bits = 0;
  for (const auto& p : list_) bits |= p->feedback(r);
  return bits;
}

void CachePolicies::filled(const CacheRequest& r) const {
  for (const auto& p : list_) p->filled(r);
}

void CachePolicies::allocated(const std::vector<Region>& regions) const {
  for (const auto& p : list_) p->allocated(regions);
}

}  // namespace irr::mem
