// SPDX-License-Identifier: Apache-2.0
// The HWWL in the timed GPU (models/gpu/hwwl_gpu.h): wlpush and wlpull from PTX on the SMs, the
// double-buffer swap at the kernel end, DONE once the worklist is empty, and the HVU's spills and
// refills through the SMs' LD/ST paths.
#include <nlohmann/json.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "models/gpu/gpu.h"
#include "models/gpu/hwwl_gpu.h"
#include "testbenches/common/unit_gpu.h"
#include "workloads/workloads.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;
using irr::testing::Testbench;

namespace {

// push: every thread pushes its global index. pull: every thread pulls once and stores the answer.
// init: one thread sets up overflow buffers of 256 IDs per core at `buffer`.
const char* kKernels = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry push()
{
.reg .b32 %r<5>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.s32 %r4, %r2, %r3, %r1;
wlpush.b32 %r4;
ret;
}
.visible .entry push_reversed()
{
.reg .b32 %r<6>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.s32 %r4, %r2, %r3, %r1;
mov.u32 %r5, 127;
sub.s32 %r5, %r5, %r4;
wlpush.b32 %r5;
ret;
}
.visible .entry pull(.param .u64 out)
{
.reg .b32 %r<6>;
.reg .b64 %rd<4>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.s32 %r4, %r2, %r3, %r1;
wlpull.b32 %r5;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r4, 4;
add.u64 %rd3, %rd1, %rd2;
st.global.u32 [%rd3], %r5;
ret;
}
.visible .entry init(.param .u64 buffer)
{
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [buffer];
mov.u64 %rd2, 256;
wlinit.u64 %rd1, %rd2;
ret;
}
.visible .entry spin()
{
.reg .b32 %r<2>;
.reg .pred %p<2>;
$L_pull:
wlpull.b32 %r1;
setp.eq.u32 %p1, %r1, -2;
@%p1 bra $L_pull;
ret;
}
.visible .entry init_tiny(.param .u64 buffer)
{
.reg .b64 %rd<3>;
ld.param.u64 %rd1, [buffer];
mov.u64 %rd2, 4;
wlinit.u64 %rd1, %rd2;
ret;
}
)";

struct GpuRun : irr::testing::UnitGpu<gpu::HwwlGpu> {
  explicit GpuRun(std::vector<std::string> sets) : UnitGpu(std::move(sets), "kim4x16") {}
};

// The error that ends the run ("" when it ends well).
std::string run_error(GpuRun& r) {
  try {
    r.tb.run();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Two CTAs of 64 threads push on two SMs; after the kernel end (double-buffer swap) the same grid
// pulls every ID back, each SM its own (the round-robin CTA scheduler puts CTA i on SM i again);
// a third kernel finds the worklist empty: DONE.
TEST(HwwlGpu, PushThenPullAcrossAKernelBoundary) {
  GpuRun r({"gpu.num_sms=2"});
  Device& dev = r.dev;
  std::vector<std::uint32_t> got(128), again(128);
  bool remains_between = false, remains_after = true;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kKernels, "hwwl.ptx");
    const std::uint64_t out = dev.malloc(4 * 128);
    dev.launch(dev.kernel(mod, "push"), Dim3{2}, Dim3{64}, Args());
    remains_between = r.unit->work_remains();
    dev.launch(dev.kernel(mod, "pull"), Dim3{2}, Dim3{64}, Args() << out);
    dev.memcpy_to_host(got.data(), out, 4 * 128);
    dev.launch(dev.kernel(mod, "pull"), Dim3{2}, Dim3{64}, Args() << out);
    dev.memcpy_to_host(again.data(), out, 4 * 128);
    remains_after = r.unit->work_remains();
  });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  EXPECT_TRUE(remains_between);
  EXPECT_FALSE(remains_after);
  std::vector<std::uint32_t> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> all(128);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(sorted, all);  // every ID once
  for (std::uint32_t t = 0; t < 128; ++t) EXPECT_EQ(got[t] / 64, t / 64) << t;  // each core its own
  for (std::uint32_t v : again) EXPECT_EQ(v, hwwl::kDone);
  EXPECT_EQ(r.tb.stat("hwwl.pushes"), 128);
  EXPECT_EQ(r.tb.stat("hwwl.pulls"), 256);
  EXPECT_EQ(r.tb.stat("hwwl.done_pulls"), 128);
  EXPECT_EQ(r.tb.stat("hwwl.kernels"), 3);
}

