// SPDX-License-Identifier: Apache-2.0
// The unit registry (models/gpu/units.h): every unit attaches from its entry alone, with its
// waveform group and its instructions; every run family takes the units its configuration
// enables; and the demonstration unit (models/example/unit.h), added by its folder and one
// registry line, runs to the timing its configuration gives.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "models/gpu/gpu.h"
#include "models/gpu/units.h"
#include "sim/child.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;
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
    EXPECT_FALSE(u.enable_key.empty() || u.enable_value.empty()) << u.name << ": enable '" << u.enable() << "' is not 'key: value'";
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
  Testbench tb({"log.level=warn", as_set(u.enable())}, "gtx480");
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
  for (const char* name : {"wlpull", "wlpush", "ldiru", "enq", "deq", "exmad"}) EXPECT_TRUE(reg.find(name)) << name;
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

// Every run family attaches what the configuration enables: the demonstration unit's counters
// are in each run's statistics (their kernels have no exmad, so they count 0).
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
    args.insert(args.begin(), {"run", "-q", "-s", "example_unit.enabled=true", "-o", d.path()});
    const auto r = run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto stats = nlohmann::json::parse(read_file(d.path() + "/stats.json"));
    EXPECT_TRUE(stats["stats"].contains("gpu.sm0.example_unit.ops")) << "the unit was not attached";
  }
}

