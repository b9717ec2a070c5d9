// SPDX-License-Identifier: Apache-2.0
// One bank of a reordering-hash partition (../shared/specs/hwwl_iru_dats.md 2.5.3): direct-mapped
// entries of up to `capacity` elements, filled in arrival order. An insertion goes into its set
// whatever the lines already there (merge on tag mismatch [S L161]); with a filter operation an
// element whose index is already in the entry is merged into it instead of taking a slot [S L163,
// L179]. This is the block rtl/iru/ models; the Iru owns partitions x banks of them.
#pragma once

#include <cstdint>
#include <vector>

namespace irr::iru {

// configure_iru's filter_op: none; min keeps the smaller secondary value (unsigned 32-bit) with
// its position (SSSP's atomicMin); add_f32 adds the secondary values as floats (PageRank).
enum class Filter : std::uint8_t { none = 0, min = 1, add_f32 = 2 };

struct Element {
  std::uint32_t index = 0, secondary = 0, position = 0;
  bool operator==(const Element& o) const {
    return index == o.index && secondary == o.secondary && position == o.position;
  }
};

class HashBank {
 public:
  enum class Insert { inserted, merged, full };
  HashBank(std::uint32_t sets, std::uint32_t capacity, Filter filter);
  // Inserts `e` into `set`; on a merge `dropped` is the position of the element that is gone (the
  // new one, or the one it replaced under min). A full entry refuses: the element waits.
  Insert insert(std::uint32_t set, const Element& e, std::uint32_t& dropped);
  // What insert() would do, without doing it.
  Insert check(std::uint32_t set, const Element& e, std::uint32_t& dropped) const;
  void clear() {
    for (auto& e : entries_) e.clear();
  }
  std::uint32_t count(std::uint32_t set) const { return static_cast<std::uint32_t>(entries_.at(set).size()); }
  // Moves the first k elements of `set` (arrival order) to the end of `out`; the rest move up.
  void take(std::uint32_t set, std::uint32_t k, std::vector<Element>& out);
  const std::vector<Element>& entry(std::uint32_t set) const { return entries_.at(set); }
  void set_filter(Filter f) { filter_ = f; }

 private:
  std::vector<std::vector<Element>> entries_;
  const std::uint32_t capacity_;
  Filter filter_;
};

// The merge rule on its own (the model's and the RTL reference's): x absorbs e; returns the
// position that is dropped.
std::uint32_t merge(Filter f, Element& x, const Element& e);

}  // namespace irr::iru
