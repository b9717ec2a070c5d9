// SPDX-License-Identifier: Apache-2.0
// sim::IdMap, the MSHRs' and the SM's in-flight table: the same answers as std::unordered_map
// under random inserts and erases (probe runs, wrap-around, growth, backward-shift deletion).
#include "sim/id_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <unordered_map>

using irr::sim::IdMap;

namespace {

// The map's entries through for_each, sorted by key, to compare with a reference.
std::map<std::uint64_t, int> entries(const IdMap<int>& m) {
  std::map<std::uint64_t, int> out;
  m.for_each([&](std::uint64_t k, const int& v) { EXPECT_TRUE(out.emplace(k, v).second) << "key " << k << " twice"; });
  return out;
}

void random_against_reference(std::uint64_t seed, std::uint64_t (*key_of)(std::uint64_t), std::uint64_t keys) {
  std::mt19937_64 rng(seed);
  IdMap<int> m;
  std::unordered_map<std::uint64_t, int> ref;
  for (int step = 0; step < 20000; ++step) {
    const std::uint64_t k = key_of(rng() % keys);
    const auto r = ref.find(k);
    switch (rng() % 3) {
      case 0:
        if (r == ref.end()) {
          const int v = static_cast<int>(rng() % 1000);
          m.insert(k) = v;
          ref.emplace(k, v);
        } else {
          EXPECT_THROW(m.insert(k), std::logic_error);
        }
        break;
      case 1:
        m.erase(k);
        ref.erase(k);
        break;
      default:
        if (r == ref.end()) {
          EXPECT_EQ(m.find(k), nullptr) << "key " << k;
          EXPECT_THROW(m.at(k), std::out_of_range);
        } else {
          ASSERT_NE(m.find(k), nullptr) << "key " << k;
          EXPECT_EQ(*m.find(k), r->second);
        }
    }
    ASSERT_EQ(m.size(), ref.size());
    if (step % 1000 == 0) {
      EXPECT_EQ(entries(m), (std::map<std::uint64_t, int>(ref.begin(), ref.end())));
    }
  }
  EXPECT_EQ(entries(m), (std::map<std::uint64_t, int>(ref.begin(), ref.end())));
}

}  // namespace

TEST(IdMap, LineAddressesAsAReferenceMapHasThem) {  // 128-byte lines, few enough to fill and empty the table
  random_against_reference(1, [](std::uint64_t i) { return i * 128; }, 40);
  random_against_reference(2, [](std::uint64_t i) { return 0x7000'0000 + i * 128; }, 3000);
}

TEST(IdMap, TokensAndWideKeysAsAReferenceMapHasThem) {
  random_against_reference(3, [](std::uint64_t i) { return i; }, 100);           // counters, zero included
  random_against_reference(4, [](std::uint64_t i) { return ~i; }, 100);          // near 2^64
  random_against_reference(5, [](std::uint64_t i) { return i << 40; }, 500);     // only high bits differ
}

TEST(IdMap, AnErasedValueIsHandedOutAgainAsItWasLeft) {
  IdMap<std::vector<int>> m;
  std::vector<int>& v = m.insert(7);
  v.assign(100, 1);
  const int* buffer = v.data();
  m.erase(7);
  EXPECT_FALSE(m.contains(7));
  std::vector<int>& w = m.insert(9);  // the pool's one free value: its contents and buffer kept
  EXPECT_EQ(&w, &v);
  EXPECT_EQ(w.size(), 100u);
  EXPECT_EQ(w.data(), buffer);
  m.erase(123);  // absent: nothing happens
  EXPECT_EQ(m.size(), 1u);
}

TEST(IdMap, ValuesKeepTheirAddressesAsTheMapGrows) {
  IdMap<int> m;
  int* first = &m.insert(1000);
  *first = 42;
  for (std::uint64_t k = 0; k < 5000; ++k) m.insert(k * 64) = static_cast<int>(k);
  EXPECT_EQ(m.find(1000), first);
  EXPECT_EQ(*first, 42);
  EXPECT_EQ(m.size(), 5001u);
  for (std::uint64_t k = 0; k < 5000; ++k) ASSERT_EQ(*m.find(k * 64), static_cast<int>(k));
}
