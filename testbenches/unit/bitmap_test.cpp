// SPDX-License-Identifier: Apache-2.0
// sim::for_each_set_bit, the walk behind the clock scheduler's active components and the
// crossbar's ports: index order across words, bits the visitor sets further on visited and bits
// it clears skipped, bit 63, and a visitor that says it changed nothing walked on without a re-read.
#include "sim/bitmap.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

using irr::sim::clear_bit;
using irr::sim::for_each_set_bit;
using irr::sim::set_bit;

TEST(Bitmap, VisitsInOrderAndSeesTheVisitorsChanges) {
  std::vector<std::uint64_t> w(2, 0);
  for (std::size_t i : {0, 5, 63, 64, 100, 127}) set_bit(w, i);
  std::vector<std::size_t> seen;
  for_each_set_bit(w, [&](std::size_t i) {
    seen.push_back(i);
    if (i == 5) {
      set_bit(w, 40);     // later in this word: visited
      clear_bit(w, 63);   // later in this word: skipped
      set_bit(w, 3);      // earlier: not visited again
      set_bit(w, 120);    // a later word: visited
    }
  });
  EXPECT_EQ(seen, (std::vector<std::size_t>{0, 5, 40, 64, 100, 120, 127}));
}

TEST(Bitmap, AVisitorThatChangedNothingIsWalkedOnFromTheBitsHeld) {
  std::vector<std::uint64_t> w(1, 0);
  for (std::size_t i : {1, 2, 63}) set_bit(w, i);
  std::vector<std::size_t> seen;
  for_each_set_bit(w, [&](std::size_t i) {
    seen.push_back(i);
    if (i == 1) {
      set_bit(w, 30);  // said changed: the word is read again, 30 visited
      return true;
    }
    if (i == 2) set_bit(w, 40);  // said unchanged: the walk keeps its bits, 40 not visited
    return false;
  });
  EXPECT_EQ(seen, (std::vector<std::size_t>{1, 2, 30, 63}));
}
