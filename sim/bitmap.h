// SPDX-License-Identifier: Apache-2.0
// Bitmaps as vectors of 64-bit words: single bits, and a walk the visitor may change (the clock
// scheduler's active components and the crossbar's ports with work are visited in index order
// while a visit can set bits further on, which the same walk must still reach).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace irr::sim {

// Calls f(i) for each set bit i of `words` in increasing order; after each call the rest of the
// word is read again, so a bit that f sets above i (in this word or a later one) is visited too,
// and one it clears is not. An f returning bool says whether it may have changed the words: when
// it returns false the walk goes on from the bits it holds (the clock's walk past timers not due).
template <class F>
inline void for_each_set_bit(const std::vector<std::uint64_t>& words, F&& f) {
  for (std::size_t w = 0; w < words.size(); ++w)
    for (std::uint64_t bits = words[w]; bits;) {
      const auto b = static_cast<unsigned>(__builtin_ctzll(bits));
      bool reread = true;
      if constexpr (std::is_same_v<std::invoke_result_t<F&, std::size_t>, bool>) reread = f(w * 64 + b);
      else f(w * 64 + b);
      bits = reread ? words[w] & (~std::uint64_t{1} << b) : bits & (bits - 1);  // the bits above b
    }
}

inline bool test_bit(const std::vector<std::uint64_t>& words, std::size_t i) { return words[i / 64] >> (i % 64) & 1; }
inline void set_bit(std::vector<std::uint64_t>& words, std::size_t i) { words[i / 64] |= std::uint64_t{1} << (i % 64); }
inline void clear_bit(std::vector<std::uint64_t>& words, std::size_t i) { words[i / 64] &= ~(std::uint64_t{1} << (i % 64)); }
inline bool any_bit(const std::vector<std::uint64_t>& words) {
  for (std::uint64_t w : words)
    if (w) return true;
  return false;
}

}  // namespace irr::sim
