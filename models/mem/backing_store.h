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
  std::size_t pages() const { return pages_.size(); }

 private:
  using Page = std::array<std::uint8_t, kPageBytes>;
  const Page* find(std::uint64_t page) const;
  Page& touch(std::uint64_t page);
  // Looked up only, never iterated: hashing is safe for determinism and faster for gathers.
  std::unordered_map<std::uint64_t, std::unique_ptr<Page>> pages_;
  mutable std::uint64_t last_page_ = ~0ull;
  mutable Page* last_ = nullptr;
};

}  // namespace irr::mem
