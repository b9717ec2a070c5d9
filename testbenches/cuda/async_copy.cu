// SPDX-License-Identifier: Apache-2.0
// Asynchronous copies as Ampere and Hopper code writes them (built for compute_90): a tile copied
// into shared memory by cp.async (per thread, waited for by group), a tile by cp.async.bulk
// completing on an mbarrier (one elected thread; everyone waits on the barrier's phase), and a tile
// written back by a bulk copy from shared memory; each result checked on the host.
#include <cstdint>
#include <cstdio>

constexpr int kTile = 256;  // ints a block moves each way

__device__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__global__ void stage(const int* in, int* out, int* back) {
  __shared__ alignas(16) int a[kTile];
  __shared__ alignas(16) int b[kTile];
  __shared__ alignas(8) unsigned long long bar;
  const int t = threadIdx.x;
  const int* src = in + blockIdx.x * kTile;
  // cp.async: each thread 16 bytes, one group, waited for.
  if (t < kTile / 4)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(&a[4 * t])), "l"(src + 4 * t) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  // cp.async.bulk: one thread starts the copy and expects its bytes; all wait for the phase.
  if (t == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(smem(&bar)));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(smem(b)),
                 "l"(src), "r"(kTile * 4), "r"(smem(&bar))
                 : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem(&bar)), "r"(kTile * 4) : "memory");
  }
  __syncthreads();
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(smem(&bar)) : "memory");
  for (int i = t; i < kTile; i += blockDim.x) {
    out[blockIdx.x * kTile + i] = a[i] + b[i];  // twice the input
    b[i] = a[i] * 3;
  }
  __syncthreads();
  // Back to global memory from shared, one bulk copy, waited for.
  if (t == 0) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(back + blockIdx.x * kTile), "r"(smem(b)),
                 "r"(kTile * 4)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

int main() {
  const int blocks = 4, n = blocks * kTile;
  int h[n], out[n], back[n];
  for (int i = 0; i < n; ++i) h[i] = i * 7 - 300;
  int *din, *dout, *dback;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMalloc(&dback, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  stage<<<blocks, 128>>>(din, dout, dback);
  if (cudaError_t e = cudaDeviceSynchronize()) {
    std::printf("FAIL: %s\n", cudaGetErrorString(e));
    return 1;
  }
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaMemcpy(back, dback, sizeof back, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += out[i] != 2 * h[i] || back[i] != 3 * h[i];
  std::printf(bad ? "FAIL: %d wrong\n" : "PASS\n", bad);
  return bad != 0;
}
