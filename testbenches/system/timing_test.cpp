// SPDX-License-Identifier: Apache-2.0
// The timed GPU: it computes what the functional executor computes, and its latencies follow
// from the configuration (a dependent pointer chase measures the L1-hit, L2-hit and DRAM paths).
#include <gtest/gtest.h>

#include "models/gpu/gpu.h"
#include "testbenches/common/testing.h"
#include "workloads/workloads.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;
using irr::testing::stat_sum;
using irr::testing::Testbench;

namespace {

// Runs `program` as the host thread of a timed GPU built from the preset and overrides.
void timed(const std::vector<std::string>& sets, const std::function<void(Device&, gpu::Gpu&, sim::Simulation&)>& program) {
  Testbench tb(sets, "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory());
  dev.set_backend(&g);
  dev.echo_printf(false);
  gpu::Host host("host", [&] { program(dev, g, tb.sim()); });
  tb.run();
  ASSERT_TRUE(host.finished());
}

// Core cycles one launch of kernel `k` (one block of `threads`) takes.
double launch_cycles(Device& dev, sim::Simulation& sim, std::size_t mod, const char* k, unsigned threads, const Args& args) {
  const auto& core = sim.clock("core").domain();
  const auto t0 = core.cycle_at(sim::now_ps());
  dev.launch(dev.kernel(mod, k), Dim3{1}, Dim3{threads}, args);
  return static_cast<double>(core.cycle_at(sim::now_ps()) - t0);
}

}  // namespace

class TimingMatchesFunctional : public ::testing::TestWithParam<std::string> {};

TEST_P(TimingMatchesFunctional, EveryVariant) {
  const workloads::Graph graph = workloads::load_graph(GetParam());
  std::uint32_t source = 0;
  while (source + 1 < graph.n && graph.degree(source) == 0) ++source;
  const auto runs_on = [&](const workloads::Workload& w) { return w.refuses(graph).empty(); };
  for (const workloads::Workload& w : workloads::workloads()) {
    if (!runs_on(w)) continue;
    const auto want = w.reference(graph, source);
    for (const workloads::Variant& v : w.variants) {
      if (!v.unit.empty()) continue;  // needs a unit: testbenches/system/hwwl_gpu_test.cpp
      mem::BackingStore m;
      Device functional(m);
      const auto f = w.run(functional, graph, source, v.name);
      // Each timed run in its own process would be cleaner; one simulation runs them all in turn.
      (void)f;
      EXPECT_EQ(w.check(graph, f.values, want), "") << w.name << "/" << v.name;
    }
  }
  // The timed runs: one host program runs every variant on one GPU, in sequence.
  std::vector<std::pair<std::string, std::string>> failures;
  timed({"gpu.num_sms=4", "log.level=warn"}, [&](Device& dev, gpu::Gpu&, sim::Simulation&) {
    for (const workloads::Workload& w : workloads::workloads())
      for (const workloads::Variant& v : w.variants) {
        if (!v.unit.empty() || !runs_on(w)) continue;
        const auto r = w.run(dev, graph, source, v.name);
        const std::string diff = w.check(graph, r.values, w.reference(graph, source));
        if (!diff.empty()) failures.emplace_back(w.name + "/" + v.name, diff);
      }
  });
  for (const auto& [what, diff] : failures) ADD_FAILURE() << what << ": " << diff;
}

// The other warp schedulers compute the same results (barriers, atomics and spins included).
class SchedulerPolicies : public ::testing::TestWithParam<const char*> {};

TEST_P(SchedulerPolicies, ComputeTheFunctionalResults) {
  const workloads::Graph graph = workloads::load_graph("grid:rows=9,cols=11");
  timed({"gpu.num_sms=4", "log.level=warn", std::string("core.scheduler=") + GetParam(), "core.two_level_active=2"},
        [&](Device& dev, gpu::Gpu&, sim::Simulation&) {
          for (const auto& [name, variant] : std::vector<std::pair<std::string, std::string>>{
                   {"bfs", "data_block"}, {"sssp", "data"}, {"pr", "data"}}) {
            const auto& w = workloads::workload(name);
            EXPECT_EQ(w.check(graph, w.run(dev, graph, 0, variant).values, w.reference(graph, 0)), "") << name << "/" << variant;
          }
        });
}

INSTANTIATE_TEST_SUITE_P(Policies, SchedulerPolicies, ::testing::Values("lrr", "two_level"),
                         [](const auto& info) { return std::string(info.param); });

INSTANTIATE_TEST_SUITE_P(Graphs, TimingMatchesFunctional,
                         ::testing::Values("rmat:scale=8,edge_factor=8,seed=3", "grid:rows=9,cols=11"),
                         [](const auto& info) { return info.param.substr(0, info.param.find(':')); });

namespace {

// Two kernels chasing a chain of 8-byte pointers: one with 8 dependent loads, one with 24; the
// difference in their run times is 16 load latencies.
std::string chase_ptx() {
  std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n";
  for (int n : {8, 24}) {
    text += ".visible .entry chase" + std::to_string(n) + "(.param .u64 p, .param .u64 out)\n{\n.reg .b64 %rd<4>;\n"
            "ld.param.u64 %rd1, [p];\nld.param.u64 %rd2, [out];\n";
    for (int i = 0; i < n; ++i) text += "ld.global.u64 %rd1, [%rd1];\n";
    text += "st.global.u64 [%rd2], %rd1;\nret;\n}\n";
  }
  return text;
}

enum class Level { l1, l2, dram };

// Per-load latency in core cycles: chase24 minus chase8, run under the same first-load
// conditions (the L1s are invalidated at each kernel start, the L2 keeps its lines).
//   l1:   a pointer to itself; both measured runs start with an L2 hit, then hit the L1.
//   l2:   one line per pointer; a chase24 warm-up puts the chain in the L2 for both runs.
//   dram: one line per pointer, a fresh chain for each run, no warm-up.
// `stalls`, if given, gets the stall statistics the long run added (all SMs).
double chase(const std::vector<std::string>& sets, Level level, std::map<std::string, double>* stalls = nullptr) {
  double result = 0;
  timed(sets, [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const auto mod = dev.load_module_text(chase_ptx(), "chase.ptx");
    const std::uint64_t stride = level == Level::l1 ? 0 : 16;  // in 8-byte words: one 128-byte line
    auto make_chain = [&] {
      const std::uint64_t bytes = 64 * 128;
      const std::uint64_t base = dev.malloc(bytes);
      std::vector<std::uint64_t> chain(bytes / 8, 0);
      for (std::uint64_t i = 0; i < 64; ++i) chain[i * stride] = base + (i + 1) * stride * 8;
      dev.memcpy_to_device(base, chain.data(), bytes);
      return base;
    };
    const std::uint64_t out = dev.malloc(8);
    auto run = [&](const char* kernel, std::uint64_t chain) {
      const auto t0 = sim.clock("core").domain().cycle_at(sim::now_ps());
      dev.launch(dev.kernel(mod, kernel), Dim3{1}, Dim3{1}, Args() << chain << out);
      return sim.clock("core").domain().cycle_at(sim::now_ps()) - t0;
    };
    const std::uint64_t a = make_chain();
    const std::uint64_t b = level == Level::dram ? make_chain() : a;
    if (level != Level::dram) run(level == Level::l1 ? "chase8" : "chase24", a);  // warm the L2
    const auto short_run = run("chase8", a);
    const char* names[] = {"memory", "memory.l1", "memory.l2", "memory.dram", "memory.atomic", "memory.other", "empty",
                           "dependence", "structural"};
    std::map<std::string, double> before;
    for (const char* n : names) before[n] = stat_sum(sim, std::string(".stall.") + n);
    const auto long_run = run("chase24", b);
    if (stalls)
      for (const char* n : names) (*stalls)[n] = stat_sum(sim, std::string(".stall.") + n) - before[n];
    result = (static_cast<double>(long_run) - static_cast<double>(short_run)) / 16.0;
  });
  return result;
}

// All clocks equal, host costs off, fixed DRAM: the path lengths of docs/memory.md apply.
std::vector<std::string> chase_config() {
  return {"gpu.num_sms=1", "l2.partitions=1", "l2.size=768KiB", "clocks.core=1GHz", "clocks.interconnect=1GHz",
          "clocks.l2=1GHz", "clocks.dram=1GHz", "host.launch_overhead=0ps", "host.copy_bandwidth=1000000GB/s",
          "l1.latency=3", "interconnect.latency=5", "l2.latency=7", "dram.model=fixed", "dram.latency=50", "log.level=warn"};
}
constexpr unsigned Ll = 3, Li = 5, L2 = 7, Ld = 50;
// Issue to dependent issue: the LD/ST unit hands the access on (1), the L1 takes it (1), the
// result is written back and the dependent load issues the cycle after (1).
constexpr unsigned kL1Hit = 3 + Ll;
// A miss: queue to the network (1), request packet (Li), partition input (1), L2 (L2), reply
// queue (1), a 128-byte reply of 1 + 4 flits (4 more) and its latency (Li), fill (1).
constexpr unsigned kL2Hit = kL1Hit + 1 + Li + 1 + L2 + 1 + (5 - 1) + Li + 1;
constexpr unsigned kDram = kL2Hit + 1 + Ld + 1;

}  // namespace

TEST(TimingLatency, PointerChaseHitsTheL1) {
  EXPECT_DOUBLE_EQ(chase(chase_config(), Level::l1), kL1Hit);
}

TEST(TimingLatency, PointerChaseHitsTheL2) {
  // The L1s are invalidated at each kernel start; the L2 keeps what the warm-up kernel brought in.
  EXPECT_DOUBLE_EQ(chase(chase_config(), Level::l2), kL2Hit);
}

// GPGPU-Sim's default (-gpgpu_flush_l1_cache 0): the L1 keeps the warm-up kernel's lines, so the
// chase that hits the L2 above hits the L1 instead.
TEST(TimingLatency, L1KeepsItsLinesAcrossKernelsWhenNotInvalidatedAtLaunch) {
  auto sets = chase_config();
  sets.push_back("l1.invalidate_at_launch=false");
  EXPECT_DOUBLE_EQ(chase(sets, Level::l2), kL1Hit);
}

TEST(TimingLatency, PointerChaseGoesToDram) {
  EXPECT_DOUBLE_EQ(chase(chase_config(), Level::dram), kDram);
}

namespace {
// A scheduler cycle without an issue counts once under its cause, the cycles an SM sleeps waiting
// for a reply included; memory-stall cycles go to the level whose reply ended them. The chase's
// warp waits out each of its 24 loads (in the L1 case the first misses: the L1s start each kernel
// empty).
void expect_memory_stalls(Level level, const std::string& name, double latency) {
  std::map<std::string, double> st;
  chase(chase_config(), level, &st);
  EXPECT_EQ(st["memory"], st["memory.l1"] + st["memory.l2"] + st["memory.dram"] + st["memory.atomic"] + st["memory.other"]);
  EXPECT_GE(st[name], 23 * (latency - 1)) << name;  // issue to write-back, every cycle
  EXPECT_LE(st["memory"], 24 * latency + kL2Hit);
  EXPECT_EQ(st["memory.atomic"] + st["memory.other"], 0);
}
}  // namespace

TEST(StallAccounting, L1HitsChargeL1) { expect_memory_stalls(Level::l1, "memory.l1", kL1Hit); }
TEST(StallAccounting, L2HitsChargeL2) { expect_memory_stalls(Level::l2, "memory.l2", kL2Hit); }
TEST(StallAccounting, DramAccessesChargeDramAlsoWhileTheSmSleeps) { expect_memory_stalls(Level::dram, "memory.dram", kDram); }

// On a graph kernel, every SM's kernel cycles are either active (a CTA resident) or idle, every
// active scheduler cycle issues or stalls under one cause, and the causes' parts add up.
TEST(StallAccounting, EveryKernelCycleOfEverySmIsAccountedOnce) {
  timed({"gpu.num_sms=4", "log.level=warn"}, [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const workloads::Graph graph = workloads::load_graph("rmat:scale=8");
    const auto& w = workloads::workload("bfs");
    EXPECT_EQ(w.check(graph, w.run(dev, graph, 0, "data").values, w.reference(graph, 0)), "");
    const double kernel = stat_sum(sim, "gpu.kernel_cycles"), kernels = stat_sum(sim, "gpu.kernels");
    double idle = 0;
    for (int i = 0; i < 4; ++i) {
      const std::string sm = "gpu.sm" + std::to_string(i) + ".";
      auto v = [&](const std::string& n) { return stat_sum(sim, sm + n); };
      SCOPED_TRACE(sm);
      EXPECT_EQ(v("active_cycles") + v("idle_cycles"), kernel);
      idle += v("idle_cycles");
      double issued_or_stalled = v("warp_instructions");  // gtx480: one pass a warp instruction
      for (const char* why : {"empty", "dependence", "memory", "barrier", "unit", "structural"})
        issued_or_stalled += v(std::string("stall.") + why);
      EXPECT_GE(issued_or_stalled, 2 * v("active_cycles"));  // a scheduler may also step with no CTA in
      EXPECT_LE(issued_or_stalled, 2 * v("active_cycles") + 4 * kernels);
      EXPECT_EQ(v("stall.memory"), v("stall.memory.l1") + v("stall.memory.l2") + v("stall.memory.dram") +
                                       v("stall.memory.atomic") + v("stall.memory.other"));
      EXPECT_EQ(v("stall.structural"), v("stall.structural.ldst") + v("stall.structural.sfu"));
      EXPECT_EQ(v("l1.reservation_fails"), v("l1.reservation_fails.mshr") + v("l1.reservation_fails.miss_queue"));
    }
    EXPECT_GT(stat_sum(sim, ".stall.memory.atomic"), 0);  // bfs claims vertices with atomicCAS
    EXPECT_EQ(sim.stats().find("gpu.total.idle_sm_cycles")->value(), idle);
  });
}

// Magic memory (l1.perfect): a chase that would go to DRAM takes the L1 hit latency per load.
TEST(TimingLatency, PerfectMemoryAnswersEveryLoadAtTheL1) {
  auto sets = chase_config();
  sets.push_back("l1.perfect=true");
  EXPECT_DOUBLE_EQ(chase(sets, Level::dram), kL1Hit);
}

namespace {

// An independent ALU stream: 16 independent adds per loop iteration (4 chains of 4 would stall a
// lone warp; with 48 warps per SM every cycle has a ready warp).
const char* kAluPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry alu(.param .u64 out)
{
.reg .b32 %r<20>;
.reg .b64 %rd<4>;
.reg .pred %p;
mov.u32 %r0, %tid.x;
mov.u32 %r1, %r0; mov.u32 %r2, %r0; mov.u32 %r3, %r0; mov.u32 %r4, %r0;
mov.u32 %r5, %r0; mov.u32 %r6, %r0; mov.u32 %r7, %r0; mov.u32 %r8, %r0;
mov.u32 %r9, 0;
LOOP:
add.u32 %r1, %r1, 1; add.u32 %r2, %r2, 2; add.u32 %r3, %r3, 3; add.u32 %r4, %r4, 4;
add.u32 %r5, %r5, 5; add.u32 %r6, %r6, 6; add.u32 %r7, %r7, 7; add.u32 %r8, %r8, 8;
add.u32 %r1, %r1, 1; add.u32 %r2, %r2, 2; add.u32 %r3, %r3, 3; add.u32 %r4, %r4, 4;
add.u32 %r5, %r5, 5; add.u32 %r6, %r6, 6; add.u32 %r7, %r7, 7; add.u32 %r8, %r8, 8;
add.u32 %r9, %r9, 1;
setp.lt.u32 %p, %r9, 64;
@%p bra LOOP;
add.u32 %r1, %r1, %r2; add.u32 %r1, %r1, %r3; add.u32 %r1, %r1, %r4; add.u32 %r1, %r1, %r5;
add.u32 %r1, %r1, %r6; add.u32 %r1, %r1, %r7; add.u32 %r1, %r1, %r8;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r0, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r1;
ret;
}
)";

// A streaming read: a grid-stride loop summing 32-bit words, coalesced (one line per warp load).
const char* kStreamPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry stream(.param .u64 in, .param .u64 out, .param .u32 n)
{
.reg .b32 %r<12>;
.reg .b64 %rd<8>;
.reg .pred %p;
ld.param.u64 %rd1, [in];
ld.param.u64 %rd2, [out];
ld.param.u32 %r1, [n];
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mov.u32 %r4, %tid.x;
mad.lo.u32 %r5, %r2, %r3, %r4;
mov.u32 %r10, %r5;
mov.u32 %r6, %nctaid.x;
mul.lo.u32 %r7, %r6, %r3;
mov.u32 %r8, 0;
LOOP:
setp.ge.u32 %p, %r5, %r1;
@%p bra DONE;
mul.wide.u32 %rd3, %r5, 4;
add.u64 %rd4, %rd1, %rd3;
ld.global.u32 %r9, [%rd4];
add.u32 %r8, %r8, %r9;
add.u32 %r5, %r5, %r7;
bra LOOP;
DONE:
mul.wide.u32 %rd5, %r10, 4;
add.u64 %rd6, %rd2, %rd5;
st.global.u32 [%rd6], %r8;
ret;
}
)";

}  // namespace

