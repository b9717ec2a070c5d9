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
}

CacheArray::Way* CacheArray::find(std::uint64_t line) {
  Way* set = &ways_array_[static_cast<std::size_t>(set_of(line)) * ways_];
  for (std::uint32_t w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].line == line) return &set[w];
  return nullptr;
}

const CacheArray::Way* CacheArray::find(std::uint64_t line) const { return const_cast<CacheArray*>(this)->find(line); }

bool CacheArray::access(std::uint64_t line) {
  Way* w = find(line);
  if (w) w->used = ++clock_;
  return w != nullptr;
}

bool CacheArray::contains(std::uint64_t line) const { return find(line) != nullptr; }

std::optional<CacheArray::Evicted> CacheArray::fill(std::uint64_t line, bool dirty, bool mru, bool* installed) {
  if (installed) *installed = true;
  if (Way* w = find(line)) {
    w->dirty = w->dirty || dirty;
    w->used = ++clock_;
    return std::nullopt;
  }
  Way* set = &ways_array_[static_cast<std::size_t>(set_of(line)) * ways_];
  Way* victim = nullptr;
  for (std::uint32_t i = 0; i < ways_; ++i) {
    Way& w = set[i];
    if (w.locked) continue;
    if (!w.valid) {
      victim = &w;
      break;
    }
    if (!victim || w.used < victim->used) victim = &w;
  }
  if (!victim) {
    if (installed) *installed = false;
    return std::nullopt;
  }
  std::optional<Evicted> out;
  if (victim->valid) out = Evicted{victim->line, victim->dirty};
  *victim = Way{line, mru ? ++clock_ : 0, true, dirty, false};
  return out;
}

void CacheArray::mark_dirty(std::uint64_t line) {
  if (Way* w = find(line)) w->dirty = true;
}

bool CacheArray::invalidate(std::uint64_t line) {
  Way* w = find(line);
  if (w) *w = Way{};
  return w != nullptr;
}

void CacheArray::clear() { std::fill(ways_array_.begin(), ways_array_.end(), Way{}); }

void CacheArray::lock(std::uint64_t line, bool locked) {
  if (Way* w = find(line)) w->locked = locked;
}

}  // namespace irr::mem
