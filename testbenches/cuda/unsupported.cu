// SPDX-License-Identifier: Apache-2.0
// Calls an API irrgpu does not provide (CUDA graphs): the run must stop naming it, never carry
// on silently.
#include <cstdio>

__global__ void fill(int* v) { v[threadIdx.x] = threadIdx.x; }

int main() {
  int* v = nullptr;
  cudaMalloc(&v, 32 * sizeof(int));
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  fill<<<1, 32>>>(v);
  cudaDeviceSynchronize();
  return 0;
}
