// SPDX-License-Identifier: Apache-2.0
// Two kernels in one module, the second with an instruction irrgpu does not run (a debugger's
// breakpoint): the first must still run and be checked; the second must fail when launched,
// naming itself, its PTX line and the instruction, and the program must see the launch fail.
#include <cstdio>

__global__ void fill(int* v) { v[threadIdx.x] = 2 * threadIdx.x; }

__global__ void stop_here(int* v) {
  asm volatile("brkpt;");
  v[threadIdx.x] = 0;
}

int main() {
  int* d;
  int h[32];
  cudaMalloc(&d, sizeof h);
  fill<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < 32; ++i) ok = ok && h[i] == 2 * i;
  std::printf("%s fill\n", ok ? "ok" : "WRONG");
  stop_here<<<1, 32>>>(d);
  const cudaError_t e = cudaDeviceSynchronize() ? cudaGetLastError() : cudaGetLastError();
  std::printf("stop_here: %s\n", cudaGetErrorName(e));
  std::printf(ok && e != cudaSuccess ? "PASS\n" : "FAIL\n");
  return 0;
}