// One SM runs `kernel` of `ptx` with 8 CTAs of 192 threads (48 warps) and an output array.
struct OneSmRun {
  double cycles = 0, warp_instructions = 0;
  double peak = 0;  // warp instructions per cycle the schedulers can issue
  std::map<std::string, double> issued;  // by class
};

OneSmRun one_sm(const char* preset, const char* ptx, const char* kernel, const std::vector<std::string>& extra) {
  OneSmRun r;
  std::vector<std::string> sets = {"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  Testbench tb(sets, preset);
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory());
  dev.set_backend(&g);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(ptx, std::string(kernel) + ".ptx");
    const std::uint64_t out = dev.malloc(4 * 192);
    auto& core = tb.sim().clock("core").domain();
    const auto t0 = core.cycle_at(sim::now_ps());
    dev.launch(dev.kernel(mod, kernel), Dim3{8}, Dim3{192}, Args() << out);
    r.cycles = static_cast<double>(core.cycle_at(sim::now_ps()) - t0);
  });
  tb.run();
  EXPECT_TRUE(host.finished());
  for (const char* c : {"int", "fp", "sfu", "memory", "control", "extension"}) r.issued[c] = tb.sum(std::string(".issued.") + c);
  r.warp_instructions = tb.sum(".warp_instructions");
  const auto& c = tb.sim().config();
  // Each scheduler issues once per cycle, a warp occupying it warp_size / simd_width cycles.
  r.peak = static_cast<double>(c.get_uint("core.warp_schedulers")) * static_cast<double>(c.get_uint("core.simd_width")) / 32.0;
  return r;
}