// A functional run has no timed GPU: a unit the configuration enables is an error saying so, in
// every family and in exec.
TEST(UnitRegistry, AFunctionalRunRefusesAnEnabledUnit) {
  const std::string graph = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/graphs/small.mtx";
  for (const std::vector<std::string>& workload :
       {std::vector<std::string>{"--workload", "bfs", "--graph", graph}, {"--workload", "sor", "--tiles", "4"},
        {"--workload", "vecadd"}, {"--workload", "ht"}}) {
    auto args = workload;
    args.insert(args.begin(), {"run", "-q", "--mode", "functional", "-s", "iru.enabled=true"});
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << workload[1];
    EXPECT_NE(r.err.find("iru.enabled: true attaches the iru unit to the timed GPU; a functional run has none"),
              std::string::npos)
        << r.err;
  }
  const auto r = run_cli({"run", "-q", "--mode", "functional", "--workload", "sor", "--tiles", "4"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // nothing enabled: it runs
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

// The units' save files under waveforms/ are what `irrgpu gtkw --unit U` writes today (make waveforms).
TEST(UnitRegistry, TheUnitsSaveFilesAreUpToDate) {
  for (const char* u : {"hwwl", "dac", "spref", "cae"}) {
    TempDir d;
    const auto r = run_cli({"gtkw", "--unit", u, "-o", d.path() + "/u.gtkw"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(read_file(d.path() + "/u.gtkw"),
              read_file(std::string(IRRGPU_SOURCE_DIR) + "/waveforms/" + u + "_gpu.gtkw"))
        << u << ": run make waveforms";
  }
}

namespace {

// `n` dependent exmads per thread: x = x * 3 + tid, from x = 1.
std::string mad_chain(unsigned n) {
  std::string body;
  for (unsigned i = 0; i < n; ++i) body += "exmad.u32 %r2, %r2, %r3, %r1;\n";
  return R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, 1;
mov.u32 %r3, 3;
)" + body + R"(ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r1, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r2;
ret;
}
)";
}

struct MadRun {
  std::vector<std::uint32_t> values;
  std::uint64_t cycles = 0;
  double ops = 0, full = 0, unit_stalls = 0;
  std::string error;
};

// One kernel of `threads` threads on one SM with the unit attached, in a child process (a SystemC
// kernel elaborates once per process, and the tests compare runs of different configurations).
MadRun run_mad(unsigned threads, unsigned chain, unsigned latency, unsigned slots) {
  const std::string text = sim::in_child_process([&] {
    nlohmann::json out;
    try {
      Testbench tb({"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn", "example_unit.enabled=true",
                    "example_unit.latency=" + std::to_string(latency), "example_unit.slots=" + std::to_string(slots)},
                   "gtx480");
      auto& g = tb.add<gpu::Gpu>("gpu");
      core::ptx::ExtensionRegistry reg;
      gpu::AttachedUnits units(tb.sim(), g, reg);
      Device dev(g.memory(), &reg);
      dev.set_backend(&g);
      std::vector<std::uint32_t> values(threads);
      std::uint64_t cycles = 0;
      gpu::Host host("host", [&] {
        const auto mod = dev.load_module_text(mad_chain(chain), "mad.ptx");
        const std::uint64_t buffer = dev.malloc(4 * threads);
        dev.launch(dev.kernel(mod, "k"), Dim3{1}, Dim3{threads}, Args() << buffer);
        cycles = dev.last_kernel_cycles();
        dev.memcpy_to_host(values.data(), buffer, 4 * threads);
      });
      tb.run();
      out = {{"values", values}, {"cycles", cycles}, {"ops", tb.stat("gpu.sm0.example_unit.ops")},
             {"full", tb.stat("gpu.sm0.example_unit.full")}, {"unit_stalls", tb.stat("gpu.sm0.stall.unit")},
             {"error", host.finished() ? "" : "the host program did not finish"}};
    } catch (const std::exception& e) {
      out = {{"error", e.what()}};
    }
    return out.dump();
  });
  MadRun r;
  const auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return {{}, 0, 0, 0, 0, "the child process gave no result"};
  r.error = j.value("error", "");
  if (!r.error.empty()) return r;
  r.values = j["values"].get<std::vector<std::uint32_t>>();
  r.cycles = j["cycles"];
  r.ops = j["ops"], r.full = j["full"], r.unit_stalls = j["unit_stalls"];
  return r;
}

}  // namespace

// The values are the instruction's semantics; each operation holds its warp for exactly the
// configured latency, so a chain of n on one warp lasts n x (difference in latency) longer.
TEST(ExampleUnit, AChainWaitsTheConfiguredLatencyPerOperation) {
  const unsigned n = 10;
  const MadRun fast = run_mad(32, n, 8, 2), slow = run_mad(32, n, 40, 2);
  ASSERT_EQ(fast.error, "");
  ASSERT_EQ(slow.error, "");
  for (std::uint32_t t = 0; t < 32; ++t) {
    std::uint32_t x = 1;
    for (unsigned i = 0; i < n; ++i) x = x * 3 + t;
    EXPECT_EQ(fast.values[t], x) << t;
    EXPECT_EQ(slow.values[t], x) << t;
  }
  EXPECT_EQ(fast.ops, n);
  EXPECT_EQ(fast.full, 0);  // one warp never holds more than one operation
  EXPECT_EQ(slow.cycles - fast.cycles, n * (40 - 8));
}

// Four warps on one slot take turns (refused while it is held); on four slots none is refused.
TEST(ExampleUnit, SlotsBoundTheOperationsInFlight) {
  const MadRun one = run_mad(128, 4, 20, 1), four = run_mad(128, 4, 20, 4);
  ASSERT_EQ(one.error, "");
  ASSERT_EQ(four.error, "");
  EXPECT_EQ(one.ops, 16);
  EXPECT_EQ(four.ops, 16);
  EXPECT_GT(one.full, 0);
  EXPECT_GT(one.unit_stalls, 0);
  EXPECT_EQ(four.full, 0);
  EXPECT_EQ(one.values, four.values);
  // One slot serialises the 16 operations: at least 16 latencies.
  EXPECT_GE(one.cycles, 16u * 20);
  EXPECT_LT(four.cycles, one.cycles);
}

// Every unit's instructions parse (ptx check); run without the unit, exmad is an error that says
// how to enable it.
TEST(ExampleUnit, WithoutTheUnitExmadSaysHowToEnableIt) {
  TempDir d;
  const std::string ptx = d.path() + "/mad.ptx";
  {
    std::ofstream f(ptx);
    f << mad_chain(1);
  }
  auto r = run_cli({"ptx", "check", ptx});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 kernel"), std::string::npos) << r.out;
  core::ptx::ExtensionRegistry reg;
  gpu::add_all_instructions(reg);
  mem::BackingStore store;
  Device dev(store, &reg);
  const auto mod = dev.load_module_text(mad_chain(1), "mad.ptx");
  try {
    dev.launch(dev.kernel(mod, "k"), Dim3{1}, Dim3{32}, Args() << dev.malloc(128));
    ADD_FAILURE() << "ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("example_unit.enabled: true"), std::string::npos) << e.what();
  }
}
