// SPDX-License-Identifier: Apache-2.0
// What one level of caches (every L1, or every L2 slice) did with the loads of each PC and of each
// allocated region (`--profile`, in profile.json): accesses, hits, misses, fills installed and
// fills bypassed, and the hits on the lines each PC fetched — the reuse a PC-keyed bypass credits
// to the fetching PC (B+C's L1 half bypasses a PC whose lines get hits on at most 1/64 of its
// accesses) — with the PCs that made those hits. Loads only; off, the caches never reach it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/mem/cache.h"

namespace irr::mem {

class CacheProfile {
 public:
  struct Counters {
    std::uint64_t accesses = 0, hits = 0, misses = 0, fills = 0, bypassed = 0;
    std::uint64_t reuse = 0;  // by PC: hits on the lines this PC fetched
  };
  // A load looked up: a hit on a line `fetcher` fetched (0: not known), or a miss.
  void accessed(std::uint64_t pc, std::uint64_t line, bool hit, std::uint64_t fetcher);
  // A fill of a line not cached, for the load at `pc`: installed, or bypassed.
  void filled(std::uint64_t pc, std::uint64_t line, bool installed);
  // The runtime's allocations (at each launch): lines are counted under the one holding them.
  void allocated(const std::vector<Region>& regions) { regions_ = regions; }

  const std::map<std::uint64_t, Counters>& by_pc() const { return by_pc_; }
  // {"by_pc": [...], "by_region": [...]}, each PC described by `where` (its instruction).
  nlohmann::json report(const std::function<nlohmann::json(std::uint64_t pc)>& where) const;

 private:
  Counters& region(std::uint64_t line);
  std::map<std::uint64_t, Counters> by_pc_;
  std::map<std::uint64_t, std::map<std::uint64_t, std::uint64_t>> reused_by_;  // fetcher -> hitting PC -> hits
  std::vector<Region> regions_;                                                // in address order
  std::map<std::pair<std::uint64_t, std::uint64_t>, Counters> by_region_;      // (base, size); (0, 0): outside all
};

}  // namespace irr::mem