// Warp IPC of one SM running the ALU stream, and the configured peak.
std::pair<double, double> alu_ipc(const char* preset, const std::vector<std::string>& extra) {
  const OneSmRun r = one_sm(preset, kAluPtx, "alu", extra);
  return {r.warp_instructions / r.cycles, r.peak};
}

class AluStream : public ::testing::TestWithParam<const char*> {};

TEST_P(AluStream, ReachesTheIssueRate) {
  const auto [ipc, peak] = alu_ipc(GetParam(), {});
  EXPECT_GE(ipc, 0.95 * peak);
  EXPECT_LE(ipc, peak);
}

// Two-level: with one active warp per scheduler, the warp's own loop-branch dependences show
// (it stays active through short stalls); with six, other active warps hide them.
TEST(TwoLevelScheduler, ActiveSetSizeHidesShortStalls) {
  const auto [one, peak] = alu_ipc("gtx480", {"core.scheduler=two_level", "core.two_level_active=1", "core.latency_int=4"});
  EXPECT_LT(one, 0.9 * peak);
  EXPECT_GT(one, 0.5 * peak);
}

// One register-file write port: every instruction of the stream but the branch writes a
// register, so the SM retires about one per cycle however fast it issues.
TEST(WritebackPorts, OnePortLimitsTheAluStream) {
  const auto [ipc, peak] = alu_ipc("gtx480", {"core.writeback_ports=1"});
  EXPECT_LE(ipc, 19.0 / 18.0);
  EXPECT_GE(ipc, 0.95);
  EXPECT_EQ(peak, 2);
}

