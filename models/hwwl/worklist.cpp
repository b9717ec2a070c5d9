// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/worklist.h"

namespace irr::hwwl {

Worklist::Worklist(std::uint32_t cores, std::uint32_t lanes, std::uint32_t bank_entries, Mode mode, bool redistribution)
    : Worklist(cores, lanes, bank_entries, mode, redistribution ? Scheme::lsorting : Scheme::none, 5) {}

Worklist::Worklist(std::uint32_t cores, std::uint32_t lanes, std::uint32_t bank_entries, Mode mode, Scheme scheme,
                   std::uint32_t threshold)
    : cores_(cores), lanes_(lanes), redistribution_(scheme != Scheme::none), scheme_(scheme), threshold_(threshold),
      rotation_(cores, 0) {
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

Plan Worklist::redistribute(std::uint32_t core, sim::Cycle c) {
  if (scheme_ == Scheme::none) return {};
  std::vector<std::uint32_t> occupancy(lanes_);
  for (std::uint32_t l = 0; l < lanes_; ++l) occupancy[l] = bank(core, l).occupied();
  Plan plan = scheme_ == Scheme::threshold ? plan_threshold(occupancy, threshold_, rotation_[core]++)
                                           : plan_lsorting(occupancy, threshold_);
  for (const Transfer& t : plan.moves) {
    Bank &from = bank(core, t.from), &to = bank(core, t.to);
    if (!from.port_free(c) || !to.port_free(c) || from.pullable() == 0 || to.free_pull_entries() == 0) {
      ++skipped_;  // a pull or push has the port this cycle (or the IDs are reserved, not yet landed)
      continue;
    }
    to.move_in(c, from.move_out(c));
    ++moved_;
  }
  return plan;
}

std::uint64_t Worklist::held() const {
  std::uint64_t n = 0;
  for (const Bank& b : banks_) n += b.held();
  return n;
}

}  // namespace irr::hwwl
