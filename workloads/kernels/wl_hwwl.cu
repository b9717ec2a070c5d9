// SPDX-License-Identifier: Apache-2.0
// The worklist kernels of wl.cu on the hardware worklist, and the HWWL's set-up kernels.
#define IRRGPU_HWWL
#include "wl.cu"

// wlcfg and wlinit (one thread): the banks' mode (0 single-, 1 double-buffer), overflow buffers of
// `per_core` IDs from `buffer`.
extern "C" __global__ void wl_hwwl_init(unsigned mode, unsigned long long buffer, unsigned long long per_core) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    asm volatile("wlcfg.u32 %0;" : : "r"(mode) : "memory");
    asm volatile("wlinit.u64 %0, %1;" : : "l"(buffer), "l"(per_core) : "memory");
  }
}

// The host's first work: thread 0 pushes `id`.
extern "C" __global__ void wl_hwwl_seed(unsigned id) {
  if (blockIdx.x == 0 && threadIdx.x == 0) WL_PUSH(id);
}

// Every vertex below `n` as the host's first work (a thread each).
extern "C" __global__ void wl_hwwl_seed_all(unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) WL_PUSH(i);
}
