// SPDX-License-Identifier: Apache-2.0
// Region-based exclusion (R-EX, seed 004 section 4.4.3.2) and bypass + copyback (B+C, section
// 4.5.2); ../shared/specs/graph_memory_hierarchy.md sections 2.3 and 3.4. Decisions are per
// cudaMalloc region, learnt from how the L2 sees each region reused, and (B+C) per load PC, learnt
// from the L1's hits. Two halves that talk by side-band bits on requests and replies:
//  - RegionReuse on each L1 (the core's side): the region table (the runtime's allocations at each
//    launch), the region tracking table (RTT: per region its L1 fills and how many of them the L2
//    marked shared / private reuse, halved each period, a flag set when above 1/64 of the fills),
//    and for B+C's L1 half the PC tracking table (PTT: per load PC its accesses and the L1 hits on
//    lines it fetched) with the untracked-PC access table (UPAT). Before a miss goes to the L2 it
//    applies Table 12 and tells the L2 what to do with the fill (hint bits); at a fill it bypasses
//    the L1 for a PC with no L1 reuse.
//  - RegionTags on each L2 slice: per line the core that filled it and its SR, PR and CB bits
//    (Listing 3), the SR/PR bits sent back on every reply (feedback bits). A hinted fill is not
//    installed (bypass L2); with copy-back the L1 keeps the line and copies it back when it evicts
//    it, the copy marked CB and given back (invalidated here) at its copier's next hit.
#pragma once

#include <optional>
#include <unordered_map>
#include <vector>

#include "models/mem/policy/bypass.h"

namespace irr::mem {

namespace region {
// Hint bits (L1 -> L2): the fill is not installed in the L2; with copy_back the L1 copies it back.
constexpr std::uint8_t kBypassL2 = 1, kCopyBack = 2;
// Feedback bits (L2 -> L1): the line's shared-reuse and private-reuse bits as the L2 holds them.
constexpr std::uint8_t kShared = 1, kPrivate = 2;

enum class Reuse : std::uint8_t { no, yes, unknown };  // unknown: no table entry, or not yet trained
struct Action {
  bool bypass_l1 = false, bypass_l2 = false, copy_back = false;
  bool operator==(const Action& o) const {
    return bypass_l1 == o.bypass_l1 && bypass_l2 == o.bypass_l2 && copy_back == o.copy_back;
  }
};
// Table 12 [G L1109-L1120]: the L2 decision from the region's reuse (no shared but private reuse:
// bypass the L2 and copy back; neither: bypass the L2), the L1 decision from the PC's (no L1
// reuse: bypass the L1, unless the line is to be copied back). Every row of the table, and the
// combinations with `unknown` it leaves out as no bypass at that level.
Action decide(Reuse l1, Reuse shared, Reuse pvt);
}  // namespace region

struct RegionTracking {
  std::uint32_t region_table = 31, rtt = 31, ptt = 15, upat = 16;  // entries [G L808, Table 13]
  std::uint32_t counter_bits = 16;  // saturating counters (not given; ours)
  std::uint32_t period = 1024;      // L1 load accesses between updates (not given; ours)
  std::uint32_t divisor = 64;       // reuse when the halved hits exceed accesses / 64 [G L842-L853]
  bool exclusion = true;            // the region tables: private-only regions bypass the L2 and are copied back (R-EX)
  bool l2_bypass = false;           // regions without reuse bypass the L2 (B+C)
  bool l1_bypass = false;           // PCs without L1 reuse bypass the L1 (B+C's PTT)
};

class RegionReuse : public Bypass {
 public:
  RegionReuse(const PolicySite& site, const std::string& name, const RegionTracking& t);
  void allocated(const std::vector<Region>& regions) override;
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  std::uint8_t hint(const CacheRequest& r) override;
  void filled(const CacheRequest& r) override;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) override;
  std::uint64_t storage_bits() const override;
  // The end of a period (every t.period load accesses): halve, set flags, replace entries.
  void update();

  struct RegionEntry {
    std::uint64_t base = 0;
    bool trained = false, shared = false, pvt = false;
    std::uint32_t acc = 0, shd_hits = 0, pvt_hits = 0;
  };
  struct PcEntry {
    std::uint64_t pc = 0;
    bool trained = false, reuse = false;
    std::uint32_t acc = 0, hits = 0;
  };
  const RegionEntry* rtt(std::uint64_t base) const;  // the region's entry, if tracked
  const PcEntry* ptt(std::uint64_t pc) const;
  const std::vector<Region>& regions() const { return regions_; }
  std::optional<std::uint64_t> region_of(std::uint64_t address) const;  // the region's base
  region::Reuse l1_reuse(std::uint64_t pc) const;
  std::pair<region::Reuse, region::Reuse> l2_reuse(std::uint64_t line) const;  // shared, private

 private:
  RegionEntry* find_region(std::uint64_t base) { return const_cast<RegionEntry*>(rtt(base)); }
  PcEntry* find_pc(std::uint64_t pc) { return const_cast<PcEntry*>(ptt(pc)); }
  std::uint32_t upat_slot(std::uint64_t pc) const;
  void count(std::uint32_t& c) const { c = std::min(c + 1, max_); }
  const RegionTracking t_;
  const CacheArray& array_;
  const std::uint32_t max_;
  std::vector<Region> regions_;       // the region table
  std::vector<RegionEntry> rtt_;      // at most t_.rtt
  std::uint32_t untracked_ = 0;       // fills of table regions without an RTT entry, this period
  std::optional<std::uint64_t> first_untracked_;
  std::vector<PcEntry> ptt_;          // at most t_.ptt
  struct Untracked {
    std::uint32_t acc = 0;
    std::optional<std::uint64_t> first_pc;
  };
  std::vector<Untracked> upat_;
  std::uint32_t accesses_ = 0;  // this period's
  sim::Counter &copyback_hints_, &bypass_hints_, &updates_, &rtt_replaced_, &ptt_replaced_;
  sim::Probe& hint_probe_;
};

class RegionTags : public Bypass {
 public:
  RegionTags(const PolicySite& site, const std::string& name, std::uint32_t cores);
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) override;
  std::uint8_t feedback(const CacheRequest& r) override;
  bool keep_on_hit(const CacheRequest& r) override;
  bool copy_back(const CacheRequest& r) override;
  void evicted(const CacheArray::Evicted& e) override { tags_.erase(e.line); }
  std::uint64_t storage_bits() const override;
  struct Tag {
    std::uint32_t core = 0;
    bool shared = false, pvt = false, copied_back = false;
  };
  const Tag* tag(std::uint64_t line) const;

 private:
  bool gives_back(const CacheRequest& r) const;  // a copied-back line its copier hits again
  const CacheArray& array_;
  const std::uint32_t core_bits_;
  std::unordered_map<std::uint64_t, Tag> tags_;  // of the lines present; never walked
  sim::Counter &copybacks_, &moved_;
};

}  // namespace irr::mem