TEST(TwoLevelScheduler, SixActiveWarpsReachTheIssueRate) {
  const auto [six, peak] = alu_ipc("gtx480", {"core.scheduler=two_level", "core.two_level_active=6", "core.latency_int=4"});
  EXPECT_GE(six, 0.95 * peak);
}

INSTANTIATE_TEST_SUITE_P(Presets, AluStream, ::testing::Values("gtx480", "kim4x16"),
                         [](const auto& info) { return std::string(info.param); });

TEST(TimingThroughput, StreamingKernelReachesDramBandwidth) {
  Testbench tb({"host.launch_overhead=0ps", "host.copy_bandwidth=1000000GB/s", "dram.controller_latency=0", "l2.latency=20", "l1.latency=1", "log.level=warn"},
               "gtx480");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory());
  dev.set_backend(&g);
  double dram_cycles = 0;
  const std::uint32_t n = 4u << 20;  // 16 MiB: far beyond the L2
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kStreamPtx, "stream.ptx");
    const std::uint64_t in = dev.malloc(4ull * n), out = dev.malloc(4ull * 15 * 8 * 192);
    auto& dram = tb.sim().clock("dram").domain();
    const auto t0 = dram.cycle_at(sim::now_ps());
    dev.launch(dev.kernel(mod, "stream"), Dim3{15 * 8}, Dim3{192}, Args() << in << out << n);
    dram_cycles = static_cast<double>(dram.cycle_at(sim::now_ps()) - t0);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  const auto& c = tb.sim().config();
  const double peak_per_cycle = static_cast<double>(c.get_size("dram.bus_width") * c.get_uint("dram.data_rate")) *
                                static_cast<double>(c.get_uint("l2.partitions"));
  const double bytes = tb.sum(".dram.reads") * 128;
  EXPECT_GE(bytes, 4.0 * n);  // every line came from DRAM
  EXPECT_GE(bytes / (dram_cycles * peak_per_cycle), 0.85) << bytes / dram_cycles << " B per DRAM cycle";
}

