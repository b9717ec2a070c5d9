// SPDX-License-Identifier: Apache-2.0
// The functional executor and host runtime on nvcc-compiled kernels (testbenches/ptx/), checked
// against CPU references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "models/runtime/device.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;

namespace {
// The checked-in PTX, or (the PTX corpus test, testbenches/ptx/corpus_test.sh) the same kernels
// as nvcc compiled them with other options.
const std::string kDir = std::getenv("IRRGPU_TEST_PTX_DIR") ? std::string(std::getenv("IRRGPU_TEST_PTX_DIR")) + "/"
                                                             : std::string(IRRGPU_SOURCE_DIR) + "/testbenches/ptx/";

template <typename T>
std::uint64_t upload(Device& d, const std::vector<T>& v) {
  const std::uint64_t p = d.malloc(v.size() * sizeof(T));
  d.memcpy_to_device(p, v.data(), v.size() * sizeof(T));
  return p;
}
template <typename T>
std::vector<T> download(Device& d, std::uint64_t p, std::size_t n) {
  std::vector<T> v(n);
  d.memcpy_to_host(v.data(), p, n * sizeof(T));
  return v;
}
}  // namespace

TEST(Exec, VectorAddWithATail) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module(kDir + "reduce.ptx");
  const int n = 1000;  // not a multiple of the block: the guard takes the tail
  std::vector<float> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 3.0f - static_cast<float>(i);
  }
  const auto pa = upload(d, a), pb = upload(d, b), pc = d.malloc(n * sizeof(float));
  d.launch(d.kernel(mod, "vadd"), Dim3{(n + 127) / 128}, Dim3{128}, Args() << pa << pb << pc << n);
  const auto c = download<float>(d, pc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST(Exec, SharedMemoryReductionBarriersCallsAtomicsAndPrintf) {
  mem::BackingStore m;
  Device d(m);
  d.echo_printf(false);
  const auto mod = d.load_module(kDir + "reduce.ptx");
  const int n = 5000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 300;
  const auto pin = upload(d, in), pout = upload(d, std::vector<int>{0});
  const int blocks = (n + 255) / 256;
  d.launch(d.kernel(mod, "reduce"), Dim3{static_cast<std::uint32_t>(blocks)}, Dim3{256}, Args() << pin << pout << n);
  long expected = 0;
  for (int v : in) expected += v * 3 + 1;  // helper(x) = 3x + 1, a non-inlined device function
  EXPECT_EQ(download<int>(d, pout, 1)[0], expected);
  // Block 0's thread 0 printed its partial sum.
  long block0 = 0;
  for (int i = 0; i < 256; ++i) block0 += in[i] * 3 + 1;
  EXPECT_EQ(d.printf_output(), "block 0 sum " + std::to_string(block0) + "\n");
}

TEST(Exec, WarpPrimitivesBitOpsAndConversions) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module(kDir + "warp.ptx");
  std::vector<float> f(32);
  for (int i = 0; i < 32; ++i) f[i] = static_cast<float>(i) + 0.25f;
  const auto pout = upload(d, std::vector<int>(96, 0)), pf = upload(d, f);
  d.launch(d.kernel(mod, "warp"), Dim3{1}, Dim3{32}, Args() << pout << pf);
  const auto out = download<int>(d, pout, 96);
  unsigned ballot = 0;
  for (int v = 0; v < 32; ++v)
    if (v & 1) ballot |= 1u << v;
  for (int v = 0; v < 32; ++v) {
    const int s = v < 31 ? v + 1 : v;  // shfl down by 1; the last lane keeps its own value
    const int any = 1;
    unsigned brev = 0;
    for (int k = 0; k < 32; ++k)
      if (static_cast<unsigned>(v) >> k & 1) brev |= 1u << (31 - k);
    const int clz = v ? __builtin_clz(static_cast<unsigned>(v)) : 32;
    const int expect = static_cast<int>(s + ballot + any + 0xffffffffu + static_cast<unsigned>(__builtin_popcount(v)) +
                                        static_cast<unsigned>(clz) + brev + static_cast<unsigned>(v >> 3) +
                                        static_cast<unsigned>(static_cast<int>(std::sqrt(f[v]))) +
                                        static_cast<unsigned>(static_cast<int>(std::nearbyint(f[v] * 2.5f))));
    if (v != 0) {  // lane 0's word is then overwritten by atomicCAS
      EXPECT_EQ(out[v], expect) << "lane " << v;
    }
    EXPECT_EQ(out[v + 32], static_cast<int>(static_cast<double>(f[v]) / 3.0)) << v;
    EXPECT_EQ(out[v + 64], static_cast<short>(v) * 3) << v;
  }
}

TEST(Exec, ErrorsNameTheKernel) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module(kDir + "reduce.ptx");
  EXPECT_THROW(d.kernel(mod, "nope"), Error);
  EXPECT_THROW(d.launch(d.kernel(mod, "vadd"), Dim3{1}, Dim3{32}, Args() << 1), Error);  // wrong arity
}

