// SPDX-License-Identifier: Apache-2.0
// Fill-granularity policies for sector caches (128 B lines of 32 B sectors by default; seed 004
// section 4.6, ../shared/specs/graph_memory_hierarchy.md section 4). A miss fetches what fetch()
// returns; what a line's sectors were used for is learnt when it leaves the cache.
#pragma once

#include <array>
#include <vector>

#include "models/mem/policy/policy.h"

namespace irr::mem {

// Counts what every fine-grained policy is judged by: sectors filled against sectors used, and
// sector misses (the line was cached, a requested sector was not).
class Granularity : public CachePolicy {
 public:
  Granularity(const PolicySite& site, const std::string& name);
  std::string name() const override { return name_; }
  void accessed(const CacheRequest& r, CacheArray::Lookup l) override;
  void evicted(const CacheArray::Evicted& e) override;
  std::uint32_t fetch(const CacheRequest& r, std::uint32_t chosen, std::uint32_t present) final;
  // The tag array's additions (per line: `line_bits()`) and the policy's own tables.
  std::uint64_t storage_bits() const override { return lines_ * line_bits() + table_bits(); }

 protected:
  // A valid bit per sector [G L1230]; a predictor also keeps the sectors used (the current
  // pattern [G L1238]) and what it needs to learn at eviction.
  virtual std::uint64_t line_bits() const { return sectors_; }
  virtual std::uint64_t table_bits() const { return 0; }
  // The sectors a miss of a line not cached fetches (a sector miss fetches what it asked for).
  virtual std::uint32_t predict(const CacheRequest&, std::uint32_t chosen) { return chosen; }
  std::uint32_t all() const { return all_; }
  const std::string name_;
  const std::uint32_t sectors_, all_;
  const std::uint64_t lines_;

 private:
  sim::Counter &sector_misses_, &filled_, &used_;
  sim::Distribution& used_per_line_;
  sim::Probe& fetch_probe_;
};

// Whole lines, as `line`, with their sector use counted (the thesis's Figure 39 [G L1224]): the
// same timing as no policy, the statistics of a granularity policy.
class LineProfile : public Granularity {
 public:
  explicit LineProfile(const PolicySite& site) : Granularity(site, "line_profiled") {}

 protected:
  std::uint32_t predict(const CacheRequest&, std::uint32_t) override { return all(); }
  std::uint64_t line_bits() const override { return 2 * sectors_; }
};

// Fetches only the requested sectors (Table 14 "Fetch only the requested sector").
class SectorFetch : public Granularity {
 public:
  explicit SectorFetch(const PolicySite& site) : Granularity(site, "sector") {}
};

// Spatial pattern predictor [G L1234-L1240]: a set-associative pattern history table indexed by
// the missing load's PC and the missed sector; a hit fetches the last pattern seen for that pair,
// a miss fetches the default and allocates the entry; the pattern is written when the line leaves.
class SpatialPatternPredictor : public Granularity {
 public:
  SpatialPatternPredictor(const PolicySite& site, std::uint32_t entries, std::uint32_t ways, bool default_line);
  void evicted(const CacheArray::Evicted& e) override;

 protected:
  std::uint32_t predict(const CacheRequest& r, std::uint32_t chosen) override;
  std::uint64_t line_bits() const override;
  std::uint64_t table_bits() const override;

 private:
  struct Entry {
    bool valid = false;
    std::uint64_t key = 0, used = 0;
    std::uint32_t pattern = 0;
  };
  Entry* find(std::uint64_t key);
  std::uint32_t sets_, ways_;
  bool default_line_;
  std::vector<Entry> table_;
  std::uint64_t clock_ = 0;
  sim::Counter &hits_, &misses_;
};

// LAMAR's bimodal granularity predictor [G L1244-L1248]: a Bloom filter of the lines that
// behaved unlike the default (fine-grained, at most `fine_threshold` sectors used, while the
// default is coarse); a miss fetches the sector alone when the filter predicts fine. Two bit
// arrays age the filter: insertions go to the newer, a lookup tests both, and every `refresh`
// insertions the older is cleared and becomes the newer. Over each window of `refresh`
// evictions, if more than `skew` of them were inserted the default flips (and the filter
// clears): it then tracks coarse lines.
class BimodalGranularityPredictor : public Granularity {
 public:
  BimodalGranularityPredictor(const PolicySite& site, std::uint32_t bits, std::uint32_t hashes, std::uint32_t refresh,
                              double skew, std::uint32_t fine_threshold);
  void evicted(const CacheArray::Evicted& e) override;
  bool default_fine() const { return default_fine_; }

 protected:
  std::uint32_t predict(const CacheRequest& r, std::uint32_t chosen) override;
  std::uint64_t line_bits() const override { return 2 * sectors_; }
  std::uint64_t table_bits() const override { return 2ull * bits_; }

 private:
  bool member(std::uint64_t line) const;
  std::uint32_t hash(std::uint64_t line, std::uint32_t i) const;
  const std::uint32_t bits_, hashes_, refresh_, fine_threshold_;
  const double skew_;
  std::array<std::vector<bool>, 2> arrays_;
  std::uint32_t newer_ = 0, insertions_ = 0, window_evictions_ = 0, window_insertions_ = 0;
  bool default_fine_ = false;
  sim::Counter &fine_predictions_, &flips_;
  sim::Probe& mode_probe_;
};

// Neighbour-access predictor (the thesis's own, [G L1252-L1256]): per load PC, one saturating
// counter for each position relative to the first-missed sector (-(n-1) .. n-1, n sectors a
// line: 7 for 4); a miss also fetches each neighbour whose counter is above the threshold; when
// a line leaves, each neighbour's counter of its fetching PC counts up if it was used, else down.
// PCs beyond the table's entries replace the least recently used.
class NeighbourAccessPredictor : public Granularity {
 public:
  NeighbourAccessPredictor(const PolicySite& site, std::uint32_t entries, std::uint32_t counter_bits,
                           std::uint32_t threshold, std::uint32_t initial);
  void evicted(const CacheArray::Evicted& e) override;
  // The counter of `pc` for the sector `offset` away from the first missed (tests).
  std::uint32_t counter(std::uint64_t pc, int offset) const;

 protected:
  std::uint32_t predict(const CacheRequest& r, std::uint32_t chosen) override;
  std::uint64_t line_bits() const override;
  std::uint64_t table_bits() const override;

 private:
  struct Entry {
    bool valid = false;
    std::uint64_t pc = 0, used = 0;
    std::vector<std::uint8_t> counters;
  };
  Entry* find(std::uint64_t pc);
  const std::uint32_t max_, threshold_, initial_;
  std::vector<Entry> table_;
  std::uint64_t clock_ = 0;
  sim::Counter &neighbours_;
};

}  // namespace irr::mem
