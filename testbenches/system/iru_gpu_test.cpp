// SPDX-License-Identifier: Apache-2.0
// The IRU in the timed GPU (models/gpu/iru_gpu.h): ldiru from PTX goes around the L1 to the
// partitions' IRUs and its reply's values reach the registers; the frontier workloads' iru variants
// give the CPU references' results with the unit reordering (and filtering) their contractions; a
// fast-forwarded kernel gets the elements in order; ldiru without the unit names the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "models/gpu/gpu.h"
#include "models/gpu/iru_gpu.h"
#include "models/iru/host_api.h"
#include "testbenches/common/unit_gpu.h"
#include "workloads/workloads.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;
using irr::testing::Testbench;

namespace {

// Each thread asks once and stores what it got: valid, index, secondary and position.
const char* kAsk = R"(.version 9.0
.target sm_75
.address_size 64
.visible .entry ask(.param .u64 out)
{
.reg .b32 %r<8>;
.reg .b64 %rd<5>;
mov.u32 %r1, %tid.x;
mov.u32 %r2, %ctaid.x;
mov.u32 %r3, %ntid.x;
mad.lo.s32 %r4, %r2, %r3, %r1;
ldiru.b32 %r5, %r6, %r7, %r0;
ld.param.u64 %rd1, [out];
mul.wide.u32 %rd2, %r4, 16;
add.u64 %rd3, %rd1, %rd2;
st.global.v4.u32 [%rd3], {%r5, %r6, %r7, %r0};
ret;
}
)";

struct GpuRun : irr::testing::UnitGpu<gpu::IruGpu> {
  explicit GpuRun(std::vector<std::string> sets) : UnitGpu(std::move(sets), "gtx980") {}
};

struct Got {
  std::uint32_t valid, index, secondary, position;
};

// 512 elements (index = 7 * position mod 509, secondary = position + 1000) asked for by 512 threads;
// `rounds` times, each configuring the unit again on the same arrays.
std::vector<Got> ask_all(GpuRun& r, int rounds = 1) {
  std::vector<Got> got(512);
  gpu::Host host("host", [&] {
    const auto mod = r.dev.load_module_text(kAsk, "ask.ptx");
    std::vector<std::uint32_t> idx(512), sec(512);
    for (std::uint32_t p = 0; p < 512; ++p) {
      idx[p] = 7 * p % 509;
      sec[p] = p + 1000;
    }
    const std::uint64_t target = r.dev.malloc(4 * 509), i = r.dev.malloc(4 * 512), s = r.dev.malloc(4 * 512),
                        out = r.dev.malloc(16 * 512);
    r.dev.memcpy_to_device(i, idx.data(), 4 * 512);
    r.dev.memcpy_to_device(s, sec.data(), 4 * 512);
    for (int k = 0; k < rounds; ++k) {
      iru::configure_iru(r.dev, target, 4, i, s, 512);
      r.dev.launch(r.dev.kernel(mod, "ask"), Dim3{4}, Dim3{128}, Args() << out);
    }
    r.dev.memcpy_to_host(got.data(), out, 16 * 512);
  });
  r.tb.run();
  EXPECT_TRUE(host.finished());
  return got;
}

void expect_every_element_once(const std::vector<Got>& got) {
  std::vector<std::uint32_t> positions;
  for (const Got& g : got) {
    ASSERT_EQ(g.valid, 1u);
    EXPECT_EQ(g.index, 7 * g.position % 509) << g.position;  // index, secondary and position together
    EXPECT_EQ(g.secondary, g.position + 1000) << g.position;
    positions.push_back(g.position);
  }
  std::sort(positions.begin(), positions.end());
  std::vector<std::uint32_t> all(512);
  std::iota(all.begin(), all.end(), 0u);
  EXPECT_EQ(positions, all);
}

}  // namespace

TEST(IruGpu, LdiruRepliesCarryEachElementToOneThread) {
  GpuRun r({});
  const auto got = ask_all(r);
  expect_every_element_once(got);
  EXPECT_EQ(r.tb.stat("iru.requests"), 16);  // one per warp
  EXPECT_EQ(r.tb.stat("iru.delivered"), 512);
  EXPECT_EQ(r.tb.sum(".l1.accesses"), 512 * 16 / 128);  // only the stores: the requests went around the L1
  // Reordered by line: 512 indices over 509 * 4 B = 16 lines; in order a warp's 32 touch 7 lines.
  EXPECT_LT(r.tb.stat("iru.lines_per_reply"), 4);
  std::size_t in_order = 0;
  for (std::size_t p = 0; p < 512; ++p) in_order += got[p].position == p;
  EXPECT_LT(in_order, 512u);
}

// The same arrays twice (16 lines of indices, 16 of secondary values): through the L2 the second
// kernel's prefetches hit the lines the first one's brought in; around it (iru.bypass_l2) both
// kernels read all of them from DRAM. Nothing else in the kernel reads memory.
class IruGpuBypass : public ::testing::TestWithParam<bool> {};

TEST_P(IruGpuBypass, PrefetchesAroundTheL2ComeFromDramEveryTime) {
  const bool around = GetParam();
  GpuRun r({std::string("iru.bypass_l2=") + (around ? "true" : "false")});
  ask_all(r, 2);
  EXPECT_EQ(r.tb.stat("iru.prefetch_reads"), 64);
  EXPECT_EQ(r.tb.sum(".dram.reads"), around ? 64 : 32);
}

INSTANTIATE_TEST_SUITE_P(L2, IruGpuBypass, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "around" : "through"; });

