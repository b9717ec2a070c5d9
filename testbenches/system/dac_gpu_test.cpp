// SPDX-License-Identifier: Apache-2.0
// DAC in every SM of the timed GPU (models/dac/unit.h, docs/dac.md), through the command line:
// every suite kernel split and run with its affine warps gives its CPU reference's result (the
// unit checks each record against Eq. 3.1 and every queue drained, or the run fails); the
// smallest queues still finish; the Verilated AEU and PWAQ give the model's statistics byte for
// byte; DAC not attached leaves a run's statistics as they were; an application's module (irrgpu
// exec) is split as it loads.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "models/gpu/dac_gpu.h"
#include "testbenches/common/testing.h"

using irr::testing::read_file;
using irr::testing::run_cli;
using irr::testing::TempDir;

namespace {

const char* kKernels[] = {"vecadd", "saxpy",        "stencil",   "sgemm", "hotspot", "pathfinder", "srad",
                          "backprop", "blackscholes", "histogram", "spmv",  "lbm",     "convolution"};

// A statistic summed over the SMs ("dac.records": every gpu.smN.dac.records).
double sum(const nlohmann::json& stats, const std::string& leaf) {
  double s = 0;
  for (const auto& [name, v] : stats["stats"].items())
    if (name.size() > leaf.size() && name.compare(name.size() - leaf.size(), leaf.size(), leaf) == 0 &&
        name.rfind("gpu.sm", 0) == 0)
      s += v["value"].get<double>();
  return s;
}

nlohmann::json stats_of(const std::string& dir) { return nlohmann::json::parse(read_file(dir + "/stats.json")); }

}  // namespace

TEST(DacGpu, EverySuiteKernelRunsRightWithItsAffineWarps) {
  for (const char* k : kKernels) {
    TempDir d;
    auto r = run_cli({"run", "-q", "--workload", k, "--variant", "dac", "-o", d.path()});
    ASSERT_EQ(r.exit_code, 0) << k << ": " << r.err << r.out;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << k << r.out;
    const auto s = stats_of(d.path());
    // Every address record expanded was read by a deq; every tuple took an ATQ entry.
    EXPECT_GT(sum(s, ".dac.enq_address") + sum(s, ".dac.enq_predicate"), 0) << k;
    EXPECT_GT(sum(s, ".companion_instructions"), 0) << k;
    EXPECT_EQ(sum(s, ".dac.atq_accesses"), sum(s, ".dac.enq_address") + sum(s, ".dac.enq_predicate")) << k;
    EXPECT_EQ(sum(s, ".dac.pwaq_accesses"), 2 * sum(s, ".dac.records")) << k;
    EXPECT_EQ(sum(s, ".dac.pwpq_accesses"), 2 * sum(s, ".dac.predicate_records")) << k;
  }
}

TEST(DacGpu, TheSmallestQueuesStillFinish) {
  for (const char* k : {"sgemm", "pathfinder", "backprop", "srad"}) {
    TempDir d;
    auto r = run_cli({"run", "-q", "--workload", k, "--variant", "dac", "-o", d.path(), "-s", "dac.atq_entries=1", "-s",
                      "dac.pwaq_entries=48", "-s", "dac.pwpq_entries=48"});
    ASSERT_EQ(r.exit_code, 0) << k << ": " << r.err << r.out;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << k;
    const auto s = stats_of(d.path());
    EXPECT_GT(sum(s, ".dac.atq_full") + sum(s, ".dac.held"), 0) << k << ": the small queues never pushed back";
  }
  auto r = run_cli({"run", "-q", "--workload", "vecadd", "--variant", "dac", "-s", "dac.pwaq_entries=10"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("dac.pwaq_entries = 10 gives the 48 warp slots"), std::string::npos) << r.err;
}

TEST(DacGpu, PrefetchSendsTheDataLinesAheadAndCanBeSwitchedOff) {
  TempDir on, off;
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "backprop", "--variant", "dac", "-o", on.path()}).exit_code, 0);
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "backprop", "--variant", "dac", "-o", off.path(), "-s", "dac.prefetch=false"})
                .exit_code,
            0);
  const auto a = stats_of(on.path()), b = stats_of(off.path());
  EXPECT_GT(sum(a, ".dac.prefetches"), 0);
  EXPECT_EQ(sum(a, ".dac.prefetches"), sum(a, ".dac.prefetch_replies"));
  EXPECT_EQ(sum(b, ".dac.prefetches"), 0);
  EXPECT_EQ(sum(a, ".dac.records"), sum(b, ".dac.records"));
  // On the DMA engine's path (dac.request_path: dma, the default) each line is a lookup of the L1's
  // fetch path and none of its input's accesses; the L1s of a run without it have no fetch path.
  EXPECT_EQ(sum(a, ".l1.fetches"), sum(a, ".dac.prefetches"));
  EXPECT_EQ(sum(a, ".l1.accesses"), sum(b, ".l1.accesses"));
  EXPECT_EQ(b.dump().find(".l1.fetches"), std::string::npos);
}

