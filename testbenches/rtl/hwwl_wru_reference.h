// SPDX-License-Identifier: Apache-2.0
// An independent reference for the local-sorting WRU decision (rtl/hwwl/hwwl_wru_lsort.v),
// written from docs/hwwl.md rather than from plan_lsorting: a bank's place in the ranking is the
// number of banks that come before it (less work, or as much and a lower index).
#pragma once

#include <vector>

#include "models/hwwl/blocks.h"

namespace irr::testing {

class WruReference : public hwwl::WruBlock {
 public:
  explicit WruReference(hwwl::WruParams p) : p_(p) {
    out_.rank.assign(p.banks, 0);
    out_.move_from.assign(p.banks / 2, 0);
    out_.move_to.assign(p.banks / 2, 0);
  }
  hwwl::WruOut eval(const hwwl::WruIn& in) override {
    in_ = in;
    return out_;
  }
  void edge() override {
    const unsigned n = p_.banks, t = p_.threshold;
    std::vector<unsigned> occ(n, 0);
    for (unsigned b = 0; b < n && b < in_.occupancy.size(); ++b) occ[b] = in_.occupancy[b] & ((1u << p_.count_width) - 1);
    hwwl::WruOut o;
    o.rank.assign(n, 0);
    for (unsigned b = 0; b < n; ++b) {
      unsigned place = 0;
      for (unsigned c = 0; c < n; ++c) place += occ[c] < occ[b] || (occ[c] == occ[b] && c < b);
      o.rank[place] = b;
    }
    unsigned needy = 0, greedy = 0;
    for (unsigned v : occ) {
      needy += v < t;
      greedy += v > t;
    }
    const unsigned k = needy < n / 2 ? needy : n / 2;
    std::vector<bool> giving(n, false);
    for (unsigned j = 0; j < n / 2; ++j) {
      const unsigned from = o.rank[n - 1 - j], to = o.rank[j];
      o.move_from.push_back(from);
      o.move_to.push_back(to);
      if (j < k && occ[from] >= occ[to] + 2) {
        o.move_valid |= 1u << j;
        giving[from] = true;
      }
    }
    // The fullest greedy bank, lowest index on ties: one that is not giving if there is one.
    int best = -1, best_free = -1;
    for (unsigned b = 0; b < n; ++b) {
      if (occ[b] <= t) continue;
      if (best < 0 || occ[b] > occ[best]) best = static_cast<int>(b);
      if (!giving[b] && (best_free < 0 || occ[b] > occ[best_free])) best_free = static_cast<int>(b);
    }
    o.export_bank = static_cast<std::uint32_t>(best_free >= 0 ? best_free : best >= 0 ? best : 0);
    o.global_greedy = o.export_valid = greedy > needy;
    if (in_.rst) {
      o.move_valid = 0;
      o.global_greedy = o.export_valid = false;
    }
    out_ = o;
  }

 private:
  const hwwl::WruParams p_;
  hwwl::WruIn in_;
  hwwl::WruOut out_;
};

}  // namespace irr::testing