// Accesses outside a parameter list or a CTA's shared memory fail naming what was overrun, in the
// executor's whole-warp paths as in its general one (32 threads each).
TEST(Exec, OutOfRangeAccessesAreNamed) {
  auto fails = [](const std::string& body, const std::string& expect) {
    mem::BackingStore m;
    Device d(m);
    const auto mod = d.load_module_text(".version 9.0\n.target sm_75\n.address_size 64\n"
                                        ".func (.param .b32 r) f(.param .b32 x)\n{\n.reg .b32 %q<2>;\n"
                                        "ld.param.b32 %q1, [x+4];\nst.param.b32 [r], %q1;\nret;\n}\n"
                                        ".visible .entry k(.param .u32 p)\n{\n.shared .align 4 .b8 a[64];\n"
                                        ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n" + body + "ret;\n}\n",
                                        "range.ptx");
    try {
      d.launch(d.kernel(mod, "k"), Dim3{1}, Dim3{32}, Args() << 1u);
      ADD_FAILURE() << "no error for: " << body;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
    }
  };
  fails("ld.param.u64 %rd1, [p];\n", "read past the kernel's parameters");
  fails(".param .b32 x0;\n.param .b32 r0;\nst.param.b32 [x0], 1;\ncall.uni (r0), f, (x0);\n", "parameter access out of range");
  fails("mov.u32 %r1, a;\nld.shared.u32 %r2, [%r1+64];\n", "shared access of 4 B at offset 64 outside its");
  fails("mov.u32 %r1, a;\nst.shared.u32 [%r1+62], 5;\n", "outside its");
}

namespace {
struct Kernels {
  mem::BackingStore m;
  Device d{m};
  std::size_t mod = d.load_module(kDir + "kernels.ptx");
};
}  // namespace

TEST(Exec, SharedMemoryScan) {
  Kernels k;
  const int n = 200;  // a partial block
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 11 - 5;
  const auto pin = upload(k.d, in), pout = k.d.malloc(n * 4);
  k.d.launch(k.d.kernel(k.mod, "scan"), Dim3{1}, Dim3{256}, Args() << pin << pout << n);
  std::vector<int> expect(n);
  std::partial_sum(in.begin(), in.end(), expect.begin());
  EXPECT_EQ(download<int>(k.d, pout, n), expect);
}

TEST(Exec, HistogramSharedThenGlobalAtomics) {
  Kernels k;
  const int n = 10007;
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned char>((i * 131 + 7) % 251);
  const auto pdata = upload(k.d, data), pbins = upload(k.d, std::vector<unsigned>(64, 0));
  k.d.launch(k.d.kernel(k.mod, "histogram"), Dim3{7}, Dim3{96}, Args() << pdata << pbins << n);
  std::vector<unsigned> expect(64, 0);
  for (unsigned char c : data) ++expect[c % 64];
  EXPECT_EQ(download<unsigned>(k.d, pbins, 64), expect);
}

TEST(Exec, TiledMatrixMultiply) {
  Kernels k;
  const int n = 37;  // not a multiple of the 16 x 16 tile
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>((i % 7) - 3);
    b[i] = static_cast<float>((i % 5) - 2) * 0.5f;
  }
  const auto pa = upload(k.d, a), pb = upload(k.d, b), pc = k.d.malloc(n * n * 4);
  const std::uint32_t tiles = (n + 15) / 16;
  k.d.launch(k.d.kernel(k.mod, "matmul"), Dim3{tiles, tiles}, Dim3{16, 16}, Args() << pa << pb << pc << n);
  const auto c = download<float>(k.d, pc, n * n);
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      float acc = 0;  // small integers and halves: exact in any order
      for (int x = 0; x < n; ++x) acc += a[r * n + x] * b[x * n + col];
      ASSERT_EQ(c[r * n + col], acc) << r << "," << col;
    }
}

TEST(Exec, WarpAggregatedAtomicCounter) {
  Kernels k;
  const int n = 1000;
  std::vector<int> keep(n);
  for (int i = 0; i < n; ++i) keep[i] = (i % 3 == 0) || (i % 7 == 0);
  const auto pkeep = upload(k.d, keep), pcount = upload(k.d, std::vector<int>{0}),
             pslots = upload(k.d, std::vector<int>(n, -1));
  k.d.launch(k.d.kernel(k.mod, "aggregated_counter"), Dim3{(n + 127) / 128}, Dim3{128}, Args() << pkeep << pcount << pslots << n);
  const int kept = static_cast<int>(std::count(keep.begin(), keep.end(), 1));
  EXPECT_EQ(download<int>(k.d, pcount, 1)[0], kept);
  auto slots = download<int>(k.d, pslots, n);
  std::vector<int> taken;
  for (int i = 0; i < n; ++i) {
    if (keep[i]) taken.push_back(slots[i]);
    else EXPECT_EQ(slots[i], -1) << i;
  }
  std::sort(taken.begin(), taken.end());
  for (int s = 0; s < kept; ++s) ASSERT_EQ(taken[s], s);  // every slot handed out exactly once
}

