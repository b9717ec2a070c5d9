// SPDX-License-Identifier: Apache-2.0
// Calls an API irrgpu does not provide (managed memory): the run must stop naming it, never carry
// on silently.
#include <cstdio>

__global__ void fill(int* v) { v[threadIdx.x] = threadIdx.x; }

int main() {
  int* v = nullptr;
  cudaMallocManaged(&v, 32 * sizeof(int));
  fill<<<1, 32>>>(v);
  cudaDeviceSynchronize();
  std::printf("v[5] = %d\n", v[5]);
  return 0;
}