// The baselines behave as the papers report: the data-driven variants (grid sized to the
// worklist) execute far fewer instructions than the topology-driven ones on a high-diameter graph
// (HWWL paper Table II), and make more memory requests per warp load (graph-memory thesis ch. V).
TEST(TimingBaselines, DataDrivenExecutesLessAndGathersMore) {
  const workloads::Graph graph = workloads::load_graph("grid:rows=32,cols=32");
  struct Measure {
    double warp_instructions, requests_per_load;
  };
  std::map<std::string, Measure> m;
  timed({"gpu.num_sms=4", "log.level=warn"}, [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    for (const char* name : {"bfs", "sssp"})
      for (const char* variant : {"topology", "data_vkc"}) {
        const auto& w = workloads::workload(name);
        const double i0 = stat_sum(sim, ".warp_instructions"), r0 = stat_sum(sim, ".global_load_requests"),
                     l0 = stat_sum(sim, ".global_loads");
        const auto r = w.run(dev, graph, 0, variant);
        EXPECT_EQ(w.check(graph, r.values, w.reference(graph, 0)), "") << name << "/" << variant;
        m[std::string(name) + "/" + variant] = {
            stat_sum(sim, ".warp_instructions") - i0,
            (stat_sum(sim, ".global_load_requests") - r0) / (stat_sum(sim, ".global_loads") - l0)};
      }
  });
  for (const char* name : {"bfs", "sssp"}) {
    const Measure topo = m[std::string(name) + "/topology"], data = m[std::string(name) + "/data_vkc"];
    EXPECT_LT(data.warp_instructions * 4, topo.warp_instructions) << name;
    EXPECT_GT(data.requests_per_load, 2 * topo.requests_per_load) << name;
  }
}

namespace {

// A dependent chain of shared loads, each lane at word tid * stride: a w-way bank conflict per load.
std::string bank_ptx() {
  std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.shared .align 4 .b8 buf[4096];\n";
  for (int n : {8, 24}) {
    text += ".visible .entry bank" + std::to_string(n) + "(.param .u32 stride)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
            "mov.u32 %r0, %tid.x;\nld.param.u32 %r1, [stride];\nmul.lo.u32 %r2, %r0, %r1;\nshl.b32 %r2, %r2, 2;\n"
            "mov.u64 %rd1, buf;\ncvt.u64.u32 %rd2, %r2;\nadd.u64 %rd3, %rd1, %rd2;\nst.shared.u32 [%rd3], 0;\nbar.sync 0;\n";
    for (int i = 0; i < n; ++i) text += "ld.shared.u32 %r5, [%rd3];\ncvt.u64.u32 %rd4, %r5;\nadd.u64 %rd3, %rd3, %rd4;\n";
    text += "ret;\n}\n";
  }
  return text;
}

}  // namespace

struct SharedRun {
  std::map<std::pair<std::uint32_t, std::uint32_t>, double> per_load;  // (lanes, stride) -> cycles per chained load
  double conflict_cycles = 0, port_cycles = 0;
};

// Chained shared loads of 32 and of 16 lanes at each stride, on one SM with the extra settings.
SharedRun shared_loads(std::vector<std::string> sets) {
  SharedRun r;
  sets.insert(sets.end(), {"gpu.num_sms=1", "host.launch_overhead=0ps", "core.shared_replay_cycles=1", "log.level=warn"});
  timed(sets, [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const auto mod = dev.load_module_text(bank_ptx(), "bank.ptx");
    auto run = [&](const char* kernel, std::uint32_t lanes, std::uint32_t stride) {
      return launch_cycles(dev, sim, mod, kernel, lanes, Args() << stride);
    };
    for (std::uint32_t lanes : {32u, 16u})
      for (std::uint32_t stride : {1u, 2u, 3u, 32u})
        r.per_load[{lanes, stride}] = (run("bank24", lanes, stride) - run("bank8", lanes, stride)) / 16;
    r.conflict_cycles = stat_sum(sim, ".shared.bank_conflict_cycles");
    if (sim.stats().find("gpu.sm0.shared.port_cycles")) r.port_cycles = stat_sum(sim, ".shared.port_cycles");
  });
  return r;
}

TEST(TimingSharedMemory, BankConflictsReplayTheAccess) {
  const SharedRun r = shared_loads({});
  auto at = [&](std::uint32_t stride) { return r.per_load.at({32, stride}); };
  EXPECT_DOUBLE_EQ(at(2) - at(1), 1);    // 2-way
  EXPECT_DOUBLE_EQ(at(3) - at(1), 0);    // odd strides are conflict-free
  EXPECT_DOUBLE_EQ(at(32) - at(1), 31);  // every lane in bank 0
  EXPECT_DOUBLE_EQ(r.per_load.at({16, 1}), at(1));  // the port takes a warp's lanes at once
  EXPECT_EQ(r.port_cycles, 0);                      // no port counter without core.shared_port_lanes
  // Per run, bank24 and bank8 make 24 + 8 loads and 2 stores: 34 accesses, each w - 1 extra
  // (32 lanes: 2-way at stride 2, 32-way at 32; 16 lanes: 16-way at 32).
  EXPECT_DOUBLE_EQ(r.conflict_cycles, 34 * (1 + 31 + 15));
}

