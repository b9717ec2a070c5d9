// SPDX-License-Identifier: Apache-2.0
#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <sstream>

#include "sim/stats.h"

using namespace irr::sim;

TEST(Stats, CounterAverageDistributionFormula) {
  StatsRegistry r;
  Counter& c = r.counter("a.hits", "hits", "accesses");
  ++c;
  c += 4;
  EXPECT_EQ(c.count(), 5u);
  Average& avg = r.average("a.occ", "occupancy", "entries");
  avg.sample(1);
  avg.sample(4);
  EXPECT_DOUBLE_EQ(avg.value(), 2.5);
  Distribution& d = r.distribution("a.lat", "latency", "cycles", 0, 10, 3);  // [0,10) [10,20) [20,30)
  for (double x : {-1.0, 0.0, 9.9, 10.0, 29.0, 30.0, 100.0}) d.sample(x);
  d.sample(15, 3);
  EXPECT_EQ(d.count(), 10u);
  EXPECT_EQ(d.buckets(), (std::vector<std::uint64_t>{2, 4, 1}));
  EXPECT_DOUBLE_EQ(d.min(), -1);
  EXPECT_DOUBLE_EQ(d.max(), 100);
  EXPECT_DOUBLE_EQ(d.value(), (-1 + 0 + 9.9 + 10 + 29 + 30 + 100 + 45) / 10);
  r.formula("a.hit_rate", "hits per occupancy", "ratio", [&] { return c.value() / avg.value(); });
  EXPECT_DOUBLE_EQ(r.find("a.hit_rate")->value(), 2.0);
  EXPECT_THROW(r.counter("a.hits", "again", "x"), std::logic_error);
  EXPECT_THROW(r.distribution("a.bad", "", "", 0, 0, 3), std::logic_error);
}

// A statistic is a few words with its names out of line, and those of a kind are kept side by side
// in declaration order: the counters a component bumps every cycle share host cache lines. Their
// addresses stay put as more are declared.
TEST(Stats, CountersDeclaredTogetherSitSideBySide) {
  EXPECT_LE(sizeof(Counter), 32u);
  StatsRegistry r;
  std::vector<Counter*> c;
  for (int i = 0; i < 8; ++i) c.push_back(&r.counter("sm.c" + std::to_string(i), "d", "u"));
  for (int i = 1; i < 8; ++i)
    EXPECT_EQ(reinterpret_cast<char*>(c[i]) - reinterpret_cast<char*>(c[i - 1]), static_cast<std::ptrdiff_t>(sizeof(Counter)));
  for (int i = 0; i < 1000; ++i) r.counter("more.c" + std::to_string(i), "", "");
  *c[0] += 3;
  EXPECT_EQ(r.find("sm.c0"), c[0]);
  EXPECT_EQ(r.find("sm.c0")->value(), 3.0);
  EXPECT_EQ(c[7]->name(), "sm.c7");
}

TEST(Stats, JsonHasDescriptionsUnitsAndDistributions) {
  StatsRegistry r;
  r.counter("x.n", "things", "things") += 3;
  r.distribution("x.d", "spread", "ns", 0, 1, 2).sample(1.5);
  nlohmann::json j = r.to_json();
  EXPECT_EQ(j["stats"]["x.n"]["value"], 3);
  EXPECT_EQ(j["stats"]["x.n"]["unit"], "things");
  EXPECT_EQ(j["stats"]["x.n"]["description"], "things");
  EXPECT_EQ(j["stats"]["x.d"]["buckets"], (std::vector<int>{0, 1}));
  EXPECT_EQ(j["stats"]["x.d"]["count"], 1);
  EXPECT_FALSE(j.contains("samples"));
}

TEST(Stats, SnapshotsAndTimeSeries) {
  StatsRegistry r;
  Counter& n = r.counter("k.insts", "instructions", "instructions");
  n += 10;
  r.snapshot("kernel 0", 1000);
  r.sample(1000);
  n += 5;
  Counter& late = r.counter("k.late", "declared after the first sample", "x");
  ++late;
  r.snapshot("kernel 1", 2000);
  r.sample(2000);
  n += 1;  // a sample with no statistic added since the last reads the same series, values now
  r.sample(3000);
  nlohmann::json j = r.to_json();
  ASSERT_EQ(j["snapshots"].size(), 2u);
  EXPECT_EQ(j["snapshots"][0]["label"], "kernel 0");
  EXPECT_EQ(j["snapshots"][0]["time_ps"], 1000);
  EXPECT_EQ(j["snapshots"][0]["values"]["k.insts"], 10);
  EXPECT_FALSE(j["snapshots"][0]["values"].contains("k.late"));
  EXPECT_EQ(j["snapshots"][1]["values"]["k.insts"], 15);
  EXPECT_EQ(j["samples"]["time_ps"], (std::vector<int>{1000, 2000, 3000}));
  EXPECT_EQ(j["samples"]["series"]["k.insts"], (std::vector<double>{10, 15, 16}));
  EXPECT_EQ(j["samples"]["series"]["k.late"], (std::vector<double>{0, 1, 1}));
}

TEST(Stats, CsvAndFilteredTable) {
  StatsRegistry r;
  r.counter("l1.hits", "hits, all kinds", "accesses") += 7;
  r.counter("l2.hits", "hits", "accesses") += 2;
  r.average("l1.occ", "occupancy", "entries").sample(2);
  std::ostringstream csv;
  r.write_csv(csv);
  EXPECT_EQ(csv.str(),
            "name,value,unit,description\n"
            "l1.hits,7,accesses,\"hits, all kinds\"\n"
            "l1.occ,2,entries,occupancy\n"
            "l1.occ.count,1,,\n"
            "l2.hits,2,accesses,hits\n");
  std::ostringstream table;
  r.print_table(table, "l1.*");
  EXPECT_NE(table.str().find("l1.hits"), std::string::npos);
  EXPECT_EQ(table.str().find("l2.hits"), std::string::npos);
}

TEST(Stats, SumOverInstancesLeavesSummariesOut) {
  StatsRegistry r;
  Counter& sm0 = r.counter("gpu.sm0.l1.hits", "", "");
  sm0 += 3;
  r.counter("gpu.sm1.l1.hits", "", "") += 4;
  r.counter("gpu.sm1.l1.hits_extra", "", "") += 100;  // another suffix
  r.counter("memory.sm0_l1.hits", "", "") += 10;      // another prefix
  r.formula("gpu.total.l1.hits", "", "", [] { return 1000.0; });
  EXPECT_EQ(r.sum("gpu.", ".l1.hits"), 7);
  EXPECT_EQ(r.sum("", "l1.hits"), 17);
  EXPECT_EQ(r.sum("nothing.", ".l1.hits"), 0);
  // The matches are found once: values are still read at each sum, and a statistic added later counts.
  sm0 += 1;
  EXPECT_EQ(r.sum("gpu.", ".l1.hits"), 8);
  r.counter("gpu.sm2.l1.hits", "", "") += 5;
  EXPECT_EQ(r.sum("gpu.", ".l1.hits"), 13);
  EXPECT_EQ(r.sum("", "l1.hits"), 23);
}
