// SPDX-License-Identifier: Apache-2.0
#include "models/mem/coalescer.h"

#include <algorithm>
#include <stdexcept>

#include "sim/error.h"

namespace irr::mem {

Coalescer::Coalescer(std::uint32_t line_size, std::uint32_t sector_size) : line_(line_size), sector_(sector_size) {
  if (!line_ || !sector_ || line_ % sector_ || line_ / sector_ > 32)
    throw std::invalid_argument("coalescer: the line size must be a multiple of the sector size, at most 32 sectors");
}

Coalescer Coalescer::from_config(const sim::Config& c) {
  const std::uint64_t line = c.get_size("l1.line_size"), sector = c.get_size("l1.sector_size");
  if (line % sector || line / sector > 32)
    throw Error("l1.sector_size (" + std::to_string(sector) + " B) must divide l1.line_size (" + std::to_string(line) +
                    " B) into at most 32 sectors",
                Error::Kind::config);
  return Coalescer(static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(sector));
}

std::vector<LineAccess> Coalescer::coalesce(const std::uint64_t* addr, std::uint32_t mask, unsigned size) const {
  std::vector<LineAccess> out;
  out.reserve(4);
  for (unsigned t = 0; t < 32; ++t) {
    if (!(mask >> t & 1)) continue;
    const std::uint64_t first = addr[t], last = addr[t] + (size ? size : 1) - 1;
    for (std::uint64_t line = first / line_ * line_; line <= last; line += line_) {
      const std::uint64_t lo = std::max(first, line), hi = std::min(last, line + line_ - 1);
      std::uint32_t sectors = 0;
      for (std::uint64_t s = (lo - line) / sector_; s <= (hi - line) / sector_; ++s) sectors |= 1u << s;
      LineAccess* hit = nullptr;
      for (auto& a : out)
        if (a.line == line) hit = &a;
      if (!hit) {
        out.push_back({line, 0, 0});
        hit = &out.back();
      }
      hit->sectors |= sectors;
      hit->threads |= 1u << t;
    }
  }
  return out;
}

}  // namespace irr::mem
