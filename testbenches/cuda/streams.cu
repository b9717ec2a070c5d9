// SPDX-License-Identifier: Apache-2.0
// Several kernels on two streams with async copies and events: scale, then a prefix sum per
// block, then a histogram with atomics; the elapsed time is read from events.
#include <cstdio>
#include <vector>

__global__ void scale(int* v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}

__global__ void scan_block(const int* in, int* out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, i = blockIdx.x * 128 + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < 128; off <<= 1) {
    int add = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += add;
    __syncthreads();
  }
  if (i < n) out[i] = s[t];
}

__global__ void histogram(const int* v, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[v[i] & 15], 1u);
}

int main() {
  const int n = 4096;
  std::vector<int> v(n), scanned(n);
  std::vector<unsigned> bins(16);
  for (int i = 0; i < n; ++i) v[i] = i % 37;
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  int *dv, *ds;
  unsigned* db;
  cudaMalloc(&dv, n * sizeof(int));
  cudaMalloc(&ds, n * sizeof(int));
  cudaMalloc(&db, 16 * sizeof(unsigned));
  cudaMemsetAsync(db, 0, 16 * sizeof(unsigned), s2);
  cudaEventRecord(start, s1);
  cudaMemcpyAsync(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice, s1);
  scale<<<n / 256, 256, 0, s1>>>(dv, n, 3);
  scan_block<<<n / 128, 128, 0, s1>>>(dv, ds, n);
  cudaStreamSynchronize(s1);
  histogram<<<n / 256, 256, 0, s2>>>(dv, db, n);
  cudaEventRecord(stop, s2);
  cudaEventSynchronize(stop);
  float ms = -1;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(scanned.data(), ds, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(bins.data(), db, 16 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::vector<unsigned> want_bins(16);
  for (int b = 0; b < n / 128; ++b) {
    int sum = 0;
    for (int i = b * 128; i < (b + 1) * 128; ++i) {
      sum += v[i] * 3;
      if (scanned[i] != sum) {
        std::printf("FAIL scanned[%d] = %d, want %d\n", i, scanned[i], sum);
        return 1;
      }
    }
  }
  for (int i = 0; i < n; ++i) ++want_bins[(v[i] * 3) & 15];
  for (int b = 0; b < 16; ++b)
    if (bins[b] != want_bins[b]) {
      std::printf("FAIL bins[%d] = %u, want %u\n", b, bins[b], want_bins[b]);
      return 1;
    }
  if (!(ms >= 0)) {
    std::printf("FAIL elapsed %f ms\n", ms);
    return 1;
  }
  std::printf("PASS streams (%.6f ms between the events)\n", ms);
  return 0;
}
