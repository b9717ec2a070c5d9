// SPDX-License-Identifier: Apache-2.0
// The unit registry (models/gpu/units.h): every unit attaches from its entry alone, with its
// waveform group and its instructions; every run family takes the units its configuration enables.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "models/gpu/gpu.h"
#include "models/gpu/units.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;
using irr::testing::Testbench;

namespace {

// "key: value" (a unit's `enable`) as a --set.
std::string as_set(const std::string& enable) {
  const auto colon = enable.find(": ");
  return enable.substr(0, colon) + "=" + enable.substr(colon + 2);
}

}  // namespace

TEST(UnitRegistry, EveryEntryIsWholeAndNamedOnce) {
  std::set<std::string> names;
  for (const auto& u : gpu::units()) {
    EXPECT_TRUE(names.insert(u.name).second) << u.name << " twice";
    EXPECT_FALSE(u.description.empty()) << u.name;
    EXPECT_TRUE(u.enabled) << u.name;
    EXPECT_NE(u.enable.find(": "), std::string::npos) << u.name << ": enable '" << u.enable << "' is not 'key: value'";
    EXPECT_TRUE(u.attach || u.cta_scheduler) << u.name << " attaches nothing";
    EXPECT_FALSE(u.waves.empty()) << u.name << " has no waveform group";
  }
  EXPECT_THROW(gpu::unit("nosuch"), Error);
  try {
    gpu::unit("nosuch");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("hwwl"), std::string::npos) << e.what();  // the known units listed
  }
}

// Each unit, enabled by its own entry's key, is in the GPU and its waveform group finds probes
// (a test case a unit: one SystemC elaboration a process).
class EachUnit : public ::testing::TestWithParam<std::string> {};

TEST_P(EachUnit, EnabledItAttachesWithItsWaves) {
  const gpu::Unit& u = gpu::unit(GetParam());
  Testbench tb({"log.level=warn", as_set(u.enable)}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  core::ptx::ExtensionRegistry reg;
  gpu::AttachedUnits units(tb.sim(), g, reg);
  if (u.attach) {
    EXPECT_EQ(units.names(), std::vector<std::string>{u.name});
  } else {
    EXPECT_TRUE(units.names().empty());  // a CTA scheduler: the GPU made it
  }
  EXPECT_FALSE(tb.sim().probes().select(u.waves).empty()) << "no probe matches its waveform group";
}

INSTANTIATE_TEST_SUITE_P(UnitRegistry, EachUnit, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& u : gpu::units()) names.push_back(u.name);
                           return names;
                         }()),
                         [](const auto& info) { return info.param; });

TEST(UnitRegistry, ParsersKnowEveryUnitsInstructions) {
  core::ptx::ExtensionRegistry reg;
  gpu::add_all_instructions(reg);
  for (const char* name : {"wlpull", "wlpush", "ldiru", "enq", "deq"}) EXPECT_TRUE(reg.find(name)) << name;
  const std::size_t n = reg.size();
  gpu::add_all_instructions(reg);  // once each, however often asked
  EXPECT_EQ(reg.size(), n);
}

TEST(UnitRegistry, ANeededSchedulerUnitSaysHowToEnableIt) {
  Testbench tb({"log.level=warn"}, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  core::ptx::ExtensionRegistry reg;
  try {
    gpu::AttachedUnits units(tb.sim(), g, reg, {"dats"});
    ADD_FAILURE() << "attached";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("set gpu.cta_scheduler: dats"), std::string::npos) << e.what();
  }
}

// Every run family attaches what the configuration enables: CAE's counters are in each run's
// statistics.
TEST(UnitRegistry, EveryRunFamilyAttachesTheEnabledUnits) {
  const std::string graph = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx";
  const std::vector<std::vector<std::string>> runs = {
      {"--workload", "bfs", "--graph", graph},
      {"--workload", "sor", "--tiles", "4"},
      {"--workload", "vecadd"},
      {"--workload", "ht"},
  };
  for (auto args : runs) {
    SCOPED_TRACE(args[1]);
    TempDir d;
    args.insert(args.begin(), {"run", "-q", "-s", "cae.enabled=true", "-o", d.path()});
    const auto r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));
    EXPECT_TRUE(stats["stats"].contains("gpu.sm0.cae.candidates")) << "the unit was not attached";
  }
}

TEST(UnitRegistry, GtkwShowsAUnitsWaveformGroup) {
  TempDir d;
  auto r = run_cli({"gtkw", "--unit", "iru", "-c", "gtx980", "-o", d.path() + "/iru.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(d.path() + "/iru.gtkw").find("iru.p0.requests"), std::string::npos);
  r = run_cli({"gtkw", "--unit", "nosuch", "-o", d.path() + "/x.gtkw"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no unit named 'nosuch' (units: hwwl, iru"), std::string::npos) << r.err;
  r = run_cli({"run", "-s", "sim.top=dac"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("sim.top: 'dac' is not a model or a unit with a testbench (memory, example, hwwl, iru)"),
            std::string::npos)
      << r.err;
}