// dac.request_path: ldst, the model before the DMA path: each line goes through the LD/ST unit's
// queue and is one of the L1's input accesses.
TEST(DacGpu, PrefetchThroughTheLdstUnitTakesInputSlots) {
  TempDir on, off;
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "backprop", "--variant", "dac", "-o", on.path(), "-s", "dac.request_path=ldst"})
                .exit_code,
            0);
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "backprop", "--variant", "dac", "-o", off.path(), "-s", "dac.prefetch=false"})
                .exit_code,
            0);
  const auto a = stats_of(on.path()), b = stats_of(off.path());
  EXPECT_GT(sum(a, ".dac.prefetches"), 0);
  EXPECT_EQ(sum(a, ".l1.accesses"), sum(b, ".l1.accesses") + sum(a, ".dac.prefetches"));
  EXPECT_EQ(a.dump().find(".l1.fetches"), std::string::npos);
}

TEST(DacGpu, RtlAeuAndPwaqGiveTheModelsStatistics) {
  for (const char* k : {"sgemm", "pathfinder", "lbm"}) {
    TempDir a, b;
    ASSERT_EQ(run_cli({"run", "-q", "--workload", k, "--variant", "dac", "-o", a.path()}).exit_code, 0);
    auto r = run_cli({"run", "-q", "--workload", k, "--variant", "dac", "-o", b.path(), "-s", "dac.impl=rtl"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(stats_of(a.path())["stats"], stats_of(b.path())["stats"]) << k;
  }
  auto r = run_cli({"run", "-q", "--workload", "vecadd", "--variant", "dac", "-s", "dac.impl=rtl", "-s", "dac.pwaq_entries=96"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no RTL build for 48 warps x 2"), std::string::npos) << r.err;
}

// DAC not attached (dac.enabled false, a variant that does not split) changes nothing: statistics
// byte for byte and no DAC statistic.
TEST(DacGpu, RunsWithoutDacHaveNoDacStatistics) {
  TempDir a, b;
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "sgemm", "--variant", "original", "-o", a.path()}).exit_code, 0);
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "sgemm", "-o", b.path(), "-s", "dac.enabled=false"}).exit_code, 0);
  const std::string stats = read_file(a.path() + "/stats.json");
  EXPECT_EQ(stats, read_file(b.path() + "/stats.json"));
  EXPECT_EQ(stats.find(".dac."), std::string::npos);
}

TEST(DacGpu, SuiteRunErrorsNameWhatIsWrong) {
  auto r = run_cli({"run", "--workload", "sgemm", "--variant", "fast"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("'fast' is not a variant of suite kernel sgemm (original, dac)"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "sgemm", "--graph", "rmat:scale=5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("sgemm is a suite kernel: it takes no graph"), std::string::npos) << r.err;
  r = run_cli({"run", "--workload", "sgemm", "--variant", "dac", "--mode", "functional"});
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the reference semantics: the affine grid, then the non-affine one
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
}

// A tuple enqueued after the affine warp passed a barrier waits until its CTA's warps pass it too.
TEST(DacGpu, BarrierGatingHoldsTuplesPastABarrier) {
  TempDir on, off;
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "sgemm", "--variant", "dac", "-o", on.path()}).exit_code, 0);
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "sgemm", "--variant", "dac", "-o", off.path(), "-s",
                     "dac.barrier_gating=false"})
                .exit_code,
            0);
  EXPECT_GT(sum(stats_of(on.path()), ".dac.gated"), 0);
  EXPECT_EQ(sum(stats_of(off.path()), ".dac.gated"), 0);
}

