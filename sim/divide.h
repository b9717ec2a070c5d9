// SPDX-License-Identifier: Apache-2.0
// a / d and a % d for the sizes the memory system divides by on every access (interleaving
// granularity, DRAM row size and bank count, flit and burst sizes): a shift and a mask when d is
// a power of two, as on every preset. A 64-bit division takes tens of cycles; d comes from the
// configuration, so the compiler cannot do this itself.
#pragma once

#include <cstdint>

namespace irr::sim {

inline std::uint64_t quotient(std::uint64_t a, std::uint64_t d) {
  return d & (d - 1) ? a / d : a >> __builtin_ctzll(d);
}
inline std::uint64_t remainder(std::uint64_t a, std::uint64_t d) { return d & (d - 1) ? a % d : a & (d - 1); }

}  // namespace irr::sim
