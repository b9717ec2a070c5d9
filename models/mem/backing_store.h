// SPDX-License-Identifier: Apache-2.0
// Device memory: a sparse, page-allocated 64-bit address space. SMs and units take the
// functional effect of a memory instruction here when it issues (loads read, stores write,
// atomics read-modify-write, in issue order); the timing path carries only addresses. Host
// copies use the same calls (the debug backdoor: no timing). Unwritten memory reads as zero.
#pragma once

#include <cstdint>
#include <array>
#include <cstring>
#include <unordered_map>
#include <memory>

#include "tlm_glue/gpu_payload.h"

namespace irr::mem {

class BackingStore {
 public:
  static constexpr std::uint64_t kPageBytes = 4096;

  void read(std::uint64_t addr, void* out, std::size_t n) const;
  void write(std::uint64_t addr, const void* in, std::size_t n);
  template <typename T>
  T load(std::uint64_t addr) const {
    T v;
    read(addr, &v, sizeof v);
    return v;
  }
  template <typename T>
  void store(std::uint64_t addr, T v) {
    write(addr, &v, sizeof v);
  }
  // Integer atomic on a 4- or 8-byte word; returns the old value. For cas, `operand` is the
  // compare value and `swap` the new one. Throws std::invalid_argument for another size.
  std::uint64_t atomic(std::uint64_t addr, unsigned size, tlm_glue::AtomicOp op, std::uint64_t operand,
                       std::uint64_t swap = 0);
  std::size_t pages() const { return pages_; }
  // An undo journal (sampled simulation runs a launch functionally to see its profile, then may
  // undo it and time it instead): while one is open, the first write to a page keeps the page as
  // it was; rollback() puts every page back (pages made since removed), commit() keeps the writes.
  void begin_journal();
  void commit_journal();
  void rollback_journal();
  bool journaling() const { return journal_; }

 private:
  using Page = std::array<std::uint8_t, kPageBytes>;
  // Pages are found through a table per 16 MiB region (4,096 page slots): a gather over a graph's
  // arrays looks up one slot of a table it just used instead of a hash node per page.
  static constexpr unsigned kRegionBits = 12;  // pages per region: 2^12
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kRegionBits) - 1;  // a page's slot in its region
  using Region = std::array<std::unique_ptr<Page>, std::size_t{1} << kRegionBits>;
  const Page* find(std::uint64_t page) const;
  Page& touch(std::uint64_t page);
  Region* region(std::uint64_t r) const;  // the region's table, or nullptr if none of its pages exists
  void keep(std::uint64_t page);  // the journal's copy of `page` before its first write
  // Looked up only, never iterated: hashing is safe for determinism.
  std::unordered_map<std::uint64_t, std::unique_ptr<Region>> regions_;
  std::size_t pages_ = 0;
  mutable std::uint64_t last_region_ = ~0ull;
  mutable Region* last_ = nullptr;
  bool journal_ = false;
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> kept_;  // page -> as it was (null: absent)
  std::uint64_t last_kept_ = ~0ull;  // consecutive writes to one page look it up once
};

}  // namespace irr::mem
