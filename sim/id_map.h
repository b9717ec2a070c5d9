// SPDX-License-Identifier: Apache-2.0
// A map from 64-bit ids (line addresses, tokens) to values, for the tables a model looks up at
// every access or write-back (MSHRs, instructions in flight). std::unordered_map spent a
// division and a node (a heap allocation and a pointer chase) on each; here the index is open
// addressing over a power-of-two table (linear probing, deletion by backward shift) and the
// values live in a pool: an erased value is kept as it was left and handed out by the next
// insert, so buffers it holds (a vector's capacity) are reused. Values never move: a reference
// stays valid until its key is erased. Nothing walks the map in an order a model could depend on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

namespace irr::sim {

template <class V>
class IdMap {
 public:
  IdMap() { rehash(16); }

  V* find(std::uint64_t key) {
    for (std::size_t i = home(key);; i = (i + 1) & mask_) {
      const Slot& s = index_[i];
      if (!s.at) return nullptr;
      if (s.key == key) return &pool_[s.at - 1];
    }
  }
  const V* find(std::uint64_t key) const { return const_cast<IdMap*>(this)->find(key); }
  bool contains(std::uint64_t key) const { return find(key) != nullptr; }
  V& at(std::uint64_t key) {
    if (V* v = find(key)) return *v;
    throw std::out_of_range("IdMap::at: no entry for id " + std::to_string(key));
  }
  const V& at(std::uint64_t key) const { return const_cast<IdMap*>(this)->at(key); }

  // Adds `key`, which must be absent, and returns its value: a default-constructed one, or one
  // erased before, left as it was (the caller sets what it needs).
  V& insert(std::uint64_t key) {
    if ((size_ + 1) * 2 > index_.size()) rehash(index_.size() * 2);
    std::size_t i = home(key);
    for (; index_[i].at; i = (i + 1) & mask_)
      if (index_[i].key == key) throw std::logic_error("IdMap::insert: id " + std::to_string(key) + " is present");
    std::uint32_t at;
    if (!free_.empty()) {
      at = free_.back();
      free_.pop_back();
    } else {
      pool_.emplace_back();
      at = static_cast<std::uint32_t>(pool_.size());
    }
    index_[i] = {key, at};
    ++size_;
    return pool_[at - 1];
  }

  // Removes `key` if present; its value stays in the pool for a later insert.
  void erase(std::uint64_t key) {
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask_) {
      if (!index_[i].at) return;
      if (index_[i].key == key) break;
    }
    free_.push_back(index_[i].at);
    --size_;
    // Backward shift: move later entries of the probe run into the hole when their home allows,
    // so every entry stays reachable from its home without tombstones.
    for (std::size_t j = (i + 1) & mask_; index_[j].at; j = (j + 1) & mask_) {
      const std::size_t h = home(index_[j].key);
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        index_[i] = index_[j];
        i = j;
      }
    }
    index_[i].at = 0;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // f(key, value) for every entry, in index order (which follows the ids' hashes, not insertion).
  template <class F>
  void for_each(F&& f) const {
    for (const Slot& s : index_)
      if (s.at) f(s.key, pool_[s.at - 1]);
  }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::uint32_t at = 0;  // the value's pool index + 1; 0: empty
  };
  // Fibonacci hashing: the top bits of key x 2^64/phi spread line addresses and counters alike.
  std::size_t home(std::uint64_t key) const { return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  void rehash(std::size_t n) {
    std::vector<Slot> old = std::move(index_);
    index_.assign(n, Slot{});
    mask_ = n - 1;
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
    for (const Slot& s : old)
      if (s.at) {
        std::size_t i = home(s.key);
        while (index_[i].at) i = (i + 1) & mask_;
        index_[i] = s;
      }
  }

  std::vector<Slot> index_;
  std::size_t mask_ = 0, size_ = 0;
  unsigned shift_ = 0;
  std::deque<V> pool_;              // a deque: values keep their addresses as it grows
  std::vector<std::uint32_t> free_;  // erased values' pool indices + 1
};

}  // namespace irr::sim
