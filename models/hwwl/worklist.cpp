// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/worklist.h"

namespace irr::hwwl {

Worklist::Worklist(std::uint32_t cores, std::uint32_t lanes, std::uint32_t bank_entries, Mode mode, bool redistribution)
    : cores_(cores), lanes_(lanes), redistribution_(redistribution) {
  banks_.reserve(static_cast<std::size_t>(cores) * lanes);
  for (std::uint32_t i = 0; i < cores * lanes; ++i) banks_.emplace_back(bank_entries, mode);
}

bool Worklist::core_empty(std::uint32_t core) const {
  for (std::uint32_t l = 0; l < lanes_; ++l)
    if (!bank(core, l).empty()) return false;
  return true;
}

std::uint32_t Worklist::pull(std::uint32_t core, std::uint32_t lane, sim::Cycle c) {
  Bank& b = bank(core, lane);
  if (b.pullable() > 0) {
    ++pulled_;
    return b.pull(c);
  }
  if (!redistribution_) return kDone;
  for (std::uint32_t k = 0; k < cores_; ++k)
    if (!core_empty(k)) return kWait;
  return elsewhere_() ? kWait : kDone;
}

bool Worklist::push(std::uint32_t core, std::uint32_t lane, std::uint32_t id, sim::Cycle c) {
  Bank& b = bank(core, lane);
  if (b.push_full()) return false;
  b.push(c, id);
  ++pushed_;
  return true;
}

void Worklist::kernel_end() {
  for (Bank& b : banks_) b.swap();
}

std::uint64_t Worklist::held() const {
  std::uint64_t n = 0;
  for (const Bank& b : banks_) n += b.held();
  return n;
}

}  // namespace irr::hwwl