// "16 loads/2-cycle" (graph-memory thesis, Table 3): 32 lanes take two 2-cycle windows, so a
// conflict-free load completes 2 cycles later than 16 lanes' one window; a 2-way conflict's extra
// pass hides inside the windows, a 32-way conflict's 31 passes do not.
TEST(TimingSharedMemory, PortWidthTakesTheLanesInWindows) {
  const SharedRun r = shared_loads({"core.shared_port_lanes=16", "core.shared_port_cycles=2"});
  auto at = [&](std::uint32_t stride) { return r.per_load.at({32, stride}); };
  EXPECT_DOUBLE_EQ(at(1) - r.per_load.at({16, 1}), 2);
  EXPECT_DOUBLE_EQ(at(2) - at(1), 0);
  EXPECT_DOUBLE_EQ(at(3) - at(1), 0);
  EXPECT_DOUBLE_EQ(at(32) - at(1), 31 - 2);
  EXPECT_DOUBLE_EQ(r.conflict_cycles, 34 * (1 + 31 + 15));  // the bank passes are what they were
  // Port cycles beyond the bank passes, 34 accesses per run: 32 lanes hold it 4 cycles (over 1, 2,
  // 1 and 32 passes), 16 lanes 2 (over 1, 1, 1 and 16).
  EXPECT_DOUBLE_EQ(r.port_cycles, 34 * ((3 + 2 + 3 + 0) + (1 + 1 + 1 + 0)));
}

namespace {

// A dependent chain of constant loads: lane t at word t * lane_stride of a .const table, each load
// `advance` bytes past the one before.
std::string const_ptx() {
  std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n.const .align 4 .b8 table[4096];\n";
  for (int n : {8, 24}) {
    text += ".visible .entry const" + std::to_string(n) + "(.param .u32 stride, .param .u64 advance)\n{\n"
            ".reg .b32 %r<8>;\n.reg .b64 %rd<8>;\nmov.u32 %r0, %tid.x;\nld.param.u32 %r1, [stride];\n"
            "ld.param.u64 %rd5, [advance];\nmul.lo.u32 %r2, %r0, %r1;\nshl.b32 %r2, %r2, 2;\nmov.u64 %rd1, table;\n"
            "cvt.u64.u32 %rd2, %r2;\nadd.u64 %rd3, %rd1, %rd2;\n";
    for (int i = 0; i < n; ++i)
      text += "ld.const.u32 %r5, [%rd3];\ncvt.u64.u32 %rd4, %r5;\nadd.u64 %rd3, %rd3, %rd4;\nadd.u64 %rd3, %rd3, %rd5;\n";
    text += "ret;\n}\n";
  }
  return text;
}

struct ConstRun {
  std::map<std::pair<std::uint32_t, std::uint64_t>, double> per_load;  // (lane stride, advance) -> cycles a load
  double accesses = -1, misses = -1;                                     // -1: no constant cache counters
};

ConstRun const_loads(std::vector<std::string> sets) {
  ConstRun r;
  sets.insert(sets.end(), {"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"});
  timed(sets, [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const auto mod = dev.load_module_text(const_ptx(), "const.ptx");
    auto run = [&](const char* kernel, std::uint32_t stride, std::uint64_t advance) {
      return launch_cycles(dev, sim, mod, kernel, 32, Args() << stride << advance);
    };
    for (const auto& [stride, advance] : {std::pair<std::uint32_t, std::uint64_t>{0, 0}, {1, 0}, {0, 64}})
      r.per_load[{stride, advance}] = (run("const24", stride, advance) - run("const8", stride, advance)) / 16;
    if (sim.stats().find("gpu.sm0.const.accesses")) {
      r.accesses = stat_sum(sim, ".const.accesses");
      r.misses = stat_sum(sim, ".const.misses");
    }
  });
  return r;
}

}  // namespace

// The graph-memory thesis's 8 KB constant cache (Table 3): lanes reading one word share it, 32
// distinct words take 31 passes more; a load whose line is not there waits the miss's round trip;
// each kernel starts with the cache empty.
TEST(TimingConstantCache, DistinctWordsSerialiseAndMissesWaitTheRoundTrip) {
  const ConstRun r = const_loads({"core.const_cache_size=8KiB", "core.const_cache_latency=4",
                                  "core.const_cache_miss_latency=100"});
  const double hit = r.per_load.at({0, 0});
  EXPECT_DOUBLE_EQ(r.per_load.at({1, 0}) - hit, 31);
  EXPECT_DOUBLE_EQ(r.per_load.at({0, 64}) - hit, 100);
  // Launches of 8 and 24 loads for each of the three: line lookups and misses, counted.
  EXPECT_DOUBLE_EQ(r.accesses, (8 + 24) * (1 + 2 + 1));  // 32 words of 4 B: two 64-byte lines
  EXPECT_DOUBLE_EQ(r.misses, 2 * (1 + 2) + (8 + 24));     // one a launch (two at stride 1); each advanced load
}

TEST(TimingConstantCache, WithoutOneConstantLoadsTakeTheOnChipLatency) {
  const ConstRun r = const_loads({});
  EXPECT_DOUBLE_EQ(r.per_load.at({1, 0}), r.per_load.at({0, 0}));
  EXPECT_DOUBLE_EQ(r.per_load.at({0, 64}), r.per_load.at({0, 0}));
  EXPECT_EQ(r.accesses, -1);  // no counters
}