TEST(Exec, DivergenceAndReconvergence) {
  Kernels k;
  const int n = 300;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 53 + 11) % 97;
  const auto pin = upload(k.d, in), pout = upload(k.d, std::vector<int>(n * 4, 0));
  k.d.launch(k.d.kernel(k.mod, "control"), Dim3{(n + 63) / 64}, Dim3{64}, Args() << pin << pout << n);
  const auto out = download<int>(k.d, pout, n * 4);
  for (int i = 0; i < n; ++i) {
    const int v = in[i];
    const int r = (v & 1) ? ((v & 2) ? 1 : 2) : ((v & 4) ? 3 : 4);
    int sum = 0;
    for (int x = 0; x < v % 37; ++x) {
      if (x % 3 == 0) continue;
      if (sum > 200) break;
      sum += x;
    }
    int c;
    switch (v % 5) {
      case 0: c = 10; break;
      case 1: c = v * 2; break;
      case 2: c = v > 50 ? -1 : 7; break;
      case 3: c = v - 100; break;
      default: c = 0;
    }
    unsigned partial = 0;  // ballot over lanes 0..19 of the warp
    if (i % 64 % 32 < 20) {
      const int warp_base = i / 32 * 32;
      for (int l = 0; l < 20 && warp_base + l < n; ++l)
        if (in[warp_base + l] % 3 == 0) partial |= 1u << l;
    }
    ASSERT_EQ(out[i * 4 + 0], r) << i;
    ASSERT_EQ(out[i * 4 + 1], sum) << i;
    ASSERT_EQ(out[i * 4 + 2], c) << i;
    ASSERT_EQ(static_cast<unsigned>(out[i * 4 + 3]), partial) << i;
  }
}

TEST(Exec, AtomicsUnderContention) {
  Kernels k;
  const auto pc = upload(k.d, std::vector<unsigned>(3, 0));
  k.d.launch(k.d.kernel(k.mod, "contention"), Dim3{4}, Dim3{96}, Args() << pc << 5);
  const auto c = download<unsigned>(k.d, pc, 3);
  EXPECT_EQ(c[0], 4u * 96 * 5);
  EXPECT_EQ(c[1], 4u * 96 - 1);
  EXPECT_EQ(c[2], 4u * 96 * 5);  // the CAS loops never lose an increment
}

namespace {
// A kernel using an extension instruction: each thread stores what `wlpull` gives it.
const char* kPull = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry pull(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  // begin inline asm
  wlpull.b32 %r2;
  // end inline asm
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";

core::ptx::Extension pull_extension() {
  core::ptx::Extension e;
  e.name = "wlpull";
  e.unit = "hwwl";
  e.route = "unit";
  e.decode = [](core::ptx::Instruction& i, const std::vector<std::string>& mods) {
    if (mods != std::vector<std::string>{"b32"}) throw std::invalid_argument("takes .b32");
    i.type = core::ptx::Type::b32;
  };
  return e;
}
}  // namespace

TEST(Exec, ExtensionInstructionSemanticsFromItsUnit) {
  mem::BackingStore m;
  core::ptx::ExtensionRegistry reg;
  const auto idx = reg.add(pull_extension());
  Device d(m, &reg);
  const auto mod = d.load_module_text(kPull, "pull.ptx");
  const auto out = d.malloc(64 * 4);
  // Without its unit the instruction cannot run: a clear error naming the unit.
  try {
    d.launch(d.kernel(mod, "pull"), Dim3{1}, Dim3{64}, Args() << out);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("wlpull needs unit hwwl enabled"), std::string::npos) << e.what();
  }
  reg.at(idx).execute = [](core::ptx::ExtensionCall& c) {
    for (unsigned l = 0; l < 32; ++l)
      if (c.active() >> l & 1) c.write(0, l, 1000 * c.warp() + l);
  };
  d.launch(d.kernel(mod, "pull"), Dim3{1}, Dim3{64}, Args() << out);
  const auto v = download<unsigned>(d, out, 64);
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(v[t], 1000 * (t / 32) + t % 32);
}

// Every instruction a device loads has its own PC, 8 bytes after the one before, across functions
// and modules in load order (PC-keyed predictors, bypasses and prefetchers tell loads apart by
// it); none is 0, which means "no PC".
TEST(Exec, InstructionsHaveDistinctPcsAcrossModules) {
  mem::BackingStore m;
  Device d(m);
  const std::string ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry a()\n{\n.reg .b32 %r<2>;\nmov.u32 %r1, 1;\nret;\n}\n"
                          ".visible .entry b()\n{\nret;\n}\n";
  const auto first = d.load_module_text(ptx, "first.ptx"), second = d.load_module_text(ptx, "second.ptx");
  std::vector<std::uint64_t> pcs;
  for (const auto mod : {first, second})
    for (const char* k : {"a", "b"})
      for (const auto& in : d.kernel(mod, k).function().code) pcs.push_back(in.address);
  ASSERT_EQ(pcs.size(), 6u);
  EXPECT_NE(pcs[0], 0u);
  for (std::size_t i = 1; i < pcs.size(); ++i) EXPECT_EQ(pcs[i], pcs[i - 1] + 8) << i;
}

