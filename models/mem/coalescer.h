// SPDX-License-Identifier: Apache-2.0
// The coalescer: one warp memory instruction (up to 32 addresses under an active mask, an access
// size) becomes the minimal set of line requests, each with the mask of the sectors it touches.
// Lines are 128 bytes and sectors 32 bytes by default (l1.line_size, l1.sector_size).
#pragma once

#include "sim/config.h"

#include <cstdint>
#include <vector>

namespace irr::mem {

struct LineAccess {
  std::uint64_t line;        // line-aligned address
  std::uint32_t sectors;     // bit i: sector i of the line is touched
  std::uint32_t threads;     // bit t: thread t of the warp touches this line
};

class Coalescer {
 public:
  Coalescer(std::uint32_t line_size, std::uint32_t sector_size);
  // From l1.line_size and l1.sector_size; a pair it cannot take is a configuration error naming them.
  static Coalescer from_config(const sim::Config& c);
  // Lines in order of the lowest active thread touching them. An access crossing a line boundary
  // touches both lines.
  std::vector<LineAccess> coalesce(const std::uint64_t* addresses, std::uint32_t active_mask, unsigned size) const;
  // The same into `out` (cleared first): a caller coalescing every memory instruction keeps one.
  void coalesce(const std::uint64_t* addresses, std::uint32_t active_mask, unsigned size, std::vector<LineAccess>& out) const;
  std::uint32_t line_size() const { return line_; }
  std::uint32_t sector_size() const { return sector_; }

 private:
  std::uint32_t line_, sector_;
};

}  // namespace irr::mem
