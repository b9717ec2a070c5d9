// SPDX-License-Identifier: Apache-2.0
// L1 prefetchers trained on the L1's demand loads (l1.prefetcher; docs/memory.md "L1 prefetchers"),
// the conventional ones the graph-memory thesis compares spare-register prefetching with [G L589]:
// an RPT stride prefetcher (Chen and Baer), a stream prefetcher and AC/DC's global history buffer
// (Nesbit et al.). Each sees every demand load the L1 takes (its line, PC and whether it missed)
// and names lines to fetch; the L1 fetches them into itself (and so the L2) when it has a free
// cycle, MSHR and miss-queue slot.
#pragma once

#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "sim/config.h"

namespace irr::mem {

struct PrefetchTrain {
  std::uint64_t line = 0, pc = 0;
  std::uint32_t warp = 0;
  bool miss = false;  // not in the array (a merge into a line in flight is a miss)
};

class Prefetcher {
 public:
  virtual ~Prefetcher() = default;
  // A demand load: appends the lines to prefetch (line addresses).
  virtual void train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) = 0;
  virtual std::uint64_t storage_bits() const = 0;
  // A prefetched line was loaded (`useful`), or left unused (its eviction): for throttling.
  virtual void outcome(bool /*useful*/) {}
};

// From `<level>.prefetcher` and the `prefetch` section; nullptr for none.
std::unique_ptr<Prefetcher> make_prefetcher(const sim::Config& c, const std::string& level, std::uint32_t line_size);

// RPT [Chen and Baer]: a table of `entries` by PC and region (the address above `region_bits`):
// the last line and stride, a 2-bit state; steady, the next line a stride on.
class StridePrefetcher : public Prefetcher {
 public:
  StridePrefetcher(std::uint32_t entries, std::uint32_t region_bits, std::uint32_t line_size);
  void train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) override;
  std::uint64_t storage_bits() const override;

 private:
  enum class State : std::uint8_t { initial, transient, steady, none };
  struct Entry {
    bool valid = false;
    std::uint64_t pc = 0, region = 0, last = 0;
    std::int64_t stride = 0;
    State state = State::initial;
  };
  std::vector<Entry> table_;
  const std::uint32_t region_bits_, line_;
};

// Streams [Srinath et al.'s stream prefetcher]: `entries` trackers, LRU; a miss within `window`
// lines of a tracker's last miss trains it (its direction); two misses the same way confirm a
// stream, which then keeps `degree` lines ahead of each access it sees, up to `distance` lines past
// the last.
class StreamPrefetcher : public Prefetcher {
 public:
  StreamPrefetcher(std::uint32_t entries, std::uint32_t window, std::uint32_t degree, std::uint32_t distance,
                   std::uint32_t line_size);
  void train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) override;
  std::uint64_t storage_bits() const override;

 private:
  struct Stream {
    std::uint64_t last = 0, ahead = 0;  // line numbers: the last access, the furthest prefetched
    int direction = 0;                  // 0: training
    int trend = 0;                      // training: the way its last step went
    std::uint32_t confirmations = 0;    // training: steps that way in a row
  };
  std::list<Stream> streams_;  // most recent first
  const std::uint32_t entries_, window_, degree_, distance_, line_;
};

// AC/DC [Nesbit, Dhodapkar and Smith]: misses in a global history buffer of `entries`, linked per
// concentration zone (the address above `czone_bits` line-number bits) from an index table of
// `index_entries`; on a miss, the zone's two latest deltas are looked for earlier in its history and
// the deltas that followed them prefetched, `degree` of them.
class GhbPrefetcher : public Prefetcher {
 public:
  GhbPrefetcher(std::uint32_t entries, std::uint32_t czone_bits, std::uint32_t index_entries, std::uint32_t degree,
                std::uint32_t line_size);
  void train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) override;
  std::uint64_t storage_bits() const override;

 private:
  struct Entry {
    std::uint64_t line = 0;  // line number
    std::uint64_t prev = 0;  // sequence number of the zone's previous miss (0: none)
  };
  std::vector<Entry> ghb_;    // circular, by sequence number
  std::uint64_t next_ = 1;    // the next sequence number
  struct Index {
    std::uint64_t zone = 0, head = 0;  // head: the zone's latest miss (0: none)
  };
  std::list<Index> index_;    // most recent first
  const std::uint32_t czone_bits_, index_entries_, degree_, line_;
  bool live(std::uint64_t seq) const { return seq && seq + ghb_.size() >= next_; }
};

// MTA (Lee et al., MICRO 2010, "many-thread aware" prefetching, DAC's comparison [S L740-L742]):
// per PC and warp, the stride of the warp's own accesses (intra-warp), and per PC the stride between
// consecutive warps' accesses (inter-thread), generalised to the next `degree` warps; throttled by
// the prefetched lines' outcomes: over each `period` of them, more than half evicted unused halves
// the degree (to none for a period), fewer than a quarter doubles it back up to `degree`.
class MtaPrefetcher : public Prefetcher {
 public:
  MtaPrefetcher(std::uint32_t entries, std::uint32_t degree, std::uint32_t period, std::uint32_t line_size);
  void train(const PrefetchTrain& t, std::vector<std::uint64_t>& out) override;
  std::uint64_t storage_bits() const override;
  void outcome(bool useful) override;
  std::uint32_t degree() const { return degree_; }

 private:
  struct Stride {
    std::uint64_t key = 0, last = 0;  // the last line (intra: the warp's; inter: the last warp's)
    std::uint32_t warp = 0;
    std::int64_t stride = 0;
    std::uint32_t confidence = 0;
    bool valid = false;
  };
  static void learn(Stride& e, std::uint64_t key, std::uint64_t line, std::uint32_t warp, std::int64_t distance);
  std::vector<Stride> intra_, inter_;
  const std::uint32_t max_degree_, period_, line_;
  std::uint32_t degree_, useful_ = 0, unused_ = 0, idle_ = 0;
};

}  // namespace irr::mem