// An ldiru that asks only for the index gets every index once, and a reply without the secondary
// values and positions: 8 bytes fewer per element than the four-operand form's, on the same input.
TEST(IruGpu, AnLdiruAskingOnlyForTheIndexGetsAShorterReply) {
  GpuRun r({});
  std::string ask_index = kAsk;
  const std::string four = "ldiru.b32 %r5, %r6, %r7, %r0;";
  ask_index.replace(ask_index.find(four), four.size(), "mov.u32 %r7, 0;\nmov.u32 %r0, 0;\nldiru.b32 %r5, %r6;");
  std::vector<Got> got(512);
  double bytes[2] = {};
  gpu::Host host("host", [&] {
    std::vector<std::uint32_t> idx(512), sec(512, 5);
    for (std::uint32_t p = 0; p < 512; ++p) idx[p] = 7 * p % 509;
    const std::uint64_t target = r.dev.malloc(4 * 509), i = r.dev.malloc(4 * 512), s = r.dev.malloc(4 * 512),
                        out = r.dev.malloc(16 * 512);
    r.dev.memcpy_to_device(i, idx.data(), 4 * 512);
    r.dev.memcpy_to_device(s, sec.data(), 4 * 512);
    std::string ask = kAsk;
    int k = 0;
    for (std::string* text : {&ask_index, &ask}) {
      const auto mod = r.dev.load_module_text(*text, text == &ask ? "ask.ptx" : "ask_index.ptx");
      const double before = r.tb.stat("gpu.interconnect.reply.bytes");
      iru::configure_iru(r.dev, target, 4, i, s, 512);
      r.dev.launch(r.dev.kernel(mod, "ask"), Dim3{4}, Dim3{128}, Args() << out);
      bytes[k++] = r.tb.stat("gpu.interconnect.reply.bytes") - before;
      if (text == &ask_index) r.dev.memcpy_to_host(got.data(), out, 16 * 512);
    }
  });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  std::vector<std::uint32_t> indices, want;
  for (std::uint32_t p = 0; p < 512; ++p) {
    EXPECT_EQ(got[p].valid, 1u);
    indices.push_back(got[p].index);
    want.push_back(7 * p % 509);
  }
  std::sort(indices.begin(), indices.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(indices, want);
  EXPECT_EQ(bytes[1] - bytes[0], 512 * 8);
}

TEST(IruGpu, AFastForwardedKernelGetsTheElementsInOrder) {
  GpuRun r({"gpu.timing_from_kernel=1"});
  const auto got = ask_all(r);
  expect_every_element_once(got);
  for (std::uint32_t t = 0; t < 512; ++t) EXPECT_EQ(got[t].position, t);
  EXPECT_EQ(r.tb.stat("iru.requests"), 0);
}

TEST(IruGpu, LdiruWithoutConfigureIsAnError) {
  IRRGPU_SKIP_UNDER_ASAN_THROWING_IN_A_THREAD();
  GpuRun r({});
  gpu::Host host("host", [&] {
    const auto mod = r.dev.load_module_text(kAsk, "ask.ptx");
    r.dev.launch(r.dev.kernel(mod, "ask"), Dim3{1}, Dim3{32}, Args() << r.dev.malloc(16 * 32));
  });
  std::string error;
  try {
    r.tb.run();
  } catch (const std::exception& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("ldiru from SM 0 warp slot 0 in a kernel launched without configure_iru"), std::string::npos) << error;
}

TEST(IruGpu, LdiruWithoutTheUnitNamesTheKeyThatEnablesIt) {
  mem::BackingStore store;
  core::ptx::ExtensionRegistry reg;
  gpu::add_iru_instructions(reg);
  Device dev(store, &reg);
  const auto mod = dev.load_module_text(kAsk, "ask.ptx");
  try {
    dev.launch(dev.kernel(mod, "ask"), Dim3{1}, Dim3{32}, Args() << dev.malloc(16 * 32));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ldiru needs unit iru enabled (iru.enabled: true"), std::string::npos) << e.what();
  }
}

class IruWorkloads : public ::testing::TestWithParam<std::string> {};

// The paper's three algorithms in their IRU form on the timed GTX 980 give the references' results
// (PageRank also with its next frontier built in the contraction, iru_fused, or over the vertices,
// iru_vertices).
TEST_P(IruWorkloads, IruVariantMatchesTheReference) {
  const std::string param = GetParam(), name = param.substr(0, param.find('/'));
  const std::string variant = param.find('/') == std::string::npos ? "iru" : param.substr(param.find('/') + 1);
  const workloads::Workload& w = workloads::workload(name);
  const workloads::Graph g = workloads::load_graph("rmat:scale=8");
  GpuRun r({});
  workloads::Result res;
  gpu::Host host("host", [&] { res = w.run(r.dev, g, 1, variant); });
  r.tb.run();
  ASSERT_TRUE(host.finished());
  EXPECT_EQ(w.check(g, res.values, w.reference(g, 1)), "");
  EXPECT_GT(r.tb.stat("iru.requests"), 0);
  EXPECT_EQ(r.tb.stat("iru.delivered") + r.tb.stat("iru.merged"), r.tb.stat("iru.elements"));
  if (name == "bfs") EXPECT_EQ(r.tb.stat("iru.merged"), 0);  // no filter
  else EXPECT_GT(r.tb.stat("iru.merged"), 0);                       // min (SSSP), add (PR)
}

INSTANTIATE_TEST_SUITE_P(Graph, IruWorkloads, ::testing::Values("bfs", "sssp", "pr", "pr/iru_fused", "pr/iru_vertices"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '/', '_');
                           return name;
                         });
