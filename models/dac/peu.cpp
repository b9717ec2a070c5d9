// SPDX-License-Identifier: Apache-2.0
#include "models/dac/peu.h"

#include <stdexcept>

namespace irr::dac {

namespace {

using core::ptx::Cmp;

bool compare(Cmp c, bool is_signed, std::int64_t x, std::int64_t y) {
  const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y);
  switch (c) {
    case Cmp::eq: return x == y;
    case Cmp::ne: return x != y;
    case Cmp::lt: return is_signed ? x < y : ux < uy;
    case Cmp::le: return is_signed ? x <= y : ux <= uy;
    case Cmp::gt: return is_signed ? x > y : ux > uy;
    case Cmp::ge: return is_signed ? x >= y : ux >= uy;
    case Cmp::lo: return ux < uy;
    case Cmp::ls: return ux <= uy;
    case Cmp::hi: return ux > uy;
    case Cmp::hs: return ux >= uy;
    default: throw std::invalid_argument("PEU: an integer comparison (eq, ne, lt, le, gt, ge, lo, ls, hi, hs)");
  }
}

// Ordering comparisons are monotone along an affine operand: equal end results mean equal between.
// eq and ne are not (a value may equal b only in the middle), unless the offset is 0.
bool monotone(Cmp c) { return c != Cmp::eq && c != Cmp::ne; }

}  // namespace

PredicateExpansion expand_predicate(Cmp cmp, bool is_signed, std::int64_t base, std::int64_t offset, std::int64_t b,
                                    const std::vector<std::uint32_t>& active) {
  PredicateExpansion e;
  auto value = [&](std::uint64_t t) { return static_cast<std::int64_t>(static_cast<std::uint64_t>(base) + t * static_cast<std::uint64_t>(offset)); };
  if (offset == 0) {  // scalar against scalar: one comparison for the whole CTA
    const bool r = compare(cmp, is_signed, base, b);
    e.comparisons = 1;
    for (std::uint32_t a : active) e.masks.push_back(r ? a : 0);
    return e;
  }
  for (std::size_t w = 0; w < active.size(); ++w) {
    const std::uint32_t a = active[w];
    if (!a) {
      e.masks.push_back(0);
      continue;
    }
    const unsigned first = static_cast<unsigned>(__builtin_ctz(a)), last = 31 - static_cast<unsigned>(__builtin_clz(a));
    const std::int64_t vf = value(32 * w + first), vl = value(32 * w + last);
    const bool rf = compare(cmp, is_signed, vf, b), rl = compare(cmp, is_signed, vl, b);
    e.comparisons += first == last ? 1 : 2;
    // The values between must not wrap around in the comparison's own order.
    const bool increasing = offset > 0;
    const bool signed_order = is_signed && cmp != Cmp::lo && cmp != Cmp::ls && cmp != Cmp::hi && cmp != Cmp::hs;
    const bool ordered = signed_order ? (increasing ? vl >= vf : vl <= vf)
                                   : (increasing ? static_cast<std::uint64_t>(vl) >= static_cast<std::uint64_t>(vf)
                                                 : static_cast<std::uint64_t>(vl) <= static_cast<std::uint64_t>(vf));
    if (rf == rl && ((monotone(cmp) && ordered) || first == last)) {
      e.masks.push_back(rf ? a : 0);  // a convergent warp
      continue;
    }
    std::uint32_t m = 0;  // divergent: the lanes compare
    for (unsigned l = 0; l < 32; ++l)
      if ((a >> l & 1) && compare(cmp, is_signed, value(32 * w + l), b)) m |= 1u << l;
    e.masks.push_back(m);
    ++e.lane_warps;
  }
  return e;
}

}  // namespace irr::dac