namespace {

const char* kSfuPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry sfu(.param .u64 out)
{
.reg .f32 %f<8>;
.reg .b32 %r<4>;
.reg .b64 %rd<4>;
.reg .pred %p;
mov.u32 %r0, %tid.x;
cvt.rn.f32.u32 %f1, %r0;
add.f32 %f1, %f1, 0f3F800000;
mov.u32 %r1, 0;
LOOP:
rcp.approx.f32 %f2, %f1;
rcp.approx.f32 %f3, %f1;
rcp.approx.f32 %f4, %f1;
rcp.approx.f32 %f5, %f1;
add.u32 %r1, %r1, 1;
setp.lt.u32 %p, %r1, 16;
@%p bra LOOP;
add.f32 %f2, %f2, %f3;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r0, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.f32 [%rd3], %f2;
ret;
}
)";

}  // namespace

TEST(SpecialFunctionUnit, InitiationIntervalBoundsTheRate) {
  const OneSmRun r = one_sm("gtx480", kSfuPtx, "sfu", {});
  const double sfu_ops = 48.0 * 16 * 4;
  EXPECT_EQ(r.issued.at("sfu"), sfu_ops);
  EXPECT_EQ(r.issued.at("control"), 48.0 * 17);        // 16 branches and a return per warp
  EXPECT_EQ(r.issued.at("memory"), 48.0 * 2);          // ld.param, st.global
  EXPECT_EQ(r.issued.at("fp"), 48.0 * 3);              // cvt.rn.f32, two add.f32
  EXPECT_EQ(r.issued.at("extension"), 0);
  double all = 0;
  for (const auto& [c, n] : r.issued) all += n;
  EXPECT_EQ(all, r.warp_instructions);                 // every instruction in exactly one class
  EXPECT_GE(r.cycles, 8 * sfu_ops);                    // one warp instruction per 8 cycles
  EXPECT_LE(r.cycles, 8 * sfu_ops * 1.05);
}

TEST(SpecialFunctionUnit, IntervalOneIsFullyPipelined) {
  EXPECT_LT(one_sm("gtx480", kSfuPtx, "sfu", {"core.sfu_interval=1"}).cycles, 2 * 48.0 * 16 * 4);
}

namespace {
// One thread stores, then (in `fenced`) waits at membar.gl for the store's acknowledgement, then
// runs a chain of ten dependent adds.
const char* kFencePtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry plain(.param .u64 out)
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 1;
mov.u32 %r1, 2;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
ret;
}
.visible .entry fenced(.param .u64 out)
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 1;
membar.gl;
mov.u32 %r1, 2;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
add.u32 %r1, %r1, 1;
ret;
}
)";
}  // namespace

TEST(HostModel, LaunchOverheadAndCopyBandwidthTakeSimulatedTime) {
  sim::Picoseconds launch = 0, copy = 0;
  timed({"gpu.num_sms=1", "host.launch_overhead=30us", "host.copy_bandwidth=6GB/s", "log.level=warn"},
        [&](Device& dev, gpu::Gpu&, sim::Simulation&) {
          const auto mod = dev.load_module_text(kFencePtx, "fence.ptx");
          const std::uint64_t out = dev.malloc(6'000'000);
          std::vector<std::uint8_t> bytes(6'000'000);
          sim::Picoseconds t0 = sim::now_ps();
          dev.memcpy_to_device(out, bytes.data(), bytes.size());
          copy = sim::now_ps() - t0;
          t0 = sim::now_ps();
          dev.launch(dev.kernel(mod, "plain"), Dim3{1}, Dim3{1}, Args() << out);
          launch = sim::now_ps() - t0;
        });
  EXPECT_EQ(copy, 1'000'000'000u);  // 6 MB at 6 GB/s: 1 ms
  EXPECT_GT(launch, 30'000'000u);   // the 30 us overhead, then the kernel itself
  EXPECT_LT(launch, 31'000'000u);
}

TEST(Fences, MembarWaitsForTheStoreAcknowledgement) {
  double plain = 0, fenced = 0;
  timed(chase_config(), [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const auto mod = dev.load_module_text(kFencePtx, "fence.ptx");
    const std::uint64_t out = dev.malloc(4);
    auto run = [&](const char* k) { return launch_cycles(dev, sim, mod, k, 1, Args() << out); };
    plain = run("plain");
    fenced = run("fenced");
  });
  // Without the fence the add chain (about 40 cycles) overlaps the store's round trip to the L2
  // (the CTA still retires only after the acknowledgement); with it the chain starts after the
  // acknowledgement, so the kernel is longer by most of the shorter of the two.
  EXPECT_GE(fenced, plain + 20);
}

namespace {
// nanosleep: one warp sleeps a fixed 5 us, 5 ms (the ISA's limit is 1 ms), or as long as its
// slowest lane asks (tid.x * 100 ns).
const char* kSleepPtx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry awake(.param .u64 out)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
st.global.u32 [%rd1], 1;
ret;
}
.visible .entry fixed(.param .u64 out)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
nanosleep.u32 5000;
st.global.u32 [%rd1], 1;
ret;
}
.visible .entry clamped(.param .u64 out)
{
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
nanosleep.u32 5000000;
st.global.u32 [%rd1], 1;
ret;
}
.visible .entry lanes(.param .u64 out)
{
.reg .b32 %r<2>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [out];
mov.u32 %r1, %tid.x;
mul.lo.u32 %r1, %r1, 100;
nanosleep.u32 %r1;
st.global.u32 [%rd1], 1;
ret;
}
)";
}  // namespace

