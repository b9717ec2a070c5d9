// SPDX-License-Identifier: Apache-2.0
// 64-bit integer mixing for table indices and fixed pseudo-random values: splitmix64 (Steele,
// Lea and Flood) and its finaliser. Stateless: the same input gives the same value everywhere.
#pragma once

#include <cstdint>

namespace irr::sim {

// splitmix64's finaliser: every input bit affects every output bit.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// splitmix64's output for the state x (its golden-ratio increment added, then mixed).
constexpr std::uint64_t splitmix64(std::uint64_t x) { return mix64(x + 0x9e3779b97f4a7c15ull); }

}  // namespace irr::sim