// A 32-bit register's address arithmetic wraps at 32 bits: nvcc writes shared addresses as a base
// below the array plus an offset (Rodinia's nw: [%r6+64] with %r6 = ref - 60·tid).
TEST(Exec, ThirtyTwoBitAddressesWrap) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
  .shared .align 4 .b8 a[64];
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [k_param_0];
  mov.u32 %r1, a;
  st.shared.u32 [%r1+4], 77;
  sub.s32 %r2, %r1, 60;
  ld.shared.u32 %r3, [%r2+64];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r3;
  ret;
}
)", "wrap.ptx");
  const auto out = d.malloc(4);
  d.launch(d.kernel(mod, "k"), Dim3{1}, Dim3{1}, Args() << out);
  EXPECT_EQ(download<unsigned>(d, out, 1)[0], 77u);
}

// Registers are kept in rows by width (32-bit lanes for 32 bits or fewer, 64-bit lanes for 64):
// declarations of every width interleaved, in the kernel and in a device function called twice
// (the second call reuses the first one's frame) with another mix, each value read back whole.
TEST(Exec, RegistersOfEveryWidthKeepTheirValues) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .func (.param .b64 mix_ret) mix(.param .b64 mix_param_0, .param .b32 mix_param_1)
{
  .reg .b64 %rd<3>;
  .reg .pred %p<2>;
  .reg .b16 %rs<2>;
  .reg .f64 %fd<2>;
  .reg .b32 %r<2>;
  ld.param.u64 %rd1, [mix_param_0];
  ld.param.u32 %r1, [mix_param_1];
  setp.ne.s32 %p1, %r1, 0;
  mov.u16 %rs1, -2;
  cvt.rn.f64.u32 %fd1, %r1;
  cvt.rzi.u64.f64 %rd2, %fd1;
  @%p1 add.s64 %rd1, %rd1, %rd2;
  cvt.u64.u16 %rd2, %rs1;
  add.s64 %rd1, %rd1, %rd2;
  st.param.b64 [mix_ret], %rd1;
  ret;
}
.visible .entry k(.param .u64 k_param_0)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<2>;
  .reg .b16 %rs<2>;
  .reg .f64 %fd<2>;
  ld.param.u64 %rd1, [k_param_0];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 40;
  add.s64 %rd1, %rd1, %rd2;
  cvt.u64.u32 %rd3, %r1;
  shl.b64 %rd3, %rd3, 33;
  or.b64 %rd3, %rd3, 5;
  not.b32 %r2, %r1;
  cvt.u16.u32 %rs1, %r2;
  cvt.rn.f64.u32 %fd1, %r1;
  add.f64 %fd1, %fd1, 0d3FE0000000000000;
  cvt.rn.f32.u32 %f1, %r1;
  setp.lt.u32 %p1, %r1, 7;
  selp.b32 %r3, 1, 0, %p1;
  { .param .b64 a0; .param .b32 a1; .param .b64 r0;
    st.param.b64 [a0], %rd3;
    st.param.b32 [a1], %r1;
    call.uni (r0), mix, (a0, a1);
    ld.param.b64 %rd4, [r0]; }
  { .param .b64 a0; .param .b32 a1; .param .b64 r0;
    st.param.b64 [a0], %rd4;
    st.param.b32 [a1], 0;
    call.uni (r0), mix, (a0, a1);
    ld.param.b64 %rd5, [r0]; }
  st.global.u64 [%rd1], %rd3;
  st.global.u32 [%rd1+8], %r2;
  st.global.u16 [%rd1+12], %rs1;
  st.global.u32 [%rd1+16], %r3;
  st.global.f32 [%rd1+20], %f1;
  st.global.f64 [%rd1+24], %fd1;
  st.global.u64 [%rd1+32], %rd5;
  ret;
}
)", "widths.ptx");
  const auto out = d.malloc(32 * 40);
  d.launch(d.kernel(mod, "k"), Dim3{1}, Dim3{32}, Args() << out);
  const auto bytes = download<std::uint8_t>(d, out, 32 * 40);
  for (unsigned t = 0; t < 32; ++t) {
    const std::uint8_t* p = bytes.data() + t * 40;
    auto at = [p](unsigned off, auto v) { std::memcpy(&v, p + off, sizeof v); return v; };
    const std::uint64_t wide = (std::uint64_t{t} << 33) | 5;
    EXPECT_EQ(at(0, std::uint64_t{}), wide) << t;
    EXPECT_EQ(at(8, std::uint32_t{}), ~t) << t;
    EXPECT_EQ(at(12, std::uint16_t{}), static_cast<std::uint16_t>(~t)) << t;
    EXPECT_EQ(at(16, std::uint32_t{}), t < 7 ? 1u : 0u) << t;
    EXPECT_EQ(at(20, float{}), static_cast<float>(t)) << t;
    EXPECT_EQ(at(24, double{}), t + 0.5) << t;
    EXPECT_EQ(at(32, std::uint64_t{}), wide + t + 2 * 0xfffeull) << t;  // + tid once, + 0xfffe twice
  }
}