// The limit study's idealised HWWL (hwwl.ideal) in the GPU: 128 IDs pushed by one SM, far past its
// 16 banks of one entry a partition, never spill; pulled back, each warp gets 32 IDs one warp
// pushed (FIFO: 127 - t pushed by thread t, so descending) or the 32 smallest left (sorted).
// (One simulation a process: each order is its own test.)
class HwwlIdeal : public ::testing::TestWithParam<const char*> {};

TEST_P(HwwlIdeal, IsUnboundedAndKeepsItsOrder) {
  const std::string order = GetParam();
  GpuRun r({"gpu.num_sms=1", "hwwl.ideal=" + order});
  Device& dev = r.dev;
  std::vector<std::uint32_t> got(128);
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kKernels, "hwwl.ptx");
    const std::uint64_t buffer = dev.malloc(4 * 4), out = dev.malloc(4 * 128);
    dev.launch(dev.kernel(mod, "init_tiny"), Dim3{1}, Dim3{1}, Args() << buffer);
    dev.launch(dev.kernel(mod, "push_reversed"), Dim3{1}, Dim3{128}, Args());
    dev.launch(dev.kernel(mod, "pull"), Dim3{1}, Dim3{128}, Args() << out);
    dev.memcpy_to_host(got.data(), out, 4 * 128);
  });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  std::vector<std::uint32_t> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::uint32_t> all(128);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(sorted, all) << order;
  for (std::uint32_t w = 0; w < 4; ++w)
    for (std::uint32_t t = 1; t < 32; ++t)
      EXPECT_EQ(got[w * 32 + t], order == "fifo" ? got[w * 32 + t - 1] - 1 : got[w * 32 + t - 1] + 1) << order << " " << w;
  EXPECT_EQ(r.tb.stat("hwwl.hvu.spilled"), 0);
  EXPECT_EQ(r.tb.stat("hwwl.wait_pulls"), 0);
}

// Two-entry banks (one per partition): pushes spill to the overflow buffer through the SM's LD/ST
// path, and the refills bring them back; the host relaunches the pull kernel while work remains
// (a run that ends with work held fails, naming the unit and the IDs it holds).
TEST(HwwlGpu, SpillsAndRefillsGoThroughTheLdStPath) {
  GpuRun r({"gpu.num_sms=1", "hwwl.bank_entries=2", "hwwl.redistribution=none"});
  Device& dev = r.dev;
  std::vector<std::uint32_t> ids;
  int launches = 0;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kKernels, "hwwl.ptx");
    const std::uint64_t buffer = dev.malloc(4 * 256 * 4), out = dev.malloc(4 * 64);
    dev.launch(dev.kernel(mod, "init"), Dim3{1}, Dim3{1}, Args() << buffer);
    dev.launch(dev.kernel(mod, "push"), Dim3{1}, Dim3{64}, Args());  // 4 per bank: 1 kept, 3 spilled
    std::vector<std::uint32_t> got(64);
    while (r.unit->work_remains() && launches < 100) {
      dev.launch(dev.kernel(mod, "pull"), Dim3{1}, Dim3{64}, Args() << out);
      ++launches;
      dev.memcpy_to_host(got.data(), out, 4 * 64);
      for (std::uint32_t v : got)
        if (v < 64) ids.push_back(v);
    }
  });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  EXPECT_EQ(r.tb.stat("hwwl.hvu.spilled"), 48);
  EXPECT_EQ(r.tb.stat("hwwl.hvu.refilled"), 48);
  EXPECT_GT(r.tb.stat("hwwl.hvu.spill_stores"), 0);
  EXPECT_GT(r.tb.stat("hwwl.hvu.refill_loads"), 0);
  EXPECT_GT(r.tb.sum(".l1.accesses"), 0);
  std::sort(ids.begin(), ids.end());
  std::vector<std::uint32_t> all(64);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(ids, all);  // every ID once, through the overflow buffer and back
  EXPECT_GT(launches, 1);
}

