// SPDX-License-Identifier: Apache-2.0
// The cache machinery L1 and L2 share: a set-associative tag array (sets need not be a power of
// two; set = line number mod sets) with LRU replacement, per-line locks and dirty bits, optional
// sectors (a valid and a used mask per line, for fine-grained fetch), the policy hooks through
// which bypass, insertion and fill-granularity policies act (models/mem/policy/), and an MSHR
// table that merges requests to a line in flight.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/mem/address_map.h"
#include "sim/id_map.h"

namespace irr::mem {

constexpr std::uint32_t kWholeLine = ~0u;  // a sector mask meaning every sector of the line
// The mask of every sector of a line of n sectors.
constexpr std::uint32_t sector_mask(std::uint32_t n) { return n >= 32 ? ~0u : (1u << n) - 1; }
// The lowest sector of a mask: a miss's first-missed sector (31 for an empty mask).
inline std::uint32_t first_sector(std::uint32_t mask) { return static_cast<std::uint32_t>(__builtin_ctz(mask | 1u << 31)); }
// The data bytes a fetch of `sectors` moves: the line, or a sector each.
inline std::uint32_t fetch_bytes(std::uint32_t sectors, std::uint32_t line, std::uint32_t sector) {
  return sectors == kWholeLine ? line : static_cast<std::uint32_t>(__builtin_popcount(sectors)) * sector;
}

// What a fill installs: its sectors, those the waiting requests read, the first-missed sector,
// the PC of the miss that fetched it, and whether the line goes back to the next level when it
// leaves (an exclusive hierarchy's L1 line: the L2 gave up its copy).
struct LineFill {
  std::uint32_t sectors = kWholeLine, used = 0, first = 0;
  std::uint64_t pc = 0;
  bool copyback = false;
};

class CacheArray {
 public:
  CacheArray(std::uint64_t size, std::uint32_t ways, std::uint32_t line_size, const std::string& name);

  // A line leaving the array, with what a predictor learns from it.
  struct Evicted {
    std::uint64_t line;
    bool dirty;
    std::uint64_t pc = 0;            // of the access whose miss fetched it
    std::uint32_t valid = kWholeLine, used = 0;  // sectors present / sectors accessed while cached
    std::uint32_t first = 0;         // the first-missed sector
    bool copyback = false;           // to be copied back to the next level (LineFill::copyback)
  };
  enum class Lookup { miss, sector_miss, hit };  // sector_miss: the line is there, a sector is not
  // A lookup that counts as a use when it hits (moves the line to MRU, marks the sectors used).
  bool access(std::uint64_t line, std::uint32_t sectors = kWholeLine) { return lookup(line, sectors) == Lookup::hit; }
  Lookup lookup(std::uint64_t line, std::uint32_t sectors);
  bool contains(std::uint64_t line) const;
  std::uint32_t valid_sectors(std::uint64_t line) const;  // 0 when absent
  std::uint64_t pc_of(std::uint64_t line) const;          // the PC whose miss fetched it (0 when absent)
  // Installs a line (or, present, adds `sectors` to it); returns the line evicted to make room, if
  // any. With every way of the set locked nothing is installed and nullopt is returned with
  // `installed` false. `used` are the sectors the requests waiting for the fill read; `pc` and
  // `first` describe the miss that fetched it (for the predictors).
  std::optional<Evicted> fill(std::uint64_t line, bool dirty, bool mru, bool* installed = nullptr,
                              const LineFill& f = LineFill{});
  // The line a fill of `line` would evict now (nullopt: present, a free way, or every way locked).
  std::optional<std::uint64_t> victim(std::uint64_t line) const;
  void mark_dirty(std::uint64_t line);
  std::optional<Evicted> invalidate(std::uint64_t line);  // the line, if it was present
  void lock(std::uint64_t line, bool locked);
  void clear();  // invalidates every line
  // With sectors on, fills install only the sectors they carry and a lookup hits only when every
  // requested sector is valid; off (the default), every fill installs the whole line.
  void set_sectored(bool on) { sectored_ = on; }
  bool sectored() const { return sectored_; }
  std::uint32_t sets() const { return sets_; }
  std::uint32_t ways() const { return ways_; }
  std::uint32_t line_size() const { return line_size_; }
  std::uint32_t set_of(std::uint64_t line) const {
    if (local_) line = local_->local(line);
    return static_cast<std::uint32_t>(pow2_ ? line >> line_shift_ & (sets_ - 1) : line / line_size_ % sets_);
  }
  // An L2 slice of the partitions `map` interleaves over: its sets indexed by the slice's own
  // addresses (AddressMap::local), so that every set is reachable (l2.set_index: local); otherwise
  // by the line address, and a slice that sees every partitions-th chunk leaves the sets those
  // bits select unused.
  void index_locally(const AddressMap& map) { local_ = map; }