// nvcc at -O0 keeps a device function's static __shared__ in the function: one variable per CTA,
// beside the kernel's own shared arrays, not on top of them (it once was, at offset 0: the
// frontier kernels' scan was overwritten by expand_scan's `base` at -O0 -G).
TEST(Exec, DeviceFunctionSharedVariablesHaveTheirOwnPlace) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .func note(.param .b32 note_param_0)
{
  .shared .align 4 .u32 last;
  .reg .b32 %r<2>;
  ld.param.u32 %r1, [note_param_0];
  st.shared.u32 [last], %r1;
  ret;
}
.visible .entry k(.param .u64 k_param_0)
{
  .shared .align 4 .b8 a[128];
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [k_param_0];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, a;
  add.s32 %r3, %r3, %r2;
  st.shared.u32 [%r3], %r1;
  bar.sync 0;
  { .param .b32 p0;
    st.param.b32 [p0], 99;
    call.uni note, (p0); }
  bar.sync 0;
  ld.shared.u32 %r3, [%r3];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r3;
  ret;
}
)", "fshared.ptx");
  const auto out = d.malloc(32 * 4);
  d.launch(d.kernel(mod, "k"), Dim3{1}, Dim3{32}, Args() << out);
  const auto v = download<unsigned>(d, out, 32);
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(v[t], t);
}

TEST(Exec, EndlessLoopIsReportedNotHung) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry spin()
{
$L__top:
  bra.uni $L__top;
}
)", "spin.ptx");
  d.set_instruction_limit(10000);
  try {
    d.launch(d.kernel(mod, "spin"), Dim3{1}, Dim3{32}, Args());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel spin exceeded 10000 warp instructions"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("warp 0, in spin, pc 0"), std::string::npos) << e.what();
  }
}

TEST(Exec, WarpPrimitivesUnderPartialMasksAndStateSpaces) {
  // Lanes 0..23 of one warp run the primitives (lanes 24..31 branched away); module-scope .global
  // and .const variables, a red to global memory and the lane masks.
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.global .align 4 .u32 counter;
.const .align 4 .u32 table[4] = {10, 20, 30, 40};
.visible .entry prims(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %laneid;
  mul.wide.u32 %rd2, %r1, 40;
  add.s64 %rd3, %rd1, %rd2;
  setp.ge.u32 %p1, %r1, 24;
  @%p1 bra $L__done;
  shfl.sync.idx.b32 %r2, %r1, 5, 31, 16777215;
  shfl.sync.up.b32 %r3|%p2, %r1, 2, 0, 16777215;
  shfl.sync.bfly.b32 %r4, %r1, 1, 31, 16777215;
  setp.lt.u32 %p3, %r1, 30;
  vote.sync.all.pred %p4, %p3, 16777215;
  selp.u32 %r5, 1, 0, %p4;
  and.b32 %r6, %r1, 3;
  match.any.sync.b32 %r7, %r6, 16777215;
  redux.sync.add.u32 %r8, %r1, 16777215;
  activemask.b32 %r9;
  mov.u32 %r10, %lanemask_lt;
  red.global.add.u32 [counter], 1;
  ld.global.u32 %r11, [counter];
  and.b32 %r12, %r1, 3;
  mul.lo.u32 %r13, %r12, 4;
  mov.u64 %rd4, table;
  cvt.u64.u32 %rd5, %r13;
  add.s64 %rd6, %rd4, %rd5;
  ld.const.u32 %r14, [%rd6];
  selp.u32 %r15, 1, 0, %p2;
  st.global.v4.u32 [%rd3], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd3+16], {%r7, %r8, %r9, %r10};
  st.global.v2.u32 [%rd3+32], {%r14, %r15};
$L__done:
  ret;
}
)";
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(text, "prims.ptx");
  const auto out = upload(d, std::vector<unsigned>(32 * 10, 0));
  d.launch(d.kernel(mod, "prims"), Dim3{1}, Dim3{32}, Args() << out);
  const auto v = download<unsigned>(d, out, 32 * 10);
  for (unsigned l = 0; l < 24; ++l) {
    const unsigned* w = &v[l * 10];
    EXPECT_EQ(w[0], 5u) << l;                       // idx: everyone reads lane 5
    EXPECT_EQ(w[1], l >= 2 ? l - 2 : l) << l;       // up by 2; lanes 0, 1 keep their own
    EXPECT_EQ(w[2], l ^ 1) << l;                    // butterfly
    EXPECT_EQ(w[3], 1u) << l;                       // all 24 active lanes are < 30
    unsigned same = 0;
    for (unsigned k = 0; k < 24; ++k)
      if ((k & 3) == (l & 3)) same |= 1u << k;
    EXPECT_EQ(w[4], same) << l;                     // match.any over the active lanes
    EXPECT_EQ(w[5], 23u * 24 / 2) << l;             // redux.add over lanes 0..23
    EXPECT_EQ(w[6], 0x00ffffffu) << l;              // activemask
    EXPECT_EQ(w[7], (1u << l) - 1) << l;            // lanemask_lt
    EXPECT_EQ(w[8], 10u * ((l & 3) + 1)) << l;      // the .const table
    EXPECT_EQ(w[9], l >= 2 ? 1u : 0u) << l;         // shfl.up's predicate
  }
  for (unsigned l = 24; l < 32; ++l) EXPECT_EQ(v[l * 10], 0u);
}