// The worklist-API kernels (workloads/kernels/wl.cu) on the HWWL: BFS and SSSP give the reference
// results on the kim4x16 GPU; the host relaunches while the HWWL holds work.
// (workload, hwwl.mode): SSSP relaxes with atomicMin in either mode; BFS claims each vertex once
// with the double buffer's level order, and relaxes levels (bfs_wl_relax) with the single buffer;
// Boruvka's find-min keeps a vertex for the next round while it has an edge out of its component;
// survey propagation (on a random 3-SAT formula) queues the clauses next to one whose surveys moved.
class HwwlWorkloads : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

// Single-buffer runs use LRR scheduling: under GTO the oldest warps spinning on WAIT keep the issue
// slots and the warps holding work never run (docs/results/hwwl.md). The active-thread series
// (threads holding a work ID) must show the work spread over many threads at once: a DONE that
// does not wait for the holders lets all but a few threads exit at their first pull.
TEST_P(HwwlWorkloads, MatchTheReference) {
  const bool single = std::string(GetParam().second) == "single";
  std::vector<std::string> sets = {std::string("hwwl.mode=") + GetParam().second, "stats.sample_every=200"};
  if (single) sets.push_back("core.scheduler=lrr");
  GpuRun r(sets);
  Device& dev = r.dev;
  const workloads::Workload& w = workloads::workload(GetParam().first);
  const workloads::Graph graph =
      workloads::load_graph(w.name == "sp"   ? "sat:vars=40,ratio=4.0,seed=1"
                           : w.name == "bh" ? "plummer:n=300,seed=2"
                           : w.name == "dmr" ? "delaunay:n=60,seed=2"
                                            : "rmat:scale=8,edge_factor=8,seed=3");
  std::uint32_t source = 0;
  while (source + 1 < graph.n && graph.degree(source) == 0) ++source;
  workloads::Result result;
  gpu::Host host("host", [&] { result = w.run(dev, graph, source, "hwwl"); });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  EXPECT_EQ(w.check(graph, result.values, w.reference(graph, source)), "");
  EXPECT_GE(result.launches, 3u);  // set-up, seed, and a kernel (one per level with the double buffer)
  EXPECT_GT(r.tb.stat("hwwl.pushes"), 0);
  EXPECT_EQ(r.tb.stat("hwwl.pushes"), r.tb.stat("hwwl.pulls") - r.tb.stat("hwwl.wait_pulls") -
                                          r.tb.stat("hwwl.done_pulls") - r.tb.stat("hwwl.refill_pulls"));
  const auto active = r.tb.sim().stats().to_json()["samples"]["series"]["hwwl.active_threads"].get<std::vector<double>>();
  EXPECT_GT(*std::max_element(active.begin(), active.end()), 32.0);
  EXPECT_EQ(r.tb.stat("hwwl.active_threads"), 0);  // every thread came back for DONE
}

// Workloads whose rounds need the double buffer refuse the single one, saying why: Boruvka's (a
// vertex pushed back would be pulled again in its own round, forever), survey propagation's (a
// round bounds a sweep that need not converge) and DMR's (a round's marks are checked by the next
// launch).
class HwwlRefusesTheSingleBuffer : public ::testing::TestWithParam<std::array<const char*, 3>> {};