 private:
  struct Way {
    std::uint64_t line = 0;
    std::uint64_t used = 0;  // LRU stamp
    bool valid = false, dirty = false, locked = false;
    std::uint32_t sectors = 0, touched = 0, first = 0;
    std::uint64_t pc = 0;
    bool copyback = false;
  };
  Way* find(std::uint64_t line);
  const Way* find(std::uint64_t line) const;
  // One walk of line's set: the way holding it, or else the way a fill takes (the first free way
  // not locked, else the least recently used one not locked; none if all are locked).
  struct Place {
    Way* hit;
    Way* victim;
  };
  Place place(std::uint64_t line);
  static Evicted evicted(const Way& w) { return {w.line, w.dirty, w.pc, w.sectors, w.touched, w.first, w.copyback}; }
  std::uint32_t sets_, ways_, line_size_;
  bool pow2_ = false;            // line size and sets powers of two: set_of shifts and masks
  std::optional<AddressMap> local_;  // index_locally: the interleaving taken out of the set index
  std::uint32_t line_shift_ = 0;
  bool sectored_ = false;
  std::vector<Way> ways_array_;
  std::uint64_t clock_ = 0;
};

// A small fully associative buffer of the clean lines an array replaced, LRU (a victim cache,
// Jouppi): a line held is still in the level, and a hit gives it back to the array.
class VictimBuffer {
 public:
  explicit VictimBuffer(std::size_t lines) : lines_(lines) {}
  bool enabled() const { return lines_ != 0; }
  // Holds `e` as the newest; returns the oldest line when that pushes it out.
  std::optional<CacheArray::Evicted> insert(const CacheArray::Evicted& e);
  std::optional<CacheArray::Evicted> take(std::uint64_t line);  // the line, removed, if held
  void erase(std::uint64_t line) { take(line); }
  bool holds(std::uint64_t line) const {
    return std::any_of(held_.begin(), held_.end(), [&](const CacheArray::Evicted& e) { return e.line == line; });
  }
  void clear() { held_.clear(); }
  std::size_t size() const { return held_.size(); }

 private:
  std::size_t lines_;
  std::vector<CacheArray::Evicted> held_;  // oldest first
};

// What a policy sees of a request: its line, the load's PC, the sectors it reads, the SM it came
// from (the L2's policies tell cores apart), and whether it is an L1's copy-back of a line it
// evicted rather than a load (at an L1's fill: whether the L1 is to copy the line back, the L2
// having kept none). `hint`: side-band bits between a mechanism's two halves — at an L2 slice,
// those the requesting L1's policies attached to the miss (CachePolicy::hint); at an L1's fill,
// those the L2's policies attached to the reply (CachePolicy::feedback). Their meaning is the
// mechanism's own.
struct CacheRequest {
  std::uint64_t line = 0;
  std::uint64_t pc = 0;
  std::uint32_t sectors = kWholeLine;
  std::uint32_t sm = 0;
  bool copyback = false;
  std::uint8_t hint = 0;
};

// An allocation the runtime made in device memory (a cudaMalloc region).
struct Region {
  std::uint64_t base = 0, size = 0;
};

// Hooks that change a cache's behaviour: fill granularity (sector fetch, spatial predictors),
// bypass and insertion (MAT, adaptive bypass, OBM), inclusion between the levels (exclusion,
// flexclusion), and what they learn from. A cache with no policy calls none of them. Loads
// (and, at an L2, L1 copy-backs) only: stores and atomics follow the cache's write policy. The
// defaults are the plain, non-inclusive cache's.
class CachePolicy {
 public:
  virtual ~CachePolicy() = default;
  virtual std::string name() const = 0;
  // Every load lookup, after it happened (a load merged into a line in flight is a miss).
  virtual void accessed(const CacheRequest&, CacheArray::Lookup) {}
  // The sectors a miss fetches, given those chosen so far (the request's own at the least).
  // `present`: sectors of the line already cached (a sector miss), else 0.
  virtual std::uint32_t fetch(const CacheRequest&, std::uint32_t chosen, std::uint32_t /*present*/) { return chosen; }
  // At a fill of a line not cached: whether it is installed, given the victim it would evict
  // (nullopt: a free way). Not installing is bypassing: the data goes on to the requester.
  virtual bool allocate(const CacheRequest&, std::optional<std::uint64_t> /*victim*/) { return true; }
  // Installed at the MRU (true) or the LRU position.
  virtual bool insert_mru(const CacheRequest&) { return true; }
  // A line left the cache (replaced or invalidated).
  virtual void evicted(const CacheArray::Evicted&) {}
  // An L2 load hit from an L1: whether the L2 keeps its copy (false: it moves to the L1).
  virtual bool keep_on_hit(const CacheRequest&) { return true; }
  // An L2 answering an L1's load: whether that L1 copies the line back when it evicts it.
  virtual bool copy_back(const CacheRequest&) { return false; }
  // An L1 miss going to the next level: bits for that level's policies (CacheRequest::hint there).
  virtual std::uint8_t hint(const CacheRequest&) { return 0; }
  // An L2 slice answering an L1's load (hit or fill): bits for that L1's policies.
  virtual std::uint8_t feedback(const CacheRequest&) { return 0; }
  // An L1's fill arrived (installed or not): r.hint is the L2's feedback, r.copyback the duty to
  // copy the line back.
  virtual void filled(const CacheRequest&) {}
  // The runtime's allocations at a kernel launch, in address order (the region table's source).
  virtual void allocated(const std::vector<Region>&) {}
  // Storage the mechanism adds, in bits (its tables; reported in statistics and docs/memory.md).
  virtual std::uint64_t storage_bits() const { return 0; }
};

// The policies installed on one cache, applied in order: each fetch() sees the mask the earlier
// ones chose; a fill is installed only when every policy allocates it.
class CachePolicies {
 public:
  bool empty() const { return list_.empty(); }
  void add(std::unique_ptr<CachePolicy> p) { list_.push_back(std::move(p)); }
  const std::vector<std::unique_ptr<CachePolicy>>& list() const { return list_; }
  void accessed(const CacheRequest& r, CacheArray::Lookup l) const;
  std::uint32_t fetch(const CacheRequest& r, std::uint32_t present) const;
  bool allocate(const CacheRequest& r, std::optional<std::uint64_t> victim) const;
  bool insert_mru(const CacheRequest& r) const;
  void evicted(const CacheArray::Evicted& e) const;
  bool keep_on_hit(const CacheRequest& r) const;  // every policy keeps it
  bool copy_back(const CacheRequest& r) const;    // some policy asks for it
  std::uint8_t hint(const CacheRequest& r) const;      // every policy's bits, or-ed
  std::uint8_t feedback(const CacheRequest& r) const;  // every policy's bits, or-ed
  void filled(const CacheRequest& r) const;
  void allocated(const std::vector<Region>& regions) const;