// Two-level scheduling with the dissertation's settings once deadlocked: non-affine warps waiting
// on their deq filled the active set, so the warps that had to pass a barrier before the gated
// head tuple could expand never got in. A warp waiting on a unit now leaves the active set.
TEST(DacGpu, TwoLevelSchedulingLetsEveryWarpReachItsBarrier) {
  auto r = run_cli({"run", "-q", "--workload", "sgemm", "--variant", "dac", "--scale", "16", "-s", "gpu.num_sms=1", "-s",
                    "l1.size=48KiB", "-s", "core.shared_memory=16KiB", "-s", "core.scheduler=two_level"});
  ASSERT_EQ(r.exit_code, 0) << r.err.substr(0, 2000);
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos);
}

// Waveforms: the unit's probes (ATQ occupancy, PWAQ records, run-ahead, locked lines) in a run's VCD, and a
// GTKWave save file showing them.
TEST(DacGpu, WavesShowTheQueuesAndTheRunAhead) {
  TempDir d;
  auto r = run_cli({"run", "-q", "--workload", "backprop", "--variant", "dac", "--trace", "gpu.sm0.dac.*", "--vcd",
                    d.path() + "/dac.vcd"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto vcd = irr::testing::parse_vcd(read_file(d.path() + "/dac.vcd"));
  for (const char* p : {"gpu.sm0.dac.atq", "gpu.sm0.dac.pwaq", "gpu.sm0.dac.run_ahead", "gpu.sm0.dac.locked_lines"}) {
    ASSERT_TRUE(vcd.changes.count(p)) << p;
    bool nonzero = false;
    for (const auto& [t, v] : vcd.changes.at(p)) nonzero = nonzero || v != 0;
    EXPECT_TRUE(nonzero) << p << " never left 0";
  }
  r = run_cli({"gtkw", "--gpu", "-s", "dac.enabled=true", "--trace", "gpu.sm0.dac.*", "-o", d.path() + "/dac.gtkw"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto shown = irr::testing::gtkw_signals(read_file(d.path() + "/dac.gtkw"));
  EXPECT_NE(std::find(shown.begin(), shown.end(), "gpu.sm0.dac.atq[4:0]"), shown.end());
  EXPECT_NE(std::find(shown.begin(), shown.end(), "gpu.sm0.dac.run_ahead[15:0]"), shown.end());
}

// Register-file accesses, the energy model's events (power.enabled, on by default): DAC reads
// fewer registers (the address arithmetic is gone), and a run with the model off has no such statistic.
TEST(DacGpu, RegisterAccessesAreCountedForTheEnergyModel) {
  TempDir base, dac, plain;
  for (const auto& [variant, dir] : {std::pair{"original", &base}, std::pair{"dac", &dac}})
    ASSERT_EQ(run_cli({"run", "-q", "--workload", "vecadd", "--variant", variant, "-o", dir->path()}).exit_code, 0);
  const double reads = sum(stats_of(base.path()), ".register_reads"), dac_reads = sum(stats_of(dac.path()), ".register_reads");
  EXPECT_GT(reads, 0);
  EXPECT_GT(sum(stats_of(base.path()), ".register_writes"), 0);
  EXPECT_LT(dac_reads, reads);
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "vecadd", "-o", plain.path(), "-s", "power.enabled=false"}).exit_code, 0);
  EXPECT_EQ(read_file(plain.path() + "/stats.json").find("register_reads"), std::string::npos);
}

// DAC's memory-side baseline, MTA-style prefetching into a 16 KB prefetch buffer beside the L1
// (docs/memory.md "L1 prefetchers"): it prefetches lines that loads then take from the buffer, and
// the result is the kernel's; a buffer without a prefetcher is refused.
TEST(DacGpu, TheMtaBaselinePrefetchesIntoItsBuffer) {
  TempDir d;
  auto r = run_cli({"run", "-q", "--workload", "spmv", "--scale", "2", "-s", "l1.prefetcher=mta", "-s",
                    "l1.prefetch_buffer=16KiB", "-o", d.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
  const auto stats = stats_of(d.path());
  EXPECT_GT(sum(stats, ".l1.prefetches"), 100);
  EXPECT_GT(sum(stats, ".l1.prefetch_useful"), 0.3 * sum(stats, ".l1.prefetches"));
  r = run_cli({"run", "-q", "--workload", "spmv", "-s", "l1.prefetch_buffer=16KiB"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("l1.prefetch_buffer holds prefetched lines: it needs an l1.prefetcher"), std::string::npos) << r.err;
}

// The affine SIMT stack follows the affine warps' divergent branches (pathfinder's CTAs at the
// grid's edges diverge, nested in its loop): every entry pushed pops; a stack shallower than a
// kernel needs stops the run naming the branch, or (count) only counts, timing unchanged.
TEST(DacGpu, TheAffineStackIsCheckedAgainstItsDepth) {
  TempDir full, counted;
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "pathfinder", "--variant", "dac", "-o", full.path()}).exit_code, 0);
  const auto s = stats_of(full.path());
  EXPECT_GT(sum(s, ".dac.stack_pushes"), 0);
  EXPECT_EQ(sum(s, ".dac.stack_pushes"), sum(s, ".dac.stack_pops"));
  EXPECT_GT(sum(s, ".dac.pws_accesses"), 0);
  double deepest = 0;
  for (const auto& [name, v] : s["stats"].items())
    if (name.find(".dac.wls_depth_max") != std::string::npos) deepest = std::max(deepest, v["value"].get<double>());
  EXPECT_EQ(deepest, 3);  // the base entry and a divergence inside another that reconverges at the loop's exit
  auto r = run_cli({"run", "-q", "--workload", "pathfinder", "--variant", "dac", "-s", "dac.wls_depth=2"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("needs 3 WLS"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("dac.wls_depth = 2"), std::string::npos) << r.err;
  r = run_cli({"run", "-q", "--workload", "pathfinder", "--variant", "dac", "-s", "dac.wls_depth=2", "-s",
               "dac.stack_overflow=count", "-o", counted.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto c = stats_of(counted.path());
  EXPECT_GT(sum(c, ".dac.stack_overflows"), 0);
  EXPECT_EQ(c["stats"]["gpu.total.kernel_cycles"], s["stats"]["gpu.total.kernel_cycles"]);
}

// CAE, the compute-side baseline: affine integer arithmetic runs on the affine units beside the
// lanes. On 32 lanes (one pass a warp) that frees nothing the schedulers could use; on 16 (two
// passes) it saves cycles. The results stay the CPU's.
TEST(DacGpu, TheCaeBaselineExecutesAffineArithmeticBesideTheLanes) {
  auto cycles = [](const std::vector<std::string>& sets, nlohmann::json* stats = nullptr) {
    TempDir d;
    std::vector<std::string> args{"run", "-q", "--workload", "stencil", "-o", d.path()};
    for (const auto& s : sets) args.insert(args.end(), {"-s", s});
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("check: PASS"), std::string::npos) << r.out;
    const auto s = stats_of(d.path());
    if (stats) *stats = s;
    return s["stats"]["gpu.total.kernel_cycles"]["value"].get<double>();
  };
  nlohmann::json cae;
  const double base = cycles({}), with = cycles({"cae.enabled=true"}, &cae);
  EXPECT_EQ(with, base);
  EXPECT_GT(sum(cae, ".cae.affine_instructions"), 0.05 * cae["stats"]["gpu.total.warp_instructions"]["value"].get<double>());
  EXPECT_LT(sum(cae, ".cae.affine_instructions"), sum(cae, ".cae.candidates"));
  EXPECT_LT(cycles({"core.simd_width=16", "cae.enabled=true"}), cycles({"core.simd_width=16"}));
}

// An unmodified application's module (irrgpu exec loads it through load_application_module) is split
// as it loads: a kernel with affine loads and stores runs its affine stream in the companion warps
// and computes what it computes as written; one with only an atomic runs as written; each
// kernel's note says which and why; a launch with a pointer beyond the PWAQ's 40-bit addresses
// runs as written.
TEST(DacGpu, AnApplicationsKernelsAreSplitAsTheirModuleLoads) {
  const char* ptx = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry inc(.param .u64 x, .param .u64 y)
{
.reg .b32 %r<8>;
.reg .b64 %rd<8>;
ld.param.u64 %rd1, [x];
ld.param.u64 %rd2, [y];
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.s32 %r4, %r2, %r3, %r1;
mul.wide.u32 %rd3, %r4, 4;
add.u64 %rd4, %rd1, %rd3;
ld.global.u32 %r5, [%rd4];
add.u32 %r6, %r5, 1;
add.u64 %rd5, %rd2, %rd3;
st.global.u32 [%rd5], %r6;
ret;
}
.visible .entry count(.param .u64 c)
{
.reg .b32 %r<4>;
.reg .b64 %rd<2>;
ld.param.u64 %rd1, [c];
atom.global.add.u32 %r1, [%rd1], 1;
ret;
}
)";
  irr::testing::Testbench tb({"log.level=warn", "host.launch_overhead=0ps"}, "gtx480");
  auto& g = tb.add<irr::gpu::Gpu>("gpu");
  irr::core::ptx::ExtensionRegistry reg;
  irr::dac::add_dac_instructions(reg);
  irr::gpu::DacGpu unit(tb.sim(), g, reg);
  irr::runtime::Device dev(g.memory(), &reg);
  dev.set_backend(&g);
  unit.serve(dev);
  std::vector<std::uint32_t> y(1024);
  std::uint32_t counted = 0;
  irr::gpu::Host host("host", [&] {
    const std::size_t m = dev.load_application_module(ptx, "app.ptx");
    std::vector<std::uint32_t> x(1024);
    for (std::uint32_t i = 0; i < 1024; ++i) x[i] = 3 * i;
    const std::uint64_t dx = dev.malloc(4096), dy = dev.malloc(4096), dc = dev.malloc(4);
    dev.memcpy_to_device(dx, x.data(), 4096);
    dev.memset(dc, 0, 4);
    dev.launch_application(m, "inc", {4}, {256}, irr::runtime::Args() << dx << dy);
    dev.launch_application(m, "count", {2}, {64}, irr::runtime::Args() << dc);
    dev.memcpy_to_host(y.data(), dy, 4096);
    dev.memcpy_to_host(&counted, dc, 4);
    // A pointer beyond 40 bits (managed memory at a host address) is not given to the PWAQ.
    dev.adopt(0x7f0000000000ull, 8192);
    dev.memcpy_to_device(0x7f0000000000ull, x.data(), 4096);
    dev.launch_application(m, "inc", {4}, {256}, irr::runtime::Args() << std::uint64_t{0x7f0000000000ull} << dy);
  });
  tb.run();
  ASSERT_TRUE(host.finished());
  for (std::uint32_t i = 0; i < 1024; ++i) ASSERT_EQ(y[i], 3 * i + 1) << i;
  EXPECT_EQ(counted, 128u);
  EXPECT_EQ(dev.application_note("inc"),
            "dac: decoupled 1 of 1 loads, 1 of 1 stores; launched as written where an argument is beyond the PWAQ's "
            "40-bit addresses (parameter 0)");
  EXPECT_EQ(dev.application_note("count"),
            "dac: not decoupled: atomics stay in the non-affine stream (enq.data/enq.addr are for loads and stores) (PTX line 27)");
  EXPECT_GT(tb.sum(".companion_instructions"), 0);
  EXPECT_EQ(tb.sum(".dac.records"), 2 * 4 * 8);  // a load's and a store's line records: 8 warps of 4 CTAs, one line each
}

// dac.gate_scope: cta (the default) — a tuple waiting at its CTA's barrier lets other CTAs' tuples
// pass it (dac.overtakes, a statistic only this scope has); the results still check, and the same
// records are made as with the ATQ's head holding everything (atq, no such statistic).
TEST(DacGpu, GateScopeCtaLetsOtherCtasTuplesPass) {
  TempDir atq, cta;
  ASSERT_EQ(run_cli({"run", "-q", "--workload", "histogram", "--variant", "dac", "--scale", "4", "-o", atq.path(), "-s",
                     "dac.gate_scope=atq"})
                .exit_code,
            0);
  auto r = run_cli({"run", "--workload", "histogram", "--variant", "dac", "--scale", "4", "-o", cta.path()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("check: PASS"), std::string::npos);
  const auto a = stats_of(atq.path()), c = stats_of(cta.path());
  EXPECT_GT(sum(c, ".dac.overtakes"), 0);
  EXPECT_EQ(a.dump().find(".dac.overtakes"), std::string::npos);
  EXPECT_EQ(sum(a, ".dac.records"), sum(c, ".dac.records"));
  EXPECT_LT(sum(c, ".dac.gated"), sum(a, ".dac.gated"));
}