// A warp in nanosleep issues nothing for the time it asked (its slowest lane's), then goes on.
TEST(Nanosleep, HoldsTheWarpForItsDuration) {
  double awake = 0, fixed = 0, clamped = 0, lanes = 0, freq = 0;
  timed(chase_config(), [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const auto mod = dev.load_module_text(kSleepPtx, "sleep.ptx");
    const std::uint64_t out = dev.malloc(4);
    freq = sim.clock("core").domain().frequency();
    auto run = [&](const char* k) { return launch_cycles(dev, sim, mod, k, 32, Args() << out); };
    awake = run("awake");
    fixed = run("fixed");
    clamped = run("clamped");
    lanes = run("lanes");
  });
  // In core cycles; the parameter load's latency overlaps the sleep (it does not wait on it).
  const double five_us = 5e-6 * freq, one_ms = 1e-3 * freq, lane31 = 3.1e-6 * freq;
  EXPECT_NEAR(fixed - awake, five_us, 30);
  EXPECT_NEAR(clamped - awake, one_ms, 30);
  EXPECT_NEAR(lanes - awake, lane31, 30);
}

// The occupancy query: blocks the whole GPU holds at once, by whichever SM limit binds first
// (gtx480: 15 SMs, 8 CTAs, 1536 threads each); a device without the timed GPU cannot say.
TEST(TimingOccupancy, ResidentBlocksFollowTheSmLimits) {
  timed({"log.level=warn"}, [](Device& dev, gpu::Gpu&, sim::Simulation&) {
    const auto k = dev.kernel(dev.load_module_text(kStreamPtx, "stream.ptx"), "stream");
    EXPECT_EQ(dev.resident_blocks(k, Dim3{64}), 15u * 8);    // the CTA limit
    EXPECT_EQ(dev.resident_blocks(k, Dim3{512}), 15u * 3);   // the thread limit
    EXPECT_EQ(dev.resident_blocks(k, Dim3{1024}), 15u * 1);
    EXPECT_THROW(dev.resident_blocks(k, Dim3{0}), Error);  // not a block: an error, not a division by zero
    EXPECT_THROW(dev.resident_blocks(k, Dim3{2048}), Error);
  });
  mem::BackingStore store;
  Device functional(store);
  const auto k = functional.kernel(functional.load_module_text(kStreamPtx, "stream.ptx"), "stream");
  EXPECT_EQ(functional.resident_blocks(k, Dim3{64}), 0u);
}

// The timed SM runs the functional executor's warps, so the spin watch stops a timed launch too:
// on the Turing preset, a lock whose critical section follows its spin loop (written for
// independent thread scheduling) ends with the watch's error, not a run that never finishes.
TEST(SpinWatch, TimedLaunchNamesTheLoopThatNeedsIndependentThreadScheduling) {
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry lock(.param .u64 lock)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [lock];
$L__acquire:
  atom.global.cas.b32 %r1, [%rd1], 0, 1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L__acquire;
  atom.global.exch.b32 %r1, [%rd1], 0;
  ret;
}
)";
  Testbench tb({"gpu.num_sms=1", "log.level=warn"}, "rtx2080ti");
  auto& g = tb.add<gpu::Gpu>("gpu");
  Device dev(g.memory());
  dev.set_backend(&g);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(text, "lock.ptx");
    dev.launch(dev.kernel(mod, "lock"), Dim3{1}, Dim3{32}, Args() << dev.malloc(4));
  });
  std::string error;
  try {
    tb.run();
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_FALSE(host.finished());
  EXPECT_NE(error.find("kernel lock: every live warp (1) has looped 10000 times"), std::string::npos) << error;
  EXPECT_NE(error.find("needs independent thread scheduling"), std::string::npos) << error;
  EXPECT_NE(error.find("rtx2080ti"), std::string::npos) << error;
}

namespace {

// One warp counts to n in a loop of add, compare and branch.
std::string loop_ptx() {
  std::string text = ".version 9.0\n.target sm_75\n.address_size 64\n";
  for (int n : {8, 24})
    text += ".visible .entry loop" + std::to_string(n) + "()\n{\n.reg .b32 %r<4>;\n.reg .pred %p;\nmov.u32 %r1, 0;\n"
            "LOOP:\nadd.u32 %r1, %r1, 1;\nsetp.lt.u32 %p, %r1, " + std::to_string(n) + ";\n@%p bra LOOP;\nret;\n}\n";
  return text;
}

// Core cycles an iteration of the loop takes, on gtx480 with the extra settings.
double loop_iteration(const std::vector<std::string>& extra) {
  double per = 0;
  std::vector<std::string> sets = {"gpu.num_sms=1", "host.launch_overhead=0ps", "log.level=warn"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  timed(sets, [&](Device& dev, gpu::Gpu&, sim::Simulation& sim) {
    const auto mod = dev.load_module_text(loop_ptx(), "loop.ptx");
    per = (launch_cycles(dev, sim, mod, "loop24", 32, Args()) - launch_cycles(dev, sim, mod, "loop8", 32, Args())) / 16;
  });
  return per;
}

}  // namespace

// The dependent chain add -> setp -> bra takes two ALU latencies, the next add issues the cycle
// after the branch; with core.branch_stall S the warp waits S cycles after the branch instead.
TEST(BranchStall, WithoutItTheNextInstructionFollowsTheBranch) {
  EXPECT_DOUBLE_EQ(loop_iteration({"core.latency_int=4"}), 2 * 4 + 1);
}

TEST(BranchStall, AWarpWaitsTheStallAfterEachBranch) {
  EXPECT_DOUBLE_EQ(loop_iteration({"core.latency_int=4", "core.branch_stall=20"}), 2 * 4 + 20);
}
