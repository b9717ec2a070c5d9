// SPDX-License-Identifier: Apache-2.0
#include <gtest/gtest.h>

#include "sim/divide.h"
#include "sim/units.h"

using namespace irr::sim;

TEST(Units, Sizes) {
  EXPECT_EQ(parse_size("128"), 128u);
  EXPECT_EQ(parse_size("128B"), 128u);
  EXPECT_EQ(parse_size("48KiB"), 48u * 1024);
  EXPECT_EQ(parse_size("48KB"), 48u * 1024);  // the papers' KB is 1024 bytes
  EXPECT_EQ(parse_size("786 KiB"), 786u * 1024);
  EXPECT_EQ(parse_size("2MiB"), 2u * 1024 * 1024);
  EXPECT_EQ(parse_size("1.5KiB"), 1536u);
  EXPECT_EQ(parse_size("4GiB"), 4ull << 30);
  EXPECT_THROW(parse_size("1.3B"), std::invalid_argument);
  EXPECT_THROW(parse_size("48kb"), std::invalid_argument);
  EXPECT_THROW(parse_size("-4KiB"), std::invalid_argument);
  EXPECT_THROW(parse_size("KiB"), std::invalid_argument);
  // An exponent beyond a double's (found by fuzz_config and fuzz_schema): a bad value, not std::out_of_range.
  EXPECT_THROW(parse_size("12333333333333333E333"), std::invalid_argument);
  EXPECT_THROW(parse_frequency("1E84073773 MHz"), std::invalid_argument);
  // The grammar: spaces, digits, an optional fraction and exponent, spaces, the unit, spaces.
  EXPECT_EQ(parse_size(" \t48 KiB  "), 48u * 1024);
  EXPECT_EQ(parse_size("1e3"), 1000u);
  EXPECT_EQ(parse_size("2E+3B"), 2000u);
  EXPECT_EQ(parse_size("0.5e1KiB"), 5u * 1024);
  EXPECT_THROW(parse_size("1.KiB"), std::invalid_argument);
  EXPECT_THROW(parse_size(".5KiB"), std::invalid_argument);
  EXPECT_THROW(parse_size("4 Ki B"), std::invalid_argument);
  EXPECT_THROW(parse_size("4KiB x"), std::invalid_argument);
  EXPECT_THROW(parse_size("4K1B"), std::invalid_argument);
  EXPECT_THROW(parse_size(""), std::invalid_argument);
  try {  // "2e" is 2 with the unit "e" (no exponent digits follow), as "2 e" would be
    parse_size("2e");
    ADD_FAILURE() << "2e parsed";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown size unit"), std::string::npos) << e.what();
  }
  EXPECT_EQ(format_size(48 * 1024), "48KiB");
  EXPECT_EQ(format_size(786 * 1024), "786KiB");
  EXPECT_EQ(format_size(100), "100B");
}

TEST(Units, Frequencies) {
  EXPECT_DOUBLE_EQ(parse_frequency("700MHz"), 700e6);
  EXPECT_DOUBLE_EQ(parse_frequency("1.27GHz"), 1.27e9);
  EXPECT_DOUBLE_EQ(parse_frequency("924 MHz"), 924e6);
  EXPECT_THROW(parse_frequency("700"), std::invalid_argument);  // the unit is required
  EXPECT_THROW(parse_frequency("0MHz"), std::invalid_argument);
  EXPECT_THROW(parse_frequency("700mhz"), std::invalid_argument);
  EXPECT_EQ(format_frequency(700e6), "700MHz");
  EXPECT_EQ(format_frequency(1.27e9), "1.27GHz");
}

TEST(Units, Times) {
  EXPECT_EQ(parse_time("30us"), 30'000'000u);
  EXPECT_EQ(parse_time("1429ps"), 1429u);
  EXPECT_EQ(parse_time("1.5ns"), 1500u);
  EXPECT_EQ(parse_time("0ps"), 0u);
  EXPECT_THROW(parse_time("1.5ps"), std::invalid_argument);  // finer than the resolution
  EXPECT_THROW(parse_time("30"), std::invalid_argument);
  EXPECT_EQ(format_time(30'000'000), "30us");
  EXPECT_EQ(format_time(1429), "1429ps");
}

TEST(Units, Bandwidths) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("224GB/s"), 224e9);  // decimal, as datasheets
  EXPECT_DOUBLE_EQ(parse_bandwidth("177.4GB/s"), 177.4e9);
  EXPECT_THROW(parse_bandwidth("224GB"), std::invalid_argument);
  EXPECT_EQ(format_bandwidth(224e9), "224GB/s");
}

// sim::quotient and sim::remainder (sim/divide.h): a shift and a mask for a power of two, a
// division otherwise — the same answers either way.
TEST(Divide, ShiftsForPowersOfTwoAndDividesOtherwise) {
  for (std::uint64_t d : {1ull, 2ull, 6ull, 32ull, 256ull, 384ull, 1536ull, 2048ull, 1ull << 40})
    for (std::uint64_t a : {0ull, 1ull, 5ull, 255ull, 256ull, 1000003ull, 0x123456789abcull, ~0ull}) {
      EXPECT_EQ(irr::sim::quotient(a, d), a / d) << a << " / " << d;
      EXPECT_EQ(irr::sim::remainder(a, d), a % d) << a << " % " << d;
    }
}