TEST_P(HwwlRefusesTheSingleBuffer, SayingWhy) {
  const auto [name, spec, why] = GetParam();
  GpuRun r({"hwwl.mode=single"});
  const workloads::Graph graph = workloads::load_graph(spec);
  std::string error;
  gpu::Host host("host", [&] {
    try {
      workloads::workload(name).run(r.dev, graph, 0, "hwwl");
    } catch (const Error& e) {
      error = e.what();
    }
  });
  r.tb.run();
  EXPECT_NE(error.find(why), std::string::npos) << error;
}

INSTANTIATE_TEST_SUITE_P(
    Workloads, HwwlRefusesTheSingleBuffer,
    ::testing::Values(std::array<const char*, 3>{"boruvka", "grid:rows=4,cols=4", "boruvka/hwwl: Boruvka's rounds need hwwl.mode: double"},
                      std::array<const char*, 3>{"sp", "sat:vars=20,ratio=3,seed=1", "sp/hwwl: survey sweeps need hwwl.mode: double"},
                      std::array<const char*, 3>{"dmr", "delaunay:n=20", "dmr/hwwl: DMR's rounds need hwwl.mode: double"}),
    [](const auto& info) { return std::string(info.param[0]); });

// The workloads on the idealised HWWL: reference results; with the double buffer a pull finds the
// level's work or DONE, never WAIT, and nothing moves between banks.
class HwwlIdealWorkloads : public ::testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(HwwlIdealWorkloads, MatchTheReference) {
  const char* name = GetParam().first;
  const std::string order = GetParam().second;
  GpuRun r({"hwwl.ideal=" + order});
  const workloads::Workload& w = workloads::workload(name);
  const workloads::Graph graph = workloads::load_graph("rmat:scale=8,edge_factor=8,seed=3");
  workloads::Result result;
  gpu::Host host("host", [&] { result = w.run(r.dev, graph, 1, "hwwl"); });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  EXPECT_EQ(w.check(graph, result.values, w.reference(graph, 1)), "") << name << " " << order;
  EXPECT_GT(r.tb.stat("hwwl.pushes"), 0);
  EXPECT_EQ(r.tb.stat("hwwl.wait_pulls"), 0);
  EXPECT_EQ(r.tb.stat("hwwl.wru.moved") + r.tb.stat("hwwl.icrn.sent"), 0);
}

INSTANTIATE_TEST_SUITE_P(Orders, HwwlIdeal, ::testing::Values("fifo", "sorted"),
                         [](const auto& info) { return std::string(info.param); });
INSTANTIATE_TEST_SUITE_P(Kernels, HwwlIdealWorkloads,
                         ::testing::Values(std::make_pair("bfs", "fifo"), std::make_pair("bfs", "sorted"),
                                           std::make_pair("sssp", "fifo"), std::make_pair("sssp", "sorted")),
                         [](const auto& info) { return std::string(info.param.first) + "_" + info.param.second; });

INSTANTIATE_TEST_SUITE_P(Kernels, HwwlWorkloads,
                         ::testing::Values(std::make_pair("bfs", "double"), std::make_pair("bfs", "single"),
                                           std::make_pair("sssp", "double"), std::make_pair("sssp", "single"),
                                           std::make_pair("boruvka", "double"), std::make_pair("sp", "double"),
                                           std::make_pair("bh", "double"), std::make_pair("bh", "single"),
                                           std::make_pair("dmr", "double")),
                         [](const auto& info) { return std::string(info.param.first) + "_" + info.param.second; });

