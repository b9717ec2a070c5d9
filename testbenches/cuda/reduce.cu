// SPDX-License-Identifier: Apache-2.0
// A block-wise sum in shared memory with __syncthreads, the blocks' sums added on the host.
#include <cstdio>
#include <vector>

template <int B>
__global__ void block_sum(const int* in, int* out, int n) {
  __shared__ int s[B];
  const int t = threadIdx.x, i = blockIdx.x * B + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = B / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int n = 100000, b = 256, blocks = (n + b - 1) / b;
  std::vector<int> in(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) want += in[i] = (i * 7919) % 1000 - 500;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, blocks * sizeof(int));
  cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  block_sum<b><<<blocks, b>>>(din, dout, n);
  std::vector<int> part(blocks);
  cudaMemcpy(part.data(), dout, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  long long got = 0;
  for (int p : part) got += p;
  if (got != want) {
    std::printf("FAIL sum %lld, want %lld\n", got, want);
    return 1;
  }
  std::printf("PASS reduce\n");
  return 0;
}
