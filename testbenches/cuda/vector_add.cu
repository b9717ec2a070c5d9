// SPDX-License-Identifier: Apache-2.0
// c = a + b, checked on the CPU: the plainest CUDA program (irrgpu exec test, docs/cuda-apps.md).
#include <cstdio>
#include <vector>

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 5000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) a[i] = i * 0.5f, b[i] = 1000.0f - i;
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  add<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  if (cudaGetLastError() != cudaSuccess) return 3;
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  for (int i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) {
      std::printf("FAIL c[%d] = %f, want %f\n", i, c[i], a[i] + b[i]);
      return 1;
    }
  std::printf("PASS vector_add\n");
  return 0;
}
