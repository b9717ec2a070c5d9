// SPDX-License-Identifier: Apache-2.0
// The functional executor and host runtime on nvcc-compiled kernels (testbenches/ptx/), checked
// against CPU references.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "models/runtime/device.h"
#include "testbenches/common/testing.h"

using namespace irr;
using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;

namespace {
const std::string kDir = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/ptx/";

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
