// SPDX-License-Identifier: Apache-2.0
// The cache machinery L1 and L2 share: a set-associative tag array (sets need not be a power of
// two; set = line number mod sets) with LRU replacement, per-line locks and dirty bits, policy
// hooks for later units (bypass, insertion, victim choice), and an MSHR table that merges
// requests to a line in flight.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace irr::mem {

// Hooks a unit installs to change a cache's behaviour (graph-aware bypass, region exclusion,
// cache-line locking); the defaults are the plain cache's.
class CachePolicy {
 public:
  virtual ~CachePolicy() = default;
  // The request skips this cache: no lookup, no allocation.
  virtual bool bypass(std::uint64_t line, std::uint64_t pc) const { (void)line; (void)pc; return false; }
  // Whether a fill allocates a line at all, and at the MRU (true) or LRU (false) position.
  virtual bool allocate(std::uint64_t line, std::uint64_t pc) const { (void)line; (void)pc; return true; }
  virtual bool insert_mru(std::uint64_t line, std::uint64_t pc) const { (void)line; (void)pc; return true; }
};

class CacheArray {
 public:
  CacheArray(std::uint64_t size, std::uint32_t ways, std::uint32_t line_size, const std::string& name);

  struct Evicted {
    std::uint64_t line;
    bool dirty;
  };
  // A lookup that counts as a use (moves the line to MRU).
  bool access(std::uint64_t line);
  bool contains(std::uint64_t line) const;
  // Installs a line; returns the line evicted to make room, if any. With every way of the set
  // locked nothing is installed and nullopt is returned with `installed` false.
  std::optional<Evicted> fill(std::uint64_t line, bool dirty, bool mru, bool* installed = nullptr);
  void mark_dirty(std::uint64_t line);
  bool invalidate(std::uint64_t line);  // true if it was present
  void lock(std::uint64_t line, bool locked);
  void clear();  // invalidates every line
  std::uint32_t sets() const { return sets_; }
  std::uint32_t ways() const { return ways_; }
  std::uint32_t line_size() const { return line_size_; }
  std::uint32_t set_of(std::uint64_t line) const { return static_cast<std::uint32_t>(line / line_size_ % sets_); }

 private:
  struct Way {
    std::uint64_t line = 0;
    std::uint64_t used = 0;  // LRU stamp
    bool valid = false, dirty = false, locked = false;
  };
  Way* find(std::uint64_t line);
  const Way* find(std::uint64_t line) const;
  std::uint32_t sets_, ways_, line_size_;
  std::vector<Way> ways_array_;
  std::uint64_t clock_ = 0;
};

// Miss status holding registers: one entry per line in flight, each holding up to `merge`
// requests (the first and those merged into it).
template <typename Req>
class Mshr {
 public:
  Mshr(std::size_t entries, std::size_t merge) : entries_(entries), merge_(merge) {}
  bool pending(std::uint64_t line) const { return table_.count(line) != 0; }
  bool can_merge(std::uint64_t line) const {
    auto it = table_.find(line);
    return it != table_.end() && it->second.size() < merge_;
  }
  bool can_allocate() const { return table_.size() < entries_; }
  void allocate(std::uint64_t line, Req r) { table_[line].push_back(std::move(r)); }
  void merge(std::uint64_t line, Req r) { table_.at(line).push_back(std::move(r)); }
  std::vector<Req> release(std::uint64_t line) {
    auto it = table_.find(line);
    if (it == table_.end()) return {};
    std::vector<Req> v = std::move(it->second);
    table_.erase(it);
    return v;
  }
  std::size_t size() const { return table_.size(); }
  std::size_t capacity() const { return entries_; }
  const std::map<std::uint64_t, std::vector<Req>>& entries() const { return table_; }

 private:
  std::size_t entries_, merge_;
  std::map<std::uint64_t, std::vector<Req>> table_;
};

}  // namespace irr::mem
