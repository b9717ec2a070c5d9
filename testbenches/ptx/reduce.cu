// SPDX-License-Identifier: Apache-2.0
// Small kernels whose nvcc PTX (checked in beside) the parser and executor tests use.
#include <cstdio>
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__device__ __noinline__ int helper(int x) { return x * 3 + 1; }
extern "C" __global__ void reduce(const int* in, int* out, int n) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  buf[t] = i < n ? helper(in[i]) : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, buf[0]);
  if (t == 0 && blockIdx.x == 0) printf("block %d sum %d\n", blockIdx.x, buf[0]);
}
