// SPDX-License-Identifier: Apache-2.0
#include "models/hwwl/wru_plan.h"

#include <algorithm>
#include <numeric>

namespace irr::hwwl {

namespace {

// The global greedy bit and the bank that exports: the fullest greedy bank not already giving
// inside the core, else the fullest greedy bank.
void decide_export(const std::vector<std::uint32_t>& occ, std::uint32_t threshold, Plan& plan) {
  std::size_t greedy = 0, needy = 0;
  for (std::uint32_t n : occ) {
    greedy += n > threshold;
    needy += n < threshold;
  }
  plan.global_greedy = greedy > needy;
  if (!plan.global_greedy) return;
  std::optional<std::uint32_t> best, best_free;
  for (std::uint32_t b = 0; b < occ.size(); ++b) {
    if (occ[b] <= threshold) continue;
    const bool giving = std::any_of(plan.moves.begin(), plan.moves.end(), [b](const Transfer& t) { return t.from == b; });
    if (!best || occ[b] > occ[*best]) best = b;
    if (!giving && (!best_free || occ[b] > occ[*best_free])) best_free = b;
  }
  plan.export_bank = best_free ? best_free : best;
}

}  // namespace

Plan plan_threshold(const std::vector<std::uint32_t>& occ, std::uint32_t threshold, std::uint32_t rotation) {
  std::vector<std::uint32_t> greedy, needy;
  for (std::uint32_t b = 0; b < occ.size(); ++b) {
    if (occ[b] > threshold) greedy.push_back(b);
    if (occ[b] < threshold) needy.push_back(b);
  }
  Plan plan;
  if (!needy.empty()) std::rotate(needy.begin(), needy.begin() + rotation % needy.size(), needy.end());
  for (std::size_t i = 0; i < std::min(greedy.size(), needy.size()); ++i) plan.moves.push_back({greedy[i], needy[i]});
  decide_export(occ, threshold, plan);
  return plan;
}

std::vector<std::uint32_t> rank_by_occupancy(const std::vector<std::uint32_t>& occ) {
  std::vector<std::uint32_t> rank(occ.size());
  std::iota(rank.begin(), rank.end(), 0u);
  std::stable_sort(rank.begin(), rank.end(), [&](std::uint32_t a, std::uint32_t b) { return occ[a] < occ[b]; });
  return rank;
}

Plan plan_lsorting(const std::vector<std::uint32_t>& occ, std::uint32_t threshold) {
  const std::vector<std::uint32_t> rank = rank_by_occupancy(occ);
  const auto needy = static_cast<std::size_t>(std::count_if(occ.begin(), occ.end(), [&](std::uint32_t n) { return n < threshold; }));
  const std::size_t k = std::min(needy, occ.size() / 2);
  Plan plan;
  for (std::size_t i = 0; i < k; ++i) {
    const std::uint32_t giver = rank[occ.size() - 1 - i], taker = rank[i];
    if (occ[giver] >= occ[taker] + 2) plan.moves.push_back({giver, taker});
  }
  decide_export(occ, threshold, plan);
  return plan;
}

GlobalPlan plan_gsorting(const std::vector<std::vector<std::uint32_t>>& occ, std::uint32_t threshold) {
  struct Ref {
    std::uint32_t core, lane, n;
  };
  std::vector<Ref> all;
  for (std::uint32_t k = 0; k < occ.size(); ++k)
    for (std::uint32_t l = 0; l < occ[k].size(); ++l) all.push_back({k, l, occ[k][l]});
  std::stable_sort(all.begin(), all.end(), [](const Ref& a, const Ref& b) { return a.n < b.n; });
  const std::size_t half = all.size() / 2;
  GlobalPlan g;
  g.cores.resize(occ.size());
  g.destination.resize(occ.size());
  std::vector<std::vector<Ref>> greedy(occ.size()), needy(occ.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Ref& r = all[i];
    if (i < half || r.n < threshold) needy[r.core].push_back(r);  // emptiest first
    else greedy[r.core].insert(greedy[r.core].begin(), r);       // fullest first
  }
  std::vector<std::size_t> spare_needy(occ.size(), 0);
  for (std::uint32_t k = 0; k < occ.size(); ++k) {
    const std::size_t pairs = std::min(greedy[k].size(), needy[k].size());
    for (std::size_t i = 0; i < pairs; ++i)
      if (greedy[k][i].n >= needy[k][i].n + 2) g.cores[k].moves.push_back({greedy[k][i].lane, needy[k][i].lane});
    spare_needy[k] = needy[k].size() - pairs;
    g.cores[k].global_greedy = greedy[k].size() > needy[k].size();
    if (g.cores[k].global_greedy) g.cores[k].export_bank = greedy[k][pairs].lane;  // the fullest unpaired
  }
  for (std::uint32_t k = 0; k < occ.size(); ++k) {
    if (!g.cores[k].export_bank) continue;
    std::optional<std::uint32_t> best;
    for (std::uint32_t d = 0; d < occ.size(); ++d)
      if (d != k && spare_needy[d] > 0 && (!best || spare_needy[d] > spare_needy[*best])) best = d;
    if (best) {
      g.destination[k] = best;
      --spare_needy[*best];
    } else {
      g.cores[k].export_bank.reset();  // nobody has room to spare
    }
  }
  return g;
}

}  // namespace irr::hwwl
