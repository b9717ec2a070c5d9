// SPDX-License-Identifier: Apache-2.0
#include "models/mem/cache_profile.h"

#include <algorithm>

#include <fmt/format.h>

namespace irr::mem {

namespace {
std::string hex(std::uint64_t v) { return fmt::format("{:#x}", v); }

nlohmann::json counters_json(const CacheProfile::Counters& c) {
  return {{"accesses", c.accesses}, {"hits", c.hits}, {"misses", c.misses}, {"fills", c.fills},
          {"bypassed", c.bypassed}, {"reuse", c.reuse}};
}
}  // namespace

CacheProfile::Counters& CacheProfile::region(std::uint64_t line) {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), line, [](std::uint64_t l, const Region& r) { return l < r.base; });
  if (it != regions_.begin() && line < std::prev(it)->base + std::prev(it)->size) return by_region_[{std::prev(it)->base, std::prev(it)->size}];
  return by_region_[{0, 0}];
}

void CacheProfile::accessed(std::uint64_t pc, std::uint64_t line, bool hit, std::uint64_t fetcher) {
  Counters& p = by_pc_[pc];
  Counters& r = region(line);
  ++p.accesses;
  ++r.accesses;
  if (!hit) {
    ++p.misses;
    ++r.misses;
    return;
  }
  ++p.hits;
  ++r.hits;
  ++by_pc_[fetcher].reuse;
  ++reused_by_[fetcher][pc];
}

void CacheProfile::filled(std::uint64_t pc, std::uint64_t line, bool installed) {
  Counters& p = by_pc_[pc];
  Counters& r = region(line);
  ++(installed ? p.fills : p.bypassed);
  ++(installed ? r.fills : r.bypassed);
}

nlohmann::json CacheProfile::report(const std::function<nlohmann::json(std::uint64_t pc)>& where) const {
  nlohmann::json pcs = nlohmann::json::array(), regions = nlohmann::json::array();
  for (const auto& [pc, c] : by_pc_) {
    nlohmann::json j = where(pc);
    j["pc"] = hex(pc);
    j.update(counters_json(c));
    // The reuse a PC-keyed bypass sees: hits on its lines per access it made.
    j["reuse_per_access"] = c.accesses ? static_cast<double>(c.reuse) / static_cast<double>(c.accesses) : 0.0;
    if (auto it = reused_by_.find(pc); it != reused_by_.end()) {
      nlohmann::json by = nlohmann::json::object();
      for (const auto& [hitter, n] : it->second) by[hex(hitter)] = n;
      j["reused_by"] = by;
    }
    pcs.push_back(std::move(j));
  }
  for (const auto& [key, c] : by_region_) {
    nlohmann::json j = key.second ? nlohmann::json{{"base", hex(key.first)}, {"bytes", key.second}}
                                  : nlohmann::json{{"base", nullptr}, {"note", "lines outside every allocation"}};
    j.update(counters_json(c));
    j.erase("reuse");  // a region's reuse is its hits
    regions.push_back(std::move(j));
  }
  return {{"by_pc", pcs}, {"by_region", regions}};
}

}  // namespace irr::mem