 private:
  std::vector<std::unique_ptr<CachePolicy>> list_;
};

// Miss status holding registers: one entry per line in flight, each holding up to `merge`
// requests (the first and those merged into it), the sectors being fetched for it, and how many
// fetches are still out (a request for sectors the line's fetch does not carry widens it with a
// fetch of its own). As each fetch returns, the requests whose sectors have all arrived are
// answered; the entry is released when the last returns.
template <typename Req>
class Mshr {
 public:
  Mshr(std::size_t entries, std::size_t merge) : entries_(entries), merge_(merge) {}
  bool pending(std::uint64_t line) const { return table_.contains(line); }
  bool can_merge(std::uint64_t line) const {
    const Entry* e = table_.find(line);
    return e && e->reqs.size() < merge_;
  }
  // The sectors in flight for the line (0 when none).
  std::uint32_t fetching(std::uint64_t line) const {
    const Entry* e = table_.find(line);
    return e ? e->fetching : 0;
  }
  const std::vector<Req>& requests(std::uint64_t line) const { return table_.at(line).reqs; }
  bool can_allocate() const { return table_.size() < entries_; }
  // A request for the line finds no MSHR nor merge slot: only a fill can let it in.
  bool refuses(std::uint64_t line) const {
    const Entry* e = table_.find(line);
    return e ? e->reqs.size() >= merge_ : !can_allocate();
  }
  void allocate(std::uint64_t line, Req r, std::uint32_t sectors = kWholeLine) {
    Entry& e = table_.insert(line);  // a released entry, its request list emptied
    e.reqs.push_back(std::move(r));
    e.fetching = sectors;
    e.outstanding = 1;
    e.arrived = 0;
  }
  void merge(std::uint64_t line, Req r) { table_.at(line).reqs.push_back(std::move(r)); }
  // Another fetch for the line, of `sectors`.
  void widen(std::uint64_t line, std::uint32_t sectors) {
    Entry& e = table_.at(line);
    e.fetching |= sectors;
    ++e.outstanding;
  }
  // One fetch of `sectors` returned: `done` becomes the requests it completes (`sectors_of(request)`
  // all arrived), and every one left when it was the line's last fetch, in the order they came. The
  // caller's list is reused (its capacity and the entry's change hands): no allocation per fill.
  template <typename SectorsOf>
  void release(std::uint64_t line, std::uint32_t sectors, SectorsOf sectors_of, std::vector<Req>& done) {
    done.clear();
    Entry* e = table_.find(line);
    if (!e) return;
    e->arrived |= sectors;
    if (--e->outstanding == 0) {
      done.swap(e->reqs);  // the entry keeps done's emptied capacity for its next line
      table_.erase(line);
      return;
    }
    std::size_t kept = 0;
    for (std::size_t i = 0; i < e->reqs.size(); ++i) {
      if (sectors_of(e->reqs[i]) & ~e->arrived) {
        if (kept != i) e->reqs[kept] = std::move(e->reqs[i]);
        ++kept;
      } else {
        done.push_back(std::move(e->reqs[i]));
      }
    }
    e->reqs.resize(kept);
  }
  std::size_t size() const { return table_.size(); }
  std::size_t capacity() const { return entries_; }

 private:
  struct Entry {
    std::vector<Req> reqs;
    std::uint32_t fetching = kWholeLine, outstanding = 1, arrived = 0;
  };
  std::size_t entries_, merge_;
  sim::IdMap<Entry> table_;
};

}  // namespace irr::mem