TEST(Exec, SpinWaitOnAnotherWarpTerminates) {
  // Warp 1 spins on a flag that warp 0 sets: round-robin interleaving lets warp 0 run.
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry wait(.param .u64 flag, .param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $L__producer;
$L__spin:
  ld.volatile.global.u32 %r2, [%rd1];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra $L__spin;
  st.global.u32 [%rd2], %r2;
  ret;
$L__producer:
  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra $L__end;
  st.volatile.global.u32 [%rd1], 7;
$L__end:
  ret;
}
)";
  mem::BackingStore m;
  Device d(m);
  d.set_instruction_limit(100000);
  const auto mod = d.load_module_text(text, "wait.ptx");
  const auto flag = upload(d, std::vector<unsigned>{0}), out = upload(d, std::vector<unsigned>{0});
  d.launch(d.kernel(mod, "wait"), Dim3{1}, Dim3{64}, Args() << flag << out);
  EXPECT_EQ(download<unsigned>(d, out, 1)[0], 7u);
}

// The error a launch of one CTA of `threads` ends with ("" if it ends well).
std::string launch_error(Device& d, std::size_t mod, const char* kernel, unsigned threads, const Args& args) {
  try {
    d.launch(d.kernel(mod, kernel), Dim3{1}, Dim3{threads}, args);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A spin lock every lane of one warp takes, its critical section after the loop: lane 0 wins the
// CAS, the SIMT stack runs the 31 losers' loop first and parks lane 0 — which holds the lock —
// until the loop exits, which it never does. The spin watch names the loop and the waiting lane long before the
// instruction limit.
const char* const kIntraWarpLock = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry lock(.param .u64 lock, .param .u64 count)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [lock];
  ld.param.u64 %rd2, [count];
$L__acquire:
  atom.global.cas.b32 %r1, [%rd1], 0, 1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L__acquire;
  ld.global.u32 %r2, [%rd2];
  add.u32 %r3, %r2, 1;
  st.global.u32 [%rd2], %r3;
  atom.global.exch.b32 %r1, [%rd1], 0;
  ret;
}
)";

TEST(Exec, IntraWarpSpinLockIsNamedAsNeedingIndependentThreadScheduling) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(kIntraWarpLock, "lock.ptx");
  const auto lock = upload(d, std::vector<unsigned>{0}), count = upload(d, std::vector<unsigned>{0});
  const std::string w = launch_error(d, mod, "lock", 32, Args() << lock << count);
  ASSERT_FALSE(w.empty()) << "no error";
  EXPECT_NE(w.find("kernel lock: every live warp (1) has looped 10000 times"), std::string::npos) << w;
  EXPECT_NE(w.find("needs independent thread scheduling"), std::string::npos) << w;
  EXPECT_NE(w.find("lanes 0x00000001 of this warp wait on its SIMT stack"), std::string::npos) << w;
  EXPECT_NE(w.find("backward branch at lock, pc 4"), std::string::npos) << w;
  // The launch stopped after the watch's iterations, not at the instruction limit.
  EXPECT_EQ(download<unsigned>(d, count, 1)[0], 0u);
}

TEST(Exec, WarpsAllWaitingOnAFlagNobodySetsIsADeadlock) {
  // Two warps, converged, wait for a flag no thread writes: a deadlock between warps, no stack.
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry wait(.param .u64 flag)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [flag];
$L__spin:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L__spin;
  ret;
}
)";
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(text, "wait.ptx");
  const auto flag = upload(d, std::vector<unsigned>{0});
  const std::string w = launch_error(d, mod, "wait", 64, Args() << flag);
  ASSERT_FALSE(w.empty()) << "no error";
  EXPECT_NE(w.find("every live warp (2) has looped 10000 times"), std::string::npos) << w;
  EXPECT_NE(w.find("a deadlock between warps"), std::string::npos) << w;
  EXPECT_EQ(w.find("independent thread scheduling"), std::string::npos) << w;
}

