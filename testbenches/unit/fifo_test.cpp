// SPDX-License-Identifier: Apache-2.0
// sim::Fifo, the ring buffer behind the ports' and the LD/ST, miss and link queues: the same
// contents as std::deque under random pushes and pops (wrap-around, growth while wrapped), and
// ordered inserts where std::upper_bound would put them.
#include "sim/fifo.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <vector>

using irr::sim::Fifo;

namespace {

template <class T>
std::vector<T> contents(const Fifo<T>& f) {
  std::vector<T> v;
  for (const T& x : f) v.push_back(x);
  return v;
}

}  // namespace

TEST(Fifo, KeepsOrderAcrossWrapAroundAndGrowth) {
  Fifo<int> f;
  for (int i = 0; i < 6; ++i) f.push_back(i);
  for (int i = 0; i < 5; ++i) f.pop_front();  // the head near the end of the first 8 slots
  for (int i = 6; i < 30; ++i) f.push_back(i);  // wraps, then grows twice while wrapped
  ASSERT_EQ(f.size(), 25u);
  EXPECT_EQ(f.front(), 5);
  EXPECT_EQ(f.back(), 29);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_EQ(f[i], static_cast<int>(5 + i));
  EXPECT_EQ(contents(f).size(), 25u);
  f.clear();
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.begin(), f.end());
  f.emplace_back(7);
  EXPECT_EQ(f.front(), 7);
  EXPECT_EQ(f.size(), 1u);
}

TEST(Fifo, MatchesADequeUnderRandomPushesAndPops) {
  std::mt19937_64 rng(26);
  Fifo<std::string> f;
  std::deque<std::string> ref;
  for (int step = 0; step < 20000; ++step) {
    // Phases that mostly fill and mostly drain, so the ring wraps at many sizes.
    const bool fill = (step / 500) % 2 == 0;
    if (!ref.empty() && rng() % 10 < (fill ? 3u : 7u)) {
      ASSERT_EQ(f.front(), ref.front()) << "step " << step;
      f.pop_front();
      ref.pop_front();
    } else {
      const std::string v = std::to_string(rng() % 1000);
      if (rng() % 2) f.push_back(v);
      else f.emplace_back(v);
      ref.push_back(v);
      ASSERT_EQ(f.back(), ref.back());
    }
    ASSERT_EQ(f.size(), ref.size());
    ASSERT_EQ(f.empty(), ref.empty());
  }
  EXPECT_EQ(contents(f), std::vector<std::string>(ref.begin(), ref.end()));
}

TEST(Fifo, InsertOrderedGoesWhereUpperBoundWould) {
  std::mt19937_64 rng(12);
  Fifo<std::pair<int, int>> f;  // (key, serial): equal keys keep their arrival order
  std::deque<std::pair<int, int>> ref;
  auto before = [](const auto& a, const auto& b) { return a.first < b.first; };
  for (int step = 0; step < 5000; ++step) {
    if (!ref.empty() && rng() % 3 == 0) {
      f.pop_front();
      ref.pop_front();
      continue;
    }
    // Mostly at or after the back, as the DRAM's and the L1's completions come; sometimes earlier.
    const int back = ref.empty() ? 0 : ref.back().first;
    const int key = rng() % 4 ? back + static_cast<int>(rng() % 3) : back - static_cast<int>(rng() % 20);
    const std::pair<int, int> v{key, step};
    f.insert_ordered(v, before);
    ref.insert(std::upper_bound(ref.begin(), ref.end(), v, before), v);
    const std::vector<std::pair<int, int>> want(ref.begin(), ref.end());
    ASSERT_EQ(contents(f), want) << "step " << step;
  }
}
