// SPDX-License-Identifier: Apache-2.0
// The decisions of one core's work redistribution unit (WRU) at a redistribution point
// (../shared/specs/hwwl_iru_dats.md 1.5.4): which of its banks give one work ID to which, whether
// the core is globally greedy, and which bank offers work to another core over the ICRN. Pure
// functions of the banks' occupancies (reserved entries included), so the paper's cases are
// tables; the WRU model applies a plan through the banks' single ports.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace irr::hwwl {

struct Transfer {
  std::uint32_t from, to;  // bank (lane) indices within the core
  bool operator==(const Transfer& o) const { return from == o.from && to == o.to; }
};

struct Plan {
  std::vector<Transfer> moves;              // one work ID each (one port access per bank)
  bool global_greedy = false;               // more greedy banks than needy ones [K L245]
  std::optional<std::uint32_t> export_bank; // when globally greedy: the bank that sends over the ICRN
};

// Threshold scheme [K L245]: greedy banks (more than `threshold`) give to needy ones (fewer), paired
// in bank order, the needy list rotated by `rotation` (round-robin across intervals).
Plan plan_threshold(const std::vector<std::uint32_t>& occupancy, std::uint32_t threshold, std::uint32_t rotation = 0);

// The banks in increasing order of occupancy, ties by bank index (the sorting network's output).
std::vector<std::uint32_t> rank_by_occupancy(const std::vector<std::uint32_t>& occupancy);

// Local sorting [K L247]: banks ranked by occupancy; the k most loaded give to the k least loaded,
// k = min(needy banks, half the banks) — so when every bank is needy the fuller half gives to the
// emptier half. A pair moves only if the giver holds at least two more than the taker (one fewer
// would just swap their roles).
Plan plan_lsorting(const std::vector<std::uint32_t>& occupancy, std::uint32_t threshold);

// Global sorting [K L249], the monolithic WRU of the limit study: every bank of every core ranked
// together; the fuller half is greedy, the emptier half needy, and a bank below `threshold` is needy
// (a preferred receiver) even in the fuller half. In each core the fullest greedy banks give to the
// emptiest needy ones; a core left with unpaired greedy banks exports from its fullest one to the
// core with the most unpaired needy banks (lowest index on ties), which is recorded as `destination`.
struct GlobalPlan {
  std::vector<Plan> cores;                               // per core: moves and export_bank
  std::vector<std::optional<std::uint32_t>> destination;  // per core: where its export goes
};
GlobalPlan plan_gsorting(const std::vector<std::vector<std::uint32_t>>& occupancy, std::uint32_t threshold);

}  // namespace irr::hwwl
