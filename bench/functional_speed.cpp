// SPDX-License-Identifier: Apache-2.0
// Warp instructions per host second of the functional executor on two nvcc kernels.
#include <chrono>
#include <cstdio>
#include <vector>

#include "models/runtime/device.h"

using irr::runtime::Args;
using irr::runtime::Device;
using irr::runtime::Dim3;

int sc_main(int, char**) {
  const std::string dir = std::string(IRRGPU_SOURCE_DIR) + "/testbenches/ptx/";
  irr::mem::BackingStore m;
  Device d(m);
  d.echo_printf(false);
  const auto mod = d.load_module(dir + "kernels.ptx");
  const int n = 128;
  std::vector<float> a(n * n, 1.0f);
  const auto pa = d.malloc(n * n * 4), pb = d.malloc(n * n * 4), pc = d.malloc(n * n * 4);
  d.memcpy_to_device(pa, a.data(), n * n * 4);
  d.memcpy_to_device(pb, a.data(), n * n * 4);
  auto t0 = std::chrono::steady_clock::now();
  auto st = d.launch(d.kernel(mod, "matmul"), Dim3{n / 16, n / 16}, Dim3{16, 16}, Args() << pa << pb << pc << n);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("matmul %dx%d: %llu warp instructions in %.3f s: %.2f M warp instructions/s, %.1f M thread instructions/s\n",
              n, n, static_cast<unsigned long long>(st.warp_instructions), s, st.warp_instructions / s / 1e6,
              st.thread_instructions / s / 1e6);
  const auto red = d.load_module(dir + "reduce.ptx");
  const int count = 1 << 20;
  const auto pin = d.malloc(count * 4), pout = d.malloc(4);
  d.memset(pin, 1, count * 4);
  d.memset(pout, 0, 4);
  t0 = std::chrono::steady_clock::now();
  st = d.launch(d.kernel(red, "reduce"), Dim3{count / 256}, Dim3{256}, Args() << pin << pout << count);
  s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("reduce %d: %llu warp instructions in %.3f s: %.2f M warp instructions/s, %.1f M thread instructions/s\n",
              count, static_cast<unsigned long long>(st.warp_instructions), s, st.warp_instructions / s / 1e6,
              st.thread_instructions / s / 1e6);
  return 0;
}