TEST(Exec, ASpinIsStoppedOnceTheLastOtherWarpFinishes) {
  // Warp 0 waits for a flag nobody sets; warp 1 counts to 30,000 (reading nothing) and leaves,
  // after warp 0 has looped its 10,000 times: the watch stops the launch then, not at the limit.
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry wait(.param .u64 flag)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [flag];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p2, %r2, 32;
  @%p2 bra $L__count;
$L__spin:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra $L__spin;
  ret;
$L__count:
  mov.u32 %r3, 0;
$L__more:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, 30000;
  @%p1 bra $L__more;
  ret;
}
)";
  mem::BackingStore m;
  Device d(m);
  d.set_instruction_limit(10'000'000);
  const auto mod = d.load_module_text(text, "wait.ptx");
  const auto flag = upload(d, std::vector<unsigned>{0});
  const std::string w = launch_error(d, mod, "wait", 64, Args() << flag);
  ASSERT_FALSE(w.empty()) << "no error";
  EXPECT_NE(w.find("every live warp (1) has looped 10000 times"), std::string::npos) << w;
  EXPECT_NE(w.find("a deadlock between warps"), std::string::npos) << w;
}

TEST(Exec, SpinLockWrittenForSimtIsNotStopped) {
  // The lock as pre-Volta code must write it: the critical section inside the loop, before the
  // paths reconverge, so the lane that wins finishes its work; all 64 increments land.
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry lock(.param .u64 lock, .param .u64 count)
{
  .reg .b32 %r<5>;
  .reg .b64 %rd<3>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [lock];
  ld.param.u64 %rd2, [count];
  mov.u32 %r4, 0;
$L__try:
  atom.global.cas.b32 %r1, [%rd1], 0, 1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $L__latch;
  ld.volatile.global.u32 %r2, [%rd2];
  add.u32 %r3, %r2, 1;
  st.volatile.global.u32 [%rd2], %r3;
  atom.global.exch.b32 %r1, [%rd1], 0;
  mov.u32 %r4, 1;
$L__latch:
  setp.eq.u32 %p2, %r4, 0;
  @%p2 bra $L__try;
  ret;
}
)";
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(text, "lock.ptx");
  const auto lock = upload(d, std::vector<unsigned>{0}), count = upload(d, std::vector<unsigned>{0});
  d.launch(d.kernel(mod, "lock"), Dim3{1}, Dim3{64}, Args() << lock << count);
  EXPECT_EQ(download<unsigned>(d, count, 1)[0], 64u);
}

TEST(Exec, WarpsTakeTurnsOneInstructionEachInCtaThenWarpOrder) {
  // Lane 0 of each warp logs its global warp (CTA * 2 + warp) at an atomic counter's slot, once
  // before a barrier and once after. Warp 1 of each CTA runs two instructions more before its
  // first atomic: one instruction a turn, CTA by CTA and warp by warp, puts every CTA's warp 0
  // first (0 2 4), then the warp 1s (1 3 5); after the barrier they go in step (0 1 2 3 4 5).
  const char* text = R"(
.version 9.0
.target sm_75
.address_size 64
.visible .entry order(.param .u64 counter, .param .u64 log)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [counter];
  ld.param.u64 %rd2, [log];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 5;
  mov.u32 %r3, %ctaid.x;
  shl.b32 %r4, %r3, 1;
  add.u32 %r4, %r4, %r2;
  and.b32 %r5, %r1, 31;
  setp.ne.u32 %p1, %r5, 0;
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra $L__go;
  add.u32 %r6, %r4, 0;
  add.u32 %r6, %r4, 0;
$L__go:
  @%p1 bra $L__sync;
  atom.global.add.u32 %r7, [%rd1], 1;
  mul.wide.u32 %rd3, %r7, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r4;
$L__sync:
  bar.sync 0;
  @%p1 bra $L__end;
  atom.global.add.u32 %r7, [%rd1], 1;
  mul.wide.u32 %rd3, %r7, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r4;
$L__end:
  ret;
}
)";
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(text, "order.ptx");
  const auto counter = upload(d, std::vector<unsigned>{0}), log = upload(d, std::vector<unsigned>(12, 99));
  d.launch(d.kernel(mod, "order"), Dim3{3}, Dim3{64}, Args() << counter << log);
  EXPECT_EQ(download<unsigned>(d, log, 12), (std::vector<unsigned>{0, 2, 4, 1, 3, 5, 0, 1, 2, 3, 4, 5}));
}

