// SPDX-License-Identifier: Apache-2.0
// The source of the fatbinary fixtures beside it (cudart_test.cpp): nvcc -cudart shared -arch=compute_75 -keep
// (zstd-compressed PTX) and -gencode arch=compute_75,code=compute_75 -gencode arch=compute_80,code=compute_80 --no-compress.
#include <cstdio>
#include <vector>
__constant__ float scale;
__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = (a[i] + b[i]) * scale;
}
int main() {
  const int n = 1000;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n);
  float *da, *db, *dc;
  cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dc, n * 4);
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  float s = 2.0f;
  cudaMemcpyToSymbol(scale, &s, 4);
  vadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaMemcpy(c.data(), dc, n * 4, cudaMemcpyDeviceToHost);
  printf("%s %f\n", cudaGetErrorString(cudaGetLastError()), c[10]);
  return c[10] == 6.0f ? 0 : 1;
}