// Banks and overflow buffer full: the paper's hardware exception ends the run, naming the kernel,
// the SM, the instruction and the core's buffer.
TEST(HwwlGpu, OverflowEndsTheRunNamingKernelSmAndInstruction) {
  IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD();
  GpuRun r({"gpu.num_sms=1", "hwwl.bank_entries=2"});
  Device& dev = r.dev;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kKernels, "hwwl.ptx");
    dev.launch(dev.kernel(mod, "init_tiny"), Dim3{1}, Dim3{1}, Args() << dev.malloc(4 * 4));
    dev.launch(dev.kernel(mod, "push"), Dim3{1}, Dim3{64}, Args());  // 16 kept, 48 for 4 places
  });
  const std::string error = run_error(r);
  EXPECT_NE(error.find("its bank and its overflow buffer (4 IDs, set by wlinit) are full"), std::string::npos) << error;
  EXPECT_NE(error.find("kernel push, SM 0, PTX line 11: wlpush on core 0"), std::string::npos) << error;
}

// Work stranded where no thread pulls it (core 0 holds one ID per bank, never globally greedy, so
// nothing crosses to core 1): the warp on SM 1 spins on WAIT until the watchdog, which names it.
TEST(HwwlGpu, WatchdogNamesWarpsSpinningOnWait) {
  IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD();
  GpuRun r({"gpu.num_sms=2", "sim.watchdog_cycles=20000"});
  Device& dev = r.dev;
  gpu::Host host("host", [&] {
    const auto mod = dev.load_module_text(kKernels, "hwwl.ptx");
    dev.launch(dev.kernel(mod, "push"), Dim3{1}, Dim3{16}, Args());  // CTA 0 on SM 0
    dev.launch(dev.kernel(mod, "spin"), Dim3{1}, Dim3{32}, Args());  // CTA 0 on SM 1: WAIT for ever
  });
  const std::string error = run_error(r);
  EXPECT_NE(error.find("watchdog"), std::string::npos) << error;
  EXPECT_NE(error.find("SM 1 warp slot 0:"), std::string::npos) << error;
  EXPECT_NE(error.find("wlpull in a row answered WAIT for every thread"), std::string::npos) << error;
}

// Single-buffer BFS under GTO: the oldest warps spin on WAIT and keep the issue slots, the warps
// holding work never run, and DONE waits for them. The watchdog ends the run and says so.
TEST(HwwlGpu, WatchdogExplainsASingleBufferStallUnderGto) {
  IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD();
  GpuRun r({"hwwl.mode=single", "core.scheduler=gto", "sim.watchdog_cycles=50000"});
  Device& dev = r.dev;
  const workloads::Graph graph = workloads::load_graph("grid:rows=16,cols=16");
  gpu::Host host("host", [&] { workloads::workload("bfs").run(dev, graph, 0, "hwwl"); });
  const std::string error = run_error(r);
  EXPECT_NE(error.find("watchdog"), std::string::npos) << error;
  EXPECT_NE(error.find("threads hold a work ID and have not pulled again, and single-buffer DONE waits for them"),
            std::string::npos) << error;
  EXPECT_NE(error.find("set core.scheduler: lrr, or raise hwwl.wait_backoff (0 cycles now)"), std::string::npos) << error;
}

// The remedy under GTO: a warp told WAIT by every thread waits hwwl.wait_backoff cycles before it
// may issue again, so the warps holding work get the issue slots; BFS then ends right.
TEST(HwwlGpu, WaitBackoffLetsSingleBufferBfsFinishUnderGto) {
  GpuRun r({"hwwl.mode=single", "core.scheduler=gto", "hwwl.wait_backoff=1000", "sim.watchdog_cycles=50000"});
  Device& dev = r.dev;
  const workloads::Workload& bfs = workloads::workload("bfs");
  const workloads::Graph graph = workloads::load_graph("grid:rows=16,cols=16");
  workloads::Result result;
  gpu::Host host("host", [&] { result = bfs.run(dev, graph, 0, "hwwl"); });
  EXPECT_EQ(run_error(r), "");
  ASSERT_TRUE(host.finished());
  EXPECT_EQ(bfs.check(graph, result.values, bfs.reference(graph, 0)), "");
}