namespace {
// Function pointers as nvcc writes them at -O0 -G: a function's name moved into a register, a
// .callprototype, and a call through the register. Warp 0 calls twice, warp 1 three times.
const char* kIndirect = R"(.version 9.0
.target sm_75
.address_size 64
.func (.param .b32 r) twice(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
add.s32 %r2, %r1, %r1;
st.param.b32 [r+0], %r2;
ret;
}
.func (.param .b32 r) thrice(.param .b32 x)
{
.reg .b32 %r<3>;
ld.param.b32 %r1, [x];
mul.lo.s32 %r2, %r1, 3;
st.param.b32 [r+0], %r2;
ret;
}
.visible .entry k(.param .u64 out)
{
.reg .pred %p<2>;
.reg .b32 %r<5>;
.reg .b64 %rd<6>;
mov.u32 %r1, %tid.x;
setp.lt.u32 %p1, %r1, 32;
mov.u64 %rd1, twice;
mov.u64 %rd2, thrice;
selp.b64 %rd3, %rd1, %rd2, %p1;
{ // callseq 0, 0
.param .b32 param0;
st.param.b32 [param0+0], %r1;
.param .b32 retval0;
prototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);
call (retval0), %rd3, (param0), prototype_0;
ld.param.b32 %r2, [retval0+0];
} // callseq 0
ld.param.u64 %rd4, [out];
mul.wide.u32 %rd5, %r1, 4;
add.u64 %rd4, %rd4, %rd5;
st.global.u32 [%rd4], %r2;
ret;
}
)";
}  // namespace

TEST(Exec, IndirectCallsThroughFunctionPointers) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module_text(kIndirect, "indirect.ptx");
  const auto out = d.malloc(64 * 4);
  d.launch(d.kernel(mod, "k"), Dim3{1}, Dim3{64}, Args() << out);
  const auto v = download<unsigned>(d, out, 64);
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(v[t], t < 32 ? 2 * t : 3 * t) << t;

  // Lanes of one warp calling different functions, and a register that holds no function: clear errors.
  auto error_of = [&](const std::string& from, const std::string& to) {
    std::string text = kIndirect;
    text.replace(text.find(from), from.size(), to);
    try {
      d.launch(d.kernel(d.load_module_text(text, "changed.ptx"), "k"), Dim3{1}, Dim3{64}, Args() << out);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("%r1, 32;", "%r1, 16;").find("lanes call different functions"), std::string::npos);
  EXPECT_NE(error_of("%rd1, twice;", "%rd1, 4096;").find("not a function's address"), std::string::npos);
}

// The libraries' instructions on nvcc's PTX (testbenches/ptx/library.cu): carry chains, bmsk and
// szext against the same arithmetic here; a block staged through shared memory (by cp.async or
// cp.async.bulk with an mbarrier where the corpus compiles for sm_80 or sm_90) comes back reversed.
TEST(Exec, LibraryInstructionsAndAsynchronousCopies) {
  mem::BackingStore m;
  Device d(m);
  const auto mod = d.load_module(kDir + "library.ptx");
  const int n = 300;
  std::vector<unsigned> a(n), b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0xfffffff0u - 977u * static_cast<unsigned>(i);
    b[i] = 0x9e3779b9u * static_cast<unsigned>(i + 1);
  }
  const auto pa = upload(d, a), pb = upload(d, b), psum = d.malloc(n * 8), pmad = d.malloc(n * 8);
  d.launch(d.kernel(mod, "carry_chain"), Dim3{(n + 127) / 128}, Dim3{128}, Args() << pa << pb << psum << pmad << n);
  const auto sum = download<unsigned long long>(d, psum, n), mad = download<unsigned long long>(d, pmad, n);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(sum[i], std::uint64_t{a[i]} + b[i]) << i;
    const std::uint64_t p = std::uint64_t{a[i]} * b[i];
    const std::uint64_t lo = (p & 0xffffffffu) + a[i];  // mad.lo.cc: low word + a, its carry into madc.hi
    ASSERT_EQ(mad[i], ((p >> 32) + (lo >> 32)) << 32 | (lo & 0xffffffffu)) << i;
  }
  const auto pmask = d.malloc(n * 4), pfield = d.malloc(n * 4);
  d.launch(d.kernel(mod, "bits"), Dim3{(n + 127) / 128}, Dim3{128}, Args() << pb << pmask << pfield << n);
  const auto mask = download<unsigned>(d, pmask, n);
  const auto field = download<int>(d, pfield, n);
  for (int i = 0; i < n; ++i) {
    const unsigned v = b[i], pos = v & 31, len = v >> 5 & 31, w = v >> 10 & 31;
    ASSERT_EQ(mask[i], static_cast<unsigned>((((1ull << len) - 1) << pos) & 0xffffffffu)) << i;
    const int expect = w == 0 ? 0 : static_cast<int>(static_cast<std::int64_t>(static_cast<std::uint64_t>(v) << (64 - w)) >> (64 - w));
    ASSERT_EQ(field[i], expect) << i;
  }
  std::vector<int> tiles(3 * 256);
  std::iota(tiles.begin(), tiles.end(), -100);
  const auto pin = upload(d, tiles), pout = d.malloc(tiles.size() * 4);
  d.launch(d.kernel(mod, "staged_reverse"), Dim3{3}, Dim3{64}, Args() << pin << pout);
  const auto out = download<int>(d, pout, tiles.size());
  for (int blk = 0; blk < 3; ++blk)
    for (int k = 0; k < 256; ++k) ASSERT_EQ(out[blk * 256 + k], tiles[blk * 256 + 255 - k]) << blk << " " << k;
}
