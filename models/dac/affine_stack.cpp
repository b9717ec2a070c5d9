// SPDX-License-Identifier: Apache-2.0
#include "models/dac/affine_stack.h"

#include <algorithm>

namespace irr::dac {

unsigned AffineStack::branch(std::uint32_t pc, std::uint32_t target, std::uint32_t rpc, const std::vector<At>& at) {
  written_ = 0;
  std::uint32_t any_taken = 0, any_not = 0;
  for (const At& a : at) {
    any_taken |= a.taken & a.active;
    any_not |= a.active & ~a.taken;
  }
  if (!any_taken || !any_not) return 0;  // every thread at it goes one way
  Level l;
  l.rpc = rpc;
  l.mixed.assign(threads_.size(), 0);
  const bool taken_path = target != rpc, fall_path = pc + 1 != rpc;
  l.entries = taken_path + fall_path;
  for (const At& a : at) {
    if (a.warp >= threads_.size()) continue;
    const std::uint32_t t = a.taken & a.active, n = a.active & ~a.taken;
    l.mixed[a.warp] = static_cast<std::uint8_t>((taken_path && code_mixed(a.warp, t)) + (fall_path && code_mixed(a.warp, n)));
    written_ += l.mixed[a.warp];
  }
  if (!levels_.empty() && levels_.back().rpc == rpc) {  // the same reconvergence point: the top entry updated
    levels_.back() = std::move(l);
    return 0;
  }
  const unsigned pushed = l.entries;
  levels_.push_back(std::move(l));
  return pushed;
}

unsigned AffineStack::issued(std::uint32_t pc) {
  unsigned popped = 0;
  read_ = 0;
  while (!levels_.empty() && levels_.back().rpc <= pc) {
    const Level& l = levels_.back();
    for (const auto m : l.mixed) read_ += m;
    popped += l.entries;
    levels_.pop_back();
  }
  return popped;
}

unsigned AffineStack::depth() const {
  unsigned n = 1;  // the base entry
  for (const Level& l : levels_) n += l.entries;
  return n;
}

unsigned AffineStack::pws_depth(std::uint32_t warp) const {
  unsigned n = 0;
  for (const Level& l : levels_)
    if (warp < l.mixed.size()) n += l.mixed[warp];
  return n;
}

unsigned AffineStack::pws_max() const {
  unsigned most = 0;
  for (std::uint32_t w = 0; w < threads_.size(); ++w) most = std::max(most, pws_depth(w));
  return most;
}

}  // namespace irr::dac
